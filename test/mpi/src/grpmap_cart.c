/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Cartesian communicators under grpmap (issue 19): for 2, 3 and 4
 * dimensions from MPI_Dims_create, MPI_Cart_create and every MPI_Cart_sub
 * keep-mask, and the same sub-grids made by MPI_Comm_split.  Checked rank
 * by rank on every process: the sub-communicator's size, each member's
 * world rank (MPI_Group_translate_ranks) against the one its coordinates
 * give, the members' own view (an allgather of world ranks), and a sum
 * over the sub-grid.  With "expect-lattice", the sub-grids of two or more
 * members are held as lattices (pvar grpmap_base_groups_lattice counts
 * them while they live).  With "expect-cache-hits", the translation caches
 * answered some lookup (pvar grpmap_base_cache_hits, summed over ranks).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mpi_pvar.h"

static int rank, size, lattice_idx = -1;

static unsigned long long lattice_groups(void)
{
    unsigned long long v = 0;
    if (lattice_idx >= 0) {
        test_pvar_read_once(lattice_idx, &v);
    }
    return v;
}

/* world rank of the process at coords in a grid of dims (row-major, as
 * MPI_Cart_create without reordering numbers them) */
static int world_of(int nd, const int *dims, const int *coords)
{
    int r = 0;
    for (int d = 0; d < nd; d++) {
        r = r * dims[d] + coords[d];
    }
    return r;
}

static void check_sub(MPI_Comm sub, int nd, const int *dims, const int *keep, const int *mine,
                      const char *how, int expect_lattice, unsigned long long lattices_before)
{
    int n = 1, sn, *wr, *all, *idx;
    MPI_Group g, wg;
    for (int d = 0; d < nd; d++) {
        n *= keep[d] ? dims[d] : 1;
    }
    MPI_Comm_size(sub, &sn);
    CHECK(sn == n, "%s: %d members, expected %d", how, sn, n);
    wr = xmalloc(sizeof(int) * n);
    all = xmalloc(sizeof(int) * n);
    idx = xmalloc(sizeof(int) * n);
    /* expected members: sub rank i is the i-th in row-major order of the
     * kept dimensions, the others at this process's coordinates */
    for (int i = 0; i < n; i++) {
        int c[4], rest = i;
        for (int d = nd - 1; d >= 0; d--) {
            if (keep[d]) {
                c[d] = rest % dims[d];
                rest /= dims[d];
            } else {
                c[d] = mine[d];
            }
        }
        wr[i] = world_of(nd, dims, c);
        idx[i] = i;
    }
    MPI_Comm_group(sub, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    /* twice: the second translation is answered by a translation cache
     * when the map has one */
    for (int pass = 0; pass < 2; pass++) {
        MPI_Group_translate_ranks(g, n, idx, wg, all);
        for (int i = 0; i < n; i++) {
            CHECK(all[i] == wr[i], "%s: member %d is world rank %d, expected %d (pass %d)", how,
                  i, all[i], wr[i], pass);
        }
    }
    MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, sub);
    for (int i = 0; i < n; i++) {
        CHECK(all[i] == wr[i], "%s: member %d says world rank %d, expected %d", how, i, all[i],
              wr[i]);
    }
    {
        long long s = rank, t, e = 0;
        MPI_Allreduce(&s, &t, 1, MPI_LONG_LONG, MPI_SUM, sub);
        for (int i = 0; i < n; i++) {
            e += wr[i];
        }
        CHECK(t == e, "%s: sum %lld, expected %lld", how, t, e);
    }
    /* this communicator's group is one more lattice than before it was
     * made (the group handle g above is the same group, not a new one) */
    if (expect_lattice && n >= 2) {
        CHECK(lattice_groups() > lattices_before, "%s: its group is not held as a lattice", how);
    }
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    free(wr);
    free(all);
    free(idx);
}

int main(int argc, char **argv)
{
    int expect = argc > 1 && 0 == strcmp(argv[1], "expect-lattice"), provided, subs = 0;
    int expect_hits = argc > 1 && 0 == strcmp(argv[1], "expect-cache-hits");
    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    lattice_idx = test_pvar_index("grpmap_base_groups_lattice", NULL, NULL);
    /* a counter's handle counts from its allocation: allocate it first */
    MPI_T_pvar_session hs;
    MPI_T_pvar_handle hh;
    if (expect_hits) {
        int idx = test_pvar_index("grpmap_base_cache_hits", NULL, NULL), count;
        CHECK(idx >= 0, "no pvar grpmap_base_cache_hits");
        MPI_T_pvar_session_create(&hs);
        MPI_T_pvar_handle_alloc(hs, idx, NULL, &hh, &count);
    }
    CHECK(!expect || lattice_idx >= 0, "no pvar grpmap_base_groups_lattice");

    for (int nd = 2; nd <= 4; nd++) {
        int dims[4] = {0, 0, 0, 0}, periods[4] = {0, 0, 0, 0}, coords[4];
        MPI_Comm cart;
        MPI_Dims_create(size, nd, dims);
        MPI_Cart_create(MPI_COMM_WORLD, nd, dims, periods, 0, &cart);
        MPI_Cart_coords(cart, rank, nd, coords);
        CHECK(world_of(nd, dims, coords) == rank, "cart %dD: coordinates of %d", nd, rank);
        for (int mask = 0; mask < (1 << nd); mask++) {
            int keep[4], color = 0;
            char how[64];
            MPI_Comm sub, split;
            for (int d = 0; d < nd; d++) {
                keep[d] = (mask >> d) & 1;
            }
            unsigned long long before = lattice_groups();
            MPI_Cart_sub(cart, keep, &sub);
            snprintf(how, sizeof(how), "%dD cart_sub mask %d", nd, mask);
            check_sub(sub, nd, dims, keep, coords, how, expect, before);
            MPI_Comm_free(&sub);
            /* the same sub-grid by MPI_Comm_split: colour from the dropped
             * coordinates, key the world rank (row-major order kept) */
            for (int d = 0; d < nd; d++) {
                color = color * dims[d] + (keep[d] ? 0 : coords[d]);
            }
            before = lattice_groups();
            MPI_Comm_split(MPI_COMM_WORLD, color, rank, &split);
            snprintf(how, sizeof(how), "%dD split mask %d", nd, mask);
            check_sub(split, nd, dims, keep, coords, how, expect, before);
            MPI_Comm_free(&split);
            subs += 2;
        }
        MPI_Comm_free(&cart);
    }
    if (expect_hits) {
        /* the second translation of each sub-grid went through its
         * map's cache: some lookup hit */
        unsigned long long hits = 0, all;
        MPI_T_pvar_read(hs, hh, &hits);
        MPI_T_pvar_handle_free(hs, &hh);
        MPI_T_pvar_session_free(&hs);
        MPI_Allreduce(&hits, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        CHECK(all > 0, "no translation cache hit on any process");
        if (0 == rank) {
            printf("grpmap_cart: %llu cache hits\n", all);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        printf("grpmap_cart np %d: %d sub-communicators checked: OK\n", size, subs);
    }
    MPI_T_finalize();
    MPI_Finalize();
    return 0;
}
