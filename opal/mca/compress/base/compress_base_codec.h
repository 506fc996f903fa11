/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Helpers for the codec cores: steps of the codec contract
 * (compress_codec.h) that several codecs take the same way, and the cache
 * of per-thread library state.
 *
 * C library and opal/constants.h only, like compress_codec.h, so that the
 * codec cores still build into plain C unit tests.
 */
#ifndef OPAL_COMPRESS_BASE_CODEC_H
#define OPAL_COMPRESS_BASE_CODEC_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "opal/mca/compress/compress_codec.h"

/* Largest size a codec function can return (ssize_t is as wide as size_t). */
#define OPAL_COMPRESS_BASE_MAX_RET (SIZE_MAX >> 1)

/* a + b, or SIZE_MAX if that overflows: a bound that saturates makes
 * compress() fail cleanly on such sizes instead of promising a wrapped
 * size. */
static inline size_t opal_compress_base_add_sat(size_t a, size_t b)
{
    return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

/*
 * The start of compress() in the codecs built on a library (lzo, lz4,
 * zstd, bzip2): OPAL_ERR_BAD_PARAM for a NULL pointer, as the contract
 * says, and OPAL_ERR_NOT_SUPPORTED for an input longer than max_len, the
 * most the library takes in one call.
 */
static inline int opal_compress_base_check_compress(const void *in, size_t len, const void *out,
                                                    size_t max_len)
{
    if ((NULL == in && len > 0) || NULL == out) {
        return OPAL_ERR_BAD_PARAM;
    }
    if (len > max_len) {
        return OPAL_ERR_NOT_SUPPORTED;
    }
    return OPAL_SUCCESS;
}

/*
 * The start of decompress() in the codecs built on a library (lzo, lz4,
 * zstd, bzip2): OPAL_ERR_OUT_OF_RESOURCE before anything about the input,
 * as the contract says, and OPAL_ERR_UNPACK_FAILURE for a NULL pointer.
 */
static inline int opal_compress_base_check_decompress(const void *in, const void *out,
                                                      size_t cap, size_t expected_len)
{
    if (expected_len > cap) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    if (NULL == in || NULL == out) {
        return OPAL_ERR_UNPACK_FAILURE;
    }
    return OPAL_SUCCESS;
}

/* decompress()'s result once a library decoded n bytes (ok: without an
 * error): a stream is ours only if it decodes to exactly expected_len. */
static inline ssize_t opal_compress_base_decoded(int ok, size_t n, size_t expected_len)
{
    return ok && n == expected_len ? (ssize_t) n : OPAL_ERR_UNPACK_FAILURE;
}

/*
 * The start of compress() in the codecs written here (rle, huffman, rice),
 * which encode an empty input as the empty stream.  Returns compress()'s
 * result when it is settled (0 for an empty input, OPAL_ERR_BAD_PARAM for a
 * NULL pointer), or 1 to go on, with *cap lowered to what the result can
 * carry (the codec never writes past it).
 */
static inline ssize_t opal_compress_base_compress_begin(const void *in, size_t len,
                                                        const void *out, size_t *cap)
{
    if (0 == len) {
        return 0;
    }
    if (NULL == in || NULL == out) {
        return OPAL_ERR_BAD_PARAM;
    }
    if (*cap > OPAL_COMPRESS_BASE_MAX_RET) {
        *cap = OPAL_COMPRESS_BASE_MAX_RET;
    }
    return 1;
}

/*
 * The start of decompress() in the headerless codecs written here (rle,
 * rice), where only the empty stream decodes to nothing.  Returns
 * decompress()'s result when it is settled, in the contract's order
 * (OPAL_ERR_OUT_OF_RESOURCE before anything about the input), or 1 to go
 * on: expected_len is then in 1..cap and fits the result.
 */
static inline ssize_t opal_compress_base_decompress_begin(const void *in, size_t len,
                                                          const void *out, size_t cap,
                                                          size_t expected_len)
{
    if (expected_len > cap) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    if (0 == expected_len) {
        return 0 == len ? 0 : OPAL_ERR_UNPACK_FAILURE;
    }
    if ((NULL == in && len > 0) || NULL == out || expected_len > OPAL_COMPRESS_BASE_MAX_RET) {
        return OPAL_ERR_BAD_PARAM;
    }
    return 1;
}

/*
 * This thread's instance of a library codec's state (a context, work
 * memory) under key: made by make() on the thread's first call and freed
 * by the key's destructor when the thread exits.  Making one per call costs
 * more than coding a small block.  NULL if make() fails; the next call
 * tries again.
 */
static inline void *opal_compress_base_thread_cache(pthread_key_t key, void *(*make)(void))
{
    void *p = pthread_getspecific(key);
    if (NULL == p && NULL != (p = make())) {
        pthread_setspecific(key, p);
    }
    return p;
}

#endif /* OPAL_COMPRESS_BASE_CODEC_H */
