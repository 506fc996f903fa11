/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap lattice: ranks as first + sum of x_k * stride_k over up to 8 levels (ranges, strides, block-cyclic sets, faces and sub-blocks of grids in any order); O(1) bytes (grpmap_lattice.c).
 */
#include "ompi_config.h"

#include "ompi/mca/grpmap/grpmap.h"
#include "ompi/mca/grpmap/lattice/grpmap_lattice.h"

static const grpmap_repr_t *const lattice_reprs[] = {&grpmap_lattice_repr, NULL};

MCA_GRPMAP_COMPONENT(lattice, lattice_reprs, NULL, NULL, NULL);
