/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap's MPI-level cost: on a communicator of every rank in reversed
 * order (held compressed or dense, as the MCA parameters of the run say),
 * the time to create and free it (MPI_Comm_split), ping-pong of 8 bytes
 * between ranks 0 and 1, and MPI_Allgather of 8 bytes a rank.  Each figure
 * is the median of BATCHES batches; bench/grpmap_mpi_bench.sh runs it with
 * and without compression, interleaved, and prints the ratios.  Each batch
 * is also run on MPI_COMM_WORLD (its group is the world's dense table),
 * same pair of processes, right after: the ratio of the two in the same
 * process (median over batches) is immune to the run-to-run noise of 8
 * processes on few cores.
 * Prints one line: "form <name> create_us <> pingpong_us <> allgather_us <>
 * pp_vs_world <> ag_vs_world <>".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mpi_pvar.h"

#define BATCHES 15

/* us a call on comm, over calls after a barrier, of: a round trip of 8
 * bytes between ranks a and b (me: the caller's rank there), or with a <
 * 0 an MPI_Allgather of 8 bytes a rank (into buf) */
static double time_us(MPI_Comm comm, int me, int a, int b, long long *buf, int calls)
{
    long long v = 0;
    double t;
    int i;
    MPI_Barrier(comm);
    t = MPI_Wtime();
    if (a < 0) {
        for (i = 0; i < calls; i++) {
            MPI_Allgather(&v, 1, MPI_LONG_LONG, buf, 1, MPI_LONG_LONG, comm);
        }
    } else {
        for (i = 0; i < calls; i++) {
            if (a == me) {
                MPI_Send(&v, 1, MPI_LONG_LONG, b, 0, comm);
                MPI_Recv(&v, 1, MPI_LONG_LONG, b, 0, comm, MPI_STATUS_IGNORE);
            } else if (b == me) {
                MPI_Recv(&v, 1, MPI_LONG_LONG, a, 0, comm, MPI_STATUS_IGNORE);
                MPI_Send(&v, 1, MPI_LONG_LONG, a, 0, comm);
            }
        }
    }
    return (MPI_Wtime() - t) / calls * 1e6;
}

int main(int argc, char **argv)
{
    int me, np, b, i, reps = argc > 1 ? atoi(argv[1]) : 2000, provided, groups_idx;
    double create[BATCHES], pp[BATCHES], ag[BATCHES], ppw[BATCHES], agw[BATCHES], t;
    long long buf[64] = {0};
    unsigned long long groups = 0;
    MPI_Comm c;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    for (b = 0; b < BATCHES; b++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t = MPI_Wtime();
        for (i = 0; i < 50; i++) {
            MPI_Comm_split(MPI_COMM_WORLD, 0, np - me, &c);
            MPI_Comm_free(&c);
        }
        create[b] = (MPI_Wtime() - t) / 50 * 1e6;
    }
    MPI_Comm_split(MPI_COMM_WORLD, 0, np - me, &c);
    {
        /* is the communicator's group really held as the run says? */
        MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
        groups_idx = test_pvar_index("grpmap_base_groups", NULL, NULL);
        if (groups_idx >= 0) {
            test_pvar_read_once(groups_idx, &groups);
        }
    }
    {
        int r;
        MPI_Comm_rank(c, &r);
        for (b = 0; b < BATCHES; b++) {
            pp[b] = time_us(c, r, 0, 1, NULL, reps);
            MPI_Bcast(&pp[b], 1, MPI_DOUBLE, 0, c);
            /* the same two processes (world ranks np - 1, np - 2) on
             * MPI_COMM_WORLD */
            ppw[b] = time_us(MPI_COMM_WORLD, me, np - 1, np - 2, NULL, reps);
            MPI_Bcast(&ppw[b], 1, MPI_DOUBLE, np - 1, MPI_COMM_WORLD);
            ppw[b] = pp[b] / ppw[b];
        }
        for (b = 0; b < BATCHES; b++) {
            ag[b] = time_us(c, r, -1, -1, buf, reps / 10);
            MPI_Allreduce(MPI_IN_PLACE, &ag[b], 1, MPI_DOUBLE, MPI_MAX, c);
            agw[b] = time_us(MPI_COMM_WORLD, me, -1, -1, buf, reps / 10);
            MPI_Allreduce(MPI_IN_PLACE, &agw[b], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            agw[b] = ag[b] / agw[b];
        }
    }
    MPI_Allreduce(MPI_IN_PLACE, create, BATCHES, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (0 == me) {
        printf("form %s create_us %.3f pingpong_us %.3f allgather_us %.3f pp_vs_world %.4f "
               "ag_vs_world %.4f\n",
               groups > 0 ? "compressed" : "dense", test_median(create, BATCHES),
               test_median(pp, BATCHES), test_median(ag, BATCHES), test_median(ppw, BATCHES),
               test_median(agw, BATCHES));
    }
    MPI_Comm_free(&c);
    MPI_T_finalize();
    MPI_Finalize();
    return 0;
}
