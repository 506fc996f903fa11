/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Showcase: a ring exchange and a reduction, checked, on whatever transport
 * and components the MCA parameters select.  Exits non-zero if any check fails.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, len, ok = 1, all_ok;
    char host[MPI_MAX_PROCESSOR_NAME], lib[MPI_MAX_LIBRARY_VERSION_STRING];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(host, &len);

    /* Pass a token around the ring; each rank adds its rank + 1. */
    long token = 0;
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    if (0 == rank) {
        token = 1;
        MPI_Send(&token, 1, MPI_LONG, next, 7, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_LONG, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ok = (token == (long)size * (size + 1) / 2);
    } else {
        MPI_Recv(&token, 1, MPI_LONG, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        token += rank + 1;
        MPI_Send(&token, 1, MPI_LONG, next, 7, MPI_COMM_WORLD);
    }

    /* A 1 MB allreduce, large enough to use the rendezvous protocol. */
    enum { N = 1 << 17 };
    static double in[N], out[N];
    for (int i = 0; i < N; i++) in[i] = rank + i * 0.5;
    MPI_Allreduce(in, out, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < N; i++) {
        double want = (double)size * (size - 1) / 2 + (double)size * i * 0.5;
        if (out[i] != want) { ok = 0; break; }
    }

    printf("showcase: rank %d of %d on %s: %s\n", rank, size, host,
           ok ? "ring and allreduce correct" : "WRONG RESULT");
    fflush(stdout);
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (0 == rank) {
        MPI_Get_library_version(lib, &len);
        lib[strcspn(lib, ",\n")] = '\0';
        printf("showcase: %s: %s\n", lib, all_ok ? "all ranks agree" : "FAILED");
    }
    MPI_Finalize();
    return all_ok ? 0 : 1;
}
