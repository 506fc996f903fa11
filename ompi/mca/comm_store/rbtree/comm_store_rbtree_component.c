/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MCA glue of the rbtree communicator store (the structure: comm_store_rbtree_map.c).
 */
#include "ompi_config.h"

#include "ompi/mca/comm_store/comm_store.h"

/* mca_comm_store_rbtree_component; comm_store_rbtree_priority defaults to 10 */
OMPI_COMM_STORE_COMPONENT(rbtree, 10)
