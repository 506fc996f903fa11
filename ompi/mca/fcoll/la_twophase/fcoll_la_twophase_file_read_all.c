/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * fcoll/la_twophase: collective read.  The aggregator of each file domain
 * reads the covered ranges of one window at a time into its cycle buffer
 * and sends every process its pieces; the processes receive straight into
 * their buffers.  The steps are in fcoll_la_twophase_exchange.c.
 */

#include "ompi_config.h"

#include "mpi.h"
#include "fcoll_la_twophase.h"

/* One window of a read, in this order. */
static const mca_fcoll_la_twophase_xchg_step_t read_steps[] = {
    mca_fcoll_la_twophase_xchg_peers,       /* everyone: post receives for my pieces */
    mca_fcoll_la_twophase_xchg_window,      /* aggregator: the blocks of my window */
    mca_fcoll_la_twophase_xchg_io,          /* aggregator: read it (direct: into my buffer) */
    mca_fcoll_la_twophase_xchg_post_window, /* aggregator: send each process its pieces */
    mca_fcoll_la_twophase_xchg_own,         /* aggregator: copy mine out (unless direct) */
    mca_fcoll_la_twophase_xchg_wait,
    NULL
};

int mca_fcoll_la_twophase_file_read_all(ompio_file_t *fh, void *buf,
                                        int count,
                                        struct ompi_datatype_t *datatype,
                                        ompi_status_public_t *status)
{
    return mca_fcoll_la_twophase_xchg_run(fh, buf, count, datatype, status, false, read_steps);
}
