#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# pml/zcomp against plain ob1, in the same script, over three paths: a
# 1 Gbit/s and a 100 Mbit/s link (../shared/tools/slowlink, TCP over the
# shaped loopback) and shared memory (vader).  Two ranks; for each data set
# and size the transfer time with zcomp off and on (runs alternate, median
# of the rounds' medians; small messages are timed in streams of 1 MB, see
# zcomp_bench.c; on shared memory plain and zcomp alternate stream by stream
# inside each run, zcomp_bench --ab, and the speedup is the median over the
# rounds of each run's median ratio of neighbouring streams), the speedup,
# and the ideal speedup
# max over codecs of min(ratio, Vc/B, Vd/B) from the codec figures measured
# (B: the path's bandwidth measured by the plain runs): on the slow links in
# each zcomp run, on shared memory in the first run.  On the slow links each
# timed transfer is judged against the ideal from a codec pass right after
# it ("of ideal": median per run, then over the rounds), as the VM's speed
# drifts; "codecs after" judges each run's median transfer against the best
# of three passes after all of its transfers instead (the method up to run 10).
#
#   bench/zcomp-bench.sh [--quick] [--rounds N] [--links "1gbit 100mbit shm"]
#                        [--summary] [-- extra mpirun args for the zcomp runs]
# --summary only prints the table again from the results in $OUT.
# On the slow links zcomp starts from contrib/zcomp_calibrate.c's figures
# (measured first, in the same script); NO_CALIBRATION=1 leaves them out.
# Needs root for slowlink.  Results: $OUT (default _build/zcomp-bench)/summary.txt
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=${PREFIX:-$TOP/_install}
BUILD=${OVERLAY_BUILD_DIR:-$TOP/_build}
OUT=${OUT:-$BUILD/zcomp-bench}
SLOWLINK=${SLOWLINK:-$TOP/../shared/tools/slowlink}
SETS="int-90%zero,int-75%zero,int-50%zero,float-75%zero,double-75%zero,double-pattern,field3d-double,sparse-index,sparse-value,text,random-bytes"
SIZES="4096,65536,1048576,16777216"
BIG_SETS="int-90%zero,random-bytes"
BIG_SIZES="67108864"
CODECS="lzo,lz4,zstd,rle,fpc,huffman,rice"
rounds=2 reps=3 links="1gbit 100mbit shm" summary_only=""
while [ $# -gt 0 ]; do
    case $1 in
        --quick) SETS="int-90%zero,double-pattern,random-bytes"; SIZES="65536,16777216"; BIG_SIZES=""; rounds=1; shift ;;
        --rounds) rounds=$2; shift 2 ;;
        --links) links=$2; shift 2 ;;
        --summary) summary_only=1; shift ;;
        --) shift; break ;;
        *) echo "usage: $0 [--quick] [--rounds N] [--links LIST] [--summary] [-- mpirun args]" >&2; exit 2 ;;
    esac
done
extra=("$@")
mkdir -p "$OUT"
O=$BUILD/obj S=$BUILD/src/openmpi-4.1.4
"$PREFIX/bin/mpicc" -O2 -o "$OUT/zcomp_bench" -I"$O" -I"$O/opal/include" -I"$O/ompi/include" \
    -I"$O/orte/include" -I"$S" -I"$S/opal/include" -I"$S/ompi/include" -I"$S/orte/include" \
    -I/usr/lib/x86_64-linux-gnu/pmix2/include -I"$TOP/test/common" \
    "$TOP/bench/zcomp_bench.c" "$TOP/test/common/datasets.c" -lopen-pal -lm
"$PREFIX/bin/mpicc" -O2 -o "$OUT/zcomp_calibrate" "$TOP/contrib/zcomp_calibrate.c"
root=(); [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)

run() {  # link mode round -> appends to $OUT/<link>.<mode>.<round>
    local link=$1 mode=$2 round=$3 f=$OUT/$1.$2.$3 pre=() net=() z=()
    case $link in
        shm) net=(--mca btl vader,self) ;;
        *) pre=("$SLOWLINK" --rate "$link" --); net=(--mca btl tcp,self --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo) ;;
    esac
    [ "$mode" = zcomp ] && z=(--mca pml_zcomp_enable 1 "${extra[@]}")
    # the slow links: adaptive starts from the calibration tool's figures
    if [ "$mode" = zcomp ] && [ "$link" != shm ] && [ -z "${NO_CALIBRATION:-}" ]; then
        z+=(--mca pml_zcomp_calibration_file "$OUT/$link.cal")
    fi
    # the codecs are measured on the same data after each transfer and after
    # all of them (compression on rank 0, decompression on rank 1): in every zcomp run
    # of the slow links (the ideal that run is judged against) and in the
    # first shared-memory run
    local cod=()
    if [ "$mode" = zcomp ] || { [ "$mode" = ab ] && [ "$round" = 1 ]; }; then
        cod=(--codecs "$CODECS")
    fi
    # shared memory moves 16 MB in a few ms: longer streams and more
    # repetitions, plain and zcomp alternating in one run (--ab)
    local n=$reps nbig=2 b=() ab=()
    if [ "$mode" = ab ]; then
        n=$((reps * 4 + 1)) nbig=$n b=(--batch 16777216) ab=(--ab)
        z=(--mca pml_zcomp_enable 1 "${extra[@]}")
    fi
    : >"$f"
    "${pre[@]}" "$PREFIX/bin/mpirun" "${root[@]}" -np 2 "${net[@]}" "${z[@]}" \
        "$OUT/zcomp_bench" --sets "$SETS" --sizes "$SIZES" --reps $n "${b[@]}" "${ab[@]}" "${cod[@]}" >>"$f"
    if [ -n "$BIG_SIZES" ]; then
        "${pre[@]}" "$PREFIX/bin/mpirun" "${root[@]}" -np 2 "${net[@]}" "${z[@]}" \
            "$OUT/zcomp_bench" --sets "$BIG_SETS" --sizes "$BIG_SIZES" --reps $nbig "${ab[@]}" "${cod[@]}" >>"$f"
    fi
}
for link in $links; do
    [ -n "$summary_only" ] && break
    if [ "$link" != shm ] && [ -z "${NO_CALIBRATION:-}" ]; then
        echo "zcomp-bench: $link: calibrating"
        "$SLOWLINK" --rate "$link" -- "$PREFIX/bin/mpirun" "${root[@]}" -np 2 --mca btl tcp,self \
            --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo "$OUT/zcomp_calibrate" "$OUT/$link.cal"
    fi
    rm -f "$OUT/$link".{plain,zcomp,ab}.*
    nr=$rounds; [ "$link" = shm ] && nr=$((rounds * 4))
    for r in $(seq 1 "$nr"); do
        if [ "$link" = shm ]; then
            echo "zcomp-bench: $link round $r: plain ob1 and zcomp, alternating"; run "$link" ab "$r"
            continue
        fi
        echo "zcomp-bench: $link round $r: plain ob1"; run "$link" plain "$r"
        echo "zcomp-bench: $link round $r: zcomp";     run "$link" zcomp "$r"
    done
done
# Summary: median over the rounds of each run's median (run-to-run scatter
# on this 2-core VM exceeds the within-run one), speedup, ideal, share of it.
python3 - "$OUT" $links <<'PY' | tee "$OUT/summary.txt"
import glob, statistics, sys
out, links = sys.argv[1], sys.argv[2:]
shm = None
print("| path | data set | size | plain ms | zcomp ms | speedup | ideal | of ideal | codecs after |")
print("|---|---|---|---|---|---|---|---|---|")
for link in links:
    t = {"plain": {}, "zcomp": {}, "ratio": {}}
    codecs = {}  # key -> codec figures of the plain (or ab) runs
    zruns = {}   # key -> [(zcomp time, codec figures of that same run)]
    zreps = {}   # key -> [{rep: (zcomp time, codec figures right after it)}], one per run
    for mode in ("plain", "zcomp", "ab"):
        for f in sorted(glob.glob("%s/%s.%s.*" % (out, link, mode))):
            run_t, run_c, run_x, run_cr = {}, {}, {}, {}
            for line in open(f):
                w = line.split()
                if w and w[0] == "xrep":
                    run_x.setdefault((w[1], int(w[2])), {})[int(w[3])] = float(w[4])
                elif w and w[0] == "crep":
                    c = (w[4], float(w[5]), float(w[6]) * 1e6, float(w[7]) * 1e6)
                    run_cr.setdefault((w[1], int(w[2])), {}).setdefault(int(w[3]), []).append(c)
                elif w and w[0] == "xfer":
                    k = (w[1], int(w[2]))
                    t[mode].setdefault(k, []).append(float(w[3]))
                    run_t[k] = float(w[3])
                elif w and w[0] == "ab":  # one run, plain and zcomp alternating
                    k = (w[1], int(w[2]))
                    t["plain"].setdefault(k, []).append(float(w[3]))
                    t["zcomp"].setdefault(k, []).append(float(w[4]))
                    t["ratio"].setdefault(k, []).append(float(w[5]))
                elif w and w[0] == "codec":
                    c = (w[3], float(w[4]), float(w[5]) * 1e6, float(w[6]) * 1e6)
                    run_c.setdefault((w[1], int(w[2])), []).append(c)
            if mode == "zcomp":
                for k, reps in run_x.items():
                    zreps.setdefault(k, []).append(
                        {r: (x, run_cr[k][r]) for r, x in reps.items() if r in run_cr.get(k, {})})
            for k, cs in run_c.items():
                if mode == "zcomp" and k in run_t:
                    zruns.setdefault(k, []).append((run_t[k], cs))
                else:
                    codecs.setdefault(k, []).extend(cs)

    def ideal_of(cs, B):
        ideal, best = 1.0, "raw"
        for name, r, vc, vd in cs:
            v = min(r, vc / B, vd / B)
            if v > ideal:
                ideal, best = v, name
        return ideal, best

    for k in sorted(t["plain"], key=lambda k: (k[0], k[1])):
        if k not in t["zcomp"]:
            continue
        p, z = statistics.median(t["plain"][k]), statistics.median(t["zcomp"][k])
        if k in t["ratio"]:  # neighbouring streams compared, then the rounds
            z = p / statistics.median(t["ratio"][k])
        B = k[1] / p
        if k in zruns:
            # The codecs' speed follows the machine's (other tenants): each
            # zcomp run is judged against the ideal from codec figures taken
            # in the same process after its transfers; the median over the
            # rounds of those shares ("after").
            per = [(ideal_of(cs, B), zt) for zt, cs in zruns[k]]
            ideal = statistics.median(i for (i, _), _ in per)
            best = max(set(b for (_, b), _ in per), key=[b for (_, b), _ in per].count)
            share = statistics.median((p / zt) / i for (i, _), zt in per)
        else:
            ideal, best = ideal_of(codecs.get(k, []), B)
            share = (p / z) / ideal
        after = share
        if any(zreps.get(k, [])):
            # Closer still: each timed transfer against the ideal from the
            # codec pass right after it; the median per run, then over the
            # rounds (the judged figure).
            runs = [[(ideal_of(cs, B), x) for x, cs in reps.values()] for reps in zreps[k] if reps]
            ideal = statistics.median(statistics.median(i for (i, _), _ in r) for r in runs)
            names = [b for r in runs for (_, b), _ in r]
            best = max(set(names), key=names.count)
            share = statistics.median(statistics.median((p / x) / i for (i, _), x in r)
                                      for r in runs)
        print("| %s | %s | %d | %.4g | %.4g | %.2fx | %.2fx (%s) | %.0f%% | %.0f%% |" % (
            link, k[0], k[1], p * 1e3, z * 1e3, p / z, ideal, best, 100 * share, 100 * after))
    if link == "shm":
        shm = t
if shm is not None and shm["ratio"]:
    # On shared memory zcomp sends every data set raw through the same
    # code, so the data set does not matter and all sets at a size can be
    # pooled: geometric mean over the sets of each one's median plain/zcomp
    # ratio, with a 95 % interval from resampling the rounds (bootstrap).
    import math, random
    rnd = random.Random(1)
    print()
    print("| shm size | speedup (geo-mean over %d sets) | 95%% interval | rounds |" %
          len({k[0] for k in shm["ratio"]}))
    print("|---|---|---|---|")
    for size in sorted({k[1] for k in shm["ratio"]}):
        keys = [k for k in shm["ratio"] if k[1] == size]
        def est(pick):
            return math.exp(statistics.mean(
                math.log(statistics.median(pick(shm["ratio"][k]))) for k in keys))
        boot = sorted(est(lambda v: [rnd.choice(v) for _ in v]) for _ in range(400))
        print("| %d | %.3fx | %.3fx - %.3fx | %d |" % (
            size, est(lambda v: v), boot[10], boot[389], len(shm["ratio"][keys[0]])))
PY
