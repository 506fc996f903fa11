/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * gzip codec: one zlib stream (RFC 1950: deflate in a 2-byte header and an
 * Adler-32 of the data) per block, through zlib.  Not raw deflate: the
 * header check and the Adler-32 make the decoder refuse nearly every
 * corrupt block, as bzip2's CRCs do (test/unit: no single-bit flip decodes
 * to wrong data), for 6 bytes and Adler-32's time (about 2.6 GB/s here: a
 * few percent of compressing, under a tenth of decompressing compressible
 * data); Adler-32 is weak only on blocks of a few hundred bytes.  Not
 * gzip's file format either, whose 18 bytes of name, time and CRC-32 say
 * nothing more about a block; .gz files are written by the file functions
 * at the end.  Streams are cached per thread: making one costs more than
 * compressing a small block (deflate's state is about 256 kB).
 */
#define ZLIB_CONST
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "opal/mca/compress/base/compress_base_codec.h"
#include "opal/mca/compress/gzip/compress_gzip.h"

/* 1: zcomp compresses on a message's critical path, where deflate's
 * fastest level pays and 6 (gzip's and upstream's default) seldom does. */
int mca_compress_gzip_level = 1;

/* A 32 kB window and memLevel 8: zlib's defaults, for which its
 * compressBound() formula (gzip_bound) holds. */
#define GZIP_WBITS 15
#define GZIP_MEMLEVEL 8

typedef struct {
    z_stream z;
    int level; /* the level z was made with; INT_MIN: not made */
} gzip_deflater_t;

static pthread_key_t deflater_key, inflater_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static int keys_ok = 0;

static void free_deflater(void *p)
{
    deflateEnd(&((gzip_deflater_t *) p)->z);
    free(p);
}

static void free_inflater(void *p)
{
    inflateEnd((z_stream *) p);
    free(p);
}

static void make_keys(void)
{
    keys_ok = 0 == pthread_key_create(&deflater_key, free_deflater)
              && 0 == pthread_key_create(&inflater_key, free_inflater);
}

static void *new_deflater(void)
{
    gzip_deflater_t *d = calloc(1, sizeof(*d));
    if (NULL != d) {
        d->level = INT_MIN;
    }
    return d;
}

static void *new_inflater(void)
{
    z_stream *z = calloc(1, sizeof(*z));
    if (NULL != z && Z_OK != inflateInit2(z, GZIP_WBITS)) {
        free(z);
        z = NULL;
    }
    return z;
}

/* This thread's deflate stream at the current level, reset. */
static z_stream *get_deflater(void)
{
    gzip_deflater_t *d;
    pthread_once(&key_once, make_keys);
    if (!keys_ok || NULL == (d = opal_compress_base_thread_cache(deflater_key, new_deflater))) {
        return NULL;
    }
    /* Made again when the level changed (tests change it between calls):
     * deflateParams on a used stream would flush into the last caller's
     * buffer with older zlibs. */
    if (d->level != mca_compress_gzip_level) {
        deflateEnd(&d->z);
        memset(&d->z, 0, sizeof(d->z));
        d->level = INT_MIN;
        if (Z_OK != deflateInit2(&d->z, mca_compress_gzip_level, Z_DEFLATED, GZIP_WBITS,
                                 GZIP_MEMLEVEL, Z_DEFAULT_STRATEGY)) {
            return NULL;
        }
        d->level = mca_compress_gzip_level;
    }
    return Z_OK == deflateReset(&d->z) ? &d->z : NULL;
}

/* This thread's inflate stream, reset. */
static z_stream *get_inflater(void)
{
    z_stream *z;
    pthread_once(&key_once, make_keys);
    if (!keys_ok || NULL == (z = opal_compress_base_thread_cache(inflater_key, new_inflater))) {
        return NULL;
    }
    return Z_OK == inflateReset(z) ? z : NULL;
}

/* The next piece of a length that zlib takes (its lengths are unsigned
 * int), taken from *left. */
static unsigned int take(size_t *left)
{
    unsigned int n = *left > UINT_MAX ? UINT_MAX : (unsigned int) *left;
    *left -= n;
    return n;
}

static size_t gzip_bound(size_t len)
{
    /* compressBound()'s formula, saturating instead of wrapping */
    return opal_compress_base_add_sat(len, (len >> 12) + (len >> 14) + (len >> 25) + 13);
}

static ssize_t gzip_compress(const void *in, size_t len, void *out, size_t cap)
{
    size_t in_left = len, out_left = cap > OPAL_COMPRESS_BASE_MAX_RET ? OPAL_COMPRESS_BASE_MAX_RET
                                                                      : cap;
    z_stream *z;
    int zrc;
    int ret = opal_compress_base_check_compress(in, len, out, SIZE_MAX);
    if (OPAL_SUCCESS != ret) {
        return ret;
    }
    if (NULL == (z = get_deflater())) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    z->next_in = (const Bytef *) in;
    z->avail_in = 0;
    z->next_out = (Bytef *) out;
    z->avail_out = 0;
    /* Fed in pieces of at most UINT_MAX; deflate stops with Z_BUF_ERROR
     * once out[0..cap) is full and more is to come. */
    do {
        if (0 == z->avail_in) {
            z->avail_in = take(&in_left);
        }
        if (0 == z->avail_out) {
            z->avail_out = take(&out_left);
        }
        zrc = deflate(z, 0 == in_left ? Z_FINISH : Z_NO_FLUSH);
    } while (Z_OK == zrc);
    if (Z_STREAM_END == zrc) {
        return (ssize_t) (z->next_out - (Bytef *) out);
    }
    return Z_BUF_ERROR == zrc || Z_MEM_ERROR == zrc ? OPAL_ERR_OUT_OF_RESOURCE : OPAL_ERROR;
}

static ssize_t gzip_decompress(const void *in, size_t len, void *out, size_t cap,
                               size_t expected_len)
{
    size_t in_left = len, out_left = expected_len;
    z_stream *z;
    int zrc;
    int ret = opal_compress_base_check_decompress(in, out, cap, expected_len);
    if (OPAL_SUCCESS != ret) {
        return ret;
    }
    if (expected_len > OPAL_COMPRESS_BASE_MAX_RET) {
        return OPAL_ERR_UNPACK_FAILURE;
    }
    if (NULL == (z = get_inflater())) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    z->next_in = (const Bytef *) in;
    z->avail_in = 0;
    z->next_out = (Bytef *) out;
    z->avail_out = 0;
    /* Bounded by expected_len, not cap: a stream that decodes longer stops
     * with Z_BUF_ERROR instead of writing further; so does a truncated
     * one at the end of the input. */
    do {
        if (0 == z->avail_in) {
            z->avail_in = take(&in_left);
        }
        if (0 == z->avail_out) {
            z->avail_out = take(&out_left);
        }
        zrc = inflate(z, Z_NO_FLUSH);
    } while (Z_OK == zrc);
    if (Z_MEM_ERROR == zrc) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    /* Ours only if the stream, its Adler-32 checked, ends exactly at the
     * end of the input (Z_NEED_DICT: we never use a dictionary). */
    return opal_compress_base_decoded(Z_STREAM_END == zrc && 0 == z->avail_in && 0 == in_left,
                                      (size_t) (z->next_out - (Bytef *) out), expected_len);
}

/* Slow: deflate's fastest level compresses at a third to a sixth of
 * zstd's level 1 speed on compressible data, far less on random data. */
OPAL_COMPRESS_CODEC(gzip, gzip, OPAL_COMPRESS_ID_GZIP, OPAL_COMPRESS_SPEED_SLOW,
                    OPAL_COMPRESS_DT_ANY);

/* ---- .gz files ---- */

#define CHUNK (256u << 10)

int mca_compress_gzip_file_compress(FILE *in, FILE *out)
{
    z_stream z;
    unsigned char *ibuf = malloc(CHUNK), *obuf = malloc(CHUNK);
    int rc = OPAL_SUCCESS, zrc = Z_OK, flush;

    memset(&z, 0, sizeof(z));
    /* windowBits + 16: a gzip wrapper (header, CRC-32, length) */
    if (NULL == ibuf || NULL == obuf
        || Z_OK != deflateInit2(&z, mca_compress_gzip_level, Z_DEFLATED, GZIP_WBITS + 16,
                                GZIP_MEMLEVEL, Z_DEFAULT_STRATEGY)) {
        free(ibuf);
        free(obuf);
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    do {
        z.next_in = ibuf;
        z.avail_in = (uInt) fread(ibuf, 1, CHUNK, in);
        if (ferror(in)) {
            rc = OPAL_ERR_FILE_READ_FAILURE;
            break;
        }
        flush = feof(in) ? Z_FINISH : Z_NO_FLUSH;
        /* until deflate leaves room in the output: then it took the whole
         * chunk (or, finishing, wrote the whole member) */
        do {
            z.next_out = obuf;
            z.avail_out = CHUNK;
            zrc = deflate(&z, flush);
            if (Z_STREAM_ERROR == zrc) {
                rc = OPAL_ERROR;
                break;
            }
            if (CHUNK > z.avail_out && 1 != fwrite(obuf, CHUNK - z.avail_out, 1, out)) {
                rc = OPAL_ERR_FILE_WRITE_FAILURE;
                break;
            }
        } while (0 == z.avail_out);
    } while (OPAL_SUCCESS == rc && Z_FINISH != flush);
    if (OPAL_SUCCESS == rc && Z_STREAM_END != zrc) {
        rc = OPAL_ERROR;
    }
    deflateEnd(&z);
    free(ibuf);
    free(obuf);
    return rc;
}

int mca_compress_gzip_file_decompress(FILE *in, FILE *out, const char **why)
{
    z_stream z;
    gz_header head; /* head.done tells a bad header from bad data */
    unsigned char *ibuf = malloc(CHUNK), *obuf = malloc(CHUNK);
    int rc = OPAL_SUCCESS, zrc = Z_OK, members = 0;
    bool pending = false, empty = true;

    memset(&z, 0, sizeof(z));
    /* windowBits + 16: gzip only (no zlib stream, no plain copy) */
    if (NULL == ibuf || NULL == obuf || Z_OK != inflateInit2(&z, GZIP_WBITS + 16)) {
        free(ibuf);
        free(obuf);
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    memset(&head, 0, sizeof(head));
    inflateGetHeader(&z, &head);
    for (;;) {
        uInt had_in;
        /* Read on only when inflate took all input and holds no output:
         * with a full output buffer it may have more to give. */
        if (0 == z.avail_in && !pending) {
            z.next_in = ibuf;
            z.avail_in = (uInt) fread(ibuf, 1, CHUNK, in);
            if (ferror(in)) {
                rc = OPAL_ERR_FILE_READ_FAILURE;
                break;
            }
            if (0 == z.avail_in) {
                break;
            }
            empty = false;
        }
        if (Z_STREAM_END == zrc) {
            /* more after a member: another member (cat a.gz b.gz) */
            inflateReset(&z);
            memset(&head, 0, sizeof(head));
            inflateGetHeader(&z, &head);
        }
        had_in = z.avail_in;
        z.next_out = obuf;
        z.avail_out = CHUNK;
        zrc = inflate(&z, Z_NO_FLUSH);
        if ((Z_OK != zrc && Z_STREAM_END != zrc && Z_BUF_ERROR != zrc)
            || (Z_BUF_ERROR == zrc && 0 < had_in && had_in == z.avail_in && CHUNK == z.avail_out)) {
            rc = Z_MEM_ERROR == zrc ? OPAL_ERR_OUT_OF_RESOURCE : OPAL_ERR_UNPACK_FAILURE;
            *why = 1 == head.done ? "its gzip data is corrupt (the deflate data, CRC or "
                                    "length does not match)"
                 : 0 == members ? "it is not a gzip file"
                                : "data that is not gzip follows its gzip data";
            break;
        }
        members += Z_STREAM_END == zrc;
        pending = Z_STREAM_END != zrc && 0 == z.avail_out;
        if (CHUNK > z.avail_out && 1 != fwrite(obuf, CHUNK - z.avail_out, 1, out)) {
            rc = OPAL_ERR_FILE_WRITE_FAILURE;
            break;
        }
    }
    if (OPAL_SUCCESS == rc && Z_STREAM_END != zrc) {
        rc = OPAL_ERR_UNPACK_FAILURE;
        *why = empty ? "it is empty" : "it ends inside a gzip member (truncated)";
    }
    inflateEnd(&z);
    free(ibuf);
    free(obuf);
    return rc;
}
