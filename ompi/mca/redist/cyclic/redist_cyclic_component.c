/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * redist cyclic (MADRE's cyclicSchedulerBred, the default): rank 0
 * gathers the transmission graph (each process's free slots and blocks
 * per destination: O(n + b) off the root, O(edges) on it), runs the
 * cyclic depth-first search and hands each process its actions
 * (base/redist_base_cyclic.c); every block travels once, straight to its
 * destination process, each action's blocks in one message (an
 * indexed-block datatype built at create).  Completes any injective map,
 * with no free slot at all (cycles of full processes move in lockstep,
 * two blocks in flight).
 */
#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/redist/base/base.h"

static int cyclic_schedule(ompi_redist_t *rd)
{
    int rc = ompi_redist_base_graph_schedule(rd, REDIST_SEARCH_DFS);
    return OMPI_SUCCESS == rc ? ompi_redist_base_prepare_actions(rd, 1) : rc;
}

/* mca_redist_cyclic_component; redist_cyclic_priority defaults to 40 */
OMPI_REDIST_COMPONENT(cyclic, 40, NULL, OMPI_REDIST_ACTION_MODULE(cyclic_schedule))
