/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MPI_Dist_graph_create while nonblocking collectives on the same
 * communicator are still pending, as MPI allows (collectives in the same
 * order on every rank).  Open MPI's topo framework exchanged the graph's
 * edges, and treematch its reordering data, with fixed negative tags
 * (-50, -51, -111) that lie inside the range libnbc hands out to
 * nonblocking collectives one by one: once a communicator's counter
 * reaches them, an edge receive from MPI_ANY_SOURCE takes a collective's
 * message (a wrong graph, and a collective that never completes), as
 * open-mpi/ompi#13918 reports.  Patch 0025 gives those exchanges tags of
 * their own.  Each iteration starts 4 MPI_Iallreduce (4 consecutive tags,
 * so that the counter cannot step over a fixed tag), creates a ring graph
 * (reorder on every other iteration) and then waits: every sum and every
 * edge must be right.  Whether a receive takes the wrong message is a race,
 * so the iterations run on `reps` fresh duplicates of MPI_COMM_WORLD in
 * turn, each one's tag counter starting afresh and passing the fixed tags.
 *
 *   topo_tags [reps [iterations]]      (at least 3 ranks)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define NPEND 4

static int errs;

static void bad(int rank, int it, const char *what, int got, int want)
{
    if (errs++ < 10) {
        fprintf(stderr, "topo_tags: rank %d, iteration %d: %s is %d, expected %d\n",
                rank, it, what, got, want);
    }
}

/* the neighbours of a graph communicator, as ranks of MPI_COMM_WORLD */
static void world_ranks(MPI_Comm g, int n, int *ranks)
{
    MPI_Group gg, wg;
    int tr[2];

    MPI_Comm_group(g, &gg);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_translate_ranks(gg, n, ranks, wg, tr);
    for (int i = 0; i < n; i++) {
        ranks[i] = tr[i];
    }
    MPI_Group_free(&gg);
    MPI_Group_free(&wg);
}

/* the edge to or from world rank peer must exist with weight want (-1 if it is missing) */
static void check_edge(int rank, int it, const char *what, const int *ranks, const int *w,
                       int n, int peer, int want)
{
    int got = -1;

    for (int i = 0; i < n; i++) {
        if (ranks[i] == peer) {
            got = w[i];
            break;
        }
    }
    if (got != want) {
        bad(rank, it, what, got, want);
    }
}

/* one graph on d, with NPEND collectives on d pending around its creation */
static void iteration(MPI_Comm d, int rank, int size, int it)
{
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Request rq[NPEND];
    int v[NPEND], sum[NPEND];

    for (int k = 0; k < NPEND; k++) {
        v[k] = (rank + 1) * (it * NPEND + k + 1);
        MPI_Iallreduce(&v[k], &sum[k], 1, MPI_INT, MPI_SUM, d, &rq[k]);
    }

    /* a ring: an edge of weight 1 to the next rank, 2 to the previous */
    int src[1] = {rank}, deg[1] = {2}, dst[2] = {next, prev}, wt[2] = {1, 2};
    MPI_Comm g;
    MPI_Dist_graph_create(d, 1, src, deg, dst, wt, MPI_INFO_NULL, it & 1, &g);
    MPI_Waitall(NPEND, rq, MPI_STATUSES_IGNORE);
    for (int k = 0; k < NPEND; k++) {
        int want = (it * NPEND + k + 1) * (size * (size + 1) / 2);
        if (sum[k] != want) {
            bad(rank, it, "an MPI_Iallreduce sum", sum[k], want);
        }
    }

    int indeg, outdeg, weighted;
    MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &weighted);
    if (2 != indeg || 2 != outdeg) {
        bad(rank, it, "indegree + 10 x outdegree", indeg + 10 * outdeg, 22);
    } else {
        int in[2], inw[2], out[2], outw[2];
        MPI_Dist_graph_neighbors(g, 2, in, inw, 2, out, outw);
        world_ranks(g, 2, in);
        world_ranks(g, 2, out);
        /* in: weight 1 from prev (its edge to its next), 2 from next */
        check_edge(rank, it, "the weight of the edge from the previous rank", in, inw, 2, prev, 1);
        check_edge(rank, it, "the weight of the edge from the next rank", in, inw, 2, next, 2);
        check_edge(rank, it, "the weight of the edge to the next rank", out, outw, 2, next, 1);
        check_edge(rank, it, "the weight of the edge to the previous rank", out, outw, 2, prev, 2);
    }
    MPI_Comm_free(&g);
}

int main(int argc, char **argv)
{
    int rank, size, all;
    int reps = argc > 1 ? atoi(argv[1]) : 10, iters = argc > 2 ? atoi(argv[2]) : 30;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 3) {
        if (0 == rank) {
            fprintf(stderr, "topo_tags: needs at least 3 ranks\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int rep = 0; rep < reps; rep++) {
        MPI_Comm d;    /* a duplicate of MPI_COMM_WORLD: same ranks, fresh tags */
        MPI_Comm_dup(MPI_COMM_WORLD, &d);
        for (int it = 0; it < iters; it++) {
            iteration(d, rank, size, it);
        }
        MPI_Comm_free(&d);
    }

    MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("topo_tags: %d graphs created with %d collectives pending, %d errors\n",
               reps * iters, NPEND, all);
    }
    MPI_Finalize();
    return 0 != all;
}
