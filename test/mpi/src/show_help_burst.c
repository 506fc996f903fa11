/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Every rank sends a show_help message at the same moment, ROUNDS times
 * (config/patches/4.1/0008-show-help-self-send-copy.patch, issue #23).  Run
 * with --mca osc pt2pt: under MPI_THREAD_MULTIPLE, osc pt2pt refuses each
 * MPI_Win_create with the show_help "The OSC pt2pt component does not
 * support MPI_THREAD_MULTIPLE" (help-osc-pt2pt.txt /
 * mpi-thread-multiple-not-supported), as mpi4py's tests hit it.  Errors
 * return (MPI_ERRORS_RETURN on MPI_COMM_WORLD), so the program goes on and
 * mpirun must receive size x ROUNDS help messages: it shows the first and
 * counts the others ("N more processes have sent help message").  Stock
 * 4.1.4's mpirun read some of them from freed memory ("ORTE_ERROR_LOG:
 * Data unpack would read past end of buffer in file
 * orte/util/show_help.c") and lost them.
 *
 *   show_help_burst ROUNDS
 * prints "show_help_burst: S ranks x R rounds, F window creations refused"
 * (F = S x R expected), or "show_help_burst: no MPI_THREAD_MULTIPLE".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int provided, rank, size, rounds, refused = 0, buf = 0, i, rc, cls;
    MPI_Win win;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    rounds = argc > 1 ? atoi(argv[1]) : 1;
    if (provided != MPI_THREAD_MULTIPLE) {
        if (0 == rank) {
            printf("show_help_burst: no MPI_THREAD_MULTIPLE\n");
        }
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (i = 0; i < rounds; i++) {
        /* all ranks at once */
        MPI_Barrier(MPI_COMM_WORLD);
        rc = MPI_Win_create(&buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
        if (MPI_SUCCESS == rc) {
            if (0 == i && 0 == rank) {
                printf("show_help_burst: MPI_Win_create succeeded (osc pt2pt not selected?)\n");
            }
            MPI_Win_free(&win);
        } else {
            MPI_Error_class(rc, &cls);
            if (0 == i && 0 == rank) {
                printf("show_help_burst: MPI_Win_create refused, error class %d\n", cls);
            }
            refused++;
        }
    }
    MPI_Allreduce(MPI_IN_PLACE, &refused, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("show_help_burst: %d ranks x %d rounds, %d window creations refused\n",
               size, rounds, refused);
    }
    MPI_Finalize();
    return 0;
}
