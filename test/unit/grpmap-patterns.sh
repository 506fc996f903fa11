#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# The thesis's experiment maps (Table 6.1's 14 communicators of a world of
# 200,000, chapter 5's classes A-E of a world of 10^6; generators and
# information bounds in test/unit/grpmap_patterns.h) through the strategy
# engine under the hybrid strategy (alpha 0.25, every representation core
# and the packed permutation): each pick checked against the plain array,
# and the bars on bytes asserted (patterns 1-7 in <= 64 bytes,
# patterns 8-14 in <= 1.3x their bound).  Under ASan + UBSan; bdd is left
# out (-DGP_NO_BDD) only when BuDDy's header is missing.
. "$TEST_LIB"
G=$TOP/ompi/mca/grpmap
bdd=("$G/bdd/grpmap_bdd.c" -lbdd)
[ -f /usr/include/bdd.h ] || { note "BuDDy not installed: built without bdd"; bdd=(-DGP_NO_BDD); }
# shellcheck disable=SC2086
build_unit t -D_POSIX_C_SOURCE=200809L $UNIT_INC "$TOP/test/unit/grpmap_patterns_test.c" \
    "$G/base/grpmap_engine.c" "$G/lattice/grpmap_lattice.c" "$G/bitmap/grpmap_bitmap.c" \
    "$G/gap/grpmap_gap.c" "$G/array/grpmap_array.c" "$G/bwt/grpmap_bwt.c" "$G/wtr/grpmap_wtr.c" \
    "$COMPRESS/bzip2/compress_bzip2_codec.c" "${bdd[@]}" -lbz2 -lm -lpthread
./t 2>&1 | tee out.txt || true
assert_grep '^grpmap_patterns_test: OK$' out.txt
