#!/usr/bin/env bash
# Conformance under MPI_THREAD_MULTIPLE (issue 22), one of four scripts
# (mpich-threads-*.sh; each fits the per-test time limit on 2 cores):
# as mpich-threads-zcomp-tcp.sh, over shared memory (vader).
. "$TEST_LIB"
mpich_clean zcomp-always-sm threads/pt2pt threads/comm threads/coll -- \
    OMPI_MCA_pml_zcomp_enable=1 OMPI_MCA_pml_zcomp_strategy=always OMPI_MCA_btl=vader,self
assert_grep '^mpich threads/pt2pt: 37 passed, 0 failed, 3 expected' zcomp-always-sm.txt
