/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Unit test of the FPC codec core (no MPI, no OPAL runtime).  Build with:
 *
 *   gcc -std=c99 -O1 -g -Wall -Wextra -Werror \
 *       -fsanitize=address,undefined -fno-sanitize-recover=all \
 *       -I<top> -I<build>/opal/include -o fpc_test \
 *       test/unit/compress_fpc_test.c \
 *       opal/mca/compress/fpc/compress_fpc_codec.c -lm
 *   ./fpc_test [SEED]
 *
 * Buffers handed to the codec are malloc'd at their exact size so that
 * AddressSanitizer reports any access past their end.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/mca/compress/fpc/compress_fpc.h"
#include "test/common/check.h"
#include "test/common/codec_test.h"

static const opal_compress_codec_t *codec = &mca_compress_fpc_codec;

/* ---- helpers --------------------------------------------------------- */

static void put_double(unsigned char *p, double d)
{
    memcpy(p, &d, 8);
}

static void put_u64(unsigned char *p, uint64_t v)
{
    memcpy(p, &v, 8);
}

/* ---- data generators (n doubles into buf) ------------------------------ */

static void gen_pattern(unsigned char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        put_double(buf + 8 * i, 50001.0 + 2.0 * (double) i);
    }
}

static void gen_random_bits(unsigned char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        put_u64(buf + 8 * i, ct_rand());
    }
}

static void gen_random_doubles(unsigned char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        put_double(buf + 8 * i, (ct_unit() - 0.5) * 2.0e6);
    }
}

static void gen_zeros(unsigned char *buf, size_t n, unsigned percent)
{
    for (size_t i = 0; i < n; i++) {
        double d = ct_below(100) < percent ? 0.0 : (ct_unit() - 0.5) * 1.0e3;
        put_double(buf + 8 * i, d);
    }
}

/* smooth 3-D field on a side^3 grid, x fastest */
static void gen_smooth(unsigned char *buf, size_t n, size_t side)
{
    for (size_t i = 0; i < n; i++) {
        double x = (double) (i % side), y = (double) ((i / side) % side);
        double z = (double) ((i / side / side) % side);
        put_double(buf + 8 * i, sin(0.1 * x) * cos(0.07 * y) + 0.5 * cos(0.05 * z)
                                    + 0.001 * x * y);
    }
}

static uint64_t special_value(void)
{
    uint64_t sign = (ct_rand() & 1) << 63;
    switch (ct_below(10)) {
    case 0: /* NaN with a random non-zero payload, quiet or signalling */
        return sign | 0x7ff0000000000000ULL | (ct_rand() & 0x000fffffffffffffULL) | 1;
    case 1:
        return 0x7ff8000000000000ULL; /* default quiet NaN */
    case 2:
        return sign | 0x7ff0000000000000ULL; /* +-inf */
    case 3:
        return 0x8000000000000000ULL; /* -0.0 */
    case 4:
        return 0;
    case 5: /* denormal */
        return sign | (ct_rand() & 0x000fffffffffffffULL);
    case 6:
        return sign | 1; /* smallest denormal */
    case 7:
        return sign | 0x7fefffffffffffffULL; /* DBL_MAX */
    case 8:
        return sign | 0x0010000000000000ULL; /* DBL_MIN */
    default:
        return ct_rand();
    }
}

static void gen_special(unsigned char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        put_u64(buf + 8 * i, special_value());
    }
}

/* Fills len bytes of kind k (0..6); tail bytes are random. */
static void gen_kind(unsigned char *buf, size_t len, unsigned k)
{
    size_t n = len / 8;
    switch (k) {
    case 0: gen_pattern(buf, n); break;
    case 1: gen_random_bits(buf, n); break;
    case 2: gen_random_doubles(buf, n); break;
    case 3: gen_zeros(buf, n, 50); break;
    case 4: gen_smooth(buf, n, 16); break;
    case 5: gen_special(buf, n); break;
    default:
        for (size_t i = 0; i < n; i++) { /* short runs of repeats */
            put_u64(buf + 8 * i, i % 5 ? 0 : ct_rand() % 7);
        }
        break;
    }
    for (size_t i = 8 * n; i < len; i++) {
        buf[i] = (unsigned char) ct_rand();
    }
}

/* ---- reference ---------------------------------------------------------- */

/* Obviously-correct, slow FPC model: recomputes both predictions with its
 * own tables, checks the codec's code for every double (leading-zero count
 * and predictor choice), rebuilds each value from the stream's residual
 * bytes, and checks that the stream has exactly the size the model
 * predicts.  Follows the stream format documented in compress_fpc_codec.c. */
static unsigned ref_lzbytes(uint64_t x)
{
    unsigned z = 0;
    for (int k = 7; k >= 0 && 0 == ((x >> (8 * k)) & 0xff); k--) {
        z++;
    }
    return z;
}

static void ref_check(const char *what, const unsigned char *data, size_t len,
                      const unsigned char *s, size_t slen, int bits)
{
    size_t n = len / 8, tail = len % 8, pos, codes, rp, ref_size;
    /* The codec shrinks its tables to the number of values. */
    while (bits > 1 && ((size_t) 1 << (bits - 1)) >= n) {
        bits--;
    }
    uint64_t mask = ((uint64_t) 1 << bits) - 1, fh = 0, dh = 0, last = 0;
    uint64_t nv = 0;
    unsigned shift = 0, b;
    uint64_t *fcm = calloc((size_t) 1 << bits, sizeof(uint64_t));
    uint64_t *dfcm = calloc((size_t) 1 << bits, sizeof(uint64_t));

    CHECK(fcm && dfcm, "%s: reference tables", what);
    CHECK(slen >= 4, "%s: stream shorter than a header", what);
    CHECK(1 == s[0] && (unsigned) bits == s[1] && tail == s[2],
          "%s: header bytes %u %u %u", what, s[0], s[1], s[2]);
    pos = 3;
    do {
        CHECK(pos < slen && shift < 64, "%s: bad count varint", what);
        b = s[pos++];
        nv |= (uint64_t) (b & 0x7f) << shift;
        shift += 7;
    } while (b & 0x80);
    CHECK(nv == (uint64_t) n, "%s: header count %llu, want %zu", what,
          (unsigned long long) nv, n);
    codes = pos;
    rp = pos + (n + 1) / 2;
    ref_size = rp + tail;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = 0, p1, p2, r = 0, d;
        unsigned z1, z2, best, zc, nib, got_z, want_sel;
        for (int k = 0; k < 8; k++) {
            v |= (uint64_t) data[8 * i + k] << (8 * k);
        }
        p1 = fcm[fh];
        p2 = dfcm[dh] + last;
        z1 = ref_lzbytes(v ^ p1);
        z2 = ref_lzbytes(v ^ p2);
        want_sel = z2 > z1;
        best = want_sel ? z2 : z1;
        zc = 4 == best ? 3 : best;
        ref_size += 8 - zc;
        CHECK(codes + i / 2 < slen, "%s: codes run past stream", what);
        nib = i % 2 ? s[codes + i / 2] & 15 : s[codes + i / 2] >> 4;
        got_z = (nib & 7) < 4 ? (nib & 7) : (nib & 7) + 1;
        CHECK(got_z == zc, "%s: double %zu coded with %u zero bytes, reference %u",
              what, i, got_z, zc);
        CHECK(z1 == z2 || (nib >> 3) == want_sel,
              "%s: double %zu used predictor %u, reference %u", what, i, nib >> 3,
              want_sel);
        for (unsigned k = 0; k < 8 - zc; k++) {
            CHECK(rp < slen, "%s: residual of double %zu runs past stream", what, i);
            r |= (uint64_t) s[rp++] << (8 * k);
        }
        CHECK((r ^ ((nib & 8) ? p2 : p1)) == v, "%s: double %zu residual wrong",
              what, i);
        fcm[fh] = v;
        fh = ((fh << 6) ^ (v >> 48)) & mask;
        d = v - last;
        dfcm[dh] = d;
        dh = ((dh << 2) ^ (d >> 40)) & mask;
        last = v;
    }
    if (n % 2) {
        CHECK(0 == (s[codes + n / 2] & 15), "%s: pad nibble not zero", what);
    }
    CHECK(rp + tail == slen && (0 == tail || 0 == memcmp(s + rp, data + 8 * n, tail)),
          "%s: tail wrong or stream has %zu bytes after residuals, want %zu", what,
          slen - rp, tail);
    CHECK(ref_size == slen, "%s: size %zu, reference %zu", what, slen, ref_size);
    free(fcm);
    free(dfcm);
}

/* ---- round trip --------------------------------------------------------- */

/* Compresses data (placed at an offset so that it is unaligned when off
 * != 0), checks bound, determinism, exact-cap success, exact decoding and
 * the reference model; returns the compressed size. */
static size_t roundtrip(const char *what, const unsigned char *data, size_t len,
                        size_t off, int ref)
{
    size_t bnd = codec->bound(len);
    unsigned char *in = xmalloc_exact(len + off), *c = xmalloc_exact(bnd), *c2, *o;
    ssize_t r, r2, d;

    if (len) {
        memcpy(in + off, data, len);
    }
    r = codec->compress(len ? in + off : NULL, len, c, bnd);
    CHECK(r >= 0, "%s: compress of %zu bytes returned %zd", what, len, r);
    CHECK((size_t) r <= bnd, "%s: %zd bytes exceed bound %zu", what, r, bnd);

    /* an exact-size output buffer must suffice, and output is deterministic */
    c2 = xmalloc_exact((size_t) r + off);
    r2 = codec->compress(len ? in + off : NULL, len, c2 + off, (size_t) r);
    CHECK(r2 == r && 0 == memcmp(c, c2 + off, (size_t) r),
          "%s: recompress with cap %zd gave %zd / different bytes", what, r, r2);

    o = xmalloc_exact(len + off);
    d = codec->decompress(c2 + off, (size_t) r, o + off, len, len);
    CHECK(d == (ssize_t) len, "%s: decompress returned %zd, want %zu", what, d, len);
    CHECK(0 == len || 0 == memcmp(o + off, data, len), "%s: round trip differs",
          what);
    if (ref) {
        ref_check(what, data, len, c2 + off, (size_t) r,
                  mca_compress_fpc_table_bits);
    }
    free(in);
    free(c);
    free(c2);
    free(o);
    return (size_t) r;
}

/* ---- tests -------------------------------------------------------------- */

static void report_ratio(const char *what, size_t len, size_t clen)
{
    printf("  %-28s %9zu -> %9zu bytes (%.1f %%)\n", what, len, clen,
           len ? 100.0 * (double) clen / (double) len : 0.0);
}

static void test_data_sets(void)
{
    const size_t n = 64 * 64 * 64, len = 8 * n;
    unsigned char *buf = xmalloc_exact(len);
    size_t clen;
    char name[64];

    printf("round trip + reference model on data sets (%zu doubles):\n", n);
    gen_pattern(buf, n);
    clen = roundtrip("patterned doubles", buf, len, 0, 1);
    report_ratio("patterned 50001,50003,...", len, clen);
    CHECK(clen * 100 < len * 35, "patterned doubles compress to %zu of %zu bytes",
          clen, len);

    gen_random_bits(buf, n);
    clen = roundtrip("random bits", buf, len, 3, 1);
    report_ratio("random 64-bit patterns", len, clen);
    gen_random_doubles(buf, n);
    clen = roundtrip("random doubles", buf, len, 0, 1);
    report_ratio("random doubles in +-1e6", len, clen);

    for (unsigned p = 0; p <= 100; p += 25) {
        snprintf(name, sizeof(name), "%u %% zeros", p);
        gen_zeros(buf, n, p);
        clen = roundtrip(name, buf, len, p % 8, 1);
        report_ratio(name, len, clen);
    }

    gen_smooth(buf, n, 64);
    clen = roundtrip("smooth 64^3 field", buf, len, 0, 1);
    report_ratio("smooth 64^3 field", len, clen);

    gen_special(buf, n);
    clen = roundtrip("special values", buf, len, 5, 1);
    report_ratio("NaN/inf/-0/denormal mix", len, clen);
    free(buf);
}

static void test_sizes(void)
{
    static const size_t sizes[] = { 0, 1, 7, 8, 9, 15, 16, 4095, 4096, 65537 };
    const size_t big = 16u << 20;
    unsigned char *buf = xmalloc_exact(65537);
    size_t clen;

    printf("sizes 0..65537 bytes x 7 kinds x aligned/unaligned\n");
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        for (unsigned k = 0; k < 7; k++) {
            char name[64];
            snprintf(name, sizeof(name), "%zu bytes of kind %u", sizes[s], k);
            gen_kind(buf, sizes[s], k);
            roundtrip(name, buf, sizes[s], 0, 1);
            roundtrip(name, buf, sizes[s], 1 + k % 7, 0);
        }
    }
    /* compress of 0 bytes is a header only, and it decodes */
    clen = roundtrip("empty", NULL, 0, 0, 1);
    CHECK(4 == clen, "empty input compressed to %zu bytes", clen);
    free(buf);

    printf("16 MB patterned, random and smooth\n");
    buf = xmalloc_exact(big);
    gen_pattern(buf, big / 8);
    clen = roundtrip("16 MB patterned", buf, big, 0, 1);
    report_ratio("16 MB patterned", big, clen);
    CHECK(clen * 100 < big * 35, "16 MB patterned: %zu bytes", clen);
    gen_random_bits(buf, big / 8);
    clen = roundtrip("16 MB random", buf, big, 7, 0);
    report_ratio("16 MB random", big, clen);
    gen_smooth(buf, big / 8, 128);
    clen = roundtrip("16 MB smooth", buf, big, 0, 0);
    report_ratio("16 MB smooth 128^3", big, clen);
    free(buf);
}

static void test_table_bits(void)
{
    const size_t len = 8 * 20000 + 5;
    unsigned char *buf = xmalloc_exact(len), *s, *o;
    size_t slen, clen;
    ssize_t r;
    static const int bad[] = { 0, -1, 25, 100 };

    printf("table_bits 1..24 round trip + reference; header-recorded bits\n");
    gen_smooth(buf, len / 8, 32);
    for (int b = 1; b <= 24; b++) {
        char name[32];
        snprintf(name, sizeof(name), "table_bits=%d", b);
        mca_compress_fpc_table_bits = b;
        roundtrip(name, buf, len, (size_t) b % 8, 1);
    }
    gen_special(buf, 100);
    for (int b = 1; b <= 24; b++) {
        mca_compress_fpc_table_bits = b;
        roundtrip("special, all table bits", buf, 800, 0, 1);
    }

    /* a stream written with 10 bits decodes after the setting changes */
    gen_smooth(buf, len / 8, 32);
    mca_compress_fpc_table_bits = 10;
    s = ct_compress_exact(codec, buf, len, &slen);
    CHECK(10 == s[1], "header records table bits %u", s[1]);
    mca_compress_fpc_table_bits = 20;
    r = ct_decode(codec, s, slen, len, len, &o);
    CHECK(r == (ssize_t) len && 0 == memcmp(o, buf, len),
          "10-bit stream did not decode with the setting at 20 (%zd)", r);
    free(o);
    free(s);

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        unsigned char out[64];
        mca_compress_fpc_table_bits = bad[i];
        r = codec->compress(buf, 40, out, sizeof(out));
        CHECK(OPAL_ERR_BAD_PARAM == r, "table_bits=%d: compress returned %zd",
              bad[i], r);
        r = codec->compress(buf, 0, out, sizeof(out));
        CHECK(OPAL_ERR_BAD_PARAM == r, "table_bits=%d, len 0: compress returned %zd",
              bad[i], r);
    }
    mca_compress_fpc_table_bits = 16;
    clen = roundtrip("back to 16 bits", buf, len, 0, 1);
    (void) clen;
    free(buf);
}

static void test_compress_errors(void)
{
    unsigned char buf[1003], out[64];
    ssize_t r;
    unsigned total = 0;

    printf("compress: every too-small cap -> OUT_OF_RESOURCE, no overrun; NULLs\n");
    for (unsigned k = 0; k < 7; k++) {
        size_t lens[] = { 0, 3, 8, 13, 16, 333, sizeof(buf) };
        for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
            size_t len = lens[l], slen;
            unsigned char *s;
            gen_kind(buf, len, k);
            s = ct_compress_exact(codec, buf, len, &slen);
            for (size_t cap = 0; cap <= slen; cap++) {
                unsigned char *o = xmalloc_exact(cap);
                r = codec->compress(buf, len, o, cap);
                if (cap < slen) {
                    CHECK(OPAL_ERR_OUT_OF_RESOURCE == r,
                          "kind %u len %zu cap %zu < %zu: compress returned %zd", k,
                          len, cap, slen, r);
                } else {
                    CHECK(r == (ssize_t) slen && 0 == memcmp(o, s, slen),
                          "kind %u len %zu exact cap: %zd", k, len, r);
                }
                free(o);
                total++;
            }
            free(s);
        }
    }
    printf("  %u capacities tried\n", total);

    r = codec->compress(NULL, 8, out, sizeof(out));
    CHECK(OPAL_ERR_BAD_PARAM == r, "compress(NULL, 8) returned %zd", r);
    r = codec->compress(buf, 8, NULL, 64);
    CHECK(OPAL_ERR_BAD_PARAM == r, "compress(out NULL, cap 64) returned %zd", r);
    r = codec->compress(NULL, 0, out, sizeof(out));
    CHECK(4 == r, "compress(NULL, 0) returned %zd", r);
    r = codec->compress(NULL, 0, NULL, 0);
    CHECK(OPAL_ERR_OUT_OF_RESOURCE == r, "compress(NULL, 0, NULL, 0) returned %zd", r);
    CHECK(codec->bound((size_t) -1) == (size_t) -1, "bound does not saturate");
    CHECK(codec->bound(0) >= 4 && codec->bound(17) >= 17 + 4 + 1,
          "bound too small");
}

static void test_decompress_errors(void)
{
    unsigned char buf[205], *s, *m, *o;
    size_t slen;
    ssize_t r;
    /* odd and even double counts, with and without tail */
    static const size_t lens[] = { 203, 205, 200, 8, 9, 0 };

    printf("decompress: truncation, wrong lengths, trailing bytes, headers\n");
    for (unsigned k = 0; k < 7; k++) {
        for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
            size_t len = lens[l];
            gen_kind(buf, len, k);
            s = ct_compress_exact(codec, buf, len, &slen);

            for (size_t p = 0; p < slen; p++) {
                r = ct_decode(codec, s, p, len, len, NULL);
                CHECK(OPAL_ERR_UNPACK_FAILURE == r,
                      "kind %u len %zu: prefix %zu of %zu returned %zd", k, len, p,
                      slen, r);
            }

            /* wrong expected_len with enough room */
            {
                size_t wrong[] = { len + 1, len + 7, len + 8, len + 9, 0, 1,
                                   len - 1, len - 8 };
                for (size_t w = 0; w < sizeof(wrong) / sizeof(wrong[0]); w++) {
                    if (wrong[w] == len || wrong[w] > len + 9) {
                        continue; /* skips the wrapped len - x */
                    }
                    r = ct_decode(codec, s, slen, len + 9, wrong[w], NULL);
                    CHECK(OPAL_ERR_UNPACK_FAILURE == r,
                          "kind %u len %zu: expected_len %zu returned %zd", k, len,
                          wrong[w], r);
                }
            }
            if (len > 0) {
                r = ct_decode(codec, s, slen, len - 1, len, NULL);
                CHECK(OPAL_ERR_OUT_OF_RESOURCE == r,
                      "expected_len > cap returned %zd", r);
            }

            /* trailing garbage */
            m = xmalloc_exact(slen + 1);
            memcpy(m, s, slen);
            m[slen] = 0;
            r = ct_decode(codec, m, slen + 1, len, len, NULL);
            CHECK(OPAL_ERR_UNPACK_FAILURE == r, "trailing byte accepted (%zd)", r);
            free(m);

            /* header fields */
            m = xmalloc_exact(slen);
            for (unsigned f = 0; f < 8; f++) {
                static const unsigned char vals[8][2] = { { 0, 0 }, { 0, 2 },
                    { 0, 0xff }, { 1, 0 }, { 1, 25 }, { 1, 0xff }, { 2, 8 },
                    { 2, 0xff } };
                memcpy(m, s, slen);
                m[vals[f][0]] = vals[f][1];
                r = ct_decode(codec, m, slen, len, len, NULL);
                CHECK(OPAL_ERR_UNPACK_FAILURE == r,
                      "header byte %u = %u accepted (%zd)", vals[f][0], vals[f][1], r);
            }
            memcpy(m, s, slen);
            m[2] = (unsigned char) ((len + 1) % 8);
            r = ct_decode(codec, m, slen, len + 1, len, NULL);
            CHECK(OPAL_ERR_UNPACK_FAILURE == r, "tail length mismatch accepted");
            if ((len / 8) % 2) { /* odd count: the pad nibble must be zero */
                size_t pad = 3 + (len / 8 >= 128 ? 2 : 1) + len / 16;
                for (unsigned v = 1; v < 16; v++) {
                    memcpy(m, s, slen);
                    m[pad] = (unsigned char) ((m[pad] & 0xf0) | v);
                    r = ct_decode(codec, m, slen, len, len, NULL);
                    CHECK(OPAL_ERR_UNPACK_FAILURE == r,
                          "non-zero pad nibble %u accepted (%zd)", v, r);
                }
            }
            free(m);

            /* the unmodified stream still decodes */
            r = ct_decode(codec, s, slen, len, len, &o);
            CHECK(r == (ssize_t) len && (0 == len || 0 == memcmp(o, buf, len)),
                  "kind %u len %zu: valid stream returned %zd", k, len, r);
            free(o);
            free(s);
        }
    }

    /* non-canonical count: 1 double coded as 0x81 0x00 */
    {
        unsigned char one[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
        s = ct_compress_exact(codec, one, 8, &slen);
        m = xmalloc_exact(slen + 1);
        memcpy(m, s, 3);
        m[3] = 0x81;
        m[4] = 0x00;
        memcpy(m + 5, s + 4, slen - 4);
        r = ct_decode(codec, m, slen + 1, 8, 8, NULL);
        CHECK(OPAL_ERR_UNPACK_FAILURE == r, "overlong varint accepted (%zd)", r);
        free(m);
        free(s);
    }
    /* count varint running past 64 bits */
    {
        unsigned char hdr[16] = { 1, 16, 0 };
        memset(hdr + 3, 0xff, 12);
        hdr[15] = 0x01;
        r = ct_decode(codec, hdr, sizeof(hdr), 8, 8, NULL);
        CHECK(OPAL_ERR_UNPACK_FAILURE == r, "huge varint accepted (%zd)", r);
    }
    r = codec->decompress(NULL, 4, buf, sizeof(buf), 8);
    CHECK(OPAL_ERR_BAD_PARAM == r, "decompress(NULL, 4) returned %zd", r);
    r = ct_decode(codec, NULL, 0, 0, 0, NULL);
    CHECK(OPAL_ERR_UNPACK_FAILURE == r, "empty stream returned %zd", r);
    {
        unsigned char hdr[4] = { 1, 16, 0, 0 };
        r = ct_decode(codec, hdr, 4, 0, 0, NULL);
        CHECK(0 == r, "empty-data stream returned %zd", r);
    }
}

static void test_fuzz(unsigned iters)
{
    unsigned char data[320], *base = NULL, *m;
    size_t base_len = 0, data_len = 0, mlen;
    unsigned valid = 0, rejected = 0, accepted_mutants = 0;

    printf("fuzz: %u random/mutated streams\n", iters);
    for (unsigned it = 0; it < iters; it++) {
        size_t expected, cap;
        unsigned mut;
        ssize_t r;
        unsigned char *o;

        if (0 == it % 8) {
            free(base);
            data_len = ct_below(sizeof(data) + 1);
            gen_kind(data, data_len, (unsigned) ct_below(7));
            mca_compress_fpc_table_bits = 1 + (int) ct_below(10);
            base = ct_compress_exact(codec, data, data_len, &base_len);
        }

        /* mutate a copy into a buffer of its exact final size */
        mut = (unsigned) ct_below(8);
        mlen = base_len;
        switch (mut) {
        case 0: /* unmodified */
            m = xmalloc_exact(mlen);
            memcpy(m, base, mlen);
            break;
        case 1: { /* bit flips */
            unsigned flips = 1 + (unsigned) ct_below(4);
            m = xmalloc_exact(mlen);
            memcpy(m, base, mlen);
            for (unsigned f = 0; f < flips; f++) {
                size_t bit = ct_below(8 * mlen);
                m[bit / 8] ^= (unsigned char) (1u << (bit % 8));
            }
            break;
        }
        case 2: /* truncation */
            mlen = ct_below(base_len);
            m = xmalloc_exact(mlen);
            if (mlen) {
                memcpy(m, base, mlen);
            }
            break;
        case 3: { /* byte insertions */
            size_t ins = 1 + ct_below(4), at = ct_below(base_len + 1);
            mlen = base_len + ins;
            m = xmalloc_exact(mlen);
            memcpy(m, base, at);
            for (size_t j = 0; j < ins; j++) {
                m[at + j] = (unsigned char) ct_rand();
            }
            memcpy(m + at + ins, base + at, base_len - at);
            break;
        }
        case 4: { /* byte deletion */
            size_t at = ct_below(base_len);
            mlen = base_len - 1;
            m = xmalloc_exact(mlen);
            memcpy(m, base, at);
            memcpy(m + at, base + at + 1, base_len - at - 1);
            break;
        }
        case 5: /* random bytes overwrite */
            m = xmalloc_exact(mlen);
            memcpy(m, base, mlen);
            for (unsigned f = 0, nf = 1 + (unsigned) ct_below(3); f < nf; f++) {
                m[ct_below(mlen)] = (unsigned char) ct_rand();
            }
            break;
        case 6: /* pure noise behind a plausible header */
            mlen = ct_below(64);
            m = xmalloc_exact(mlen);
            for (size_t j = 0; j < mlen; j++) {
                m[j] = (unsigned char) ct_rand();
            }
            if (mlen >= 3 && ct_rand() % 2) {
                m[0] = 1;
                m[1] = (unsigned char) (1 + ct_below(12));
                m[2] = (unsigned char) (ct_below(8));
            }
            break;
        default: /* one nibble of the code area changed */
            m = xmalloc_exact(mlen);
            memcpy(m, base, mlen);
            if (mlen > 4) {
                size_t at = 4 + ct_below(mlen - 4);
                m[at] ^= (unsigned char) (ct_below(15) + 1) << (ct_rand() % 2 ? 4 : 0);
            }
            break;
        }

        expected = data_len;
        if (0 == ct_below(8)) {
            expected = ct_below(sizeof(data) + 1);
        }
        cap = expected;
        if (0 == ct_below(16) && cap > 0) {
            cap = ct_below(cap); /* too small: must be OUT_OF_RESOURCE */
        }
        r = ct_decode(codec, m, mlen, cap, expected, &o);
        if (0 == mut && expected == data_len && cap == expected) {
            CHECK(r == (ssize_t) data_len
                      && (0 == data_len || 0 == memcmp(o, data, data_len)),
                  "fuzz iteration %u: valid stream returned %zd", it, r);
        }
        if (r >= 0) {
            valid++;
            accepted_mutants += 0 != mut;
        } else {
            rejected++;
        }
        free(o);
        free(m);
    }
    free(base);
    mca_compress_fpc_table_bits = 16;
    printf("  %u decoded (%u of them mutated), %u rejected\n", valid,
           accepted_mutants, rejected);
}

int main(int argc, char **argv)
{
    unsigned long long seed = 0x5eedf9c2026ULL;

    if (argc > 1) {
        char *end;
        seed = strtoull(argv[1], &end, 0);
        if ('\0' == argv[1][0] || '\0' != *end) {
            fprintf(stderr, "usage: %s [SEED]\n", argv[0]);
            return 2;
        }
    }
    ct_state = seed;
    printf("compress_fpc_test: seed %llu, codec %s (id %u)\n", seed, codec->name,
           codec->id);
    CHECK(0 == strcmp(codec->name, "fpc") && OPAL_COMPRESS_ID_FPC == codec->id
              && OPAL_COMPRESS_SPEED_MEDIUM == codec->speed
              && OPAL_COMPRESS_DT_DOUBLE == codec->datatypes,
          "codec descriptor fields");
    CHECK(16 == mca_compress_fpc_table_bits, "default table bits %d",
          mca_compress_fpc_table_bits);

    test_data_sets();
    test_sizes();
    test_table_bits();
    test_compress_errors();
    test_decompress_errors();
    test_fuzz(120000);
    printf("compress_fpc_test: OK\n");
    return 0;
}
