#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# grpmap's bitmap set form (thesis §4.1.3) against plain arrays: empty,
# one member, whole worlds of 1 .. 2^20 + 1, the last world rank, members
# near 2^31, random sets of densities 0.001 .. 0.99, strides, clustered
# runs; its decline rule (bit array > 8 bytes a member + 64) and unordered
# maps; estimate == bytes; the select-in-word against a naive one.  Prints
# bytes a member and median SELECT ns against a plain array.  The smaller
# maps again with SELECT and RANK's other CPU builds (popcnt without pdep;
# generic), which this CPU may not pick.  Under ASan + UBSan.
. "$TEST_LIB"
G=$TOP/ompi/mca/grpmap
build_unit t -D_POSIX_C_SOURCE=200809L -I"$TOP" "$TOP/test/unit/grpmap_bitmap_test.c" \
    "$G/bitmap/grpmap_bitmap.c"
./t 2>&1 | tee out.txt
assert_grep '^grpmap_bitmap_test: OK$' out.txt
for lvl in 1 0; do
    build_unit t$lvl -DGRPMAP_CPU_LEVEL_MAX=$lvl -D_POSIX_C_SOURCE=200809L -I"$TOP" \
        "$TOP/test/unit/grpmap_bitmap_test.c" "$G/bitmap/grpmap_bitmap.c"
    ./t$lvl quick >out$lvl.txt 2>&1 || { tail -n 20 out$lvl.txt; fail "CPU level $lvl build"; }
    assert_grep '^grpmap_bitmap_test: OK$' out$lvl.txt "the CPU level $lvl build failed"
done
