#!/usr/bin/env bash
# The rice codec's own tests (format details, reference model, error paths,
# fuzz) under AddressSanitizer + UndefinedBehaviorSanitizer.
. "$TEST_LIB"
# shellcheck disable=SC2086
build_unit t $UNIT_INC "$TOP/test/unit/compress_rice_test.c" \
    "$COMPRESS/rice/compress_rice_codec.c" -lm
./t | tee out.txt
assert_grep '^compress_rice_test: OK$' out.txt
