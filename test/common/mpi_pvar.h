/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MPI_T performance variables by name, for the MPI tests and benchmarks
 * (after MPI_T_init_thread).
 */
#ifndef TEST_COMMON_MPI_PVAR_H
#define TEST_COMMON_MPI_PVAR_H

#include <mpi.h>
#include <string.h>

/* The index of the performance variable name, -1 when there is none;
 * *type and *continuous (either may be NULL) get its datatype and whether
 * it runs without MPI_T_pvar_start. */
static inline int test_pvar_index(const char *name, MPI_Datatype *type, int *continuous)
{
    int n, i;
    MPI_T_pvar_get_num(&n);
    for (i = 0; i < n; i++) {
        char vname[256], desc[1024];
        int nlen = sizeof(vname), dlen = sizeof(desc), verb, cls, bind, ro, cont, atomic;
        MPI_Datatype dt;
        MPI_T_enum en;
        if (MPI_SUCCESS == MPI_T_pvar_get_info(i, vname, &nlen, &verb, &cls, &dt, &en, desc,
                                               &dlen, &bind, &ro, &cont, &atomic)
            && 0 == strcmp(vname, name)) {
            if (NULL != type) {
                *type = dt;
            }
            if (NULL != continuous) {
                *continuous = cont;
            }
            return i;
        }
    }
    return -1;
}

/* Reads variable idx once into *value (of its datatype) through a session
 * and handle of its own.  Not for counters (MPI_T_PVAR_CLASS_COUNTER and
 * the other summing classes): their handle counts from its allocation, so
 * this reads 0; allocate the handle before the counted work instead. */
static inline void test_pvar_read_once(int idx, void *value)
{
    MPI_T_pvar_session s;
    MPI_T_pvar_handle h;
    int count;
    MPI_T_pvar_session_create(&s);
    MPI_T_pvar_handle_alloc(s, idx, NULL, &h, &count);
    MPI_T_pvar_read(s, h, value);
    MPI_T_pvar_handle_free(s, &h);
    MPI_T_pvar_session_free(&s);
}

#endif
