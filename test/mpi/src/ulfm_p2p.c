/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Point-to-point with a failed process under ULFM (mpirun --with-ft ulfm,
 * Open MPI 5.0), through the suite's defaults (ob1's peer slots, patch
 * 0029; the early check's fast path while nothing failed, patch 0031):
 * rank 1 kills itself after a barrier; rank 0 sends to it until a send
 * fails, which must be with MPIX_ERR_PROC_FAILED within 20 s, and then a
 * receive from MPI_ANY_SOURCE must fail at once with MPIX_ERR_PROC_FAILED
 * or MPIX_ERR_PROC_FAILED_PENDING, not wait for a message nobody sends.
 * Before the failure, messages between ranks 0 and 2 (if any) are checked.
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "check.h"

int main(int argc, char **argv)
{
    int rank, size, rc = MPI_SUCCESS, cls = 0, v = 7, tries;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2, "run on at least 2 ranks");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int r = 0; r < 10; r++) {          /* a ring while all are alive */
        int in = -1, out = rank * 100 + r;
        MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, r, &in, 1, MPI_INT, (rank + size - 1) % size, r,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(in == ((rank + size - 1) % size) * 100 + r, "ring round %d: got %d", r, in);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (1 == rank) {
        raise(SIGKILL);
    }
    if (0 == rank) {
        for (tries = 0; tries < 400 && MPI_SUCCESS == rc; tries++) {
            usleep(50000);
            rc = MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        }
        MPI_Error_class(rc, &cls);
        CHECK(MPIX_ERR_PROC_FAILED == cls, "a send to a killed rank: error class %d after %d tries "
              "(expected MPIX_ERR_PROC_FAILED, %d)", cls, tries, MPIX_ERR_PROC_FAILED);
        rc = MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Error_class(rc, &cls);
        CHECK(MPIX_ERR_PROC_FAILED == cls || MPIX_ERR_PROC_FAILED_PENDING == cls,
              "a wildcard receive with a failure not acknowledged: error class %d", cls);
        printf("ulfm_p2p: failure reported after %d sends; wildcard receive: class %d: ok\n", tries, cls);
        fflush(stdout);
    }
    /* no MPI_Finalize: its barrier would wait for the dead rank */
    _exit(0);
}
