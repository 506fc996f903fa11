#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# Per-communicator heap census by owner (issue 38): at each of NPS ranks,
# every rank creates K communicators of each kind in KINDS (as
# bench/comm_memory.sh: dup, row, col, plane, cart), each carrying one
# message round a ring of its members, under valgrind's massif; a
# detailed snapshot before and after the K (bench/comm_memory.c built with
# -DCOMM_CENSUS) gives the bytes by allocation stack, which
# bench/comm_census.py charges to owners (coll/tuned, pml/ob1, attributes,
# the info subscriber table, ...) and prints per communicator, the median
# rank's, with the slope per member across NPS.  SITES=1 adds each owner's
# allocation sites.  Bytes are those asked of malloc (massif's heap);
# malloc's own overhead is the last line.
#
# COLL=1 adds an 8-byte MPI_Allreduce on each (its collective modules).
#
#   bench/comm_census.sh [mpirun args...]   (env: NPS="4 8" K=40
#                        KINDS="dup row col plane cart" PREFIX SITES=1 COLL=1)
# e.g. bench/comm_census.sh --mca grpmap_base_min_size 0 --mca pml_ob1_sparse_peers_min 0
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=${PREFIX:-$TOP/_install}
NPS=${NPS:-4 8} K=${K:-40} KINDS=${KINDS:-dup row col plane cart}
command -v valgrind >/dev/null || { echo "comm_census: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=(); [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
"$PREFIX/bin/mpicc" -O2 -g -Wall -DCOMM_CENSUS -I"$TOP/test/common" -o "$work/cc" "$TOP/bench/comm_memory.c"
echo "== per-communicator census: $("$PREFIX/bin/ompi_info" --version | head -n 1), K=$K used communicators of each kind${COLL:+ (ring and allreduce)}, ranks: $NPS${*:+, settings: $*}"
# hwloc's x86 backend cannot run under valgrind (and says so on every rank)
export HWLOC_COMPONENTS=-x86
for np in $NPS; do
    for kind in $KINDS; do
        timeout -k 10 1800 "$PREFIX/bin/mpirun" "${root[@]}" --oversubscribe -np "$np" "$@" \
            valgrind -q --tool=massif --threshold=0 --depth=40 --massif-out-file="$work/full.%p" \
            "$work/cc" census "$kind" "$K" "$work/$kind.$np" ${COLL:+coll} >"$work/$kind.$np.info"
        rm -f "$work"/full.*
    done
done
python3 "$TOP/bench/comm_census.py" "$work"
