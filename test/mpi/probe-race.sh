#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# Probes racing receives of the same messages under MPI_THREAD_MULTIPLE
# (config/patches/4.1/0007-ob1-probe-under-matching-lock.patch): test/mpi/src/
# probe_race.c, 50,000 pairs of messages, 3 runs each over shared memory
# and TCP, on ob1 alone and under zcomp (strategy always, where the bug
# first showed as MPICH's mt_iprobe_sendrecv_huge failing); every probe
# must report its own message.  Stock 4.1.4 (Debian's openmpi) gave 33-125
# bad probes in every such run.
. "$TEST_LIB"
needs patch:0007
zs="0 1"; have ompi/mca/pml/zcomp || zs=0
build_mpi "$TOP/test/mpi/src/probe_race.c" pr -lpthread
n=0
for btl in $SHM_BTL,self tcp,self; do
    for z in $zs; do
        for i in 1 2 3; do
            name="${btl%%,*}-z$z-$i"
            extra=(); [ "$btl" = tcp,self ] && extra=(--mca btl_tcp_if_include lo)
            [ "$z" = 1 ] && extra+=(--mca pml_zcomp_enable 1 --mca pml_zcomp_strategy always)
            run_to 120 "$name.txt" -np 2 --mca btl $btl "${extra[@]}" ./pr 50000 || { tail -20 "$name.txt"; fail "probe_race $name"; }
            assert_grep '^probe_race: 50000 pairs, 0 bad probes' "$name.txt" \
                "probe_race $name: a probe reported another message ($(grep -m1 reported "$name.txt"))"
            n=$((n + 1))
        done
    done
done
echo "probe_race: $n runs of 50000 pairs, no bad probe"
