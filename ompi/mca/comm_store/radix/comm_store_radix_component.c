/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MCA glue of the radix communicator store (the structure: comm_store_radix_map.c).
 */
#include "ompi_config.h"

#include "ompi/mca/comm_store/comm_store.h"

/* mca_comm_store_radix_component; comm_store_radix_priority defaults to 10 */
OMPI_COMM_STORE_COMPONENT(radix, 10)
