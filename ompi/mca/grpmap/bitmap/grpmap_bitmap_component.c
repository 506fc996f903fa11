/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap bitmap: a bitmap from the first to the last member with per-block counts, popcount SELECT (Mir Taheri §4.1.3; grpmap_bitmap.c).
 */
#include "ompi_config.h"

#include "ompi/mca/grpmap/grpmap.h"
#include "ompi/mca/grpmap/bitmap/grpmap_bitmap.h"

static const grpmap_repr_t *const bitmap_reprs[] = {&grpmap_bitmap_repr, NULL};

MCA_GRPMAP_COMPONENT(bitmap, bitmap_reprs, NULL, NULL, NULL);
