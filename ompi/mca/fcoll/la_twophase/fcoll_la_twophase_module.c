/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * fcoll/la_twophase module: selection and per-file set-up.
 */

#include "ompi_config.h"

#include "opal/mca/common/suite/suite_compat.h"
#include SUITE_THREADS_MUTEX_H

#include "mpi.h"
#include <stdio.h>

#include "opal/mca/common/suite/common_suite.h"
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

/* Out-of-range parameters: rank 0 of the first file opened says so, every
 * process uses a valid value instead (the values the collective calls use
 * are fixed here, the only place they are checked). */
static void check_params(int rank)
{
    /* under a lock: a thread opening a file while another checks must
     * not plan with the unchecked values */
    static opal_mutex_t lock = OPAL_MUTEX_STATIC_INIT;
    static bool checked = false;
    char outcome[64];
    int v, use;
    OPAL_THREAD_LOCK(&lock);
    if (checked) {
        OPAL_THREAD_UNLOCK(&lock);
        return;
    }
    v = mca_fcoll_la_twophase_cycle_buffer_size;
    use = v < MCA_FCOLL_LA_TWOPHASE_CYCLE_MIN ? MCA_FCOLL_LA_TWOPHASE_CYCLE_MIN
                                              : MCA_FCOLL_LA_TWOPHASE_CYCLE_MAX;
    snprintf(outcome, sizeof(outcome), "using %d instead", use);
    if (!common_suite_int_in_range("fcoll_la_twophase_cycle_buffer_size", v,
                                   MCA_FCOLL_LA_TWOPHASE_CYCLE_MIN,
                                   MCA_FCOLL_LA_TWOPHASE_CYCLE_MAX, 0 == rank, outcome)) {
        mca_fcoll_la_twophase_cycle_buffer_size = use;
    }
    /* -1 or >= 1: not one range, so its own message */
    v = mca_fcoll_la_twophase_num_aggregators;
    if (0 == v || v < -1) {
        if (0 == rank) {
            common_suite_show_help("help-fcoll-la_twophase.txt", "bad num aggregators", v);
        }
        mca_fcoll_la_twophase_num_aggregators = MCA_FCOLL_LA_TWOPHASE_AGGR_AUTO;
    }
    checked = true;
    OPAL_THREAD_UNLOCK(&lock);
}

mca_fcoll_base_module_1_0_0_t *
mca_fcoll_la_twophase_component_file_query(ompio_file_t *fh, int *priority)
{
    *priority = mca_fcoll_la_twophase_priority;
    if (0 >= mca_fcoll_la_twophase_priority) {
        return NULL;
    }
    check_params(fh->f_rank);
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
