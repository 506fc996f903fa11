/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * fcoll/la_twophase: collective write.  In each window the aggregator of a
 * file domain receives every process's pieces straight into its cycle
 * buffer, copies its own, and writes the covered ranges; a window holding
 * only its own data is written straight from its buffer.  The steps are in
 * fcoll_la_twophase_exchange.c.
 */

#include "ompi_config.h"

#include "mpi.h"
#include "fcoll_la_twophase.h"

/* One window of a write, in this order. */
static const mca_fcoll_la_twophase_xchg_step_t write_steps[] = {
    mca_fcoll_la_twophase_xchg_window,      /* aggregator: the blocks of my window */
    mca_fcoll_la_twophase_xchg_post_window, /* aggregator: receive them into the buffer */
    mca_fcoll_la_twophase_xchg_peers,       /* everyone: send my pieces to the others */
    mca_fcoll_la_twophase_xchg_own,         /* aggregator: copy mine in (unless direct) */
    mca_fcoll_la_twophase_xchg_wait,
    mca_fcoll_la_twophase_xchg_io,          /* aggregator: write the window */
    NULL
};

int mca_fcoll_la_twophase_file_write_all(ompio_file_t *fh, const void *buf,
                                         int count,
                                         struct ompi_datatype_t *datatype,
                                         ompi_status_public_t *status)
{
    return mca_fcoll_la_twophase_xchg_run(fh, buf, count, datatype, status, true, write_steps);
}
