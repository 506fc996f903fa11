/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Groups and communicators behave as on stock Open MPI whatever form
 * grpmap holds them in (run with --mca grpmap_base_min_size 0 and each
 * strategy or forced form): every group operation is checked against a
 * reference computed here from world ranks, every new communicator passes
 * messages whose contents name their sender, and MPI_T's grpmap_base_groups
 * tells whether maps were really compressed (argv[1] = "expect-compressed").
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails, me, np;

/* every rank reports its failures and goes on */
#define CHECK_FAIL(...)                                                                          \
    (printf("FAIL rank %d line %d: ", me, __LINE__), printf(__VA_ARGS__), printf("\n"), fails++)
#include "check.h"
#include "mpi_pvar.h"

static MPI_Group world_group;

/* world ranks of g's members, in group order */
static void members(MPI_Group g, int *out, int *n)
{
    int i, *idx;
    MPI_Group_size(g, n);
    idx = malloc(sizeof(int) * (size_t) (*n + 1));
    for (i = 0; i < *n; i++) {
        idx[i] = i;
    }
    MPI_Group_translate_ranks(g, *n, idx, world_group, out);
    free(idx);
}

static void expect_members(MPI_Group g, const int *want, int n, const char *what)
{
    int got[64], gn, i, r, wr;
    members(g, got, &gn);
    CHECK(gn == n, "%s: size %d, expected %d", what, gn, n);
    for (i = 0; i < n && i < gn; i++) {
        CHECK(got[i] == want[i], "%s: member %d is world %d, expected %d", what, i, got[i], want[i]);
    }
    /* translate back: world -> group, non-members undefined */
    for (wr = 0; wr < np; wr++) {
        int expect = MPI_UNDEFINED;
        for (i = 0; i < n; i++) {
            if (want[i] == wr) {
                expect = i;
            }
        }
        MPI_Group_translate_ranks(world_group, 1, &wr, g, &r);
        CHECK(r == expect, "%s: world %d -> %d, expected %d", what, wr, r, expect);
    }
    if (n > 0) {   /* stock 4.1.4 answers MPI_UNDEFINED for an empty group */
        int pn = MPI_PROC_NULL;
        MPI_Group_translate_ranks(g, 1, &pn, world_group, &r);
        CHECK(r == MPI_PROC_NULL, "%s: MPI_PROC_NULL -> %d", what, r);
    }
    MPI_Group_rank(g, &r);
    {
        int expect = MPI_UNDEFINED;
        for (i = 0; i < n; i++) {
            if (want[i] == me) {
                expect = i;
            }
        }
        CHECK(r == expect, "%s: my rank %d, expected %d", what, r, expect);
    }
}

/* every member sends its world rank around a ring and checks what comes */
static void exercise(MPI_Comm c, const char *what)
{
    int r, n, i, *all, want[64], wn, sum = 0, got;
    MPI_Group g;
    if (MPI_COMM_NULL == c) {
        return;
    }
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    MPI_Comm_group(c, &g);
    members(g, want, &wn);
    CHECK(wn == n && want[r] == me, "%s: rank %d is not me (world %d)", what, r, me);
    MPI_Sendrecv(&me, 1, MPI_INT, (r + 1) % n, 7, &got, 1, MPI_INT, (r + n - 1) % n, 7, c,
                 MPI_STATUS_IGNORE);
    CHECK(got == want[(r + n - 1) % n], "%s: ring got %d from rank %d, expected world %d", what,
          got, (r + n - 1) % n, want[(r + n - 1) % n]);
    all = malloc(sizeof(int) * (size_t) n);
    MPI_Allgather(&me, 1, MPI_INT, all, 1, MPI_INT, c);
    for (i = 0; i < n; i++) {
        CHECK(all[i] == want[i], "%s: allgather[%d] = %d, expected %d", what, i, all[i], want[i]);
        sum += want[i];
    }
    MPI_Allreduce(&me, &got, 1, MPI_INT, MPI_SUM, c);
    CHECK(got == sum, "%s: allreduce %d, expected %d", what, got, sum);
    free(all);
    MPI_Group_free(&g);
}

static unsigned long long pvar_ull(const char *name)
{
    unsigned long long v = 0;
    int idx = test_pvar_index(name, NULL, NULL);
    if (idx >= 0) {
        test_pvar_read_once(idx, &v);
    } else {
        CHECK(0, "no pvar %s", name);
    }
    return v;
}

int main(int argc, char **argv)
{
    int i, n, want[64], provided, expect_compressed = argc > 1 && 0 == strcmp(argv[1], "expect-compressed");
    unsigned long long compressed = 0, bytes, dense;
    MPI_Group g, g2, g3;
    MPI_Comm c;
    char what[128];

    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);

    /* incl: reversed, evens, every permutation shape */
    for (i = 0; i < np; i++) {
        want[i] = np - 1 - i;
    }
    MPI_Group_incl(world_group, np, want, &g);
    expect_members(g, want, np, "incl reversed");
    MPI_Comm_create(MPI_COMM_WORLD, g, &c);
    exercise(c, "create reversed");
    if (MPI_COMM_NULL != c) {
        MPI_Comm_free(&c);
    }
    /* a group of a group: reversed again is the identity */
    MPI_Group_incl(g, np, want, &g2);
    for (i = 0; i < np; i++) {
        want[i] = i;
    }
    expect_members(g2, want, np, "incl of incl");
    {
        int res;
        MPI_Group_compare(g2, world_group, &res);
        CHECK(MPI_IDENT == res, "compare identity: %d", res);
        MPI_Group_compare(g, world_group, &res);
        CHECK(np == 1 ? MPI_IDENT == res : MPI_SIMILAR == res, "compare reversed: %d", res);
    }
    MPI_Group_free(&g2);
    MPI_Group_free(&g);

    n = 0;
    for (i = 0; i < np; i += 2) {
        want[n++] = i;
    }
    MPI_Group_incl(world_group, n, want, &g);
    expect_members(g, want, n, "incl evens");
    /* excl of the evens = odds */
    {
        int odd[64] = {0}, no = 0, ex[64] = {0};
        for (i = 0; i < n; i++) {
            ex[i] = want[i];
        }
        for (i = 1; i < np; i += 2) {
            odd[no++] = i;
        }
        MPI_Group_excl(world_group, n, ex, &g2);
        expect_members(g2, odd, no, "excl evens");
        /* union, intersection, difference */
        MPI_Group_union(g2, g, &g3);
        {
            int u[64], un = 0;
            for (i = 0; i < no; i++) u[un++] = odd[i];
            for (i = 0; i < n; i++) u[un++] = want[i];
            expect_members(g3, u, un, "union odds evens");
        }
        MPI_Group_free(&g3);
        MPI_Group_intersection(g2, g, &g3);
        {
            int sz;
            MPI_Group_size(g3, &sz);
            CHECK(0 == sz, "odds and evens intersect in %d", sz);
            CHECK(MPI_GROUP_EMPTY == g3 || 0 == sz, "intersection not empty");
        }
        if (MPI_GROUP_EMPTY != g3) {
            MPI_Group_free(&g3);
        }
        MPI_Group_difference(world_group, g2, &g3);
        expect_members(g3, want, n, "world minus odds");
        MPI_Group_free(&g3);
        MPI_Group_free(&g2);
    }
    MPI_Group_free(&g);

    /* range_incl / range_excl with negative strides */
    {
        int ranges[1][3] = {{np - 1, 0, -2}}, k = 0;
        if (np == 1) {
            ranges[0][2] = 1;
        }
        for (i = np - 1; i >= 0; i -= 2) want[k++] = i;
        MPI_Group_range_incl(world_group, 1, ranges, &g);
        expect_members(g, want, k, "range_incl down by 2");
        MPI_Group_free(&g);
        if (np > 1) {
            int keep[64], kn = 0;
            MPI_Group_range_excl(world_group, 1, ranges, &g);
            for (i = 0; i < np; i++) {
                int ex = 0, j;
                for (j = 0; j < k; j++) ex |= want[j] == i;
                if (!ex) keep[kn++] = i;
            }
            expect_members(g, keep, kn, "range_excl down by 2");
            MPI_Group_free(&g);
        }
    }

    /* split: parity with reversed keys, a random key, everyone */
    for (i = 0; i < 3; i++) {
        int color = 0 == i ? me % 2 : 1 == i ? (me * 7 + 3) % 3 : 0;
        int key = 0 == i ? -me : 1 == i ? (me * 2654435761u) % 1000 : 0;
        int j, k = 0, keys[64], wk;
        MPI_Comm_split(MPI_COMM_WORLD, color, key, &c);
        /* reference: members of my color sorted by (key, world rank) */
        for (j = 0; j < np; j++) {
            int cj = 0 == i ? j % 2 : 1 == i ? (j * 7 + 3) % 3 : 0;
            int kj = 0 == i ? -j : 1 == i ? (int) ((j * 2654435761u) % 1000) : 0;
            if (cj == color) {
                int p = k++;
                while (p > 0 && (keys[p - 1] > kj || (keys[p - 1] == kj && want[p - 1] > j))) {
                    keys[p] = keys[p - 1];
                    want[p] = want[p - 1];
                    p--;
                }
                keys[p] = kj;
                want[p] = j;
            }
        }
        MPI_Comm_group(c, &g);
        snprintf(what, sizeof(what), "split %d", i);
        expect_members(g, want, k, what);
        MPI_Group_free(&g);
        exercise(c, what);
        /* dup shares the group; split of a split */
        {
            MPI_Comm d, s2;
            MPI_Comm_dup(c, &d);
            exercise(d, "dup of split");
            MPI_Comm_split(d, 0, 0, &s2);
            exercise(s2, "split of dup");
            MPI_Comm_free(&s2);
            MPI_Comm_free(&d);
        }
        (void) wk;
        MPI_Comm_free(&c);
    }

    /* Cartesian grids of 2, 3 and 4 dimensions and every sub-grid */
    for (n = 2; n <= 4; n++) {
        int dims[4] = {0, 0, 0, 0}, periods[4] = {1, 0, 1, 0}, mask;
        MPI_Comm cart;
        MPI_Dims_create(np, n, dims);
        MPI_Cart_create(MPI_COMM_WORLD, n, dims, periods, 0, &cart);
        exercise(cart, "cart");
        for (mask = 1; mask < (1 << n); mask++) {
            int remain[4], coords[4], d, k = 0, r;
            MPI_Comm sub;
            for (d = 0; d < n; d++) {
                remain[d] = (mask >> d) & 1;
            }
            MPI_Cart_sub(cart, remain, &sub);
            MPI_Comm_rank(cart, &r);
            MPI_Cart_coords(cart, r, n, coords);
            /* reference: cart ranks sharing my fixed coordinates, row-major
             * over the remaining ones; cart rank == world rank (reorder 0) */
            for (i = 0; i < np; i++) {
                int ci[4], same = 1;
                MPI_Cart_coords(cart, i, n, ci);
                for (d = 0; d < n; d++) {
                    if (!remain[d] && ci[d] != coords[d]) {
                        same = 0;
                    }
                }
                if (same) {
                    want[k++] = i;
                }
            }
            MPI_Comm_group(sub, &g);
            snprintf(what, sizeof(what), "cart_sub %dD mask %d", n, mask);
            expect_members(g, want, k, what);
            MPI_Group_free(&g);
            exercise(sub, what);
            MPI_Comm_free(&sub);
        }
        MPI_Comm_free(&cart);
    }

    /* MPI_T: how many maps were compressed while the program ran */
    compressed = pvar_ull("grpmap_base_groups");
    bytes = pvar_ull("grpmap_base_bytes");
    dense = pvar_ull("grpmap_base_dense_bytes");
    {
        /* keep one compressed group alive and look again */
        int ids[64];
        for (i = 0; i < np; i++) ids[i] = np - 1 - i;
        MPI_Group_incl(world_group, np, ids, &g);
        compressed = pvar_ull("grpmap_base_groups");
        bytes = pvar_ull("grpmap_base_bytes");
        dense = pvar_ull("grpmap_base_dense_bytes");
        if (expect_compressed) {
            CHECK(compressed >= 1, "no compressed group alive (grpmap_base_groups %llu)", compressed);
            CHECK(dense >= 8ull * (unsigned long long) np, "grpmap_base_dense_bytes %llu", dense);
            CHECK(bytes > 0, "grpmap_base_bytes %llu", bytes);
        }
        MPI_Group_free(&g);
    }
    MPI_Group_free(&world_group);
    MPI_Allreduce(MPI_IN_PLACE, &fails, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (0 == me) {
        printf("grpmap_groups np %d: %s (%d failures; live compressed groups %llu, %llu bytes for "
               "%llu dense)\n", np, fails ? "FAILED" : "OK", fails, compressed, bytes, dense);
    }
    MPI_T_finalize();
    MPI_Finalize();
    return fails ? 1 : 0;
}
