/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * FPC codec core (Burtscher and Ratanaworabhan, "FPC: A High-Speed
 * Compressor for Double-Precision Floating-Point Data", IEEE TC 2009).
 *
 * Each double is predicted by an fcm and a dfcm hash predictor; the true
 * value is xored with the closer prediction and only the non-zero low-order
 * bytes of the result are kept.  A 4-bit code per double (1 selector bit,
 * 3-bit leading-zero-byte count) says how to undo it.
 *
 * Stream format (all multi-byte integers little-endian):
 *   byte 0       format version, FPC_VERSION
 *   byte 1       table bits b (1..24): each table has 2^b entries
 *   byte 2       tail length t = len % 8 (0..7)
 *   bytes 3..    n = len / 8, unsigned LEB128, canonical (1..10 bytes)
 *   ceil(n/2)    code bytes: double 2k in the high nibble, 2k+1 in the low
 *                nibble; for odd n the last low nibble is 0.  Nibble bit 3
 *                set = dfcm prediction used; bits 0..2 = c, the number of
 *                leading zero bytes z of the xor is c + (c >= 4), i.e. codes
 *                mean {0,1,2,3,5,6,7,8} and z == 4 is coded as 3.
 *   residuals    for each double in order, the 8 - z low-order bytes of the
 *                xor, least significant first
 *   t bytes      the tail of the input, raw
 *
 * Doubles are read as little-endian uint64 whatever the host, so a stream is
 * a function of the input bytes only.
 */

#include <stdlib.h>
#include <string.h>

#include "opal/mca/compress/base/compress_base_bytes.h"
#include "opal/mca/compress/base/compress_base_codec.h"
#include "opal/mca/compress/fpc/compress_fpc.h"

#define FPC_VERSION 1
#define FPC_MIN_BITS 1
#define FPC_MAX_BITS 24
#define FPC_FIXED_HDR 3
#define FPC_MAX_HDR (FPC_FIXED_HDR + OPAL_COMPRESS_BASE_VARINT_MAX)

int mca_compress_fpc_table_bits = 16;

/* Predictor state, kept in locals of one call: the codec is reentrant. */
typedef struct {
    uint64_t *fcm;
    uint64_t *dfcm;
    uint64_t mask;
    uint64_t fcm_hash;
    uint64_t dfcm_hash;
    uint64_t last;
} fpc_state_t;

/* residual_mask[k] keeps the k low-order bytes of a word */
static const uint64_t residual_mask[9] = {
    0, 0xffULL, 0xffffULL, 0xffffffULL, 0xffffffffULL, 0xffffffffffULL,
    0xffffffffffffULL, 0xffffffffffffffULL, 0xffffffffffffffffULL
};

static inline unsigned lzbytes(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return x ? (unsigned) __builtin_clzll(x) >> 3 : 8;
#else
    unsigned z = 0;
    while (z < 8 && 0 == (x >> 56)) {
        x <<= 8;
        z++;
    }
    return z;
#endif
}

/* Residual bytes of a 4-bit code. */
static inline unsigned code_nbytes(unsigned code)
{
    unsigned c = code & 7;
    return 8 - (c + (c >= 4));
}

static size_t fpc_bound(size_t len)
{
    size_t n = len / 8;
    size_t extra = FPC_MAX_HDR + n / 2 + (n & 1);
    return opal_compress_base_add_sat(len, extra);
}

static int fpc_tables_alloc(fpc_state_t *st, int bits)
{
    size_t entries = (size_t) 1 << bits;
    /* one zeroed block for both tables, as encoder and decoder must agree */
    uint64_t *t = calloc(2 * entries, sizeof(uint64_t));
    if (NULL == t) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    st->fcm = t;
    st->dfcm = t + entries;
    st->mask = entries - 1;
    st->fcm_hash = st->dfcm_hash = st->last = 0;
    return OPAL_SUCCESS;
}

/* Split in two because the decoder learns the true value only after it has
 * used a prediction; both directions must update identically. */
static inline void predict(const fpc_state_t *st, uint64_t *p_fcm,
                           uint64_t *p_dfcm)
{
    *p_fcm = st->fcm[st->fcm_hash];
    *p_dfcm = st->dfcm[st->dfcm_hash] + st->last;
}

static inline void update(fpc_state_t *st, uint64_t v)
{
    uint64_t delta = v - st->last;
    st->fcm[st->fcm_hash] = v;
    st->fcm_hash = ((st->fcm_hash << 6) ^ (v >> 48)) & st->mask;
    st->dfcm[st->dfcm_hash] = delta;
    st->dfcm_hash = ((st->dfcm_hash << 2) ^ (delta >> 40)) & st->mask;
    st->last = v;
}

/* Encode one double: writes its residual at dst[*rp..] and returns its
 * 4-bit code, or 16 if the residual does not fit in cap. */
static inline unsigned encode1(fpc_state_t *st, uint64_t v, unsigned char *dst,
                               size_t cap, size_t *rp)
{
    uint64_t p1, p2, x1, x2, x;
    unsigned sel, z, c, nb;
    size_t pos = *rp;

    predict(st, &p1, &p2);
    update(st, v);
    x1 = v ^ p1;
    x2 = v ^ p2;
    /* the smaller xor has at least as many leading zero bytes; ties keep
     * the fcm prediction as in the paper */
    sel = x2 < x1;
    x = sel ? x2 : x1;
    z = lzbytes(x);
    c = z - (z >= 4); /* no code for 4 zero bytes: send the 4th one */
    nb = 8 - (c + (c >= 4));
    if (cap - pos >= 8) {
        /* whole-word store: the bytes beyond nb are overwritten by what
         * follows or lie past the returned size, but always inside cap */
        opal_compress_base_store_le64(dst + pos, x);
    } else if (cap - pos >= nb) {
        opal_compress_base_store_bytes(dst + pos, x, nb);
    } else {
        return 16;
    }
    *rp = pos + nb;
    return (sel << 3) | c;
}

static ssize_t fpc_compress(const void *in, size_t len, void *out, size_t cap)
{
    const unsigned char *src = in;
    unsigned char *dst = out;
    int bits = mca_compress_fpc_table_bits; /* read once: one value per call */
    size_t n = len / 8, tail = len % 8, ncodes = n / 2 + (n & 1);
    size_t pos, cp, rp, i;
    uint64_t nv;
    fpc_state_t st;

    if ((len > 0 && NULL == in) || (cap > 0 && NULL == out)) {
        return OPAL_ERR_BAD_PARAM;
    }
    if (bits < FPC_MIN_BITS || bits > FPC_MAX_BITS) {
        return OPAL_ERR_BAD_PARAM;
    }

    /* Tables larger than the number of values cannot predict better, and
     * zeroing them would dominate small messages: shrink to fit (the
     * header records the size used). */
    while (bits > FPC_MIN_BITS && ((size_t) 1 << (bits - 1)) >= n) {
        bits--;
    }

    nv = (uint64_t) n;
    if (cap < FPC_FIXED_HDR + opal_compress_base_varint_len(nv)) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    dst[0] = FPC_VERSION;
    dst[1] = (unsigned char) bits;
    dst[2] = (unsigned char) tail;
    pos = FPC_FIXED_HDR + opal_compress_base_varint_put(dst + FPC_FIXED_HDR, nv);

    if (ncodes > cap - pos || tail > cap - pos - ncodes) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    if (n > 0) {
        if (OPAL_SUCCESS != fpc_tables_alloc(&st, bits)) {
            return OPAL_ERR_OUT_OF_RESOURCE;
        }
        cp = pos;
        rp = pos + ncodes;
        for (i = 0; i + 1 < n; i += 2) {
            unsigned c0 = encode1(&st, opal_compress_base_load_le64(src + 8 * i), dst, cap, &rp);
            unsigned c1 = encode1(&st, opal_compress_base_load_le64(src + 8 * i + 8), dst, cap,
                                  &rp);
            if ((c0 | c1) & 16) {
                free(st.fcm);
                return OPAL_ERR_OUT_OF_RESOURCE;
            }
            dst[cp++] = (unsigned char) ((c0 << 4) | c1);
        }
        if (n & 1) {
            unsigned c0 = encode1(&st, opal_compress_base_load_le64(src + 8 * i), dst, cap, &rp);
            if (c0 & 16) {
                free(st.fcm);
                return OPAL_ERR_OUT_OF_RESOURCE;
            }
            dst[cp++] = (unsigned char) (c0 << 4);
        }
        free(st.fcm);
        pos = rp;
    }
    if (tail > cap - pos) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    if (tail > 0) { /* src may be NULL when len == 0 */
        memcpy(dst + pos, src + 8 * n, tail);
        pos += tail;
    }
    if (pos > OPAL_COMPRESS_BASE_MAX_RET) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    return (ssize_t) pos;
}

static inline uint64_t decode1(fpc_state_t *st, unsigned code,
                               const unsigned char *src, size_t len,
                               size_t *rp)
{
    uint64_t p1, p2, r, v;
    unsigned nb = code_nbytes(code);
    size_t pos = *rp;

    if (len - pos >= 8) {
        r = opal_compress_base_load_le64(src + pos) & residual_mask[nb];
    } else {
        /* near the end of the input: never read past in[len) */
        r = opal_compress_base_load_bytes(src + pos, nb);
    }
    *rp = pos + nb;
    predict(st, &p1, &p2);
    v = r ^ ((code & 8) ? p2 : p1);
    update(st, v);
    return v;
}

static ssize_t fpc_decompress(const void *in, size_t len, void *out, size_t cap,
                              size_t expected_len)
{
    const unsigned char *src = in;
    unsigned char *dst = out;
    size_t n, tail, ncodes, pos, rp, resid, i;
    uint64_t nv;
    unsigned bits;
    fpc_state_t st;

    if ((len > 0 && NULL == in) || (cap > 0 && NULL == out)) {
        return OPAL_ERR_BAD_PARAM;
    }
    if (expected_len > cap) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    if (expected_len > OPAL_COMPRESS_BASE_MAX_RET) {
        return OPAL_ERR_UNPACK_FAILURE;
    }
    if (len < FPC_FIXED_HDR + 1 || FPC_VERSION != src[0]) {
        return OPAL_ERR_UNPACK_FAILURE;
    }
    bits = src[1];
    tail = src[2];
    if (bits < FPC_MIN_BITS || bits > FPC_MAX_BITS || tail != expected_len % 8) {
        return OPAL_ERR_UNPACK_FAILURE;
    }

    /* canonical LEB128, so that each count has exactly one encoding */
    pos = opal_compress_base_varint_get(src + FPC_FIXED_HDR, len - FPC_FIXED_HDR, &nv);
    n = expected_len / 8;
    if (0 == pos || nv != (uint64_t) n) {
        return OPAL_ERR_UNPACK_FAILURE;
    }
    pos += FPC_FIXED_HDR;

    /* Check the whole layout before touching the output or allocating: the
     * codes fix every residual length, so the stream size is known. */
    ncodes = n / 2 + (n & 1);
    if (ncodes > len - pos) {
        return OPAL_ERR_UNPACK_FAILURE;
    }
    resid = 0;
    for (i = 0; i < n / 2; i++) {
        unsigned b = src[pos + i];
        resid += code_nbytes(b >> 4) + code_nbytes(b);
    }
    if (n & 1) {
        unsigned b = src[pos + i];
        if (0 != (b & 0x0f)) {
            return OPAL_ERR_UNPACK_FAILURE;
        }
        resid += code_nbytes(b >> 4);
    }
    /* resid <= 8n <= expected_len, so no overflow here */
    if (len - pos - ncodes != resid + tail) {
        return OPAL_ERR_UNPACK_FAILURE;
    }

    if (n > 0) {
        if (OPAL_SUCCESS != fpc_tables_alloc(&st, (int) bits)) {
            return OPAL_ERR_OUT_OF_RESOURCE;
        }
        rp = pos + ncodes;
        for (i = 0; i + 1 < n; i += 2) {
            unsigned b = src[pos + i / 2];
            opal_compress_base_store_le64(dst + 8 * i, decode1(&st, b >> 4, src, len, &rp));
            opal_compress_base_store_le64(dst + 8 * i + 8, decode1(&st, b & 0x0f, src, len, &rp));
        }
        if (n & 1) {
            unsigned b = src[pos + i / 2];
            opal_compress_base_store_le64(dst + 8 * i, decode1(&st, b >> 4, src, len, &rp));
        }
        free(st.fcm);
        pos = rp;
    } else {
        pos += ncodes;
    }
    if (tail > 0) { /* dst may be NULL when cap == 0 */
        memcpy(dst + 8 * n, src + pos, tail);
    }
    return (ssize_t) expected_len;
}

OPAL_COMPRESS_CODEC(fpc, fpc, OPAL_COMPRESS_ID_FPC, OPAL_COMPRESS_SPEED_MEDIUM,
                    OPAL_COMPRESS_DT_DOUBLE);
