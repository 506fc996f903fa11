/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Byte helpers of the compress framework's formats (the codecs' streams,
 * the compressed-file container) and of pml/zcomp's wire: little-endian
 * loads and stores at any alignment, unsigned LEB128 varints, and the
 * suite's one checksum.
 *
 * C library only (no opal_config.h), like compress_codec.h, so that the
 * codec cores still build into plain C unit tests; static inline because
 * the codecs call the loads and stores in their inner loops.
 */
#ifndef OPAL_COMPRESS_BASE_BYTES_H
#define OPAL_COMPRESS_BASE_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The n <= 8 bytes at p as a little-endian number, byte by byte: right
 * whatever the host's byte order. */
static inline uint64_t opal_compress_base_load_bytes(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *) p;
    uint64_t v = 0;
    while (n > 0) {
        v = (v << 8) | b[--n];
    }
    return v;
}

/* Stores the low n <= 8 bytes of v at p, little-endian, byte by byte. */
static inline void opal_compress_base_store_bytes(void *p, uint64_t v, size_t n)
{
    unsigned char *b = (unsigned char *) p;
    for (size_t i = 0; i < n; i++) {
        b[i] = (unsigned char) (v >> (8 * i));
    }
}

static inline uint32_t opal_compress_base_load_le24(const void *p)
{
    return (uint32_t) opal_compress_base_load_bytes(p, 3);
}

/* Stores the low 24 bits of v. */
static inline void opal_compress_base_store_le24(void *p, uint32_t v)
{
    opal_compress_base_store_bytes(p, v, 3);
}

/* The words the codecs' inner loops load and store.  On a little-endian
 * host memcpy of a word is one plain load or store at any alignment, and
 * stays one in loops the compiler vectorises. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) \
    && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline uint32_t opal_compress_base_load_le32(const void *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static inline uint64_t opal_compress_base_load_le64(const void *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static inline void opal_compress_base_store_le32(void *p, uint32_t v)
{
    memcpy(p, &v, sizeof(v));
}

static inline void opal_compress_base_store_le64(void *p, uint64_t v)
{
    memcpy(p, &v, sizeof(v));
}
#else
static inline uint32_t opal_compress_base_load_le32(const void *p)
{
    return (uint32_t) opal_compress_base_load_bytes(p, 4);
}

static inline uint64_t opal_compress_base_load_le64(const void *p)
{
    return opal_compress_base_load_bytes(p, 8);
}

static inline void opal_compress_base_store_le32(void *p, uint32_t v)
{
    opal_compress_base_store_bytes(p, v, 4);
}

static inline void opal_compress_base_store_le64(void *p, uint64_t v)
{
    opal_compress_base_store_bytes(p, v, 8);
}
#endif

/* Unsigned LEB128: 7 bits a byte, least significant group first, bit 7 set
 * on every byte but the last.  Only the minimal encoding is written or
 * accepted, so that a value has exactly one encoding. */
#define OPAL_COMPRESS_BASE_VARINT_MAX 10 /* bytes of a 64-bit value */

static inline size_t opal_compress_base_varint_len(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

/* Writes v at p, which has room for opal_compress_base_varint_len(v)
 * bytes; returns that length. */
static inline size_t opal_compress_base_varint_put(void *p, uint64_t v)
{
    unsigned char *b = (unsigned char *) p;
    size_t n = 0;
    while (v >= 0x80) {
        b[n++] = (unsigned char) (0x80 | (v & 0x7f));
        v >>= 7;
    }
    b[n++] = (unsigned char) v;
    return n;
}

/* Reads a varint from p[0..len) into *v; returns its length, or 0 if it is
 * truncated, does not fit 64 bits or is not minimal (a zero last group). */
static inline size_t opal_compress_base_varint_get(const void *p, size_t len, uint64_t *v)
{
    const unsigned char *b = (const unsigned char *) p;
    uint64_t x = 0;
    unsigned shift = 0;
    size_t n = 0;
    for (;;) {
        unsigned char c;
        if (n >= len || shift > 63) {
            return 0;
        }
        c = b[n++];
        if (63 == shift && c > 1) {
            return 0;
        }
        x |= (uint64_t) (c & 0x7f) << shift;
        if (0 == (c & 0x80)) {
            if (0 == c && shift > 0) {
                return 0;
            }
            *v = x;
            return n;
        }
        shift += 7;
    }
}

/*
 * The suite's checksum, of the compressed-file container's blocks and of
 * pml/zcomp's headers and chunks: Fletcher-style sums mod 2^64 over
 * little-endian 64-bit words in two lanes.  A changed word changes a; two
 * swapped words x, y at distance d change b unless (x - y) * d = 0 mod
 * 2^64.  It catches corruption that a codec without its own check decodes
 * into wrong data; it is no defence against deliberate tampering.
 *
 * Static inline because zcomp sums every chunk on its hot path.  The
 * result is part of zcomp's wire (version 2) and of the file format
 * (version 2): changing it needs a new version of both.
 */
static inline uint64_t opal_compress_base_checksum(const void *buf, size_t len)
{
    const unsigned char *p = (const unsigned char *) buf;
    uint64_t a0 = 1, b0 = (uint64_t) len, a1 = 0, b1 = 0;
    size_t i = 0;
    for (; i + 16 <= len; i += 16) {
        a0 += opal_compress_base_load_le64(p + i);
        b0 += a0;
        a1 += opal_compress_base_load_le64(p + i + 8);
        b1 += a1;
    }
    for (; i < len; i++) {
        a0 += p[i];
        b0 += a0;
    }
    /* odd multipliers keep each lane's sums distinct in the result */
    return (a0 ^ (b0 * UINT64_C(0x9e3779b97f4a7c15)))
           + ((a1 * UINT64_C(0xc2b2ae3d27d4eb4f)) ^ (b1 << 1 | b1 >> 63));
}

#endif /* OPAL_COMPRESS_BASE_BYTES_H */
