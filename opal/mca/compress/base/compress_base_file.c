/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Whole-file compression on top of a block codec, for the legacy
 * opal_compress interface.  Container format (all integers little-endian):
 *   8 bytes  magic "OPALCZ" + version digit + "\n"
 *   blocks:  1 byte codec wire id (0 = stored raw)
 *            4 bytes original length (1 .. BLOCK)
 *            4 bytes stored length
 *            8 bytes checksum of the original bytes
 *            stored bytes
 * The checksum catches corruption that a codec without its own check (lz4,
 * zstd without frame checksums, rle, ...) would decode into wrong data.
 * The file ends after the last block; an empty file has no block.
 *
 * The version says which checksum the blocks carry: 2 (written) the
 * suite's opal_compress_base_checksum, 1 (still read) checksum_v1 below.
 *
 * Components that keep an Open MPI 4.1 name (gzip, bzip) have their own
 * file format instead, upstream's; the _format functions at the end open,
 * check and clean up around it as for the container.
 */
#include "opal_config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "opal/constants.h"
#include "opal/util/show_help.h"
#include "opal/mca/compress/base/base.h"
#include "opal/mca/compress/base/compress_base_bytes.h"

#define BLOCK (4u << 20)
static const char magic[8] = {'O', 'P', 'A', 'L', 'C', 'Z', '2', '\n'};
#define MAGIC_VERSION 6 /* index of the version digit in magic */

typedef uint64_t (*checksum_fn_t)(const void *buf, size_t len);

/* Version 1's checksum (Fletcher-style sums over 32-bit words in two
 * lanes, mod 2^32 - 1), kept only to read files written before version 2;
 * nothing writes it any more. */
static uint64_t checksum_v1(const void *buf, size_t len)
{
    const unsigned char *p = buf;
    uint64_t a = 1, b = (uint64_t) len;
    size_t i = 0;
    for (; i + 4 <= len; i += 4) {
        uint32_t w;
        memcpy(&w, p + i, 4);
        a += w;
        b += a;
        if (0 == (i & ((1u << 16) - 4))) { /* every 64 KB: b stays < 2^61 */
            a %= 0xffffffffu;
            b %= 0xffffffffu;
        }
    }
    for (; i < len; i++) {
        a += p[i];
        b += a;
    }
    a %= 0xffffffffu;
    b %= 0xffffffffu;
    return (b << 32) | a;
}

/* The end of both directions: closes the files, turns a failed close of
 * the output into a write error and removes the output of a failed run. */
static int finish(int rc, FILE *in, FILE *out, const char *oname, void *raw, void *z)
{
    if (NULL != in) {
        fclose(in);
    }
    if (NULL != out && 0 != fclose(out) && OPAL_SUCCESS == rc) {
        rc = OPAL_ERR_FILE_WRITE_FAILURE;
    }
    if (OPAL_SUCCESS != rc && NULL != out) {
        unlink(oname);
    }
    free(raw);
    free(z);
    return rc;
}

int opal_compress_base_file_compress(const opal_compress_codec_t *codec, const char *fname,
                                     const char *cname)
{
    struct stat st;
    FILE *in = NULL, *out = NULL;
    unsigned char *raw = NULL, *z = NULL, hdr[17];
    size_t cap = codec->bound(BLOCK), n;
    int rc = OPAL_SUCCESS;

    if (0 != stat(fname, &st) || !S_ISREG(st.st_mode)) {
        opal_show_help("help-opal-compress.txt", "not-a-file", true, fname);
        return OPAL_ERR_NOT_SUPPORTED;
    }
    raw = malloc(BLOCK);
    z = malloc(cap);
    if (NULL == raw || NULL == z) {
        rc = OPAL_ERR_OUT_OF_RESOURCE;
        goto done;
    }
    if (NULL == (in = fopen(fname, "rb")) || NULL == (out = fopen(cname, "wb"))) {
        opal_show_help("help-opal-compress.txt", "file-io", true, NULL == in ? fname : cname,
                       strerror(errno));
        rc = OPAL_ERR_FILE_OPEN_FAILURE;
        goto done;
    }
    if (1 != fwrite(magic, sizeof(magic), 1, out)) {
        rc = OPAL_ERR_FILE_WRITE_FAILURE;
        goto done;
    }
    while (0 < (n = fread(raw, 1, BLOCK, in))) {
        ssize_t zn = codec->compress(raw, n, z, cap);
        int stored_raw = zn < 0 || (size_t) zn >= n;
        hdr[0] = stored_raw ? OPAL_COMPRESS_ID_RAW : codec->id;
        opal_compress_base_store_le32(hdr + 1, (uint32_t) n);
        opal_compress_base_store_le32(hdr + 5, (uint32_t) (stored_raw ? n : (size_t) zn));
        opal_compress_base_store_le64(hdr + 9, opal_compress_base_checksum(raw, n));
        if (1 != fwrite(hdr, sizeof(hdr), 1, out)
            || 1 != fwrite(stored_raw ? raw : z, stored_raw ? n : (size_t) zn, 1, out)) {
            rc = OPAL_ERR_FILE_WRITE_FAILURE;
            goto done;
        }
    }
    if (ferror(in)) {
        rc = OPAL_ERR_FILE_READ_FAILURE;
    }
done:
    return finish(rc, in, out, cname, raw, z);
}

int opal_compress_base_file_decompress(const char *cname, const char *fname)
{
    FILE *in = NULL, *out = NULL;
    unsigned char *raw = NULL, *z = NULL, hdr[17];
    char m[sizeof(magic)];
    size_t zcap = 0;
    int rc = OPAL_SUCCESS;
    const char *why = NULL;
    checksum_fn_t checksum;

    if (NULL == (in = fopen(cname, "rb"))) {
        opal_show_help("help-opal-compress.txt", "file-io", true, cname, strerror(errno));
        return OPAL_ERR_FILE_OPEN_FAILURE;
    }
    if (1 != fread(m, sizeof(m), 1, in) || 0 != memcmp(m, magic, MAGIC_VERSION)
        || '\n' != m[MAGIC_VERSION + 1]) {
        why = "it does not start with the compress framework's file header";
        goto done;
    }
    if ('1' != m[MAGIC_VERSION] && '2' != m[MAGIC_VERSION]) {
        why = "it is in a version of the compress framework's file format that this "
              "build does not know";
        goto done;
    }
    checksum = '1' == m[MAGIC_VERSION] ? checksum_v1 : opal_compress_base_checksum;
    if (NULL == (raw = malloc(BLOCK)) || NULL == (out = fopen(fname, "wb"))) {
        rc = NULL == raw ? OPAL_ERR_OUT_OF_RESOURCE : OPAL_ERR_FILE_OPEN_FAILURE;
        if (NULL != raw) {
            opal_show_help("help-opal-compress.txt", "file-io", true, fname, strerror(errno));
        }
        goto done;
    }
    for (;;) {
        size_t got = fread(hdr, 1, sizeof(hdr), in);
        if (0 == got && feof(in)) {
            break;
        }
        if (sizeof(hdr) != got) {
            why = "it is truncated inside a block header";
            goto done;
        }
        uint32_t n = opal_compress_base_load_le32(hdr + 1);
        uint32_t zn = opal_compress_base_load_le32(hdr + 5);
        const opal_compress_codec_t *codec = opal_compress_base_find_id(hdr[0]);
        if (0 == n || n > BLOCK) {
            why = "a block has an impossible length";
            goto done;
        }
        if (OPAL_COMPRESS_ID_RAW == hdr[0]) {
            if (zn != n || 1 != fread(raw, n, 1, in)) {
                why = "a stored block is truncated";
                goto done;
            }
        } else {
            if (NULL == codec) {
                why = "it uses a codec that is not available in this process";
                goto done;
            }
            if (zn > codec->bound(BLOCK)) {
                why = "a block has an impossible length";
                goto done;
            }
            if (zn > zcap) {
                free(z);
                if (NULL == (z = malloc(zcap = zn))) {
                    rc = OPAL_ERR_OUT_OF_RESOURCE;
                    goto done;
                }
            }
            if (zn > 0 && 1 != fread(z, zn, 1, in)) {
                why = "a compressed block is truncated";
                goto done;
            }
            if ((ssize_t) n != codec->decompress(z, zn, raw, BLOCK, n)) {
                why = "a compressed block is corrupt";
                goto done;
            }
        }
        if (opal_compress_base_load_le64(hdr + 9) != checksum(raw, n)) {
            why = "a block's checksum does not match its contents";
            goto done;
        }
        if (1 != fwrite(raw, n, 1, out)) {
            rc = OPAL_ERR_FILE_WRITE_FAILURE;
            goto done;
        }
    }
done:
    if (NULL != why) {
        opal_show_help("help-opal-compress.txt", "file-corrupt", true, cname, why);
        rc = OPAL_ERR_UNPACK_FAILURE;
    }
    return finish(rc, in, out, fname, raw, z);
}

int opal_compress_base_file_compress_format(const opal_compress_base_file_format_t *fmt,
                                            const char *fname, const char *cname)
{
    struct stat st;
    FILE *in = NULL, *out = NULL;
    int rc;

    if (0 != stat(fname, &st) || !S_ISREG(st.st_mode)) {
        opal_show_help("help-opal-compress.txt", "not-a-file", true, fname);
        return OPAL_ERR_NOT_SUPPORTED;
    }
    if (NULL == (in = fopen(fname, "rb")) || NULL == (out = fopen(cname, "wb"))) {
        opal_show_help("help-opal-compress.txt", "file-io", true, NULL == in ? fname : cname,
                       strerror(errno));
        rc = OPAL_ERR_FILE_OPEN_FAILURE;
    } else {
        rc = fmt->compress(in, out);
    }
    return finish(rc, in, out, cname, NULL, NULL);
}

int opal_compress_base_file_decompress_format(const opal_compress_base_file_format_t *fmt,
                                              const char *cname, const char *fname)
{
    FILE *in = NULL, *out = NULL;
    const char *why = NULL;
    int rc;

    if (NULL == (in = fopen(cname, "rb")) || NULL == (out = fopen(fname, "wb"))) {
        opal_show_help("help-opal-compress.txt", "file-io", true, NULL == in ? cname : fname,
                       strerror(errno));
        rc = OPAL_ERR_FILE_OPEN_FAILURE;
    } else if (OPAL_ERR_UNPACK_FAILURE == (rc = fmt->decompress(in, out, &why))) {
        opal_show_help("help-opal-compress.txt", "file-corrupt", true, cname,
                       NULL != why ? why : "it is corrupt");
    }
    return finish(rc, in, out, fname, NULL, NULL);
}
