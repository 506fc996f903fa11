#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# The rice codec's own tests (format details, reference model, error paths,
# fuzz) under AddressSanitizer + UndefinedBehaviorSanitizer, for each build
# of the encoder: the one this CPU picks, and the generic one (which a CPU
# without x86-64-v3 would run; the same tests, the same output).
. "$TEST_LIB"
# shellcheck disable=SC2086
build_unit t $UNIT_INC "$TOP/test/unit/compress_rice_test.c" \
    "$COMPRESS/rice/compress_rice_codec.c" -lm
# shellcheck disable=SC2086
build_unit t_generic $UNIT_INC -DMCA_COMPRESS_RICE_NO_V3 "$TOP/test/unit/compress_rice_test.c" \
    "$COMPRESS/rice/compress_rice_codec.c" -lm
./t | tee out.txt
assert_grep '^compress_rice_test: OK$' out.txt
./t_generic | tee generic.txt
assert_grep '^compress_rice_test: OK$' generic.txt "the generic encoder build failed its tests"
