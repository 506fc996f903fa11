/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Collective-write benchmark for fcoll components (bench/fcoll_bench.sh
 * runs it with la_twophase, two_phase and vulcan).
 *
 *   fcoll_bench FILE irregular|regular MB REPS
 *
 * irregular (BIPS3D-like): elements of 48 bytes; the file is cut into P
 *   equal regions; runs of 1..32 elements of region g belong (70 % of the
 *   runs) to rank (g + P/2 + 1) mod P -- locality, but not the rank
 *   two-phase picks as region g's aggregator -- and the rest are scattered
 *   runs of 1..8 elements of random ranks (about 10 % of the bytes, 1/P of
 *   which land on the right rank anyway).  Each rank writes its elements with one
 *   hindexed file view, contiguous in memory.
 * regular (STEM-like): 4 time steps; in each, rank r writes a contiguous
 *   block of MB/4/P MiB at step * MB/4 + r * block.
 *
 * Times are the slowest rank's, between barriers; the median of REPS
 * repetitions is printed.  REPS = 0 does one write and nothing else: run
 * so under --mca pml_monitoring_enable 2 --mca pml_monitoring_enable_output
 * 1 it gives the bytes and messages of one collective write (the script
 * sums the "E" lines Open MPI prints at MPI_Finalize).  With ASSIGN=1 in
 * the environment it also prints the slowest rank's la_twophase assignment
 * time of the first write (MPI_T fcoll_la_twophase_assign_time_last; not
 * together with pml monitoring, whose output MPI_T use turns off).
 */

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fcoll_workloads.h"
#include "mpi_pvar.h"

static int rank, nprocs;

/* fcoll_la_twophase_assign_time_last, or -1 when not found. */
static double assign_time_last(void)
{
    int i, provided;
    double v = -1.0;
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    i = test_pvar_index("fcoll_la_twophase_assign_time_last", NULL, NULL);
    if (i >= 0) {
        test_pvar_read_once(i, &v);
    }
    MPI_T_finalize();
    return v;
}

/* The slowest rank's seconds for one collective write (or read) of the
 * workload: one call on the file view ft, or steps calls of block bytes
 * (ft MPI_BYTE). */
static double timed_io(MPI_File fh, char *buf, MPI_Datatype ft, int64_t my, int64_t block,
                       int steps, int write)
{
    double t0, t, tmax;
    int s;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (s = 0; s < steps; s++) {
        MPI_Offset off = MPI_BYTE != ft ? 0 : (MPI_Offset) s * block * nprocs + rank * block;
        char *p = MPI_BYTE != ft ? buf : buf + s * block;
        int count = (int) (MPI_BYTE != ft ? my : block);
        if (write) {
            MPI_File_write_at_all(fh, off, p, count, MPI_BYTE, MPI_STATUS_IGNORE);
        } else {
            MPI_File_read_at_all(fh, off, p, count, MPI_BYTE, MPI_STATUS_IGNORE);
        }
    }
    t = MPI_Wtime() - t0;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return tmax;
}

int main(int argc, char **argv)
{
    const char *path, *wl;
    int64_t total, my = 0, i;
    int reps, r, steps = 1;
    fcoll_runs_t runs = {0, 0, NULL, NULL};
    char *buf;
    MPI_Datatype ft = MPI_BYTE;
    MPI_File fh;
    double *tw, *tr;
    int count_only;
    int64_t block = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 5) {
        if (0 == rank) {
            fprintf(stderr, "usage: fcoll_bench FILE irregular|regular MB REPS\n");
        }
        MPI_Finalize();
        return 2;
    }
    path = argv[1];
    wl = argv[2];
    total = (int64_t) atoi(argv[3]) << 20;
    reps = atoi(argv[4]);
    count_only = reps <= 0;
    if (count_only) {
        reps = 1;
    }

    if (0 == strcmp(wl, "irregular")) {
        my = fcoll_irregular(total, nprocs, rank, &runs);
        MPI_Type_create_hindexed(runs.n, runs.bl, runs.dp, MPI_BYTE, &ft);
        MPI_Type_commit(&ft);
    } else {
        steps = 4;
        block = total / steps / nprocs;
        my = block * steps;
    }
    buf = malloc((size_t) my + 1);
    for (i = 0; i < my; i++) {
        buf[i] = (char) (rank + i * 7);
    }
    tw = malloc(reps * sizeof(double));
    tr = malloc(reps * sizeof(double));

    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    if (MPI_BYTE != ft) {
        MPI_File_set_view(fh, 0, MPI_BYTE, ft, "native", MPI_INFO_NULL);
    }
    for (r = 0; r < reps; r++) {
        tw[r] = timed_io(fh, buf, ft, my, block, steps, 1);
        tr[r] = 0.0;
        if (0 == r && getenv("ASSIGN")) {
            double a = assign_time_last(), amax;
            MPI_Reduce(&a, &amax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            if (0 == rank) {
                printf("ASSIGN %d processes: slowest rank's assignment step %.3f ms\n",
                       nprocs, amax * 1e3);
            }
        }
        if (count_only) {
            break;
        }
        tr[r] = timed_io(fh, buf, ft, my, block, steps, 0);
    }
    MPI_File_close(&fh);
    /* check the data of the last read */
    if (!count_only) {
        int bad = 0, gbad;
        for (i = 0; i < my; i++) {
            if (buf[i] != (char) (rank + i * 7)) {
                bad = 1;
                break;
            }
        }
        MPI_Allreduce(&bad, &gbad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (gbad && 0 == rank) {
            printf("fcoll_bench: FAIL: read back differs\n");
        }
    }
    if (0 == rank) {
        printf("RESULT %s MB=%lld write_s=%.4f read_s=%.4f\n", wl,
               (long long) (total >> 20), test_median(tw, reps), test_median(tr, reps));
    }
    if (MPI_BYTE != ft) {
        MPI_Type_free(&ft);
    }
    free(buf);
    free(runs.bl);
    free(runs.dp);
    free(tw);
    free(tr);
    MPI_Finalize();
    return 0;
}
