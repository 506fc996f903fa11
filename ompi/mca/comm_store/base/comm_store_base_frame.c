/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "ompi_config.h"

#include "opal/mca/base/base.h"
#include "opal/threads/mutex.h"
#include "opal/util/output.h"
#include "opal/util/show_help.h"
#include "ompi/constants.h"
#include "ompi/mca/comm_store/base/base.h"

#include "ompi/mca/comm_store/base/static-components.h"

const comm_store_map_ops_t *ompi_comm_store_ops = NULL;
comm_store_map_t *ompi_comm_store_map = NULL;

/* Serialises writers; readers (lookup) never take it. */
static opal_mutex_t writer_lock;

MCA_BASE_FRAMEWORK_DECLARE(ompi, comm_store, "Communicator storage indexed by context id",
                           NULL, NULL, NULL, mca_comm_store_base_static_components, 0);

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
    opal_output_verbose(10, ompi_comm_store_base_framework.framework_output,
                        "comm_store: selected %s (priority %d)",
                        component->base_version.mca_component_name, priority);
    OBJ_CONSTRUCT(&writer_lock, opal_mutex_t);
    ompi_comm_store_map = module->ops->create();
    if (NULL == ompi_comm_store_map) {
        OBJ_DESTRUCT(&writer_lock);
        mca_base_framework_close(&ompi_comm_store_base_framework);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    ompi_comm_store_ops = module->ops;
    return OMPI_SUCCESS;
}

int ompi_comm_store_finalize(void)
{
    if (NULL != ompi_comm_store_map) {
        ompi_comm_store_ops->destroy(ompi_comm_store_map);
        ompi_comm_store_map = NULL;
        OBJ_DESTRUCT(&writer_lock);
    }
    return mca_base_framework_close(&ompi_comm_store_base_framework);
}

int ompi_comm_store_set(uint32_t cid, void *ptr)
{
    int rc = OMPI_SUCCESS;
    OPAL_THREAD_LOCK(&writer_lock);
    (void) ompi_comm_store_ops->remove(ompi_comm_store_map, cid);
    if (NULL != ptr && 0 != ompi_comm_store_ops->insert(ompi_comm_store_map, cid, ptr)) {
        rc = OMPI_ERR_OUT_OF_RESOURCE;
    }
    OPAL_THREAD_UNLOCK(&writer_lock);
    return rc;
}

bool ompi_comm_store_test_and_set(uint32_t cid, void *ptr)
{
    bool stored;
    OPAL_THREAD_LOCK(&writer_lock);
    stored = 0 == ompi_comm_store_ops->insert(ompi_comm_store_map, cid, ptr);
    OPAL_THREAD_UNLOCK(&writer_lock);
    return stored;
}

int ompi_comm_store_reserve_lowest(uint32_t from, uint32_t limit, void *ptr, uint32_t *cid)
{
    int rc = -1;
    OPAL_THREAD_LOCK(&writer_lock);
    if (0 == ompi_comm_store_ops->lowest_free(ompi_comm_store_map, from, cid) && *cid < limit
        && 0 == ompi_comm_store_ops->insert(ompi_comm_store_map, *cid, ptr)) {
        rc = 0;
    }
    OPAL_THREAD_UNLOCK(&writer_lock);
    return rc;
}

int ompi_comm_store_next(uint32_t from, uint32_t *cid, void **ptr)
{
    int rc;
    OPAL_THREAD_LOCK(&writer_lock);
    rc = ompi_comm_store_ops->next(ompi_comm_store_map, from, cid, ptr);
    OPAL_THREAD_UNLOCK(&writer_lock);
    return rc;
}

int ompi_comm_store_highest(uint32_t *cid)
{
    int rc;
    OPAL_THREAD_LOCK(&writer_lock);
    rc = ompi_comm_store_ops->highest(ompi_comm_store_map, cid);
    OPAL_THREAD_UNLOCK(&writer_lock);
    return rc;
}

void ompi_comm_store_stats(comm_store_map_stats_t *s)
{
    OPAL_THREAD_LOCK(&writer_lock);
    ompi_comm_store_ops->stats(ompi_comm_store_map, s);
    OPAL_THREAD_UNLOCK(&writer_lock);
}
