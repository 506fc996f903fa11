/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * comm_store: where Open MPI keeps the communicator of every context id
 * (CID).  One component is selected (flat, rbtree, radix); the core reaches
 * it through ompi/mca/comm_store/base/base.h.  Seed: Bosilca et al.,
 * "Trade-offs in Context Identifier Allocation in MPI".
 */
#ifndef OMPI_MCA_COMM_STORE_H
#define OMPI_MCA_COMM_STORE_H

#include "ompi_config.h"

#include "ompi/mca/mca.h"
#include "opal/mca/base/base.h"
#include "ompi/mca/comm_store/comm_store_map.h"

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

END_C_DECLS

#endif
