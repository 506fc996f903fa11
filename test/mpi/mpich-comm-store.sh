#!/usr/bin/env bash
# Conformance with each sparse communicator store: MPICH's comm/ directory
# passes with --mca comm_store rbtree and radix exactly as on stock Open MPI
# (flat, the default, is covered by mpich-comm.sh).
. "$TEST_LIB"
for c in rbtree radix; do
    "$TOP/contrib/mpich-tests.sh" -p "$PREFIX" comm -- OMPI_MCA_comm_store=$c | tee "$c.txt"
    assert_grep '^mpich comm: [0-9]+ passed, 0 failed, 2 expected failures' "$c.txt" \
        "MPICH comm/ lost a test with comm_store $c"
done
