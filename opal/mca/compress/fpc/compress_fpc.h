/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * FPC block codec: lossless compressor for IEEE-754 doubles (Burtscher and
 * Ratanaworabhan, IEEE TC 2009).  See compress_codec.h for the contract.
 */
#ifndef OPAL_MCA_COMPRESS_FPC_H
#define OPAL_MCA_COMPRESS_FPC_H

#include "opal/mca/compress/compress_codec.h"

/* log2 of the entries in each predictor table (1..24, default 16).  Only
 * compress() reads it; the value used travels in the stream header, so any
 * stream decodes whatever the current setting. */
extern int mca_compress_fpc_table_bits;

extern const opal_compress_codec_t mca_compress_fpc_codec;

#endif /* OPAL_MCA_COMPRESS_FPC_H */
