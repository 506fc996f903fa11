/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MCA glue of the rice codec (the codec itself: compress_rice_codec.c):
 * defines mca_compress_rice_component (OPAL_COMPRESS_COMPONENT).
 */
#include "opal_config.h"

#include "opal/mca/compress/base/base.h"
#include "opal/mca/compress/rice/compress_rice.h"

OPAL_COMPRESS_COMPONENT(rice, 5, NULL, NULL);
