/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The work pml/zcomp adds to a message it sends raw, counted in
 * instructions (bench/zcomp-overhead.sh runs this under callgrind): one
 * process sends N messages of SIZE bytes to itself, Irecv + Send + Wait,
 * inside loop(), the only function callgrind counts.  Instructions do not
 * scatter from run to run as times do on a shared machine, so two counts
 * (N1 and N2 messages) give the per-message cost exactly, the start-up
 * cancelled out.
 *
 *   zcomp_overhead N SIZE [int|byte|double]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* noinline: callgrind's --toggle-collect needs the function to exist */
__attribute__((noinline)) void loop(int n, const void *a, void *b, int count, MPI_Datatype t)
{
    MPI_Request q;
    int i;
    for (i = 0; i < n; i++) {
        MPI_Irecv(b, count, t, 0, 0, MPI_COMM_WORLD, &q);
        MPI_Send(a, count, t, 0, 0, MPI_COMM_WORLD);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    }
}

int main(int argc, char **argv)
{
    int n, size, tsize, count;
    MPI_Datatype t = MPI_INT;
    char *a, *b;

    if (argc < 3) {
        fprintf(stderr, "usage: zcomp_overhead N SIZE [int|byte|double]\n");
        return 2;
    }
    n = atoi(argv[1]);
    size = atoi(argv[2]);
    if (argc > 3 && 0 == strcmp(argv[3], "byte")) {
        t = MPI_BYTE;
    } else if (argc > 3 && 0 == strcmp(argv[3], "double")) {
        t = MPI_DOUBLE;
    }
    MPI_Init(&argc, &argv);
    MPI_Type_size(t, &tsize);
    count = size / tsize;
    a = calloc((size_t) size + 1, 1);
    b = calloc((size_t) size + 1, 1);
    loop(n, a, b, count, t);
    if (0 != memcmp(a, b, (size_t) size)) {
        fprintf(stderr, "zcomp_overhead: data differ\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
