#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# grpmap's bwt representation (blocks of 1000 world ranks through the
# bzip2 codec of opal/mca/compress, the last block cached under a seqlock):
# the contract checks, declines, 4 threads on the cache, the size of a
# random 10,000-member list of a 200,000 world against its bound, SELECT
# times.  Under AddressSanitizer + UndefinedBehaviorSanitizer.
. "$TEST_LIB"
# shellcheck disable=SC2086
build_unit t -D_POSIX_C_SOURCE=200809L $UNIT_INC "$TOP/test/unit/grpmap_bwt_test.c" "$TOP/ompi/mca/grpmap/bwt/grpmap_bwt.c" \
    "$COMPRESS/bzip2/compress_bzip2_codec.c" -lbz2 -lm -lpthread
./t 2>&1 | tee out.txt
assert_grep '^grpmap_bwt_test: OK$' out.txt
