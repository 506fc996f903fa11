/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "ompi_config.h"

#include <limits.h>
#include <string.h>

#include "opal/class/opal_pointer_array.h"
#include "opal/mca/base/base.h"
#include "opal/mca/base/mca_base_pvar.h"
#include "opal/mca/common/suite/suite_compat.h"
#include SUITE_THREADS_MUTEX_H
#include "opal/util/output.h"
#include "opal/util/show_help.h"
#include "opal/mca/common/suite/common_suite.h"
#include "ompi/constants.h"
#include "ompi/mca/comm_store/base/base.h"
#include SUITE_RTE_H

#include "ompi/mca/comm_store/base/static-components.h"

const comm_store_map_ops_t *ompi_comm_store_ops = NULL;
comm_store_map_t *ompi_comm_store_map = NULL;

/* Serialises writers; readers (lookup) never take it. */
static opal_mutex_t writer_lock;
static bool exclusive;          /* the map frees memory at once (no MPI threads) */

/* For the message-queue debugger library (ompi/debuggers/ompi_msgq_dll.c),
 * which reads it from the process image in place of 4.1.4's
 * ompi_mpi_communicators: every pointer the store holds, in no particular
 * order (the library reads each communicator's CID from the communicator),
 * MPI_COMM_WORLD at index 0 (inserted first, never removed before
 * finalize).  debugger_slots maps a CID to its index + 1 so that a remove
 * costs no search; only writers touch either. */
OMPI_DECLSPEC opal_pointer_array_t ompi_comm_store_debugger_comms;
static comm_store_map_t *debugger_slots;

int ompi_comm_store_cid_policy = OMPI_COMM_STORE_CID_LOWEST;
static int cid_policy_param, cid_limit_param;   /* defaults: comm_store_base_register */

/* CID allocation statistics (MPI_T); written under ompi_cid_lock. */
static unsigned int cid_rounds_last;
static unsigned long cid_rounds_total, cid_allocations, cid_single_round;

static int comm_store_base_register(mca_base_register_flag_t flags);

MCA_BASE_FRAMEWORK_DECLARE(ompi, comm_store, "Communicator storage indexed by context id",
                           comm_store_base_register, NULL, NULL,
                           mca_comm_store_base_static_components, 0);

static const mca_base_var_enum_value_t cid_policy_values[] = {
    {OMPI_COMM_STORE_CID_LOWEST, "lowest"},
    {OMPI_COMM_STORE_CID_HIGHEST, "highest"},
    {OMPI_COMM_STORE_CID_AUTO, "auto"},
    {0, NULL},
};

enum { PVAR_LIVE, PVAR_BYTES, PVAR_DENSITY };

static int store_pvar_get(const mca_base_pvar_t *pvar, void *value, void *obj)
{
    comm_store_map_stats_t st = {0};
    (void) obj;
    if (NULL != ompi_comm_store_map) {
        ompi_comm_store_stats(&st);
    }
    switch ((int) (intptr_t) pvar->ctx) {
    case PVAR_LIVE:
        *(unsigned long *) value = st.live;
        break;
    case PVAR_BYTES:
        *(unsigned long *) value = st.bytes;
        break;
    default: /* occupied / allocated cells; an empty store wastes nothing */
        *(double *) value = 0 == st.cells ? 1.0 : (double) st.live / (double) st.cells;
        break;
    }
    return OPAL_SUCCESS;
}

/* MPI_T statistics of the base: read-only, continuous; read with get
 * from ctx (a PVAR_* index), or in place (get NULL, ctx the variable). */
static const struct {
    const char *name, *desc;
    int var_class;
    mca_base_var_type_t type;
    mca_base_get_value_fn_t get;
    void *ctx;
} pvars[] = {
    {"live", "Communicators (CIDs) held by the communicator store", MCA_BASE_PVAR_CLASS_LEVEL,
     MCA_BASE_VAR_TYPE_UNSIGNED_LONG, store_pvar_get, (void *) (intptr_t) PVAR_LIVE},
    {"bytes", "Bytes of memory held by the communicator store", MCA_BASE_PVAR_CLASS_SIZE,
     MCA_BASE_VAR_TYPE_UNSIGNED_LONG, store_pvar_get, (void *) (intptr_t) PVAR_BYTES},
    {"density", "Occupied / allocated cells of the communicator store (1: no slot allocated "
     "for a CID not in use)", MCA_BASE_PVAR_CLASS_PERCENTAGE, MCA_BASE_VAR_TYPE_DOUBLE,
     store_pvar_get, (void *) (intptr_t) PVAR_DENSITY},
    {"cid_rounds_last", "Allreduce rounds the last CID allocation took",
     MCA_BASE_PVAR_CLASS_LEVEL, MCA_BASE_VAR_TYPE_UNSIGNED_INT, NULL, &cid_rounds_last},
    {"cid_rounds", "Allreduce rounds of all CID allocations", MCA_BASE_PVAR_CLASS_COUNTER,
     MCA_BASE_VAR_TYPE_UNSIGNED_LONG, NULL, &cid_rounds_total},
    {"cid_allocations", "CID allocations (communicators created) by this process",
     MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG, NULL, &cid_allocations},
    {"cid_single_round", "CID allocations agreed in a single allreduce",
     MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG, NULL, &cid_single_round},
};

/* A read-only int variable of the base, comm_store_base_<name> */
#define register_int(name, desc, values, level, dflt, storage) \
    (void) common_suite_register_base_int("ompi", "comm_store", name, desc, values, level, dflt, storage)

static int comm_store_base_register(mca_base_register_flag_t flags)
{
    mca_base_var_enum_t *policy_enum = NULL;
    size_t i;

    (void) flags;
    (void) mca_base_var_enum_create("comm_store_cid_policy", cid_policy_values, &policy_enum);
    register_int("cid_policy",
                 "How communicator context ids (CIDs) are agreed on: 'lowest' (Open MPI's "
                 "algorithm: the lowest globally free CID, at least two allreduces), 'highest' "
                 "(Highest-CID: the highest used CID + 1, one allreduce when single-threaded; "
                 "falls back to the lowest free CID at the end of the range) or 'auto' (highest "
                 "with the sparse stores rbtree and radix, lowest with flat)",
                 policy_enum, OPAL_INFO_LVL_4, OMPI_COMM_STORE_CID_AUTO, &cid_policy_param);
    OBJ_RELEASE(policy_enum);
    register_int("cid_limit",
                 "Upper bound (exclusive) of communicator context ids, below the PML's own "
                 "limit (0: the PML's limit, 65535 with ob1, 1048575 with ucx; a larger value is "
                 "the PML's limit). Creating a communicator when none "
                 "is free fails with MPI_ERR_INTERN",
                 NULL, OPAL_INFO_LVL_5, 0, &cid_limit_param);
    for (i = 0; i < sizeof(pvars) / sizeof(pvars[0]); i++) {
        (void) common_suite_pvar_register("ompi", "comm_store", "base", pvars[i].name,
                                          pvars[i].desc, pvars[i].var_class, pvars[i].type,
                                          pvars[i].get, pvars[i].ctx);
    }
    return OMPI_SUCCESS;
}

int ompi_comm_store_init(void)
{
    mca_comm_store_base_module_t *module = NULL;
    mca_comm_store_base_component_t *component = NULL;
    int priority, rc;

    rc = mca_base_framework_open(&ompi_comm_store_base_framework, 0);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    rc = mca_base_select("comm_store", ompi_comm_store_base_framework.framework_output,
                         &ompi_comm_store_base_framework.framework_components,
                         (mca_base_module_t **) &module,
                         (mca_base_component_t **) &component, &priority);
    if (OPAL_SUCCESS != rc || NULL == module) {
        /* mca_base_select has already said which component was asked for. */
        mca_base_framework_close(&ompi_comm_store_base_framework);
        return OMPI_ERR_NOT_FOUND;
    }
    ompi_comm_store_cid_policy = cid_policy_param;
    if (OMPI_COMM_STORE_CID_AUTO == cid_policy_param) {
        /* a flat array grows with the highest CID: keep CIDs dense there */
        ompi_comm_store_cid_policy = 0 == strcmp(component->base_version.mca_component_name, "flat")
                                         ? OMPI_COMM_STORE_CID_LOWEST
                                         : OMPI_COMM_STORE_CID_HIGHEST;
    }
    /* 0: the PML's limit; else CIDs 0, 1 and 2 (MPI_COMM_WORLD, MPI_COMM_SELF,
     * MPI_COMM_NULL) and one more must fit */
    if (0 != cid_limit_param
        && !common_suite_int_in_range("comm_store_base_cid_limit", cid_limit_param, 4, INT_MAX,
                                      true /* fatal: every process says why */,
                                      "MPI_Init fails (0 selects the PML's own limit)")) {
        mca_base_framework_close(&ompi_comm_store_base_framework);
        return OMPI_ERR_BAD_PARAM;
    }
    opal_output_verbose(10, ompi_comm_store_base_framework.framework_output,
                        "comm_store: selected %s (priority %d), CID policy %s",
                        component->base_version.mca_component_name, priority,
                        OMPI_COMM_STORE_CID_HIGHEST == ompi_comm_store_cid_policy ? "highest"
                                                                                  : "lowest");
    OBJ_CONSTRUCT(&writer_lock, opal_mutex_t);
    ompi_comm_store_map = module->ops->create();
    if (NULL == ompi_comm_store_map) {
        OBJ_DESTRUCT(&writer_lock);
        mca_base_framework_close(&ompi_comm_store_base_framework);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    ompi_comm_store_ops = module->ops;
    OBJ_CONSTRUCT(&ompi_comm_store_debugger_comms, opal_pointer_array_t);
    debugger_slots = module->ops->create();
    if (NULL == debugger_slots
        || OPAL_SUCCESS != opal_pointer_array_init(&ompi_comm_store_debugger_comms, 16, INT_MAX,
                                                   16)) {
        ompi_comm_store_finalize();
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    module->ops->set_exclusive(debugger_slots, 1);  /* never read without the lock */
    /* Without MPI threads no lookup can run beside a writer: free memory
     * at once instead of keeping it for lock-free readers. */
    exclusive = !opal_using_threads();
    ompi_comm_store_ops->set_exclusive(ompi_comm_store_map, exclusive);
    return OMPI_SUCCESS;
}

/* Take the writer lock.  A thread may appear after MPI_Init (a BTL's
 * progress thread sets opal_using_threads()): from then on keep memory
 * for lock-free readers. */
static void writer_lock_take(void)
{
    OPAL_THREAD_LOCK(&writer_lock);
    if (exclusive && opal_using_threads()) {
        exclusive = false;
        ompi_comm_store_ops->set_exclusive(ompi_comm_store_map, 0);
    }
}

/* The map's insert and remove, keeping the debugger's table in step.  A
 * failure to record a pointer there only hides it from a debugger.  A
 * pointer with bit 0 set is no communicator but a reservation (5.0's
 * OMPI_COMM_SENTINEL_OWNER, communicator.h): the debugger never sees it. */
static int store_insert(uint32_t cid, void *ptr)
{
    int rc = ompi_comm_store_ops->insert(ompi_comm_store_map, cid, ptr), slot;
    if (0 == rc && 0 == ((uintptr_t) ptr & 1)) {
        slot = opal_pointer_array_add(&ompi_comm_store_debugger_comms, ptr);
        if (slot >= 0
            && 0 != ompi_comm_store_ops->insert(debugger_slots, cid,
                                                (void *) ((uintptr_t) slot + 1))) {
            opal_pointer_array_set_item(&ompi_comm_store_debugger_comms, slot, NULL);
        }
    }
    return rc;
}

static int store_remove(uint32_t cid)
{
    int rc = ompi_comm_store_ops->remove(ompi_comm_store_map, cid);
    uintptr_t slot = (uintptr_t) ompi_comm_store_ops->lookup(debugger_slots, cid);
    if (0 != slot) {
        opal_pointer_array_set_item(&ompi_comm_store_debugger_comms, (int) (slot - 1), NULL);
        (void) ompi_comm_store_ops->remove(debugger_slots, cid);
    }
    return rc;
}

int ompi_comm_store_finalize(void)
{
    if (NULL != ompi_comm_store_map) {
        if (NULL != debugger_slots) {
            ompi_comm_store_ops->destroy(debugger_slots);
            debugger_slots = NULL;
        }
        OBJ_DESTRUCT(&ompi_comm_store_debugger_comms);
        ompi_comm_store_ops->destroy(ompi_comm_store_map);
        ompi_comm_store_map = NULL;
        OBJ_DESTRUCT(&writer_lock);
    }
    return mca_base_framework_close(&ompi_comm_store_base_framework);
}

int ompi_comm_store_set(uint32_t cid, void *ptr)
{
    int rc = OMPI_SUCCESS;
    writer_lock_take();
    (void) store_remove(cid);
    if (NULL != ptr && 0 != store_insert(cid, ptr)) {
        rc = OMPI_ERR_OUT_OF_RESOURCE;
    }
    OPAL_THREAD_UNLOCK(&writer_lock);
    return rc;
}

bool ompi_comm_store_test_and_set(uint32_t cid, void *ptr)
{
    bool stored;
    writer_lock_take();
    stored = 0 == store_insert(cid, ptr);
    OPAL_THREAD_UNLOCK(&writer_lock);
    return stored;
}

int ompi_comm_store_reserve_lowest(uint32_t from, uint32_t limit, void *ptr, uint32_t *cid)
{
    int rc = -1;
    writer_lock_take();
    if (0 == ompi_comm_store_ops->lowest_free(ompi_comm_store_map, from, cid) && *cid < limit
        && 0 == store_insert(*cid, ptr)) {
        rc = 0;
    }
    OPAL_THREAD_UNLOCK(&writer_lock);
    return rc;
}

int ompi_comm_store_next(uint32_t from, uint32_t *cid, void **ptr)
{
    int rc;
    writer_lock_take();
    rc = ompi_comm_store_ops->next(ompi_comm_store_map, from, cid, ptr);
    OPAL_THREAD_UNLOCK(&writer_lock);
    return rc;
}

int ompi_comm_store_highest(uint32_t *cid)
{
    int rc;
    writer_lock_take();
    rc = ompi_comm_store_ops->highest(ompi_comm_store_map, cid);
    OPAL_THREAD_UNLOCK(&writer_lock);
    return rc;
}

void ompi_comm_store_stats(comm_store_map_stats_t *s)
{
    writer_lock_take();
    ompi_comm_store_ops->stats(ompi_comm_store_map, s);
    OPAL_THREAD_UNLOCK(&writer_lock);
}

uint32_t ompi_comm_store_cid_limit(uint32_t pml_max_contextid)
{
    return (cid_limit_param > 0 && (uint32_t) cid_limit_param < pml_max_contextid)
               ? (uint32_t) cid_limit_param
               : pml_max_contextid;
}

int ompi_comm_store_reserve_highest(uint32_t from, uint32_t limit, void *ptr, uint32_t *cid)
{
    uint32_t high, c = from;
    int rc = -1;
    writer_lock_take();
    if (0 == ompi_comm_store_ops->highest(ompi_comm_store_map, &high) && high >= c) {
        c = high + 1; /* high < limit <= UINT32_MAX: no overflow */
    }
    if (c < limit && 0 == store_insert(c, ptr)) {
        *cid = c;
        rc = 0;
    }
    OPAL_THREAD_UNLOCK(&writer_lock);
    return rc;
}

bool ompi_comm_store_release(uint32_t cid, void *owner)
{
    bool released = false;
    writer_lock_take();
    if (owner == ompi_comm_store_ops->lookup(ompi_comm_store_map, cid)) {
        released = 0 == store_remove(cid);
    }
    OPAL_THREAD_UNLOCK(&writer_lock);
    return released;
}

void ompi_comm_store_cid_allocated(int rounds)
{
    cid_rounds_last = (unsigned int) rounds;
    cid_rounds_total += (unsigned long) rounds;
    cid_allocations++;
    if (1 == rounds) {
        cid_single_round++;
    }
    opal_output_verbose(20, ompi_comm_store_base_framework.framework_output,
                        "comm_store: CID agreed in %d allreduce round(s)", rounds);
}

void ompi_comm_store_cid_exhausted(uint32_t limit)
{
    static bool told = false;
    if (!told) {
        told = true;
        opal_show_help("help-comm-store-base.txt", "cid-exhausted", true, (unsigned) limit,
                       OMPI_COMM_STORE_CID_HIGHEST == ompi_comm_store_cid_policy ? "highest"
                                                                                 : "lowest");
    }
}
