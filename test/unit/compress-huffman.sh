#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# The huffman codec's own tests (format details, reference model, error paths,
# fuzz) under AddressSanitizer + UndefinedBehaviorSanitizer.
. "$TEST_LIB"
# shellcheck disable=SC2086
build_unit t $UNIT_INC "$TOP/test/unit/compress_huffman_test.c" \
    "$COMPRESS/huffman/compress_huffman_codec.c" -lm
./t | tee out.txt
assert_grep '^compress_huffman_test: OK$' out.txt
