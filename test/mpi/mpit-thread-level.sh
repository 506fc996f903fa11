#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# MPI_T_init_thread leaves MPI's thread level alone
# (config/patches/4.1/0006-mpit-own-thread-level.patch): test/mpi/src/
# mpit_thread_level.c asks MPI for MPI_THREAD_MULTIPLE and MPI_T for
# MPI_THREAD_SINGLE, checks MPI_Query_thread and the nested MPI_T level
# (deterministic: 4.1.4 fails these at once), then runs 4 threads' rings of
# blocking receives, 10 times on 5 ranks over shared memory and 3 times over
# TCP, ob1 alone and under zcomp (stock 4.1.4 lost or crossed a receive in
# about 1 run of 10).
. "$TEST_LIB"
needs patch:0006
build_mpi "$TOP/test/mpi/src/mpit_thread_level.c" mtl -lpthread
run() {   # run NAME mpirun-args...
    local name=$1; shift
    run_to 120 "$name.txt" -np 5 "$@" ./mtl 300 ||
        { tail -20 "$name.txt"; fail "mpit_thread_level: $name"; }
    assert_grep '^mpit_thread_level: 5 ranks, 4 threads x 300 rounds: ok' "$name.txt" "no result from $name"
}
n=0
for i in $(seq 10); do run "sm-$i" --mca btl $SHM_BTL,self; n=$((n + 1)); done
for i in 1 2 3; do run "tcp-$i" --mca btl tcp,self --mca btl_tcp_if_include lo; n=$((n + 1)); done
if have ompi/mca/pml/zcomp; then
    for i in 1 2 3; do
        run "zcomp-$i" --mca btl $SHM_BTL,self --mca pml_zcomp_enable 1 --mca pml_zcomp_strategy always
        n=$((n + 1))
    done
fi
echo "mpit_thread_level: $n runs passed"
