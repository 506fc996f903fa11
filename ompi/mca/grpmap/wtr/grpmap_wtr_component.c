/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap wtr: the wavelet tree on runs (Barbay-Navarro; thesis §4.2.1),
 * the permutation half of a composite for unordered maps (grpmap_wtr.c).
 */
#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/grpmap/grpmap.h"
#include "ompi/mca/grpmap/wtr/grpmap_wtr.h"

static const grpmap_repr_t *const wtr_reprs[] = {&grpmap_wtr_repr, NULL};
static int max_runs = 50000;
static int wtr_register(void);

MCA_GRPMAP_COMPONENT(wtr, wtr_reprs, wtr_register);

static int wtr_register(void)
{
    (void) mca_base_component_var_register(
        &mca_grpmap_wtr_component.base_version, "max_runs",
        "The wavelet tree on runs declines a permutation of more ascending runs "
        "(the thesis found 10^4 to 5*10^4 the useful limit)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_READONLY,
        &max_runs);
    grpmap_wtr_set_max_runs(max_runs);
    return OMPI_SUCCESS;
}
