#!/usr/bin/env bash
# Conformance under MPI_THREAD_MULTIPLE (issue 22), one of four scripts
# (mpich-threads-*.sh; each fits the per-test time limit on 2 cores).
# Extended (TEST_AREAS=extended; not in CI's time): test/mpi/zcomp-threads.sh
# runs adaptive on a slow path under MPI_THREAD_MULTIPLE in the suite.
# MPICH's threads/pt2pt with pml/zcomp 'adaptive' on a path declared slow
# (10 Mbit/s, so that it compresses and samples) over TCP: the model's
# statistics, samples and peer table under concurrent senders.  threads and
# alltoall (small messages, which zcomp passes raw; 140 s) are left out: they
# run in mpich-threads-zcomp-tcp.sh, and CI's time is short.
. "$TEST_LIB"
needs ompi/mca/pml/zcomp
MPICH_SKIP="threads alltoall" mpich_clean zcomp-adaptive-tcp threads/pt2pt -- OMPI_MCA_pml_zcomp_enable=1 \
    OMPI_MCA_pml_zcomp_path_bandwidth=10 \
    OMPI_MCA_btl=tcp,self OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
assert_grep '^mpich threads/pt2pt: 35 passed, 0 failed, 3 expected' zcomp-adaptive-tcp.txt
