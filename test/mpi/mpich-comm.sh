#!/usr/bin/env bash
# Conformance: MPICH's test suite comm/ directory passes against this build
# exactly as against stock Open MPI 4.1.4 (known MPI-4.0 build failures are
# listed in test/mpich/comm.expected-fail).  Components that touch
# communicators run it again with themselves selected.
. "$TEST_LIB"
# The baseline of the communicator components (comm_store, grpmap) that
# run it again selected: on a base that has neither, nothing of the suite
# touches comm/.
have ompi/mca/comm_store || have ompi/mca/grpmap || needs ompi/mca/comm_store
"$TOP/contrib/mpich-tests.sh" -p "$PREFIX" comm | tee out.txt
assert_grep "^mpich comm: [0-9]+ passed, 0 failed, $(mpich_xfail comm) expected failures" out.txt
n=$(sed -n 's/^mpich comm: \([0-9]*\) passed.*/\1/p' out.txt)
[ "$n" -ge 30 ] || fail "only $n comm tests passed (30 on stock)"
