/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap array: Mir Taheri's optimised canonical array (ceil(lg N) bits a
 * member) and blocks (a few world ranges, each listed in any order inside:
 * Mir Taheri's patterns 13 and 14), both for maps in any order.
 */
#ifndef OMPI_MCA_GRPMAP_ARRAY_H
#define OMPI_MCA_GRPMAP_ARRAY_H

#include "ompi/mca/grpmap/grpmap_repr.h"

extern const grpmap_repr_t grpmap_array_repr;
extern const grpmap_repr_t grpmap_blocks_repr;

/* blocks declines maps of more than max(16, n / divisor) blocks (default 64) */
void grpmap_blocks_set_divisor(int32_t divisor);

#endif
