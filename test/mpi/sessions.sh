#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# MPI-4 Sessions (Open MPI 5.0 and later) with the communicator store and
# grpmap: communicators made by MPI_Comm_create_from_group from process-set
# groups (MPI_Group_from_session_pset) take the extended-CID path (a
# 128-bit CID from PMIx, a local index chosen by each process), and their
# groups exist without MPI_COMM_WORLD.  test/mpi/src/sessions_cid.c makes
# N of them in batches (mpi://WORLD, mpi://SELF with a different number per
# rank, even ranks, all reversed, odd ranks as a strided range; dup, split
# and create_group of session communicators), frees a third after each
# batch (reused local indices, holes), checks every one (size, rank,
# translate/compare, the CID the same on every member and unique on each
# process, a ring on all live communicators at once on one tag with
# payloads naming their communicator, so a misrouted message fails instead
# of hanging, no stray message, an allreduce), then a second session,
# initialized before the first is finalized (a full re-init after the last
# MPI_Session_finalize hangs now and then on stock 5.0.7, open-mpi/ompi#14125;
# "./sessions sessions 200 2 reinit" runs that by hand); "mixed" does it
# beside MPI_Init, with MPI_COMM_WORLD's dups, splits and creates
# interleaved.  Runs: default components; each store
# with each CID policy (lowest, highest = Highest-CID, auto); grpmap forms
# forced at min_size 0; MPICH's init/ session tests with rbtree + highest.
# test/mpi/src/sessions_pset.c: process sets of the launcher's (mpirun
# --pset, one per application context), default components and grpmap at
# min_size 0: each set's size (MPI_Session_get_pset_info) is its group's,
# members distinct (stock 5.0.7 gets both wrong:
# config/patches/5.0/0023-instance-pmix-pset-members.patch).
. "$TEST_LIB"
[ "$OMPI_SERIES" = 4.1 ] &&
    skip "not on Open MPI $OMPI_BASE: MPI-4 Sessions (MPI_Session_init," \
        "MPI_Comm_create_from_group) start with Open MPI 5.0"
needs ompi/mca/comm_store ompi/mca/grpmap
build_mpi "$TOP/test/mpi/src/sessions_cid.c" sessions

# (TCP over IPv4 only: 5.0's TCP BTL warns in every job on a host with IPv6
# addresses, open-mpi/ompi#14079, as in contrib/mpich-tests.sh)
run() {   # run NAME NP MODE N [mpirun args...]: 2 sessions, N + N/4 communicators
    local name=$1 np=$2 mode=$3 n=$4; shift 4
    run_to 60 "$name.txt" -np "$np" --mca btl_tcp_disable_family 6 "$@" ./sessions "$mode" "$n" 2 \
        || { tail -n 30 "$name.txt"; fail "sessions_cid $mode failed: $name ($*)"; }
    assert_no_grep 'sessions_cid FAIL' "$name.txt" "sessions_cid $mode: $name"
    assert_grep "^sessions_cid $mode: $np ranks, $((n + n / 4)) communicators: ok" "$name.txt" \
        "sessions_cid $mode: no result from $name ($*)"
    echo "$name: $(grep '^sessions_cid' "$name.txt" | tail -n 1)"
}

# default components
run default-sessions 4 sessions 200
run default-mixed 4 mixed 200
assert_grep '^sessions_cid psets:.* mpi://WORLD' default-sessions.txt "mpi://WORLD not listed"
assert_grep '^sessions_cid psets:.* mpi://SELF' default-sessions.txt "mpi://SELF not listed"

# each store with each CID policy; the verbose stream must name both, so
# that a run that ignored the selection does not pass for it
for c in flat rbtree radix; do
    for p in lowest highest auto; do
        want=$p
        [ "$p" = auto ] && { want=highest; [ "$c" = flat ] && want=lowest; }
        for m in sessions mixed; do
            run "$c-$p-$m" 3 $m 64 --mca comm_store "$c" --mca comm_store_base_cid_policy "$p" \
                --mca comm_store_base_verbose 10
            assert_grep "selected $c .*CID policy $want" "$c-$p-$m.txt" \
                "$c/$p ($m): the store was not selected (or not before the first session)"
        done
    done
done

# grpmap forms on session groups (min_size 0: every group is offered): the
# strided and reversed ranges are lattices, the even ranks any set form
for f in lattice bitmap array; do
    for m in sessions mixed; do
        run "grpmap-$f-$m" 4 $m 64 --mca grpmap "$f" --mca grpmap_base_min_size 0 \
            --mca grpmap_base_verbose 10
    done
    # MPI_COMM_WORLD's groups (mixed) go through grpmap; session groups may
    # stay dense, but must work either way
    assert_grep 'grpmap: group of [0-9]+ (members: |stays dense)' "grpmap-$f-mixed.txt" \
        "grpmap $f: no group was offered to grpmap"
done

# the launcher's process sets: two contexts of 2 and 3 processes, every
# process checks both sets
build_mpi "$TOP/test/mpi/src/sessions_pset.c" sessions_pset
for g in default lattice; do
    a=(); [ $g = lattice ] && a=(--mca grpmap lattice --mca grpmap_base_min_size 0)
    run_to 60 "pset-$g.txt" --mca btl_tcp_disable_family 6 "${a[@]}" \
        -np 2 --pset alpha ./sessions_pset alpha beta : -np 3 --pset beta ./sessions_pset alpha beta \
        || { tail -n 20 "pset-$g.txt"; fail "process sets of mpirun --pset ($g)"; }
    for set in alpha beta; do
        [ "$(grep -c "^sessions_pset $set: [0-9]* members: ok" "pset-$g.txt")" = 5 ] ||
            { cat "pset-$g.txt"; fail "set $set ($g): not checked by all 5 processes"; }
    done
    echo "pset-$g: 10 checks ok"
done

# MPICH's session tests (init/: session, session_mult_init, session_psets,
# session_self; the other init/ tests are not about sessions) with a
# sparse store and Highest-CID
mpich_clean mpich-init init -- \
    "MPICH_SKIP=exitst1 exitst2 exitst3 initstat timeout version finalized attrself library_version" \
    OMPI_MCA_comm_store=rbtree OMPI_MCA_comm_store_base_cid_policy=highest
assert_grep '^mpich init: 4 passed, 0 failed' mpich-init.txt "MPICH's session tests did not all run"
echo "sessions: OK"
