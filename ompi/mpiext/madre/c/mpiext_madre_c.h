/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MADRE: memory-aware data redistribution (MPI extension "madre").
 *
 * Every rank of an intracommunicator holds one contiguous buffer of
 * nblocks slots, each slot count elements of type.  Slot i's block moves to
 * slot dest_slot[i] of rank dest_rank[i]; dest_rank[i] == MPIX_REDIST_FREE
 * marks slot i free (no block in it).  The move happens in place: no second
 * buffer, extra memory O(ranks + blocks) per process plus at most two
 * blocks.  Slots that no block targets hold unspecified data afterwards.
 *
 * All calls are collective.  Errors come back through the communicator's
 * error handler with the same error class on every rank; a failed create
 * leaves every buffer as it was (every check and every refusal happens
 * there).  Execute fails only if communication itself fails, and the
 * buffers' contents are then undefined.
 */

typedef struct ompi_redist_t *MPIX_Redist;

#define MPIX_REDIST_NULL ((MPIX_Redist) 0)
/* dest_rank value of a free slot */
#define MPIX_REDIST_FREE (-1)

/* Validate the map, agree on a schedule and allocate everything execute
 * needs.  The map arrays are read only here; buf and type must stay valid
 * until MPIX_Redist_free.  Info key "redist_component" picks a component
 * for this redistributor (default: the redist framework's selection). */
OMPI_DECLSPEC int MPIX_Redist_create(void *buf, int nblocks, int count, MPI_Datatype type,
                                     const int dest_rank[], const int dest_slot[],
                                     MPI_Info info, MPI_Comm comm, MPIX_Redist *rd);
/* Move every block to its slot.  Allocates nothing.  Executing again
 * moves the buffer's current contents of the live slots (those whose
 * dest_rank was not MPIX_REDIST_FREE) by the same map. */
OMPI_DECLSPEC int MPIX_Redist_execute(MPIX_Redist rd);
/* Release the redistributor; *rd becomes MPIX_REDIST_NULL. */
OMPI_DECLSPEC int MPIX_Redist_free(MPIX_Redist *rd);
/* create + execute + free in one call. */
OMPI_DECLSPEC int MPIX_Redistribute(void *buf, int nblocks, int count, MPI_Datatype type,
                                    const int dest_rank[], const int dest_slot[],
                                    MPI_Info info, MPI_Comm comm);
