/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * redist phase (MADRE's phaseBred; with redist_phase_break_cycles=0 its
 * contigBred / plain Pinar-Hendrickson): rank 0 schedules phases over the
 * transmission graph, each receiver taking at most the free slots it had
 * when the phase began, shared round-robin among its senders; a phase
 * that can move nothing (every waiting process full) passes one block
 * round a cycle, or, without breaking cycles, create refuses the map
 * (MPI_ERR_OTHER) before anything moves.  Each action is one message, as
 * MADRE's phases were one MPI_Alltoall.
 */
#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/redist/base/base.h"

static bool break_cycles;
static const ompi_redist_base_var_t phase_vars[] = {
    {"break_cycles",
     "Pass one block round a cycle of full processes when a phase can move nothing (1, as "
     "MADRE's phaseBred); 0: refuse such maps at MPIX_Redist_create with MPI_ERR_OTHER "
     "(contigBred, plain Pinar-Hendrickson)",
     MCA_BASE_VAR_TYPE_BOOL, true, &break_cycles},
    {NULL, NULL, 0, 0, NULL},
};

static int phase_schedule(ompi_redist_t *rd)
{
    int rc = ompi_redist_base_graph_schedule(rd, break_cycles ? REDIST_SEARCH_PHASES_BREAK
                                                              : REDIST_SEARCH_PHASES);
    return OMPI_SUCCESS == rc ? ompi_redist_base_prepare_actions(rd, 1) : rc;
}

/* mca_redist_phase_component; redist_phase_priority defaults to 15 */
OMPI_REDIST_COMPONENT(phase, 15, phase_vars, OMPI_REDIST_ACTION_MODULE(phase_schedule))
