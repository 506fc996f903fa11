/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * lzo codec: LZO1X-1 (the LZO that CoMPI evaluated) through liblzo2.  The 64 KB work
 * memory is cached per thread, like zstd's contexts.
 */
#include <pthread.h>
#include <stdlib.h>
#include <lzo/lzo1x.h>

#include "opal/mca/compress/base/compress_base_codec.h"
#include "opal/mca/compress/lzo/compress_lzo.h"

static pthread_key_t wrk_key;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int init_ok = 0;

static void init_once(void)
{
    init_ok = LZO_E_OK == lzo_init() && 0 == pthread_key_create(&wrk_key, free);
}

static void *new_wrkmem(void)
{
    return malloc(LZO1X_1_MEM_COMPRESS);
}

static void *get_wrkmem(void)
{
    pthread_once(&once, init_once);
    return init_ok ? opal_compress_base_thread_cache(wrk_key, new_wrkmem) : NULL;
}

static size_t lzo_bound(size_t len)
{
    /* liblzo2's documented worst case for LZO1X. */
    return len + len / 16 + 64 + 3;
}

static ssize_t lzo_compress(const void *in, size_t len, void *out, size_t cap)
{
    int ret = opal_compress_base_check_compress(in, len, out, SIZE_MAX);
    if (OPAL_SUCCESS != ret) {
        return ret;
    }
    /* LZO1X-1 writes without checking the output size. */
    if (cap < lzo_bound(len)) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    void *wrk = get_wrkmem();
    if (NULL == wrk) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    lzo_uint n = 0;
    int rc = lzo1x_1_compress((const unsigned char *) in, len, (unsigned char *) out, &n, wrk);
    return LZO_E_OK == rc ? (ssize_t) n : OPAL_ERROR;
}

static ssize_t lzo_decompress(const void *in, size_t len, void *out, size_t cap,
                              size_t expected_len)
{
    int ret = opal_compress_base_check_decompress(in, out, cap, expected_len);
    if (OPAL_SUCCESS != ret) {
        return ret;
    }
    pthread_once(&once, init_once);
    if (!init_ok) {
        return OPAL_ERROR;
    }
    lzo_uint n = expected_len;
    int rc = lzo1x_decompress_safe((const unsigned char *) in, len, (unsigned char *) out, &n,
                                   NULL);
    /* LZO_E_INPUT_NOT_CONSUMED: trailing bytes, i.e. not our stream. */
    return opal_compress_base_decoded(LZO_E_OK == rc, n, expected_len);
}

OPAL_COMPRESS_CODEC(lzo, lzo, OPAL_COMPRESS_ID_LZO, OPAL_COMPRESS_SPEED_FAST,
                    OPAL_COMPRESS_DT_ANY);
