#!/usr/bin/env bash
# Extended (TEST_AREAS=extended; not in CI's time): MPICH's threads/pt2pt,
# threads/comm and threads/coll, every test, pass as on stock Open MPI 4.1.4
# with pml/zcomp 'always' over TCP.  test/mpi/mpich-threads-zcomp-tcp.sh
# runs the same without multisend4 (threads sending to themselves: the case
# that lost messages before issue 22's fix) and threads/comm.
. "$TEST_LIB"
needs ompi/mca/pml/zcomp
mpich_clean zcomp-always-tcp threads/pt2pt threads/comm threads/coll -- \
    OMPI_MCA_pml_zcomp_enable=1 OMPI_MCA_pml_zcomp_strategy=always \
    OMPI_MCA_btl=tcp,self OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
assert_grep '^mpich threads/pt2pt: 37 passed, 0 failed, 3 expected' zcomp-always-tcp.txt
