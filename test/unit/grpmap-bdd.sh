#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# grpmap's bdd set form (thesis §4.1.2, BuDDy) against plain arrays: empty,
# one member, whole worlds of 1 .. 2^20 + 1, members near 2^31; evens,
# odds, multiples of 2^k, matrix rows and columns and 3-D mesh faces held
# as one path; the thesis's BDD Find example; ranges, strides, periodic
# sets (the bit walk), every subset of worlds up to 8, random sets (10 ..
# 4000 held, 10^4 declined); the path limit, the node limit (the build's
# count and BuDDy's own ceiling, through the error hook) each followed by
# a build that works; bdd_done and a fresh start; 4 threads building at
# once.  Prints bytes and median SELECT ns against a plain array.  Under
# ASan + UBSan.  Skipped without BuDDy.
. "$TEST_LIB"
[ -f /usr/include/bdd.h ] || skip "BuDDy not installed (/usr/include/bdd.h missing; Debian package libbdd-dev)"
G=$TOP/ompi/mca/grpmap
build_unit t -D_POSIX_C_SOURCE=200809L -I"$TOP" "$TOP/test/unit/grpmap_bdd_test.c" \
    "$G/bdd/grpmap_bdd.c" -lbdd -lpthread
./t 2>&1 | tee out.txt
assert_grep '^grpmap_bdd_test: OK$' out.txt
