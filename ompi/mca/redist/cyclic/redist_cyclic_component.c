/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * redist cyclic (the seed's cyclicSchedulerBred, the default): rank 0
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

static int cyclic_query(mca_base_module_t **module, int *priority);
static int cyclic_register(void);
static int cyclic_schedule(ompi_redist_t *rd);

static const mca_redist_base_module_t cyclic_module = {
    .schedule = cyclic_schedule,
    .execute = ompi_redist_base_run_actions,
    .release = ompi_redist_base_free_sched,
};
static int cyclic_priority = 40;

mca_redist_base_component_t mca_redist_cyclic_component = {
    .base_version = {
        MCA_REDIST_BASE_VERSION_1_0_0,
        .mca_component_name = "cyclic",
        MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                              OMPI_RELEASE_VERSION),
        .mca_query_component = cyclic_query,
        .mca_register_component_params = cyclic_register,
    },
    .base_data = {MCA_BASE_METADATA_PARAM_CHECKPOINT},
    .module = &cyclic_module,
};

static int cyclic_register(void)
{
    (void) mca_base_component_var_register(
        &mca_redist_cyclic_component.base_version, "priority",
        "Priority of the cyclic redistributor (the highest is the default unless "
        "--mca redist <name> or the info key redist_component picks one)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_READONLY,
        &cyclic_priority);
    return OMPI_SUCCESS;
}

static int cyclic_query(mca_base_module_t **module, int *priority)
{
    *module = NULL;
    *priority = cyclic_priority;
    return OMPI_SUCCESS;
}

static int cyclic_schedule(ompi_redist_t *rd)
{
    int rc = ompi_redist_base_graph_schedule(rd, REDIST_SEARCH_DFS);
    return OMPI_SUCCESS == rc ? ompi_redist_base_prepare_actions(rd) : rc;
}
