#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# A communicator's collective modules are selected at its first collective
# call, not at its creation (config/patches/<series>/0028-coll-lazy-
# select.patch, coll_base_lazy_select, issue 38).  test/mpi/src/coll_lazy.c
# meets the first collective every way a program can (each blocking one,
# a nonblocking one while the other member is in a synchronous send to
# this one, neighbourhood collectives on Cartesian communicators, an
# intercommunicator and its duplicates, idup of a never-used communicator,
# threads), with lazy selection and with selection at creation, and
# reports the heap of a duplicate that carried one message round a ring:
# lazily, it must cost at least 2,500 bytes less (the collective modules
# and the c_coll table; stock and selection at creation: the same).
# Staged selection (config/patches/<series>/0032-coll-lazy-stages.patch):
# a duplicate that also called one MPI_Allreduce must cost at least 1,200
# bytes less than with selection at creation (basic's and libnbc's
# modules, released until a collective of theirs is called), and every
# collective only they provide works when called after it.  Tuned's data
# made at first use (0034-coll-tuned-data-lazy.patch): the collective part
# of a duplicate that called one MPI_Allreduce (coll dup - p2p dup, 4
# ranks) must be at most 2,250 bytes (2,165 on 4.1.4 and 2,193 on 5.0.7
# with it; 2,310 and 2,347 with the data made at enable).
. "$TEST_LIB"
needs patch:0028
build_mpi "$TOP/test/mpi/src/coll_lazy.c" lazy -lpthread
for np in 2 4; do
    run_to 120 lazy$np.txt -np $np ./lazy || { cat lazy$np.txt; fail "lazy selection, $np ranks: coll_lazy failed"; }
    run_to 120 eager$np.txt -np $np --mca coll_base_lazy_select 0 ./lazy ||
        { cat eager$np.txt; fail "selection at creation, $np ranks: coll_lazy failed"; }
    for f in lazy$np eager$np; do
        assert_grep "^coll_lazy: $np ranks: ok" "$f.txt" "coll_lazy ($f): no result"
        echo "$f: $(grep 'bytes per p2p dup' "$f.txt"); $(grep 'bytes per coll dup' "$f.txt")"
    done
done
bl=$(sed -n 's/.*bytes per p2p dup //p' lazy4.txt)
be=$(sed -n 's/.*bytes per p2p dup //p' eager4.txt)
[ $(( be - bl )) -ge 2500 ] ||
    fail "a duplicate used for point-to-point only costs $bl bytes with lazy selection and $be selected at creation: its collective modules are still made at creation"
if have patch:0032; then
    cl=$(sed -n 's/.*bytes per coll dup //p' lazy4.txt)
    ce=$(sed -n 's/.*bytes per coll dup //p' eager4.txt)
    [ $(( ce - cl )) -ge 1200 ] ||
        fail "a duplicate that called one MPI_Allreduce costs $cl bytes with lazy selection and $ce selected at creation: basic's and libnbc's modules are still made at its first collective"
fi
if have patch:0034; then
    pl=$(sed -n 's/.*bytes per p2p dup \([0-9]*\).*/\1/p' lazy4.txt)
    cl=$(sed -n 's/.*bytes per coll dup //p' lazy4.txt)
    [ $(( cl - pl )) -le 2250 ] ||
        fail "the collective part of a duplicate that called one MPI_Allreduce is $(( cl - pl )) bytes (at most 2,250): tuned's data is made at enable again?"
fi
# the parameter is listed with its help
"$PREFIX/bin/ompi_info" --param coll base --level 9 | grep -q 'coll_base_lazy_select' ||
    fail "ompi_info does not list coll_base_lazy_select"
echo "coll-lazy: OK"
