/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * redist unitcyclic (the seed's unitCyclicBred, and unitCyclicReadyBred
 * with redist_unitcyclic_ready=1): cyclic's schedule, executed one block
 * per message (Isend/Irecv, at most redist_base_request_limit in flight),
 * so create builds no datatypes.  Every send starts after its receiver
 * said its receives are posted, which is what ready mode (Irsend) needs.
 */
#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/redist/base/base.h"

static int unitcyclic_query(mca_base_module_t **module, int *priority);
static int unitcyclic_register(void);
static int unitcyclic_schedule(ompi_redist_t *rd);

static const mca_redist_base_module_t unitcyclic_module = {
    .schedule = unitcyclic_schedule,
    .execute = ompi_redist_base_run_actions,
    .release = ompi_redist_base_free_sched,
};
static int unitcyclic_priority = 30;
static bool ready = false;

mca_redist_base_component_t mca_redist_unitcyclic_component = {
    .base_version = {
        MCA_REDIST_BASE_VERSION_1_0_0,
        .mca_component_name = "unitcyclic",
        MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                              OMPI_RELEASE_VERSION),
        .mca_query_component = unitcyclic_query,
        .mca_register_component_params = unitcyclic_register,
    },
    .base_data = {MCA_BASE_METADATA_PARAM_CHECKPOINT},
    .module = &unitcyclic_module,
};

static int unitcyclic_register(void)
{
    (void) mca_base_component_var_register(
        &mca_redist_unitcyclic_component.base_version, "priority",
        "Priority of the unitcyclic redistributor (the highest is the default unless "
        "--mca redist <name> or the info key redist_component picks one)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_READONLY,
        &unitcyclic_priority);
    (void) mca_base_component_var_register(
        &mca_redist_unitcyclic_component.base_version, "ready",
        "Send blocks in ready mode (MPI_Irsend; the seed's unitCyclicReadyBred): 1 or 0. "
        "Always legal here: a sender starts only after its receiver posted the receives",
        MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
        &ready);
    return OMPI_SUCCESS;
}

static int unitcyclic_query(mca_base_module_t **module, int *priority)
{
    *module = NULL;
    *priority = unitcyclic_priority;
    return OMPI_SUCCESS;
}

static int unitcyclic_schedule(ompi_redist_t *rd)
{
    rd->ready_sends = ready;
    return ompi_redist_base_graph_schedule(rd, REDIST_SEARCH_DFS);
}
