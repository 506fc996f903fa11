/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The bzip2 codec's functions (one bzip2 stream, through libbz2), static
 * inline: the bzip2 component and the bzip component (Open MPI 4.1's name
 * for it, ../bzip) both build their codec from this one source, so that
 * each works without the other ("--mca compress bzip" loads only bzip) and
 * a static build, which links both into libopen-pal, defines no symbol
 * twice.  Block size as an argument: each component has its own.
 *
 * C library, libbz2 and opal/constants.h only (compress_base_codec.h), so
 * that the unit tests link the codec directly.
 */
#ifndef MCA_COMPRESS_BZIP2_CODEC_H
#define MCA_COMPRESS_BZIP2_CODEC_H

#include <limits.h>
#include <bzlib.h>

#include "opal/mca/compress/base/compress_base_codec.h"

static inline size_t opal_compress_bzip2_bound(size_t len)
{
    /* libbz2's documented worst case: 1 % + 600 bytes. */
    return len + len / 100 + 601;
}

/* block_size: 1..9, in units of 100 kB */
static inline ssize_t opal_compress_bzip2_compress(const void *in, size_t len, void *out,
                                                   size_t cap, int block_size)
{
    /* libbz2's buffer API takes unsigned int */
    int ret = opal_compress_base_check_compress(in, len, out, UINT_MAX / 2);
    if (OPAL_SUCCESS != ret) {
        return ret;
    }
    char dummy = 0;
    unsigned int n = cap > UINT_MAX ? UINT_MAX : (unsigned int) cap;
    int rc = BZ2_bzBuffToBuffCompress((char *) out, &n, len ? (char *) in : &dummy,
                                      (unsigned int) len, block_size, 0, 0);
    if (BZ_OK == rc) {
        return (ssize_t) n;
    }
    return BZ_OUTBUFF_FULL == rc ? OPAL_ERR_OUT_OF_RESOURCE
         : BZ_MEM_ERROR == rc    ? OPAL_ERR_OUT_OF_RESOURCE
         : BZ_PARAM_ERROR == rc  ? OPAL_ERR_BAD_PARAM : OPAL_ERROR;
}

static inline ssize_t opal_compress_bzip2_decompress(const void *in, size_t len, void *out,
                                                     size_t cap, size_t expected_len)
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

#endif /* MCA_COMPRESS_BZIP2_CODEC_H */
