/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * fcoll/la_twophase module: selection and per-file set-up.
 */

#include "ompi_config.h"

#include "mpi.h"
#include <stdlib.h>

#include "opal/util/output.h"
#include "opal/util/show_help.h"
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

/* show_help text printed by this process itself: Open MPI 4.1.4 with this
 * PMIx loses show_help messages forwarded to mpirun ("Data unpack would
 * read past end of buffer" in orte/util/show_help.c), so the message is
 * formatted here and written on the local output stream. */
#define LAT_HELP(topic, ...) do {                                             \
        char *msg_ = opal_show_help_string("help-fcoll-la_twophase.txt", (topic), \
                                           true, __VA_ARGS__);                \
        if (NULL != msg_) {                                                   \
            opal_output(0, "%s", msg_);                                       \
            free(msg_);                                                       \
        }                                                                     \
    } while (0)

/* Out-of-range parameters: rank 0 of the first file opened says so, every
 * process uses a valid value instead (the values the collective calls use
 * are fixed here). */
static void check_params(int rank)
{
    static bool checked = false;
    int v;
    if (checked) {
        return;
    }
    checked = true;
    v = mca_fcoll_la_twophase_cycle_buffer_size;
    if (v < 4096 || v > (1 << 30)) {
        int use = v < 4096 ? 4096 : (1 << 30);
        if (0 == rank) {
            LAT_HELP("bad cycle buffer", v, use);
        }
        mca_fcoll_la_twophase_cycle_buffer_size = use;
    }
    v = mca_fcoll_la_twophase_num_aggregators;
    if (0 == v || v < -1) {
        if (0 == rank) {
            LAT_HELP("bad num aggregators", v);
        }
        mca_fcoll_la_twophase_num_aggregators = -1;
    }
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
