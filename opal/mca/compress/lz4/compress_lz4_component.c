/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MCA glue of the lz4 codec (the codec itself: compress_lz4_codec.c):
 * defines mca_compress_lz4_component (OPAL_COMPRESS_COMPONENT_WITH_INT).
 */
#include "opal_config.h"

#include "opal/mca/compress/base/base.h"
#include "opal/mca/compress/lz4/compress_lz4.h"

OPAL_COMPRESS_COMPONENT_WITH_INT(
    lz4, 30, acceleration, 1, 65537,
    "lz4 acceleration factor (LZ4_compress_fast): 1 gives the best ratio, "
    "each step up trades ratio for speed (1 to 65537)");
