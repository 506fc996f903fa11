/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap wtr: the wavelet tree on runs (Barbay-Navarro; Mir Taheri §4.2.1),
 * the permutation half of a composite for unordered maps (grpmap_wtr.c).
 */
#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/grpmap/grpmap.h"
#include "ompi/mca/grpmap/wtr/grpmap_wtr.h"

static const grpmap_repr_t *const wtr_reprs[] = {&grpmap_wtr_repr, NULL};

MCA_GRPMAP_COMPONENT_LIMIT(wtr, wtr_reprs, "max_runs",
                           "The wavelet tree on runs declines a permutation of more ascending "
                           "runs (Mir Taheri, Scalability of Communicators in MPI, UBC 2011, found "
                           "10^4 to 5*10^4 runs the useful limit)",
                           50000, grpmap_wtr_set_max_runs);
