/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * bzip's codec, bzip2's functions (compress_bzip2_codec.h) at upstream's
 * block size, and its .bz2 file format, through libbz2's stream API.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "opal/mca/compress/bzip2/compress_bzip2_codec.h"
#include "opal/mca/compress/bzip/compress_bzip.h"

static size_t bzip_bound(size_t len)
{
    return opal_compress_bzip2_bound(len);
}

static ssize_t bzip_compress(const void *in, size_t len, void *out, size_t cap)
{
    return opal_compress_bzip2_compress(in, len, out, cap, MCA_COMPRESS_BZIP_BLOCK_SIZE);
}

static ssize_t bzip_decompress(const void *in, size_t len, void *out, size_t cap,
                               size_t expected_len)
{
    return opal_compress_bzip2_decompress(in, len, out, cap, expected_len);
}

OPAL_COMPRESS_CODEC_NAMED(bzip, "bzip2", bzip, OPAL_COMPRESS_ID_BZIP2, OPAL_COMPRESS_SPEED_SLOW,
                          OPAL_COMPRESS_DT_ANY);

/* ---- .bz2 files ---- */

#define CHUNK (256u << 10)

int mca_compress_bzip_file_compress(FILE *in, FILE *out)
{
    bz_stream s;
    char *ibuf = malloc(CHUNK), *obuf = malloc(CHUNK);
    int rc = OPAL_SUCCESS, bz, action;

    memset(&s, 0, sizeof(s));
    if (NULL == ibuf || NULL == obuf
        || BZ_OK != BZ2_bzCompressInit(&s, MCA_COMPRESS_BZIP_BLOCK_SIZE, 0, 0)) {
        free(ibuf);
        free(obuf);
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    do {
        s.next_in = ibuf;
        s.avail_in = (unsigned int) fread(ibuf, 1, CHUNK, in);
        if (ferror(in)) {
            rc = OPAL_ERR_FILE_READ_FAILURE;
            break;
        }
        action = feof(in) ? BZ_FINISH : BZ_RUN;
        /* BZ_RUN until the chunk is taken; BZ_FINISH until the stream
         * ends (the output buffer may fill any number of times). */
        do {
            s.next_out = obuf;
            s.avail_out = CHUNK;
            bz = BZ2_bzCompress(&s, action);
            if (bz < 0) {
                rc = OPAL_ERROR;
                break;
            }
            if (CHUNK > s.avail_out && 1 != fwrite(obuf, CHUNK - s.avail_out, 1, out)) {
                rc = OPAL_ERR_FILE_WRITE_FAILURE;
                break;
            }
        } while (BZ_FINISH == action ? BZ_STREAM_END != bz : s.avail_in > 0);
    } while (OPAL_SUCCESS == rc && BZ_FINISH != action);
    BZ2_bzCompressEnd(&s);
    free(ibuf);
    free(obuf);
    return rc;
}

int mca_compress_bzip_file_decompress(FILE *in, FILE *out, const char **why)
{
    bz_stream s;
    char *ibuf = malloc(CHUNK), *obuf = malloc(CHUNK);
    int rc = OPAL_SUCCESS, bz = BZ_OK, streams = 0;
    bool live = false, pending = false, empty = true;

    memset(&s, 0, sizeof(s));
    if (NULL == ibuf || NULL == obuf || BZ_OK != BZ2_bzDecompressInit(&s, 0, 0)) {
        free(ibuf);
        free(obuf);
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    live = true;
    for (;;) {
        /* Read on only when the decoder took all input and holds no
         * output: with a full output buffer it may have more to give. */
        if (0 == s.avail_in && !pending) {
            s.next_in = ibuf;
            s.avail_in = (unsigned int) fread(ibuf, 1, CHUNK, in);
            if (ferror(in)) {
                rc = OPAL_ERR_FILE_READ_FAILURE;
                break;
            }
            if (0 == s.avail_in) {
                break;
            }
            empty = false;
        }
        if (BZ_STREAM_END == bz) {
            /* more after a stream: another stream (bzip2 -c a b, pbzip2) */
            char *next_in = s.next_in;
            unsigned int avail_in = s.avail_in;
            BZ2_bzDecompressEnd(&s);
            memset(&s, 0, sizeof(s));
            if (BZ_OK != BZ2_bzDecompressInit(&s, 0, 0)) {
                live = false;
                rc = OPAL_ERR_OUT_OF_RESOURCE;
                break;
            }
            s.next_in = next_in;
            s.avail_in = avail_in;
        }
        unsigned int had_in = s.avail_in;
        s.next_out = obuf;
        s.avail_out = CHUNK;
        bz = BZ2_bzDecompress(&s);
        if (BZ_OK == bz && 0 < had_in && had_in == s.avail_in && CHUNK == s.avail_out) {
            bz = BZ_DATA_ERROR; /* no progress with input and room: never loop */
        }
        if (BZ_OK != bz && BZ_STREAM_END != bz) {
            rc = BZ_MEM_ERROR == bz ? OPAL_ERR_OUT_OF_RESOURCE : OPAL_ERR_UNPACK_FAILURE;
            *why = BZ_DATA_ERROR_MAGIC != bz ? "its bzip2 data is corrupt (a CRC or the "
                                               "block structure does not match)"
                 : 0 == streams ? "it is not a bzip2 file"
                                : "data that is not bzip2 follows its bzip2 stream";
            break;
        }
        streams += BZ_STREAM_END == bz;
        pending = BZ_STREAM_END != bz && 0 == s.avail_out;
        if (CHUNK > s.avail_out && 1 != fwrite(obuf, CHUNK - s.avail_out, 1, out)) {
            rc = OPAL_ERR_FILE_WRITE_FAILURE;
            break;
        }
    }
    if (OPAL_SUCCESS == rc && BZ_STREAM_END != bz) {
        rc = OPAL_ERR_UNPACK_FAILURE;
        *why = empty ? "it is empty" : "it ends inside a bzip2 stream (truncated)";
    }
    if (live) {
        BZ2_bzDecompressEnd(&s);
    }
    free(ibuf);
    free(obuf);
    return rc;
}
