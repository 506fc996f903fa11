#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# fcoll/la_twophase against two_phase and vulcan, in the same run:
#   - a BIPS3D-like irregular write and a STEM-like regular block write
#     (bench/fcoll_bench.c), 8 ranks, file on tmpfs (/dev/shm), every rank an
#     aggregator (--mca io_ompio_num_aggregators 8);
#   - over shared memory, and over TCP through ../shared/tools/slowlink
#     --rate 1gbit (needs root; skipped otherwise);
#   - bytes and messages that one collective write sends between different
#     processes over the PML (exchange phase and its metadata; not the
#     collectives), from Open MPI's pml monitoring, in a separate run;
#   - the assignment step inside MPI at 8 .. 64 ranks (MPI_T);
#   - then the LAP solver alone on synthetic matrices (64 .. 4096).
# Prints a table per network with ratios la_twophase / other.
#
#   bench/fcoll_bench.sh            (env: NP=8 MB=64 REPS=5 SLOWLINK=path)
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=${PREFIX:-$TOP/_install}
NP=${NP:-8} MB=${MB:-64} REPS=${REPS:-5}
SLOWLINK=${SLOWLINK:-$TOP/../shared/tools/slowlink}
[ -x "$SLOWLINK" ] || SLOWLINK=/work/shared/tools/slowlink
W=$(mktemp -d /dev/shm/fcoll-bench.XXXXXX)
trap 'rm -rf "$W"' EXIT
"$PREFIX/bin/mpicc" -O2 -I"$TOP/test/common" -o "$W/fb" "$TOP/bench/fcoll_bench.c"
root=(); [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
COMPS="la_twophase two_phase vulcan"

launch() {   # launch NET ARGS...: mpirun over shared memory or the slow link
    local net=$1; shift
    if [ "$net" = shm ]; then
        "$PREFIX/bin/mpirun" "${root[@]}" --oversubscribe -np "$NP" --mca btl vader,self "$@"
    else
        "$SLOWLINK" --rate 1gbit -- "$PREFIX/bin/mpirun" "${root[@]}" --oversubscribe -np "$NP" \
            --mca btl tcp,self --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo "$@"
    fi
}

run_one() {   # run_one NET WORKLOAD COMP -> "RESULT ... bytes=B msgs=M"
    local net=$1 wl=$2 comp=$3 res bm
    local mca=(--mca fcoll "$comp" --mca io_ompio_num_aggregators "$NP")
    # one write under pml monitoring: point-to-point messages between
    # different processes ("E" lines; collectives are counted apart)
    bm=$(launch "$net" "${mca[@]}" --mca pml_monitoring_enable 2 \
            --mca pml_monitoring_enable_output 1 \
            "$W/fb" "$W/file.$comp" "$wl" "$MB" 0 2>/dev/null |
         awk -F'\t' '$1 == "E" && $2 != $3 { b += $4 + 0; m += $5 + 0 }
                     END { printf "bytes=%d msgs=%d", b, m }')
    rm -f "$W/file.$comp"
    # the timed runs, without monitoring
    res=$(launch "$net" "${mca[@]}" "$W/fb" "$W/file.$comp" "$wl" "$MB" "$REPS" 2>"$W/err" |
          grep '^RESULT\|FAIL') || { cat "$W/err" >&2; res="RESULT failed"; }
    rm -f "$W/file.$comp"
    echo "$res $bm"
}

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }

nets="shm"
if [ "$(id -u)" -eq 0 ] && [ -x "$SLOWLINK" ]; then nets="shm slowlink"
else echo "(slowlink needs root and $SLOWLINK: TCP runs skipped)"; fi

for net in $nets; do
    for wl in irregular regular; do
        echo "== $net $wl: $NP ranks, $MB MiB, median of $REPS"
        printf '%-12s %10s %10s %14s %10s\n' component write_s read_s bytes msgs
        declare -A R=()
        for c in $COMPS; do
            R[$c]=$(run_one "$net" "$wl" "$c")
            printf '%-12s %10s %10s %14s %10s\n' "$c" "$(field write_s "${R[$c]}")" \
                "$(field read_s "${R[$c]}")" "$(field bytes "${R[$c]}")" "$(field msgs "${R[$c]}")"
        done
        for c in two_phase vulcan; do
            awk -v c="$c" -v lw="$(field write_s "${R[la_twophase]}")" -v ow="$(field write_s "${R[$c]}")" \
                -v lr="$(field read_s "${R[la_twophase]}")" -v or="$(field read_s "${R[$c]}")" \
                -v lb="$(field bytes "${R[la_twophase]}")" -v ob="$(field bytes "${R[$c]}")" \
                'BEGIN { printf "ratio la_twophase/%-10s write %.3f  read %.3f  bytes %.3f\n", c,
                         (ow > 0 ? lw / ow : 0), (or > 0 ? lr / or : 0), (ob > 0 ? lb / ob : 0) }'
        done
        awk -v lw="$(field write_s "${R[la_twophase]}")" -v a="$(field write_s "${R[two_phase]}")" \
            -v b="$(field write_s "${R[vulcan]}")" \
            'BEGIN { m = (a < b ? a : b); printf "ratio la_twophase/best-of-two write %.3f\n", (m > 0 ? lw / m : 0) }'
        unset R
    done
done

echo "== la_twophase assignment step inside MPI (irregular workload, shm, one write)"
for np in 8 16 32 64; do
    ASSIGN=1 "$PREFIX/bin/mpirun" "${root[@]}" --oversubscribe -np "$np" -x ASSIGN \
        --mca btl vader,self --mca fcoll la_twophase --mca io_ompio_num_aggregators "$np" \
        --mca fcoll_base_verbose 10 "$W/fb" "$W/file.a" irregular "$MB" 0 2>&1 |
        grep '^ASSIGN\|kept in place' | sed 's/^\[[^]]*\] //'
    rm -f "$W/file.a"
done

echo "== LAP solver alone (test/unit/fcoll_lap_test.c --bench, -O2)"
gcc -std=c99 -O2 -I"$TOP" -o "$W/lap" "$TOP/test/unit/fcoll_lap_test.c" \
    "$TOP/ompi/mca/fcoll/la_twophase/fcoll_la_twophase_lap.c" -lm
"$W/lap" --bench
