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

#define TEST_NAME "compress_rice_test"

/* The format, as documented in compress_rice.h. */
#define REF_BLOCK    256
#define REF_HDR_BITS 7
#define REF_QMAX     8
#define REF_ESC_BITS (REF_QMAX + 32)

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, TEST_NAME ": FAILED at %s:%d: %s\n  ", __FILE__,    \
                    __LINE__, #cond);                                           \
            fprintf(stderr, __VA_ARGS__);                                       \
            fprintf(stderr, "\n");                                              \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

static const opal_compress_codec_t *codec = &mca_compress_rice_codec;

/* splitmix64 */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint32_t rng_below(uint32_t n)
{
    return (uint32_t) (rng_next() % n);
}

/* Exact-size allocation; malloc(0) is allowed to return NULL. */
static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    CHECK(NULL != p || 0 == n, "out of memory allocating %zu bytes", n);
    return p;
}

static void *dup_exact(const void *p, size_t n)
{
    void *q = xmalloc(n);
    if (n > 0) {
        memcpy(q, p, n);
    }
    return q;
}

static int is_opal_error(ssize_t r)
{
    return OPAL_ERR_OUT_OF_RESOURCE == r || OPAL_ERR_BAD_PARAM == r
           || OPAL_ERR_UNPACK_FAILURE == r;
}

static void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t) v;
    p[1] = (uint8_t) (v >> 8);
    p[2] = (uint8_t) (v >> 16);
    p[3] = (uint8_t) (v >> 24);
}

static uint32_t get_le32(const uint8_t *p)
{
    return (uint32_t) p[0] | ((uint32_t) p[1] << 8) | ((uint32_t) p[2] << 16)
           | ((uint32_t) p[3] << 24);
}

enum {
    KIND_ZERO0, KIND_ZERO25, KIND_ZERO50, KIND_ZERO75, KIND_ZERO100,
    KIND_RANDOM_BYTES, KIND_ALL_EQUAL, KIND_SMALL8, KIND_SMALL1000,
    KIND_EXTREMES, KIND_MIXED, KIND_SMOOTH, KIND_COUNT
};

static const char *kind_name[KIND_COUNT] = {
    "int32 0% zeros", "int32 25% zeros", "int32 50% zeros", "int32 75% zeros",
    "int32 100% zeros", "random bytes", "all-equal int32", "int32 in [-8,8]",
    "int32 in [-1000,1000]", "int32 near INT32_MIN/MAX, UINT32_MAX",
    "int32 of mixed magnitudes", "int32 counter + noise (delta)"
};

static uint32_t gen_value(int kind, size_t i)
{
    switch (kind) {
    case KIND_ZERO0: case KIND_ZERO25: case KIND_ZERO50: case KIND_ZERO75: {
        uint32_t pct = 25u * (uint32_t) (kind - KIND_ZERO0);
        return (rng_below(100) < pct) ? 0 : (uint32_t) rng_next();
    }
    case KIND_ZERO100:
        return 0;
    case KIND_ALL_EQUAL:
        return UINT32_C(0xdeadbeef);
    case KIND_SMALL8:
        return (uint32_t) ((int32_t) rng_below(17) - 8);
    case KIND_SMALL1000:
        return (uint32_t) ((int32_t) rng_below(2001) - 1000);
    case KIND_EXTREMES: {
        uint32_t r = rng_below(4);
        switch (rng_below(4)) {
        case 0: return UINT32_C(0x80000000) + r; /* INT32_MIN + r */
        case 1: return UINT32_C(0x7fffffff) - r; /* INT32_MAX - r */
        case 2: return UINT32_MAX - r;
        default: return r;
        }
    }
    case KIND_MIXED: {
        /* Magnitude class drifts with position, so blocks pick many k. */
        unsigned bits = (unsigned) ((i / 300 + rng_below(3)) % 33);
        uint32_t v = (bits == 0) ? 0 : (uint32_t) (rng_next() >> (64 - bits));
        return rng_below(2) ? v : 0u - v;
    }
    case KIND_SMOOTH:
        return UINT32_C(4000000000) + 7u * (uint32_t) i + rng_below(5);
    default:
        return (uint32_t) rng_next();
    }
}

static void gen(int kind, uint8_t *buf, size_t len)
{
    size_t i;

    if (KIND_RANDOM_BYTES == kind) {
        for (i = 0; i < len; ++i) {
            buf[i] = (uint8_t) rng_next();
        }
        return;
    }
    for (i = 0; i + 4 <= len; i += 4) {
        put_le32(buf + i, gen_value(kind, i / 4));
    }
    for (; i < len; ++i) {
        buf[i] = (uint8_t) rng_next();
    }
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
            uint32_t x = get_le32(data + 4 * (base + i));
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
        put_le32(out + 4 * i, x);
        prev = x;
    }
    if (b.end - b.pos >= 8 || 0 != ref_get(&b, (unsigned) (b.end - b.pos))) {
        return -1;
    }
    memcpy(out + 4 * n, in + len - tail, tail);
    return 0;
}

/* Runs the codec's decoder and the reference on the same input with exact
 * buffers; they must agree on success and on the output. */
static ssize_t decode_both(const uint8_t *in, size_t len, size_t cap, size_t expected)
{
    uint8_t *in_copy = dup_exact(in, len);
    uint8_t *out = xmalloc(cap);
    ssize_t r = codec->decompress(in_copy, len, out, cap, expected);

    CHECK(r == (ssize_t) expected || (r < 0 && is_opal_error(r)),
          "decompress returned %zd (len %zu, cap %zu, expected %zu)", r, len, cap, expected);
    if (expected <= cap) {
        uint8_t *ref = xmalloc(expected);
        int rr = ref_decode(in, len, ref, expected);
        CHECK((0 == rr) == (r >= 0), "codec (%zd) and reference (%d) disagree, len %zu",
              r, rr, len);
        CHECK(r < 0 || 0 == expected || 0 == memcmp(ref, out, expected),
              "codec and reference decode differently, len %zu", len);
        free(ref);
    } else {
        CHECK(OPAL_ERR_OUT_OF_RESOURCE == r, "expected_len > cap gave %zd", r);
    }
    free(out);
    free(in_copy);
    return r;
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

static size_t total_in, total_out;

static void roundtrip(int kind, const uint8_t *data, size_t len, int verbose)
{
    size_t bound = codec->bound(len), expect_size = SIZE_MAX;
    uint8_t *out = xmalloc(bound), *enc, *dec;
    ssize_t c, d;
    /* The checks beyond the round trip and the exact size are left to the
     * smaller sizes so that the 16 MB cases stay quick under sanitizers. */
    const int extras = len <= 65537;

    CHECK(bound == doc_bound(len), "bound(%zu) = %zu, documented %zu", len, bound,
          doc_bound(len));
    c = codec->compress(data, len, out, bound);
    CHECK(c >= 0 && (size_t) c <= bound, "compress(%s, %zu) returned %zd, bound %zu",
          kind_name[kind], len, c, bound);
    /* At 16 MB the brute force (66 passes) is run on a few kinds only. */
    if (extras || KIND_ZERO75 == kind || KIND_SMOOTH == kind) {
        expect_size = ref_size(data, len);
        CHECK((size_t) c == expect_size, "%s, %zu bytes: compressed to %zd bytes, optimum is %zu",
              kind_name[kind], len, c, expect_size);
    }

    /* The decoder gets an exact-size copy so a read past the end is caught. */
    enc = dup_exact(out, (size_t) c);
    dec = xmalloc(len);
    d = codec->decompress(enc, (size_t) c, dec, len, len);
    CHECK(d == (ssize_t) len, "decompress(%s, %zu) returned %zd", kind_name[kind], len, d);
    CHECK(0 == len || 0 == memcmp(dec, data, len), "round trip of %s, %zu bytes differs",
          kind_name[kind], len);

    if (extras) {
        CHECK(decode_both(enc, (size_t) c, len, len) == (ssize_t) len,
              "reference decoder rejects the stream of %s, %zu bytes", kind_name[kind], len);
        /* Deterministic, and fits a buffer of exactly its size. */
        {
            uint8_t *again = xmalloc((size_t) c);
            ssize_t c2 = codec->compress(data, len, again, (size_t) c);
            CHECK(c2 == c && (0 == c || 0 == memcmp(again, enc, (size_t) c)),
                  "compress with cap == size gave %zd (first %zd) or other bytes", c2, c);
            free(again);
        }
        /* One byte short of the output, and a few random smaller caps. */
        if (c > 0) {
            int t;
            for (t = 0; t < 3; ++t) {
                size_t cap = (0 == t) ? (size_t) c - 1 : rng_below((uint32_t) c);
                uint8_t *small = xmalloc(cap);
                ssize_t r = codec->compress(data, len, small, cap);
                CHECK(OPAL_ERR_OUT_OF_RESOURCE == r, "compress with cap %zu < %zd gave %zd",
                      cap, c, r);
                free(small);
            }
        }
        /* Decoder error paths: cap too small, wrong lengths. */
        if (len > 0) {
            uint8_t *small = xmalloc(len - 1);
            CHECK(OPAL_ERR_OUT_OF_RESOURCE
                      == codec->decompress(enc, (size_t) c, small, len - 1, len),
                  "expected_len > cap not rejected");
            CHECK(OPAL_ERR_UNPACK_FAILURE
                      == codec->decompress(enc, (size_t) c, small, len - 1, len - 1),
                  "expected_len = len - 1 not rejected");
            free(small);
        }
        {
            size_t delta;
            for (delta = 1; delta <= 5; delta += 4) {
                uint8_t *big = xmalloc(len + delta);
                CHECK(OPAL_ERR_UNPACK_FAILURE
                          == codec->decompress(enc, (size_t) c, big, len + delta, len + delta),
                      "expected_len = len + %zu not rejected", delta);
                free(big);
            }
        }
        /* Every truncation of a small stream must fail. */
        if (c <= 2048) {
            size_t t;
            for (t = 0; t < (size_t) c; ++t) {
                uint8_t *trunc = dup_exact(enc, t);
                ssize_t r = codec->decompress(trunc, t, dec, len, len);
                CHECK(OPAL_ERR_UNPACK_FAILURE == r, "truncation to %zu of %zd bytes gave %zd",
                      t, c, r);
                free(trunc);
            }
        }
        /* Trailing garbage must fail. */
        {
            uint8_t *longer = xmalloc((size_t) c + 1);
            memcpy(longer, enc, (size_t) c);
            longer[c] = 0;
            CHECK(OPAL_ERR_UNPACK_FAILURE
                      == codec->decompress(longer, (size_t) c + 1, dec, len, len),
                  "trailing byte accepted");
            free(longer);
        }
    }
    if (verbose) {
        printf("  %-38s %9zu -> %9zd bytes (ratio %.3f)%s\n", kind_name[kind], len, c,
               c > 0 ? (double) len / (double) c : 0.0,
               (size_t) c == expect_size ? ", = reference optimum" : "");
    }
    total_in += len;
    total_out += (size_t) c;
    free(dec);
    free(enc);
    free(out);
}

static void test_roundtrips(void)
{
    static const size_t sizes[] = {0, 1, 3, 4, 5, 7, 8, 4095, 4096, 65537, 16u << 20};
    size_t s;
    int kind;

    printf("round trips (sizes 0..16 MB, %d data kinds), size = brute-force optimum, reference "
           "decoder, caps, wrong lengths, truncations:\n", KIND_COUNT);
    for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); ++s) {
        size_t len = sizes[s];
        uint8_t *data = xmalloc(len);
        for (kind = 0; kind < KIND_COUNT; ++kind) {
            gen(kind, data, len);
            roundtrip(kind, data, len, len == (16u << 20));
        }
        free(data);
    }
    /* Every small size, and sizes around block boundaries. */
    for (s = 0; s <= 130; ++s) {
        uint8_t *data = xmalloc(s);
        for (kind = 0; kind < KIND_COUNT; ++kind) {
            gen(kind, data, s);
            roundtrip(kind, data, s, 0);
        }
        free(data);
    }
    for (s = 1020; s <= 1032; ++s) {
        uint8_t *data = xmalloc(s);
        for (kind = 0; kind < KIND_COUNT; ++kind) {
            gen(kind, data, s);
            roundtrip(kind, data, s, 0);
        }
        free(data);
    }
    printf("  all round trips: %zu -> %zu bytes\n", total_in, total_out);
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
    uint8_t *in = xmalloc(len), *out = xmalloc(expected);
    ssize_t r;
    memcpy(in, hdr, hl);
    memcpy(in + hl, b->buf, (b->nbits + 7) / 8);
    if (nextra > 0) {
        memcpy(in + hl + (b->nbits + 7) / 8, extra, nextra);
    }
    r = decode_both(in, len, expected, expected);
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

static void test_bad_params(void)
{
    uint8_t buf[16] = {0};
    uint8_t *out = xmalloc(16);

    printf("parameter checks\n");
    CHECK(OPAL_ERR_BAD_PARAM == codec->compress(NULL, 4, out, 16), "NULL input accepted");
    CHECK(OPAL_ERR_BAD_PARAM == codec->compress(buf, 4, NULL, 16), "NULL output accepted");
    CHECK(0 == codec->compress(NULL, 0, NULL, 0), "empty input with NULL pointers failed");
    CHECK(0 == codec->decompress(NULL, 0, NULL, 0, 0), "empty stream with NULL pointers failed");
    CHECK(OPAL_ERR_OUT_OF_RESOURCE == codec->decompress(buf, 2, out, 3, 4),
          "expected_len > cap accepted");
    CHECK(OPAL_ERR_UNPACK_FAILURE == codec->decompress(buf, 1, out, 16, 0),
          "garbage for expected_len 0 accepted");
    CHECK(OPAL_ERR_BAD_PARAM == codec->decompress(NULL, 2, out, 16, 4), "NULL input accepted");
    CHECK(0 == codec->bound(0), "bound(0) = %zu", codec->bound(0));
    CHECK(codec->bound(SIZE_MAX) == SIZE_MAX, "bound does not saturate");
    free(out);
}

static void test_fuzz(void)
{
    const int iterations = 150000;
    int it, ok = 0;
    uint8_t *seeds[48];
    size_t seed_len[48], seed_plain[48];
    int s;

    /* Seed streams: encodings of small inputs of every kind. */
    for (s = 0; s < 48; ++s) {
        size_t len = rng_below(1100);
        uint8_t *data = xmalloc(len);
        uint8_t *out = xmalloc(codec->bound(len));
        ssize_t c;
        gen(s % KIND_COUNT, data, len);
        c = codec->compress(data, len, out, codec->bound(len));
        CHECK(c >= 0, "compress failed in fuzz setup");
        seeds[s] = out;
        seed_len[s] = (size_t) c;
        seed_plain[s] = len;
        free(data);
    }
    for (it = 0; it < iterations; ++it) {
        uint8_t buf[2048];
        size_t len, expected, cap;
        int op = (int) rng_below(6), m;
        s = (int) rng_below(48);
        len = seed_len[s];
        memcpy(buf, seeds[s], len);
        expected = seed_plain[s];
        switch (op) {
        case 0: /* bit flips */
            for (m = 1 + (int) rng_below(4); m > 0 && len > 0; --m) {
                size_t pos = rng_below((uint32_t) len);
                buf[pos] ^= (uint8_t) (1u << rng_below(8));
            }
            break;
        case 1: /* truncation */
            len = rng_below((uint32_t) len + 1);
            break;
        case 2: /* insertion */
            for (m = 1 + (int) rng_below(8); m > 0 && len < sizeof(buf); --m) {
                size_t pos = rng_below((uint32_t) len + 1);
                memmove(buf + pos + 1, buf + pos, len - pos);
                buf[pos] = (uint8_t) rng_next();
                ++len;
            }
            break;
        case 3: /* random bytes after a valid header */
            for (m = 1 + (int) rng_below(4); m > 0 && len > 2; --m) {
                buf[2 + rng_below((uint32_t) len - 2)] = (uint8_t) rng_next();
            }
            break;
        case 4: /* pure random input */
            len = rng_below(64);
            for (m = 0; m < (int) len; ++m) {
                buf[m] = (uint8_t) rng_next();
            }
            expected = rng_below(300);
            if (rng_below(2) && len > 0) {
                buf[0] = (uint8_t) (expected & 0x7f); /* header right, for depth */
                expected &= 0x7f;
            }
            break;
        default: /* intact stream, wrong or right length */
            if (rng_below(2)) {
                expected = rng_below(1200);
            }
            break;
        }
        cap = expected;
        if (0 == rng_below(8)) {
            cap = rng_below((uint32_t) expected + 2);
        }
        if (decode_both(buf, len, cap, expected) >= 0) {
            ++ok;
        }
    }
    for (s = 0; s < 48; ++s) {
        free(seeds[s]);
    }
    printf("fuzzed decompress with %d mutated/random inputs (%d decoded), "
           "agreeing with the reference decoder\n", iterations, ok);
}

int main(int argc, char **argv)
{
    uint64_t seed = (argc > 1) ? strtoull(argv[1], NULL, 0) : UINT64_C(20260101);

    setvbuf(stdout, NULL, _IOLBF, 0); /* progress stays ordered with errors */
    rng_state = seed;
    printf(TEST_NAME ": codec \"%s\" (id %u), seed %llu\n", codec->name, (unsigned) codec->id,
           (unsigned long long) seed);
    test_bad_params();
    test_handmade();
    test_roundtrips();
    test_fuzz();
    printf(TEST_NAME ": OK\n");
    return 0;
}
