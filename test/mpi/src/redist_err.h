/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The name of an MPI error class, for the redist test programs' messages.
 */
#ifndef REDIST_ERR_H
#define REDIST_ERR_H

#include <mpi.h>
#include <stdio.h>

static inline const char *err_name(int cls)
{
    static char s[32];
    switch (cls) {
    case MPI_SUCCESS: return "MPI_SUCCESS";
    case MPI_ERR_COUNT: return "MPI_ERR_COUNT";
    case MPI_ERR_TYPE: return "MPI_ERR_TYPE";
    case MPI_ERR_COMM: return "MPI_ERR_COMM";
    case MPI_ERR_RANK: return "MPI_ERR_RANK";
    case MPI_ERR_ARG: return "MPI_ERR_ARG";
    case MPI_ERR_OTHER: return "MPI_ERR_OTHER";
    case MPI_ERR_NO_MEM: return "MPI_ERR_NO_MEM";
    case MPI_ERR_INTERN: return "MPI_ERR_INTERN";
    }
    snprintf(s, sizeof(s), "class %d", cls);
    return s;
}

#endif
