/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The time of a communicator's life when its collectives are selected at
 * its first collective (patches 0028 and 0032) against selection at
 * creation (coll_base_lazy_select false): N times MPI_Comm_dup of WORLD,
 * an MPI_Allreduce on it, with MODE 1 also an MPI_Ibarrier (which makes
 * basic's and libnbc's modules again after the allreduce released them),
 * and MPI_Comm_free.  Prints rank 0's microseconds per iteration.
 *
 *   comm_firstcoll [MODE]     e.g. run it with --mca coll_base_lazy_select 0 and 1,
 *                             interleaved, and take the median ratio
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
    int n = 2000, r = 1, mode = argc > 1 ? argv[1][0] - '0' : 0;
    MPI_Init(&argc, &argv);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < n; i++) {
        MPI_Comm c; MPI_Request q;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        MPI_Allreduce(MPI_IN_PLACE, &r, 1, MPI_INT, MPI_MAX, c);
        if (mode) { MPI_Ibarrier(c, &q); MPI_Wait(&q, MPI_STATUS_IGNORE); }
        MPI_Comm_free(&c);
    }
    double t = (MPI_Wtime() - t0) / n * 1e6;
    int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (!rank) printf("%.2f\n", t);
    MPI_Finalize();
    return 0;
}
