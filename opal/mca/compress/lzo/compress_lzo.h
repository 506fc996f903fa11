/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MCA_COMPRESS_LZO_H
#define MCA_COMPRESS_LZO_H

#include "opal/mca/compress/compress_codec.h"

extern const opal_compress_codec_t mca_compress_lzo_codec;

#endif
