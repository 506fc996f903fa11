#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# fcoll/la_twophase against two_phase and vulcan on the access patterns of
# HDF5 and MPI-IO applications: bench/fcoll_matrix.c (MPI-IO file views:
# interleaved runs of 1/4/64 doubles, 2-D rows and columns, 3-D blocks,
# block-cyclic darray, BIPS3D-like irregular, random runs, sparse with
# holes) and bench/fcoll_hdf5.c (parallel HDF5 hyperslabs; skipped when it
# does not build), each with the file opened once for all repetitions
# (same) and opened for every call (reopen).  File on tmpfs (/dev/shm);
# over shared memory, and over TCP through ../shared/tools/slowlink --rate
# 1gbit (needs root).  Every run checks the data byte for byte.
#
# Per net x pattern x mode the three components run interleaved: ROUNDS
# rounds, each running every component once (in a rotated order) with REPS
# repetitions; a component's time is the median of its ROUNDS*REPS
# write_all (read_all) times, so that drifting noise hits the three alike.
# ratio = la_twophase / min(two_phase, vulcan); '*' marks ratio > 1.03.
# A run that fails (nonzero exit, FAIL in its output) is printed, and the
# script exits nonzero at the end.
#
#   bench/fcoll_matrix.sh   (env: NP=4 MB=32 REPS=7 ROUNDS=3 AGG=NP
#                            MODES="same reopen" NETS="shm slowlink"
#                            PATTERNS="i1 ... h5sub3d" TIMEOUT=900
#                            EXTRA_MCA="--mca fcoll_la_twophase_X V ...")
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=${PREFIX:-$TOP/_install}
NP=${NP:-4} MB=${MB:-32} REPS=${REPS:-7} ROUNDS=${ROUNDS:-3}
AGG=${AGG:-$NP} MODES=${MODES:-same reopen} TIMEOUT=${TIMEOUT:-900}
read -r -a extra <<<"${EXTRA_MCA:-}"
SLOWLINK=${SLOWLINK:-$TOP/../shared/tools/slowlink}
[ -x "$SLOWLINK" ] || SLOWLINK=/work/shared/tools/slowlink
H5INC=${H5INC:-/usr/include/hdf5/openmpi}
H5LIB=${H5LIB:-/usr/lib/x86_64-linux-gnu/hdf5/openmpi}
COMPS=(la_twophase two_phase vulcan)
MPIIO_PATTERNS="i1 i4 i64 rows cols sub3d darray irregular random sparse"
H5_PATTERNS="h5strided h5rows h5cols h5sub3d"

W=$(mktemp -d /dev/shm/fcoll-matrix.XXXXXX)
trap 'rm -rf "$W"' EXIT
"$PREFIX/bin/mpicc" -O2 -Wall -Wextra -I"$TOP/test/common" -o "$W/fm" "$TOP/bench/fcoll_matrix.c"
h5=0
if [ ! -r "$H5INC/hdf5.h" ]; then
    h5why="no $H5INC/hdf5.h (libhdf5-openmpi-dev)"
elif "$PREFIX/bin/mpicc" -O2 -Wall -I"$H5INC" -o "$W/fh" "$TOP/bench/fcoll_hdf5.c" \
        -L"$H5LIB" -lhdf5 2>"$W/h5.err"; then
    h5=1
else
    h5why="bench/fcoll_hdf5.c does not build: $(head -3 "$W/h5.err" | tr '\n' ' ')"
fi
[ "$h5" -eq 1 ] || echo "(HDF5 patterns skipped: $h5why)"
PATTERNS=${PATTERNS:-$MPIIO_PATTERNS $([ "$h5" -eq 0 ] || echo "$H5_PATTERNS")}

root=(); [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
if [ -z "${NETS:-}" ]; then
    NETS=shm
    if [ "$(id -u)" -eq 0 ] && [ -x "$SLOWLINK" ]; then NETS="shm slowlink"
    else echo "(slowlink needs root and $SLOWLINK: TCP runs skipped)"; fi
fi

launch() {   # launch NET ARGS...: mpirun over shared memory or the slow link
    local net=$1; shift
    if [ "$net" = shm ]; then
        timeout -k 10 "$TIMEOUT" "$PREFIX/bin/mpirun" "${root[@]}" --oversubscribe -np "$NP" \
            --mca btl vader,self "$@"
    else
        timeout -k 10 "$TIMEOUT" "$SLOWLINK" --rate 1gbit -- "$PREFIX/bin/mpirun" "${root[@]}" \
            --oversubscribe -np "$NP" --mca btl tcp,self --mca btl_tcp_if_include lo \
            --mca oob_tcp_if_include lo "$@"
    fi
}

failed=()
# run_one NET PATTERN MODE COMP: appends the run's write_all and read_all
# times to $W/t.COMP.w and $W/t.COMP.r; returns 1 on failure.
run_one() {
    local net=$1 pat=$2 mode=$3 comp=$4 rc=0 res
    local mca=(--mca fcoll "$comp" --mca io_ompio_num_aggregators "$AGG" "${extra[@]}")
    if [[ $pat == h5* ]]; then
        # HDF5's library links libmpi.so.40: make it this installation's
        LD_LIBRARY_PATH="$PREFIX/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" MB=$MB \
            launch "$net" -x LD_LIBRARY_PATH -x MB "${mca[@]}" \
            "$W/fh" "$W/file.h5" "$pat" "$REPS" "$mode" >"$W/out" 2>&1 || rc=$?
    else
        MB=$MB launch "$net" -x MB "${mca[@]}" \
            "$W/fm" "$W/file" "$pat" "$REPS" "$mode" >"$W/out" 2>&1 || rc=$?
    fi
    rm -f "$W/file" "$W/file.h5"
    res=$(grep '^RESULT' "$W/out" || true)
    if [ "$rc" -ne 0 ] || grep -q FAIL "$W/out" || [ -z "$res" ]; then
        echo "--- FAILED: $net $pat $mode $comp (exit $rc):" >&2
        tail -n 30 "$W/out" >&2
        failed+=("$net $pat $mode $comp (exit $rc)")
        return 1
    fi
    sed -n 's/.* write_all=\([^ ]*\).*/\1/p' <<<"$res" | tr , '\n' >>"$W/t.$comp.w"
    sed -n 's/.* read_all=\([^ ]*\).*/\1/p' <<<"$res" | tr , '\n' >>"$W/t.$comp.r"
}

median() {   # median FILE: the upper median of the numbers in FILE, one a line
    sort -g "$1" | awk '{ v[NR] = $1 } END { if (NR) print v[int(NR / 2) + 1]; else print "nan" }'
}

ratio() {   # ratio LA TP VU: "la / min(tp, vu)", starred over 1.03
    awk -v l="$1" -v a="$2" -v b="$3" 'BEGIN { m = (a < b ? a : b)
        if (m > 0) { r = l / m; printf "%.3f%s", r, (r > 1.03 ? "*" : "") } else printf "nan" }'
}

echo "== fcoll matrix: $NP ranks, $MB MiB a write, io_ompio_num_aggregators $AGG," \
     "median of $ROUNDS rounds x $REPS reps, components interleaved" \
     "${EXTRA_MCA:+(extra: $EXTRA_MCA)}"
row() { printf '%-9s %-10s %-7s %9s %9s %9s %8s %9s %9s %9s %8s\n' "$@"; }
row net pattern mode la_w tp_w vu_w ratio_w la_r tp_r vu_r ratio_r
rows=0 overw=0 overr=0 over=()
for net in $NETS; do
    for pat in $PATTERNS; do
        if [[ $pat == h5* ]] && [ "$h5" -eq 0 ]; then
            echo "$net $pat: skipped ($h5why)"
            continue
        fi
        for mode in $MODES; do
            rm -f "$W"/t.*
            ok=1
            for ((round = 0; round < ROUNDS; round++)); do
                for ((i = 0; i < ${#COMPS[@]}; i++)); do
                    c=${COMPS[(round + i) % ${#COMPS[@]}]}
                    run_one "$net" "$pat" "$mode" "$c" || ok=0
                done
            done
            if [ "$ok" -eq 0 ]; then
                row "$net" "$pat" "$mode" fail - - - fail - - -
                continue
            fi
            declare -A mw=() mr=()
            for c in "${COMPS[@]}"; do
                mw[$c]=$(median "$W/t.$c.w")
                mr[$c]=$(median "$W/t.$c.r")
            done
            rw=$(ratio "${mw[la_twophase]}" "${mw[two_phase]}" "${mw[vulcan]}")
            rr=$(ratio "${mr[la_twophase]}" "${mr[two_phase]}" "${mr[vulcan]}")
            row "$net" "$pat" "$mode" "${mw[la_twophase]}" "${mw[two_phase]}" "${mw[vulcan]}" \
                "$rw" "${mr[la_twophase]}" "${mr[two_phase]}" "${mr[vulcan]}" "$rr"
            rows=$((rows + 1))
            if [[ $rw == *'*' ]]; then overw=$((overw + 1)); fi
            if [[ $rr == *'*' ]]; then overr=$((overr + 1)); fi
            if [[ $rw == *'*' || $rr == *'*' ]]; then over+=("$net/$pat/$mode"); fi
            unset mw mr
        done
    done
done

echo "== over 1.03 (la_twophase slower than the better of two_phase and vulcan):" \
     "write $overw, read $overr, either ${#over[@]} of $rows rows${over[*]:+: ${over[*]}}"
if [ "${#failed[@]}" -gt 0 ]; then
    echo "== ${#failed[@]} failed runs:" >&2
    printf '  %s\n' "${failed[@]}" >&2
    exit 1
fi
