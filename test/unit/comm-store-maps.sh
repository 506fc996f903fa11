#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# The comm_store storage structures (flat, rbtree, radix): edge cases,
# random operations against a reference model with invariant checks, and
# lock-free lookups racing a writer; under AddressSanitizer +
# UndefinedBehaviorSanitizer, then under ThreadSanitizer.
. "$TEST_LIB"
CS=$TOP/ompi/mca/comm_store
SRCS=("$TOP/test/unit/comm_store_map_test.c" "$CS/flat/comm_store_flat_map.c"
      "$CS/rbtree/comm_store_rbtree_map.c" "$CS/radix/comm_store_radix_map.c")

build_unit t -std=gnu99 -Wextra -pthread -I"$TOP" "${SRCS[@]}"
./t 2>&1 | tee out.txt
assert_grep '^comm_store_map_test: OK$' out.txt

note "ThreadSanitizer build"
gcc -std=gnu99 -O1 -g -Wall -Wextra -Werror -fsanitize=thread -pthread -I"$TOP" \
    -o t-tsan "${SRCS[@]}" || fail "cannot build the ThreadSanitizer test"
if ! ./t-tsan >out-tsan.txt 2>&1 && grep -q 'unexpected memory mapping' out-tsan.txt; then
    # TSan's fixed shadow layout can clash with a kernel's wide mmap
    # randomization: retry without address randomization.
    setarch "$(uname -m)" -R ./t-tsan >out-tsan.txt 2>&1 || true
fi
cat out-tsan.txt
assert_no_grep '(WARNING|ERROR|FATAL): ThreadSanitizer' out-tsan.txt "ThreadSanitizer reported a problem"
assert_grep '^comm_store_map_test: OK$' out-tsan.txt
