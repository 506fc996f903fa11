#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# zcomp across nodes whose links deliver less than their interfaces
# advertise (issue 39): ../shared/tools/fakecluster, 3 nodes, links shaped
# to RATE (default 1gbit) by tc, veth interfaces advertising 10 Gbit/s.
# Rank 0 (node0) sends rank 1 (node1) blocking 16 MB messages of a data set
# (test/mpi/src/zcomp_path.c, every message checked).  Per round, plain ob1,
# zcomp adaptive and zcomp always (lz4) run one after the other, in an
# order that rotates from round to round; a run's time is the median of
# its messages after the first two (adaptive learns the path from the
# first).  Printed per data set: the median over rounds of the paired
# ratios plain/adaptive and always/adaptive (above 1: adaptive faster),
# and adaptive's share of the better of the two.
#
#   bench/zcomp-cluster.sh [--rounds N] [--rate RATE] [--sets a,b] [--n MESSAGES]
# Needs root.  Results: $OUT (default _build/zcomp-cluster)/summary.txt
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=${PREFIX:-$TOP/_install}
BUILD=${OVERLAY_BUILD_DIR:-$TOP/_build}
OUT=${OUT:-$BUILD/zcomp-cluster}
FC=${FAKECLUSTER:-$TOP/../shared/tools/fakecluster}
rounds=7 rate=1gbit sets=int-90%zero,field3d-double,random-bytes n=8
while [ $# -gt 0 ]; do
    case $1 in
        --rounds) rounds=$2; shift 2 ;;
        --rate) rate=$2; shift 2 ;;
        --sets) sets=$2; shift 2 ;;
        --n) n=$2; shift 2 ;;
        *) echo "usage: $0 [--rounds N] [--rate RATE] [--sets a,b] [--n MESSAGES]" >&2; exit 2 ;;
    esac
done
[ "$(id -u)" -eq 0 ] || { echo "zcomp-cluster: needs root (fakecluster)" >&2; exit 2; }
mkdir -p "$OUT"
"$PREFIX/bin/mpicc" -O2 -I"$TOP/test/common" -o "$OUT/path" "$TOP/test/mpi/src/zcomp_path.c" \
    "$TOP/test/common/datasets.c" -lm
shm=vader
"$PREFIX/bin/ompi_info" --parsable | grep -q '^mca:btl:sm:' && shm=sm

run() {  # set mode round
    local z=()
    case $2 in
        adaptive) z=(--mca pml_zcomp_enable 1) ;;
        always) z=(--mca pml_zcomp_enable 1 --mca pml_zcomp_strategy always --mca pml_zcomp_codec lz4) ;;
    esac
    "$FC" --nodes 3 --slots 1 --rate "$rate" -- "$PREFIX/bin/mpirun" --allow-run-as-root \
        --prefix "$PREFIX" -np 2 --map-by node --mca btl tcp,$shm,self "${z[@]}" \
        "$OUT/path" --set "$1" --n "$n" >"$OUT/${1//%/}.$2.$3" 2>&1
    grep -q '^zcomp_path: 0 failed' "$OUT/${1//%/}.$2.$3" ||
        { tail "$OUT/${1//%/}.$2.$3"; echo "zcomp-cluster: $1 $2 failed" >&2; exit 1; }
}
modes=(plain adaptive always)
for r in $(seq "$rounds"); do
    for set in ${sets//,/ }; do
        for k in 0 1 2; do
            m=${modes[$(((k + r) % 3))]}
            run "$set" "$m" "$r"
        done
    done
    echo "zcomp-cluster: round $r of $rounds done"
done
python3 - "$OUT" "$rounds" "$sets" "$rate" <<'PY' | tee "$OUT/summary.txt"
import statistics, sys
out, rounds, sets, rate = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(","), sys.argv[4]
def steady(f):
    for line in open(f):
        w = line.split()
        if w[:2] == ["phase", "0"]:
            return statistics.median(float(x) for x in w[6:])
print(f"| data set ({rate}) | plain ms | adaptive ms | always ms | plain/adaptive | always/adaptive | adaptive of the better | adaptive's choices |")
print("|---|---|---|---|---|---|---|---|")
for s in sets:
    f = s.replace("%", "")
    t = {m: [steady(f"{out}/{f}.{m}.{r}") for r in range(1, rounds + 1)] for m in ("plain", "adaptive", "always")}
    pa = statistics.median(p / a for p, a in zip(t["plain"], t["adaptive"]))
    za = statistics.median(z / a for z, a in zip(t["always"], t["adaptive"]))
    share = statistics.median(min(p, z) / a for p, z, a in zip(t["plain"], t["always"], t["adaptive"]))
    dec = open(f"{out}/{f}.adaptive.1").read().split("phase 0 ")[1].split()[0]
    print(f"| {s} | {statistics.median(t['plain']):.1f} | {statistics.median(t['adaptive']):.1f} | "
          f"{statistics.median(t['always']):.1f} | {pa:.3f}x | {za:.3f}x | {100 * share:.0f} % | {dec} |")
PY
