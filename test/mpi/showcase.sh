#!/usr/bin/env bash
# The README's showcase program runs on 8 ranks (oversubscribed) and every
# rank reports a correct ring exchange and allreduce.
. "$TEST_LIB"
build_mpi "$TOP/contrib/showcase.c" showcase
mpirun_t -np 8 ./showcase | tee out.txt
[ "$(grep -c 'ring and allreduce correct' out.txt)" -eq 8 ] || fail "not all 8 ranks correct"
assert_grep "Open MPI v${OMPI_BASE_VERSION//./\\.}.*all ranks agree" out.txt
