/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * bzip2 codec: one bzip2 stream, through libbz2.
 */
#include <limits.h>
#include <bzlib.h>

#include "opal/mca/compress/base/compress_base_codec.h"
#include "opal/mca/compress/bzip2/compress_bzip2.h"

int mca_compress_bzip2_block_size = 9;

static size_t bzip2_bound(size_t len)
{
    /* libbz2's documented worst case: 1 % + 600 bytes. */
    return len + len / 100 + 601;
}

static ssize_t bzip2_compress(const void *in, size_t len, void *out, size_t cap)
{
    /* libbz2's buffer API takes unsigned int */
    int ret = opal_compress_base_check_compress(in, len, out, UINT_MAX / 2);
    if (OPAL_SUCCESS != ret) {
        return ret;
    }
    char dummy = 0;
    unsigned int n = cap > UINT_MAX ? UINT_MAX : (unsigned int) cap;
    int rc = BZ2_bzBuffToBuffCompress((char *) out, &n, len ? (char *) in : &dummy,
                                      (unsigned int) len, mca_compress_bzip2_block_size, 0, 0);
    if (BZ_OK == rc) {
        return (ssize_t) n;
    }
    return BZ_OUTBUFF_FULL == rc ? OPAL_ERR_OUT_OF_RESOURCE
         : BZ_MEM_ERROR == rc    ? OPAL_ERR_OUT_OF_RESOURCE
         : BZ_PARAM_ERROR == rc  ? OPAL_ERR_BAD_PARAM : OPAL_ERROR;
}

static ssize_t bzip2_decompress(const void *in, size_t len, void *out, size_t cap,
                                size_t expected_len)
{
    int ret = opal_compress_base_check_decompress(in, out, cap, expected_len);
    if (OPAL_SUCCESS != ret) {
        return ret;
    }
    if (len > UINT_MAX || expected_len > UINT_MAX / 2) {
        return OPAL_ERR_UNPACK_FAILURE;
    }
    /* Bounded by expected_len: a stream that decodes longer fails with
     * BZ_OUTBUFF_FULL instead of writing further. */
    unsigned int n = (unsigned int) expected_len;
    int rc = BZ2_bzBuffToBuffDecompress((char *) out, &n, (char *) in, (unsigned int) len, 0, 0);
    if (BZ_MEM_ERROR == rc) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    return opal_compress_base_decoded(BZ_OK == rc, n, expected_len);
}

OPAL_COMPRESS_CODEC(bzip2, bzip2, OPAL_COMPRESS_ID_BZIP2, OPAL_COMPRESS_SPEED_SLOW,
                    OPAL_COMPRESS_DT_ANY);
