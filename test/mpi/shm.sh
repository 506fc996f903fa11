#!/usr/bin/env bash
# The installed mpicc builds a program, and 4 ranks exchange and verify
# messages of 0 B to 4 MB over shared memory only (vader, 5.0: sm; + self).
. "$TEST_LIB"
build_mpi "$TOP/test/mpi/src/p2p_check.c" p2p_check
mpirun_t -np 4 --mca btl $SHM_BTL,self ./p2p_check | tee out.txt
assert_grep '^p2p_check OK [0-9]+ bytes checked on 4 ranks' out.txt
