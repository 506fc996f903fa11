#!/usr/bin/env bash
# test-scope: any base (the codecs and their framework are the same code on every Open MPI base)
# The codec benchmark in quick mode: every codec round-trips on every data set
# (64 KB and 1 MB), fpc beats lz4 on the seed's patterned doubles, and going
# through the framework costs under 5 % against calling liblz4/libzstd
# directly (timing: up to three attempts on a noisy machine).
. "$TEST_LIB"
build_opal bench "$TOP/bench/compress_bench.c" "$TOP/test/common/datasets.c" -llz4 -lzstd -lm
./bench --quick | tee out.txt
assert_no_grep 'ROUND TRIP FAILED' out.txt
ratio() { awk -v d="$1" -v c="$2" '$1==d && $2==1048576 && $3==c {print $4}' out.txt; }
fpc=$(ratio double-pattern fpc) lz4=$(ratio double-pattern lz4)
echo "double-pattern at 1 MB: fpc ratio $fpc, lz4 ratio $lz4"
awk -v a="$fpc" -v b="$lz4" 'BEGIN{exit !(a > b)}' || fail "fpc ($fpc) does not beat lz4 ($lz4) on patterned doubles"
for attempt in 1 2 3; do
    worst=$(sed -n 's/^framework overhead: worst \([-+0-9.]*\)%.*/\1/p' out.txt)
    echo "attempt $attempt: worst framework overhead $worst %"
    awk -v w="$worst" 'BEGIN{exit !(w < 5.0)}' && exit 0
    ./bench --overhead-only --reps 61 >out.txt
done
cat out.txt
fail "framework overhead $worst % is not under 5 %"
