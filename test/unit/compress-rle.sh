#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# The rle codec's own tests (format details, reference model, error paths,
# fuzz) under AddressSanitizer + UndefinedBehaviorSanitizer.
. "$TEST_LIB"
# shellcheck disable=SC2086
build_unit t $UNIT_INC "$TOP/test/unit/compress_rle_test.c" \
    "$COMPRESS/rle/compress_rle_codec.c" -lm
./t | tee out.txt
assert_grep '^compress_rle_test: OK$' out.txt
