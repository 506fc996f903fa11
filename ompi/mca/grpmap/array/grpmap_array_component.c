/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap array: the packed array (ceil(lg N) bits a member) and blocks
 * (ranges listed in any order inside; grpmap_array.c).
 */
#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/grpmap/grpmap.h"
#include "ompi/mca/grpmap/array/grpmap_array.h"

static const grpmap_repr_t *const array_reprs[] = {&grpmap_array_repr, &grpmap_blocks_repr, NULL};

MCA_GRPMAP_COMPONENT_LIMIT(array, array_reprs, "blocks_divisor",
                           "The blocks form declines a map of n members cut into more than "
                           "max(16, n / blocks_divisor) ranges (each range costs up to 25 "
                           "bytes besides its members)",
                           64, grpmap_blocks_set_divisor);
