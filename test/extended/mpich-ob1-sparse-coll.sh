#!/usr/bin/env bash
# Extended (TEST_AREAS=extended; not in CI's time): MPICH's coll/ (tests of
# at most 4 ranks) passes as on stock Open MPI with every peer table sparse
# on the two-level path, every group compressed (bitmap or gap) and a
# set-associative translation cache on every map, as test/mpi/ob1-sparse.sh
# runs pt2pt/, comm/ and topo/.
. "$TEST_LIB"
needs patch:0005 ompi/mca/grpmap
S=(OMPI_MCA_pml=ob1 OMPI_MCA_pml_ob1_sparse_peers_min=0 OMPI_MCA_grpmap=bitmap,gap
   OMPI_MCA_grpmap_base_min_size=0 OMPI_MCA_grpmap_base_cache_min_size=0)
MPICH_MAX_NP=4 "$TOP/contrib/mpich-tests.sh" -p "$PREFIX" coll -- "${S[@]}" OMPI_MCA_grpmap_base_cache=setassoc \
    OMPI_MCA_pml_ob1_sparse_flat_one_chunk=0 | tee coll.txt
assert_grep '^mpich coll: [0-9]+ passed, 0 failed' coll.txt "MPICH coll/ lost a test with a sparse peer table"
