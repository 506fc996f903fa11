#!/usr/bin/env bash
# The same verified exchange over TCP only (tcp + self, loopback), 3 ranks.
. "$TEST_LIB"
build_mpi "$TOP/test/mpi/src/p2p_check.c" p2p_check
mpirun_t -np 3 --mca btl tcp,self --mca btl_tcp_if_include lo ./p2p_check | tee out.txt
assert_grep '^p2p_check OK [0-9]+ bytes checked on 3 ranks' out.txt
