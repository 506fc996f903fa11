/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Prints, from every rank, the value a running job sees for the MCA variables
 * named on the command line, read through MPI_T as "rank R: NAME=VALUE".
 * Only integer-like and string variables are supported.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int provided, rank, ncvars, rc = 0;
    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_T_cvar_get_num(&ncvars);

    for (int a = 1; a < argc; a++) {
        int found = 0;
        for (int i = 0; i < ncvars && !found; i++) {
            char name[256], desc[1024];
            int nlen = sizeof(name), dlen = sizeof(desc), verb, bind, scope, count;
            MPI_Datatype dt;
            MPI_T_enum en;
            MPI_T_cvar_get_info(i, name, &nlen, &verb, &dt, &en, desc, &dlen, &bind, &scope);
            if (strcmp(name, argv[a]) != 0) continue;
            found = 1;
            MPI_T_cvar_handle h;
            MPI_T_cvar_handle_alloc(i, NULL, &h, &count);
            if (dt == MPI_INT || dt == MPI_UNSIGNED) {
                int v; MPI_T_cvar_read(h, &v);
                printf("rank %d: %s=%d\n", rank, name, v);
            } else if (dt == MPI_UNSIGNED_LONG || dt == MPI_UNSIGNED_LONG_LONG || dt == MPI_LONG_LONG) {
                unsigned long long v = 0; MPI_T_cvar_read(h, &v);
                printf("rank %d: %s=%llu\n", rank, name, v);
            } else if (dt == MPI_CHAR) {
                char v[4096] = ""; MPI_T_cvar_read(h, v);
                printf("rank %d: %s=%s\n", rank, name, v);
            } else {
                printf("rank %d: %s has an unsupported type\n", rank, name);
                rc = 1;
            }
            MPI_T_cvar_handle_free(&h);
        }
        if (!found) { printf("rank %d: %s not found\n", rank, argv[a]); rc = 1; }
    }
    MPI_T_finalize();
    MPI_Finalize();
    return rc;
}
