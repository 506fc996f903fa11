#!/usr/bin/env bash
# test-scope: first base (zcomp is the same code on every base; its hooks in 5.0's ob1, every protocol, are run by zcomp-semantics, zcomp-threads and mpi4py with zcomp always)
# Conformance with pml/zcomp in 'always' mode (every message of 4 KB or more
# compressed with lz4): MPICH's pt2pt/ directory, and coll/ restricted to
# its tests of at most 4 ranks (the whole of coll/ takes too long for the
# CI budget on 2 cores; see the component README for a full run), pass
# exactly as on stock Open MPI (expected failures and skips in test/mpich/).
. "$TEST_LIB"
needs ompi/mca/pml/zcomp
Z=(OMPI_MCA_pml_zcomp_enable=1 OMPI_MCA_pml_zcomp_strategy=always)
"$TOP/contrib/mpich-tests.sh" -p "$PREFIX" pt2pt -- "${Z[@]}" | tee pt2pt.txt
assert_grep "^mpich pt2pt: [0-9]+ passed, 0 failed" pt2pt.txt "MPICH pt2pt/ lost a test with zcomp"
MPICH_MAX_NP=4 "$TOP/contrib/mpich-tests.sh" -p "$PREFIX" coll -- "${Z[@]}" | tee coll.txt
assert_grep "^mpich coll: [0-9]+ passed, 0 failed" coll.txt "MPICH coll/ lost a test with zcomp"
