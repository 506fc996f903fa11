/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * zstd codec: one zstd frame, through libzstd.  Contexts are cached per
 * thread: creating one per call costs more than compressing a small block.
 */
#include <pthread.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "opal/mca/compress/base/compress_base_codec.h"
#include "opal/mca/compress/zstd/compress_zstd.h"

int mca_compress_zstd_level = 1;

static pthread_key_t cctx_key, dctx_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static int keys_ok = 0;

static void free_cctx(void *p)
{
    ZSTD_freeCCtx((ZSTD_CCtx *) p);
}

static void free_dctx(void *p)
{
    ZSTD_freeDCtx((ZSTD_DCtx *) p);
}

static void make_keys(void)
{
    keys_ok = 0 == pthread_key_create(&cctx_key, free_cctx)
              && 0 == pthread_key_create(&dctx_key, free_dctx);
}

static void *new_cctx(void)
{
    return ZSTD_createCCtx();
}

static void *new_dctx(void)
{
    return ZSTD_createDCtx();
}

static ZSTD_CCtx *get_cctx(void)
{
    pthread_once(&key_once, make_keys);
    return keys_ok ? opal_compress_base_thread_cache(cctx_key, new_cctx) : NULL;
}

static ZSTD_DCtx *get_dctx(void)
{
    pthread_once(&key_once, make_keys);
    return keys_ok ? opal_compress_base_thread_cache(dctx_key, new_dctx) : NULL;
}

static size_t zstd_bound(size_t len)
{
    return ZSTD_compressBound(len);
}

static ssize_t zstd_compress(const void *in, size_t len, void *out, size_t cap)
{
    ZSTD_CCtx *c;
    int ret = opal_compress_base_check_compress(in, len, out, SIZE_MAX);
    if (OPAL_SUCCESS != ret) {
        return ret;
    }
    if (NULL == (c = get_cctx())) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    size_t n = ZSTD_compressCCtx(c, out, cap, in, len, mca_compress_zstd_level);
    if (ZSTD_isError(n)) {
        return ZSTD_getErrorCode(n) == ZSTD_error_dstSize_tooSmall ? OPAL_ERR_OUT_OF_RESOURCE
                                                                   : OPAL_ERROR;
    }
    return (ssize_t) n;
}

static ssize_t zstd_decompress(const void *in, size_t len, void *out, size_t cap,
                               size_t expected_len)
{
    int ret = opal_compress_base_check_decompress(in, out, cap, expected_len);
    if (OPAL_SUCCESS != ret) {
        return ret;
    }
    ZSTD_DCtx *d = get_dctx();
    if (NULL == d) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    /* The frame must decode to exactly expected_len and fill the input. */
    size_t n = ZSTD_decompressDCtx(d, out, expected_len, in, len);
    return opal_compress_base_decoded(!ZSTD_isError(n), n, expected_len);
}

OPAL_COMPRESS_CODEC(zstd, zstd, OPAL_COMPRESS_ID_ZSTD, OPAL_COMPRESS_SPEED_MEDIUM,
                    OPAL_COMPRESS_DT_ANY);
