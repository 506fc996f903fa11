#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# The fcoll/la_twophase LAP solver: exhaustive and Hungarian cross-checks,
# defaults kept on ties, error paths (ASan + UBSan), then the -O2 speed bar.
. "$TEST_LIB"
LAP_SOURCES=("$TOP/test/unit/fcoll_lap_test.c"
             "$TOP/ompi/mca/fcoll/la_twophase/fcoll_la_twophase_lap.c")
build_unit t -I"$TOP" "${LAP_SOURCES[@]}" -lm
./t | tee out.txt
assert_grep '^fcoll_lap_test: OK$' out.txt
gcc -std=c99 -O2 -Wall -Wextra -Werror -I"$TOP" -o tb "${LAP_SOURCES[@]}" -lm ||
    fail "cannot build the -O2 benchmark"
./tb --bench | tee bench.txt || fail "1024 x 1024 LAP over 100 ms cpu at -O2"
assert_grep '^fcoll_lap_bench: OK' bench.txt
