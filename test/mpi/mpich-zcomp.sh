#!/usr/bin/env bash
# Conformance with pml/zcomp in 'always' mode (every message of 4 KB or more
# compressed with lz4): MPICH's pt2pt/ and coll/ directories pass exactly as
# on stock Open MPI (expected failures and skips in test/mpich/).
. "$TEST_LIB"
for d in pt2pt coll; do
    "$TOP/contrib/mpich-tests.sh" -p "$PREFIX" $d -- OMPI_MCA_pml_zcomp_enable=1 \
        OMPI_MCA_pml_zcomp_strategy=always | tee "$d.txt"
    assert_grep "^mpich $d: [0-9]+ passed, 0 failed" "$d.txt" "MPICH $d/ lost a test with zcomp"
done
