#!/usr/bin/env bash
# The comm_store benchmark in quick mode (1,000 live communicators, 400
# splits): it must run end to end and print its ratios; the figures that do
# not depend on machine load are checked: every split takes one allreduce
# with the highest policy and more with lowest, and rbtree's density is 1.
. "$TEST_LIB"
needs ompi/mca/comm_store
PREFIX=$PREFIX "$TOP/bench/comm_store_bench.sh" --quick >bench.txt 2>&1 || { cat bench.txt; fail "benchmark failed"; }
cat bench.txt
assert_grep '^0B  radix  median .* ratio vs flat [0-9.]+$' bench.txt "no ping-pong ratio"
assert_grep '^8B  rbtree median .* ratio vs flat [0-9.]+$' bench.txt "no ping-pong ratio"
for mode in small large; do
    for cfg in flat/highest rbtree/highest radix/highest; do
        assert_grep "^1 $cfg +split $mode n=[0-9]+ .* rounds=1\.000 single=1\.0000 " bench.txt \
            "$cfg $mode: a split took more than one allreduce"
    done
    assert_grep "^1 flat/lowest +split $mode .* single=0\.0000 " bench.txt "lowest took a single round"
    assert_grep "^1 rbtree/highest +split $mode .* density=1\.0000 " bench.txt "rbtree density is not 1"
    assert_grep "^  $mode radix/highest +p50=[0-9.]+ .* p99_vs_lowest=[0-9.]+x" bench.txt "no split summary"
done
