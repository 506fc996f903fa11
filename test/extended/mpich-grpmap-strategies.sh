#!/usr/bin/env bash
# Extended (TEST_AREAS=extended; not in CI's time, 150 s): in CI,
# mpich-grpmap-sets.sh runs MPICH's group/, comm/ and topo/ with every
# group offered to grpmap and five forms competing, and grpmap-groups.sh
# checks each strategy's picks.
# Conformance with compressed group maps under each strategy and with the
# forms not covered by mpich-grpmap-sets.sh (or test/extended/'s -array.sh)
# forced alone: MPICH's
# group/, comm/ and topo/ directories pass as on stock Open MPI (topo: the
# four tests 4.1.4 itself fails are in test/mpich/topo.expected-fail) with
# every group offered to grpmap (grpmap_base_min_size 0), under the space
# and hybrid strategies (dense table a rival), and with lattice, then bdd,
# then bwt alone (each holds what it can; the rest falls back, and the
# fallback must behave too).  The verbose stream of a run per strategy must
# show compressed picks, so that the run is not all-dense by accident.
# To keep CI within its time: 'time' is not run here (it rightly keeps
# most tables dense, so its run was close to stock; grpmap-groups.sh runs
# it); hybrid, lattice, bdd and bwt leave out comm/ (the space strategy
# runs it here, mpich-grpmap-sets.sh runs it with lattice, bitmap, gap, bdd
# and wtr offered, and the unit tests grpmap-lattice/-bdd/-bwt test each
# form alone).
. "$TEST_LIB"
needs ompi/mca/grpmap
run_mpich() {   # run_mpich NAME DIRS VAR=VALUE...
    local name=$1 dirs=$2; shift 2
    # shellcheck disable=SC2086
    "$TOP/contrib/mpich-tests.sh" -p "$PREFIX" $dirs -- OMPI_MCA_grpmap_base_min_size=0 \
        "$@" | tee "$name.txt"
    assert_grep '^mpich group: [0-9]+ passed, 0 failed' "$name.txt" "MPICH group/ lost a test with grpmap $name"
    if [[ " $dirs " == *" comm "* ]]; then
        assert_grep "^mpich comm: [0-9]+ passed, 0 failed, $(mpich_xfail comm) expected failures" "$name.txt" "MPICH comm/ lost a test with grpmap $name"
    fi
    assert_grep "^mpich topo: [0-9]+ passed, 0 failed, $(mpich_xfail topo) expected failures" "$name.txt" "MPICH topo/ lost a test with grpmap $name"
}
run_mpich space "group comm topo" OMPI_MCA_grpmap_base_strategy=space
run_mpich hybrid "group topo" OMPI_MCA_grpmap_base_strategy=hybrid
run_mpich lattice "group topo" OMPI_MCA_grpmap=lattice
run_mpich bdd "group topo" OMPI_MCA_grpmap=bdd
run_mpich bwt "group topo" OMPI_MCA_grpmap=bwt
# space and hybrid really compress the groups of grpmap_groups.c on 8 ranks
# (time may rightly keep every dense table: it is the fastest)
build_mpi "$TOP/test/mpi/src/grpmap_groups.c" groups
for s in space hybrid; do
    run_to 120 "v-$s.txt" -np 8 --mca grpmap_base_min_size 0 --mca grpmap_base_strategy $s \
        --mca grpmap_base_verbose 10 ./groups || { tail -20 "v-$s.txt"; fail "grpmap_groups, strategy $s"; }
    assert_grep 'grpmap: group of [0-9]+ members: [a-z]+(\+[a-z]+)?, [0-9]+ bytes' "v-$s.txt" \
        "strategy $s held no group in a compressed form"
done
