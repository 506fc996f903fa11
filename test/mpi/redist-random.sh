#!/usr/bin/env bash
# MADRE with random maps (redist_random.c): for every redist component
# ompi_info lists (cyclic, unit and cycleshift must be there), 200 maps in
# all over 2, 3, 5 and 8 ranks (70, 60, 40, 30), each drawn from a printed
# seed on every rank alike: 0-64 slots a rank (16 on 8 ranks, whose runs
# are oversubscribed on 2 cores), 0-50 % free, the exp-3 ring and random
# permutations of all slots with no free slot at all; blocks of 1 int, 4 KB
# of bytes, 64 KB of doubles or 3 struct {double; char}.  Every byte after
# each execute, MPIX_Redistribute and the MPI_T counts are checked.  The
# component is chosen by MCA variable on 2 and 5 ranks and by info key on
# 3 and 8; phase also with redist_phase_break_cycles=0; cyclic also with
# a staging budget under which cycles run chained.  Only unit and
# phase without breaking cycles may refuse maps.
# REDIST_SEED=N (default 2026) replays a run; REDIST_SEED=random draws one.
. "$TEST_LIB"

COMPS=$(redist_components)
seed=${REDIST_SEED:-2026}
[ "$seed" = random ] && seed=$(( $(date +%s) % 100000 ))
echo "redist components: $(echo $COMPS); seed $seed (REDIST_SEED=$seed replays this run)"

build_mpi "$TOP/test/mpi/src/redist_random.c" rnd -lm
run_rnd() {  # name np maps maxslots [mpirun-args...] -- [program args]
    local name=$1 np=$2 maps=$3 slots=$4 pre=() post=(); shift 4
    while [ $# -gt 0 ] && [ "$1" != -- ]; do pre+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    post=("$@")
    run_to 240 "$name.txt" -np "$np" "${pre[@]}" ./rnd $((seed * 10 + np)) "$maps" "$slots" "${post[@]}" \
        || { tail -n 30 "$name.txt"; fail "$name: redist_random failed (seed $((seed * 10 + np)))"; }
    assert_grep "^redist_random: seed [0-9]+, $maps maps, [0-9]+ refused, 0 failed$" "$name.txt" \
        "$name: redist_random did not finish"
    echo "$name: $(tail -n 1 "$name.txt")"
}
for c in $COMPS; do
    total=0
    for spec in "2 70 64" "3 60 64" "5 40 32" "8 30 16"; do
        set -- $spec
        if [ "$1" = 3 ] || [ "$1" = 8 ]; then
            run_rnd "$c-$1" "$1" "$2" "$3" -- -c "$c"
        else
            run_rnd "$c-$1" "$1" "$2" "$3" --mca redist "$c"
        fi
        [ "$c" = unit ] || assert_grep ', 0 refused, 0 failed$' "$c-$1.txt" "$c refused a map (only unit may)"
        total=$((total + $2))
    done
    [ "$total" -ge 200 ] || fail "only $total maps for $c"
    if [ "$c" = unit ]; then
        # unit refuses some maps, but those with room it must complete
        ok=$(grep -c ': ok$' unit-*.txt | awk -F: '{s += $2} END {print s}')
        [ "$ok" -ge 50 ] || fail "unit completed only $ok of 200 maps"
        echo "unit completed $ok of 200 maps"
    fi
done
# cyclic's chained cycles (a cycle with at least as many runs of 96 KB as
# processes): a budget of 256 KB makes the 4 KB and 64 KB blocks' rings
# and cycles chain; the verbose stream must say so.
for np in 2 3; do
    run_rnd cyclic-chain-$np $np 40 64 --mca redist cyclic --mca redist_base_stage_bytes 262144 \
        --mca redist_base_verbose 20
    grep -q ': chained in [0-9]* runs of' cyclic-chain-$np.txt \
        || fail "cyclic-chain-$np: no cycle was chained (redist_base_verbose 20 says when)"
    echo "cyclic-chain-$np: $(grep -c ': chained in' cyclic-chain-$np.txt) chained cycle executions"
done
if grep -qx phase <<<"$COMPS"; then
    run_rnd phase-nobreak-3 3 40 64 --mca redist phase --mca redist_phase_break_cycles 0
    run_rnd phase-nobreak-5 5 30 32 --mca redist phase --mca redist_phase_break_cycles 0
fi
