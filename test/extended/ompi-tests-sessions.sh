#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# The Sessions tests of Open MPI's public test suite (open-mpi/ompi-tests-
# public, sessions/; issue 37) on 4 ranks, with the stock choices and with
# each component of the suite selected: comm_store rbtree and flat with
# the highest CID policy, radix with auto; grpmap's space and hybrid
# strategies on every group with every communicator sparse; zcomp
# compressing every message.  Each must give the stock result: every test
# passes but sessions_test15, which expects MPI_Waitall on requests of two
# sessions to fail.  Open MPI 5.0.7 checks that (MPI_ERR_REQUEST, through
# the default error handler: an abort) only for requests still pending;
# ob1 completes a small send at once, so stock 5.0.7 returns success and
# the test reports it (exit 255).  With zcomp the send is zcomp's request,
# checked, and the job aborts as stock does for a large message: the test
# counts as failed either way.  sessions_ex2 is given mpi://WORLD (its
# README's "mpi://world" predates MPI-4's process set names).
#
# The sources are not fetched here (CI has no GitHub): set
# OMPI_TESTS_PUBLIC to a checkout, e.g. commit 338c54c of 2025-02-14.
. "$TEST_LIB"
[ "$OMPI_SERIES" = 4.1 ] && skip "Open MPI 4.1 has no Sessions"
src=${OMPI_TESTS_PUBLIC:-}
[ -n "$src" ] && [ -f "$src/sessions/sessions_test1.c" ] ||
    skip "no ompi-tests-public checkout: set OMPI_TESTS_PUBLIC to one"
cp -r "$src/sessions" . && cd sessions
PATH=$PREFIX/bin:$PATH make >make.log 2>&1 || { tail -20 make.log; fail "the Sessions tests do not build"; }

tests="sessions_ex2 sessions_ex3 sessions_ex4 sessions_test sessions_test1 sessions_test2
       sessions_test3 sessions_test5 sessions_test6 sessions_test7 sessions_test8 sessions_test9
       sessions_test10 sessions_test11 sessions_test12 sessions_test13 sessions_test15
       sessions_test16"
xfail=sessions_test15
configs=(
    "stock:"
    "rbtree-highest:--mca comm_store rbtree --mca comm_store_base_cid_policy highest"
    "flat-highest:--mca comm_store flat --mca comm_store_base_cid_policy highest"
    "radix-auto:--mca comm_store radix"
    "grpmap-space:--mca grpmap_base_min_size 0 --mca grpmap_base_strategy space --mca pml_ob1_sparse_peers_min 0"
    "grpmap-hybrid:--mca grpmap_base_min_size 0 --mca grpmap_base_strategy hybrid --mca pml_ob1_sparse_peers_min 0 --mca pml_ob1_sparse_flat_one_chunk false"
    "zcomp-always:--mca pml_zcomp_enable 1 --mca pml_zcomp_strategy always --mca pml_zcomp_threshold 1"
)
bad=0
for cfg in "${configs[@]}"; do
    label=${cfg%%:*}
    read -r -a args <<<"${cfg#*:}"
    passed=0 xfailed=0
    for t in $tests; do
        if [ ! -x "$t" ]; then
            # the Fortran examples need the mpi_f08 / mpi modules
            case $t in sessions_ex3 | sessions_ex4) continue ;; esac
            fail "$t was not built"
        fi
        targ=(); [ "$t" = sessions_ex2 ] && targ=(mpi://WORLD)
        rc=0
        run_to 120 "$label-$t.txt" -np 4 "${args[@]}" "./$t" "${targ[@]}" || rc=$?
        if [ "$t" = "$xfail" ]; then
            [ $rc -ne 0 ] || { echo "$label: $t passed (expected to fail: was it fixed upstream?)"; bad=$((bad + 1)); }
            xfailed=$((xfailed + 1))
        elif [ $rc -eq 0 ]; then
            passed=$((passed + 1))
        else
            echo "$label: $t failed (exit $rc):"; tail -n 5 "$label-$t.txt"; bad=$((bad + 1))
        fi
    done
    note "$label: $passed passed, $xfailed expected failure ($xfail)"
done
[ $bad -eq 0 ] || fail "$bad Sessions test(s) did not give the stock result"
