/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * bzip2 codec: one bzip2 stream, through libbz2 (the functions are in
 * compress_bzip2_codec.h, shared with the bzip component).
 */
#include "opal/mca/compress/bzip2/compress_bzip2_codec.h"
#include "opal/mca/compress/bzip2/compress_bzip2.h"

int mca_compress_bzip2_block_size = 9;

static size_t bzip2_bound(size_t len)
{
    return opal_compress_bzip2_bound(len);
}

static ssize_t bzip2_compress(const void *in, size_t len, void *out, size_t cap)
{
    return opal_compress_bzip2_compress(in, len, out, cap, mca_compress_bzip2_block_size);
}

static ssize_t bzip2_decompress(const void *in, size_t len, void *out, size_t cap,
                                size_t expected_len)
{
    return opal_compress_bzip2_decompress(in, len, out, cap, expected_len);
}

OPAL_COMPRESS_CODEC(bzip2, bzip2, OPAL_COMPRESS_ID_BZIP2, OPAL_COMPRESS_SPEED_SLOW,
                    OPAL_COMPRESS_DT_ANY);
