/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Communicator churn: keeps NLIVE duplicates of MPI_COMM_WORLD alive, then
 * creates and frees NCHURN more (dup, split, create_group in turn), checking
 * that every new communicator really communicates (an allreduce and a ring
 * exchange whose results are verified) and that its context id is unique
 * among the live ones is implied by correct delivery.  A sample of the live
 * communicators is exercised again at the end.  Prints
 * "comm_churn OK live=N churn=M" on rank 0.
 *
 * Usage: comm_churn NLIVE NCHURN
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int check(MPI_Comm c, int tag)
{
    int rank, size, sum = 0, want, token = -1;
    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
    want = size * (size - 1) / 2;
    int next = (rank + 1) % size, prev = (rank + size - 1) % size, mine = rank * 1000 + tag % 1000;
    MPI_Sendrecv(&mine, 1, MPI_INT, next, tag % 32768, &token, 1, MPI_INT, prev, tag % 32768, c,
                 MPI_STATUS_IGNORE);
    return sum == want && token == prev * 1000 + tag % 1000;
}

int main(int argc, char **argv)
{
    int nlive = argc > 1 ? atoi(argv[1]) : 1000, nchurn = argc > 2 ? atoi(argv[2]) : 10000;
    int rank, size, ok = 1, all_ok;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm *live = malloc(sizeof(MPI_Comm) * (nlive > 0 ? nlive : 1));
    MPI_Group world_group, half_group;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    int range[1][3] = {{0, size - 1, 2}};   /* even ranks */
    MPI_Group_range_incl(world_group, 1, range, &half_group);

    for (int i = 0; i < nlive; i++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &live[i]);
        if (i % 97 == 0) ok &= check(live[i], i);
    }
    for (int i = 0; i < nchurn; i++) {
        MPI_Comm c = MPI_COMM_NULL;
        switch (i % 3) {
        case 0: MPI_Comm_dup(MPI_COMM_WORLD, &c); break;
        case 1: MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &c); break;
        case 2:
            if (0 == rank % 2) MPI_Comm_create_group(MPI_COMM_WORLD, half_group, i, &c);
            break;
        }
        if (MPI_COMM_NULL != c) {
            ok &= check(c, i);
            MPI_Comm_free(&c);
        }
        if (!ok) { fprintf(stderr, "rank %d: communicator %d failed its check\n", rank, i); break; }
    }
    for (int i = 0; i < nlive; i += 1 + nlive / 50) ok &= check(live[i], i + 7);
    for (int i = 0; i < nlive; i++) MPI_Comm_free(&live[i]);
    MPI_Group_free(&half_group);
    MPI_Group_free(&world_group);
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (0 == rank) printf("comm_churn %s live=%d churn=%d\n", all_ok ? "OK" : "FAILED", nlive, nchurn);
    free(live);
    MPI_Finalize();
    return all_ok ? 0 : 1;
}
