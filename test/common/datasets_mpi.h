/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The MPI datatype of a data set's elements (datasets.h), for the MPI
 * tests and benchmarks that send them: pml/zcomp picks its codecs by it.
 */
#ifndef TEST_COMMON_DATASETS_MPI_H
#define TEST_COMMON_DATASETS_MPI_H

#include <mpi.h>
#include <string.h>

#include "datasets.h"

static inline MPI_Datatype dataset_mpi_type(const dataset_t *d)
{
    if (0 == strncmp(d->name, "float", 5)) {
        return MPI_FLOAT;
    }
    if (8 == d->elem_size) {
        return MPI_DOUBLE;
    }
    if (4 == d->elem_size) {
        return MPI_INT;
    }
    return MPI_BYTE;
}

#endif
