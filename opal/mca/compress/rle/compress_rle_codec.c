/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * RLE block codec core (stream format in compress_rle.h).  Depends only on
 * the C library so it can be linked into unit tests and benchmarks.
 */

#include <stdint.h>
#include <string.h>

#include "opal/mca/compress/base/compress_base_bytes.h"
#include "opal/mca/compress/base/compress_base_codec.h"
#include "opal/mca/compress/rle/compress_rle.h"

#define MCA_COMPRESS_RLE_MIN_RUN 3   /* shortest run worth a repeat token */
#define MCA_COMPRESS_RLE_MAX_RUN 130 /* MIN_RUN + 127 */
#define MCA_COMPRESS_RLE_MAX_LIT 128
#define MCA_COMPRESS_RLE_REPEAT  0x80u

#define MCA_COMPRESS_RLE_ONES  UINT64_C(0x0101010101010101)
#define MCA_COMPRESS_RLE_HIGHS UINT64_C(0x8080808080808080)

/* On little-endian GCC-compatible compilers the first differing byte of a
 * word is found with ctz; elsewhere a portable byte loop finishes the job. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define MCA_COMPRESS_RLE_CTZ_LE 1
#else
#define MCA_COMPRESS_RLE_CTZ_LE 0
#endif

/* Flags (0x80 in a byte) the zero bytes of v.  The lowest flag is always a
 * true zero byte, higher ones may be false positives; the mask is nonzero
 * iff v has a zero byte. */
static inline uint64_t mca_compress_rle_zero_bytes(uint64_t v)
{
    return (v - MCA_COMPRESS_RLE_ONES) & ~v & MCA_COMPRESS_RLE_HIGHS;
}

static size_t mca_compress_rle_bound(size_t len)
{
    size_t extra = len / MCA_COMPRESS_RLE_MAX_LIT + (0 != len % MCA_COMPRESS_RLE_MAX_LIT);

    return opal_compress_base_add_sat(len, extra);
}

/* Length of the run of in[pos] starting at pos (>= 1). */
static inline size_t mca_compress_rle_run(const uint8_t *in, size_t pos, size_t len)
{
    const uint8_t b = in[pos];
    const uint64_t pattern = MCA_COMPRESS_RLE_ONES * b;
    size_t i = pos + 1;

    /* Whole words first: long runs (zero pages) are the common good case. */
    while (len - i >= 8) {
        uint64_t diff = opal_compress_base_load_le64(in + i) ^ pattern;
        if (0 != diff) {
#if MCA_COMPRESS_RLE_CTZ_LE
            return i + ((size_t) __builtin_ctzll(diff) >> 3) - pos;
#else
            break;
#endif
        }
        i += 8;
    }
    while (i < len && in[i] == b) {
        ++i;
    }
    return i - pos;
}

/* First position p >= pos with in[p] == in[p+1] == in[p+2], or len. */
static inline size_t mca_compress_rle_find_run(const uint8_t *in, size_t pos, size_t len)
{
    size_t i = pos;

    /* Test 8 start positions at once: a zero byte in (x^y)|(y^z) marks a
     * start of three equal bytes. */
    while (len - i >= 10) {
        uint64_t x = opal_compress_base_load_le64(in + i);
        uint64_t y = opal_compress_base_load_le64(in + i + 1);
        uint64_t z = opal_compress_base_load_le64(in + i + 2);
        uint64_t m = mca_compress_rle_zero_bytes((x ^ y) | (y ^ z));
        if (0 != m) {
#if MCA_COMPRESS_RLE_CTZ_LE
            return i + ((size_t) __builtin_ctzll(m) >> 3);
#else
            break;
#endif
        }
        i += 8;
    }
    for (; i + 2 < len; ++i) {
        if (in[i] == in[i + 1] && in[i + 1] == in[i + 2]) {
            return i;
        }
    }
    return len;
}

/* Emits in[from..to) as literal tokens; returns the new output position or
 * SIZE_MAX if it does not fit. */
static inline size_t mca_compress_rle_put_literals(const uint8_t *in, size_t from, size_t to,
                                                   size_t len, uint8_t *out, size_t op,
                                                   size_t cap)
{
    while (from < to) {
        size_t n = to - from, j;
        if (n > MCA_COMPRESS_RLE_MAX_LIT) {
            n = MCA_COMPRESS_RLE_MAX_LIT;
        }
        if (cap - op > MCA_COMPRESS_RLE_MAX_LIT + 16 && len - from >= MCA_COMPRESS_RLE_MAX_LIT) {
            /* Room for whole 16-byte chunks on both sides: fixed-size copies
             * beat a memcpy call for the typical short literal. */
            for (j = 0; j < n; j += 16) {
                memcpy(out + op + 1 + j, in + from + j, 16);
            }
        } else {
            if (cap - op < n + 1) {
                return SIZE_MAX;
            }
            memcpy(out + op + 1, in + from, n);
        }
        out[op] = (uint8_t) (n - 1);
        op += n + 1;
        from += n;
    }
    return op;
}

static ssize_t mca_compress_rle_compress(const void *in_, size_t len, void *out_, size_t cap)
{
    const uint8_t *in = (const uint8_t *) in_;
    uint8_t *out = (uint8_t *) out_;
    size_t pos = 0, lit = 0, op = 0;
    ssize_t rc = opal_compress_base_compress_begin(in, len, out, &cap);

    if (rc <= 0) {
        return rc;
    }

    while (len - pos >= MCA_COMPRESS_RLE_MIN_RUN) {
        size_t start = mca_compress_rle_find_run(in, pos, len);
        size_t run;
        if (start == len) {
            break;
        }
        run = mca_compress_rle_run(in, start, len);
        op = mca_compress_rle_put_literals(in, lit, start, len, out, op, cap);
        if (SIZE_MAX == op) {
            return OPAL_ERR_OUT_OF_RESOURCE;
        }
        while (run >= MCA_COMPRESS_RLE_MIN_RUN) {
            size_t n = run;
            if (n > MCA_COMPRESS_RLE_MAX_RUN) {
                /* Leave at least MIN_RUN for the next token rather than a
                 * short tail that would cost a literal. */
                n = (run - MCA_COMPRESS_RLE_MAX_RUN < MCA_COMPRESS_RLE_MIN_RUN)
                        ? run - MCA_COMPRESS_RLE_MIN_RUN
                        : MCA_COMPRESS_RLE_MAX_RUN;
            }
            if (cap - op < 2) {
                return OPAL_ERR_OUT_OF_RESOURCE;
            }
            out[op] = (uint8_t) (MCA_COMPRESS_RLE_REPEAT + (n - MCA_COMPRESS_RLE_MIN_RUN));
            out[op + 1] = in[start];
            op += 2;
            start += n;
            run -= n;
        }
        /* The loop above consumes the whole run. */
        lit = pos = start;
    }
    op = mca_compress_rle_put_literals(in, lit, len, len, out, op, cap);
    if (SIZE_MAX == op) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    return (ssize_t) op;
}

static ssize_t mca_compress_rle_decompress(const void *in_, size_t len, void *out_, size_t cap,
                                           size_t expected_len)
{
    const uint8_t *ip = (const uint8_t *) in_;
    uint8_t *op = (uint8_t *) out_;
    const uint8_t *iend;
    uint8_t *oend;
    ssize_t rc = opal_compress_base_decompress_begin(ip, len, op, cap, expected_len);

    if (rc <= 0) {
        return rc;
    }
    iend = ip + len;
    oend = op + expected_len;

    /* Far from both ends every token fits (at most 1 + 128 bytes read,
     * 130 written), so it is copied in whole 16-byte chunks, which the
     * compiler inlines; the bytes written past the token are overwritten by
     * the following ones.  Near the ends each length is checked against what
     * is left on both sides before copying, so no input can make us read or
     * write out of bounds. */
    while (iend - ip > 160 && oend - op > 160) {
        size_t c = *ip++, j;
        if (c < MCA_COMPRESS_RLE_REPEAT) {
            size_t n = c + 1;
            for (j = 0; j < n; j += 16) {
                memcpy(op + j, ip + j, 16);
            }
            ip += n;
            op += n;
        } else {
            size_t n = c - MCA_COMPRESS_RLE_REPEAT + MCA_COMPRESS_RLE_MIN_RUN;
            uint8_t b = *ip++;
            for (j = 0; j < n; j += 16) {
                memset(op + j, b, 16);
            }
            op += n;
        }
    }
    while (ip < iend) {
        size_t c = *ip++;
        if (c < MCA_COMPRESS_RLE_REPEAT) {
            size_t n = c + 1;
            if (n > (size_t) (iend - ip) || n > (size_t) (oend - op)) {
                return OPAL_ERR_UNPACK_FAILURE;
            }
            memcpy(op, ip, n);
            ip += n;
            op += n;
        } else {
            size_t n = c - MCA_COMPRESS_RLE_REPEAT + MCA_COMPRESS_RLE_MIN_RUN;
            if (ip == iend || n > (size_t) (oend - op)) {
                return OPAL_ERR_UNPACK_FAILURE;
            }
            memset(op, *ip++, n);
            op += n;
        }
    }
    if (op != oend) {
        return OPAL_ERR_UNPACK_FAILURE;
    }
    return (ssize_t) expected_len;
}

OPAL_COMPRESS_CODEC(rle, mca_compress_rle, OPAL_COMPRESS_ID_RLE, OPAL_COMPRESS_SPEED_FAST,
                    OPAL_COMPRESS_DT_BYTES | OPAL_COMPRESS_DT_INT32 | OPAL_COMPRESS_DT_INT64
                        | OPAL_COMPRESS_DT_FLOAT | OPAL_COMPRESS_DT_DOUBLE);
