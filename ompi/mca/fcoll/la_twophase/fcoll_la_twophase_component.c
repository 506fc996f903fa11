/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * fcoll/la_twophase component: MCA parameters and MPI_T performance
 * variables.
 */

#include "ompi_config.h"

#include <string.h>

#include "mpi.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/mca/base/mca_base_var_enum.h"
#include "opal/mca/base/mca_base_pvar.h"
#include "opal/mca/common/suite/common_suite.h"
#include "fcoll_la_twophase.h"

const char *mca_fcoll_la_twophase_component_version_string =
    "Open MPI la_twophase collective MCA component version " OMPI_VERSION;

/* The defaults are set where each variable is registered (register runs
 * again if the component is reloaded). */
int mca_fcoll_la_twophase_priority;
int mca_fcoll_la_twophase_cycle_buffer_size;
int mca_fcoll_la_twophase_num_aggregators;
int mca_fcoll_la_twophase_cost;
bool mca_fcoll_la_twophase_assign;
bool mca_fcoll_la_twophase_one_per_node;
bool mca_fcoll_la_twophase_cache;
int mca_fcoll_la_twophase_node_size;
int mca_fcoll_la_twophase_min_gain;
int mca_fcoll_la_twophase_read_self_min;
int mca_fcoll_la_twophase_read_probe_min;
int mca_fcoll_la_twophase_write_iov_min;
int mca_fcoll_la_twophase_write_self_min;

mca_fcoll_la_twophase_stats_t mca_fcoll_la_twophase_stats;

static int la_twophase_register(void);

mca_fcoll_base_component_2_0_0_t mca_fcoll_la_twophase_component = {
    .fcollm_version = {
        MCA_FCOLL_BASE_VERSION_2_0_0,
        .mca_component_name = "la_twophase",
        MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                              OMPI_RELEASE_VERSION),
        .mca_register_component_params = la_twophase_register,
    },
    .fcollm_data = {
        MCA_BASE_METADATA_PARAM_CHECKPOINT
    },
    .fcollm_init_query = mca_fcoll_la_twophase_component_init_query,
    .fcollm_file_query = mca_fcoll_la_twophase_component_file_query,
    .fcollm_file_unquery = mca_fcoll_la_twophase_component_file_unquery,
};

static const mca_base_var_enum_value_t cost_values[] = {
    {MCA_FCOLL_LA_TWOPHASE_COST_BYTES, "bytes"},
    {MCA_FCOLL_LA_TWOPHASE_COST_BLOCKS, "blocks"},
    {0, NULL}
};

static void reg_pvar(const char *name, const char *desc, int var_class, mca_base_var_type_t type,
                     void *ctx)
{
    (void) common_suite_component_pvar_register(
        &mca_fcoll_la_twophase_component.fcollm_version, name, desc, var_class, type, NULL, ctx);
}

/* A boolean MCA variable, its default set here (the int ones use
 * common_suite_register_int). */
static void reg_bool(const char *name, const char *desc, int level, bool dflt, bool *storage)
{
    *storage = dflt;
    (void) mca_base_component_var_register(&mca_fcoll_la_twophase_component.fcollm_version,
                                           name, desc, MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0,
                                           level, MCA_BASE_VAR_SCOPE_READONLY, storage);
}

static int la_twophase_register(void)
{
    const mca_base_component_t *c = &mca_fcoll_la_twophase_component.fcollm_version;
    mca_base_var_enum_t *cost_enum = NULL;
    mca_fcoll_la_twophase_stats_t *s = &mca_fcoll_la_twophase_stats;

    (void) common_suite_register_int(c, "priority",
        "Priority of the la_twophase fcoll component (low by default: select it "
        "with --mca fcoll la_twophase)",
        OPAL_INFO_LVL_9, 1, &mca_fcoll_la_twophase_priority);

    (void) common_suite_register_int(c, "cycle_buffer_size",
        "Bytes of a file domain an aggregator handles per cycle; bounds the "
        "aggregator's buffer memory (4096 .. 1073741824, default 4 MiB)",
        OPAL_INFO_LVL_5, 4 * 1024 * 1024, &mca_fcoll_la_twophase_cycle_buffer_size);

    (void) common_suite_register_int(c, "num_aggregators",
        "Number of aggregators (file domains).  -1: io_ompio_num_aggregators "
        "when that is set, else OMPIO's default choice.  Overrides both when > 0",
        OPAL_INFO_LVL_5, MCA_FCOLL_LA_TWOPHASE_AGGR_AUTO,
        &mca_fcoll_la_twophase_num_aggregators);

    mca_fcoll_la_twophase_cost = MCA_FCOLL_LA_TWOPHASE_COST_BYTES;
    (void) mca_base_var_enum_create("fcoll_la_twophase_cost", cost_values, &cost_enum);
    (void) mca_base_component_var_register(c, "cost",
        "What the assignment maximises per (process, file domain): \"bytes\" "
        "the process already holds in the domain (default), or \"blocks\", "
        "the number of contiguous pieces it holds there (the measure of Filgueira "
        "et al., Data Locality Aware Strategy for Two-Phase Collective I/O, "
        "VECPAR 2008)",
        MCA_BASE_VAR_TYPE_INT, cost_enum, 0, 0, OPAL_INFO_LVL_5,
        MCA_BASE_VAR_SCOPE_READONLY, &mca_fcoll_la_twophase_cost);
    if (NULL != cost_enum) {
        OBJ_RELEASE(cost_enum);
    }

    reg_bool("assign",
        "Choose the aggregators by the Linear Assignment Problem (default true); "
        "false keeps the standard two-phase aggregators (rank d*P/A for domain d)",
        OPAL_INFO_LVL_5, true, &mca_fcoll_la_twophase_assign);

    reg_bool("one_per_node",
        "At most one aggregator per node: the number of aggregators is capped "
        "at the number of nodes and the LAP assigns domains to nodes, each "
        "taking the process of the node that holds most of its domain",
        OPAL_INFO_LVL_5, false, &mca_fcoll_la_twophase_one_per_node);

    (void) common_suite_register_int(c, "min_gain",
        "Solve the LAP only when an assignment could keep more than this in "
        "place beyond the standard two-phase aggregators (cost units: bytes, "
        "or pieces with cost=blocks); below it the standard list is taken "
        "with one allreduce.  -1 (default): 65536 bytes, or 0 pieces with "
        "cost=blocks; 0: solve whenever anything can be gained",
        OPAL_INFO_LVL_5, MCA_FCOLL_LA_TWOPHASE_MIN_GAIN_AUTO, &mca_fcoll_la_twophase_min_gain);

    (void) common_suite_register_int(c, "read_self_min",
        "In a collective read, a process whose pieces of the file average at "
        "least this many bytes reads them itself instead of receiving them "
        "from the aggregators (they still serve the others); 0 disables it",
        OPAL_INFO_LVL_5, MCA_FCOLL_LA_TWOPHASE_READ_SELF_MIN,
        &mca_fcoll_la_twophase_read_self_min);

    (void) common_suite_register_int(c, "read_probe_min",
        "In a collective read, a process whose pieces average at least this "
        "many bytes, but fewer than read_self_min, measures both paths (through "
        "the aggregators, and reading them itself) over its reads and keeps the "
        "faster, trying the other again once in 32 reads; 0 disables it",
        OPAL_INFO_LVL_5, MCA_FCOLL_LA_TWOPHASE_READ_PROBE_MIN,
        &mca_fcoll_la_twophase_read_probe_min);

    (void) common_suite_register_int(c, "write_self_min",
        "In a collective write on a local or NFS file system (fs/ufs; not in "
        "atomic mode), a process whose pieces of the file average at least "
        "this many bytes writes them itself instead of sending them to the "
        "aggregators (they still aggregate for the others); 0 disables it",
        OPAL_INFO_LVL_5, MCA_FCOLL_LA_TWOPHASE_WRITE_SELF_MIN,
        &mca_fcoll_la_twophase_write_self_min);

    (void) common_suite_register_int(c, "write_iov_min",
        "In a collective write, an aggregator whose window's pieces average at "
        "least this many bytes receives each process's data contiguously and "
        "writes the window with one gather list over them and its own buffer, "
        "without copying its own data into the cycle buffer; 0 disables it",
        OPAL_INFO_LVL_5, MCA_FCOLL_LA_TWOPHASE_WRITE_IOV_MIN,
        &mca_fcoll_la_twophase_write_iov_min);

    reg_bool("cache",
        "Reuse the last aggregator list of a file while no process's gains "
        "(what it holds in each file domain) changed (default true)",
        OPAL_INFO_LVL_6, true, &mca_fcoll_la_twophase_cache);

    (void) common_suite_register_int(c, "node_size",
        "Testing aid for one_per_node: when > 0, treat ranks r and s as on the "
        "same node iff r / node_size == s / node_size instead of asking the "
        "runtime (0, default: real node locality)",
        OPAL_INFO_LVL_9, 0, &mca_fcoll_la_twophase_node_size);

    memset(s, 0, sizeof(*s));
    reg_pvar("bytes_exchanged",
             "Bytes this process sent to other processes in the exchange "
             "phase of la_twophase collective writes and reads (total)",
             MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
             &s->bytes_exchanged);
    reg_pvar("bytes_in_place",
             "Bytes of this process's own data in the file domain it "
             "aggregates, which needed no exchange (total)",
             MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
             &s->bytes_in_place);
    reg_pvar("messages",
             "Data messages this process sent in exchange phases (total)",
             MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
             &s->messages);
    reg_pvar("bytes_exchanged_last",
             "As bytes_exchanged, for the last collective call only",
             MCA_BASE_PVAR_CLASS_GENERIC, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
             &s->bytes_exchanged_last);
    reg_pvar("bytes_in_place_last",
             "As bytes_in_place, for the last collective call only",
             MCA_BASE_PVAR_CLASS_GENERIC, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
             &s->bytes_in_place_last);
    reg_pvar("messages_last",
             "As messages, for the last collective call only",
             MCA_BASE_PVAR_CLASS_GENERIC, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
             &s->messages_last);
    reg_pvar("assignments",
             "Aggregator lists decided afresh (cache misses): by the LAP, or "
             "the standard list when the gain bound showed the LAP could gain "
             "at most fcoll_la_twophase_min_gain",
             MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
             &s->assignments);
    reg_pvar("cache_hits",
             "Collective calls that reused the cached assignment",
             MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
             &s->cache_hits);
    reg_pvar("default_by_bound",
             "Of the assignments, those that took the standard two-phase list "
             "because the gain bound was at most fcoll_la_twophase_min_gain "
             "(no LAP solved)",
             MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
             &s->default_by_bound);
    reg_pvar("gain_bound_last",
             "The bound of the last assignment: the most any list could keep "
             "in place beyond the standard one (cost units)",
             MCA_BASE_PVAR_CLASS_GENERIC, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
             &s->gain_bound_last);
    reg_pvar("plan_time_last",
             "Seconds of the last call's planning: data layout, file domains, "
             "assignment and piece lists (steps 1-4)",
             MCA_BASE_PVAR_CLASS_GENERIC, MCA_BASE_VAR_TYPE_DOUBLE, &s->plan_time_last);
    reg_pvar("io_time_last",
             "Seconds of the last call's file reads and writes on this process",
             MCA_BASE_PVAR_CLASS_GENERIC, MCA_BASE_VAR_TYPE_DOUBLE, &s->io_time_last);
    reg_pvar("self_reads",
             "Collective reads in which this process read its own pieces "
             "itself (fcoll_la_twophase_read_self_min)",
             MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
             &s->self_reads);
    reg_pvar("self_writes",
             "Collective writes in which this process wrote its own pieces "
             "itself (fcoll_la_twophase_write_self_min)",
             MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
             &s->self_writes);
    reg_pvar("iov_windows",
             "Windows this process wrote as an aggregator from a gather list "
             "over the received data and its own buffer "
             "(fcoll_la_twophase_write_iov_min)",
             MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
             &s->iov_windows);
    reg_pvar("probe_reads",
             "Collective reads whose path the read probe chose "
             "(fcoll_la_twophase_read_probe_min)",
             MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
             &s->probe_reads);
    reg_pvar("buffer_last",
             "Bytes of the cycle buffer this process allocated in the last "
             "collective call (0 when it aggregated no domain); never more "
             "than fcoll_la_twophase_cycle_buffer_size",
             MCA_BASE_PVAR_CLASS_GENERIC, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
             &s->buffer_last);
    reg_pvar("assign_time",
             "Seconds spent in the assignment step (the bound's allreduce, "
             "gather of the gains, solve, broadcast; total)",
             MCA_BASE_PVAR_CLASS_TIMER, MCA_BASE_VAR_TYPE_DOUBLE, &s->assign_time);
    reg_pvar("assign_time_last",
             "Seconds spent in the assignment step of the last call "
             "(0 when the cached assignment was reused)",
             MCA_BASE_PVAR_CLASS_GENERIC, MCA_BASE_VAR_TYPE_DOUBLE, &s->assign_time_last);

    return OMPI_SUCCESS;
}
