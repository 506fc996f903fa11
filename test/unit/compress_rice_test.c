/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Unit test of the Rice block codec core (no MPI): round trips on many data
 * shapes and sizes; the compressed size must equal the optimum computed by a
 * brute-force reference from the format description in compress_rice.h (256
 * values per block, 7-bit block header, both modes and all k tried); a naive
 * bit-by-bit reference decoder must agree with the codec; error paths and
 * hand-made corrupt streams; and a decoder fuzz loop.  Buffers handed to the
 * codec are malloc'd at their exact size so that ASan reports any access
 * past them.
 *
 * Usage: compress_rice_test [seed]
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/mca/compress/rice/compress_rice.h"
#include "test/common/check.h"
#include "test/common/codec_test.h"

#define TEST_NAME "compress_rice_test"

/* The format, as documented in compress_rice.h. */
#define REF_BLOCK    256
#define REF_HDR_BITS 7
#define REF_QMAX     8
#define REF_ESC_BITS (REF_QMAX + 32)

static const opal_compress_codec_t *codec = &mca_compress_rice_codec;

enum { KIND_MIXED = CT_KIND_SHARED, KIND_SMOOTH, KIND_COUNT };

static const char *const kind_name[KIND_COUNT] = {
    "int32 0% zeros", "int32 25% zeros", "int32 50% zeros", "int32 75% zeros",
    "int32 100% zeros", "random bytes", "all-equal int32", "int32 in [-8,8]",
    "int32 in [-1000,1000]", "int32 near INT32_MIN/MAX, UINT32_MAX",
    "int32 of mixed magnitudes", "int32 counter + noise (delta)"
};

static uint32_t gen_value(int kind, size_t i)
{
    switch (kind) {
    case CT_KIND_ALL_EQUAL:
        return UINT32_C(0xdeadbeef);
    case KIND_MIXED: {
        /* Magnitude class drifts with position, so blocks pick many k. */
        unsigned bits = (unsigned) ((i / 300 + ct_below(3)) % 33);
        uint32_t v = (bits == 0) ? 0 : (uint32_t) (ct_rand() >> (64 - bits));
        return ct_below(2) ? v : 0u - v;
    }
    case KIND_SMOOTH:
        return UINT32_C(4000000000) + 7u * (uint32_t) i + (uint32_t) ct_below(5);
    default:
        return ct_value(kind);
    }
}

static void gen(int kind, uint8_t *buf, size_t len)
{
    ct_gen(kind, buf, len, gen_value);
}

/* ---- Reference model, written from the format description only. ---- */

static size_t ref_varint(size_t v, uint8_t *out)
{
    size_t n = 0;
    while (v >= 0x80) {
        out[n++] = (uint8_t) (0x80 | (v & 0x7f));
        v >>= 7;
    }
    out[n++] = (uint8_t) v;
    return n;
}

static uint32_t ref_zigzag(uint32_t x)
{
    int32_t s;
    memcpy(&s, &x, sizeof(s));
    return (s < 0) ? 2u * (0u - x) - 1u : 2u * x;
}

static uint32_t ref_unzigzag(uint32_t u)
{
    return (u & 1u) ? 0u - (u / 2u) - 1u : u / 2u;
}

/* Bits of one value's code with parameter k. */
static uint64_t ref_code_bits(uint32_t u, unsigned k)
{
    uint32_t q;
    if (32 == k) {
        return 32;
    }
    q = u >> k;
    return (q < REF_QMAX) ? q + 1 + k : REF_ESC_BITS;
}

/* Brute force: for every block, both modes and all 33 k, the exact cost. */
static size_t ref_size(const uint8_t *data, size_t len)
{
    uint8_t hdr[16];
    size_t n = len / 4, base, i;
    uint64_t bits = 0;
    uint32_t prev = 0;

    if (0 == len) {
        return 0;
    }
    for (base = 0; base < n; base += REF_BLOCK) {
        size_t cnt = (n - base < REF_BLOCK) ? n - base : REF_BLOCK;
        uint32_t u[2][REF_BLOCK];
        uint64_t best = UINT64_MAX;
        unsigned mode, k;
        for (i = 0; i < cnt; ++i) {
            uint32_t x = ct_get_le32(data + 4 * (base + i));
            u[0][i] = ref_zigzag(x);
            u[1][i] = ref_zigzag(x - prev);
            prev = x;
        }
        for (mode = 0; mode < 2; ++mode) {
            for (k = 0; k <= 32; ++k) {
                uint64_t cost = REF_HDR_BITS;
                for (i = 0; i < cnt; ++i) {
                    cost += ref_code_bits(u[mode][i], k);
                }
                if (cost < best) {
                    best = cost;
                }
            }
        }
        bits += best;
    }
    return ref_varint(len, hdr) + (size_t) ((bits + 7) / 8) + len % 4;
}

typedef struct {
    const uint8_t *in;
    size_t pos, end; /* in bits */
    int bad;
} ref_bits_t;

static uint64_t ref_get(ref_bits_t *b, unsigned count)
{
    uint64_t v = 0;
    unsigned i;
    for (i = 0; i < count; ++i) {
        if (b->pos >= b->end) {
            b->bad = 1;
            return 0;
        }
        v |= (uint64_t) ((b->in[b->pos / 8] >> (b->pos % 8)) & 1u) << i;
        ++b->pos;
    }
    return v;
}

/* Naive decoder; returns 0 iff the stream is valid for expected bytes. */
static int ref_decode(const uint8_t *in, size_t len, uint8_t *out, size_t expected)
{
    uint8_t hdr[16];
    size_t hl, tail, n, i;
    unsigned mode = 0, k = 0;
    uint32_t prev = 0;
    ref_bits_t b;

    if (0 == expected) {
        return (0 == len) ? 0 : -1;
    }
    hl = ref_varint(expected, hdr);
    tail = expected % 4;
    n = expected / 4;
    if (len < hl + tail || 0 != memcmp(in, hdr, hl)) {
        return -1;
    }
    b.in = in;
    b.pos = hl * 8;
    b.end = (len - tail) * 8;
    b.bad = 0;
    for (i = 0; i < n; ++i) {
        uint32_t u, x;
        if (0 == i % REF_BLOCK) {
            mode = (unsigned) ref_get(&b, 1);
            k = (unsigned) ref_get(&b, 6);
            if (k > 32) {
                return -1;
            }
        }
        if (32 == k) {
            u = (uint32_t) ref_get(&b, 32);
        } else {
            unsigned q;
            for (q = 0; q < REF_QMAX; ++q) {
                if (0 == ref_get(&b, 1)) {
                    break;
                }
            }
            if (REF_QMAX == q) {
                u = (uint32_t) ref_get(&b, 32);
            } else {
                uint64_t full = ((uint64_t) q << k) + ref_get(&b, k);
                if (full > UINT32_MAX) {
                    return -1;
                }
                u = (uint32_t) full;
            }
        }
        if (b.bad) {
            return -1;
        }
        x = mode ? prev + ref_unzigzag(u) : ref_unzigzag(u);
        ct_put_le32(out + 4 * i, x);
        prev = x;
    }
    if (b.end - b.pos >= 8 || 0 != ref_get(&b, (unsigned) (b.end - b.pos))) {
        return -1;
    }
    memcpy(out + 4 * n, in + len - tail, tail);
    return 0;
}

/* Documented bound: every block stored with k = 32. */
static size_t doc_bound(size_t len)
{
    uint8_t hdr[16];
    size_t n = len / 4, nblocks = (n + REF_BLOCK - 1) / REF_BLOCK;
    if (0 == len) {
        return 0;
    }
    return ref_varint(len, hdr) + 4 * n + (REF_HDR_BITS * nblocks + 7) / 8 + len % 4;
}

/* op 4 of the fuzz loop: half of the random inputs get the right header */
static void random_header(uint8_t *buf, size_t len, size_t *expected)
{
    if (ct_below(2) && len > 0) {
        buf[0] = (uint8_t) (*expected & 0x7f); /* header right, for depth */
        *expected &= 0x7f;
    }
}

/* bound(len) as documented; the size is the brute-force optimum (at
 * 16 MB, for a few kinds only: the brute force makes 66 passes) */
static const char *check_size(int kind, const uint8_t *data, size_t len, size_t bound, size_t c)
{
    CHECK(bound == doc_bound(len), "bound(%zu) = %zu, documented %zu", len, bound,
          doc_bound(len));
    if (len <= 65537 || CT_KIND_ZERO75 == kind || KIND_SMOOTH == kind) {
        size_t expect_size = ref_size(data, len);
        CHECK(c == expect_size, "%s, %zu bytes: compressed to %zu bytes, optimum is %zu",
              kind_name[kind], len, c, expect_size);
        return ", = reference optimum";
    }
    return "";
}

static ct_codec_test_t test = {
    .name = TEST_NAME, .codec = &mca_compress_rice_codec,
    .nkinds = KIND_COUNT, .kind_name = kind_name, .gen = gen, .ref_decode = ref_decode,
    .check_size = check_size, .longer = {1, 5}, .trailing_byte = 1,
    .fuzz = {.iterations = 150000, .nseeds = 48, .seed_max = 1100, .room = 2048, .keep = 2,
             .random_expected = 300, .wrong_expected = 1200, .random_header = random_header},
};

static void test_roundtrips(void)
{
    printf("round trips (sizes 0..16 MB, %d data kinds), size = brute-force optimum, reference "
           "decoder, caps, wrong lengths, truncations:\n", KIND_COUNT);
    ct_roundtrip_sizes(&test);
    /* Every small size, and sizes around block boundaries. */
    ct_roundtrip_range(&test, 0, 130);
    ct_roundtrip_range(&test, 1020, 1032);
    printf("  all round trips: %zu -> %zu bytes\n", test.total_in, test.total_out);
}

/* ---- Hand-made streams. ---- */

typedef struct {
    uint8_t buf[256];
    size_t nbits;
} bitbuf_t;

static void bb_put(bitbuf_t *b, uint64_t v, unsigned count)
{
    unsigned i;
    for (i = 0; i < count; ++i, ++b->nbits) {
        if ((v >> i) & 1u) {
            b->buf[b->nbits / 8] |= (uint8_t) (1u << (b->nbits % 8));
        }
    }
}

/* Decodes hl header bytes + b's bits (+ extra bytes) for expected bytes. */
static ssize_t try_stream(const bitbuf_t *b, size_t expected, const uint8_t *extra, size_t nextra)
{
    uint8_t hdr[16];
    size_t hl = ref_varint(expected, hdr), len = hl + (b->nbits + 7) / 8 + nextra;
    uint8_t *in = xmalloc_exact(len), *out = xmalloc_exact(expected);
    ssize_t r;
    memcpy(in, hdr, hl);
    memcpy(in + hl, b->buf, (b->nbits + 7) / 8);
    if (nextra > 0) {
        memcpy(in + hl + (b->nbits + 7) / 8, extra, nextra);
    }
    r = ct_decode_ref(&test, in, len, expected, expected);
    free(out);
    free(in);
    return r;
}

static void test_handmade(void)
{
    bitbuf_t b;
    unsigned k;

    printf("hand-made streams: k > 32, over-long values, escapes, padding, header\n");
    /* One value, mode 0: valid k = 0..32 decode, k = 33..63 are rejected. */
    for (k = 0; k < 64; ++k) {
        memset(&b, 0, sizeof(b));
        bb_put(&b, (uint64_t) k << 1, 7);
        if (k >= 32) {
            bb_put(&b, 5, 32); /* raw value for k = 32, junk otherwise */
        } else {
            bb_put(&b, 0, 1);  /* q = 0 */
            bb_put(&b, 5, k);
        }
        CHECK((k <= 32) == (try_stream(&b, 4, NULL, 0) == 4), "k = %u handled wrongly", k);
    }
    /* k = 31 with q = 2 would exceed 32 bits. */
    memset(&b, 0, sizeof(b));
    bb_put(&b, 31u << 1, 7);
    bb_put(&b, 3, 3); /* 1 1 0 */
    bb_put(&b, 0, 31);
    CHECK(OPAL_ERR_UNPACK_FAILURE == try_stream(&b, 4, NULL, 0), "33-bit value accepted");
    /* Escape (8 ones) with k = 0 carries a raw value; long one runs are
     * escapes followed by raw bits, which then run out. */
    memset(&b, 0, sizeof(b));
    bb_put(&b, 0, 7);
    bb_put(&b, 0xff, 8);
    bb_put(&b, UINT32_MAX, 32);
    CHECK(4 == try_stream(&b, 4, NULL, 0), "escape not decoded");
    memset(&b, 0, sizeof(b));
    bb_put(&b, 0, 7);
    bb_put(&b, UINT64_MAX, 60);
    CHECK(OPAL_ERR_UNPACK_FAILURE == try_stream(&b, 4, NULL, 0), "run of ones accepted");
    memset(&b, 0, sizeof(b));
    bb_put(&b, 0, 7);
    bb_put(&b, 1, 2);    /* q = 1 */
    bb_put(&b, 0x7f, 7); /* seven ones ending on a byte boundary, no zero */
    CHECK(OPAL_ERR_UNPACK_FAILURE == try_stream(&b, 8, NULL, 0), "unterminated unary accepted");
    /* Nonzero padding bits. */
    memset(&b, 0, sizeof(b));
    bb_put(&b, 0, 7);
    bb_put(&b, 0, 1);
    bb_put(&b, 1, 1);
    CHECK(OPAL_ERR_UNPACK_FAILURE == try_stream(&b, 4, NULL, 0), "nonzero padding accepted");
    /* A whole extra zero byte of bit stream (the tail is empty for 4). */
    memset(&b, 0, sizeof(b));
    bb_put(&b, 0, 7);
    bb_put(&b, 0, 1);
    bb_put(&b, 0, 8);
    CHECK(OPAL_ERR_UNPACK_FAILURE == try_stream(&b, 4, NULL, 0), "extra zero byte accepted");
    /* Non-minimal header for 4: 0x84 0x00. */
    {
        uint8_t bad[3] = {0x84, 0x00, 0x00}, out[4];
        CHECK(OPAL_ERR_UNPACK_FAILURE == codec->decompress(bad, 3, out, 4, 4),
              "non-minimal header accepted");
    }
    /* A stream for 3 bytes (tail only) is header + 3 raw bytes. */
    {
        uint8_t s3[4] = {3, 'a', 'b', 'c'}, out[3];
        CHECK(3 == codec->decompress(s3, 4, out, 3, 3) && 0 == memcmp(out, "abc", 3),
              "tail-only stream not decoded");
    }
}

int main(int argc, char **argv)
{
    static void (*const tests[])(void) = {test_handmade, test_roundtrips};
    return ct_main(&test, argc, argv, tests, 2);
}
