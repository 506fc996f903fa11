/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Unit test of the canonical Huffman codec core (plain C, no MPI).
 *
 * Besides round trips it parses every produced stream with its own reader
 * (written from the format description in compress_huffman.h) to check that
 * blocks are cut as documented, that the codes are complete and canonical
 * (the bitstream is re-encoded here independently and compared byte for
 * byte) and that each code costs exactly as much as an unrestricted optimal
 * Huffman code when that one fits the length limit, and no more than a
 * simple length-limited code otherwise.  Then it hammers decompress with
 * corrupt input in exact-size buffers, so that ASan sees any stray access.
 *
 * Usage: compress_huffman_test [seed]
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "opal/mca/compress/huffman/compress_huffman.h"
#include "test/common/check.h"
#include "test/common/codec_test.h"

#define BLK ((size_t)MCA_COMPRESS_HUFFMAN_BLOCK_SIZE)
#define LMAX MCA_COMPRESS_HUFFMAN_MAX_BITS

static const opal_compress_codec_t *codec = &mca_compress_huffman_codec;

/* ------------------------------------------------------------ data gen --- */

/* Geometric: P(k) = (1-q) q^k, capped at 255; inverse CDF sampled through
 * a 16-bit table so that 16 MB are generated quickly. */
static void gen_geometric(uint8_t *p, size_t n, double q)
{
    uint8_t *tab = xmalloc(65536);
    double lq = log(q);
    size_t i = 0;

    for (unsigned u = 0; u < 65536; u++) {
        double k = floor(log(1.0 - (u + 0.5) / 65536.0) / lq);
        tab[u] = (uint8_t)(k > 255.0 ? 255.0 : k);
    }
    while (i < n) {
        uint64_t r = ct_rand();
        for (int j = 0; j < 4 && i < n; j++, r >>= 16) {
            p[i++] = tab[r & 0xffff];
        }
    }
    free(tab);
}

static void gen_text(uint8_t *p, size_t n)
{
    static const char *const words[] = {
        "the", "of", "and", "to", "in", "a", "is", "that", "for", "it",
        "as", "was", "with", "be", "by", "on", "not", "he", "this", "are",
        "message", "passing", "interface", "process", "rank", "buffer",
        "communicator", "Huffman", "compression", "block", "symbol", "MPI"};
    const size_t nw = sizeof(words) / sizeof(words[0]);
    size_t i = 0;
    while (i < n) {
        /* Zipf-ish choice of words. */
        size_t w = ct_below(nw);
        w = ct_below(w + 1);
        for (const char *c = words[w]; *c && i < n; c++) {
            p[i++] = (uint8_t)*c;
        }
        if (i < n) {
            unsigned r = (unsigned)ct_below(20);
            p[i++] = r == 0 ? '.' : r == 1 ? ',' : r == 2 ? '\n' : ' ';
        }
    }
}

/* int32 array with a given percentage of zeros at random places. */
static void gen_int32_zeros(uint8_t *p, size_t nints, unsigned pct_zero)
{
    for (size_t i = 0; i < nints; i++) {
        int32_t v = 0;
        if (ct_below(100) >= pct_zero) {
            do {
                v = (int32_t)(uint32_t)ct_rand();
            } while (0 == v);
        }
        memcpy(p + 4 * i, &v, 4);
    }
}

/* ------------------------------------------- reference code builders --- */

/* Unrestricted optimal Huffman code, O(n^2).  Returns total bits; depth[]
 * receives the code lengths, *maxd the longest. */
static uint64_t ref_huffman(const uint32_t freq[256], uint8_t depth[256], unsigned *maxd)
{
    uint64_t w[512];
    int parent[512], alive[512], leaf_of[256];
    int nn = 0, nodes, live;
    uint64_t bits = 0;

    memset(depth, 0, 256);
    *maxd = 0;
    for (int s = 0; s < 256; s++) {
        leaf_of[s] = -1;
        if (freq[s]) {
            leaf_of[s] = nn;
            w[nn] = freq[s];
            parent[nn] = -1;
            alive[nn] = 1;
            nn++;
        }
    }
    if (nn < 2) {
        return 0;
    }
    nodes = nn;
    live = nn;
    while (live > 1) {
        int a = -1, b = -1;
        for (int i = 0; i < nodes; i++) {
            if (!alive[i]) {
                continue;
            }
            if (a < 0 || w[i] < w[a]) {
                b = a;
                a = i;
            } else if (b < 0 || w[i] < w[b]) {
                b = i;
            }
        }
        w[nodes] = w[a] + w[b];
        parent[nodes] = -1;
        alive[nodes] = 1;
        parent[a] = parent[b] = nodes;
        alive[a] = alive[b] = 0;
        nodes++;
        live--;
    }
    for (int s = 0; s < 256; s++) {
        unsigned d = 0;
        if (leaf_of[s] < 0) {
            continue;
        }
        for (int i = leaf_of[s]; parent[i] >= 0; i = parent[i]) {
            d++;
        }
        depth[s] = (uint8_t)d;
        if (d > *maxd) {
            *maxd = d;
        }
        bits += (uint64_t)freq[s] * d;
    }
    return bits;
}

/* A valid but not necessarily optimal length-limited code: clamp the optimal
 * lengths, then lengthen the longest short codes until Kraft holds.  Its
 * cost bounds the optimal length-limited cost from above. */
static uint64_t heuristic_limited(const uint32_t freq[256])
{
    uint8_t len[256];
    unsigned maxd;
    uint64_t kraft = 0, bits = 0;

    ref_huffman(freq, len, &maxd);
    for (int s = 0; s < 256; s++) {
        if (len[s] > LMAX) {
            len[s] = LMAX;
        }
        if (len[s]) {
            kraft += 1u << (LMAX - len[s]);
        }
    }
    while (kraft > (1u << LMAX)) {
        int best = -1;
        for (int s = 0; s < 256; s++) {
            if (len[s] && len[s] < LMAX
                && (best < 0 || len[s] > len[best]
                    || (len[s] == len[best] && freq[s] < freq[best]))) {
                best = s;
            }
        }
        CHECK(best >= 0, "heuristic_limited cannot fix Kraft");
        kraft -= 1u << (LMAX - 1 - len[best]);
        len[best]++;
    }
    for (int s = 0; s < 256; s++) {
        bits += (uint64_t)freq[s] * len[s];
    }
    return bits;
}

/* ------------------------------------------ independent stream reader --- */

typedef struct {
    unsigned mode;
    size_t raw_len;
    unsigned run_byte;
    const uint8_t *raw;
    uint8_t len[256];
    size_t clen;
    const uint8_t *bs;
    size_t size; /* whole block, header included */
} tblock_t;

/* Parses the block at s[*pos]; fails the test if it is malformed. */
static void next_block(const uint8_t *s, size_t n, size_t *pos, tblock_t *b)
{
    size_t p = *pos, nb;
    unsigned last;

    memset(b, 0, sizeof(*b));
    CHECK(n - p >= 4, "block header truncated");
    b->mode = s[p];
    b->raw_len = s[p + 1] | (size_t)s[p + 2] << 8 | (size_t)s[p + 3] << 16;
    p += 4;
    CHECK(b->raw_len >= 1, "empty block");
    switch (b->mode) {
    case MCA_COMPRESS_HUFFMAN_MODE_RAW:
        CHECK(n - p >= b->raw_len, "raw block truncated");
        b->raw = s + p;
        p += b->raw_len;
        break;
    case MCA_COMPRESS_HUFFMAN_MODE_RUN:
        CHECK(n - p >= 1, "run block truncated");
        b->run_byte = s[p++];
        break;
    case MCA_COMPRESS_HUFFMAN_MODE_HUFFMAN:
        CHECK(n - p >= 1, "huffman block truncated");
        last = s[p++];
        nb = last / 2 + 1;
        CHECK(n - p >= nb + 3, "code lengths truncated");
        for (size_t k = 0; k < nb; k++) {
            b->len[2 * k] = s[p + k] & 15;
            if (2 * k + 1 <= last) {
                b->len[2 * k + 1] = s[p + k] >> 4;
            } else {
                CHECK(0 == (s[p + k] >> 4), "unused nibble not zero");
            }
        }
        CHECK(b->len[last] != 0, "last symbol has no code");
        p += nb;
        b->clen = s[p] | (size_t)s[p + 1] << 8 | (size_t)s[p + 2] << 16;
        p += 3;
        CHECK(n - p >= b->clen, "bitstream truncated");
        b->bs = s + p;
        p += b->clen;
        break;
    default:
        test_fail("unknown block mode %u", b->mode);
    }
    b->size = p - *pos;
    *pos = p;
}

/* Canonical encoding done the textbook way (sort by length then symbol,
 * count up, shift left when the length grows), emitting each code MSB first
 * into an LSB-first bit stream.  Returns the byte count; bs may be NULL to
 * only count.  *bits_out receives the bit count. */
static size_t t_encode(const uint8_t len[256], const uint8_t *data, size_t n, uint8_t *bs,
                       uint64_t *bits_out)
{
    uint32_t code[256];
    unsigned c = 0, prev = 0;
    uint64_t bits = 0;

    memset(code, 0, sizeof(code));
    for (unsigned l = 1; l <= 15; l++) {
        for (unsigned s = 0; s < 256; s++) {
            if (len[s] == l) {
                c <<= (l - prev);
                prev = l;
                code[s] = c++;
            }
        }
    }
    /* Transmission order: the code's most significant bit first. */
    for (unsigned s = 0; s < 256; s++) {
        uint32_t r = 0;
        for (unsigned k = 0; k < len[s]; k++) {
            r |= ((code[s] >> (len[s] - 1 - k)) & 1u) << k;
        }
        code[s] = r;
    }
    {
        uint64_t acc = 0;
        unsigned nacc = 0;
        size_t o = 0;
        for (size_t i = 0; i < n; i++) {
            unsigned l = len[data[i]];
            CHECK(l > 0, "symbol without a code");
            acc |= (uint64_t)code[data[i]] << nacc;
            nacc += l;
            bits += l;
            for (; nacc >= 8; nacc -= 8, acc >>= 8) {
                if (bs) {
                    bs[o] = (uint8_t)acc;
                }
                o++;
            }
        }
        if (nacc > 0 && bs) {
            bs[o] = (uint8_t)acc;
        }
    }
    *bits_out = bits;
    return (size_t)((bits + 7) / 8);
}

static unsigned kraft_units(const uint8_t len[256], unsigned *nsym, unsigned *maxlen)
{
    unsigned k = 0;
    *nsym = 0;
    *maxlen = 0;
    for (int s = 0; s < 256; s++) {
        if (len[s]) {
            CHECK(len[s] <= LMAX, "code length over the limit");
            k += 1u << (LMAX - len[s]);
            (*nsym)++;
            if (len[s] > *maxlen) {
                *maxlen = len[s];
            }
        }
    }
    return k;
}

typedef struct {
    size_t blocks, raw, run, huf;
    size_t opt_fits, opt_exceeds; /* huffman blocks per reference case */
    uint64_t bits, opt_bits;
} tstats_t;

/* Checks a whole stream against its source in every detail of the format. */
static void check_stream(const uint8_t *src, size_t n, const uint8_t *s, size_t sn,
                         int encoder_cut, tstats_t *st)
{
    size_t pos = 0, done = 0;
    tblock_t b;

    memset(st, 0, sizeof(*st));
    while (pos < sn) {
        const uint8_t *seg = src + done;
        uint32_t freq[256] = {0};
        unsigned distinct = 0;

        next_block(s, sn, &pos, &b);
        CHECK(b.raw_len <= n - done, "blocks exceed the input");
        if (encoder_cut) {
            /* The encoder cuts full blocks and one shorter final block. */
            CHECK(b.raw_len == BLK || done + b.raw_len == n, "unexpected block cut");
        }
        for (size_t i = 0; i < b.raw_len; i++) {
            freq[seg[i]]++;
        }
        for (int v = 0; v < 256; v++) {
            distinct += freq[v] != 0;
        }
        st->blocks++;
        if (MCA_COMPRESS_HUFFMAN_MODE_RAW == b.mode) {
            st->raw++;
            CHECK(0 == memcmp(b.raw, seg, b.raw_len), "raw block content");
            CHECK(distinct > 1, "single-symbol block stored raw");
        } else if (MCA_COMPRESS_HUFFMAN_MODE_RUN == b.mode) {
            st->run++;
            CHECK(1 == distinct && freq[b.run_byte] == b.raw_len, "run block content");
        } else {
            unsigned nsym, maxlen, maxd;
            uint8_t ref_len[256];
            uint64_t bits, opt, cost = 0;
            uint8_t *mine;
            size_t bytes;

            st->huf++;
            CHECK(distinct > 1, "single-symbol block coded");
            CHECK(kraft_units(b.len, &nsym, &maxlen) == (1u << LMAX), "Kraft sum != 1");
            CHECK(nsym >= 2, "fewer than two codes");
            for (int v = 0; v < 256; v++) {
                CHECK((freq[v] != 0) == (b.len[v] != 0), "code set != symbol set");
                cost += (uint64_t)freq[v] * b.len[v];
            }
            bytes = t_encode(b.len, seg, b.raw_len, NULL, &bits);
            CHECK(bits == cost, "bit count");
            CHECK(bytes == b.clen, "bitstream length != ceil(bits / 8)");
            mine = xmalloc(bytes);
            t_encode(b.len, seg, b.raw_len, mine, &bits);
            CHECK(0 == memcmp(mine, b.bs, bytes), "bitstream is not the canonical code");
            free(mine);
            CHECK(b.size < 4 + b.raw_len, "huffman block not smaller than raw");

            opt = ref_huffman(freq, ref_len, &maxd);
            CHECK(cost >= opt, "cheaper than optimal Huffman?");
            if (maxd <= LMAX) {
                st->opt_fits++;
                CHECK(cost == opt, "not optimal although Huffman fits the limit");
            } else {
                st->opt_exceeds++;
                CHECK(cost <= heuristic_limited(freq), "worse than a simple limited code");
            }
            st->bits += cost;
            st->opt_bits += opt;
        }
        done += b.raw_len;
    }
    CHECK(pos == sn && done == n, "stream does not cover the input exactly");
    if (encoder_cut) {
        CHECK(st->blocks == (n + BLK - 1) / BLK, "block count");
    }
}

/* ----------------------------------------------------------- round trip --- */

/* Full round trip with every API check; returns the compressed size. */
static size_t roundtrip(const uint8_t *src, size_t n, tstats_t *st_out)
{
    size_t cap = codec->bound(n), r;
    uint8_t *out = xmalloc(cap), *exact, *dec, *tail;
    ssize_t rc;
    tstats_t st;

    rc = codec->compress(src, n, out, cap);
    CHECK(rc >= 0, "compress failed");
    r = (size_t)rc;
    CHECK(r <= cap, "compressed size over bound");
    check_stream(src, n, out, r, 1, &st);
    if (st_out) {
        *st_out = st;
    }

    /* Exact cap: deterministic output, and the careful tail path. */
    exact = xmalloc(r);
    CHECK(codec->compress(src, n, exact, r) == (ssize_t)r, "compress into exact cap");
    CHECK(0 == memcmp(exact, out, r), "output not deterministic");
    free(exact);

    /* One byte short: must fail, never write past cap (ASan).  Skipped for
     * the 16 MB inputs to save time (it encodes nearly everything). */
    if (r > 0 && n <= (1u << 20)) {
        uint8_t *small = xmalloc(r - 1);
        CHECK(codec->compress(src, n, small, r - 1) == OPAL_ERR_OUT_OF_RESOURCE,
              "cap - 1 not rejected");
        free(small);
        for (int t = 0; t < 2 && n > 512 && n <= (1u << 20); t++) {
            size_t c = ct_below(r);
            small = xmalloc(c);
            CHECK(codec->compress(src, n, small, c) == OPAL_ERR_OUT_OF_RESOURCE,
                  "small cap not rejected");
            free(small);
        }
        if (n <= 512) {
            for (size_t c = 0; c + 1 < r; c++) {
                small = xmalloc(c);
                CHECK(codec->compress(src, n, small, c) == OPAL_ERR_OUT_OF_RESOURCE,
                      "small cap not rejected");
                free(small);
            }
        }
    }

    dec = xmalloc(n);
    CHECK(codec->decompress(out, r, dec, n, n) == (ssize_t)n, "decompress");
    CHECK(0 == memcmp(dec, src, n), "round trip mismatch");
    if (n > 0) {
        CHECK(codec->decompress(out, r, dec, n - 1, n) == OPAL_ERR_OUT_OF_RESOURCE,
              "cap < expected_len not rejected");
    }
    free(dec);
    if (n <= (1u << 20)) { /* these decode all before failing: keep cheap */
        if (n > 0) {
            dec = xmalloc(n - 1);
            CHECK(codec->decompress(out, r, dec, n - 1, n - 1) == OPAL_ERR_UNPACK_FAILURE,
                  "expected_len - 1 not rejected");
            free(dec);
        }
        dec = xmalloc(n + 1);
        CHECK(codec->decompress(out, r, dec, n + 1, n + 1) == OPAL_ERR_UNPACK_FAILURE,
              "expected_len + 1 not rejected");
        free(dec);

        /* Trailing garbage. */
        tail = xmalloc(r + 1);
        memcpy(tail, out, r);
        tail[r] = 0;
        dec = xmalloc(n);
        CHECK(codec->decompress(tail, r + 1, dec, n, n) == OPAL_ERR_UNPACK_FAILURE,
              "trailing byte not rejected");
        free(dec);
        free(tail);
    }
    free(out);
    return r;
}

/* Empirical order-0 entropy in bits per byte. */
static double entropy(const uint8_t *p, size_t n)
{
    uint32_t freq[256] = {0};
    double h = 0;
    for (size_t i = 0; i < n; i++) {
        freq[p[i]]++;
    }
    for (int v = 0; v < 256; v++) {
        if (freq[v]) {
            double pv = (double)freq[v] / (double)n;
            h -= pv * log2(pv);
        }
    }
    return h;
}

/* roundtrip, and a line on the result; returns the compressed size. */
static size_t roundtrip_report(const char *what, const uint8_t *src, size_t n, tstats_t *st)
{
    size_t r = roundtrip(src, n, st);
    printf("  %-34s %9zu -> %9zu (%6.3f bits/byte; blocks raw %zu run %zu huf %zu)\n", what,
           n, r, n ? 8.0 * (double)r / (double)n : 0.0, st->raw, st->run, st->huf);
    return r;
}

/* ----------------------------------------------------------- the tests --- */

static void test_sizes(void)
{
    static const size_t sizes[] = {0, 1, 2, 7, 8, 9, 100, 4095, 4096, 65537};
    uint8_t *buf = xmalloc(65537);
    tstats_t st;

    printf("round trips of small sizes (random, equal, text, geometric, 2 symbols)\n");
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        size_t n = sizes[k];
        for (int kind = 0; kind < 5; kind++) {
            switch (kind) {
            case 0: ct_random_bytes(buf, n); break;
            case 1: memset(buf, 0x5a, n); break;
            case 2: gen_text(buf, n); break;
            case 3: gen_geometric(buf, n, 0.5); break;
            default:
                for (size_t i = 0; i < n; i++) {
                    buf[i] = ct_below(4) ? 'a' : 'b';
                }
            }
            roundtrip(buf, n, &st);
            if (1 == kind && n > 0) {
                CHECK(st.run == 1 && st.blocks == 1, "equal bytes not a run block");
            }
        }
    }
    free(buf);
}

static void test_large(void)
{
    const size_t n = 16u << 20;
    uint8_t *buf = xmalloc(n);
    tstats_t st;

    printf("16 MB round trips\n");
    gen_geometric(buf, n, 0.7);
    roundtrip_report("geometric q=0.7", buf, n, &st);
    CHECK(st.huf == st.blocks, "geometric blocks not coded");
    gen_int32_zeros(buf, n / 4, 75);
    CHECK(roundtrip_report("int32, 75% zeros", buf, n, &st) < n * 7 / 10,
          "int32 75%% zeros compresses poorly");
    free(buf);
}

static void test_content(void)
{
    const size_t n = 1u << 20;
    uint8_t *buf = xmalloc(n);
    tstats_t st;
    size_t r;

    printf("content classes (1 MB each)\n");
    ct_random_bytes(buf, n);
    r = roundtrip_report("uniform random", buf, n, &st);
    CHECK(st.raw == st.blocks, "random data not stored raw");
    CHECK(r <= n + 4 * st.blocks, "random data overhead");

    memset(buf, 0, n);
    r = roundtrip_report("all zero", buf, n, &st);
    CHECK(r == 5 * st.blocks, "all-equal data not run coded");

    gen_text(buf, n);
    r = roundtrip_report("text-like", buf, n, &st);
    CHECK(st.huf == st.blocks && r < n * 6 / 10, "text compresses poorly");

    for (unsigned pct = 0; pct <= 100; pct += 25) {
        char what[64];
        gen_int32_zeros(buf, n / 4, pct);
        snprintf(what, sizeof(what), "int32, %u%% zeros", pct);
        r = roundtrip_report(what, buf, n, &st);
        if (0 == pct) {
            CHECK(r <= n + 4 * st.blocks, "int32 0%% zeros overhead");
        } else if (100 == pct) {
            CHECK(r == 5 * st.blocks, "all-zero ints not run coded");
        } else {
            /* Per-block Huffman is within 1 bit of the (global) entropy. */
            double h = entropy(buf, n);
            printf("  %-34s entropy %.3f bits/byte\n", "", h);
            CHECK(r < n && 8.0 * (double)r / (double)n < h + 1.01,
                  "int32 with zeros compresses poorly");
        }
    }

    /* Skewed: compare with the entropy; Huffman is within 1 bit/byte. */
    for (int k = 0; k < 4; k++) {
        static const double qs[] = {0.1, 0.5, 0.8, 0.95};
        double h, bpb;
        char what[64];
        gen_geometric(buf, n, qs[k]);
        h = entropy(buf, n);
        snprintf(what, sizeof(what), "geometric q=%.2f (H=%.3f)", qs[k], h);
        bpb = 8.0 * (double)roundtrip_report(what, buf, n, &st) / (double)n;
        CHECK(bpb < h + 1.01 && bpb < 6.0, "skewed data: not clearly below 8 bits/byte");
    }
    free(buf);
}

static void test_block_boundaries(void)
{
    const size_t sizes[] = {BLK - 1, BLK, BLK + 1, 2 * BLK - 1, 2 * BLK, 2 * BLK + 1,
                            3 * BLK, 3 * BLK + 7};
    uint8_t *buf = xmalloc(3 * BLK + 7);
    tstats_t st;

    printf("block boundaries (block size %zu)\n", BLK);
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        gen_geometric(buf, sizes[k], 0.6);
        roundtrip(buf, sizes[k], &st);
        CHECK(st.blocks == (sizes[k] + BLK - 1) / BLK, "block count");
    }
    /* Mixed: raw, run, coded, and a 1-byte tail block. */
    ct_random_bytes(buf, BLK);
    memset(buf + BLK, 7, BLK);
    gen_text(buf + 2 * BLK, BLK);
    buf[3 * BLK] = 1;
    roundtrip(buf, 3 * BLK + 1, &st);
    CHECK(st.raw == 1 && st.run == 2 && st.huf == 1, "mixed block modes");
    free(buf);
}

/* Optimality against the O(n^2) reference, on targeted and random inputs. */
static void test_reference(void)
{
    uint8_t *buf = xmalloc(BLK), ref_len[256];
    uint32_t freq[256];
    unsigned maxd;
    size_t fits = 0, exceeds = 0;
    tstats_t st;

    printf("optimality against a reference Huffman builder\n");

    /* 1: 200 symbols, flat-ish frequencies: optimal depth <= 11, so the
     * codec's cost must equal it exactly. */
    {
        size_t n = 0;
        memset(freq, 0, sizeof(freq));
        for (int s = 0; s < 200; s++) {
            freq[s] = 50 + (uint32_t)ct_below(450);
            for (uint32_t i = 0; i < freq[s]; i++) {
                buf[n++] = (uint8_t)s;
            }
        }
        ref_huffman(freq, ref_len, &maxd);
        CHECK(maxd <= LMAX, "construction: optimal code should fit");
        roundtrip(buf, n, &st);
        CHECK(st.huf == 1 && st.opt_fits == 1 && st.bits == st.opt_bits,
              "cost != optimal with a fitting code");
        printf("  fitting code   : %llu bits == optimal %llu (max depth %u)\n",
               (unsigned long long)st.bits, (unsigned long long)st.opt_bits, maxd);
    }

    /* 2: Fibonacci frequencies: optimal depth 21 > 11, so lengths must be
     * limited; cost between the optimum and a simple limited code. */
    {
        size_t n = 0;
        uint32_t a = 1, b = 1;
        memset(freq, 0, sizeof(freq));
        for (int s = 0; s < 22; s++) {
            freq[s * 11] = a;
            for (uint32_t i = 0; i < a; i++) {
                buf[n++] = (uint8_t)(s * 11);
            }
            b = a + b;
            a = b - a;
        }
        ref_huffman(freq, ref_len, &maxd);
        CHECK(maxd > LMAX, "construction: optimal code should exceed the limit");
        roundtrip(buf, n, &st);
        CHECK(st.huf == 1 && st.opt_exceeds == 1, "limited code case");
        printf("  Fibonacci code : %llu bits, optimal unlimited %llu (depth %u), "
               "simple limited %llu\n",
               (unsigned long long)st.bits, (unsigned long long)st.opt_bits, maxd,
               (unsigned long long)heuristic_limited(freq));
    }

    /* 3: random skewed distributions; check_stream() verifies each block. */
    for (int t = 0; t < 200; t++) {
        size_t n = 256 + ct_below(20000);
        unsigned nsym = 2 + (unsigned)ct_below(255);
        double q = 0.3 + 0.69 * ct_unit();
        for (size_t i = 0; i < n; i++) {
            double k = floor(log(1.0 - ct_unit()) / log(q));
            buf[i] = (uint8_t)((unsigned)(k > 1000 ? 1000 : k) % nsym * 37u);
        }
        roundtrip(buf, n, &st);
        fits += st.opt_fits;
        exceeds += st.opt_exceeds;
    }
    printf("  200 random skewed blocks: %zu with a fitting optimum (cost equal), "
           "%zu limited\n", fits, exceeds);
    CHECK(fits > 0 && exceeds > 0, "random skewed blocks did not cover both cases");
    free(buf);
}

static void test_concat_and_truncation(void)
{
    uint8_t parts[4][600];
    size_t plen[4] = {300, 50, 40, 500};
    uint8_t *stream, *orig, *dec;
    size_t sn = 0, on = 0;
    tstats_t st;

    printf("concatenated streams and every truncation\n");
    gen_text(parts[0], plen[0]);
    memset(parts[1], 0xee, plen[1]);
    ct_random_bytes(parts[2], plen[2]);
    gen_geometric(parts[3], plen[3], 0.5);
    stream = xmalloc(4 * 700);
    orig = xmalloc(1390);
    for (int k = 0; k < 4; k++) {
        ssize_t r = codec->compress(parts[k], plen[k], stream + sn, 700);
        CHECK(r > 0, "compress part");
        sn += (size_t)r;
        memcpy(orig + on, parts[k], plen[k]);
        on += plen[k];
    }
    check_stream(orig, on, stream, sn, 0, &st);
    CHECK(st.huf == 2 && st.run == 1 && st.raw == 1, "concatenated block modes");
    dec = xmalloc(on);
    CHECK(codec->decompress(stream, sn, dec, on, on) == (ssize_t)on, "concatenation");
    CHECK(0 == memcmp(dec, orig, on), "concatenation content");
    for (size_t t = 0; t < sn; t++) {
        uint8_t *cut = xmalloc(t);
        memcpy(cut, stream, t);
        CHECK(codec->decompress(cut, t, dec, on, on) == OPAL_ERR_UNPACK_FAILURE,
              "truncated stream accepted");
        free(cut);
    }
    printf("  %zu truncations of a %zu-byte 4-block stream rejected\n", sn, sn);
    free(dec);
    free(orig);
    free(stream);
}

/* Builds a HUFFMAN block with the given lengths over data; returns size. */
static size_t t_block(const uint8_t len[256], const uint8_t *data, size_t n, uint8_t *out)
{
    unsigned last = 0;
    uint64_t bits;
    size_t p = 0, nb;

    for (unsigned s = 0; s < 256; s++) {
        if (len[s]) {
            last = s;
        }
    }
    out[p++] = MCA_COMPRESS_HUFFMAN_MODE_HUFFMAN;
    out[p++] = (uint8_t)n;
    out[p++] = (uint8_t)(n >> 8);
    out[p++] = (uint8_t)(n >> 16);
    out[p++] = (uint8_t)last;
    nb = last / 2 + 1;
    for (size_t k = 0; k < nb; k++) {
        out[p++] = (uint8_t)(len[2 * k] | (2 * k + 1 <= last ? len[2 * k + 1] << 4 : 0));
    }
    nb = t_encode(len, data, n, NULL, &bits);
    out[p++] = (uint8_t)nb;
    out[p++] = (uint8_t)(nb >> 8);
    out[p++] = (uint8_t)(nb >> 16);
    t_encode(len, data, n, out + p, &bits);
    return p + nb;
}

/* Random complete code: split random leaves of {1, 1} until k codes. */
static void random_complete_code(uint8_t len[256], unsigned k)
{
    uint8_t l[256], perm[256];
    unsigned n = 2;

    l[0] = l[1] = 1;
    while (n < k) {
        unsigned i = (unsigned)ct_below(n), tries = 0;
        while (l[i] >= LMAX && tries++ < 1000) {
            i = (unsigned)ct_below(n);
        }
        if (l[i] >= LMAX) {
            break;
        }
        l[i]++;
        l[n++] = l[i];
    }
    for (unsigned s = 0; s < 256; s++) {
        perm[s] = (uint8_t)s;
    }
    for (unsigned s = 255; s > 0; s--) {
        unsigned j = (unsigned)ct_below(s + 1);
        uint8_t t = perm[s];
        perm[s] = perm[j];
        perm[j] = t;
    }
    memset(len, 0, 256);
    for (unsigned i = 0; i < n; i++) {
        len[perm[i]] = l[i];
    }
}

/* Crafted invalid blocks, each must be rejected. */
static void test_invalid(void)
{
    uint8_t len[256] = {0}, data[64], blk[512];
    size_t n;

    printf("crafted invalid headers\n");
    for (int i = 0; i < 64; i++) {
        data[i] = (uint8_t)(i % 3);
    }
    /* Sanity: a valid crafted block decodes. */
    len[0] = 1;
    len[1] = 2;
    len[2] = 2;
    n = t_block(len, data, 64, blk);
    CHECK(ct_decode(codec, blk, n, 64, 64, NULL) == 64, "crafted valid block");

    /* Kraft > 1. */
    len[2] = 1;
    n = t_block(len, data, 64, blk);
    CHECK(ct_decode(codec, blk, n, 64, 64, NULL) == OPAL_ERR_UNPACK_FAILURE, "Kraft > 1");
    /* Incomplete code (Kraft < 1). */
    len[2] = 3;
    n = t_block(len, data, 64, blk);
    CHECK(ct_decode(codec, blk, n, 64, 64, NULL) == OPAL_ERR_UNPACK_FAILURE, "incomplete code");
    /* Single symbol. */
    memset(len, 0, sizeof(len));
    memset(data, 0, sizeof(data));
    len[0] = 1;
    n = t_block(len, data, 64, blk);
    CHECK(ct_decode(codec, blk, n, 64, 64, NULL) == OPAL_ERR_UNPACK_FAILURE, "one-symbol code");
    /* Length over the limit (a complete code of 12-bit codes only). */
    {
        uint8_t d2[4] = {0, 1, 2, 3};
        len[0] = 1;
        len[1] = 2;
        len[2] = 3;
        len[3] = 3;
        n = t_block(len, d2, 4, blk);
        CHECK(ct_decode(codec, blk, n, 4, 4, NULL) == 4, "crafted valid block 2");
        blk[5] = (uint8_t)(1 | (12 << 4)); /* symbol 1 gets length 12 */
        CHECK(ct_decode(codec, blk, n, 4, 4, NULL) == OPAL_ERR_UNPACK_FAILURE, "length 12");
        /* Unused high nibble not zero: last = 3 -> 2 bytes, make last 2. */
        n = t_block(len, d2, 4, blk);
        blk[4] = 2;
        CHECK(ct_decode(codec, blk, n, 4, 4, NULL) == OPAL_ERR_UNPACK_FAILURE, "unused nibble");
        /* Last symbol without a code. */
        n = t_block(len, d2, 4, blk);
        blk[6] = 3; /* lengths of symbols 2, 3 = 3, 0 */
        CHECK(ct_decode(codec, blk, n, 4, 4, NULL) == OPAL_ERR_UNPACK_FAILURE, "last");
        /* Nonzero padding bits. */
        n = t_block(len, d2, 4, blk); /* 1+2+3+3 = 9 bits -> 2 bytes */
        blk[n - 1] |= 0x80;
        CHECK(ct_decode(codec, blk, n, 4, 4, NULL) == OPAL_ERR_UNPACK_FAILURE, "padding bits");
        /* A spare byte in the bitstream. */
        n = t_block(len, d2, 4, blk);
        {
            size_t cpos = n - 2 - 3; /* 2-byte bitstream follows clen */
            CHECK(blk[cpos] == 2, "crafted clen position");
            blk[cpos] = 3;
            blk[n] = 0;
            CHECK(ct_decode(codec, blk, n + 1, 4, 4, NULL) == OPAL_ERR_UNPACK_FAILURE,
                  "spare byte");
            blk[cpos] = 1; /* too short: bits read past the bitstream */
            CHECK(ct_decode(codec, blk, n - 1, 4, 4, NULL) == OPAL_ERR_UNPACK_FAILURE,
                  "short stream");
        }
    }
    /* Zero raw_len, unknown mode, run without its byte. */
    {
        uint8_t z[5] = {MCA_COMPRESS_HUFFMAN_MODE_RUN, 0, 0, 0, 9};
        CHECK(ct_decode(codec, z, 5, 0, 0, NULL) == OPAL_ERR_UNPACK_FAILURE, "zero raw_len");
        z[1] = 3;
        CHECK(ct_decode(codec, z, 5, 3, 3, NULL) == 3, "crafted run");
        CHECK(ct_decode(codec, z, 4, 3, 3, NULL) == OPAL_ERR_UNPACK_FAILURE, "run truncated");
        z[0] = 3;
        CHECK(ct_decode(codec, z, 5, 3, 3, NULL) == OPAL_ERR_UNPACK_FAILURE, "unknown mode");
    }
    /* Parameters. */
    {
        uint8_t o[8];
        CHECK(codec->compress(NULL, 0, NULL, 0) == 0, "empty compress");
        CHECK(codec->decompress(NULL, 0, NULL, 0, 0) == 0, "empty decompress");
        CHECK(codec->compress(NULL, 5, o, 8) == OPAL_ERR_BAD_PARAM, "NULL in");
        CHECK(codec->compress(o, 5, NULL, 8) == OPAL_ERR_BAD_PARAM, "NULL out");
        CHECK(codec->decompress(NULL, 5, o, 8, 5) == OPAL_ERR_BAD_PARAM, "NULL in (d)");
        CHECK(codec->decompress(o, 5, o, 4, 5) == OPAL_ERR_OUT_OF_RESOURCE, "cap");
        CHECK(codec->decompress(NULL, 0, o, 8, 1) == OPAL_ERR_UNPACK_FAILURE, "empty in");
        CHECK(codec->bound(0) == 0 && codec->bound(1) == 5
                  && codec->bound(BLK + 1) == BLK + 9 && codec->bound(SIZE_MAX) == SIZE_MAX,
              "bound");
    }
}

/* Decodes arbitrary input with exact-size buffers (ct_decode: the expected
 * length or an error, OUT_OF_RESOURCE when expected > cap); never
 * BAD_PARAM, the arguments being valid. */
static ssize_t fuzz_one(const uint8_t *in, size_t n, size_t expected, size_t cap)
{
    ssize_t r = ct_decode(codec, in, n, cap, expected, NULL);
    CHECK(r != OPAL_ERR_BAD_PARAM, "decompress returned %lld (len %zu, expected %zu, cap %zu)",
          (long long)r, n, expected, cap);
    return r;
}

static void test_fuzz(void)
{
    const unsigned long iters = 100000;
    enum { NPOOL = 10, MAXO = 1500 };
    uint8_t *orig[NPOOL], *strm[NPOOL];
    size_t olen[NPOOL], slen[NPOOL];
    uint8_t *work = xmalloc(4 * MAXO + 1024), *data = xmalloc(MAXO);
    unsigned long ok = 0, crafted_ok = 0;

    printf("fuzzing decompress (%lu inputs)\n", iters);
    for (int k = 0; k < NPOOL; k++) {
        size_t n = k < 3 ? (size_t)k * 4 + 1 : 100 + ct_below(MAXO - 100);
        ssize_t r;
        orig[k] = xmalloc(n);
        switch (k % 5) {
        case 0: gen_text(orig[k], n); break;
        case 1: gen_geometric(orig[k], n, 0.9); break;
        case 2: gen_geometric(orig[k], n, 0.3); break;
        case 3: gen_int32_zeros(orig[k], n / 4, 60); break;
        default: ct_random_bytes(orig[k], n);
        }
        olen[k] = n;
        strm[k] = xmalloc(codec->bound(n));
        r = codec->compress(orig[k], n, strm[k], codec->bound(n));
        CHECK(r > 0, "fuzz pool compress");
        slen[k] = (size_t)r;
    }
    /* A two-block stream by concatenation (coded + run). */
    {
        ssize_t r;
        free(strm[7]);
        free(orig[7]);
        strm[7] = xmalloc(codec->bound(olen[3]) + 5);
        orig[7] = xmalloc(olen[3] + 200);
        r = codec->compress(orig[3], olen[3], strm[7], codec->bound(olen[3]));
        CHECK(r > 0, "pool concat");
        slen[7] = (size_t)r;
        strm[7][slen[7]++] = MCA_COMPRESS_HUFFMAN_MODE_RUN;
        strm[7][slen[7]++] = 200;
        strm[7][slen[7]++] = 0;
        strm[7][slen[7]++] = 0;
        strm[7][slen[7]++] = 3;
        memcpy(orig[7], orig[3], olen[3]);
        memset(orig[7] + olen[3], 3, 200);
        olen[7] = olen[3] + 200;
    }

    for (unsigned long it = 0; it < iters; it++) {
        unsigned kind = (unsigned)ct_below(8);
        int k = (int)ct_below(NPOOL);
        size_t n = slen[k], expected = olen[k], cap;
        ssize_t r;

        if (kind == 7) {
            /* Crafted block with a random complete length table (often one
             * the encoder would never emit), valid bitstream, then maybe a
             * mutation. */
            uint8_t len[256];
            size_t dn = 1 + ct_below(MAXO - 1);
            unsigned nsym = 2 + (unsigned)ct_below(255);
            unsigned syms[256], ns = 0;
            random_complete_code(len, nsym);
            for (unsigned s = 0; s < 256; s++) {
                if (len[s]) {
                    syms[ns++] = s;
                }
            }
            for (size_t i = 0; i < dn; i++) {
                data[i] = (uint8_t)syms[ct_below(ns)];
            }
            n = t_block(len, data, dn, work);
            expected = dn;
            if (ct_below(3)) {
                r = ct_decode(codec, work, n, dn, dn, NULL);
                CHECK(r == (ssize_t)dn, "crafted complete code rejected");
                crafted_ok++;
                continue;
            }
            kind = (unsigned)ct_below(6);
            if (0 == ct_below(4)) {
                /* Random nibbles instead: mostly an invalid Kraft sum, or
                 * lengths over the limit; random bitstream. */
                size_t p = 0, nb, cl = ct_below(64);
                unsigned lastsym = (unsigned)ct_below(256);
                unsigned maxnib = ct_below(2) ? 16 : LMAX + 1;
                work[p++] = MCA_COMPRESS_HUFFMAN_MODE_HUFFMAN;
                work[p++] = (uint8_t)dn;
                work[p++] = (uint8_t)(dn >> 8);
                work[p++] = 0;
                work[p++] = (uint8_t)lastsym;
                nb = lastsym / 2 + 1;
                for (size_t q = 0; q < nb; q++) {
                    unsigned lo = (unsigned)ct_below(maxnib);
                    unsigned hi = (unsigned)ct_below(maxnib);
                    if (2 * q + 1 > lastsym) {
                        hi = 0;
                    }
                    work[p++] = (uint8_t)(lo | hi << 4);
                }
                work[p++] = (uint8_t)cl;
                work[p++] = 0;
                work[p++] = 0;
                ct_random_bytes(work + p, cl);
                n = p + cl;
            }
        } else if (kind == 6) {
            /* Pure random input with a random expected length. */
            n = ct_below(96);
            ct_random_bytes(work, n);
            expected = ct_below(2) ? ct_below(64) : ct_below(4 * MAXO);
            if (n > 4 && ct_below(2)) {
                work[0] = (uint8_t)ct_below(3);
                work[1] = (uint8_t)expected;
                work[2] = (uint8_t)(expected >> 8);
                work[3] = 0;
            }
            kind = 100;
        } else {
            memcpy(work, strm[k], n);
        }

        switch (kind) {
        case 0: /* bit flips */
            if (n > 0) {
                unsigned flips = 1 + (unsigned)ct_below(8);
                for (unsigned f = 0; f < flips; f++) {
                    size_t bit = ct_below(n * 8);
                    work[bit / 8] ^= (uint8_t)(1u << (bit % 8));
                }
            }
            break;
        case 1: /* truncation */
            n = ct_below(n + 1);
            break;
        case 2: { /* insertion */
            size_t at = ct_below(n + 1), cnt = 1 + ct_below(16);
            memmove(work + at + cnt, work + at, n - at);
            ct_random_bytes(work + at, cnt);
            n += cnt;
            break;
        }
        case 3: /* deletion */
            if (n > 0) {
                size_t at = ct_below(n), cnt = 1 + ct_below(n - at);
                memmove(work + at, work + at + cnt, n - at - cnt);
                n -= cnt;
            }
            break;
        case 4: /* random bytes over a header region */
            if (n > 0) {
                size_t at = ct_below(n < 140 ? n : 140), cnt = 1 + ct_below(4);
                for (size_t i = at; i < at + cnt && i < n; i++) {
                    work[i] = (uint8_t)ct_rand();
                }
            }
            break;
        case 5: /* wrong expected length */
            expected = ct_below(2) ? expected + ct_below(5) - 2 : ct_below(4 * MAXO);
            if (expected > 4 * MAXO) {
                expected = 0;
            }
            break;
        default:
            break;
        }
        cap = expected;
        if (0 == ct_below(50)) {
            cap = expected ? expected - 1 : 0;
        }
        r = fuzz_one(work, n, expected, cap);
        ok += r >= 0;
    }
    printf("  %lu decoded successfully (valid mutations), %lu crafted tables "
           "decoded, the rest rejected cleanly\n", ok, crafted_ok);
    for (int k = 0; k < NPOOL; k++) {
        free(orig[k]);
        free(strm[k]);
    }
    free(work);
    free(data);
}

int main(int argc, char **argv)
{
    uint64_t seed = 20260101;

    if (argc > 1) {
        char *end;
        seed = strtoull(argv[1], &end, 0);
        if (*end != '\0') {
            fprintf(stderr, "usage: %s [seed]\n", argv[0]);
            return 2;
        }
    }
    ct_state = seed;
    printf("compress_huffman_test: seed %llu, block %zu bytes, max code %d bits\n",
           (unsigned long long)seed, BLK, LMAX);
    CHECK(0 == strcmp(codec->name, "huffman") && codec->id == OPAL_COMPRESS_ID_HUFFMAN,
          "codec identity");

    {
        void (*const tests[])(void) = {test_invalid, test_sizes, test_content,
                                       test_block_boundaries, test_reference,
                                       test_concat_and_truncation, test_large, test_fuzz};
        for (size_t t = 0; t < sizeof(tests) / sizeof(tests[0]); t++) {
            clock_t t0 = clock();
            tests[t]();
            printf("  (%.2f s cpu)\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
        }
    }

    printf("compress_huffman_test: OK\n");
    return 0;
}
