/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap wtr: the wavelet tree on runs of Barbay and Navarro (Mir Taheri
 * §4.2.1), a permutation of [0, n) with rho ascending runs in about
 * n ceil(lg rho) bits: the permutation half of a composite.
 */
#ifndef OMPI_MCA_GRPMAP_WTR_H
#define OMPI_MCA_GRPMAP_WTR_H

#include "ompi/mca/grpmap/grpmap_repr.h"

extern const grpmap_repr_t grpmap_wtr_repr;

/* Later builds decline permutations of more than max_runs ascending runs
 * (default 50,000). */
void grpmap_wtr_set_max_runs(int32_t max_runs);

#endif
