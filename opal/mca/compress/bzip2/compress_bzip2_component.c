/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MCA glue of the bzip2 codec (the codec itself: compress_bzip2_codec.c):
 * defines mca_compress_bzip2_component (OPAL_COMPRESS_COMPONENT_WITH_INT).
 */
#include "opal_config.h"

#include "opal/mca/compress/base/base.h"
#include "opal/mca/compress/bzip2/compress_bzip2.h"

OPAL_COMPRESS_COMPONENT_WITH_INT(
    bzip2, 40, block_size, 1, 9,
    "bzip2 block size in units of 100 kB (1 to 9): larger blocks compress better "
    "and need more memory (about 8x the block size to compress)");
