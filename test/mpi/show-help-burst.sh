#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# show_help messages sent by every rank at once all reach mpirun
# (config/patches/4.1/0008-show-help-self-send-copy.patch, issue #23):
# test/mpi/src/show_help_burst.c, 8 ranks under MPI_THREAD_MULTIPLE with
# osc pt2pt, each refused 20 window creations, each refusal a show_help
# ("The OSC pt2pt component does not support MPI_THREAD_MULTIPLE"), 12
# runs.  In every run the help text must appear, the aggregation lines must
# count the other 159 messages ("N more processes have sent help message
# help-osc-pt2pt.txt / mpi-thread-multiple-not-supported") and no
# ORTE_ERROR_LOG may appear.  Stock 4.1.4 (Debian's openmpi) read messages
# from freed memory in mpirun ("ORTE_ERROR_LOG: Data unpack would read
# past end of buffer in file orte/util/show_help.c at line 507", also at
# 501 and 513, or "Out of resource") and lost them in 24 of 50 such runs
# on 2 cores: 12 runs miss it about once in 4,000.
. "$TEST_LIB"
needs patch:0008
"$OMPI_INFO" --parsable | grep -q '^mca:osc:pt2pt:' || skip "no osc pt2pt component"
build_mpi "$TOP/test/mpi/src/show_help_burst.c" shb
np=8 rounds=20 runs=12
total=$((np * rounds))
for i in $(seq "$runs"); do
    out=run-$i.txt
    run_to 60 "$out" -np $np --mca osc pt2pt --mca orte_base_help_aggregate 1 ./shb $rounds ||
        { tail -n 30 "$out"; fail "run $i: show_help_burst failed"; }
    grep -q '^show_help_burst: no MPI_THREAD_MULTIPLE' "$out" && skip "no MPI_THREAD_MULTIPLE"
    assert_grep "^show_help_burst: $np ranks x $rounds rounds, $total window creations refused" "$out" \
        "run $i: osc pt2pt did not refuse every window creation"
    assert_no_grep 'ORTE_ERROR_LOG' "$out" "run $i: mpirun lost show_help messages (ORTE_ERROR_LOG)"
    assert_grep '^The OSC pt2pt component does not support MPI_THREAD_MULTIPLE' "$out" \
        "run $i: no help text"
    more=$(sed -nE 's/.* ([0-9]+) more process(es have| has) sent help message help-osc-pt2pt\.txt \/ mpi-thread-multiple-not-supported.*/\1/p' "$out" |
           awk '{s += $1} END {print s + 0}')
    [ $((more + 1)) -eq $total ] || {
        grep -E 'more process|ORTE_ERROR_LOG' "$out"
        fail "run $i: mpirun got $((more + 1)) of $total help messages"
    }
done
echo "show_help_burst: $runs runs x $total simultaneous help messages, all delivered"
