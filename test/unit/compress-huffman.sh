#!/usr/bin/env bash
# The huffman codec's own tests (format details, reference model, error paths,
# fuzz) under AddressSanitizer + UndefinedBehaviorSanitizer.
. "$TEST_LIB"
# shellcheck disable=SC2086
build_unit t $UNIT_INC "$TOP/test/unit/compress_huffman_test.c" \
    "$COMPRESS/huffman/compress_huffman_codec.c" -lm
./t | tee out.txt
assert_grep '^compress_huffman_test: OK$' out.txt
