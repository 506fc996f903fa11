#!/usr/bin/env bash
# Groups and communicators held by each grpmap form behave as on stock Open
# MPI: with --mca grpmap_base_min_size 0, every form forced alone and each
# strategy, 1 to 8 ranks: incl/excl/range_incl/range_excl (negative
# strides), union/intersection/difference, translate_ranks both ways
# (MPI_PROC_NULL, non-members), compare, create, split (reversed and random
# keys), dup, Cartesian grids of 2-4 dimensions and every MPI_Cart_sub, each
# new communicator passing messages that name their sender
# (test/mpi/src/grpmap_groups.c).  A forced form must really hold the maps
# (MPI_T grpmap_base_groups > 0), bwt excepted: on 8 ranks it gains nothing
# and declines, and the group falls back to the dense table.  The verbose
# stream names each pick; the site parameter file reaches the strategy; a
# group with spawned processes (another job) stays dense; bad values stop
# MPI_Init with a message naming the variable.
. "$TEST_LIB"
needs ompi/mca/grpmap
build_mpi "$TOP/test/mpi/src/grpmap_groups.c" groups
forms=$("$OMPI_INFO" --parsable | awk -F: '$1 == "mca" && $2 == "grpmap" && $3 != "base" {print $3}' | sort -u)
for f in lattice bitmap gap array wtr bwt; do
    grep -qx "$f" <<<"$forms" || fail "ompi_info lists no grpmap component $f (it lists: $(echo $forms))"
done
run() {   # run NAME NP [mpirun args...] -- program args
    local name=$1 np=$2; shift 2
    run_to 120 "$name-$np.txt" -np "$np" --mca grpmap_base_min_size 0 "$@" \
        || { tail -20 "$name-$np.txt"; fail "grpmap_groups failed: $name, $np ranks"; }
    assert_grep "^grpmap_groups np $np: OK" "$name-$np.txt" "$name, $np ranks"
}
for np in 1 2 3 5 8; do
    for f in $forms; do
        if [ "$f" = bwt ]; then
            run "$f" $np --mca grpmap $f ./groups
        elif [ "$f" = wtr ]; then
            run "$f" $np --mca grpmap wtr,gap ./groups expect-compressed
        else
            run "$f" $np --mca grpmap $f ./groups expect-compressed
        fi
    done
    for s in space time hybrid; do
        run "$s" $np --mca grpmap_base_strategy $s ./groups
    done
    echo "np $np: every form and strategy OK"
done
# the verbose stream names the pick of each group
run verbose 4 --mca grpmap lattice --mca grpmap_base_verbose 10 ./groups expect-compressed
assert_grep 'grpmap: group of 4 members: lattice, 44 bytes' verbose-4.txt "no verbose report of a lattice pick"
# a form that cannot hold a map falls back to the dense table, and says so
run fallback 4 --mca grpmap bwt --mca grpmap_base_verbose 10 ./groups
assert_grep 'grpmap: group of 4 stays dense' fallback-4.txt "bwt's decline was not reported"
# the site parameter file
conf=$PREFIX/etc/openmpi-mca-params.conf
cp "$conf" conf.orig
trap 'cp "$TEST_TMP/conf.orig" "$conf"' EXIT
printf 'grpmap_base_min_size = 0\ngrpmap = array\ngrpmap_base_verbose = 10\n' >>"$conf"
run_to 120 site.txt -np 3 ./groups expect-compressed || { tail -20 site.txt; fail "site file run failed"; }
assert_grep 'grpmap: group of 3 members: array' site.txt "site parameter file not honoured"
cp conf.orig "$conf"
# a group with another job's processes (spawn + merge) stays dense
build_mpi "$TOP/test/mpi/src/grpmap_spawn.c" spawn
# (TCP over IPv4 only: 5.0.7's TCP BTL cannot pair a spawned job's
# processes on a host with IPv6 addresses besides IPv4 and hangs, stock,
# open-mpi/ompi#14079)
run_to 120 spawn.txt -np 2 --mca btl_tcp_disable_family 6 --mca grpmap array --mca grpmap_base_min_size 0 ./spawn \
    || { tail -20 spawn.txt; fail "spawn test failed"; }
assert_grep '^grpmap_spawn: OK' spawn.txt "a merged group with spawned processes"
# translation caches on every compressed map (bitmap's SELECT is dear
# enough to get one): group operations as uncached, the cache's bytes
# reported
for c in linear setassoc; do
    for np in 5 8; do
        run "cache-$c" $np --mca grpmap bitmap --mca grpmap_base_cache $c \
            --mca grpmap_base_cache_min_size 0 --mca grpmap_base_verbose 10 ./groups expect-compressed
    done
done
assert_grep 'grpmap: group of [0-9]+ members: bitmap, [0-9]+ bytes, cache 161 bytes' cache-linear-8.txt \
    "no 16-entry linear cache reported"
assert_grep 'grpmap: group of [0-9]+ members: bitmap, [0-9]+ bytes, cache 8352 bytes' cache-setassoc-8.txt \
    "no set-associative cache reported"
run "cache-none" 5 --mca grpmap bitmap --mca grpmap_base_cache none \
    --mca grpmap_base_cache_min_size 0 --mca grpmap_base_verbose 10 ./groups expect-compressed
assert_grep 'grpmap: group of [0-9]+ members: bitmap, [0-9]+ bytes, cache 0 bytes' cache-none-5.txt \
    "grpmap_base_cache none still made a cache"
# bad values: MPI_Init fails with a message a user can act on
fails_saying 6 'grpmap_base_cache_entries: 0' bad-entries.txt mpirun_t -np 1 --mca grpmap_base_cache_entries 0 ./groups
fails_saying 6 'grpmap_base_alpha is 2' bad-alpha.txt mpirun_t -np 1 --mca grpmap_base_alpha 2 ./groups
fails_saying 6 'grpmap_base_min_size is -1' bad-min.txt mpirun_t -np 1 --mca grpmap_base_min_size -1 ./groups
echo "grpmap-groups: OK"
