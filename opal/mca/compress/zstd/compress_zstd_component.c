/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MCA glue of the zstd codec (the codec itself: compress_zstd_codec.c):
 * defines mca_compress_zstd_component (OPAL_COMPRESS_COMPONENT_WITH_INT).
 */
#include "opal_config.h"

#include "opal/mca/compress/base/base.h"
#include <zstd.h>

#include "opal/mca/compress/zstd/compress_zstd.h"

OPAL_COMPRESS_COMPONENT_WITH_INT(
    zstd, 50, level, ZSTD_minCLevel(), ZSTD_maxCLevel(),
    "zstd compression level: negative levels are faster, 1 is fast with a good ratio, "
    "up to 19 (22 with large windows) for the best ratio at much lower speed");
