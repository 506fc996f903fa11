#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# Cartesian communicators under grpmap (test/mpi/src/grpmap_cart.c): grids
# of 2, 3 and 4 dimensions from MPI_Dims_create on 2 to 8 ranks, every
# MPI_Cart_sub keep-mask and the same sub-grid by MPI_Comm_split, checked
# rank by rank (members' world ranks, their own view, a sum), with every
# group offered to the lattice form alone, to the hybrid strategy (which
# takes the lattice whenever it holds the map: grpmap_base_prefer_lattice;
# the pvar says the sub-grids are lattices), to the hybrid weighing the
# lattice like any form (prefer_lattice 0), and with stock settings
# (dense groups).
. "$TEST_LIB"
needs ompi/mca/grpmap
build_mpi "$TOP/test/mpi/src/grpmap_cart.c" cart
for np in 2 3 4 6 8; do
    for how in lattice hybrid weighed stock; do
        case $how in
            lattice) args=(--mca grpmap lattice --mca grpmap_base_min_size 0 ./cart expect-lattice) ;;
            hybrid) args=(--mca grpmap_base_min_size 0 ./cart expect-lattice) ;;
            weighed) args=(--mca grpmap_base_min_size 0 --mca grpmap_base_prefer_lattice 0 ./cart) ;;
            stock) args=(./cart) ;;
        esac
        run_to 120 "$how-$np.txt" -np $np "${args[@]}" || { tail -20 "$how-$np.txt"; fail "grpmap_cart $how on $np ranks"; }
        assert_grep "^grpmap_cart np $np: [0-9]+ sub-communicators checked: OK" "$how-$np.txt" "grpmap_cart $how on $np ranks"
    done
done
# translation caches on every map (bitmap forced: its lookups are dear
# enough to get one): the second translation of each sub-grid hits
for c in linear setassoc; do
    run_to 120 "cache-$c.txt" -np 6 --mca grpmap bitmap --mca grpmap_base_min_size 0 \
        --mca grpmap_base_cache $c --mca grpmap_base_cache_min_size 0 ./cart expect-cache-hits ||
        { tail -20 "cache-$c.txt"; fail "grpmap_cart with the $c cache"; }
    assert_grep '^grpmap_cart: [1-9][0-9]* cache hits' "cache-$c.txt" "no hit in the $c cache"
    assert_grep '^grpmap_cart np 6: [0-9]+ sub-communicators checked: OK' "cache-$c.txt" "grpmap_cart with the $c cache"
done
echo "grpmap-cart: OK"
