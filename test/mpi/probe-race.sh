#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# Probes racing receives of the same messages under MPI_THREAD_MULTIPLE
# (config/patches/0007-ob1-probe-under-matching-lock.patch): test/mpi/src/
# probe_race.c, 50,000 pairs of messages, 3 runs each over shared memory
# and TCP, on ob1 alone and under zcomp (strategy always, where the bug
# first showed as MPICH's mt_iprobe_sendrecv_huge failing); every probe
# must report its own message.  Stock 4.1.4 (Debian's openmpi) gave 33-125
# bad probes in every such run.
. "$TEST_LIB"
build_mpi "$TOP/test/mpi/src/probe_race.c" pr -lpthread
n=0
for btl in vader,self tcp,self; do
    for z in 0 1; do
        for i in 1 2 3; do
            name="${btl%%,*}-z$z-$i"
            extra=(); [ "$btl" = tcp,self ] && extra=(--mca btl_tcp_if_include lo)
            run_to 120 "$name.txt" -np 2 --mca btl $btl "${extra[@]}" --mca pml_zcomp_enable $z \
                --mca pml_zcomp_strategy always ./pr 50000 || { tail -20 "$name.txt"; fail "probe_race $name"; }
            assert_grep '^probe_race: 50000 pairs, 0 bad probes' "$name.txt" \
                "probe_race $name: a probe reported another message ($(grep -m1 reported "$name.txt"))"
            n=$((n + 1))
        done
    done
done
echo "probe_race: $n runs of 50000 pairs, no bad probe"
