/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MCA glue of the fpc codec (the codec itself: compress_fpc_codec.c):
 * defines mca_compress_fpc_component (OPAL_COMPRESS_COMPONENT_WITH_INT).
 */
#include "opal_config.h"

#include "opal/mca/compress/base/base.h"
#include "opal/mca/compress/fpc/compress_fpc.h"

OPAL_COMPRESS_COMPONENT_WITH_INT(
    fpc, 10, table_bits, 1, 24,
    "log2 of the number of entries of each FPC predictor table (1 to 24): larger "
    "tables predict better and use 16 bytes per entry per call");
