#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# What pml/zcomp costs on a message it sends raw (shared memory, or any
# path faster than every codec), counted in instructions with valgrind's
# callgrind, against plain ob1 in the same script: per-message
# instructions = (count for N2 messages - count for N1) / (N2 - N1), so the
# start-up cancels out.  On a shared machine the transfer *times* of two
# runs differ by more than the few percent this is about; instruction
# counts do not.  Prints one line per size and datatype:
#   overhead <type> <bytes> <plain instr/msg> <zcomp instr/msg> <ratio>
#   bench/zcomp-overhead.sh [sizes (default 4096,65536,1048576)] [types (int,double,byte)]
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=${PREFIX:-$TOP/_install}
OUT=${OUT:-${OVERLAY_BUILD_DIR:-$TOP/_build}/zcomp-overhead}
SIZES=${1:-4096,65536,1048576}
TYPES=${2:-int,double,byte}
N1=${N1:-1000} N2=${N2:-3000}  # messages; a tenth of that from 1 MB up (valgrind is slow)
command -v valgrind >/dev/null || { echo "zcomp-overhead: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
mkdir -p "$OUT"
"$PREFIX/bin/mpicc" -O2 -g -o "$OUT/zcomp_overhead" "$TOP/bench/zcomp_overhead.c"
root=(); [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
# 5.0 renamed the shared-memory BTL vader to sm (vader is an alias that warns).
SHM=vader
case $("$PREFIX/bin/ompi_info" --parsable 2>/dev/null | sed -n 's/^ompi:version:full://p') in
    4.*) ;;
    *) SHM=sm ;;
esac

count() {  # mode n size type -> instructions inside loop()
    local z=() f=$OUT/cg.$1.$2.$3.$4
    [ "$1" = zcomp ] && z=(--mca pml_zcomp_enable 1)
    # shared memory and self: the raw path zcomp takes on shared memory (a
    # message to oneself goes through the self BTL, with the same PML work
    # on top)
    "$PREFIX/bin/mpirun" "${root[@]}" -np 1 --mca btl "$SHM",self "${z[@]}" \
        valgrind -q --tool=callgrind --callgrind-out-file="$f" --toggle-collect=loop \
        "$OUT/zcomp_overhead" "$2" "$3" "$4" >/dev/null
    awk '/^summary:/ {print $2}' "$f"
}
echo "| type | bytes | plain ob1 instr/msg | zcomp instr/msg | ratio |"
echo "|---|---|---|---|---|"
for t in ${TYPES//,/ }; do
    for s in ${SIZES//,/ }; do
        declare -A per=()
        n1=$N1 n2=$N2; [ "$s" -ge 1048576 ] && { n1=$((N1 / 10)); n2=$((N2 / 10)); }
        for m in plain zcomp; do
            a=$(count $m "$n1" "$s" "$t"); b=$(count $m "$n2" "$s" "$t")
            per[$m]=$(( (b - a) / (n2 - n1) ))
        done
        awk -v t="$t" -v s="$s" -v p="${per[plain]}" -v z="${per[zcomp]}" \
            'BEGIN { printf "| %s | %d | %d | %d | %.4fx |\n", t, s, p, z, z / p }'
        unset per
    done
done
