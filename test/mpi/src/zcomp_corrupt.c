/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * A corrupt compressed message gives a clear error on the receiving
 * request, no crash and no write past the user's buffer, and the messages
 * after it still arrive.  Run with 2 ranks and pml_zcomp_corrupt_every=N
 * (the sender corrupts every Nth compressed chunk after checksumming it).
 *
 *   zcomp_corrupt NINTS NMSG     prints per message "msg <i> ok|error <class>"
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, n, nmsg, i, j, bad = 0;
    int *a;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    n = argc > 1 ? atoi(argv[1]) : 1000;
    nmsg = argc > 2 ? atoi(argv[2]) : 4;
    a = malloc(((size_t) n + 256) * sizeof(int));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (i = 0; i < nmsg; i++) {
        if (0 == rank) {
            for (j = 0; j < n; j++) {
                a[j] = (j % 10) ? 0 : j + i;
            }
            MPI_Send(a, n, MPI_INT, 1, i, MPI_COMM_WORLD);
        } else {
            MPI_Status st;
            int rc, cls, ok = 1, guard = 1;
            for (j = 0; j < 256; j++) {
                a[n + j] = 0x77777777;
            }
            rc = MPI_Recv(a, n, MPI_INT, 0, i, MPI_COMM_WORLD, &st);
            for (j = 0; j < 256; j++) {
                guard &= 0x77777777 == a[n + j];
            }
            if (!guard) {
                printf("msg %d OVERRUN past the user's buffer\n", i);
                bad = 1;
            }
            if (MPI_SUCCESS == rc) {
                for (j = 0; j < n; j++) {
                    ok &= a[j] == ((j % 10) ? 0 : j + i);
                }
                printf("msg %d %s\n", i, ok ? "ok" : "WRONG-DATA");
                bad |= !ok;
            } else {
                char s[MPI_MAX_ERROR_STRING];
                int l;
                MPI_Error_class(rc, &cls);
                MPI_Error_string(rc, s, &l);
                printf("msg %d error class %d (%s)\n", i, cls, s);
            }
            fflush(stdout);
        }
    }
    /* a small raw message still gets through */
    if (0 == rank) {
        MPI_Send(&n, 1, MPI_INT, 1, 999, MPI_COMM_WORLD);
    } else {
        int x = 0;
        MPI_Recv(&x, 1, MPI_INT, 0, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("after %s\n", x == n ? "ok" : "WRONG");
    }
    free(a);
    MPI_Finalize();
    return bad;
}
