/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The redist framework: every component open, one the default (the
 * highest priority, or the one --mca redist <name> names), MCA variables
 * and MPI_T statistics of the base.
 */
#include "ompi_config.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "opal/mca/base/base.h"
#include "opal/mca/base/mca_base_pvar.h"
#include "opal/util/output.h"
#include "opal/mca/common/suite/common_suite.h"
#include "ompi/constants.h"
#include "ompi/mca/redist/base/base.h"
#include "opal/mca/common/suite/suite_compat.h"
#include SUITE_RTE_H

#include "ompi/mca/redist/base/static-components.h"

/* defaults: redist_base_register */
unsigned long ompi_redist_base_max_extra_bytes;
int ompi_redist_base_request_limit;
unsigned long ompi_redist_base_stage_bytes;
int ompi_redist_base_fault_post;
const mca_redist_base_component_t *ompi_redist_base_default = NULL;

unsigned long long ompi_redist_base_stats[REDIST_STAT_N];
static unsigned long long peak_extra_bytes;
static double schedule_time;

static int redist_base_register(mca_base_register_flag_t flags);

MCA_BASE_FRAMEWORK_DECLARE(ompi, redist, "Memory-aware data redistribution (MPIX_Redist_*)",
                           redist_base_register, NULL, NULL,
                           mca_redist_base_static_components, 0);

/* MPI_T statistics of the base: read-only, continuous, read in place. */
static const struct {
    const char *name, *desc;
    int var_class;
    mca_base_var_type_t type;
    void *ctx;
} pvars[] = {
    {"blocks_moved", "Blocks this process sent to another process (a parked block counts each "
     "time it is sent)", MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
     &ompi_redist_base_stats[REDIST_STAT_BLOCKS]},
    {"bytes_moved", "Bytes of block data this process sent to another process",
     MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
     &ompi_redist_base_stats[REDIST_STAT_BYTES]},
    {"rounds", "Communication steps (schedule actions or unit rounds) this process executed",
     MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
     &ompi_redist_base_stats[REDIST_STAT_ROUNDS]},
    {"parked_blocks", "Blocks this process received only to pass them on (park)",
     MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
     &ompi_redist_base_stats[REDIST_STAT_PARKED]},
    {"cycles_broken", "Cycles of full processes this process took part in moving (cycle steps "
     "of the schedule)", MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
     &ompi_redist_base_stats[REDIST_STAT_CYCLES]},
    {"peak_extra_bytes", "Most bytes one redistributor allocated on this process (metadata, "
     "schedule, staging block)", MCA_BASE_PVAR_CLASS_HIGHWATERMARK,
     MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, &peak_extra_bytes},
    {"schedule_time", "Seconds this process spent in MPIX_Redist_create validating and "
     "scheduling", MCA_BASE_PVAR_CLASS_TIMER, MCA_BASE_VAR_TYPE_DOUBLE, &schedule_time},
};

/* A read-only variable of the base, redist_base_<name> (for the lead:
 * the framework-level sibling of common_suite_register_int). */
static void register_var(const char *name, const char *desc, mca_base_var_type_t type,
                         void *storage)
{
    (void) mca_base_var_register("ompi", "redist", "base", name, desc, type, NULL, 0, 0,
                                 OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY, storage);
}

static int redist_base_register(mca_base_register_flag_t flags)
{
    size_t i;
    (void) flags;
    ompi_redist_base_max_extra_bytes = 0;
    register_var("max_extra_bytes", "Most bytes one redistributor may allocate on a process "
                 "(metadata, schedule, staging block; 0: no limit). MPIX_Redist_create fails "
                 "with MPI_ERR_NO_MEM on every process when the chosen component needs more",
                 MCA_BASE_VAR_TYPE_UNSIGNED_LONG, &ompi_redist_base_max_extra_bytes);
    ompi_redist_base_request_limit = 64;
    register_var("request_limit", "Most point-to-point requests a process has in flight in one "
                 "step of a redistribution (at least 1; in a run of plain moves of cyclic, "
                 "phase or park: as many sends and as many receives at once); also bounds the "
                 "blocks a receiver announces at a time, so that no block waits as an "
                 "unexpected message",
                 MCA_BASE_VAR_TYPE_INT, &ompi_redist_base_request_limit);
    ompi_redist_base_stage_bytes = 0;
    register_var("stage_bytes", "Staging memory one redistributor may use on a process, in "
                 "bytes (0: min(1 MiB, the process's buffer / 16)); at least two blocks, a "
                 "smaller value makes MPIX_Redist_create fail with MPI_ERR_ARG on every "
                 "process. The info key redist_stage_bytes sets it for one redistributor. "
                 "Every process uses the smallest value of all. Blocks that go round a cycle "
                 "of full processes move in runs of half this budget, one message a run: more "
                 "staging, fewer and larger messages (unitcyclic: one block a message). A cycle "
                 "with at least as many runs of 96 KB or more as processes sends most runs "
                 "straight from the slots and copies one in len into the stage; otherwise every "
                 "run is copied and sent from the stage, two in flight. Counted against "
                 "redist_base_max_extra_bytes",
                 MCA_BASE_VAR_TYPE_UNSIGNED_LONG, &ompi_redist_base_stage_bytes);
    ompi_redist_base_fault_post = 0;
    (void) mca_base_var_register("ompi", "redist", "base", "fault_post",
                                 "Testing only: the N-th message this process starts in unit's "
                                 "rounds, cycleshift's steps, a run of plain moves of cyclic, "
                                 "phase or park, or cyclic's chained cycles (counted over all "
                                 "executes) fails as if the PML were out of resources (0: never)",
                                 MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9,
                                 MCA_BASE_VAR_SCOPE_LOCAL, &ompi_redist_base_fault_post);
    for (i = 0; i < sizeof(pvars) / sizeof(pvars[0]); i++) {
        (void) common_suite_pvar_register("ompi", "redist", "base", pvars[i].name, pvars[i].desc,
                                          pvars[i].var_class, pvars[i].type, NULL,
                                          pvars[i].ctx);
    }
    return OMPI_SUCCESS;
}

int ompi_redist_base_register_component(const mca_base_component_t *c, int dflt, int *priority,
                                        const ompi_redist_base_var_t *vars)
{
    char desc[256];
    snprintf(desc, sizeof(desc),
             "Priority of the %s redistributor (the highest is the default unless "
             "--mca redist <name> or the info key redist_component picks one)",
             c->mca_component_name);
    (void) common_suite_register_int(c, "priority", desc, OPAL_INFO_LVL_9, dflt, priority);
    for (; NULL != vars && NULL != vars->name; vars++) {
        if (MCA_BASE_VAR_TYPE_BOOL == vars->type) {
            *(bool *) vars->storage = 0 != vars->dflt;
        } else {
            *(int *) vars->storage = vars->dflt;
        }
        (void) mca_base_component_var_register(c, vars->name, vars->desc, vars->type, NULL, 0, 0,
                                               OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
                                               vars->storage);
    }
    return OMPI_SUCCESS;
}

void ompi_redist_base_note_peak(size_t bytes)
{
    unsigned long long old = __atomic_load_n(&peak_extra_bytes, __ATOMIC_RELAXED);
    while (bytes > old && !__atomic_compare_exchange_n(&peak_extra_bytes, &old,
                                                        (unsigned long long) bytes, false,
                                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

void ompi_redist_base_note_schedule_time(double seconds)
{
    /* create is collective per communicator; concurrent creates on
     * different communicators only blur this sum. */
    schedule_time += seconds;
}

/* The component named name among the open ones (NULL: none). */
const mca_redist_base_component_t *ompi_redist_base_find(const char *name)
{
    mca_base_component_list_item_t *cli;
    if (!mca_base_framework_is_open(&ompi_redist_base_framework)) {
        return NULL;
    }
    OPAL_LIST_FOREACH (cli, &ompi_redist_base_framework.framework_components,
                       mca_base_component_list_item_t) {
        if (0 == strcmp(cli->cli_component->mca_component_name, name)) {
            return (const mca_redist_base_component_t *) cli->cli_component;
        }
    }
    return NULL;
}

int ompi_redist_base_init(void)
{
    mca_base_component_list_item_t *cli;
    int best = -1, rc;

    rc = mca_base_framework_open(&ompi_redist_base_framework, 0);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    if (!common_suite_int_in_range("redist_base_request_limit", ompi_redist_base_request_limit,
                                   1, INT_MAX, 0 == OMPI_PROC_MY_NAME->vpid,
                                   "the redist framework is not available in this job "
                                   "(MPIX_Redist_create fails with "
                                   "MPI_ERR_UNSUPPORTED_OPERATION)")) {
        mca_base_framework_close(&ompi_redist_base_framework);
        return OMPI_ERR_BAD_PARAM;
    }
    /* Not mca_base_select: it closes the components it does not pick, and
     * the info key may ask for any open one.  No default (--mca redist
     * names no built component) is not fatal to MPI_Init:
     * MPIX_Redist_create reports it to the program. */
    OPAL_LIST_FOREACH (cli, &ompi_redist_base_framework.framework_components,
                       mca_base_component_list_item_t) {
        mca_base_module_t *module = NULL;
        int priority = -1;
        if (NULL != cli->cli_component->mca_query_component
            && OPAL_SUCCESS == cli->cli_component->mca_query_component(&module, &priority)
            && priority > best) {
            best = priority;
            ompi_redist_base_default = (const mca_redist_base_component_t *) cli->cli_component;
        }
    }
    if (NULL != ompi_redist_base_default) {
        opal_output_verbose(10, ompi_redist_base_framework.framework_output,
                            "redist: default component %s (priority %d)",
                            ompi_redist_base_default->base_version.mca_component_name, best);
    }
    return OMPI_SUCCESS;
}

int ompi_redist_base_fini(void)
{
    ompi_redist_base_default = NULL;
    return mca_base_framework_close(&ompi_redist_base_framework);
}
