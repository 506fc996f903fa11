/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * A communicator's info is made when it is first asked for
 * (config/patches/<series>/0030-comm-info-lazy.patch, issue 38): the
 * subscriptions ob1 and the communicator make at creation run their
 * callbacks then, and write their keys into the info only when
 * MPI_Comm_get_info or MPI_Comm_set_info makes it.  What a program sees
 * must not change.  A duplicate (MPI_Comm_dup, MPI_Comm_idup) made without
 * an info (the lazy path) is compared with one made with an empty info
 * (MPI_Comm_dup_with_info: the info exists from creation, and every
 * subscription writes its keys at once, as before the patch); a split and
 * a Cartesian sub-communicator, which no call makes with an info and the
 * same subscriptions, are compared with what stock Open MPI's
 * MPI_Comm_get_info gives for them (argv[1], "k1=v1;k2=v2;"):
 *  - MPI_Comm_get_info: the same keys, in the same order, with the same
 *    values;
 *  - after MPI_Comm_set_info(mpi_assert_no_any_source = true), the same
 *    again (for a duplicate, the same as one given that info at creation);
 *  - messages with named and wildcard receives on each.
 * Then the heap: rank 0 prints the bytes one duplicate of WORLD costs each
 * way ("bytes per dup lazy L eager E"); the script asks the lazy one to
 * be at least 300 bytes smaller (the info object and its entries).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heap_counter.h"
#include "check.h"

#define NH 64

static int rank, size;

/* "k1=v1;k2=v2;..." of comm's info, in its order */
static void info_string(MPI_Comm comm, char *out, size_t len)
{
    MPI_Info info;
    int n;
    out[0] = '\0';
    CHECK(MPI_SUCCESS == MPI_Comm_get_info(comm, &info), "MPI_Comm_get_info");
    MPI_Info_get_nkeys(info, &n);
    for (int i = 0; i < n; i++) {
        char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
        int vlen, flag;
        MPI_Info_get_nthkey(info, i, key);
        MPI_Info_get_valuelen(info, key, &vlen, &flag);
        CHECK(flag && vlen <= MPI_MAX_INFO_VAL, "key %s: no value", key);
        MPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, &flag);
        CHECK(strlen(out) + strlen(key) + strlen(val) + 3 < len, "info too long");
        strcat(out, key);
        strcat(out, "=");
        strcat(out, val);
        strcat(out, ";");
    }
    MPI_Info_free(&info);
}

static void ring(MPI_Comm comm, int salt)
{
    int r, n;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    for (int k = 0; k < 4; k++) {
        int out = salt * 1000 + r * 10 + k, in = -1;
        MPI_Status st;
        MPI_Request req;
        MPI_Isend(&out, 1, MPI_INT, (r + 1) % n, k, comm, &req);
        MPI_Recv(&in, 1, MPI_INT, (k & 1) ? MPI_ANY_SOURCE : (r + n - 1) % n, k, comm, &st);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        CHECK(in == salt * 1000 + ((r + n - 1) % n) * 10 + k, "ring %d round %d: got %d", salt, k, in);
    }
}

/* a communicator of the given kind, made with info (MPI_INFO_NULL: without) */
static MPI_Comm make(const char *kind, MPI_Info info)
{
    MPI_Comm c = MPI_COMM_NULL;
    if (0 == strcmp(kind, "dup")) {
        if (MPI_INFO_NULL == info) {
            MPI_Comm_dup(MPI_COMM_WORLD, &c);
        } else {
            MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &c);
        }
    } else if (0 == strcmp(kind, "idup")) {
        MPI_Request req;
        if (MPI_INFO_NULL == info) {
            MPI_Comm_idup(MPI_COMM_WORLD, &c, &req);
        } else {
#if MPI_VERSION >= 4 || (defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION >= 5)
            MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &c, &req);
#else
            MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &c);
            req = MPI_REQUEST_NULL;
#endif
        }
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else if (0 == strcmp(kind, "split")) {
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c);
    } else {
        int dims[2] = {0, 0}, periods[2] = {1, 1}, keep[2] = {1, 0};
        MPI_Comm cart;
        MPI_Dims_create(size, 2, dims);
        MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
        MPI_Cart_sub(cart, keep, &c);
        MPI_Comm_free(&cart);
    }
    return c;
}

/* s with "mpi_assert_no_any_source=false" made "=true" (what set_info does
 * to the value, in place) */
static void asserted(const char *s, char *out, size_t len)
{
    const char *k = "mpi_assert_no_any_source=", *p = strstr(s, k);
    CHECK(NULL != p && 0 == strncmp(p + strlen(k), "false;", 6), "no %sfalse in [%s]", k, s);
    snprintf(out, len, "%.*strue;%s", (int) (p + strlen(k) - s), s, p + strlen(k) + 6);
}

int main(int argc, char **argv)
{
    static const char *kinds[] = {"dup", "idup", "split", "cartsub"};
    char a[4096], b[4096], want[4096];
    MPI_Info empty, assert_info;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(2 == argc, "usage: comm_info_lazy SPLIT-INFO (stock's MPI_Comm_get_info of a split, k=v;...)");
    MPI_Info_create(&empty);
    MPI_Info_create(&assert_info);
    MPI_Info_set(assert_info, "mpi_assert_no_any_source", "true");

    for (int k = 0; k < 4; k++) {
        int dup = k < 2;
        MPI_Comm lazy = make(kinds[k], MPI_INFO_NULL), eager = MPI_COMM_NULL;
        ring(lazy, 1);
        info_string(lazy, a, sizeof a);
        if (dup) {
            eager = make(kinds[k], empty);
            ring(eager, 2);
            info_string(eager, b, sizeof b);
        } else {
            snprintf(b, sizeof b, "%s", argv[1]);
        }
        CHECK(0 == strcmp(a, b), "%s: MPI_Comm_get_info without an info at creation gives\n  [%s]\n"
              "expected (%s)\n  [%s]", kinds[k], a, dup ? "with an empty one" : "stock's", b);
        if (0 == rank && (0 == k || 2 == k)) {
            printf("comm_info_lazy: a %s's info: [%s]\n", kinds[k], a);
        }
        /* set_info on a communicator whose info was never asked for: a
         * fresh one, so that set_info is what makes its info */
        asserted(b, want, sizeof want);
        MPI_Comm_free(&lazy);
        lazy = make(kinds[k], MPI_INFO_NULL);
        ring(lazy, 3);
        MPI_Comm_set_info(lazy, assert_info);
        info_string(lazy, a, sizeof a);
        CHECK(0 == strcmp(a, want), "%s: after MPI_Comm_set_info, without an info at creation\n  [%s]\n"
              "expected\n  [%s]", kinds[k], a, want);
        if (dup) {
            MPI_Comm given;
            MPI_Comm_set_info(eager, assert_info);
            info_string(eager, b, sizeof b);
            CHECK(0 == strcmp(a, b), "%s: after MPI_Comm_set_info, without an info at creation\n  [%s]\n"
                  "with an empty one\n  [%s]", kinds[k], a, b);
            given = make(kinds[k], assert_info);
            info_string(given, b, sizeof b);
            CHECK(0 == strcmp(a, b), "%s: set_info after creation gives\n  [%s]\ngiven at creation\n  [%s]",
                  kinds[k], a, b);
            MPI_Comm_free(&given);
            MPI_Comm_free(&eager);
        }
        /* named receives only from here on: the assertion holds */
        for (int r = 0; r < 4; r++) {
            int n, me, out, in = -1;
            MPI_Comm_size(lazy, &n);
            MPI_Comm_rank(lazy, &me);
            out = me * 7 + r;
            MPI_Sendrecv(&out, 1, MPI_INT, (me + 1) % n, r, &in, 1, MPI_INT, (me + n - 1) % n, r, lazy,
                         MPI_STATUS_IGNORE);
            CHECK(in == ((me + n - 1) % n) * 7 + r, "%s: after set_info, got %d", kinds[k], in);
        }
        MPI_Comm_free(&lazy);
    }

    /* the heap one duplicate of WORLD costs, both ways (made and kept,
     * never asked for its info) */
    {
        MPI_Comm c[NH];
        long long h0, lazy_per, eager_per;
        MPI_Barrier(MPI_COMM_WORLD);
        h0 = heap_cur;
        for (int i = 0; i < NH; i++) {
            MPI_Comm_dup(MPI_COMM_WORLD, &c[i]);
        }
        lazy_per = (heap_cur - h0) / NH;
        for (int i = 0; i < NH; i++) {
            MPI_Comm_free(&c[i]);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        h0 = heap_cur;
        for (int i = 0; i < NH; i++) {
            MPI_Comm_dup_with_info(MPI_COMM_WORLD, empty, &c[i]);
        }
        eager_per = (heap_cur - h0) / NH;
        for (int i = 0; i < NH; i++) {
            MPI_Comm_free(&c[i]);
        }
        if (0 == rank) {
            printf("comm_info_lazy: bytes per dup lazy %lld eager %lld\n", lazy_per, eager_per);
        }
    }

    MPI_Info_free(&empty);
    MPI_Info_free(&assert_info);
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        printf("comm_info_lazy: %d ranks: ok\n", size);
    }
    MPI_Finalize();
    return 0;
}
