#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# redist's rank-level schedulers (cyclic's depth-first search over the
# transmission graph; phase's phases, with and without breaking cycles;
# park's phases with parking)
# replayed by a simulator: never overfills a process, cycles close, every
# edge ends empty; rings with no free slot take one DFS cycle and are
# refused by phases that may not break cycles; 3,000 random injective maps
# each.  Under AddressSanitizer + UndefinedBehaviorSanitizer.
. "$TEST_LIB"
build_unit t -I"$TOP" "$TOP/test/unit/redist_dfs_test.c" -DREDIST_DFS_ONLY "$TOP/ompi/mca/redist/base/redist_base_cyclic.c"
./t 2>&1 | tee out.txt
assert_grep '^redist_dfs_test: OK$' out.txt
