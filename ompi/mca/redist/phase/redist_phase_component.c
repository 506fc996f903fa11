/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * redist phase (the seed's phaseBred; with redist_phase_break_cycles=0 its
 * contigBred / plain Pinar-Hendrickson): rank 0 schedules phases over the
 * transmission graph, each receiver taking at most the free slots it had
 * when the phase began, shared round-robin among its senders; a phase
 * that can move nothing (every waiting process full) passes one block
 * round a cycle, or, without breaking cycles, create refuses the map
 * (MPI_ERR_OTHER) before anything moves.  Each action is one message, as
 * the seed's phases were one MPI_Alltoall.
 */
#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/redist/base/base.h"

static int phase_query(mca_base_module_t **module, int *priority);
static int phase_register(void);
static int phase_schedule(ompi_redist_t *rd);

static const mca_redist_base_module_t phase_module = {
    .schedule = phase_schedule,
    .execute = ompi_redist_base_run_actions,
    .release = ompi_redist_base_free_sched,
};
static int phase_priority = 15;
static bool break_cycles = true;

mca_redist_base_component_t mca_redist_phase_component = {
    .base_version = {
        MCA_REDIST_BASE_VERSION_1_0_0,
        .mca_component_name = "phase",
        MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                              OMPI_RELEASE_VERSION),
        .mca_query_component = phase_query,
        .mca_register_component_params = phase_register,
    },
    .base_data = {MCA_BASE_METADATA_PARAM_CHECKPOINT},
    .module = &phase_module,
};

static int phase_register(void)
{
    (void) mca_base_component_var_register(
        &mca_redist_phase_component.base_version, "priority",
        "Priority of the phase redistributor (the highest is the default unless "
        "--mca redist <name> or the info key redist_component picks one)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_READONLY,
        &phase_priority);
    (void) mca_base_component_var_register(
        &mca_redist_phase_component.base_version, "break_cycles",
        "Pass one block round a cycle of full processes when a phase can move nothing "
        "(1, the seed's phaseBred); 0: refuse such maps at MPIX_Redist_create with "
        "MPI_ERR_OTHER (contigBred, plain Pinar-Hendrickson)",
        MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
        &break_cycles);
    return OMPI_SUCCESS;
}

static int phase_query(mca_base_module_t **module, int *priority)
{
    *module = NULL;
    *priority = phase_priority;
    return OMPI_SUCCESS;
}

static int phase_schedule(ompi_redist_t *rd)
{
    int rc = ompi_redist_base_graph_schedule(rd, break_cycles ? REDIST_SEARCH_PHASES_BREAK
                                                              : REDIST_SEARCH_PHASES);
    return OMPI_SUCCESS == rc ? ompi_redist_base_prepare_actions(rd) : rc;
}
