/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Collective selection at a communicator's first collective
 * (config/patches/<series>/0028-coll-lazy-select.patch, issue 38:
 * coll_base_lazy_select).  Rank 0 prints the heap one duplicate of WORLD
 * costs once it has carried one message round a ring and no collective
 * ("bytes per p2p dup"), which the script compares between
 * coll_base_lazy_select true and false.  Then every way a communicator
 * can meet its first collective must behave as with selection at
 * creation: each blocking collective first; a nonblocking one first while
 * the other member is still in a synchronous send to this one (the first
 * call must not wait for the other members); neighbourhood collectives
 * first on a Cartesian communicator and on one made by MPI_Cart_sub; an
 * intercommunicator's first collective, and a duplicate of a never-used
 * intercommunicator; MPI_Comm_idup of a never-used communicator;
 * communicators freed unused; and under MPI_THREAD_MULTIPLE, threads
 * making the first collective on their own communicators at once.
 * Staged selection (the first collective releases the modules of basic
 * and libnbc that it does not call; the first call of one of their
 * collectives makes them again): rank 0 also prints the heap of a
 * duplicate that carried a ring and one MPI_Allreduce ("bytes per coll
 * dup"), and each collective that only basic or libnbc provides is
 * called second, after an MPI_Allreduce: the ones basic wins over tuned
 * (alltoallw, exscan, gatherv, scan, scatterv), a nonblocking one while
 * the other member is in a synchronous send to this one, a persistent
 * one, a neighbourhood one on a Cartesian communicator, and MPI_Comm_idup
 * (its agreement is a nonblocking allreduce on the parent).
 * Prints "coll_lazy: N ranks: ok" on rank 0; any failure exits 1.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heap_counter.h"
#include <mpi-ext.h>
/* persistent collectives: MPI_*_init from Open MPI 5.0, MPIX_*_init (the
 * pcollreq extension) in 4.1 */
#if OMPI_MAJOR_VERSION < 5
#ifndef OMPI_HAVE_MPI_EXT_PCOLLREQ
#error "Open MPI 4.1 without the pcollreq extension (MPIX_Allreduce_init)"
#endif
#define MPI_Allreduce_init MPIX_Allreduce_init
#endif

static int rank, np, errs;

#define CHECK_FAIL(...) (fprintf(stderr, "coll_lazy FAIL rank %d line %d: ", rank, __LINE__), \
                         fprintf(stderr, __VA_ARGS__), fputc('\n', stderr), errs++)
#include "check.h"

static void ring(MPI_Comm c)
{
    int n, me, in = -1;
    MPI_Comm_size(c, &n);
    MPI_Comm_rank(c, &me);
    MPI_Sendrecv(&me, 1, MPI_INT, (me + 1) % n, 5, &in, 1, MPI_INT, (me + n - 1) % n, 5, c,
                 MPI_STATUS_IGNORE);
    CHECK(in == (me + n - 1) % n, "ring: got %d", in);
}

/* Each blocking collective as the first collective of a fresh duplicate. */
static void first_blocking(void)
{
    int sum = np * (np + 1) / 2, v = rank + 1, r, i;
    int *a = malloc(sizeof(int) * np), *b = malloc(sizeof(int) * np);
    int *cnt = malloc(sizeof(int) * np), *dsp = malloc(sizeof(int) * np);
    for (i = 0; i < np; i++) {
        a[i] = rank * 100 + i;
        cnt[i] = 1;
        dsp[i] = i;
    }
    for (int k = 0; k < 15; k++) {
        MPI_Comm c;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        memset(b, 0xff, sizeof(int) * np);
        r = -1;
        switch (k) {
        case 0: MPI_Barrier(c); break;
        case 1: r = rank == 0 ? 42 : 0; MPI_Bcast(&r, 1, MPI_INT, 0, c);
            CHECK(r == 42, "first bcast %d", r); break;
        case 2: MPI_Allreduce(&v, &r, 1, MPI_INT, MPI_SUM, c);
            CHECK(r == sum, "first allreduce %d", r); break;
        case 3: MPI_Reduce(&v, &r, 1, MPI_INT, MPI_SUM, np - 1, c);
            CHECK(rank != np - 1 || r == sum, "first reduce %d", r); break;
        case 4: MPI_Allgather(&v, 1, MPI_INT, b, 1, MPI_INT, c);
            CHECK(b[np - 1] == np, "first allgather %d", b[np - 1]); break;
        case 5: MPI_Allgatherv(&v, 1, MPI_INT, b, cnt, dsp, MPI_INT, c);
            CHECK(b[np - 1] == np, "first allgatherv %d", b[np - 1]); break;
        case 6: MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_INT, c);
            CHECK(b[np - 1] == (np - 1) * 100 + rank, "first alltoall %d", b[np - 1]); break;
        case 7: MPI_Alltoallv(a, cnt, dsp, MPI_INT, b, cnt, dsp, MPI_INT, c);
            CHECK(b[0] == rank, "first alltoallv %d", b[0]); break;
        case 8: MPI_Gather(&v, 1, MPI_INT, b, 1, MPI_INT, 0, c);
            CHECK(rank != 0 || b[np - 1] == np, "first gather %d", b[np - 1]); break;
        case 9: MPI_Scatter(a, 1, MPI_INT, &r, 1, MPI_INT, 0, c);
            CHECK(r == rank, "first scatter %d", r); break;
        case 10: MPI_Scan(&v, &r, 1, MPI_INT, MPI_SUM, c);
            CHECK(r == (rank + 1) * (rank + 2) / 2, "first scan %d", r); break;
        case 11: MPI_Exscan(&v, &r, 1, MPI_INT, MPI_SUM, c);
            CHECK(rank == 0 || r == rank * (rank + 1) / 2, "first exscan %d", r); break;
        case 12: for (i = 0; i < np; i++) a[i] = 1;
            MPI_Reduce_scatter_block(a, &r, 1, MPI_INT, MPI_SUM, c);
            CHECK(r == np, "first reduce_scatter_block %d", r); break;
        case 13: MPI_Reduce_scatter(a, &r, cnt, MPI_INT, MPI_SUM, c);
            CHECK(r == np, "first reduce_scatter %d", r); break;
        case 14: { MPI_Request q;
            MPI_Iallreduce(&v, &r, 1, MPI_INT, MPI_SUM, c, &q);
            MPI_Wait(&q, MPI_STATUS_IGNORE);
            CHECK(r == sum, "first iallreduce %d", r); } break;
        }
        /* and the communicator goes on working after its first one */
        r = 1;
        MPI_Allreduce(MPI_IN_PLACE, &r, 1, MPI_INT, MPI_SUM, c);
        CHECK(r == np, "case %d: allreduce after the first collective %d", k, r);
        MPI_Comm_free(&c);
    }
    free(a);
    free(b);
    free(cnt);
    free(dsp);
}

/* A nonblocking collective first, while rank 1 is in MPI_Ssend to rank 0:
 * rank 0's MPI_Ibarrier must return before rank 1 joins, or rank 0 never
 * posts the receive that rank 1's synchronous send waits for. */
static void first_nonblocking(void)
{
    MPI_Comm c;
    MPI_Request q;
    int x = 7;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    if (0 == rank) {
        MPI_Ibarrier(c, &q);
        MPI_Recv(&x, 1, MPI_INT, 1, 3, c, MPI_STATUS_IGNORE);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        CHECK(x == 11, "ibarrier first: received %d", x);
    } else {
        if (1 == rank) {
            x = 11;
            MPI_Ssend(&x, 1, MPI_INT, 0, 3, c);
        }
        MPI_Ibarrier(c, &q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    }
    MPI_Comm_free(&c);
}

static void first_neighbor(void)
{
    int dims[2] = {0, 0}, periods[2] = {1, 1}, keep[2] = {1, 0}, n, me, i;
    MPI_Comm cart, sub;
    int in[4], out = rank;

    MPI_Dims_create(np, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Neighbor_allgather(&out, 1, MPI_INT, in, 1, MPI_INT, cart);
    for (i = 0; i < 2; i++) {
        int lo, hi;
        MPI_Cart_shift(cart, i, 1, &lo, &hi);
        CHECK(in[2 * i] == lo && in[2 * i + 1] == hi, "cart neighbor_allgather dim %d: %d %d, "
              "expected %d %d", i, in[2 * i], in[2 * i + 1], lo, hi);
    }
    MPI_Cart_sub(cart, keep, &sub);
    MPI_Comm_size(sub, &n);
    MPI_Comm_rank(sub, &me);
    {
        int snd[2] = {me * 10, me * 10 + 1}, rcv[2] = {-1, -1}, lo, hi;
        MPI_Neighbor_alltoall(snd, 1, MPI_INT, rcv, 1, MPI_INT, sub);
        MPI_Cart_shift(sub, 0, 1, &lo, &hi);
        CHECK(rcv[0] == lo * 10 + 1 && rcv[1] == hi * 10, "cart_sub neighbor_alltoall: %d %d "
              "(neighbours %d %d)", rcv[0], rcv[1], lo, hi);
    }
    MPI_Comm_free(&sub);
    MPI_Comm_free(&cart);
}

static void first_inter(void)
{
    MPI_Comm half, inter, inter2;
    int color = rank % 2, r, v = 1, rsize;

    if (np < 2) {
        return;
    }
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 9, &inter);
    MPI_Comm_remote_size(inter, &rsize);
    /* an intercommunicator's allreduce: the sum over the other group */
    MPI_Allreduce(&v, &r, 1, MPI_INT, MPI_SUM, inter);
    CHECK(r == rsize, "intercomm allreduce %d, expected %d", r, rsize);
    MPI_Comm_dup(inter, &inter2); /* agreement on the parent's collectives */
    MPI_Comm_free(&inter);
    MPI_Barrier(inter2);
    MPI_Comm_dup(inter2, &inter); /* a never-used intercommunicator's dup */
    MPI_Comm_free(&inter2);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
}

static void first_idup(void)
{
    MPI_Comm c, d;
    MPI_Request q;
    int r = 1;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_idup(c, &d, &q); /* c's first collective is the idup's agreement */
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_Allreduce(MPI_IN_PLACE, &r, 1, MPI_INT, MPI_SUM, d);
    CHECK(r == np, "after idup: allreduce %d", r);
    MPI_Comm_free(&c);
    MPI_Comm_free(&d);
}

/* After an MPI_Allreduce has selected (and released basic's and libnbc's
 * modules), each collective they provide, called second. */
static void second_released(void)
{
    int v = rank + 1, r, i, *a = malloc(sizeof(int) * np), *b = malloc(sizeof(int) * np);
    int *cnt = malloc(sizeof(int) * np), *dsp = malloc(sizeof(int) * np);
    MPI_Datatype *ty = malloc(sizeof(MPI_Datatype) * np);

    for (i = 0; i < np; i++) {
        cnt[i] = 1;
        dsp[i] = i * (int) sizeof(int);
        ty[i] = MPI_INT;
    }
    for (int k = 0; k < 9; k++) {
        MPI_Comm c;
        MPI_Request q;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        r = 1;
        MPI_Allreduce(MPI_IN_PLACE, &r, 1, MPI_INT, MPI_SUM, c);
        CHECK(r == np, "case %d: first allreduce %d", k, r);
        for (i = 0; i < np; i++) {
            a[i] = rank * 100 + i;
        }
        memset(b, 0xff, sizeof(int) * np);
        r = -1;
        switch (k) {
        case 0: MPI_Alltoallw(a, cnt, dsp, ty, b, cnt, dsp, ty, c);
            CHECK(b[np - 1] == (np - 1) * 100 + rank, "alltoallw second %d", b[np - 1]); break;
        case 1: MPI_Exscan(&v, &r, 1, MPI_INT, MPI_SUM, c);
            CHECK(rank == 0 || r == rank * (rank + 1) / 2, "exscan second %d", r); break;
        case 2: for (i = 0; i < np; i++) dsp[i] = i;
            MPI_Gatherv(&v, 1, MPI_INT, b, cnt, dsp, MPI_INT, 0, c);
            for (i = 0; i < np; i++) dsp[i] = i * (int) sizeof(int);
            CHECK(rank != 0 || b[np - 1] == np, "gatherv second %d", b[np - 1]); break;
        case 3: MPI_Scan(&v, &r, 1, MPI_INT, MPI_SUM, c);
            CHECK(r == (rank + 1) * (rank + 2) / 2, "scan second %d", r); break;
        case 4: for (i = 0; i < np; i++) dsp[i] = i;
            MPI_Scatterv(a, cnt, dsp, MPI_INT, &r, 1, MPI_INT, np - 1, c);
            for (i = 0; i < np; i++) dsp[i] = i * (int) sizeof(int);
            CHECK(r == (np - 1) * 100 + rank, "scatterv second %d", r); break;
        case 5: { /* the remake must not wait for the other members */
            int x = 7;
            if (0 == rank) {
                MPI_Iallreduce(&v, &r, 1, MPI_INT, MPI_SUM, c, &q);
                MPI_Recv(&x, 1, MPI_INT, 1, 3, c, MPI_STATUS_IGNORE);
                MPI_Wait(&q, MPI_STATUS_IGNORE);
                CHECK(x == 11, "iallreduce second: received %d", x);
            } else {
                if (1 == rank) {
                    x = 11;
                    MPI_Ssend(&x, 1, MPI_INT, 0, 3, c);
                }
                MPI_Iallreduce(&v, &r, 1, MPI_INT, MPI_SUM, c, &q);
                MPI_Wait(&q, MPI_STATUS_IGNORE);
            }
            CHECK(r == np * (np + 1) / 2, "iallreduce second %d", r); } break;
        case 6: for (int rep = 0; rep < 2; rep++) {
                MPI_Allreduce_init(&v, &r, 1, MPI_INT, MPI_SUM, c, MPI_INFO_NULL, &q);
                MPI_Start(&q);
                MPI_Wait(&q, MPI_STATUS_IGNORE);
                MPI_Request_free(&q);
                CHECK(r == np * (np + 1) / 2, "persistent allreduce second %d", r);
            } break;
        case 7: { int dims[1] = {np}, periods[1] = {1}, in[2] = {-1, -1}, lo, hi;
            MPI_Comm cart;
            MPI_Cart_create(c, 1, dims, periods, 0, &cart);
            MPI_Barrier(cart);
            MPI_Neighbor_allgather(&v, 1, MPI_INT, in, 1, MPI_INT, cart);
            MPI_Cart_shift(cart, 0, 1, &lo, &hi);
            CHECK(in[0] == lo + 1 && in[1] == hi + 1, "neighbor_allgather second: %d %d", in[0],
                  in[1]);
            MPI_Comm_free(&cart); } break;
        case 8: { MPI_Comm d;
            MPI_Comm_idup(c, &d, &q);
            MPI_Wait(&q, MPI_STATUS_IGNORE);
            r = 1;
            MPI_Allreduce(MPI_IN_PLACE, &r, 1, MPI_INT, MPI_SUM, d);
            CHECK(r == np, "allreduce on an idup of a used communicator %d", r);
            MPI_Comm_free(&d); } break;
        }
        /* both kinds go on working */
        r = 1;
        MPI_Allreduce(MPI_IN_PLACE, &r, 1, MPI_INT, MPI_SUM, c);
        CHECK(r == np, "case %d: allreduce third %d", k, r);
        MPI_Ibarrier(c, &q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        MPI_Exscan(&v, &r, 1, MPI_INT, MPI_SUM, c);
        CHECK(rank == 0 || r == rank * (rank + 1) / 2, "case %d: exscan last %d", k, r);
        MPI_Comm_free(&c);
    }
    free(a);
    free(b);
    free(cnt);
    free(dsp);
    free(ty);
}

enum { NT = 4 };
static MPI_Comm tcomm[NT];

static void *thread_first(void *arg)
{
    int t = (int) (long) arg, r = t + 1;
    MPI_Allreduce(MPI_IN_PLACE, &r, 1, MPI_INT, MPI_SUM, tcomm[t]);
    CHECK(r == np * (t + 1), "thread %d: allreduce %d", t, r);
    return NULL;
}

static void first_threads(int provided)
{
    pthread_t th[NT];
    if (provided < MPI_THREAD_MULTIPLE) {
        return;
    }
    for (int t = 0; t < NT; t++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &tcomm[t]);
    }
    for (int t = 0; t < NT; t++) {
        pthread_create(&th[t], NULL, thread_first, (void *) (long) t);
    }
    for (int t = 0; t < NT; t++) {
        pthread_join(th[t], NULL);
        MPI_Comm_free(&tcomm[t]);
    }
}

/* n duplicates of WORLD, each carrying one message round a ring (with
 * coll, and an MPI_Allreduce), kept in c; one made and freed first, so
 * that one-time allocations are not counted.  Rank 0 prints the heap
 * one costs, the largest over the ranks: "bytes per <what> dup B". */
static void dups_heap(MPI_Comm *c, int n, int coll, const char *what)
{
    long long h0 = heap_cur, per, per_max;
    for (int i = -1; i < n; i++) {
        MPI_Comm t;
        int r = 1;
        if (0 == i) {
            h0 = heap_cur;
        }
        MPI_Comm_dup(MPI_COMM_WORLD, &t);
        ring(t);
        if (coll) {
            MPI_Allreduce(MPI_IN_PLACE, &r, 1, MPI_INT, MPI_SUM, t);
            CHECK(r == np, "%s dup %d: allreduce %d", what, i, r);
        }
        if (i < 0) {
            MPI_Comm_free(&t);
        } else {
            c[i] = t;
        }
    }
    per = (heap_cur - h0) / n;
    MPI_Allreduce(&per, &per_max, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("coll_lazy: bytes per %s dup %lld\n", what, per_max);
    }
}

int main(int argc, char **argv)
{
    enum { NH = 40 };
    MPI_Comm d[NH], u;
    int provided;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);

    /* heap of a duplicate that has carried one message round a ring and no
     * collective, then of one that also called an MPI_Allreduce (the
     * collective modules it needs) */
    dups_heap(d, NH, 0, "p2p");
    {
        MPI_Comm e[NH];
        dups_heap(e, NH, 1, "coll");
        for (int i = 0; i < NH; i++) {
            MPI_Comm_free(&e[i]);
        }
    }
    /* they still do collectives (half of them), and are freed used or not */
    for (int i = 0; i < NH; i += 2) {
        int r = 1;
        MPI_Allreduce(MPI_IN_PLACE, &r, 1, MPI_INT, MPI_SUM, d[i]);
        CHECK(r == np, "p2p dup %d: allreduce %d", i, r);
    }
    for (int i = 0; i < NH; i++) {
        MPI_Comm_free(&d[i]);
    }
    /* made and freed without any use */
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &u);
    MPI_Comm_free(&u);

    first_blocking();
    first_nonblocking();
    first_neighbor();
    first_inter();
    first_idup();
    second_released();
    first_threads(provided);

    MPI_Allreduce(MPI_IN_PLACE, &errs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (0 == rank && 0 == errs) {
        printf("coll_lazy: %d ranks: ok (threads: %s)\n", np,
               provided >= MPI_THREAD_MULTIPLE ? "yes" : "no");
    }
    MPI_Finalize();
    return 0 != errs;
}
