#!/usr/bin/env bash
# Conformance with compressed group maps: MPICH's group/, comm/ and topo/
# directories pass as on stock Open MPI (topo: the four tests 4.1.4 itself
# fails are listed in test/mpich/topo.expected-fail) with every group
# offered to grpmap (grpmap_base_min_size 0) and the forms restricted to
# lattice,bitmap,gap,bdd,wtr, so that groups are held compressed (a forced form is
# not weighed against the dense table).  Every communicator sparse as well
# (pml_ob1_sparse_peers_min 0) and grpmap's linear translation cache on every
# group: ob1-sparse.sh's other cache, run here to spare CI a run of comm/.
# The communicators live in comm_store's red-black tree (with its auto CID
# policy, highest; flat, the default, is covered by mpich-comm.sh; radix
# runs comm/ in pml-ucx.sh, threads/comm in mpich-threads-comm-store.sh
# and the whole of comm/ in
# test/extended/mpich-comm-store-radix.sh): one run of comm/ for both
# components, which CI's time asks for (a failure here is then bisected
# by running comm/ with each setting alone).
. "$TEST_LIB"
needs ompi/mca/grpmap
needs ompi/mca/comm_store
"$TOP/contrib/mpich-tests.sh" -p "$PREFIX" group comm topo -- OMPI_MCA_comm_store=rbtree \
    OMPI_MCA_grpmap_base_min_size=0 \
    OMPI_MCA_grpmap=lattice,bitmap,gap,bdd,wtr OMPI_MCA_pml=ob1 OMPI_MCA_pml_ob1_sparse_peers_min=0 \
    OMPI_MCA_grpmap_base_cache=linear OMPI_MCA_grpmap_base_cache_min_size=0 | tee out.txt
assert_grep '^mpich group: [0-9]+ passed, 0 failed' out.txt "MPICH group/ lost a test with grpmap lattice,bitmap,gap,bdd,wtr"
assert_grep "^mpich comm: [0-9]+ passed, 0 failed, $(mpich_xfail comm) expected failures" out.txt "MPICH comm/ lost a test with comm_store rbtree and grpmap lattice,bitmap,gap,bdd,wtr"
assert_grep "^mpich topo: [0-9]+ passed, 0 failed, $(mpich_xfail topo) expected failures" out.txt "MPICH topo/ lost a test with grpmap lattice,bitmap,gap,bdd,wtr"
