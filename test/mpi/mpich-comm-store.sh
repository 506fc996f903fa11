#!/usr/bin/env bash
# Conformance with a sparse communicator store: MPICH's comm/ directory
# passes with --mca comm_store rbtree exactly as on stock Open MPI (flat, the
# default, is covered by mpich-comm.sh).  radix runs comm/ (tests of at most
# 4 ranks) in pml-ucx.sh and threads/comm in mpich-threads-comm-store.sh;
# test/extended/mpich-comm-store-radix.sh runs the whole of comm/ with it
# (not in CI's time).
. "$TEST_LIB"
needs ompi/mca/comm_store
for c in rbtree; do
    "$TOP/contrib/mpich-tests.sh" -p "$PREFIX" comm -- OMPI_MCA_comm_store=$c | tee "$c.txt"
    assert_grep "^mpich comm: [0-9]+ passed, 0 failed, $(mpich_xfail comm) expected failures" "$c.txt" \
        "MPICH comm/ lost a test with comm_store $c"
done
