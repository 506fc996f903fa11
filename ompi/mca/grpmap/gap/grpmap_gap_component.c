/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap gap: gaps at a fixed width with absolute prefix samples (Mir Taheri §4.1.4) and the Elias-Fano form (grpmap_gap.c).
 */
#include "ompi_config.h"

#include "ompi/mca/grpmap/grpmap.h"
#include "ompi/mca/grpmap/gap/grpmap_gap.h"

static const grpmap_repr_t *const gap_reprs[] = {&grpmap_gap_repr, &grpmap_ef_repr, NULL};

MCA_GRPMAP_COMPONENT(gap, gap_reprs, NULL, NULL, NULL);
