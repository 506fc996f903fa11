/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MCA glue of the rle codec (the codec itself: compress_rle_codec.c):
 * defines mca_compress_rle_component (OPAL_COMPRESS_COMPONENT).
 */
#include "opal_config.h"

#include "opal/mca/compress/base/base.h"
#include "opal/mca/compress/rle/compress_rle.h"

OPAL_COMPRESS_COMPONENT(rle, 5, NULL, NULL);
