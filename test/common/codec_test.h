/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * What the codec cores' own tests (test/unit/compress_<codec>_test.c)
 * share around their reference models and format cases: one generator
 * state (test_rand, seeded by the test), decoding from exact-size buffers
 * with the codec contract checked, the int32 data kinds, and, for a test
 * with a reference decoder (rle, rice), the round trips over the common
 * sizes, the contract checks around every valid stream, the parameter
 * checks and the fuzz loop that mutates encoded seed streams.
 *
 * Buffers handed to a codec are malloc'd at their exact size so that
 * AddressSanitizer reports any access past them.
 */
#ifndef TEST_COMMON_CODEC_TEST_H
#define TEST_COMMON_CODEC_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/mca/compress/compress_codec.h"
#include "check.h"

/* ---- the generator: one state for the whole test ---- */

static uint64_t ct_state;

static inline uint64_t ct_rand(void)
{
    return test_rand(&ct_state);
}

/* uniform in [0, n); 0, drawing nothing, for n = 0 */
static inline size_t ct_below(size_t n)
{
    return n ? (size_t) test_rand_below(&ct_state, n) : 0;
}

static inline double ct_unit(void)
{
    return test_rand_unit(&ct_state);
}

static inline void ct_random_bytes(uint8_t *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; ++i) {
        p[i] = (uint8_t) ct_rand();
    }
}

/* ---- buffers and the decode contract ---- */

static inline int ct_is_opal_error(ssize_t r)
{
    return OPAL_ERR_OUT_OF_RESOURCE == r || OPAL_ERR_BAD_PARAM == r
           || OPAL_ERR_UNPACK_FAILURE == r;
}

static inline void *ct_dup_exact(const void *p, size_t n)
{
    void *q = xmalloc_exact(n);
    if (n > 0) {
        memcpy(q, p, n);
    }
    return q;
}

static inline void ct_put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t) v;
    p[1] = (uint8_t) (v >> 8);
    p[2] = (uint8_t) (v >> 16);
    p[3] = (uint8_t) (v >> 24);
}

static inline uint32_t ct_get_le32(const uint8_t *p)
{
    return (uint32_t) p[0] | ((uint32_t) p[1] << 8) | ((uint32_t) p[2] << 16)
           | ((uint32_t) p[3] << 24);
}

/* Decodes a copy of in[0..len) into cap bytes, both buffers of exact size,
 * and checks the contract: the result is expected or an OPAL error, and
 * OPAL_ERR_OUT_OF_RESOURCE when expected > cap.  The output goes to *out
 * (NULL: freed). */
static inline ssize_t ct_decode(const opal_compress_codec_t *codec, const uint8_t *in, size_t len,
                                size_t cap, size_t expected, uint8_t **out)
{
    uint8_t *in_copy = ct_dup_exact(in, len);
    uint8_t *o = xmalloc_exact(cap);
    ssize_t r = codec->decompress(in_copy, len, o, cap, expected);

    CHECK(r == (ssize_t) expected || (r < 0 && ct_is_opal_error(r)),
          "%s: decompress returned %zd (len %zu, cap %zu, expected %zu)", codec->name, r, len,
          cap, expected);
    CHECK(expected <= cap || OPAL_ERR_OUT_OF_RESOURCE == r, "%s: expected_len > cap gave %zd",
          codec->name, r);
    free(in_copy);
    if (NULL != out) {
        *out = o;
    } else {
        free(o);
    }
    return r;
}

/* Compresses data[0..len) into a buffer of exactly the output's size. */
static inline uint8_t *ct_compress_exact(const opal_compress_codec_t *codec, const uint8_t *data,
                                         size_t len, size_t *out_len)
{
    size_t bnd = codec->bound(len);
    uint8_t *c = xmalloc_exact(bnd), *e;
    ssize_t r = codec->compress(data, len, c, bnd);
    CHECK(r >= 0, "%s: compress of %zu bytes returned %zd", codec->name, len, r);
    e = ct_dup_exact(c, (size_t) r);
    free(c);
    *out_len = (size_t) r;
    return e;
}

/* ---- data kinds: int32 values (little-endian) of a few shapes ---- */

/* The kinds of the rle and rice tests, in this order; a test numbers its
 * own from CT_KIND_SHARED. */
enum {
    CT_KIND_ZERO0, CT_KIND_ZERO25, CT_KIND_ZERO50, CT_KIND_ZERO75, CT_KIND_ZERO100,
    CT_KIND_RANDOM_BYTES, CT_KIND_ALL_EQUAL, CT_KIND_SMALL8, CT_KIND_SMALL1000,
    CT_KIND_EXTREMES, CT_KIND_SHARED
};

/* One value of an int32 kind (ZERO*, SMALL*, EXTREMES; others random). */
static inline uint32_t ct_value(int kind)
{
    switch (kind) {
    case CT_KIND_ZERO0: case CT_KIND_ZERO25: case CT_KIND_ZERO50: case CT_KIND_ZERO75: {
        uint32_t pct = 25u * (uint32_t) (kind - CT_KIND_ZERO0);
        return (ct_below(100) < pct) ? 0 : (uint32_t) ct_rand();
    }
    case CT_KIND_ZERO100:
        return 0;
    case CT_KIND_SMALL8:
        return (uint32_t) ((int32_t) ct_below(17) - 8);
    case CT_KIND_SMALL1000:
        return (uint32_t) ((int32_t) ct_below(2001) - 1000);
    case CT_KIND_EXTREMES: {
        uint32_t r = (uint32_t) ct_below(4);
        switch (ct_below(4)) {
        case 0: return UINT32_C(0x80000000) + r; /* INT32_MIN + r */
        case 1: return UINT32_C(0x7fffffff) - r; /* INT32_MAX - r */
        case 2: return UINT32_MAX - r;
        default: return r;
        }
    }
    default:
        return (uint32_t) ct_rand();
    }
}

/* buf[0..len) of kind: random bytes, or value(kind, i) for the i-th whole
 * int32 (value NULL: ct_value) and random bytes after the last. */
static inline void ct_gen(int kind, uint8_t *buf, size_t len, uint32_t (*value)(int kind, size_t i))
{
    size_t i;

    if (CT_KIND_RANDOM_BYTES == kind) {
        ct_random_bytes(buf, len);
        return;
    }
    for (i = 0; i + 4 <= len; i += 4) {
        ct_put_le32(buf + i, NULL != value ? value(kind, i / 4) : ct_value(kind));
    }
    ct_random_bytes(buf + i, len - i);
}

/* ---- a codec test with a reference decoder ---- */

typedef struct ct_fuzz {
    int iterations;
    int nseeds;             /* seed streams: encodings of nseeds inputs ... */
    size_t seed_max;        /* ... each shorter than seed_max bytes */
    size_t room;            /* insertions stop at room bytes (<= CT_FUZZ_ROOM) */
    size_t keep;            /* overwrites leave the first keep bytes */
    size_t random_expected; /* expected length of random input below this */
    size_t wrong_expected;  /* a wrong expected length below this */
    /* may make random input's header right (for depth) */
    void (*random_header)(uint8_t *buf, size_t len, size_t *expected);
} ct_fuzz_t;

#define CT_FUZZ_ROOM 2048

typedef struct ct_codec_test {
    const char *name;
    const opal_compress_codec_t *codec;
    int nkinds;
    const char *const *kind_name;
    void (*gen)(int kind, uint8_t *buf, size_t len);
    /* Naive decoder written from the format description: 0 iff in[0..len)
     * is a valid stream of exactly expected bytes (into out). */
    int (*ref_decode)(const uint8_t *in, size_t len, uint8_t *out, size_t expected);
    /* The codec's own checks of bound(len) and of the size c of the
     * stream of data[0..len); returns what the report line adds. */
    const char *(*check_size)(int kind, const uint8_t *data, size_t len, size_t bound, size_t c);
    size_t longer[2];       /* expected lengths len + longer[k] (> 0) fail */
    int trailing_byte;      /* a byte after a valid stream fails */
    ct_fuzz_t fuzz;
    size_t total_in, total_out; /* of the round trips */
} ct_codec_test_t;

/* ct_decode, and the reference decoder on the same input must agree on
 * success and on the output. */
static inline ssize_t ct_decode_ref(const ct_codec_test_t *t, const uint8_t *in, size_t len,
                                    size_t cap, size_t expected)
{
    uint8_t *out;
    ssize_t r = ct_decode(t->codec, in, len, cap, expected, &out);

    if (expected <= cap) {
        uint8_t *ref = xmalloc_exact(expected);
        int rr = t->ref_decode(in, len, ref, expected);
        CHECK((0 == rr) == (r >= 0), "codec (%zd) and reference (%d) disagree, len %zu", r, rr,
              len);
        CHECK(r < 0 || 0 == expected || 0 == memcmp(ref, out, expected),
              "codec and reference decode differently, len %zu", len);
        free(ref);
    }
    free(out);
    return r;
}

/* The contract around a valid stream enc[0..c) of data[0..len) (dec: room
 * for len bytes): the reference decoder accepts it; compress is
 * deterministic and fits a buffer of exactly c bytes, not one byte less nor
 * two random sizes less; the decoder rejects cap len - 1, expected lengths
 * len - 1 and len + longer[k], every truncation of a stream up to 2 kB and,
 * if the test says so, a trailing byte. */
static inline void ct_stream_checks(const ct_codec_test_t *t, const uint8_t *data, size_t len,
                                    const uint8_t *enc, size_t c, uint8_t *dec, const char *what)
{
    const opal_compress_codec_t *codec = t->codec;
    uint8_t *again = xmalloc_exact(c);
    ssize_t c2;
    size_t k;

    CHECK(ct_decode_ref(t, enc, c, len, len) == (ssize_t) len,
          "reference decoder rejects the stream of %s, %zu bytes", what, len);
    c2 = codec->compress(data, len, again, c);
    CHECK(c2 == (ssize_t) c && (0 == c || 0 == memcmp(again, enc, c)),
          "compress with cap == size gave %zd (first %zu) or other bytes", c2, c);
    free(again);
    if (c > 0) {
        int n;
        for (n = 0; n < 3; ++n) {
            size_t cap = (0 == n) ? c - 1 : ct_below(c);
            uint8_t *small = xmalloc_exact(cap);
            ssize_t r = codec->compress(data, len, small, cap);
            CHECK(OPAL_ERR_OUT_OF_RESOURCE == r, "compress with cap %zu < %zu gave %zd", cap, c,
                  r);
            free(small);
        }
    }
    if (len > 0) {
        uint8_t *small = xmalloc_exact(len - 1);
        CHECK(OPAL_ERR_OUT_OF_RESOURCE == codec->decompress(enc, c, small, len - 1, len),
              "expected_len > cap not rejected");
        CHECK(OPAL_ERR_UNPACK_FAILURE == codec->decompress(enc, c, small, len - 1, len - 1),
              "expected_len = len - 1 not rejected");
        free(small);
    }
    for (k = 0; k < 2 && t->longer[k] > 0; ++k) {
        size_t more = t->longer[k];
        uint8_t *big = xmalloc_exact(len + more);
        CHECK(OPAL_ERR_UNPACK_FAILURE == codec->decompress(enc, c, big, len + more, len + more),
              "expected_len = len + %zu not rejected", more);
        free(big);
    }
    if (c <= 2048) {
        for (k = 0; k < c; ++k) {
            uint8_t *trunc = ct_dup_exact(enc, k);
            ssize_t r = codec->decompress(trunc, k, dec, len, len);
            CHECK(OPAL_ERR_UNPACK_FAILURE == r, "truncation to %zu of %zu bytes gave %zd", k, c, r);
            free(trunc);
        }
    }
    if (t->trailing_byte) {
        uint8_t *longer = xmalloc_exact(c + 1);
        memcpy(longer, enc, c);
        longer[c] = 0;
        CHECK(OPAL_ERR_UNPACK_FAILURE == codec->decompress(longer, c + 1, dec, len, len),
              "trailing byte accepted");
        free(longer);
    }
}

/* Round trip of data[0..len) of kind (the decoder gets an exact-size copy
 * so that a read past the end is caught), the codec's size checks, and
 * ct_stream_checks up to 65537 bytes (the 16 MB cases stay quick under the
 * sanitizers); verbose: a report line. */
static inline void ct_roundtrip(ct_codec_test_t *t, int kind, const uint8_t *data, size_t len,
                                int verbose)
{
    const opal_compress_codec_t *codec = t->codec;
    const char *name = t->kind_name[kind], *note;
    size_t bound = codec->bound(len);
    uint8_t *out = xmalloc_exact(bound), *enc, *dec;
    ssize_t c, d;

    c = codec->compress(data, len, out, bound);
    CHECK(c >= 0 && (size_t) c <= bound, "compress(%s, %zu) returned %zd, bound %zu", name, len,
          c, bound);
    note = t->check_size(kind, data, len, bound, (size_t) c);
    enc = ct_dup_exact(out, (size_t) c);
    dec = xmalloc_exact(len);
    d = codec->decompress(enc, (size_t) c, dec, len, len);
    CHECK(d == (ssize_t) len, "decompress(%s, %zu) returned %zd", name, len, d);
    CHECK(0 == len || 0 == memcmp(dec, data, len), "round trip of %s, %zu bytes differs", name,
          len);
    if (len <= 65537) {
        ct_stream_checks(t, data, len, enc, (size_t) c, dec, name);
    }
    if (verbose) {
        printf("  %-38s %9zu -> %9zd bytes (ratio %.3f)%s\n", name, len, c,
               c > 0 ? (double) len / (double) c : 0.0, note);
    }
    t->total_in += len;
    t->total_out += (size_t) c;
    free(dec);
    free(enc);
    free(out);
}

/* Every kind at every size from .. to. */
static inline void ct_roundtrip_range(ct_codec_test_t *t, size_t from, size_t to)
{
    size_t s;
    int kind;

    for (s = from; s <= to; ++s) {
        uint8_t *data = xmalloc_exact(s);
        for (kind = 0; kind < t->nkinds; ++kind) {
            t->gen(kind, data, s);
            ct_roundtrip(t, kind, data, s, 0);
        }
        free(data);
    }
}

/* Every kind at sizes 0 .. 16 MB (the 16 MB ones reported). */
static inline void ct_roundtrip_sizes(ct_codec_test_t *t)
{
    static const size_t sizes[] = {0, 1, 3, 4, 5, 7, 8, 4095, 4096, 65537, 16u << 20};
    size_t s;
    int kind;

    for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); ++s) {
        size_t len = sizes[s];
        uint8_t *data = xmalloc_exact(len);
        for (kind = 0; kind < t->nkinds; ++kind) {
            t->gen(kind, data, len);
            ct_roundtrip(t, kind, data, len, len == (16u << 20));
        }
        free(data);
    }
}

static inline void ct_bad_params(const opal_compress_codec_t *codec)
{
    uint8_t buf[16] = {0};
    uint8_t *out = xmalloc_exact(16);

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

/* Decodes mutated encodings of small inputs of every kind (bit flips,
 * truncations, insertions, overwritten bytes), pure random input and
 * intact streams with wrong or right lengths, against the reference. */
static inline void ct_fuzz(const ct_codec_test_t *t)
{
    const opal_compress_codec_t *codec = t->codec;
    const ct_fuzz_t *f = &t->fuzz;
    uint8_t **seeds = xmalloc(sizeof(uint8_t *) * (size_t) f->nseeds);
    size_t *seed_len = xmalloc(sizeof(size_t) * (size_t) f->nseeds);
    size_t *seed_plain = xmalloc(sizeof(size_t) * (size_t) f->nseeds);
    int it, ok = 0, s;

    CHECK(f->room <= CT_FUZZ_ROOM, "fuzz room %zu", f->room);
    for (s = 0; s < f->nseeds; ++s) {
        size_t len = ct_below(f->seed_max);
        uint8_t *data = xmalloc_exact(len);
        uint8_t *out = xmalloc_exact(codec->bound(len));
        ssize_t c;
        t->gen(s % t->nkinds, data, len);
        c = codec->compress(data, len, out, codec->bound(len));
        CHECK(c >= 0 && (size_t) c <= f->room, "compress failed in fuzz setup");
        seeds[s] = out;
        seed_len[s] = (size_t) c;
        seed_plain[s] = len;
        free(data);
    }
    for (it = 0; it < f->iterations; ++it) {
        uint8_t buf[CT_FUZZ_ROOM];
        size_t len, expected, cap;
        int op = (int) ct_below(6), m;
        s = (int) ct_below((size_t) f->nseeds);
        len = seed_len[s];
        memcpy(buf, seeds[s], len);
        expected = seed_plain[s];
        switch (op) {
        case 0: /* bit flips */
            for (m = 1 + (int) ct_below(4); m > 0 && len > 0; --m) {
                size_t pos = ct_below(len);
                buf[pos] ^= (uint8_t) (1u << ct_below(8));
            }
            break;
        case 1: /* truncation */
            len = ct_below(len + 1);
            break;
        case 2: /* insertion */
            for (m = 1 + (int) ct_below(8); m > 0 && len < f->room; --m) {
                size_t pos = ct_below(len + 1);
                memmove(buf + pos + 1, buf + pos, len - pos);
                buf[pos] = (uint8_t) ct_rand();
                ++len;
            }
            break;
        case 3: /* random bytes overwritten (after the first keep) */
            for (m = 1 + (int) ct_below(4); m > 0 && len > f->keep; --m) {
                buf[f->keep + ct_below(len - f->keep)] = (uint8_t) ct_rand();
            }
            break;
        case 4: /* pure random input */
            len = ct_below(64);
            for (m = 0; m < (int) len; ++m) {
                buf[m] = (uint8_t) ct_rand();
            }
            expected = ct_below(f->random_expected);
            if (NULL != f->random_header) {
                f->random_header(buf, len, &expected);
            }
            break;
        default: /* intact stream, wrong or right length */
            if (ct_below(2)) {
                expected = ct_below(f->wrong_expected);
            }
            break;
        }
        cap = expected;
        if (0 == ct_below(8)) {
            cap = ct_below(expected + 2);
        }
        if (ct_decode_ref(t, buf, len, cap, expected) >= 0) {
            ++ok;
        }
    }
    for (s = 0; s < f->nseeds; ++s) {
        free(seeds[s]);
    }
    free(seeds);
    free(seed_len);
    free(seed_plain);
    printf("fuzzed decompress with %d mutated/random inputs (%d decoded), "
           "agreeing with the reference decoder\n", f->iterations, ok);
}

/* The test's main: seeds the generator with argv[1] (default 20260101),
 * then the parameter checks, the test's own tests[0..ntests), the fuzz
 * loop, and the last line "<name>: OK". */
static inline int ct_main(ct_codec_test_t *t, int argc, char **argv, void (*const *tests)(void),
                          int ntests)
{
    uint64_t seed = (argc > 1) ? strtoull(argv[1], NULL, 0) : UINT64_C(20260101);
    int k;

    setvbuf(stdout, NULL, _IOLBF, 0); /* progress stays ordered with errors */
    ct_state = seed;
    printf("%s: codec \"%s\" (id %u), seed %llu\n", t->name, t->codec->name,
           (unsigned) t->codec->id, (unsigned long long) seed);
    ct_bad_params(t->codec);
    for (k = 0; k < ntests; k++) {
        tests[k]();
    }
    ct_fuzz(t);
    printf("%s: OK\n", t->name);
    return 0;
}

#endif
