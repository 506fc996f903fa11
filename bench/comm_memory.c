/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Per-communicator memory and the latency around it (issue 19; seed 001's
 * communicator-split benchmark).
 *
 *   comm_memory mem K [used|coll]
 *                         each rank creates K communicators of one kind and
 *                         keeps them, then frees them; with "used", each
 *                         carries one message round a ring of its members
 *                         right after it is made, inside the counted part
 *                         (what an application does with a communicator:
 *                         first contacts, the PML's per-peer state); with
 *                         "coll", an 8-byte MPI_Allreduce as well (the
 *                         collective modules a first collective selects);
 *                         kinds: dup (of the
 *                         world), row and col (of a 2-D grid from
 *                         MPI_Dims_create, by MPI_Comm_split), plane (z
 *                         planes of a 3-D grid, by MPI_Comm_split), cart
 *                         (MPI_Cart_sub rows of a 2-D Cartesian grid).  Per
 *                         kind it prints the heap growth per communicator
 *                         two ways: glibc's
 *                         mallinfo2 (arena + mmapped bytes in use) and an
 *                         interposed counter (test/common/heap_counter.h),
 *                         the mean over the ranks and the median rank's:
 *                           mem KIND use=unused|used|coll members=M
 *                               bytes_mallinfo=X bytes_counter=Y
 *                               median_mallinfo=X' median_counter=Y'
 *   comm_memory lat REPS  median over REPS interleaved repeats of: 0- and
 *                         8-byte ping-pong (ranks 0 and 1), a 6-neighbour
 *                         halo of 8 doubles on a periodic 3-D Cartesian
 *                         communicator, an 8-byte MPI_Allreduce:
 *                           lat NAME us=T
 *
 *   comm_memory instr KIND N
 *                         on one rank under valgrind's callgrind (the
 *                         script's instruction count): N iterations of
 *                         loop(), KIND pingpong (an 8-byte message to
 *                         oneself, MPI_Isend + MPI_Recv, on a duplicate of
 *                         the world) or halo (6 faces on a periodic 1x1x1
 *                         Cartesian communicator: every neighbour is
 *                         oneself), each through the same ob1 peer lookup
 *                         and matching as between processes; allreduce (8
 *                         bytes on a duplicate of the world) and halo also
 *                         on more ranks (halo: a periodic 3-D grid of
 *                         MPI_Dims_create's shape, 6 distinct neighbours
 *                         at 27 ranks), where rank 0 runs under callgrind
 *
 * The script (comm_memory.sh) runs both under stock settings and with
 * grpmap + ob1's sparse peer table, and prints ratios and slopes.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#ifdef COMM_CENSUS
#include <valgrind/valgrind.h>
#else
#include "heap_counter.h"
#endif

static int rank, size;

#ifndef COMM_CENSUS
static long long mallinfo_bytes(void)
{
    struct mallinfo2 m = mallinfo2();
    return (long long) (m.uordblks + m.hblkhd);
}
#endif

/* One communicator of the kind; *members gets its size. */
static MPI_Comm make_comm(const char *kind, MPI_Comm cart2)
{
    int d2[2] = {0, 0}, d3[3] = {0, 0, 0};
    MPI_Comm c = MPI_COMM_NULL;
    MPI_Dims_create(size, 2, d2);
    MPI_Dims_create(size, 3, d3);
    if (0 == strcmp(kind, "dup")) {
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
    } else if (0 == strcmp(kind, "row")) {
        MPI_Comm_split(MPI_COMM_WORLD, rank / d2[1], rank, &c);
    } else if (0 == strcmp(kind, "col")) {
        MPI_Comm_split(MPI_COMM_WORLD, rank % d2[1], rank, &c);
    } else if (0 == strcmp(kind, "plane")) {
        MPI_Comm_split(MPI_COMM_WORLD, rank / (d3[1] * d3[2]), rank, &c);
    } else if (0 == strcmp(kind, "cart")) {
        int keep[2] = {0, 1};
        MPI_Cart_sub(cart2, keep, &c);
    } else {
        CHECK(0, "unknown kind %s", kind);
    }
    return c;
}

/* One message round a ring of the communicator's members; with use_coll
 * also an 8-byte MPI_Allreduce (the first collective selects the
 * communicator's collective modules). */
static int use_coll;

static void ring(MPI_Comm c)
{
    int r, n, in = -1, out;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    out = r;
    MPI_Sendrecv(&out, 1, MPI_INT, (r + 1) % n, 7, &in, 1, MPI_INT, (r + n - 1) % n, 7, c,
                 MPI_STATUS_IGNORE);
    CHECK(in == (r + n - 1) % n, "ring: got %d from %d", in, (r + n - 1) % n);
    if (use_coll) {
        long long one = 1, sum = 0;
        MPI_Allreduce(&one, &sum, 1, MPI_LONG_LONG, MPI_SUM, c);
        CHECK(sum == n, "allreduce: %lld, expected %d", sum, n);
    }
}

#ifdef COMM_CENSUS
/* Under valgrind's massif (bench/comm_census.sh): a detailed snapshot of
 * the heap before and after K used communicators of the kind, which the
 * script reads by allocation stack. */
static void census(const char *kind, int k, const char *out)
{
    MPI_Comm *cs = xmalloc(k * sizeof(*cs)), cart2, warm;
    int d2[2] = {0, 0}, periods[2] = {0, 0}, members;
    char cmd[4096];

    CHECK(RUNNING_ON_VALGRIND, "census runs under valgrind --tool=massif");
    MPI_Dims_create(size, 2, d2);
    MPI_Cart_create(MPI_COMM_WORLD, 2, d2, periods, 0, &cart2);
    warm = make_comm(kind, cart2);
    ring(warm);
    MPI_Comm_free(&warm);
    MPI_Barrier(MPI_COMM_WORLD);
    snprintf(cmd, sizeof(cmd), "detailed_snapshot %s.a.%d", out, rank);
    CHECK(0 == VALGRIND_MONITOR_COMMAND(cmd), "massif refused: %s", cmd);
    for (int i = 0; i < k; i++) {
        cs[i] = make_comm(kind, cart2);
        ring(cs[i]);
    }
    snprintf(cmd, sizeof(cmd), "detailed_snapshot %s.b.%d", out, rank);
    CHECK(0 == VALGRIND_MONITOR_COMMAND(cmd), "massif refused: %s", cmd);
    MPI_Comm_size(cs[0], &members);
    for (int i = 0; i < k; i++) {
        MPI_Comm_free(&cs[i]);
    }
    MPI_Comm_free(&cart2);
    free(cs);
    if (0 == rank) {
        printf("census %s members=%d k=%d\n", kind, members, k);
    }
}
#else
static void mem(int k, int used)
{
    static const char *kinds[] = {"dup", "row", "col", "plane", "cart"};
    MPI_Comm *cs = xmalloc(k * sizeof(*cs)), cart2;
    long long *all = xmalloc(2 * size * sizeof(*all));
    double *per = xmalloc(size * sizeof(*per));
    int d2[2] = {0, 0}, periods[2] = {0, 0};

    MPI_Dims_create(size, 2, d2);
    MPI_Cart_create(MPI_COMM_WORLD, 2, d2, periods, 0, &cart2);
    for (size_t t = 0; t < sizeof(kinds) / sizeof(kinds[0]); t++) {
        long long m0, h0, v[2];
        int members;
        /* one created and freed first: lazily allocated state of the
         * parent (free lists, the collective modules' buffers) is not the
         * new communicators' */
        MPI_Comm warm = make_comm(kinds[t], cart2);
        if (used) {
            ring(warm);
        }
        MPI_Comm_free(&warm);
        MPI_Barrier(MPI_COMM_WORLD);
        m0 = mallinfo_bytes();
        h0 = heap_cur;
        for (int i = 0; i < k; i++) {
            cs[i] = make_comm(kinds[t], cart2);
            if (used) {
                ring(cs[i]);
            }
        }
        v[0] = mallinfo_bytes() - m0;
        v[1] = heap_cur - h0;
        MPI_Comm_size(cs[0], &members);
        for (int i = 0; i < k; i++) {
            MPI_Comm_free(&cs[i]);
        }
        /* every rank's figure to rank 0: the mean, and the median rank's.
         * The median is the per-communicator cost; the mean also carries
         * one-off growth of ob1's fragment pools on the few ranks that
         * took unexpected messages in the creating collectives (tens of
         * KB at random ranks, more often the more oversubscribed the run,
         * so it grows with np but not with any communicator) */
        MPI_Gather(v, 2, MPI_LONG_LONG, all, 2, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
        if (0 == rank) {
            double mean[2] = {0, 0}, med[2];
            for (int m = 0; m < 2; m++) {
                for (int r = 0; r < size; r++) {
                    per[r] = (double) all[2 * r + m] / k;
                    mean[m] += per[r] / size;
                }
                med[m] = test_median_mean(per, size);
            }
            printf("mem %s use=%s members=%d bytes_mallinfo=%.1f bytes_counter=%.1f median_mallinfo=%.1f "
                   "median_counter=%.1f\n",
                   kinds[t], used ? (use_coll ? "coll" : "used") : "unused", members, mean[0], mean[1], med[0], med[1]);
            fflush(stdout);
        }
    }
    MPI_Comm_free(&cart2);
    free(per);
    free(all);
    free(cs);
}
#endif

/* ---- latency ------------------------------------------------------------ */
#define ITERS 2000

static double pingpong(int bytes)
{
    char buf[8] = {0};
    double t0;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (int i = 0; i < ITERS; i++) {
        if (0 == rank) {
            MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (1 == rank) {
            MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - t0) / ITERS / 2 * 1e6;
}

static double halo(MPI_Comm cart3)
{
    double out[6][8], in[6][8], t0;
    MPI_Request req[12];
    for (int d = 0; d < 6; d++) {
        for (int i = 0; i < 8; i++) {
            out[d][i] = rank * 100 + d * 10 + i;
        }
    }
    MPI_Barrier(cart3);
    t0 = MPI_Wtime();
    for (int it = 0; it < ITERS / 4; it++) {
        int n = 0;
        for (int dim = 0; dim < 3; dim++) {
            int lo, hi;
            MPI_Cart_shift(cart3, dim, 1, &lo, &hi);
            MPI_Irecv(in[2 * dim], 8, MPI_DOUBLE, lo, dim, cart3, &req[n++]);
            MPI_Irecv(in[2 * dim + 1], 8, MPI_DOUBLE, hi, 3 + dim, cart3, &req[n++]);
            MPI_Isend(out[2 * dim + 1], 8, MPI_DOUBLE, hi, dim, cart3, &req[n++]);
            MPI_Isend(out[2 * dim], 8, MPI_DOUBLE, lo, 3 + dim, cart3, &req[n++]);
        }
        MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    }
    t0 = MPI_Wtime() - t0;
    /* the value from the low neighbour of dimension 0 is its "up" face */
    {
        int lo, hi;
        MPI_Cart_shift(cart3, 0, 1, &lo, &hi);
        CHECK(in[0][3] == lo * 100 + 1 * 10 + 3, "halo: got %g from %d", in[0][3], lo);
    }
    return t0 / (ITERS / 4) * 1e6;
}

static double allreduce(void)
{
    double t0;
    long long v = rank, s;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (int i = 0; i < ITERS / 4; i++) {
        MPI_Allreduce(&v, &s, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    }
    t0 = MPI_Wtime() - t0;
    CHECK(s == (long long) size * (size - 1) / 2, "allreduce: %lld", s);
    return t0 / (ITERS / 4) * 1e6;
}

static void lat(int reps)
{
    enum { PP0, PP8, HALO, ALLRED, NT };
    static const char *names[NT] = {"pingpong0", "pingpong8", "halo6", "allreduce8"};
    double *t[NT], v;
    int d3[3] = {0, 0, 0}, periods[3] = {1, 1, 1};
    MPI_Comm cart3;

    MPI_Dims_create(size, 3, d3);
    MPI_Cart_create(MPI_COMM_WORLD, 3, d3, periods, 0, &cart3);
    for (int k = 0; k < NT; k++) {
        t[k] = xmalloc(reps * sizeof(double));
    }
    (void) pingpong(0); /* first contacts, warm caches */
    (void) halo(cart3);
    for (int r = 0; r < reps; r++) {
        t[PP0][r] = pingpong(0);
        t[PP8][r] = pingpong(8);
        v = halo(cart3);
        MPI_Allreduce(&v, &t[HALO][r], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        v = allreduce();
        MPI_Allreduce(&v, &t[ALLRED][r], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    if (0 == rank) {
        for (int k = 0; k < NT; k++) {
            printf("lat %s us=%.4f\n", names[k], test_median(t[k], reps));
        }
    }
    for (int k = 0; k < NT; k++) {
        free(t[k]);
    }
    MPI_Comm_free(&cart3);
}

/* ---- instructions (callgrind collects inside loop() only) ------------- */
static int nbr[6][2];  /* halo: the rank to receive from, to send to, per face */

static void __attribute__((noinline)) loop(const char *kind, int n, MPI_Comm comm)
{
    double out[6][8] = {{0}}, in[6][8];
    MPI_Request req[12];
    /* the kind once, outside the counted iterations */
    const int pp = 0 == strcmp(kind, "pingpong"), ar = 0 == strcmp(kind, "allreduce");
    for (int it = 0; it < n; it++) {
        if (pp) {
            MPI_Isend(out[0], 1, MPI_DOUBLE, 0, 1, comm, &req[0]);
            MPI_Recv(in[0], 1, MPI_DOUBLE, 0, 1, comm, MPI_STATUS_IGNORE);
            MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        } else if (ar) {
            MPI_Allreduce(out[0], in[0], 1, MPI_DOUBLE, MPI_SUM, comm);
        } else {
            for (int d = 0; d < 6; d++) {
                MPI_Irecv(in[d], 8, MPI_DOUBLE, nbr[d][0], d, comm, &req[d]);
                MPI_Isend(out[d], 8, MPI_DOUBLE, nbr[d][1], d, comm, &req[6 + d]);
            }
            MPI_Waitall(12, req, MPI_STATUSES_IGNORE);
        }
    }
}

static void instr(const char *kind, int n)
{
    int dims[3] = {0, 0, 0}, periods[3] = {1, 1, 1};
    MPI_Comm c;
    CHECK(1 == size || 0 != strcmp(kind, "pingpong"), "instr pingpong runs on one rank");
    if (0 == strcmp(kind, "pingpong") || 0 == strcmp(kind, "allreduce")) {
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
    } else {
        CHECK(0 == strcmp(kind, "halo"), "instr KIND: pingpong, halo or allreduce");
        MPI_Dims_create(size, 3, dims);
        MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &c);
        for (int d = 0; d < 3; d++) {
            /* face 2d: from the lower neighbour to the upper one; 2d+1 back */
            MPI_Cart_shift(c, d, 1, &nbr[2 * d][0], &nbr[2 * d][1]);
            nbr[2 * d + 1][0] = nbr[2 * d][1];
            nbr[2 * d + 1][1] = nbr[2 * d][0];
        }
    }
    loop(kind, 10, c); /* first contact outside the counted part */
    loop(kind, n, c);
    MPI_Comm_free(&c);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
#ifdef COMM_CENSUS
    CHECK((5 == argc || (6 == argc && 0 == strcmp(argv[5], "coll"))) && 0 == strcmp(argv[1], "census"),
          "usage: comm_census census KIND K OUT [coll]");
    use_coll = 6 == argc;
    census(argv[2], atoi(argv[3]), argv[4]);
    MPI_Finalize();
    return 0;
#endif
    CHECK((3 == argc && (0 == strcmp(argv[1], "mem") || 0 == strcmp(argv[1], "lat")))
              || (4 == argc && 0 == strcmp(argv[1], "mem")
                  && (0 == strcmp(argv[3], "used") || 0 == strcmp(argv[3], "coll")))
              || (4 == argc && 0 == strcmp(argv[1], "instr")),
          "usage: comm_memory mem K [used|coll] | lat REPS | instr pingpong|halo N");
    if (0 == strcmp(argv[1], "instr")) {
        instr(argv[2], atoi(argv[3]));
#ifndef COMM_CENSUS
    } else if (0 == strcmp(argv[1], "mem")) {
        use_coll = 4 == argc && 0 == strcmp(argv[3], "coll");
        mem(atoi(argv[2]), 4 == argc);
#endif
    } else {
        CHECK(size >= 2, "lat needs 2 ranks or more");
        lat(atoi(argv[2]));
    }
    MPI_Finalize();
    return 0;
}
