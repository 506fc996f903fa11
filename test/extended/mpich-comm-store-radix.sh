#!/usr/bin/env bash
# Extended (TEST_AREAS=extended; not in CI's time): MPICH's comm/ directory,
# every test, passes with --mca comm_store radix as on stock Open MPI (CI
# runs it with rbtree, beside grpmap, in test/mpi/mpich-grpmap-sets.sh).
. "$TEST_LIB"
needs ompi/mca/comm_store
"$TOP/contrib/mpich-tests.sh" -p "$PREFIX" comm -- OMPI_MCA_comm_store=radix | tee radix.txt
assert_grep "^mpich comm: [0-9]+ passed, 0 failed, $(mpich_xfail comm) expected failures" radix.txt \
    "MPICH comm/ lost a test with comm_store radix"
