#!/usr/bin/env bash
# bench/agree_timer.c's paired mode, by which issue 35's 1 % bar is
# measured (bench/fcoll_agree_share.sh PAIRED=1): with AGREE_TIMER_SKIP=1
# each pair of timed collective calls holds one call that makes the error
# agreement (patches 0012, 0018) and one that skips it; with aa (the
# control) every call agrees.  bench/fcoll_matrix.c at 2 ranks, 8 writes
# and 8 reads, under vulcan (mca_common_ompio_agree_read on reads) and
# individual (mca_common_ompio_agree_error on both): the shim must report
# 4 pairs of each, and count 2 agreements (one a rank) for each call that
# made it -- 8 with skips, 16 without.  A shim that stopped skipping, or
# whose wrappers no longer took the components' calls, counts otherwise.
. "$TEST_LIB"
needs patch:0012 patch:0018
build_mpi "$TOP/bench/fcoll_matrix.c" fm
"$MPICC" -O2 -Wall -Werror -I"$TOP/test/common" -shared -fPIC -o agree_timer.so \
    "$TOP/bench/agree_timer.c" -ldl -lm || fail "cannot build bench/agree_timer.c"
F=/dev/shm/io-agree-paired.$$
trap 'rm -f "$F"' EXIT

for comp in vulcan individual; do
    for mode in 1 aa; do
        out=$comp-$mode.txt
        want=8; [ "$mode" = aa ] && want=16
        run_to 300 "$out" -np 2 -x LD_PRELOAD="$PWD/agree_timer.so" -x AGREE_TIMER_SKIP="$mode" \
            -x MB=2 --mca io ompio --mca fcoll "$comp" ./fm "$F" rows 8 same ||
            { tail -n 20 "$out"; fail "$comp AGREE_TIMER_SKIP=$mode: exit status non-zero"; }
        rm -f "$F"
        assert_grep '^RESULT pattern=rows ' "$out" "$comp $mode: fcoll_matrix printed no result"
        for op in write read; do
            assert_grep "^AGREE_PAIRED op=$op np=2 pairs=4 .* span_ratio=[0-9.]* " "$out" \
                "$comp $mode: no pairs of ${op}s"
            assert_grep "^AGREE_TIMER op=$op np=2 calls=8 .* agreements=$want\$" "$out" \
                "$comp $mode: $want agreements expected in the timed ${op}s"
        done
        note "$comp AGREE_TIMER_SKIP=$mode: $(grep -c '^AGREE_PAIRED' "$out") ops paired, agreements as expected"
    done
done
