/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MCA glue of the lzo codec (the codec itself: compress_lzo_codec.c):
 * defines mca_compress_lzo_component (OPAL_COMPRESS_COMPONENT).
 */
#include "opal_config.h"

#include "opal/mca/compress/base/base.h"
#include "opal/mca/compress/lzo/compress_lzo.h"

OPAL_COMPRESS_COMPONENT(lzo, 20, NULL, NULL);
