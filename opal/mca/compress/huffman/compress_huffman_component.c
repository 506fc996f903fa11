/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MCA glue of the huffman codec (the codec itself: compress_huffman_codec.c):
 * defines mca_compress_huffman_component (OPAL_COMPRESS_COMPONENT).
 */
#include "opal_config.h"

#include "opal/mca/compress/base/base.h"
#include "opal/mca/compress/huffman/compress_huffman.h"

OPAL_COMPRESS_COMPONENT(huffman, 5, NULL, NULL);
