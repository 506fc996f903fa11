#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# redist's action schedules (cyclic, unitcyclic, phase, park) replayed
# slot by slot through the slot bookkeeping execute uses: 10,000 random
# injective maps (0-50 % free, one in five zero-free) and the map that
# made park corrupt its heap, every slot's content tracked, every block
# checked in its target slot.  Under AddressSanitizer +
# UndefinedBehaviorSanitizer.
. "$TEST_LIB"
build_unit t -I"$TOP" "$TOP/test/unit/redist_replay_test.c" -DREDIST_DFS_ONLY \
    "$TOP/ompi/mca/redist/base/redist_base_cyclic.c" "$TOP/ompi/mca/redist/base/redist_base_slots.c"
./t 10000 2>&1 | tee out.txt
assert_grep '^redist_replay_test: OK$' out.txt
