/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MCA glue of the flat communicator store (the structure: comm_store_flat_map.c).
 */
#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/comm_store/comm_store.h"

static int flat_query(mca_base_module_t **module, int *priority);

static mca_comm_store_base_module_t flat_module = {.ops = &comm_store_flat_ops};
static int flat_priority = 20;

static int flat_register(void);

mca_comm_store_base_component_t mca_comm_store_flat_component = {
    .base_version = {
        MCA_COMM_STORE_BASE_VERSION_1_0_0,
        .mca_component_name = "flat",
        MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                              OMPI_RELEASE_VERSION),
        .mca_query_component = flat_query,
        .mca_register_component_params = flat_register,
    },
    .base_data = {MCA_BASE_METADATA_PARAM_CHECKPOINT},
};

static int flat_register(void)
{
    (void) mca_base_component_var_register(
        &mca_comm_store_flat_component.base_version, "priority",
        "Priority of the flat communicator store (the highest is used unless "
        "--mca comm_store <name> selects one)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_READONLY,
        &flat_priority);
    return OMPI_SUCCESS;
}

static int flat_query(mca_base_module_t **module, int *priority)
{
    *module = (mca_base_module_t *) &flat_module;
    *priority = flat_priority;
    return OMPI_SUCCESS;
}
