#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# grpmap benchmark (bench/grpmap_bench.c): the thesis's Table 6.1 maps (a
# world of 200,000) and chapter 5's classes A-E (a world of 10^6), each
# through every representation (bytes, random SELECT), the three
# strategies (picks, bytes), its information bound, Open MPI 4.1.4's own
# sparse group formats and dense table; SELECT of the hybrid and time
# picks against Open MPI's dense pointer table (read and dereferenced) in
# the same run; the hybrid's build against filling the dense table; then
# the issue's five bars.  Plain C, -O2, no sanitizers, no MPI run.  The
# output goes to OUT (default bench/results/grpmap-run2.md) with a short
# header (date, machine, command).
#
#   bench/grpmap_bench.sh [-r REPS] [-p PATTERNS]   (REPS of every timing,
#                          default 5; PATTERNS e.g. 1,9,14,A2 (default all))
# Environment: OVERLAY_BUILD_DIR (default ./_build: the prepared Open MPI
# source, for opal/constants.h), OUT.
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${OVERLAY_BUILD_DIR:-$TOP/_build}
OMPI_SRC=$BUILD/src/openmpi-4.1.4
OUT=${OUT:-$TOP/bench/results/grpmap-run2.md}
G=$TOP/ompi/mca/grpmap
[ -f "$OMPI_SRC/opal/include/opal/constants.h" ] \
    || { echo "no prepared Open MPI source at $OMPI_SRC (set OVERLAY_BUILD_DIR)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bdd=("$G/bdd/grpmap_bdd.c" -lbdd)
[ -f /usr/include/bdd.h ] || { echo "BuDDy not installed: bdd left out" >&2; bdd=(-DGP_NO_BDD); }
gcc -std=c99 -O2 -D_POSIX_C_SOURCE=200809L -Wall -Werror -I"$TOP" -I"$OMPI_SRC/opal/include" \
    -o "$work/gb" "$TOP/bench/grpmap_bench.c" "$G/base/grpmap_engine.c" \
    "$G/lattice/grpmap_lattice.c" "$G/bitmap/grpmap_bitmap.c" "$G/gap/grpmap_gap.c" \
    "$G/array/grpmap_array.c" "$G/bwt/grpmap_bwt.c" "$G/wtr/grpmap_wtr.c" \
    "$TOP/opal/mca/compress/bzip2/compress_bzip2_codec.c" "${bdd[@]}" -lbz2 -lm -lpthread

"$work/gb" "$@" | tee "$work/out.txt"

commit=$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git -C "$TOP" status --porcelain 2>/dev/null)" ] || commit="$commit + uncommitted changes"
mkdir -p "$(dirname "$OUT")"
{
    echo "# grpmap benchmark: $(basename "$OUT" .md) ($(date -u +%Y-%m-%d))"
    echo
    echo "Command: \`bench/grpmap_bench.sh${*:+ $*}\` (gcc -O2, no sanitizers), commit $commit."
    echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(uname -sr)."
    echo
    echo '```'
    cat "$work/out.txt"
    echo '```'
} >"$OUT"
echo "== written to $OUT"
! grep -q '^WRONG' "$work/out.txt" || { echo "a representation returned a wrong SELECT (WRONG above)" >&2; exit 1; }
