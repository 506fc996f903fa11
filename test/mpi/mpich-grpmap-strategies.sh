#!/usr/bin/env bash
# Conformance with compressed group maps under each strategy and with the
# forms not covered by mpich-grpmap-array.sh / -sets.sh forced alone: MPICH's
# group/, comm/ and topo/ directories pass as on stock Open MPI (topo: the
# four tests 4.1.4 itself fails are in test/mpich/topo.expected-fail) with
# every group offered to grpmap (grpmap_base_min_size 0), under the space,
# time and hybrid strategies (dense table a rival), and with lattice, then
# bdd, then bwt alone (each holds what it can; the rest falls back, and the
# fallback must behave too).  The verbose stream of a run per strategy must
# show compressed picks, so that the run is not all-dense by accident.
. "$TEST_LIB"
run_mpich() {   # run_mpich NAME VAR=VALUE...
    local name=$1; shift
    "$TOP/contrib/mpich-tests.sh" -p "$PREFIX" group comm topo -- OMPI_MCA_grpmap_base_min_size=0 \
        "$@" | tee "$name.txt"
    assert_grep '^mpich group: [0-9]+ passed, 0 failed' "$name.txt" "MPICH group/ lost a test with grpmap $name"
    assert_grep '^mpich comm: [0-9]+ passed, 0 failed, 2 expected failures' "$name.txt" "MPICH comm/ lost a test with grpmap $name"
    assert_grep '^mpich topo: [0-9]+ passed, 0 failed, 4 expected failures' "$name.txt" "MPICH topo/ lost a test with grpmap $name"
}
for s in space time hybrid; do
    run_mpich "$s" OMPI_MCA_grpmap_base_strategy=$s
done
for f in lattice bdd bwt; do
    run_mpich "$f" OMPI_MCA_grpmap=$f
done
# space and hybrid really compress the groups of grpmap_groups.c on 8 ranks
# (time may rightly keep every dense table: it is the fastest)
build_mpi "$TOP/test/mpi/src/grpmap_groups.c" groups
for s in space hybrid; do
    run_to 120 "v-$s.txt" -np 8 --mca grpmap_base_min_size 0 --mca grpmap_base_strategy $s \
        --mca grpmap_base_verbose 10 ./groups || { tail -20 "v-$s.txt"; fail "grpmap_groups, strategy $s"; }
    assert_grep 'grpmap: group of [0-9]+ members: [a-z]+(\+[a-z]+)?, [0-9]+ bytes' "v-$s.txt" \
        "strategy $s held no group in a compressed form"
done
