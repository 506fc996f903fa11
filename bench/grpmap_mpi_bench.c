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

#define BATCHES 15

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t) n, sizeof(double), cmpd);
    return v[n / 2];
}

int main(int argc, char **argv)
{
    int me, np, b, i, reps = argc > 1 ? atoi(argv[1]) : 2000, provided, num, groups_idx = -1;
    double create[BATCHES], pp[BATCHES], ag[BATCHES], ppw[BATCHES], agw[BATCHES], t;
    long long buf[64] = {0}, v = 0;
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
        MPI_T_pvar_get_num(&num);
        for (i = 0; i < num; i++) {
            char n[256], d[256];
            int nl = sizeof(n), dl = sizeof(d), verb, cls, bind, ro, cont, atom;
            MPI_Datatype dt;
            MPI_T_enum en;
            MPI_T_pvar_get_info(i, n, &nl, &verb, &cls, &dt, &en, d, &dl, &bind, &ro, &cont, &atom);
            if (0 == strcmp(n, "grpmap_base_groups")) {
                groups_idx = i;
            }
        }
        if (groups_idx >= 0) {
            MPI_T_pvar_session s;
            MPI_T_pvar_handle h;
            int count;
            MPI_T_pvar_session_create(&s);
            MPI_T_pvar_handle_alloc(s, groups_idx, NULL, &h, &count);
            MPI_T_pvar_read(s, h, &groups);
            MPI_T_pvar_handle_free(s, &h);
            MPI_T_pvar_session_free(&s);
        }
    }
    {
        int r;
        MPI_Comm_rank(c, &r);
        for (b = 0; b < BATCHES; b++) {
            MPI_Barrier(c);
            t = MPI_Wtime();
            for (i = 0; i < reps; i++) {
                if (0 == r) {
                    MPI_Send(&v, 1, MPI_LONG_LONG, 1, 0, c);
                    MPI_Recv(&v, 1, MPI_LONG_LONG, 1, 0, c, MPI_STATUS_IGNORE);
                } else if (1 == r) {
                    MPI_Recv(&v, 1, MPI_LONG_LONG, 0, 0, c, MPI_STATUS_IGNORE);
                    MPI_Send(&v, 1, MPI_LONG_LONG, 0, 0, c);
                }
            }
            pp[b] = (MPI_Wtime() - t) / reps * 1e6;
            MPI_Bcast(&pp[b], 1, MPI_DOUBLE, 0, c);
            /* the same two processes (world ranks np - 1, np - 2) on
             * MPI_COMM_WORLD */
            MPI_Barrier(MPI_COMM_WORLD);
            t = MPI_Wtime();
            for (i = 0; i < reps; i++) {
                if (np - 1 == me) {
                    MPI_Send(&v, 1, MPI_LONG_LONG, np - 2, 0, MPI_COMM_WORLD);
                    MPI_Recv(&v, 1, MPI_LONG_LONG, np - 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else if (np - 2 == me) {
                    MPI_Recv(&v, 1, MPI_LONG_LONG, np - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(&v, 1, MPI_LONG_LONG, np - 1, 0, MPI_COMM_WORLD);
                }
            }
            ppw[b] = (MPI_Wtime() - t) / reps * 1e6;
            MPI_Bcast(&ppw[b], 1, MPI_DOUBLE, np - 1, MPI_COMM_WORLD);
            ppw[b] = pp[b] / ppw[b];
        }
        for (b = 0; b < BATCHES; b++) {
            MPI_Barrier(c);
            t = MPI_Wtime();
            for (i = 0; i < reps / 10; i++) {
                MPI_Allgather(&v, 1, MPI_LONG_LONG, buf, 1, MPI_LONG_LONG, c);
            }
            ag[b] = (MPI_Wtime() - t) / (reps / 10) * 1e6;
            MPI_Allreduce(MPI_IN_PLACE, &ag[b], 1, MPI_DOUBLE, MPI_MAX, c);
            MPI_Barrier(MPI_COMM_WORLD);
            t = MPI_Wtime();
            for (i = 0; i < reps / 10; i++) {
                MPI_Allgather(&v, 1, MPI_LONG_LONG, buf, 1, MPI_LONG_LONG, MPI_COMM_WORLD);
            }
            agw[b] = (MPI_Wtime() - t) / (reps / 10) * 1e6;
            MPI_Allreduce(MPI_IN_PLACE, &agw[b], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            agw[b] = ag[b] / agw[b];
        }
    }
    MPI_Allreduce(MPI_IN_PLACE, create, BATCHES, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (0 == me) {
        printf("form %s create_us %.3f pingpong_us %.3f allgather_us %.3f pp_vs_world %.4f "
               "ag_vs_world %.4f\n",
               groups > 0 ? "compressed" : "dense", median(create, BATCHES), median(pp, BATCHES),
               median(ag, BATCHES), median(ppw, BATCHES), median(agw, BATCHES));
    }
    MPI_Comm_free(&c);
    MPI_T_finalize();
    MPI_Finalize();
    return 0;
}
