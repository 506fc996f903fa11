#!/usr/bin/env bash
# MADRE (MPI extension madre, framework redist) is installed and does the
# seed's 11 redistributions right with every redist component: ompi_info
# lists the framework, its components (cyclic, unit and cycleshift must be
# there; unitcyclic, phase, park are tested when present) and
# redist_base_max_extra_bytes and the MPI_T pvars; mpiext_madre_c.h is
# installed and mpi-ext.h defines OMPI_HAVE_MPI_EXT_MADRE.  redist_seed.c
# (11 maps x int, double, struct {double; char}: create, execute twice,
# free, MPIX_Redistribute; every byte and the pvar counts checked) on 2, 3,
# 5 and 8 ranks per component, chosen by MCA variable (2, 5 ranks) and by
# info key redist_component (3, 8 ranks); also the default component and
# phase with redist_phase_break_cycles=0.  Only unit and phase without
# breaking cycles may refuse a map, and unit must refuse the full ring
# (test 3) and complete tests 1 and 4 (free slots to receive into).
. "$TEST_LIB"

COMPS=$(redist_components)
echo "redist components: $(echo $COMPS)"

# The installation: framework, components, parameters, pvars, header.
"$OMPI_INFO" >info.txt 2>&1 || { cat info.txt; fail "ompi_info exited non-zero"; }
for c in $COMPS; do
    assert_grep "MCA redist: $c \(MCA v" info.txt "ompi_info does not list MCA redist: $c"
done
"$OMPI_INFO" --param redist all --level 9 >param.txt 2>&1
assert_grep 'parameter "redist_base_max_extra_bytes"' param.txt "ompi_info --param redist all --level 9 lacks redist_base_max_extra_bytes"
for p in blocks_moved bytes_moved rounds parked_blocks cycles_broken peak_extra_bytes schedule_time; do
    assert_grep "performance \"redist_base_$p\"" param.txt "ompi_info does not show pvar redist_base_$p"
done
[ -f "$PREFIX/include/openmpi/mpiext/mpiext_madre_c.h" ] || fail "mpiext_madre_c.h is not installed in $PREFIX/include/openmpi/mpiext"
cat >ext.c <<'EOF'
#include <mpi.h>
#include <mpi-ext.h>
#if !OMPI_HAVE_MPI_EXT_MADRE
#error "mpi-ext.h does not define OMPI_HAVE_MPI_EXT_MADRE"
#endif
int main(void)
{
    MPIX_Redist rd = MPIX_REDIST_NULL;
    return MPIX_REDIST_FREE == -1 && MPIX_REDIST_NULL == rd ? 0 : 1;
}
EOF
build_mpi ext.c ext
./ext || fail "MPIX_REDIST_FREE is not -1"
echo "installation: framework, components, parameter, pvars and header OK"

build_mpi "$TOP/test/mpi/src/redist_seed.c" seed -lm
run_seed() {  # name np mpirun-and-program-args...
    local name=$1 np=$2; shift 2
    run_to 180 "$name.txt" -np "$np" "$@" || { tail -n 30 "$name.txt"; fail "$name: redist_seed failed"; }
    assert_grep '^redist_seed: 11 tests, [0-9]+ refused, 0 failed$' "$name.txt" "$name: redist_seed did not finish"
    [ "$(grep -c '^seed [0-9]' "$name.txt")" -eq 11 ] || fail "$name: not 11 test lines"
    echo "$name: $(tail -n 1 "$name.txt")"
}
for c in $COMPS; do
    for np in 2 3 5 8; do
        if [ "$np" = 3 ] || [ "$np" = 8 ]; then
            run_seed "$c-$np" "$np" ./seed -c "$c"
        else
            run_seed "$c-$np" "$np" --mca redist "$c" ./seed
        fi
        if [ "$c" = unit ]; then
            assert_grep '^seed 3 ring-full: int=refused double=refused struct=refused$' "$c-$np.txt" \
                "unit completed the ring without a free slot (test 3), which must stall"
            assert_no_grep '^seed (1|4) .*refused' "$c-$np.txt" \
                "unit refused test 1 or 4, where every rank that receives has a free slot"
        else
            assert_grep ', 0 refused, 0 failed$' "$c-$np.txt" "$c refused a map (only unit may)"
        fi
    done
done
# the default selection (cyclic) must complete everything
run_seed default-4 4 ./seed
assert_grep ', 0 refused, 0 failed$' default-4.txt "the default component refused a map"
# unitcyclic in ready mode (MPI_Irsend: legal only because every sender
# waits for its receiver's "posted" message)
if grep -qx unitcyclic <<<"$COMPS"; then
    run_seed unitcyclic-ready-4 4 --mca redist unitcyclic --mca redist_unitcyclic_ready 1 ./seed
    assert_grep ', 0 refused, 0 failed$' unitcyclic-ready-4.txt "unitcyclic in ready mode refused a map"
fi
if grep -qx phase <<<"$COMPS"; then
    for np in 3 5; do
        run_seed "phase-nobreak-$np" "$np" --mca redist phase --mca redist_phase_break_cycles 0 ./seed
    done
fi

# The checks catch faults: redist_seed against the naive reference
# (redist_ref.c) passes as is and fails with each planted fault (a flipped
# byte, two blocks swapped, a miscounted pvar, a second execute undone).
build_mpi "$TOP/test/mpi/src/redist_seed.c" seedref -DREDIST_REF "$TOP/test/mpi/src/redist_ref.c" -lm
run_seed ref-3 3 ./seedref
for m in 1 2 3 6; do
    if REDIST_REF_MUTATE=$m run_to 120 "mutant-$m.txt" -np 3 -x REDIST_REF_MUTATE ./seedref; then
        fail "redist_seed did not notice planted fault $m of the reference"
    fi
done
