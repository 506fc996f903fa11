#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# MADRE benchmark (bench/redist_bench.c): 8 ranks, NBLOCKS slots of 16,000
# bytes a rank, maps exp1 (80, 96 % live), exp3 ring (50 .. 100 % live),
# exp4 (one rank free, the others exchanging all their blocks) and an equal
# all-to-all, with every redist component ompi_info lists, against
# MPI_Alltoallw into a second buffer in the same run: the median of REPS
# interleaved paired ratios (each repeat runs every candidate once).  A
# component may be given as NAME@B: a staging budget of B blocks (the info
# key redist_stage_bytes); NAME alone takes the default budget.  Same-run
# references: the moves one block a message, and RUNM blocks a message.  Memory: redist_base_peak_extra_bytes, an
# interposed malloc counter over a warm MPIX_Redistribute, and, in one run
# per component (and one for the baseline), the growth of ru_maxrss.
#
#   bench/redist_bench.sh        (env: NBLOCKS=512 REPS=11 NP=8 RUNM=16
#                                 COMPS="cyclic cyclic@2 park@32"
#                                 MAPS=exp1-80,exp4 (default all) NORSS=1)
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=${PREFIX:-$TOP/_install}
NBLOCKS=${NBLOCKS:-512} REPS=${REPS:-11} NP=${NP:-8} RUNM=${RUNM:-16}
if [ -z "${COMPS:-}" ]; then
    all=$("$PREFIX/bin/ompi_info" --parsable | awk -F: '$1 == "mca" && $2 == "redist" && $3 != "base" {print $3}' | sort -u)
    [ -n "$all" ] || { echo "ompi_info lists no redist component" >&2; exit 1; }
    COMPS=$( (for c in cyclic unit cycleshift unitcyclic phase park; do grep -x "$c" <<<"$all" || true; done
              grep -vxE 'cyclic|unit|cycleshift|unitcyclic|phase|park' <<<"$all" || true) | xargs)
fi
maps=(); [ -n "${MAPS:-}" ] && maps=(-M "$MAPS")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=(); [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
mpirun() { timeout -k 10 900 "$PREFIX/bin/mpirun" "${root[@]}" --oversubscribe -np "$NP" "$@"; }
"$PREFIX/bin/mpicc" -O2 -Wall -I"$TOP/test/common" -o "$work/rb" "$TOP/bench/redist_bench.c"

echo "== MADRE: $NP ranks, $NBLOCKS blocks of 16000 bytes a rank, components: $COMPS"
mpirun "$work/rb" -b "$NBLOCKS" -r "$REPS" -m "$RUNM" "${maps[@]}" $COMPS | tee "$work/rows.txt" | grep -vE '^(row|blockwise|runwise) '
: >"$work/rss.txt"
if [ -z "${NORSS:-}" ]; then
    for who in baseline $COMPS; do
        mpirun "$work/rb" --rss "$who" -b "$NBLOCKS" "${maps[@]}" | grep '^rss' >>"$work/rss.txt"
    done
fi

echo "ratio: execute time / MPI_Alltoallw into a second buffer, median of $REPS interleaved paired"
echo "ratios (times: medians; each the slowest rank's);"
echo "memory in bytes, largest over ranks: pvar = redist_base_peak_extra_bytes after the call,"
echo "heap = peak malloc'd bytes above the start of a warm MPIX_Redistribute (create+execute+free),"
echo "base heap = the same over a warm MPI_Alltoallw, base extra = its second buffer;"
echo "vs_block = execute time / one message per block (below), median of the paired ratios"
awk '
    BEGIN { printf "%-9s %-11s %9s %9s %7s %9s %10s %11s %9s %10s %8s\n", "map", "component", "exec_ms",
            "base_ms", "ratio", "create_ms", "pvar_peak", "heap_peak", "base_heap", "base_extra",
            "vs_block" }
    $1 == "row" && $4 == "refused" { printf "%-9s %-11s %9s\n", $2, $3, "refused"; next }
    $1 == "row" { printf "%-9s %-11s %9.2f %9.2f %7.2f %9.2f %10d %11d %9d %10d %8.2f%s\n", $2, $3, $4,
                  $5, $6, $7, $8, $9, $10, $11, $12, (NF > 12 ? "  " $13 : "") }' "$work/rows.txt"
echo "one message per block (every live block its own message into the second buffer, all"
echo "posted at once; the floor for methods that move a block per message), same repeats:"
awk '$1 == "blockwise" { printf "  %-9s %9.2f ms %9.2f ms  ratio %5.2f\n", $2, $3, $4, $5 }' "$work/rows.txt"
echo "$RUNM blocks a message (a peer's blocks in slot order, $RUNM at a time, all posted at once):"
awk '$1 == "runwise" { printf "  %-9s %9.2f ms %9.2f ms  ratio %5.2f\n", $2, $4, $5, $6 }' "$work/rows.txt"
echo "ru_maxrss growth a rank over all maps (KB, largest over ranks; baseline includes its second buffer):"
awk '{ printf "  %-11s %8d KB\n", $2, $3 }' "$work/rss.txt"
! grep -q WRONG-DATA "$work/rows.txt" || { echo "a component moved data wrong (WRONG-DATA above)" >&2; exit 1; }
