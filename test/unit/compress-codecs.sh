#!/usr/bin/env bash
# All eight codecs against the codec contract: round trips on every data set
# and size, small output buffers, wrong lengths, and 100,000 fuzzed streams
# per codec under AddressSanitizer + UndefinedBehaviorSanitizer (leaks
# included); then the 16 MB round trips at -O2.
. "$TEST_LIB"
# shellcheck disable=SC2086
build_unit codecs_asan $UNIT_INC "$TOP/test/unit/compress_codecs_test.c" \
    "$TOP/test/common/datasets.c" $CODEC_SOURCES $CODEC_LIBS
ASAN_OPTIONS=detect_leaks=1 ./codecs_asan --fuzz "${FUZZ_ITERS:-100000}" | tee out.txt
assert_grep '^compress_codecs_test: OK$' out.txt
[ "$(grep -c 'contract checks passed' out.txt)" -eq 8 ] || fail "not all 8 codecs were checked"
# shellcheck disable=SC2086
gcc -std=c99 -O2 -Wall -Werror -o codecs_big $UNIT_INC "$TOP/test/unit/compress_codecs_test.c" \
    "$TOP/test/common/datasets.c" $CODEC_SOURCES $CODEC_LIBS || fail "cannot build -O2 test"
./codecs_big --big | tee big.txt
assert_grep '^compress_codecs_test: OK$' big.txt
