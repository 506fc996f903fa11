#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# grpmap's strategy engine and the array component (array, blocks, packed
# permutation) against plain arrays: edge cases (empty, one member, the
# whole world of 1 .. 2^20+1, the last world rank), random and shuffled
# maps, ranges permuted inside at lg(len) bits a member, composites built
# by the engine, the three strategies' picks and the fall-through of a
# form that declines when built.  Under ASan + UBSan.
. "$TEST_LIB"
G=$TOP/ompi/mca/grpmap
build_unit t -D_POSIX_C_SOURCE=200809L -I"$TOP" "$TOP/test/unit/grpmap_engine_test.c" "$G/base/grpmap_engine.c" \
    "$G/array/grpmap_array.c" -lm
./t 2>&1 | tee out.txt
assert_grep '^grpmap_engine_test: OK$' out.txt
