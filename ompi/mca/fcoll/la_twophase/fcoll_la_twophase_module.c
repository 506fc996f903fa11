/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * fcoll/la_twophase module: selection and per-file set-up.
 */

#include "ompi_config.h"

#include "mpi.h"
#include "fcoll_la_twophase.h"

static mca_fcoll_base_module_1_0_0_t la_twophase_module = {
    .fcoll_module_init = mca_fcoll_la_twophase_module_init,
    .fcoll_module_finalize = mca_fcoll_la_twophase_module_finalize,
    .fcoll_file_read_all = mca_fcoll_la_twophase_file_read_all,
    .fcoll_file_iread_all = NULL,   /* OMPIO falls back to individual I/O */
    .fcoll_file_write_all = mca_fcoll_la_twophase_file_write_all,
    .fcoll_file_iwrite_all = NULL,
    .fcoll_progress = NULL,
    .fcoll_request_free = NULL
};

int mca_fcoll_la_twophase_component_init_query(bool enable_progress_threads,
                                               bool enable_mpi_threads)
{
    (void) enable_progress_threads;
    (void) enable_mpi_threads;
    return OMPI_SUCCESS;
}

mca_fcoll_base_module_1_0_0_t *
mca_fcoll_la_twophase_component_file_query(ompio_file_t *fh, int *priority)
{
    (void) fh;
    *priority = mca_fcoll_la_twophase_priority;
    if (0 >= mca_fcoll_la_twophase_priority) {
        return NULL;
    }
    return &la_twophase_module;
}

int mca_fcoll_la_twophase_component_file_unquery(ompio_file_t *fh)
{
    (void) fh;
    return OMPI_SUCCESS;
}

int mca_fcoll_la_twophase_module_init(ompio_file_t *fh)
{
    (void) fh;
    return OMPI_SUCCESS;
}

int mca_fcoll_la_twophase_module_finalize(ompio_file_t *fh)
{
    mca_fcoll_la_twophase_cache_drop(fh);
    return OMPI_SUCCESS;
}
