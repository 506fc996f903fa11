#!/usr/bin/env bash
# Conformance under MPI_THREAD_MULTIPLE (issue 22): MPICH's threads/pt2pt,
# threads/comm and threads/coll pass exactly as on stock Open MPI 4.1.4
# (expected failures and skips in test/mpich/threads/, measured on stock):
#  - pml/zcomp 'always' (every message of 4 KB or more compressed) over TCP
#    and over shared memory, and 'adaptive' on a path declared slow (so that
#    it compresses) over TCP;
#  - comm_store: threads/comm with each store (flat, rbtree, radix), each
#    CID policy (lowest, highest) among them.
# la_twophase: no test of MPICH's threads/ does I/O.
# "N passed, 0 failed" alone is not enough: a directory must run tests
# (mpich-tests.sh fails a run of none).
. "$TEST_LIB"
TCP=(OMPI_MCA_btl=tcp,self OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo)
SM=(OMPI_MCA_btl=vader,self)
Z=(OMPI_MCA_pml_zcomp_enable=1)
mt() {  # name dirs... -- env...: run, then each directory must be clean
    local name=$1; shift
    "$TOP/contrib/mpich-tests.sh" -p "$PREFIX" "$@" | tee "$name.txt" \
        || { tail -20 "$name.txt"; fail "$name: MPICH threads/ lost a test (or ran none)"; }
    assert_no_grep '^FAIL|UNEXPECTED|NO TESTS' "$name.txt" "$name: MPICH threads/ lost a test"
}
mt zcomp-always-tcp threads/pt2pt threads/comm threads/coll -- "${Z[@]}" OMPI_MCA_pml_zcomp_strategy=always "${TCP[@]}"
assert_grep '^mpich threads/pt2pt: 37 passed, 0 failed, 3 expected' zcomp-always-tcp.txt
mt zcomp-always-sm threads/pt2pt threads/comm threads/coll -- "${Z[@]}" OMPI_MCA_pml_zcomp_strategy=always "${SM[@]}"
assert_grep '^mpich threads/pt2pt: 37 passed, 0 failed, 3 expected' zcomp-always-sm.txt
mt zcomp-adaptive-tcp threads/pt2pt -- "${Z[@]}" OMPI_MCA_pml_zcomp_path_bandwidth=10 "${TCP[@]}"
mt comm-store-flat-highest threads/comm -- OMPI_MCA_comm_store=flat OMPI_MCA_comm_store_base_cid_policy=highest
mt comm-store-rbtree-lowest threads/comm -- OMPI_MCA_comm_store=rbtree OMPI_MCA_comm_store_base_cid_policy=lowest
mt comm-store-radix-highest threads/comm -- OMPI_MCA_comm_store=radix OMPI_MCA_comm_store_base_cid_policy=highest
