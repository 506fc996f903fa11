/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * coll/tuned's dynamic-rules state on a communicator
 * (config/patches/<series>/0027-coll-tuned-dynamic-state.patch, issue 38:
 * the forced-algorithm and rule arrays, 616 bytes of every communicator's
 * tuned module, are allocated only when coll_tuned_use_dynamic_rules is
 * set).  Run it with and without dynamic rules (forced algorithms, a rules
 * file): every collective below must give the right result on several
 * duplicates of WORLD and of a split, and rank 0 prints the heap one
 * duplicate that has carried an allreduce costs ("bytes per used dup"),
 * which the script compares between the two settings.
 * Prints "coll_tuned_dyn: N ranks: ok" on rank 0; any failure exits 1.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heap_counter.h"

static int rank, errs;

#define CHECK_FAIL(...) (fprintf(stderr, "coll_tuned_dyn FAIL rank %d line %d: ", rank, __LINE__), \
                         fprintf(stderr, __VA_ARGS__), fputc('\n', stderr), errs++)
#include "check.h"

/* Every blocking collective tuned decides, on comm c of n ranks. */
static void collectives(MPI_Comm c, const char *what)
{
    int n, me, i, v, sum = 0;
    MPI_Comm_size(c, &n);
    MPI_Comm_rank(c, &me);
    int *a = malloc(sizeof(int) * 64 * n), *b = malloc(sizeof(int) * 64 * n);
    int *cnt = malloc(sizeof(int) * n), *dsp = malloc(sizeof(int) * n);
    for (i = 0; i < n; i++) {
        sum += i + 1;
        cnt[i] = 64;
        dsp[i] = 64 * i;
    }
    for (int len = 1; len <= 64; len *= 64) { /* 1 element, and 64 */
        for (i = 0; i < len; i++) a[i] = me + 1;
        MPI_Allreduce(a, b, len, MPI_INT, MPI_SUM, c);
        CHECK(b[len - 1] == sum, "%s: allreduce(%d) %d, expected %d", what, len, b[len - 1], sum);
        MPI_Reduce(a, b, len, MPI_INT, MPI_SUM, n - 1, c);
        CHECK(me != n - 1 || b[len - 1] == sum, "%s: reduce(%d) %d", what, len, b[len - 1]);
        for (i = 0; i < len; i++) b[i] = me == 0 ? 7 : -1;
        MPI_Bcast(b, len, MPI_INT, 0, c);
        CHECK(b[len - 1] == 7, "%s: bcast(%d) %d", what, len, b[len - 1]);
        MPI_Allgather(a, len, MPI_INT, b, len, MPI_INT, c);
        CHECK(b[len * (n - 1)] == n, "%s: allgather(%d) %d", what, len, b[len * (n - 1)]);
        for (i = 0; i < len * n; i++) a[i] = me * 1000 + i / len;
        MPI_Alltoall(a, len, MPI_INT, b, len, MPI_INT, c);
        v = 1;
        for (i = 0; i < n; i++) v &= b[i * len] == i * 1000 + me;
        CHECK(v, "%s: alltoall(%d)", what, len);
        MPI_Gather(a, len, MPI_INT, b, len, MPI_INT, 0, c);
        CHECK(me != 0 || b[len * (n - 1)] == (n - 1) * 1000, "%s: gather(%d)", what, len);
        MPI_Scatter(a, len, MPI_INT, b, len, MPI_INT, 0, c);
        CHECK(b[0] == me, "%s: scatter(%d) %d", what, len, b[0]);
    }
    for (i = 0; i < 64 * n; i++) a[i] = 1;
    MPI_Reduce_scatter(a, b, cnt, MPI_INT, MPI_SUM, c);
    CHECK(b[63] == n, "%s: reduce_scatter %d", what, b[63]);
    MPI_Reduce_scatter_block(a, b, 64, MPI_INT, MPI_SUM, c);
    CHECK(b[0] == n, "%s: reduce_scatter_block %d", what, b[0]);
    MPI_Allgatherv(a, 64, MPI_INT, b, cnt, dsp, MPI_INT, c);
    CHECK(b[64 * n - 1] == 1, "%s: allgatherv", what);
    MPI_Alltoallv(a, cnt, dsp, MPI_INT, b, cnt, dsp, MPI_INT, c);
    CHECK(b[64 * n - 1] == 1, "%s: alltoallv", what);
    v = me + 1;
    MPI_Scan(&v, &i, 1, MPI_INT, MPI_SUM, c);
    CHECK(i == (me + 1) * (me + 2) / 2, "%s: scan %d", what, i);
    i = -5;
    MPI_Exscan(&v, &i, 1, MPI_INT, MPI_SUM, c);
    CHECK(me == 0 || i == me * (me + 1) / 2, "%s: exscan %d", what, i);
    MPI_Barrier(c);
    free(a);
    free(b);
    free(cnt);
    free(dsp);
}

int main(int argc, char **argv)
{
    enum { NH = 40 };
    MPI_Comm d[NH], s;
    int np, one = 1, r;
    long long h0, per, per_max;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);

    collectives(MPI_COMM_WORLD, "WORLD");
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &s);
    collectives(s, "split");

    /* heap of a duplicate that has carried one allreduce (one first: its
     * one-time allocations are not counted) */
    MPI_Comm_dup(MPI_COMM_WORLD, &d[0]);
    MPI_Allreduce(MPI_IN_PLACE, &one, 1, MPI_INT, MPI_SUM, d[0]);
    MPI_Comm_free(&d[0]);
    h0 = heap_cur;
    for (int i = 0; i < NH; i++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &d[i]);
        r = 1;
        MPI_Allreduce(MPI_IN_PLACE, &r, 1, MPI_INT, MPI_SUM, d[i]);
        CHECK(r == np, "dup %d: allreduce %d", i, r);
    }
    per = (heap_cur - h0) / NH;
    MPI_Allreduce(&per, &per_max, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("coll_tuned_dyn: bytes per used dup %lld\n", per_max);
    }
    for (int i = 0; i < NH; i += 8) {
        collectives(d[i], "dup");
    }
    for (int i = 0; i < NH; i++) {
        MPI_Comm_free(&d[i]);
    }
    MPI_Comm_free(&s);

    MPI_Allreduce(MPI_IN_PLACE, &errs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (0 == rank && 0 == errs) {
        printf("coll_tuned_dyn: %d ranks: ok\n", np);
    }
    MPI_Finalize();
    return errs ? 1 : 0;
}
