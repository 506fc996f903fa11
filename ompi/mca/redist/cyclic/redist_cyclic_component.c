/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * redist cyclic (the seed's cyclicSchedulerBred, the default): rank 0
 * gathers the transmission graph (each process's free slots and blocks
 * per destination: O(n + b) off the root, O(edges) on it), runs the
 * cyclic depth-first search and hands each process its actions; every
 * block travels once, straight to its destination process.  Completes any
 * injective map, with no free slot at all (cycles of full processes move
 * in lockstep through one staging block).
 */
#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/constants.h"
#include "ompi/mca/redist/base/base.h"

static int cyclic_query(mca_base_module_t **module, int *priority);
static int cyclic_register(void);
static int cyclic_schedule(ompi_redist_t *rd);
static int cyclic_execute(ompi_redist_t *rd);
static void cyclic_release(ompi_redist_t *rd);

static const mca_redist_base_module_t cyclic_module = {
    .schedule = cyclic_schedule,
    .execute = cyclic_execute,
    .release = cyclic_release,
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

static void emit_action(void *ctx, int rank, const redist_action_t *a)
{
    ompi_redist_base_plan_emit(ctx, rank, &a->op, 4);
}

/* On rank 0: all[off[p]] is p's free slot count, then (to, blocks) pairs. */
static int cyclic_plan(int n, const int *all, const int *off, redist_plan_out_t *out)
{
    int ne = (off[n] - n) / 2, p, i, k = 0, rc;
    int *free_ = malloc(sizeof(int) * (n + 1)), *eoff = malloc(sizeof(int) * (n + 1));
    int *eto = malloc(sizeof(int) * (ne + 1)), *ew = malloc(sizeof(int) * (ne + 1));

    rc = (NULL == free_ || NULL == eoff || NULL == eto || NULL == ew) ? OMPI_ERR_OUT_OF_RESOURCE
                                                                       : OMPI_SUCCESS;
    if (OMPI_SUCCESS == rc) {
        for (p = 0; p < n; p++) {
            free_[p] = all[off[p]];
            eoff[p] = k;
            for (i = off[p] + 1; i + 1 < off[p + 1]; i += 2, k++) {
                eto[k] = all[i];
                ew[k] = all[i + 1];
            }
        }
        eoff[n] = k;
        switch (redist_cyclic_dfs(n, free_, eoff, eto, ew, emit_action, out)) {
        case 0:
            break;
        case -1:
            rc = OMPI_ERR_NOT_SUPPORTED;
            break;
        default:
            rc = OMPI_ERR_OUT_OF_RESOURCE;
        }
    }
    free(free_);
    free(eoff);
    free(eto);
    free(ew);
    return rc;
}

static int cyclic_schedule(ompi_redist_t *rd)
{
    int n = rd->nprocs, q, k = 1, rc;
    int *mine = malloc(sizeof(int) * (2 * n + 1));
    rc = ompi_redist_base_agree(rd, NULL == mine ? OMPI_ERR_OUT_OF_RESOURCE : OMPI_SUCCESS);
    if (OMPI_SUCCESS != rc) {
        free(mine);
        return rc;
    }
    mine[0] = rd->nslots - rd->nlive;
    for (q = 0; q < n; q++) {
        if (rd->out_off[q + 1] > rd->out_off[q]) {
            mine[k++] = q;
            mine[k++] = rd->out_off[q + 1] - rd->out_off[q];
        }
    }
    rc = ompi_redist_base_root_plan(rd, mine, k, cyclic_plan);
    free(mine);
    return rc;
}

static int cyclic_execute(ompi_redist_t *rd)
{
    return ompi_redist_base_run_actions(rd);
}

static void cyclic_release(ompi_redist_t *rd)
{
    free(rd->sched);
    rd->sched = NULL;
}
