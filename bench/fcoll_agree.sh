#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# What the error agreement of OMPIO's collective writes costs (issue 35:
# patches 0010-0021 make every fcoll component tell every process of a
# collective call about any process's failed or short write, at one small
# allreduce a call): bench/fcoll_matrix.c under this installation against
# an unpatched Open MPI of the same series (UPSTREAM, default /usr: Debian
# 12's openmpi-bin 4.1.4), for each upstream fcoll component, at NPS ranks
# (2 on this 2-core machine is a core a rank; 4 oversubscribes it).  Per
# component, pattern and rank count, ROUNDS rounds each run both builds
# once (alternating which goes first); a run's time is the median of REPS
# write_all (read_all) calls; ratio = this installation / upstream of the
# same round, and the table prints the median ratio over the rounds with
# the range.  Every run checks the data byte for byte.
#
#   bench/fcoll_agree.sh   (env: UPSTREAM=/usr NPS="2 4" MB=16 REPS=7 ROUNDS=10
#                           COMPS="vulcan dynamic dynamic_gen2 two_phase individual"
#                           PATTERNS="rows irregular i64" FIXED_HEAP=1)
#
# FIXED_HEAP=1 (the default) runs both builds with glibc's heap kept
# (MALLOC_MMAP_THRESHOLD_ 64 MiB, MALLOC_TRIM_THRESHOLD_ 256 MiB).  A
# collective read's 32 MiB + 4 KiB buffer is otherwise mmapped, and its
# pages faulted in anew, on every call or only on the first few, by the
# heap's layout: on 2026-12-02 at 4 ranks that made this installation's
# vulcan rows reads 14.5x upstream's (64-72 ms against 4-6 ms a call),
# and with the heap kept both read in 4-5 ms.  FIXED_HEAP=0: glibc's
# defaults.
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=${PREFIX:-$TOP/_install}
UPSTREAM=${UPSTREAM:-/usr}
NPS=${NPS:-2 4} MB=${MB:-16} REPS=${REPS:-7} ROUNDS=${ROUNDS:-10}
COMPS=${COMPS:-vulcan dynamic dynamic_gen2 two_phase individual}
PATTERNS=${PATTERNS:-rows irregular i64}
umpicc=$UPSTREAM/bin/mpicc.openmpi; [ -x "$umpicc" ] || umpicc=$UPSTREAM/bin/mpicc
umpirun=$UPSTREAM/bin/mpirun.openmpi; [ -x "$umpirun" ] || umpirun=$UPSTREAM/bin/mpirun
[ -x "$umpicc" ] || { echo "fcoll_agree: no Open MPI at UPSTREAM=$UPSTREAM (apt-get install libopenmpi-dev)" >&2; exit 2; }
W=$(mktemp -d /dev/shm/fcoll-agree.XXXXXX)
trap 'rm -rf "$W"' EXIT
"$PREFIX/bin/mpicc" -O2 -Wall -I"$TOP/test/common" -o "$W/fm_suite" "$TOP/bench/fcoll_matrix.c"
"$umpicc" -O2 -Wall -I"$TOP/test/common" -o "$W/fm_up" "$TOP/bench/fcoll_matrix.c"
margs=(); [ "$(id -u)" -eq 0 ] && margs=(--allow-run-as-root)
[ "${FIXED_HEAP:-1}" = 1 ] && margs+=(-x MALLOC_MMAP_THRESHOLD_=67108864 -x MALLOC_TRIM_THRESHOLD_=268435456)
echo "== OMPIO collective writes and reads: $("$PREFIX/bin/ompi_info" --version | head -n 1) (this installation) against $("$UPSTREAM/bin/ompi_info" --version | head -n 1) at $UPSTREAM"
echo "   MB=$MB MiB a call, REPS=$REPS calls a run, ROUNDS=$ROUNDS paired rounds, file in /dev/shm, FIXED_HEAP=${FIXED_HEAP:-1}"
run() {  # build np comp pattern -> "write_s read_s"
    local b=$1 np=$2 comp=$3 pat=$4 mpirun fm out
    if [ "$b" = suite ]; then mpirun=$PREFIX/bin/mpirun fm=$W/fm_suite; else mpirun=$umpirun fm=$W/fm_up; fi
    out=$(MB=$MB timeout -k 10 600 "$mpirun" "${margs[@]}" --oversubscribe -np "$np" --mca io ompio \
        --mca fcoll "$comp" --mca pml ob1 "$fm" "$W/f.$b" "$pat" "$REPS" same 2>&1) ||
        { echo "$out" >&2; echo "fcoll_agree: $b $comp $pat np=$np failed" >&2; exit 1; }
    echo "$out" | sed -n 's/^RESULT .* write_s=\([0-9.e+-]*\) read_s=\([0-9.e+-]*\).*/\1 \2/p'
    rm -f "$W/f.$b"
}
printf '%-4s %-13s %-10s %12s %24s %12s %24s\n' np component pattern "write up ms" "write suite/up (range)" "read up ms" "read suite/up (range)"
for np in $NPS; do
    for comp in $COMPS; do
        for pat in $PATTERNS; do
            : >"$W/r"
            for r in $(seq "$ROUNDS"); do
                if [ $((r % 2)) -eq 1 ]; then a=$(run up "$np" "$comp" "$pat"); b=$(run suite "$np" "$comp" "$pat")
                else b=$(run suite "$np" "$comp" "$pat"); a=$(run up "$np" "$comp" "$pat"); fi
                echo "$a $b" >>"$W/r"
            done
            awk -v np="$np" -v comp="$comp" -v pat="$pat" '
            function med(x, n,   i, j, t) { for (i = 2; i <= n; i++) { t = x[i]; for (j = i - 1; j >= 1 && x[j] > t; j--) x[j + 1] = x[j]; x[j + 1] = t }
              return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2 }
            { n++; uw[n] = $1; ur[n] = $2; rw[n] = $3 / $1; rr[n] = $4 / $2 }
            END {
              for (i = 1; i <= n; i++) { a[i] = rw[i]; b[i] = rr[i] }
              lo1 = hi1 = rw[1]; lo2 = hi2 = rr[1]
              for (i = 1; i <= n; i++) { if (rw[i] < lo1) lo1 = rw[i]; if (rw[i] > hi1) hi1 = rw[i]; if (rr[i] < lo2) lo2 = rr[i]; if (rr[i] > hi2) hi2 = rr[i] }
              mw = med(a, n); mr = med(b, n); w = med(uw, n); rd = med(ur, n)
              printf "%-4s %-13s %-10s %12.2f %8.3fx (%5.2f-%5.2f) %12.2f %8.3fx (%5.2f-%5.2f)\n", np, comp, pat, w * 1000, mw, lo1, hi1, rd * 1000, mr, lo2, hi2
            }' "$W/r"
        done
    done
done
echo "(ratio: median over the rounds of this installation's time / upstream's in the same round)"
