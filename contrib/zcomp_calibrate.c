/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * zcomp_calibrate: measure the bandwidth of the path between every pair of
 * ranks and write the calibration file pml/zcomp's adaptive strategy starts
 * from (pml_zcomp_calibration_file).  Each pair exchanges, in turn, messages
 * of random bytes (incompressible: run it with zcomp off or on, it does not
 * matter) and times a one-way transfer closed by an empty reply; the best
 * of --reps is kept.  Launch it the way the application runs (same hosts,
 * same BTLs), for example:
 *
 *   mpicc -O2 -o zcomp_calibrate contrib/zcomp_calibrate.c
 *   mpirun -np 4 --mca btl tcp,self ./zcomp_calibrate zcomp.cal [--bytes N] [--reps N]
 *   mpirun --mca pml_zcomp_enable 1 --mca pml_zcomp_calibration_file zcomp.cal ...
 *
 * File format: "# comments", then lines "<src rank> <dst rank> <MB/s>"
 * (ranks of MPI_COMM_WORLD, which are the processes' vpids).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, i, j, r, reps = 3;
    long bytes = 8 << 20;
    const char *out = NULL;
    unsigned char *buf;
    double *bw;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 1; i < argc; i++) {
        if (0 == strcmp(argv[i], "--bytes") && i + 1 < argc) {
            bytes = atol(argv[++i]);
        } else if (0 == strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
        } else {
            out = argv[i];
        }
    }
    if (NULL == out) {
        if (0 == rank) {
            fprintf(stderr, "usage: zcomp_calibrate FILE [--bytes N] [--reps N]\n");
        }
        MPI_Finalize();
        return 2;
    }
    buf = malloc((size_t) bytes);
    srand(1234 + rank);
    for (i = 0; i < bytes; i++) {
        buf[i] = (unsigned char) rand();
    }
    bw = calloc((size_t) size * size, sizeof(double));
    for (i = 0; i < size; i++) {
        for (j = 0; j < size; j++) {
            double best = 1e30;
            if (i == j) {
                continue;
            }
            for (r = 0; r <= reps; r++) {
                double t0;
                MPI_Barrier(MPI_COMM_WORLD);
                t0 = MPI_Wtime();
                if (rank == i) {
                    MPI_Send(buf, (int) bytes, MPI_BYTE, j, 1, MPI_COMM_WORLD);
                    MPI_Recv(NULL, 0, MPI_BYTE, j, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    if (r > 0 && MPI_Wtime() - t0 < best) {
                        best = MPI_Wtime() - t0;
                    }
                } else if (rank == j) {
                    MPI_Recv(buf, (int) bytes, MPI_BYTE, i, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(NULL, 0, MPI_BYTE, i, 2, MPI_COMM_WORLD);
                }
            }
            if (rank == i) {
                bw[i * size + j] = bytes / best / 1e6;
            }
        }
    }
    MPI_Allreduce(MPI_IN_PLACE, bw, size * size, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (0 == rank) {
        FILE *f = fopen(out, "w");
        if (NULL == f) {
            perror(out);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        fprintf(f, "# pml/zcomp calibration: <src rank> <dst rank> <MB/s>, %ld-byte transfers\n",
                bytes);
        for (i = 0; i < size; i++) {
            for (j = 0; j < size; j++) {
                if (i != j) {
                    fprintf(f, "%d %d %.1f\n", i, j, bw[i * size + j]);
                }
            }
        }
        fclose(f);
        printf("zcomp_calibrate: wrote %s (%d paths)\n", out, size * (size - 1));
    }
    free(buf);
    free(bw);
    MPI_Finalize();
    return 0;
}
