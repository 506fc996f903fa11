#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# coll/tuned keeps its dynamic-rules state (forced algorithms and the
# rules for the communicator's size, 616 bytes) only on communicators of a
# job that turned dynamic rules on (config/patches/<series>/0027-coll-
# tuned-dynamic-state.patch, issue 38).  test/mpi/src/coll_tuned_dyn.c
# runs every blocking collective tuned decides on WORLD, a split and
# duplicates, with the default fixed rules, with forced algorithms and
# with a rules file, and reports the heap of a duplicate that carried an
# allreduce: with the patch it is at least 400 bytes smaller without
# dynamic rules than with them (stock: the same).
. "$TEST_LIB"
needs patch:0027
build_mpi "$TOP/test/mpi/src/coll_tuned_dyn.c" dyn
DYN=(--mca coll_tuned_use_dynamic_rules 1)
# algorithms other than the fixed rules' choices at these sizes
FORCED=(--mca coll_tuned_allreduce_algorithm 4 --mca coll_tuned_bcast_algorithm 6
        --mca coll_tuned_alltoall_algorithm 2 --mca coll_tuned_reduce_algorithm 5
        --mca coll_tuned_allgather_algorithm 4 --mca coll_tuned_barrier_algorithm 4
        --mca coll_tuned_gather_algorithm 2 --mca coll_tuned_scatter_algorithm 2
        --mca coll_tuned_reduce_scatter_algorithm 3)
# rules for 4 ranks and 2 (the split): allreduce (2) recursive doubling up
# to 256 bytes then ring, bcast (7) binomial, alltoall (3) pairwise
cat >rules.conf <<'EOR'
3
2
2
2
1
0 3 0 0
4
2
0 3 0 0
256 4 0 0
7
2
2
1
0 6 0 0
4
1
0 6 0 0
3
2
2
1
0 2 0 0
4
1
0 2 0 0
EOR
run_to 120 plain.txt -np 4 ./dyn || { cat plain.txt; fail "fixed rules: coll_tuned_dyn failed"; }
run_to 120 forced.txt -np 4 "${DYN[@]}" "${FORCED[@]}" ./dyn || { cat forced.txt; fail "forced algorithms: coll_tuned_dyn failed"; }
run_to 120 rules.txt -np 4 "${DYN[@]}" --mca coll_tuned_dynamic_rules_filename "$PWD/rules.conf" \
    --mca coll_base_verbose 0 ./dyn || { cat rules.txt; fail "rules file: coll_tuned_dyn failed"; }
for f in plain forced rules; do
    assert_grep '^coll_tuned_dyn: 4 ranks: ok' "$f.txt" "coll_tuned_dyn ($f): no result"
    echo "$f: $(grep 'bytes per used dup' "$f.txt")"
done
bp=$(sed -n 's/.*bytes per used dup //p' plain.txt)
bf=$(sed -n 's/.*bytes per used dup //p' forced.txt)
[ $(( bf - bp )) -ge 400 ] ||
    fail "a used duplicate costs $bp bytes with fixed rules and $bf with dynamic rules: tuned's dynamic state is still on every communicator"
echo "coll-tuned-dynamic: OK"
