#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# All nine codecs against the codec contract: round trips on every data set
# and size, small output buffers, wrong lengths, and 30,000 fuzzed streams
# per codec under AddressSanitizer + UndefinedBehaviorSanitizer (leaks
# included; the seed is fixed, so CI repeats the same streams: deeper runs
# with a new seed each time are test/extended/compress-fuzz-deep.sh); no bit flip that gzip or bzip2 decode to wrong data; gzip
# against zlib's own API; bzip as bzip2's second name; the .gz and .bz2
# files of gzip and bzip against zlib's and libbz2's readers and writers;
# then the 16 MB round trips at -O2.
. "$TEST_LIB"
# gzip and bzip (Open MPI 4.1's names) on top of lib.sh's eight codecs
GZ_BZ_SOURCES="$COMPRESS/gzip/compress_gzip_codec.c $COMPRESS/bzip/compress_bzip_codec.c"
# shellcheck disable=SC2086
build_unit codecs_asan $UNIT_INC "$TOP/test/unit/compress_codecs_test.c" \
    "$TOP/test/common/datasets.c" $CODEC_SOURCES $GZ_BZ_SOURCES $CODEC_LIBS -lz
ASAN_OPTIONS=detect_leaks=1 ./codecs_asan --fuzz "${FUZZ_ITERS:-30000}" | tee out.txt
assert_grep '^compress_codecs_test: OK$' out.txt
[ "$(grep -c 'contract checks passed' out.txt)" -eq 9 ] || fail "not all 9 codecs were checked"
assert_grep '^bzip: same codec as bzip2 \(name bzip2, wire id 4\)$' out.txt "bzip is not bzip2's codec"
assert_grep '^gzip: \.gz file checks passed$' out.txt ".gz files not checked"
assert_grep '^bzip: \.bz2 file checks passed$' out.txt ".bz2 files not checked"
[ "$(grep -c 'every bit flipped' out.txt)" -eq 3 ] || fail "the bit-flip checks did not all run"
# shellcheck disable=SC2086
gcc -std=c99 -O2 -Wall -Werror -o codecs_big $UNIT_INC "$TOP/test/unit/compress_codecs_test.c" \
    "$TOP/test/common/datasets.c" $CODEC_SOURCES $GZ_BZ_SOURCES $CODEC_LIBS -lz \
    || fail "cannot build -O2 test"
./codecs_big --big | tee big.txt
assert_grep '^compress_codecs_test: OK$' big.txt
