/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MPI point-to-point semantics that pml/zcomp must keep exactly (run with
 * 2 ranks, or 3 for ANY_SOURCE): counts seen by MPI_Get_count and by every
 * probe, non-overtaking (also a wildcard-tag receive after a tag-specific
 * probe), MPI_ANY_SOURCE, truncation, persistent requests, MPI_Cancel,
 * synchronous/buffered/ready sends, Sendrecv, different datatype layouts on
 * both sides, Request_free of an active send, collectives, and completion
 * to oneself as on stock.  Messages
 * are 90 % zeros (compressible) unless said otherwise, at sizes below the
 * threshold, inline (one message), one chunk and many chunks.
 *
 *   zcomp_semantics [test-name]    (default: all)
 * Prints "ok <test>" per test and "zcomp_semantics: N failed" at the end;
 * exits 1 on any failure.  Also prints pvar values: "pvar <name> <value>".
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failures;
static const char *only;
static const char *cur = "";   /* the test at hand */

/* every rank reports its failures (zcomp-semantics.sh: no ^FAIL) and goes on */
#define CHECK_FAIL(...)                                                                \
    (fprintf(stderr, "FAIL [rank %d] %s: ", rank, cur), fprintf(stderr, __VA_ARGS__),  \
     fprintf(stderr, "\n"), failures++)
#include "check.h"

/* Message data, zero_pct % zeros; its own xorshift, not test_rand: zcomp's
 * choices (compress or not, adaptive decisions), whose MPI_T counts the
 * scripts check, depend on the data. */
static void fill(int *a, size_t n, int seed, int zero_pct)
{
    uint32_t x = 2463534242u ^ (uint32_t) seed;
    size_t i;
    for (i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        a[i] = (int) (x % 100) < zero_pct ? 0 : (int) (x >> 1) + seed;
    }
}

static int check(const int *a, size_t n, int seed, int zero_pct)
{
    int *b = malloc(n * sizeof(int) + 1);
    size_t i;
    int bad = -1;
    fill(b, n, seed, zero_pct);
    for (i = 0; i < n; i++) {
        if (a[i] != b[i]) {
            bad = (int) i;
            break;
        }
    }
    free(b);
    return bad;
}

/* Rank 1's side of most tests: n ints from rank 0 (tag), which must be
 * fill's data of that seed. */
static void recv_check(int *b, size_t n, int tag, int seed, const char *what)
{
    MPI_Recv(b, (int) n, MPI_INT, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(check(b, n, seed, 90) < 0, "%s", what);
}

/* One rank's side of the sendrecv tests with peer: a goes out (tag s)
 * while b receives tag r (data of seed rseed); then c, filled with seed
 * s + 2, goes out (tag s + 2) and is replaced by tag r + 2 (seed r + 2). */
static void sendrecv_pair(int peer, const int *a, int *b, int *c, size_t n, int s, int r,
                          int rseed)
{
    MPI_Sendrecv(a, (int) n, MPI_INT, peer, s, b, (int) n, MPI_INT, peer, r, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    CHECK(check(b, n, rseed, 90) < 0, "sendrecv data wrong");
    fill(c, n, s + 2, 90);
    MPI_Sendrecv_replace(c, (int) n, MPI_INT, peer, s + 2, peer, r + 2, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
    CHECK(check(c, n, r + 2, 90) < 0, "sendrecv_replace data wrong");
}

/* ZC_SKIP="a,b": leave these tests out (see zcomp-semantics.sh) */
static int run(const char *name)
{
    const char *skip = getenv("ZC_SKIP");
    cur = name;
    MPI_Barrier(MPI_COMM_WORLD);
    if (NULL != skip && NULL != strstr(skip, name)) {
        if (0 == rank) {
            printf("skipped %s\n", name);
        }
        return 0;
    }
    return NULL == only || 0 == strcmp(only, name);
}

static void done(const char *name)
{
    int f = failures, all;
    MPI_Allreduce(&f, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("%s %s\n", all ? "FAILED" : "ok", name);
        fflush(stdout);
    }
}

/* sizes in ints: below threshold, inline, one chunk, several chunks, many */
static const size_t sizes[] = {100, 1500, 16384, 200000, 1100000};
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

static void t_counts(void)
{
    size_t k;
    for (k = 0; k < NSIZES; k++) {
        size_t n = sizes[k];
        int *a = malloc(n * sizeof(int));
        if (0 == rank) {
            fill(a, n, (int) k, 90);
            MPI_Send(a, (int) n, MPI_INT, 1, 7, MPI_COMM_WORLD);
            MPI_Send(a, (int) n, MPI_INT, 1, 8, MPI_COMM_WORLD);
            MPI_Send(a, (int) n, MPI_INT, 1, 9, MPI_COMM_WORLD);
            MPI_Send(a, (int) n, MPI_INT, 1, 10, MPI_COMM_WORLD);
            MPI_Send(a, (int) n, MPI_INT, 1, 11, MPI_COMM_WORLD);
        } else if (1 == rank) {
            MPI_Status st;
            MPI_Message msg;
            int c = -1, flag = 0;
            /* probe */
            MPI_Probe(0, 7, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_INT, &c);
            CHECK(c == (int) n, "MPI_Probe count %d, expected %zu", c, n);
            CHECK(st.MPI_TAG == 7 && st.MPI_SOURCE == 0, "probe status tag %d src %d", st.MPI_TAG,
                  st.MPI_SOURCE);
            memset(a, 0xff, n * sizeof(int));
            MPI_Recv(a, (int) n, MPI_INT, 0, 7, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_INT, &c);
            CHECK(c == (int) n, "MPI_Get_count %d, expected %zu", c, n);
            CHECK(check(a, n, (int) k, 90) < 0, "data differs at %d (n=%zu)", check(a, n, (int) k, 90), n);
            /* iprobe */
            do {
                MPI_Iprobe(0, 8, MPI_COMM_WORLD, &flag, &st);
            } while (!flag);
            MPI_Get_count(&st, MPI_INT, &c);
            CHECK(c == (int) n, "MPI_Iprobe count %d, expected %zu", c, n);
            MPI_Get_count(&st, MPI_BYTE, &c);
            CHECK(c == (int) (n * sizeof(int)), "MPI_Iprobe byte count %d", c);
            MPI_Recv(a, (int) n, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            /* mprobe + mrecv */
            MPI_Mprobe(0, 9, MPI_COMM_WORLD, &msg, &st);
            MPI_Get_count(&st, MPI_INT, &c);
            CHECK(c == (int) n, "MPI_Mprobe count %d, expected %zu", c, n);
            memset(a, 0xff, n * sizeof(int));
            MPI_Mrecv(a, (int) n, MPI_INT, &msg, &st);
            MPI_Get_count(&st, MPI_INT, &c);
            CHECK(c == (int) n, "MPI_Mrecv count %d", c);
            CHECK(check(a, n, (int) k, 90) < 0, "mrecv data differs (n=%zu)", n);
            /* improbe + imrecv */
            flag = 0;
            do {
                MPI_Improbe(0, 10, MPI_COMM_WORLD, &flag, &msg, &st);
            } while (!flag);
            MPI_Get_count(&st, MPI_INT, &c);
            CHECK(c == (int) n, "MPI_Improbe count %d, expected %zu", c, n);
            {
                MPI_Request r;
                memset(a, 0xff, n * sizeof(int));
                MPI_Imrecv(a, (int) n, MPI_INT, &msg, &r);
                MPI_Wait(&r, &st);
                MPI_Get_count(&st, MPI_INT, &c);
                CHECK(c == (int) n, "MPI_Imrecv count %d", c);
                CHECK(check(a, n, (int) k, 90) < 0, "imrecv data differs (n=%zu)", n);
            }
            /* irecv with a larger buffer */
            {
                int *big = malloc((n + 100) * sizeof(int));
                MPI_Request r;
                MPI_Irecv(big, (int) n + 100, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                          &r);
                MPI_Wait(&r, &st);
                MPI_Get_count(&st, MPI_INT, &c);
                CHECK(c == (int) n && st.MPI_TAG == 11, "irecv count %d tag %d", c, st.MPI_TAG);
                CHECK(check(big, n, (int) k, 90) < 0, "irecv data differs (n=%zu)", n);
                free(big);
            }
        }
        free(a);
    }
}

/* Non-overtaking: A(tag 1) then B(tag 2) from rank 0; rank 1 probes tag 2
 * first, then receives with MPI_ANY_TAG: it must get A. */
static void t_order(void)
{
    size_t k, j;
    for (k = 0; k < NSIZES; k++) {
        for (j = 0; j < NSIZES; j += 2) {
            size_t na = sizes[k], nb = sizes[j];
            int *a = malloc(na * sizeof(int)), *b = malloc(nb * sizeof(int));
            if (0 == rank) {
                fill(a, na, 1, 90);
                fill(b, nb, 2, 90);
                /* nonblocking: a standard send of A may wait for its
                 * receive, which comes after the probe of B */
                {
                    MPI_Request r[2];
                    MPI_Isend(a, (int) na, MPI_INT, 1, 1, MPI_COMM_WORLD, &r[0]);
                    MPI_Isend(b, (int) nb, MPI_INT, 1, 2, MPI_COMM_WORLD, &r[1]);
                    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
                }
                /* same tag, in order, nonblocking */
                {
                    MPI_Request r[2];
                    MPI_Isend(a, (int) na, MPI_INT, 1, 3, MPI_COMM_WORLD, &r[0]);
                    MPI_Isend(b, (int) nb, MPI_INT, 1, 3, MPI_COMM_WORLD, &r[1]);
                    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
                }
            } else if (1 == rank) {
                MPI_Status st;
                int c, flag = 0;
                MPI_Probe(0, 2, MPI_COMM_WORLD, &st);
                MPI_Get_count(&st, MPI_INT, &c);
                CHECK(c == (int) nb, "probe(tag 2) count %d expected %zu", c, nb);
                {
                    int *x = malloc((na > nb ? na : nb) * sizeof(int));
                    MPI_Recv(x, (int) (na > nb ? na : nb), MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD,
                             &st);
                    MPI_Get_count(&st, MPI_INT, &c);
                    CHECK(1 == st.MPI_TAG, "ANY_TAG receive after probe(tag 2) got tag %d "
                          "(non-overtaking broken, sizes %zu/%zu)", st.MPI_TAG, na, nb);
                    CHECK(c == (int) na && check(x, na, 1, 90) < 0, "first message wrong");
                    free(x);
                }
                MPI_Recv(b, (int) nb, MPI_INT, 0, 2, MPI_COMM_WORLD, &st);
                CHECK(check(b, nb, 2, 90) < 0, "second message wrong");
                /* same tag: wildcard iprobe sees the first, receives in order */
                do {
                    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
                } while (!flag);
                MPI_Get_count(&st, MPI_INT, &c);
                CHECK(c == (int) na, "wildcard iprobe count %d expected %zu", c, na);
                {
                    MPI_Request r[2];
                    MPI_Irecv(a, (int) na, MPI_INT, 0, 3, MPI_COMM_WORLD, &r[0]);
                    MPI_Irecv(b, (int) nb, MPI_INT, 0, 3, MPI_COMM_WORLD, &r[1]);
                    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
                    CHECK(check(a, na, 1, 90) < 0 && check(b, nb, 2, 90) < 0,
                          "same-tag messages out of order (sizes %zu/%zu)", na, nb);
                }
            }
            free(a);
            free(b);
        }
    }
}

static void t_anysource(void)
{
    size_t n = sizes[3];
    int *a = malloc(n * sizeof(int));
    if (0 != rank) {
        fill(a, n, rank, 90);
        MPI_Send(a, (int) n, MPI_INT, 0, 5, MPI_COMM_WORLD);
        MPI_Send(a, 10, MPI_INT, 0, 6, MPI_COMM_WORLD);
    } else {
        int i, seen = 0;
        for (i = 1; i < size; i++) {
            MPI_Status st;
            int c;
            MPI_Recv(a, (int) n, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_INT, &c);
            CHECK(c == (int) n, "count %d", c);
            CHECK(st.MPI_SOURCE >= 1 && st.MPI_SOURCE < size, "source %d", st.MPI_SOURCE);
            CHECK(check(a, n, st.MPI_SOURCE, 90) < 0, "data from %d wrong", st.MPI_SOURCE);
            seen |= 1 << st.MPI_SOURCE;
        }
        CHECK(seen == ((1 << size) - 2), "sources seen 0x%x", seen);
        for (i = 1; i < size; i++) {
            MPI_Recv(a, 10, MPI_INT, MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    free(a);
}

static void t_truncate(void)
{
    size_t k;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (k = 1; k < NSIZES; k++) {
        size_t n = sizes[k], m = n / 2;
        if (0 == rank) {
            int *a = malloc(n * sizeof(int));
            fill(a, n, 3, 90);
            MPI_Send(a, (int) n, MPI_INT, 1, 4, MPI_COMM_WORLD);
            MPI_Send(a, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
            free(a);
        } else if (1 == rank) {
            int *a = malloc((m + 64) * sizeof(int)), i, rc, cls, c;
            MPI_Status st;
            for (i = 0; i < 64; i++) {
                a[m + i] = 0x5a5a5a5a;
            }
            rc = MPI_Recv(a, (int) m, MPI_INT, 0, 4, MPI_COMM_WORLD, &st);
            MPI_Error_class(rc, &cls);
            CHECK(MPI_ERR_TRUNCATE == cls, "error class %d, expected MPI_ERR_TRUNCATE (n=%zu)", cls,
                  n);
            for (i = 0; i < 64; i++) {
                CHECK(0x5a5a5a5a == a[m + i], "buffer overrun at +%d", i);
                if (0x5a5a5a5a != a[m + i]) {
                    break;
                }
            }
            MPI_Get_count(&st, MPI_BYTE, &c);
            (void) c; /* ob1 reports the message's size; nothing to require */
            rc = MPI_Recv(a, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(MPI_SUCCESS == rc, "the next message failed after a truncation");
            free(a);
        }
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void t_persistent(void)
{
    size_t n = sizes[3];
    int *a = malloc(n * sizeof(int)), it;
    MPI_Request r;
    if (0 == rank) {
        MPI_Send_init(a, (int) n, MPI_INT, 1, 12, MPI_COMM_WORLD, &r);
    } else if (1 == rank) {
        MPI_Recv_init(a, (int) n, MPI_INT, 0, 12, MPI_COMM_WORLD, &r);
    }
    for (it = 0; it < 4; it++) {
        if (0 == rank) {
            fill(a, n, 100 + it, it % 2 ? 0 : 90);
            MPI_Start(&r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        } else if (1 == rank) {
            MPI_Status st;
            int c;
            MPI_Start(&r);
            MPI_Wait(&r, &st);
            MPI_Get_count(&st, MPI_INT, &c);
            CHECK(c == (int) n, "count %d", c);
            CHECK(check(a, n, 100 + it, it % 2 ? 0 : 90) < 0, "iteration %d data wrong", it);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (rank < 2) {
        MPI_Request_free(&r);
    }
    /* Startall with a mix of sizes */
    if (rank < 2) {
        MPI_Request rr[3];
        int *s1 = malloc(10 * sizeof(int)), *s2 = malloc(n * sizeof(int));
        if (0 == rank) {
            fill(s1, 10, 7, 90);
            fill(s2, n, 8, 90);
            MPI_Send_init(s1, 10, MPI_INT, 1, 13, MPI_COMM_WORLD, &rr[0]);
            MPI_Send_init(s2, (int) n, MPI_INT, 1, 14, MPI_COMM_WORLD, &rr[1]);
            MPI_Ssend_init(s2, (int) n, MPI_INT, 1, 15, MPI_COMM_WORLD, &rr[2]);
        } else {
            MPI_Recv_init(s1, 10, MPI_INT, 0, 13, MPI_COMM_WORLD, &rr[0]);
            MPI_Recv_init(s2, (int) n, MPI_INT, 0, 14, MPI_COMM_WORLD, &rr[1]);
            MPI_Recv_init(a, (int) n, MPI_INT, 0, 15, MPI_COMM_WORLD, &rr[2]);
        }
        MPI_Startall(3, rr);
        MPI_Waitall(3, rr, MPI_STATUSES_IGNORE);
        if (1 == rank) {
            CHECK(check(s1, 10, 7, 90) < 0 && check(s2, n, 8, 90) < 0 && check(a, n, 8, 90) < 0,
                  "Startall data wrong");
        }
        MPI_Request_free(&rr[0]);
        MPI_Request_free(&rr[1]);
        MPI_Request_free(&rr[2]);
        free(s1);
        free(s2);
    }
    free(a);
}

static void t_cancel(void)
{
    if (1 == rank) {
        int x[1000];
        MPI_Request r;
        MPI_Status st;
        int flag;
        MPI_Irecv(x, 1000, MPI_INT, 0, 99, MPI_COMM_WORLD, &r);
        MPI_Cancel(&r);
        MPI_Wait(&r, &st);
        MPI_Test_cancelled(&st, &flag);
        CHECK(flag, "a posted receive was not cancelled");
    }
    /* a cancelled receive does not steal a later message */
    if (0 == rank) {
        size_t n = sizes[3];
        int *a = malloc(n * sizeof(int));
        fill(a, n, 9, 90);
        MPI_Send(a, (int) n, MPI_INT, 1, 98, MPI_COMM_WORLD);
        free(a);
    } else if (1 == rank) {
        size_t n = sizes[3];
        int *a = malloc(n * sizeof(int));
        MPI_Request r;
        MPI_Status st;
        int flag;
        MPI_Irecv(a, (int) n, MPI_INT, 0, 97, MPI_COMM_WORLD, &r);
        MPI_Cancel(&r);
        MPI_Wait(&r, &st);
        MPI_Test_cancelled(&st, &flag);
        CHECK(flag, "second receive was not cancelled");
        recv_check(a, n, 98, 9, "data wrong after a cancel");
        free(a);
    }
}

static void t_modes(void)
{
    size_t n = sizes[3];
    int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int));
    int bsize = (int) (n * sizeof(int) * 2 + 4 * MPI_BSEND_OVERHEAD);
    char *bbuf = malloc((size_t) bsize);
    if (0 == rank) {
        MPI_Request r;
        fill(a, n, 21, 90);
        MPI_Ssend(a, (int) n, MPI_INT, 1, 21, MPI_COMM_WORLD);
        MPI_Buffer_attach(bbuf, bsize);
        MPI_Bsend(a, (int) n, MPI_INT, 1, 22, MPI_COMM_WORLD);
        fill(b, n, 23, 90);
        MPI_Ibsend(b, (int) n, MPI_INT, 1, 23, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Buffer_detach(&bbuf, &bsize);
        MPI_Barrier(MPI_COMM_WORLD); /* the receive of tag 24 is posted */
        MPI_Rsend(a, (int) n, MPI_INT, 1, 24, MPI_COMM_WORLD);
        MPI_Issend(a, (int) n, MPI_INT, 1, 25, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Irsend(a, 10, MPI_INT, 1, 26, MPI_COMM_WORLD, &r); /* posted long ago */
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        /* sendrecv */
        sendrecv_pair(1, a, b, b, n, 27, 28, 28);
    } else if (1 == rank) {
        MPI_Request r, r26;
        int *c = malloc(n * sizeof(int));
        MPI_Irecv(c, 10, MPI_INT, 0, 26, MPI_COMM_WORLD, &r26);
        recv_check(b, n, 21, 21, "ssend data wrong");
        recv_check(b, n, 22, 21, "bsend data wrong");
        recv_check(b, n, 23, 23, "ibsend data wrong");
        MPI_Irecv(b, (int) n, MPI_INT, 0, 24, MPI_COMM_WORLD, &r);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        CHECK(check(b, n, 21, 90) < 0, "rsend data wrong");
        recv_check(b, n, 25, 21, "issend data wrong");
        MPI_Wait(&r26, MPI_STATUS_IGNORE);
        fill(a, n, 28, 90);
        sendrecv_pair(0, a, b, c, n, 28, 27, 21);
        free(c);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    free(a);
    free(b);
    free(bbuf);
}

/* A buffer of *n = sizes[3] ints (the caller frees it); rank 0 fills it
 * (seed tag) and starts sending it to rank 1 (tag tag) with isend
 * (MPI_Isend, MPI_Issend), *r the request. */
static int *start_send_to_1(int (*isend)(const void *, int, MPI_Datatype, int, int, MPI_Comm,
                                         MPI_Request *),
                            int tag, size_t *n, MPI_Request *r)
{
    int *a = malloc(sizes[3] * sizeof(int));
    *n = sizes[3];
    if (0 == rank) {
        fill(a, *n, tag, 90);
        isend(a, (int) *n, MPI_INT, 1, tag, MPI_COMM_WORLD, r);
    }
    return a;
}

/* Ssend must not complete before the receive started. */
static void t_ssend_sync(void)
{
    size_t n;
    MPI_Request r;
    int *a = start_send_to_1(MPI_Issend, 31, &n, &r);
    if (0 == rank) {
        int flag = 0, i;
        double t0 = MPI_Wtime();
        for (i = 0; MPI_Wtime() - t0 < 0.3; i++) {
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
            CHECK(!flag, "MPI_Issend completed before the receiver posted its receive");
            if (flag) {
                break;
            }
        }
        MPI_Send(&i, 1, MPI_INT, 1, 32, MPI_COMM_WORLD);
        if (!flag) {
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
    } else if (1 == rank) {
        int i;
        MPI_Recv(&i, 1, MPI_INT, 0, 32, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        recv_check(a, n, 31, 31, "issend data wrong");
    }
    free(a);
}

/* Sender: every other int of a vector; receiver: contiguous, then the
 * other way round with an indexed type. */
static void t_datatypes(void)
{
    size_t n = 300000;
    MPI_Datatype vec, idx;
    int *a = calloc(2 * n, sizeof(int)), *b = calloc(2 * n, sizeof(int));
    int bl[2] = {3, (int) n - 3}, disp[2] = {0, 5};
    size_t i;
    MPI_Type_vector((int) n, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Type_indexed(2, bl, disp, MPI_INT, &idx);
    MPI_Type_commit(&idx);
    if (0 == rank) {
        int *c = malloc(n * sizeof(int));
        fill(c, n, 41, 90);
        for (i = 0; i < n; i++) {
            a[2 * i] = c[i];
            a[2 * i + 1] = -7;
        }
        MPI_Send(a, 1, vec, 1, 41, MPI_COMM_WORLD);
        MPI_Send(c, (int) n, MPI_INT, 1, 42, MPI_COMM_WORLD);
        free(c);
    } else if (1 == rank) {
        MPI_Status st;
        int cnt;
        MPI_Recv(b, (int) n, MPI_INT, 0, 41, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &cnt);
        CHECK(cnt == (int) n, "count %d", cnt);
        CHECK(check(b, n, 41, 90) < 0, "vector -> contiguous data wrong");
        for (i = 0; i < 2 * n; i++) {
            a[i] = -9;
        }
        MPI_Recv(a, 1, idx, 0, 42, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, idx, &cnt);
        CHECK(1 == cnt, "indexed count %d", cnt);
        {
            int *c = malloc(n * sizeof(int)), ok = 1;
            fill(c, n, 41, 90);
            for (i = 0; i < 3; i++) {
                ok &= a[i] == c[i];
            }
            ok &= a[3] == -9 && a[4] == -9;
            for (i = 3; i < n; i++) {
                ok &= a[i + 2] == c[i];
            }
            ok &= a[n + 2] == -9;
            CHECK(ok, "contiguous -> indexed data wrong");
            free(c);
        }
    }
    MPI_Type_free(&vec);
    MPI_Type_free(&idx);
    free(a);
    free(b);
}

static void t_request_free(void)
{
    size_t n;
    MPI_Request r;
    int *a = start_send_to_1(MPI_Isend, 51, &n, &r);
    if (0 == rank) {
        MPI_Request_free(&r);
        MPI_Recv(NULL, 0, MPI_INT, 1, 52, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (1 == rank) {
        recv_check(a, n, 51, 51, "data of a freed isend wrong");
        MPI_Send(NULL, 0, MPI_INT, 0, 52, MPI_COMM_WORLD);
    }
    free(a);
}

static void t_collectives(void)
{
    size_t n = 400000, i;
    int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int) * (size_t) size);
    int ok = 1;
    fill(a, n, 61, 90);
    if (0 != rank) {
        memset(a, 0, n * sizeof(int));
    }
    MPI_Bcast(a, (int) n, MPI_INT, 0, MPI_COMM_WORLD);
    CHECK(check(a, n, 61, 90) < 0, "bcast data wrong");
    for (i = 0; i < n; i++) {
        a[i] = (i % 10) ? 0 : rank + 1;
    }
    MPI_Allreduce(a, b, (int) n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (i = 0; i < n; i++) {
        ok &= b[i] == ((i % 10) ? 0 : size * (size + 1) / 2);
    }
    CHECK(ok, "allreduce data wrong");
    MPI_Allgather(a, (int) n, MPI_INT, b, (int) n, MPI_INT, MPI_COMM_WORLD);
    ok = 1;
    for (i = 0; i < n * (size_t) size; i++) {
        ok &= b[i] == (((i % n) % 10) ? 0 : (int) (i / n) + 1);
    }
    CHECK(ok, "allgather data wrong");
    free(a);
    free(b);
}

/* Completion to oneself as stock ob1 does it (mpi4py's test_p2p_obj
 * checks both): an eager isend to self is complete when MPI_Isend returns,
 * so six of them are all complete or none (zcomp had completed them from
 * its progress: MPI_Testall found none, its progress call completed all,
 * and MPI_Testsome then found five; checked against that code); a posted
 * receive matched by an MPI_Ssend to self is complete when MPI_Ssend
 * returns (once sends completed at once, the receive still completed from
 * progress, which the Ssend no longer ran: mpi4py's testTestSomeRecv, and
 * this part, checked with the send fix alone).  Messages of zeros: they
 * compress to a few bytes and travel inline. */
static void t_self_completion(void)
{
    enum { NREQ = 6 };
    const int n = 2048; /* 8 KB: above the default threshold */
    int *a = calloc((size_t) n, sizeof(int)), *b = malloc((size_t) n * NREQ * sizeof(int));
    MPI_Request q[NREQ];
    int i, k, flag, idx, cnt, ids[NREQ];

    for (i = 0; i < NREQ; i++) {
        MPI_Isend(a, n, MPI_INT, rank, 71, MPI_COMM_WORLD, &q[i]);
    }
    MPI_Testall(NREQ, q, &flag, MPI_STATUSES_IGNORE);
    if (!flag) {
        MPI_Testany(NREQ, q, &idx, &flag, MPI_STATUS_IGNORE);
        MPI_Testsome(NREQ, q, &cnt, ids, MPI_STATUSES_IGNORE);
        CHECK(0 == cnt || MPI_UNDEFINED == cnt,
              "%d of %d isends to self completed between two tests, none before", cnt, NREQ);
    }
    for (i = 0; i < NREQ; i++) {
        memset(b, 0x5a, (size_t) n * sizeof(int));
        MPI_Recv(b, n, MPI_INT, rank, 71, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(0 == memcmp(a, b, (size_t) n * sizeof(int)), "isend to self: data wrong");
    }
    MPI_Waitall(NREQ, q, MPI_STATUSES_IGNORE);

    for (i = 0; i < NREQ; i++) {
        MPI_Irecv(b + (size_t) i * n, n, MPI_INT, rank, 80 + i, MPI_COMM_WORLD, &q[i]);
    }
    for (i = NREQ - 1; i >= 0; i--) {
        MPI_Ssend(a, n, MPI_INT, rank, 80 + i, MPI_COMM_WORLD);
        MPI_Testsome(NREQ, q, &cnt, ids, MPI_STATUSES_IGNORE);
        CHECK(1 == cnt && ids[0] == i,
              "receive of an MPI_Ssend to self (tag %d) not complete when MPI_Ssend returned "
              "(MPI_Testsome: %d)", 80 + i, cnt);
        for (k = 0; k < cnt; k++) {
            CHECK(q[ids[k]] == MPI_REQUEST_NULL, "a completed request is not MPI_REQUEST_NULL");
        }
    }
    MPI_Waitall(NREQ, q, MPI_STATUSES_IGNORE);
    for (i = 0; i < n * NREQ; i++) {
        if (0 != b[i]) {
            CHECK(0, "ssend to self: data wrong at %d", i);
            break;
        }
    }
    free(a);
    free(b);
}

/* MPI_T counters count from the moment their handle is allocated. */
#define MAXPV 64
static MPI_T_pvar_session pv_session;
static MPI_T_pvar_handle pv_handle[MAXPV];
static char pv_name[MAXPV][128];
static int pv_n;

static void pvars_begin(void)
{
    int num, i, provided;
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_T_pvar_get_num(&num);
    MPI_T_pvar_session_create(&pv_session);
    for (i = 0; i < num && pv_n < MAXPV; i++) {
        char name[128], desc[256];
        int nl = sizeof(name), dl = sizeof(desc), verb, cls, bind, ro, cont, atomic, count;
        MPI_Datatype dt;
        MPI_T_enum en;
        MPI_T_pvar_get_info(i, name, &nl, &verb, &cls, &dt, &en, desc, &dl, &bind, &ro, &cont,
                            &atomic);
        if (0 != strncmp(name, "pml_zcomp_", 10)) {
            continue;
        }
        if (MPI_SUCCESS == MPI_T_pvar_handle_alloc(pv_session, i, NULL, &pv_handle[pv_n], &count)) {
            strcpy(pv_name[pv_n++], name);
        }
    }
}

static void pvars_end(void)
{
    int i;
    for (i = 0; i < pv_n; i++) {
        unsigned long long v = 0;
        MPI_T_pvar_read(pv_session, pv_handle[i], &v);
        printf("pvar %d %s %llu\n", rank, pv_name[i], v);
        MPI_T_pvar_handle_free(pv_session, &pv_handle[i]);
    }
    MPI_T_pvar_session_free(&pv_session);
    MPI_T_finalize();
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    only = argc > 1 ? argv[1] : NULL;
    pvars_begin();
    if (run("counts")) { t_counts(); done("counts"); }
    if (run("order")) { t_order(); done("order"); }
    if (size > 2 && run("anysource")) { t_anysource(); done("anysource"); }
    if (run("truncate")) { t_truncate(); done("truncate"); }
    if (run("persistent")) { t_persistent(); done("persistent"); }
    if (run("cancel")) { t_cancel(); done("cancel"); }
    if (run("modes")) { t_modes(); done("modes"); }
    if (run("ssend")) { t_ssend_sync(); done("ssend"); }
    if (run("datatypes")) { t_datatypes(); done("datatypes"); }
    if (run("request_free")) { t_request_free(); done("request_free"); }
    if (run("collectives")) { t_collectives(); done("collectives"); }
    if (run("self_completion")) { t_self_completion(); done("self_completion"); }
    {
        int all;
        MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        pvars_end();
        if (0 == rank) {
            printf("zcomp_semantics: %d failed\n", all);
        }
        MPI_Finalize();
        return all ? 1 : 0;
    }
}
