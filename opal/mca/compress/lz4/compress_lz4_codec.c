/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * lz4 codec: a raw LZ4 block (no frame), through liblz4.
 */
#include <limits.h>
#include <lz4.h>

#include "opal/mca/compress/base/compress_base_codec.h"
#include "opal/mca/compress/lz4/compress_lz4.h"

int mca_compress_lz4_acceleration = 1;

static size_t lz4_bound(size_t len)
{
    /* LZ4_compressBound's formula, valid past LZ4_MAX_INPUT_SIZE too. */
    return len + len / 255 + 16;
}

static ssize_t lz4_compress(const void *in, size_t len, void *out, size_t cap)
{
    /* liblz4 blocks are limited to ~2 GB */
    int ret = opal_compress_base_check_compress(in, len, out, LZ4_MAX_INPUT_SIZE);
    if (OPAL_SUCCESS != ret) {
        return ret;
    }
    int n = LZ4_compress_fast((const char *) in, (char *) out, (int) len,
                              cap > INT_MAX ? INT_MAX : (int) cap,
                              mca_compress_lz4_acceleration);
    return n > 0 ? n : OPAL_ERR_OUT_OF_RESOURCE;
}

static ssize_t lz4_decompress(const void *in, size_t len, void *out, size_t cap,
                              size_t expected_len)
{
    int ret = opal_compress_base_check_decompress(in, out, cap, expected_len);
    if (OPAL_SUCCESS != ret) {
        return ret;
    }
    if (len > INT_MAX || expected_len > LZ4_MAX_INPUT_SIZE) {
        return OPAL_ERR_UNPACK_FAILURE;
    }
    /* Bounded by expected_len, not cap: a stream that decodes longer fails. */
    int n = LZ4_decompress_safe((const char *) in, (char *) out, (int) len, (int) expected_len);
    return opal_compress_base_decoded(n >= 0, (size_t) n, expected_len);
}

OPAL_COMPRESS_CODEC(lz4, lz4, OPAL_COMPRESS_ID_LZ4, OPAL_COMPRESS_SPEED_FAST,
                    OPAL_COMPRESS_DT_ANY);
