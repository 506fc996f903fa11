/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MCA_COMPRESS_BZIP2_H
#define MCA_COMPRESS_BZIP2_H

#include "opal/mca/compress/compress_codec.h"

extern const opal_compress_codec_t mca_compress_bzip2_codec;
/* bzip2 block size in units of 100 kB (1..9). */
extern int mca_compress_bzip2_block_size;

#endif
