/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The floor under OMPIO's error agreement (issue 35): how long an
 * MPI_Allreduce of one int takes to complete on every rank after the last
 * rank arrives late, as the agreement does after the slowest writer.
 * Each round: MPI_Barrier; rank r spins (r + 1) / np x WORK us, so the
 * last rank arrives last; MPI_Allreduce (MPI_MAX, one int).  Latency = the
 * last rank's return - the last rank's arrival, on CLOCK_MONOTONIC (all
 * ranks on one node).  Rank 0 prints the median and the 10th and 90th
 * percentiles over the rounds.
 *
 *   mpicc -O2 -Itest/common -o allreduce_late bench/allreduce_late.c
 *   mpirun --oversubscribe -np 4 ./allreduce_late 3000 200
 *          [--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_allreduce_algorithm A]
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"

int main(int argc, char **argv)
{
    int rank, np, i, rounds;
    double work, *lat, t, mine[2], last[2] = {0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    rounds = argc > 1 ? atoi(argv[1]) : 3000;
    work = (argc > 2 ? atof(argv[2]) : 200) * 1e-6;
    if (rounds < 1 || work < 0) {
        if (0 == rank) fprintf(stderr, "usage: allreduce_late [ROUNDS >= 1] [WORK_US >= 0]\n");
        MPI_Finalize();
        return 2;
    }
    lat = xmalloc(rounds * sizeof(double));
    for (i = 0; i < rounds; i++) {
        int a = rank, b;
        MPI_Barrier(MPI_COMM_WORLD);
        t = test_now();
        while (test_now() - t < work * (rank + 1) / np) {
        }
        mine[0] = test_now();
        MPI_Allreduce(&a, &b, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        mine[1] = test_now();
        if (b != np - 1) {
            fprintf(stderr, "FAIL allreduce gave %d, not %d\n", b, np - 1);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        MPI_Reduce(mine, last, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        lat[i] = last[1] - last[0];
    }
    if (0 == rank) {
        qsort(lat, rounds, sizeof(double), test_cmp_double);
        printf("np=%d work=%.0fus rounds=%d median=%.1fus p10=%.1fus p90=%.1fus\n", np, work * 1e6,
               rounds, lat[rounds / 2] * 1e6, lat[rounds / 10] * 1e6, lat[9 * rounds / 10] * 1e6);
    }
    free(lat);
    MPI_Finalize();
    return 0;
}
