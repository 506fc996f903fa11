/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * redist: memory-aware data redistribution (MADRE), the framework behind
 * the MPIX_Redist_* extension (ompi/mpiext/madre).
 *
 * The base validates a map, gathers each process's view of it (which of
 * its slots go where, which blocks come in) and owns the moves every
 * component is made of; a component only decides the order of those moves
 * (its schedule).  Data moves in two steps:
 *  1. between processes: a block leaves its slot and lands in any free slot
 *     of its destination process (its own target slot when that one is
 *     free), so a process needs free slots, not particular ones;
 *  2. within each process: one in-place permutation puts every block in its
 *     target slot (one staging block per cycle of that permutation).
 * Components that move blocks straight to their target slots (cycleshift)
 * use the slot-level helpers instead.
 */
#ifndef OMPI_MCA_REDIST_H
#define OMPI_MCA_REDIST_H

#include "ompi_config.h"

#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/request/request.h"
#include "opal/mca/base/base.h"
#include "opal/mca/mca.h"
#include "ompi/mca/redist/redist_actions.h"
#include "ompi/mca/redist/redist_slots.h"

BEGIN_C_DECLS

typedef struct ompi_redist_t ompi_redist_t;
struct mca_redist_base_component_1_0_0_t;

/* A component's schedule: create builds it (collective over rd->comm, all
 * processes return the same code; OMPI_ERR_NOT_SUPPORTED means this
 * component cannot complete this map and nothing moved), execute follows
 * it, release frees what create allocated. */
typedef int (*mca_redist_base_schedule_fn_t)(ompi_redist_t *rd);
typedef int (*mca_redist_base_execute_fn_t)(ompi_redist_t *rd);
typedef void (*mca_redist_base_release_fn_t)(ompi_redist_t *rd);

typedef struct mca_redist_base_module_1_0_0_t {
    mca_redist_base_schedule_fn_t schedule;
    mca_redist_base_execute_fn_t execute;
    mca_redist_base_release_fn_t release;
} mca_redist_base_module_1_0_0_t;
typedef mca_redist_base_module_1_0_0_t mca_redist_base_module_t;

typedef struct mca_redist_base_component_1_0_0_t {
    mca_base_component_t base_version;
    mca_base_component_data_t base_data;
    const mca_redist_base_module_t *module;
} mca_redist_base_component_1_0_0_t;
typedef mca_redist_base_component_1_0_0_t mca_redist_base_component_t;

#define MCA_REDIST_BASE_VERSION_1_0_0 OMPI_MCA_BASE_VERSION_2_1_0("redist", 1, 0, 0)

/* One redistributor.  Slot s of this process is buf + s * stride. */
struct ompi_redist_t {
    ompi_communicator_t *comm;  /* a private duplicate: no tag can clash */
    ompi_communicator_t *user_comm;  /* retained: its error handler reports */
    const mca_redist_base_component_t *component;
    char *buf;
    int nslots, count;
    ompi_datatype_t *type;
    ptrdiff_t stride;           /* count * extent */
    size_t block_bytes;         /* count * size: bytes of data per block */
    ptrdiff_t span_lb;          /* a block's bytes: [slot + span_lb, + span) */
    size_t span;
    int nprocs, me;
    int nlive;                  /* live slots at the start of an execute */

    /* The map from this process's side and which slot holds what (the
     * slot bookkeeping that execute and create's dry run share). */
    redist_slots_t sl;
    char *stage;                /* 2 * run_local blocks, a stride apart */
    int run_blocks;             /* a cycle's run: half the staging budget, in blocks (agreed) */
    int run_local;              /* this process's half stage: min(run_blocks, nslots), >= 1 */
    int *run_slots;             /* 4 * run_local: landing and target slots of two runs */
    ompi_request_t **tok_reqs;  /* per peer: its "ready" message */
    int *tok_val;               /* 2n: the tokens, then run starts */
    int ready_sends;            /* unitcyclic: sends in ready mode */
    int aggregate;              /* one message per action (act_type) */
    ompi_datatype_t *block_type;  /* count elements of type */
    ompi_datatype_t **act_type;   /* per action: its slots; NULL for cycles */
    int nact_type;
    int *land;                  /* nslots + 1: where an action's blocks land */
    ompi_request_t **reqs;      /* request_limit + 4 requests */
    void *flow;                 /* aggregate: runs of plain actions (redist_base_actions.c) */
    int request_limit;
    /* a failure in execute: every process hears of it and returns the
     * same class (redist_base_create.c: rd_finish_execute) */
    ompi_request_t *abort_req;  /* the receive of another process's word */
    ompi_request_t **tell;      /* nprocs: this process's words to the others */
    int abort_in, abort_out;    /* their payloads (an MPI error class) */
    int broken;                 /* an execute failed: only free works */

    const int *dest_rank, *dest_slot;  /* the caller's map: during schedule only */
    void *sched;                /* the component's schedule */
    size_t extra_bytes;         /* what create allocated for this redistributor */
};

/* dest_rank of a free slot (MPIX_REDIST_FREE in mpi-ext.h) */
#define REDIST_FREE_RANK (-1)


END_C_DECLS

#endif
