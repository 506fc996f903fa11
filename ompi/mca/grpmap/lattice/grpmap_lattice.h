/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The `lattice` group-map representation (a list kind): maps of the form
 * ranks[i] = first + sum_k x_k * stride_k, i written in mixed radix over
 * up to eight counts.  Ranges, strides, reversed ranges, block-cyclic sets,
 * faces of cubes and Cartesian sub-blocks in any dimension order are all
 * such maps; each is held in a few dozen bytes, whatever its size.
 */
#ifndef OMPI_MCA_GRPMAP_LATTICE_H
#define OMPI_MCA_GRPMAP_LATTICE_H

#include "ompi/mca/grpmap/grpmap_repr.h"

/* Most levels a lattice may have (counts >= 2 each). */
#define GRPMAP_LATTICE_MAX_LEVELS 8

extern const grpmap_repr_t grpmap_lattice_repr;

#endif /* OMPI_MCA_GRPMAP_LATTICE_H */
