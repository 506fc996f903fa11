#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# grpmap's translation caches (linear, set-associative) against the
# uncached SELECT, single-threaded (contents, eviction, the seed's hash)
# and from 4 threads sharing one cache (every answer right, no lookup
# uncounted): under ASan + UBSan, then under ThreadSanitizer.
. "$TEST_LIB"
build_unit t -D_POSIX_C_SOURCE=200809L -I"$TOP" -I"$TOP/test/common" "$TOP/test/unit/grpmap_cache_test.c" -lpthread
./t 2>&1 | tee out.txt
assert_grep '^grpmap_cache_test: OK$' out.txt
gcc -std=c99 -O1 -g -Wall -Werror -fsanitize=thread -D_POSIX_C_SOURCE=200809L -I"$TOP" -I"$TOP/test/common" \
    -o tt "$TOP/test/unit/grpmap_cache_test.c" -lpthread || fail "cannot build the ThreadSanitizer test"
TSAN_OPTIONS=halt_on_error=1 ./tt 2>&1 | tee tsan.txt
assert_grep '^grpmap_cache_test: OK$' tsan.txt "the cache test failed under ThreadSanitizer"
