#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# grpmap's sparse set forms, gap (thesis §4.1.4) and ef (Elias-Fano),
# against plain arrays: empty, one member, whole worlds of 1 .. 2^20 + 1,
# the last world rank, members 2^31 apart, world 2^31 - 1, random sets of
# densities 0.001 .. 0.99, strides, clustered runs, gaps of every width;
# neither declines an increasing map; estimate == bytes.  ef's size against
# the information bound lg C(U, n) (printed, and asserted for 5,000 and
# 50,000 random members of 200,000); bytes a member and median SELECT ns
# against a plain array.  The smaller maps again with ef's other CPU
# builds (popcnt without pdep; generic).  Under ASan + UBSan.
. "$TEST_LIB"
G=$TOP/ompi/mca/grpmap
build_unit t -D_POSIX_C_SOURCE=200809L -I"$TOP" "$TOP/test/unit/grpmap_gap_test.c" \
    "$G/gap/grpmap_gap.c" -lm
./t 2>&1 | tee out.txt
assert_grep '^grpmap_gap_test: OK$' out.txt
for lvl in 1 0; do
    build_unit t$lvl -DGRPMAP_CPU_LEVEL_MAX=$lvl -D_POSIX_C_SOURCE=200809L -I"$TOP" \
        "$TOP/test/unit/grpmap_gap_test.c" "$G/gap/grpmap_gap.c" -lm
    ./t$lvl quick >out$lvl.txt 2>&1 || { tail -n 20 out$lvl.txt; fail "CPU level $lvl build"; }
    assert_grep '^grpmap_gap_test: OK$' out$lvl.txt "the CPU level $lvl build failed"
done
