/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * comm_store: where Open MPI keeps the communicator of every context id
 * (CID).  One component is selected (flat, rbtree, radix); the core reaches
 * it through ompi/mca/comm_store/base/base.h.  After G. Bosilca, T. Herault
 * and J. Dongarra, "Trade-offs in Context Identifier Allocation in MPI".
 */
#ifndef OMPI_MCA_COMM_STORE_H
#define OMPI_MCA_COMM_STORE_H

#include "ompi_config.h"

#include "ompi/mca/mca.h"
#include "opal/mca/base/base.h"
#include "ompi/mca/comm_store/comm_store_map.h"
#include "opal/mca/common/suite/common_suite.h"
#include "ompi/constants.h"

BEGIN_C_DECLS

/* A module is the storage structure a component provides. */
typedef struct mca_comm_store_base_module_1_0_0_t {
    const comm_store_map_ops_t *ops;
} mca_comm_store_base_module_1_0_0_t;
typedef mca_comm_store_base_module_1_0_0_t mca_comm_store_base_module_t;

typedef struct mca_comm_store_base_component_1_0_0_t {
    mca_base_component_t base_version;
    mca_base_component_data_t base_data;
} mca_comm_store_base_component_1_0_0_t;
typedef mca_comm_store_base_component_1_0_0_t mca_comm_store_base_component_t;

#define MCA_COMM_STORE_BASE_VERSION_1_0_0 \
    OMPI_MCA_BASE_VERSION_2_1_0("comm_store", 1, 0, 0)

/* OMPI_COMM_STORE_COMPONENT(flat, 20) defines mca_comm_store_flat_component
 * (exported), the component "flat" whose module serves comm_store_flat_ops
 * (comm_store_map.h), and its MCA variable comm_store_flat_priority
 * (default 20, level 9), which the query reports; every other name it
 * defines is static and starts with comm_store_flat_. */
#define OMPI_COMM_STORE_COMPONENT(name, dflt_priority)                                       \
    static mca_comm_store_base_module_t comm_store_##name##_module = {                        \
        .ops = &comm_store_##name##_ops};                                                     \
    static int comm_store_##name##_priority;                                                  \
    static int comm_store_##name##_query(mca_base_module_t **module, int *priority)          \
    {                                                                                         \
        *module = (mca_base_module_t *) &comm_store_##name##_module;                          \
        *priority = comm_store_##name##_priority;                                             \
        return OMPI_SUCCESS;                                                                  \
    }                                                                                         \
    static int comm_store_##name##_register(void);                                            \
    mca_comm_store_base_component_t mca_comm_store_##name##_component = {                     \
        .base_version = {MCA_COMM_STORE_BASE_VERSION_1_0_0, .mca_component_name = #name,      \
                         MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION,                 \
                                               OMPI_MINOR_VERSION, OMPI_RELEASE_VERSION),     \
                         .mca_query_component = comm_store_##name##_query,                    \
                         .mca_register_component_params = comm_store_##name##_register},      \
        .base_data = {MCA_BASE_METADATA_PARAM_CHECKPOINT}};                                   \
    static int comm_store_##name##_register(void)                                             \
    {                                                                                         \
        (void) common_suite_register_int(&mca_comm_store_##name##_component.base_version,     \
                                         "priority", "Priority of the " #name                 \
                                         " communicator store (the highest is used unless "   \
                                         "--mca comm_store <name> selects one)",              \
                                         OPAL_INFO_LVL_9, dflt_priority,                      \
                                         &comm_store_##name##_priority);                      \
        return OMPI_SUCCESS;                                                                  \
    }

END_C_DECLS

#endif
