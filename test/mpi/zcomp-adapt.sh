#!/usr/bin/env bash
# Adaptive zcomp follows data that changes within one message class
# (zcomp_adapt.c): 4 MB doubles, first 75 %-zero (compressed, not with fpc),
# then patterned (fpc, 16x, although the class's earlier codec also
# compresses them, 8x: a better-than-expected ratio must trigger
# re-sampling too), then random (raw).  On a path zcomp is told is slow, so
# that the ratios decide; every message's data is checked.
. "$TEST_LIB"
needs ompi/mca/pml/zcomp
build_mpi "$TOP/test/mpi/src/zcomp_adapt.c" adapt "$TOP/test/common/datasets.c" -lm
run_adapt() {  # name [mpirun args]
    local name=$1; shift
    mpirun_t -np 2 --mca pml_zcomp_enable 1 --mca pml_zcomp_path_bandwidth 12 --mca btl "$SHM_BTL",self \
        "$@" ./adapt >"$name.txt" 2>&1 || { cat "$name.txt"; fail "zcomp_adapt ($name) failed"; }
    sed "s/^/$name: /" "$name.txt"
    assert_grep '^zcomp_adapt: 0 failed' "$name.txt"
    assert_no_grep '^FAIL' "$name.txt"
}
# default: large messages are re-sampled on the sampling budget
run_adapt budget
# no periodic sampling at all: only the "mistakes" (a chunk's ratio far
# from the class's figure, in either direction) make the class sample again
run_adapt mistakes --mca pml_zcomp_sample_budget 0
