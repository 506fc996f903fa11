/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * What the redist base's files share and components do not see: message
 * tags on the private communicator, execute's waits, the MPI class of an
 * internal error.
 */
#ifndef OMPI_MCA_REDIST_BASE_PRIVATE_H
#define OMPI_MCA_REDIST_BASE_PRIVATE_H

#define TAG_DATA 1
#define TAG_READY 2
#define TAG_ABORT 3   /* "an execute failed here": one int, an MPI error class */

#define DT_INT (&ompi_mpi_int.dt)

/* Execute's waits (redist_base_moves.c): for all n requests / any one,
 * unless another process reports a failure first (then
 * OMPI_REDIST_PEER_FAILED, the requests left to ompi_redist_base_abort). */
int ompi_redist_base_wait_any(ompi_redist_t *rd, int n, ompi_request_t **reqs, int *idx);

/* The MPI error class of an OMPI error code (redist_base_create.c). */
int ompi_redist_base_mpi_class(int rc);

/* Staging block k as a block address (blocks a stride apart, so that a
 * run of them is m * count elements of the type). */
static inline char *ompi_redist_base_stage(const ompi_redist_t *rd, int k)
{
    return rd->stage + (ptrdiff_t) k * rd->stride - rd->span_lb;
}

#endif
