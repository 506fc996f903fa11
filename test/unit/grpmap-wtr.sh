#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# grpmap's wtr representation (wavelet tree on runs, a permutation in about
# n ceil(lg rho) bits): the contract checks on the identity, n = 0, 1, 2,
# permutations merged from 2 .. 50,000 runs, every permutation of n <= 5,
# random ones of small n; its declines (run limit, ceil(lg n) bits, not a
# permutation); estimate == bytes.  Prints bits an element against lg rho
# and SELECT / RANK ns.  Under AddressSanitizer + UndefinedBehaviorSanitizer.
. "$TEST_LIB"
build_unit t -D_POSIX_C_SOURCE=200809L -I"$TOP" "$TOP/test/unit/grpmap_wtr_test.c" \
    "$TOP/ompi/mca/grpmap/wtr/grpmap_wtr.c" -lm
./t 2>&1 | tee out.txt
assert_grep '^grpmap_wtr_test: OK$' out.txt
