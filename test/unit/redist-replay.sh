#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# Every redist component's schedule replayed slot by slot: the action
# components (cyclic, unitcyclic, phase, park) through the slot bookkeeping
# execute uses, cycleshift's global order step by step, unit's rounds
# through its share and slot steps.  10,000 random injective maps (0-50 %
# free, one in five zero-free) and the map that made park corrupt its
# heap, every slot's content tracked, every block checked in its target
# slot.  Under AddressSanitizer + UndefinedBehaviorSanitizer.
. "$TEST_LIB"
build_unit t -I"$TOP" "$TOP/test/unit/redist_replay_test.c" -DREDIST_DFS_ONLY \
    "$TOP/ompi/mca/redist/base/redist_base_cyclic.c" "$TOP/ompi/mca/redist/base/redist_base_slots.c"
./t 10000 2>&1 | tee out.txt
assert_grep '^redist_replay_test: OK$' out.txt
