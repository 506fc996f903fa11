/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MCA_COMPRESS_LZ4_H
#define MCA_COMPRESS_LZ4_H

#include "opal/mca/compress/compress_codec.h"

extern const opal_compress_codec_t mca_compress_lz4_codec;
/* LZ4_compress_fast's acceleration: 1 = best ratio, higher = faster. */
extern int mca_compress_lz4_acceleration;

#endif
