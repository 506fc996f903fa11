#!/usr/bin/env bash
# MADRE's errors (redist_bad.c), with every redist component ompi_info lists
# (cyclic, unit and cycleshift must be there): with MPI_ERRORS_RETURN, a
# rank or slot out of range, two blocks to one slot, block sizes that
# differ, negative nblocks or count and an intercommunicator, each on one
# rank and on all ranks, give the same class on every rank (RANK, ARG, ARG,
# TYPE, COUNT, COMM) from MPIX_Redist_create and MPIX_Redistribute, and
# leave every buffer byte-identical; a valid map works before and after.
# redist_base_max_extra_bytes=1 gives MPI_ERR_NO_MEM; unit on a ring with
# no free slot (and phase with redist_phase_break_cycles=0, when present)
# refuses with MPI_ERR_OTHER, buffers intact.  With the default handler
# (MPI_ERRORS_ARE_FATAL) a rank out of range ends the job with a message
# naming MPIX_Redist_create and the rank.
. "$TEST_LIB"

COMPS=$(redist_components)
echo "redist components: $(echo $COMPS)"

build_mpi "$TOP/test/mpi/src/redist_bad.c" bad
run_bad() {  # name np [mpirun-args...] -- program-args...
    local name=$1 np=$2 pre=(); shift 2
    while [ $# -gt 0 ] && [ "$1" != -- ]; do pre+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    run_to 120 "$name.txt" -np "$np" "${pre[@]}" ./bad "$@" || { tail -n 30 "$name.txt"; fail "$name: redist_bad failed"; }
    assert_grep '^redist_bad: [0-9]+ cases, 0 failed$' "$name.txt" "$name: redist_bad did not finish"
    echo "$name: $(tail -n 1 "$name.txt")"
}
for c in $COMPS; do
    run_bad "errors-$c" 3 --mca redist "$c" -- errors
    # 24 cases; 23 where --mca redist leaves unit unopened for the info key
    assert_grep "^redist_bad: $([ "$c" = unit ] && echo 24 || echo 23) cases, 0 failed\$" "errors-$c.txt" \
        "errors-$c: not all cases ran"
    run_bad "nomem-$c" 2 --mca redist "$c" --mca redist_base_max_extra_bytes 1 -- nomem
    assert_grep '^bad max-extra-bytes all: MPI_ERR_NO_MEM ok$' "nomem-$c.txt"
done
# the default component, other sizes; the byte limit through the environment
run_bad errors-default-2 2 -- errors
run_bad errors-default-5 5 -- errors
assert_grep '^redist_bad: 24 cases, 0 failed$' errors-default-5.txt "errors-default-5: not all 24 cases ran"
OMPI_MCA_redist_base_max_extra_bytes=1 run_bad nomem-env 3 -x OMPI_MCA_redist_base_max_extra_bytes -- nomem
run_bad refuse-unit 4 -- refuse unit
if grep -qx phase <<<"$COMPS"; then
    run_bad refuse-phase 3 --mca redist_phase_break_cycles 0 -- refuse phase
fi

# MPI_ERRORS_ARE_FATAL: the job fails and says why (ORTE may lose a
# show_help message, hence up to 3 tries, as fails_saying in lib.sh)
fault='MPI_ERR_RANK|invalid rank|rank.*out of range|out of range.*rank'
for try in 1 2 3; do
    if run_to 60 abort.txt -np 3 ./bad abort; then
        tail -n 20 abort.txt; fail "a rank out of range did not end the job under MPI_ERRORS_ARE_FATAL"
    fi
    assert_no_grep 'returned .* under MPI_ERRORS_ARE_FATAL' abort.txt "MPIX_Redist_create returned under MPI_ERRORS_ARE_FATAL"
    grep -qi 'MPIX_Redist_create' abort.txt && grep -Eqi "$fault" abort.txt && break
    [ "$try" = 3 ] && { tail -n 30 abort.txt; fail "the abort does not name MPIX_Redist_create and the bad rank"; }
done
grep -Ei -m 3 "MPIX_Redist_create|$fault" abort.txt
