/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Unit test of the RLE block codec core (no MPI): round trips on many data
 * shapes and sizes, agreement with a naive reference decoder written from the
 * format description in compress_rle.h, the documented worst-case expansion,
 * error paths, and a decoder fuzz loop.  Buffers handed to the codec are
 * malloc'd at their exact size so that ASan reports any access past them.
 *
 * Usage: compress_rle_test [seed]
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/mca/compress/rle/compress_rle.h"

#define TEST_NAME "compress_rle_test"

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

static const opal_compress_codec_t *codec = &mca_compress_rle_codec;

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

enum {
    KIND_ZERO0, KIND_ZERO25, KIND_ZERO50, KIND_ZERO75, KIND_ZERO100,
    KIND_RANDOM_BYTES, KIND_ALL_EQUAL, KIND_SMALL8, KIND_SMALL1000,
    KIND_EXTREMES, KIND_RUNS, KIND_COUNT
};

static const char *kind_name[KIND_COUNT] = {
    "int32 0% zeros", "int32 25% zeros", "int32 50% zeros", "int32 75% zeros",
    "int32 100% zeros", "random bytes", "all-equal bytes", "int32 in [-8,8]",
    "int32 in [-1000,1000]", "int32 near INT32_MIN/MAX, UINT32_MAX",
    "byte runs of length 1..300"
};

static uint32_t gen_value(int kind)
{
    switch (kind) {
    case KIND_ZERO0: case KIND_ZERO25: case KIND_ZERO50: case KIND_ZERO75: {
        uint32_t pct = 25u * (uint32_t) (kind - KIND_ZERO0);
        return (rng_below(100) < pct) ? 0 : (uint32_t) rng_next();
    }
    case KIND_ZERO100:
        return 0;
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
    default:
        return (uint32_t) rng_next();
    }
}

static void gen(int kind, uint8_t *buf, size_t len)
{
    size_t i = 0;

    if (KIND_RANDOM_BYTES == kind) {
        for (i = 0; i < len; ++i) {
            buf[i] = (uint8_t) rng_next();
        }
    } else if (KIND_ALL_EQUAL == kind) {
        memset(buf, 0x5a, len);
    } else if (KIND_RUNS == kind) {
        while (i < len) {
            size_t run = 1 + rng_below(300);
            uint8_t b = (uint8_t) rng_next();
            while (run-- > 0 && i < len) {
                buf[i++] = b;
            }
        }
    } else {
        for (i = 0; i + 4 <= len; i += 4) {
            put_le32(buf + i, gen_value(kind));
        }
        for (; i < len; ++i) {
            buf[i] = (uint8_t) rng_next();
        }
    }
}

/*
 * Naive reference decoder, written from the format description only:
 * control byte c < 0x80 -> c + 1 literal bytes follow; c >= 0x80 -> the next
 * byte repeated c - 0x80 + 3 times.  Returns 0 iff the stream decodes to
 * exactly expected bytes.
 */
static int ref_decode(const uint8_t *in, size_t len, uint8_t *out, size_t expected)
{
    size_t i = 0, o = 0, j;

    while (i < len) {
        unsigned c = in[i++];
        if (c < 0x80) {
            for (j = 0; j < c + 1u; ++j) {
                if (i >= len || o >= expected) {
                    return -1;
                }
                out[o++] = in[i++];
            }
        } else {
            uint8_t b;
            if (i >= len) {
                return -1;
            }
            b = in[i++];
            for (j = 0; j < c - 0x80u + 3u; ++j) {
                if (o >= expected) {
                    return -1;
                }
                out[o++] = b;
            }
        }
    }
    return (o == expected) ? 0 : -1;
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

static size_t doc_bound(size_t len)
{
    return len + (len + 127) / 128;
}

static size_t total_in, total_out;

static void roundtrip(int kind, const uint8_t *data, size_t len, int verbose)
{
    size_t bound = codec->bound(len);
    uint8_t *out = xmalloc(bound), *enc, *dec;
    ssize_t c, d;
    /* The checks beyond the round trip are left to the smaller sizes so
     * that the 16 MB cases stay quick under the sanitizers. */
    const int extras = len <= 65537;

    CHECK(bound >= len && bound <= doc_bound(len), "bound(%zu) = %zu outside [len, %zu]",
          len, bound, doc_bound(len));
    c = codec->compress(data, len, out, bound);
    CHECK(c >= 0 && (size_t) c <= bound, "compress(%s, %zu) returned %zd, bound %zu",
          kind_name[kind], len, c, bound);
    if (0 == len) {
        CHECK(0 == c, "empty input compressed to %zd bytes", c);
    }

    /* The decoder gets an exact-size copy so a read past the end is caught. */
    enc = dup_exact(out, (size_t) c);
    dec = xmalloc(len);
    d = codec->decompress(enc, (size_t) c, dec, len, len);
    CHECK(d == (ssize_t) len, "decompress(%s, %zu) returned %zd", kind_name[kind], len, d);
    CHECK(0 == len || 0 == memcmp(dec, data, len), "round trip of %s, %zu bytes differs",
          kind_name[kind], len);
    CHECK(!extras || decode_both(enc, (size_t) c, len, len) == (ssize_t) len,
          "reference decoder rejects the stream of %s, %zu bytes", kind_name[kind], len);

    /* Deterministic, and fits a buffer of exactly its size. */
    if (extras) {
        uint8_t *again = xmalloc((size_t) c);
        ssize_t c2 = codec->compress(data, len, again, (size_t) c);
        CHECK(c2 == c && (0 == c || 0 == memcmp(again, enc, (size_t) c)),
              "compress with cap == size gave %zd (first %zd) or other bytes", c2, c);
        free(again);
    }
    /* One byte short of the output, and a few random smaller caps. */
    if (c > 0 && extras) {
        int t;
        for (t = 0; t < 3; ++t) {
            size_t cap = (0 == t) ? (size_t) c - 1 : rng_below((uint32_t) c);
            uint8_t *small = xmalloc(cap);
            ssize_t r = codec->compress(data, len, small, cap);
            CHECK(OPAL_ERR_OUT_OF_RESOURCE == r, "compress with cap %zu < %zd gave %zd", cap, c, r);
            free(small);
        }
    }
    /* Decoder error paths. */
    if (len > 0 && extras) {
        uint8_t *small = xmalloc(len - 1);
        CHECK(OPAL_ERR_OUT_OF_RESOURCE == codec->decompress(enc, (size_t) c, small, len - 1, len),
              "expected_len > cap not rejected");
        CHECK(OPAL_ERR_UNPACK_FAILURE
                  == codec->decompress(enc, (size_t) c, small, len - 1, len - 1),
              "expected_len = len - 1 not rejected");
        free(small);
    }
    if (extras) {
        uint8_t *big = xmalloc(len + 1);
        CHECK(OPAL_ERR_UNPACK_FAILURE == codec->decompress(enc, (size_t) c, big, len + 1, len + 1),
              "expected_len = len + 1 not rejected");
        free(big);
    }
    /* Every truncation of a small stream must fail. */
    if (c > 0 && c <= 2048) {
        size_t t;
        for (t = 0; t < (size_t) c; ++t) {
            uint8_t *trunc = dup_exact(enc, t);
            ssize_t r = codec->decompress(trunc, t, dec, len, len);
            CHECK(OPAL_ERR_UNPACK_FAILURE == r, "truncation to %zu of %zd bytes gave %zd", t, c, r);
            free(trunc);
        }
    }
    if (KIND_RANDOM_BYTES == kind) {
        CHECK((size_t) c <= doc_bound(len), "random data expanded beyond the bound");
    }
    if (verbose) {
        printf("  %-38s %9zu -> %9zd bytes (ratio %.3f)\n", kind_name[kind], len, c,
               c > 0 ? (double) len / (double) c : 0.0);
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

    printf("round trips (sizes 0..16 MB, %d data kinds), reference decoder, caps, "
           "wrong lengths, truncations:\n", KIND_COUNT);
    for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); ++s) {
        size_t len = sizes[s];
        uint8_t *data = xmalloc(len);
        for (kind = 0; kind < KIND_COUNT; ++kind) {
            gen(kind, data, len);
            roundtrip(kind, data, len, len == (16u << 20));
        }
        free(data);
    }
    /* Small sizes exhaustively and runs around the token limits. */
    for (s = 0; s <= 600; ++s) {
        uint8_t *data = xmalloc(s);
        for (kind = 0; kind < KIND_COUNT; ++kind) {
            gen(kind, data, s);
            roundtrip(kind, data, s, 0);
        }
        free(data);
    }
    {
        size_t run, pre;
        for (run = 1; run <= 400; ++run) {
            for (pre = 0; pre < 4; ++pre) {
                size_t len = pre + run + 2, i;
                uint8_t *data = xmalloc(len);
                for (i = 0; i < len; ++i) {
                    data[i] = (uint8_t) (i < pre ? 1 + i : i < pre + run ? 0xee : 0x10 + i);
                }
                roundtrip(KIND_RUNS, data, len, 0);
                free(data);
            }
        }
    }
    printf("  all round trips: %zu -> %zu bytes\n", total_in, total_out);
}

static void test_worst_case(void)
{
    size_t len = 1u << 20, i, worst_len = 0;
    uint8_t *data = xmalloc(len);
    uint8_t *out = xmalloc(codec->bound(len));
    double worst = 0.0;

    /* Random bytes, and the pattern a b b a b b ... whose runs stay below 3. */
    for (i = 0; i < 2; ++i) {
        size_t j;
        ssize_t c;
        for (j = 0; j < len; ++j) {
            data[j] = (uint8_t) ((0 == i) ? rng_next() : (j % 3 == 0) ? 1 : 2);
        }
        c = codec->compress(data, len, out, codec->bound(len));
        CHECK(c >= 0 && (size_t) c <= doc_bound(len), "expansion %zd > %zu", c, doc_bound(len));
        if ((double) c / (double) len > worst) {
            worst = (double) c / (double) len;
            worst_len = (size_t) c;
        }
    }
    printf("worst-case expansion on 1 MB random/no-run data: %zu -> %zu bytes "
           "(x%.5f, documented bound len + ceil(len/128) = %zu)\n",
           len, worst_len, worst, doc_bound(len));
    free(out);
    free(data);
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
    const int iterations = 200000;
    int it, ok = 0;
    uint8_t *seeds[32];
    size_t seed_len[32], seed_plain[32];
    int s;

    /* Seed streams: encodings of small inputs of every kind. */
    for (s = 0; s < 32; ++s) {
        size_t len = rng_below(400);
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
        uint8_t buf[1024];
        size_t len, expected, cap;
        int op = (int) rng_below(6), m;
        s = (int) rng_below(32);
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
        case 3: /* random bytes overwritten */
            for (m = 1 + (int) rng_below(4); m > 0 && len > 0; --m) {
                buf[rng_below((uint32_t) len)] = (uint8_t) rng_next();
            }
            break;
        case 4: /* pure random input */
            len = rng_below(64);
            for (m = 0; m < (int) len; ++m) {
                buf[m] = (uint8_t) rng_next();
            }
            expected = rng_below(2000);
            break;
        default: /* intact stream, wrong or right length */
            if (rng_below(2)) {
                expected = rng_below(600);
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
    for (s = 0; s < 32; ++s) {
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
    test_roundtrips();
    test_worst_case();
    test_fuzz();
    printf(TEST_NAME ": OK\n");
    return 0;
}
