#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# grpmap at MPI level (bench/grpmap_mpi_bench.c), NP ranks (default 8) on
# one machine: a communicator of every rank in reversed order held by the
# lattice form (--mca grpmap lattice --mca grpmap_base_min_size 0) against
# the same communicator with grpmap_base_min_size above its size (Open
# MPI's dense table), ROUNDS interleaved runs of each; prints each run and
# the ratio of the medians (compressed / dense) for communicator creation,
# ping-pong and allgather; then, the steadier figure, the median over the
# runs of each process's own ratio against the same processes on
# MPI_COMM_WORLD (dense), batch by batch (for the dense runs that ratio
# shows the method's floor: the same form on both sides).
#
#   bench/grpmap_mpi_bench.sh        (env: NP=8 ROUNDS=5 REPS=2000)
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=${PREFIX:-$TOP/_install}
NP=${NP:-8} ROUNDS=${ROUNDS:-5} REPS=${REPS:-2000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=(); [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
"$PREFIX/bin/mpicc" -O2 -Wall -I"$TOP/test/common" -o "$work/gb" "$TOP/bench/grpmap_mpi_bench.c"
run() { timeout -k 10 300 "$PREFIX/bin/mpirun" "${root[@]}" --oversubscribe -np "$NP" "$@" "$work/gb" "$REPS"; }
echo "== grpmap MPI bench: $NP ranks, $ROUNDS interleaved rounds, $REPS ping-pongs a batch"
for r in $(seq "$ROUNDS"); do
    run --mca grpmap lattice --mca grpmap_base_min_size 0 | tee -a "$work/c.txt"
    run --mca grpmap_base_min_size 100000000 | tee -a "$work/d.txt"
done
grep -q '^form compressed' "$work/c.txt" || { echo "the lattice run held no compressed group" >&2; exit 1; }
grep -q '^form dense' "$work/d.txt" || { echo "the dense run compressed a group" >&2; exit 1; }
awk 'function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
                                      return a[int((n + 1) / 2)] }
     FNR == 1 { f++ }
     { k = (f == 1) ? "c" : "d"; n[k]++; cr[k, n[k]] = $4; pp[k, n[k]] = $6; ag[k, n[k]] = $8; pw[k, n[k]] = $10; aw[k, n[k]] = $12 }
     END { for (k in n) { for (i = 1; i <= n[k]; i++) { a1[i] = cr[k, i]; a2[i] = pp[k, i]; a3[i] = ag[k, i] }
                          mc[k] = med(a1, n[k]); mp[k] = med(a2, n[k]); ma[k] = med(a3, n[k])
                          for (i = 1; i <= n[k]; i++) { a1[i] = pw[k, i]; a2[i] = aw[k, i] }
                          mpw[k] = med(a1, n[k]); maw[k] = med(a2, n[k]) }
           printf "median of %d runs: create %.2f / %.2f us, ping-pong %.3f / %.3f us, allgather %.3f / %.3f us (compressed / dense)\n", n["c"], mc["c"], mc["d"], mp["c"], mp["d"], ma["c"], ma["d"]
           printf "ratio compressed/dense: create %.3f, ping-pong %.3f, allgather %.3f\n", mc["c"] / mc["d"], mp["c"] / mp["d"], ma["c"] / ma["d"]
           printf "same process against MPI_COMM_WORLD: compressed ping-pong %.3f, allgather %.3f; dense runs (floor) ping-pong %.3f, allgather %.3f\n", mpw["c"], maw["c"], mpw["d"], maw["d"] }' \
    "$work/c.txt" "$work/d.txt"
