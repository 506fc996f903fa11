#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# The codecs' decoders against 1,000,000 fuzzed streams each (random and
# mutated, under AddressSanitizer + UndefinedBehaviorSanitizer), with a new
# seed every run (printed: FUZZ_SEED=S repeats a run).  CI's
# test/unit/compress-codecs.sh runs 30,000 per codec with a fixed seed.
# Extended (TEST_AREAS=extended; not in CI's time).
. "$TEST_LIB"
GZ_BZ_SOURCES="$COMPRESS/gzip/compress_gzip_codec.c $COMPRESS/bzip/compress_bzip_codec.c"
# shellcheck disable=SC2086
build_unit codecs_asan $UNIT_INC "$TOP/test/unit/compress_codecs_test.c" \
    "$TOP/test/common/datasets.c" $CODEC_SOURCES $GZ_BZ_SOURCES $CODEC_LIBS -lz
seed=${FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "seed $seed (FUZZ_SEED=$seed repeats this run)"
ASAN_OPTIONS=detect_leaks=1 ./codecs_asan --fuzz "${FUZZ_ITERS:-1000000}" --seed "$seed" | tee out.txt
assert_grep '^compress_codecs_test: OK$' out.txt
[ "$(grep -c ' fuzz: ' out.txt)" -ge 9 ] || fail "not every codec was fuzzed"
