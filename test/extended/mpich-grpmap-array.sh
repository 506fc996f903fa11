#!/usr/bin/env bash
# Conformance with compressed group maps: MPICH's group/, comm/ and topo/
# directories pass as on stock Open MPI (topo: the four tests 4.1.4 itself
# fails are listed in test/mpich/topo.expected-fail) with every group
# offered to grpmap (grpmap_base_min_size 0) and the forms restricted to
# array, so that groups are held compressed (a forced form is
# not weighed against the dense table).
# Extended (TEST_AREAS=extended; not in CI's time): array holds any list and
# competes in every strategy run of mpich-grpmap-strategies.sh.
. "$TEST_LIB"
needs ompi/mca/grpmap
"$TOP/contrib/mpich-tests.sh" -p "$PREFIX" group comm topo -- OMPI_MCA_grpmap_base_min_size=0 \
    OMPI_MCA_grpmap=array | tee out.txt
assert_grep '^mpich group: [0-9]+ passed, 0 failed' out.txt "MPICH group/ lost a test with grpmap array"
assert_grep "^mpich comm: [0-9]+ passed, 0 failed, $(mpich_xfail comm) expected failures" out.txt "MPICH comm/ lost a test with grpmap array"
assert_grep "^mpich topo: [0-9]+ passed, 0 failed, $(mpich_xfail topo) expected failures" out.txt "MPICH topo/ lost a test with grpmap array"
