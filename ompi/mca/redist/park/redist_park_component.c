/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * redist park (the seed's parkBred: Pinar and Hendrickson with parking):
 * rank 0 schedules phases over the transmission graph; when a phase can
 * move nothing, full processes that wait for blocks park some of their
 * outgoing blocks on processes with room that wait for nothing, which
 * send them on later (those blocks travel twice; redist_base_parked_blocks
 * counts them); with no such room, one block goes round a cycle.  Uses
 * the free space wherever it is (exp 4's free process), and slows as free
 * space goes to zero.  Each action is one message.
 */
#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/redist/base/base.h"

static int park_query(mca_base_module_t **module, int *priority);
static int park_register(void);
static int park_schedule(ompi_redist_t *rd);

static const mca_redist_base_module_t park_module = {
    .schedule = park_schedule,
    .execute = ompi_redist_base_run_actions,
    .release = ompi_redist_base_free_sched,
};
static int park_priority = 5;

mca_redist_base_component_t mca_redist_park_component = {
    .base_version = {
        MCA_REDIST_BASE_VERSION_1_0_0,
        .mca_component_name = "park",
        MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                              OMPI_RELEASE_VERSION),
        .mca_query_component = park_query,
        .mca_register_component_params = park_register,
    },
    .base_data = {MCA_BASE_METADATA_PARAM_CHECKPOINT},
    .module = &park_module,
};

static int park_register(void)
{
    (void) mca_base_component_var_register(
        &mca_redist_park_component.base_version, "priority",
        "Priority of the park redistributor (the highest is the default unless "
        "--mca redist <name> or the info key redist_component picks one)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_READONLY,
        &park_priority);
    return OMPI_SUCCESS;
}

static int park_query(mca_base_module_t **module, int *priority)
{
    *module = NULL;
    *priority = park_priority;
    return OMPI_SUCCESS;
}

static int park_schedule(ompi_redist_t *rd)
{
    const redist_int_list_t *l;
    int rc = ompi_redist_base_graph_schedule(rd, REDIST_SEARCH_PARK), i, nb = 0, np = 0;
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    /* room to record every batch this process will hold (over the whole
     * execution a slot may hold several in turn) */
    l = rd->sched;
    for (i = 0; i + 3 < l->n; i += 4) {
        if (REDIST_ACT_RECV_PARK == l->v[i]) {
            nb++;
            np += l->v[i + 3];
        }
    }
    rd->park_slot = ompi_redist_base_alloc(rd, sizeof(int) * (np + 1));
    rd->batch_off = ompi_redist_base_alloc(rd, sizeof(int) * (nb + 2));
    rd->batch_next = ompi_redist_base_alloc(rd, sizeof(int) * (nb + 1));
    rc = ompi_redist_base_agree(rd, NULL == rd->park_slot || NULL == rd->batch_off
                                            || NULL == rd->batch_next
                                        ? OMPI_ERR_OUT_OF_RESOURCE : OMPI_SUCCESS);
    return OMPI_SUCCESS == rc ? ompi_redist_base_prepare_actions(rd) : rc;
}
