#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# MPI_Dist_graph_create with nonblocking collectives pending on the same
# communicator (config/patches/<series>/0025-topo-static-tags.patch):
# test/mpi/src/topo_tags.c, 4 ranks, 100 duplicates of MPI_COMM_WORLD x 30
# graphs each (reorder on every other one: treematch's exchange), each
# creation with 4 MPI_Iallreduce pending across it, over shared memory and
# over TCP; every sum and every edge must be right and no run may hang.
# Without the patch the topo framework's fixed tags meet the collectives'
# messages (open-mpi/ompi#13918); by hand, without it: 3 of 3 runs on
# 5.0.7 (10 duplicates each) hung, one after MPI_ERR_TRUNCATE; on 4.1.4 one
# of 2 runs over vader (100 duplicates) and 1 of 1 over TCP (50) did.  Each
# transport runs with the stock choices (topo, comm_store, CID policy), as
# a user's program meets them, and with comm_store rbtree and the highest
# CID policy, under which MPICH's topo/distgraph1 first showed the stall.
. "$TEST_LIB"
needs patch:0025
build_mpi "$TOP/test/mpi/src/topo_tags.c" tt
stores=default; have ompi/mca/comm_store && stores="default rbtree"
for btl in $SHM_BTL,self tcp,self; do
    extra=(); [ "$btl" = tcp,self ] && extra=(--mca btl_tcp_if_include lo)
    for store in $stores; do
        cs=(); [ $store = rbtree ] && cs=(--mca comm_store rbtree --mca comm_store_base_cid_policy highest)
        name="${btl%%,*}-$store"
        run_to 240 "$name.txt" -np 4 --mca btl $btl "${extra[@]}" "${cs[@]}" ./tt 100 30 ||
            { tail -20 "$name.txt"; fail "topo_tags $name"; }
        assert_grep '^topo_tags: 3000 graphs created with 4 collectives pending, 0 errors' "$name.txt" \
            "topo_tags $name: a graph or a sum was wrong"
        note "$name: $(grep '^topo_tags' "$name.txt")"
    done
done
