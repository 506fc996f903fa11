/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * redist unitcyclic (MADRE's unitCyclicBred, and unitCyclicReadyBred
 * with redist_unitcyclic_ready=1): cyclic's schedule, executed one block
 * per message (Isend/Irecv, at most redist_base_request_limit in flight),
 * so create builds no datatypes.  Every send starts after its receiver
 * said its receives are posted, which is what ready mode (Irsend) needs.
 */
#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/redist/base/base.h"

static bool ready;
static const ompi_redist_base_var_t unitcyclic_vars[] = {
    {"ready",
     "Send blocks in ready mode (MPI_Irsend; MADRE's unitCyclicReadyBred): 1 or 0. Always "
     "legal here: a sender starts only after its receiver posted the receives",
     MCA_BASE_VAR_TYPE_BOOL, false, &ready},
    {NULL, NULL, 0, 0, NULL},
};

static int unitcyclic_schedule(ompi_redist_t *rd)
{
    int rc;
    rd->ready_sends = ready;
    rc = ompi_redist_base_graph_schedule(rd, REDIST_SEARCH_DFS);
    /* one block per message; the dry run checks the schedule at create */
    return OMPI_SUCCESS == rc ? ompi_redist_base_prepare_actions(rd, 0) : rc;
}

/* mca_redist_unitcyclic_component; redist_unitcyclic_priority defaults to 30 */
OMPI_REDIST_COMPONENT(unitcyclic, 30, unitcyclic_vars, OMPI_REDIST_ACTION_MODULE(unitcyclic_schedule))
