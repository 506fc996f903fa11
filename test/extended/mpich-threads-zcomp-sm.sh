#!/usr/bin/env bash
# Conformance under MPI_THREAD_MULTIPLE (issue 22), one of four scripts
# (mpich-threads-*.sh; each fits the per-test time limit on 2 cores):
# as mpich-threads-zcomp-tcp.sh, over shared memory (vader).  Extended
# (TEST_AREAS=extended; not in CI's time): test/mpi/zcomp-threads.sh runs
# 'always' over shared memory under MPI_THREAD_MULTIPLE in the suite.  Three tests
# of mpich-threads-zcomp-tcp.sh's run are left out (4 of its 40 runs, 260 of
# its 470 s): multisend4 sends to self (btl/self, whatever the other BTL),
# threads and alltoall are small messages that zcomp passes raw whichever
# BTL carries them.  They keep the suite within CI's time.
. "$TEST_LIB"
needs ompi/mca/pml/zcomp
MPICH_SKIP="threads alltoall multisend4" mpich_clean zcomp-always-sm threads/pt2pt threads/comm threads/coll -- \
    OMPI_MCA_pml_zcomp_enable=1 OMPI_MCA_pml_zcomp_strategy=always OMPI_MCA_btl=vader,self
assert_grep '^mpich threads/pt2pt: 34 passed, 0 failed, 3 expected' zcomp-always-sm.txt
