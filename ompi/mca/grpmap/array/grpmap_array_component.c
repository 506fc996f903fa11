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
static int blocks_divisor = 64;
static int array_register(void);

MCA_GRPMAP_COMPONENT(array, array_reprs, array_register);

static int array_register(void)
{
    (void) mca_base_component_var_register(
        &mca_grpmap_array_component.base_version, "blocks_divisor",
        "The blocks form declines a map of n members cut into more than "
        "max(16, n / blocks_divisor) ranges (each range costs up to 25 bytes besides its members)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_READONLY,
        &blocks_divisor);
    grpmap_blocks_set_divisor(blocks_divisor);
    return OMPI_SUCCESS;
}
