#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# The message-queue debugger library (lib/openmpi/libompi_dbg_msgq.so, the
# "MQS" plugin of TotalView and DDT) reads the communicators from the
# store's table ompi_comm_store_debugger_comms.  A harness built against
# the build tree's headers drives the installed library against its own
# process as a debugger would (types and field offsets from the compiler,
# as in upstream's ompi_debugger_canary.c), on 2 ranks, with every store:
# flat, and rbtree and radix with the Highest-CID policy (their default),
# which leaves the CIDs sparse.  Checked on every rank:
#  - round 1 (fresh attach): MPI_COMM_WORLD, SELF, NULL, the 20 live of 40
#    named dups and a split with reversed ranks listed once each, with the
#    right CID, local rank, size, name and MPI_COMM_WORLD ranks; no freed
#    dup listed (24 communicators, CIDs 0-43);
#  - round 2 (mqs_update_communicator_list after 5 frees and 4 dups): the
#    same (23 communicators); flat reuses the freed CIDs (up to 43),
#    rbtree and radix allocate above them (up to 47);
#  - an MPI_Irecv is listed by the library's pending-receive iterator on
#    its communicator only, with its tag, source, buffer and length.
# The harness also probes known limitations of the library and prints
# "probe NAME: up to date" or "probe NAME: STALE (...)"; they are shown
# here, not failed (see test/mpi/src/msgq_dll_check.c): a list left stale
# when one communicator is freed and one created between two updates
# (the table's lowest_free/number_free, which the library watches, come
# back unchanged); entries kept for a reused CID (flat); rank translation
# of groups met after the first rebuild.
. "$TEST_LIB"
needs ompi/mca/comm_store
OBJ=$OVERLAY_BUILD_DIR/obj
DLL=$PREFIX/lib/openmpi/libompi_dbg_msgq.so
[ -f "$OBJ/opal/include/opal_config.h" ] || skip "no configured object tree in $OBJ"
[ -f "$OMPI_SRC/ompi/debuggers/ompi_common_dll.c" ] || skip "no prepared source tree in $OMPI_SRC"
[ -f "$DLL" ] || fail "no message-queue debugger library at $DLL"
build_mpi "$TOP/test/mpi/src/msgq_dll_check.c" msgq_dll_check \
    -I"$OBJ" -I"$OBJ/opal/include" -I"$OBJ/orte/include" -I"$OBJ/ompi/include" \
    -I"$OMPI_SRC" -I"$OMPI_SRC/opal/include" -I"$OMPI_SRC/orte/include" \
    -I"$OMPI_SRC/ompi/include" -I"$OMPI_SRC/ompi/debuggers" -ldl

for c in flat rbtree radix; do
    out=msgq-$c.txt
    pol=highest; [ "$c" = flat ] && pol=lowest
    if ! mpirun_t -np 2 --mca comm_store "$c" --mca comm_store_base_cid_policy $pol \
        --mca comm_store_base_verbose 10 ./msgq_dll_check "$DLL" >"$out" 2>&1; then
        tail -n 30 "$out"
        grep -E '^msgq: rank [0-9]+: FAIL' "$out" | head -n 5 >&2 || true
        fail "comm_store $c: the debugger library does not list the communicators right"
    fi
    assert_grep "comm_store: selected $c " "$out" "comm_store $c was not the one selected"
    case $c in flat) max2=43 ;; *) max2=47 ;; esac
    for r in 0 1; do
        assert_grep "^msgq: rank $r: round 1: listed 24 communicators \(CIDs 0-43\), expected 24, all match" \
            "$out" "comm_store $c: rank $r: round 1 result missing"
        assert_grep "^msgq: rank $r: round 2: listed 23 communicators \(CIDs 0-$max2\), expected 23, all match" \
            "$out" "comm_store $c: rank $r: round 2 result missing"
        assert_grep "^msgq: rank $r: pending receive on split-rev \(CID 43\) tag 77 from [01]: listed" \
            "$out" "comm_store $c: rank $r: pending receive not listed"
        for p in receive-new free+create cid-reuse; do
            assert_grep "^msgq: rank $r: probe ${p/+/\\+}: (up to date|STALE)" "$out" \
                "comm_store $c: rank $r: probe $p did not run"
        done
    done
    assert_grep '^msgq: OK on 2 ranks' "$out"
    note "comm_store $c: $(grep -E '^msgq: rank 0: round 2:' "$out")"
    grep -E '^msgq: rank [0-9]+: (probe )?(receive-new|free\+create|cid-reuse)' "$out" | sed 's/^/   /'
done
