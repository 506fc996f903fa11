/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The redist base: framework, redistributor life cycle (used by the madre
 * MPI extension) and the moves components are built from.
 */
#ifndef OMPI_MCA_REDIST_BASE_H
#define OMPI_MCA_REDIST_BASE_H

#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/redist/redist.h"
#include "opal/util/info.h"

#include <string.h>

BEGIN_C_DECLS

OMPI_DECLSPEC extern mca_base_framework_t ompi_redist_base_framework;

/* Opened by the extension's MPI_Init hook, closed by its finalize hook. */
int ompi_redist_base_init(void);
int ompi_redist_base_fini(void);

/* The life cycle behind MPIX_Redist_*.  Return an MPI error class (or
 * MPI_SUCCESS), the same on every process of comm; on error every buffer
 * is as it was. */
int ompi_redist_create(void *buf, int nslots, int count, ompi_datatype_t *type,
                       const int dest_rank[], const int dest_slot[], opal_info_t *info,
                       ompi_communicator_t *comm, ompi_redist_t **rdp);
int ompi_redist_execute(ompi_redist_t *rd);
void ompi_redist_free(ompi_redist_t *rd);

/* MCA variables of the base. */
extern unsigned long ompi_redist_base_max_extra_bytes;
extern int ompi_redist_base_request_limit;
extern unsigned long ompi_redist_base_stage_bytes;
extern int ompi_redist_base_fault_post;   /* testing: fail the N-th message, once */
/* Testing (redist_base_fault_post): whether the message about to start
 * is the one to fail; one count per process of every message of unit's
 * rounds, cycleshift's steps, the dataflow runs of cyclic, phase and
 * park, and chained cycles. */
int ompi_redist_base_fault_hit(void);
extern const mca_redist_base_component_t *ompi_redist_base_default;
const mca_redist_base_component_t *ompi_redist_base_find(const char *name);

/* MPI_T statistics (ompi_redist_base_count adds atomically). */
enum {
    REDIST_STAT_BLOCKS, REDIST_STAT_BYTES, REDIST_STAT_ROUNDS, REDIST_STAT_PARKED,
    REDIST_STAT_CYCLES, REDIST_STAT_N
};
extern unsigned long long ompi_redist_base_stats[REDIST_STAT_N];
static inline void ompi_redist_base_count(int which, unsigned long long n)
{
    (void) __atomic_fetch_add(&ompi_redist_base_stats[which], n, __ATOMIC_RELAXED);
}
/* n blocks moved between processes: the blocks and the bytes statistics */
static inline void ompi_redist_base_count_blocks(const ompi_redist_t *rd, unsigned long long n)
{
    ompi_redist_base_count(REDIST_STAT_BLOCKS, n);
    ompi_redist_base_count(REDIST_STAT_BYTES, n * rd->block_bytes);
}
void ompi_redist_base_note_peak(size_t bytes);
void ompi_redist_base_note_schedule_time(double seconds);

/* --- for components --- */

/* A component's own MCA variable <framework>_<component>_<name>: level 5,
 * read-only, an int or a bool (type MCA_BASE_VAR_TYPE_INT or _BOOL,
 * storage an int or a bool), its default dflt set where it is registered.
 * A table of them ends with an entry whose name is NULL. */
typedef struct ompi_redist_base_var_t {
    const char *name, *desc;
    mca_base_var_type_t type;
    int dflt;
    void *storage;
} ompi_redist_base_var_t;

/* Registers the MCA variables of component c: its priority
 * (redist_<name>_priority, level 9, default dflt, stored in *priority),
 * then those of the table vars (NULL: none).  The register function of
 * OMPI_REDIST_COMPONENT. */
int ompi_redist_base_register_component(const mca_base_component_t *c, int dflt, int *priority,
                                        const ompi_redist_base_var_t *vars);

/* The module of a component whose schedule is an action list in rd->sched
 * (ompi_redist_base_graph_schedule): schedule, then run_actions and
 * free_sched; for OMPI_REDIST_COMPONENT's module initializers. */
#define OMPI_REDIST_ACTION_MODULE(schedule_fn)                                               \
    .schedule = (schedule_fn), .execute = ompi_redist_base_run_actions,                      \
    .release = ompi_redist_base_free_sched

/* OMPI_REDIST_COMPONENT(cyclic, 40, NULL, .schedule = ..., .execute = ...,
 * .release = ...), at the end of the component's file, defines mca_redist_cyclic_component (exported), the
 * component "cyclic" with the module given by the designated initializers
 * after the third argument, its MCA variable redist_cyclic_priority
 * (default 40), which the query reports, and the variables of the table
 * given third (NULL: none; see ompi_redist_base_register_component).  Every other name it defines is
 * static and starts with redist_cyclic_. */
#define OMPI_REDIST_COMPONENT(name, dflt_priority, vars, ...)                               \
    static const mca_redist_base_module_t redist_##name##_module = {__VA_ARGS__};          \
    static int redist_##name##_priority;                                                   \
    static int redist_##name##_query(mca_base_module_t **module, int *priority)            \
    {                                                                                      \
        *module = NULL;                                                                    \
        *priority = redist_##name##_priority;                                              \
        return OMPI_SUCCESS;                                                               \
    }                                                                                      \
    static int redist_##name##_register(void);                                             \
    mca_redist_base_component_t mca_redist_##name##_component = {                          \
        .base_version = {MCA_REDIST_BASE_VERSION_1_0_0, .mca_component_name = #name,       \
                         MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION,              \
                                               OMPI_MINOR_VERSION, OMPI_RELEASE_VERSION),  \
                         .mca_query_component = redist_##name##_query,                     \
                         .mca_register_component_params = redist_##name##_register},       \
        .base_data = {MCA_BASE_METADATA_PARAM_CHECKPOINT},                                 \
        .module = &redist_##name##_module};                                                \
    static int redist_##name##_register(void)                                              \
    {                                                                                      \
        return ompi_redist_base_register_component(&mca_redist_##name##_component.base_version, \
                                                   dflt_priority, &redist_##name##_priority, \
                                                   vars);                                  \
    }

/* Allocate n bytes that live as long as rd, counted against
 * redist_base_max_extra_bytes; NULL when over it or out of memory (the
 * schedule then returns OMPI_ERR_OUT_OF_RESOURCE on every process). */
void *ompi_redist_base_alloc(ompi_redist_t *rd, size_t n);
/* The largest error of all processes (every process returns the same). */
int ompi_redist_base_agree(ompi_redist_t *rd, int rc);

/* An execute's wait ended because another process reported a failure. */
#define OMPI_REDIST_PEER_FAILED (-10000)
/* Execute's waits: for all n requests, or until another process reports
 * a failure (then an error; the requests are left to
 * ompi_redist_base_abort).  A component's execute waits through it, so
 * that no process waits forever on one that failed. */
int ompi_redist_base_wait(ompi_redist_t *rd, int n, ompi_request_t **reqs);
/* After rc (OMPI_SUCCESS: nothing to do) in execute: a process that
 * failed tells the others, and every process withdraws its receives not
 * yet matched and completes its other requests (the base's and reqs[0..n),
 * a component's own), taking and dropping what others still send it.
 * Execute's end then agrees on one error class for all processes. */
void ompi_redist_base_abort(ompi_redist_t *rd, int rc, int n, ompi_request_t **reqs);
/* A collective step of a component's own inside execute (unit's rounds):
 * out = the sum of in over all processes (n ints), by a nonblocking
 * allreduce.  A process that saw a failure in this step (failed) keeps
 * taking and dropping what others still send it meanwhile, so that their
 * aborts complete and they reach the allreduce too. */
int ompi_redist_base_sum(ompi_redist_t *rd, const int *in, int *out, int n, int failed);

/* Put every block this process holds in its target slot (in place). */
void ompi_redist_base_settle(ompi_redist_t *rd);
/* Reset the execution state to the map's start (every execute). */
void ompi_redist_base_begin(ompi_redist_t *rd);
/* Slot s's address; copy one block's bytes (its span) between slots or
 * the stage (rd->stage - rd->span_lb is the stage as a block address). */
static inline char *ompi_redist_base_slot(const ompi_redist_t *rd, int s)
{
    return rd->buf + (ptrdiff_t) s * rd->stride;
}
static inline void ompi_redist_base_copy(const ompi_redist_t *rd, char *dst, const char *src)
{
    memcpy(dst + rd->span_lb, src + rd->span_lb, rd->span);
}

/* Plans made on a root: every process contributes mine[0..nmine); rank
 * 0's plan sees them all (process p's at all[off[p] .. off[p+1])) and
 * emits int records for processes; each process gets its own records,
 * in the order they were emitted, as rd->sched (a redist_int_list_t,
 * allocated with ompi_redist_base_alloc: the component's release frees
 * it).  plan returns OMPI_SUCCESS or OMPI_ERR_NOT_SUPPORTED (this
 * component cannot complete the map). */
typedef struct redist_plan_out_t redist_plan_out_t;
typedef int (*redist_plan_fn_t)(int nprocs, const int *all, const int *off,
                                redist_plan_out_t *out, void *ctx);
void ompi_redist_base_plan_emit(redist_plan_out_t *out, int rank, const int *v, int k);
int ompi_redist_base_root_plan(ompi_redist_t *rd, const int *mine, int nmine,
                               redist_plan_fn_t plan, void *ctx);
typedef struct redist_int_list_t {
    int n;
    int v[];
} redist_int_list_t;
/* Execute the action list (4 ints per redist_action_t) in rd->sched, then
 * settle: the execute of the components that schedule actions. */
int ompi_redist_base_run_actions(ompi_redist_t *rd);
/* Free rd->sched (one allocation, as root_plan's list is): the release of
 * the components whose schedule is nothing more. */
void ompi_redist_base_free_sched(ompi_redist_t *rd);
/* A rank-level schedule into rd->sched: rank 0 gathers the transmission
 * graph and runs a search (REDIST_SEARCH_*), each process gets its
 * actions. */
enum { REDIST_SEARCH_DFS = 0, REDIST_SEARCH_PHASES = 1, REDIST_SEARCH_PHASES_BREAK = 2,
       REDIST_SEARCH_PARK = 3 };
int ompi_redist_base_graph_schedule(ompi_redist_t *rd, int search);
/* Create's dry run of the action list through the slot bookkeeping
 * execute uses: a schedule that would overfill a process or send blocks
 * a process does not have fails here, on every process, not in execute.
 * With aggregate, run_actions sends each action as one message: the dry
 * run builds an indexed-block datatype per action over the slots it will
 * send from or land in.  Collective: agrees on the result. */
int ompi_redist_base_prepare_actions(ompi_redist_t *rd, int aggregate);

END_C_DECLS

#endif
