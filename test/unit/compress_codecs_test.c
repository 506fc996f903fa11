/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Every codec of opal/mca/compress against the codec contract
 * (compress_codec.h), linked directly, without the OPAL runtime:
 *   - exact round trip on every data set at sizes 0, 1, 7, 8, 4095, 4096,
 *     65537 (and 16 MB with --big), from unaligned buffers;
 *   - compress into exactly bound(len) bytes never fails, into less either
 *     fits or says OPAL_ERR_OUT_OF_RESOURCE without writing past cap;
 *   - decompress with a wrong expected length or cap fails cleanly;
 *   - fuzz: N random and mutated streams per codec (default 100000) into
 *     exact-size heap buffers, so that AddressSanitizer sees any overrun.
 * Usage: compress_codecs_test [--big] [--fuzz N] [--seed S] [codec...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/mca/compress/compress_codec.h"
#include "datasets.h"

extern const opal_compress_codec_t mca_compress_lzo_codec, mca_compress_lz4_codec,
    mca_compress_zstd_codec, mca_compress_bzip2_codec, mca_compress_fpc_codec,
    mca_compress_rle_codec, mca_compress_huffman_codec, mca_compress_rice_codec;

extern int mca_compress_bzip2_block_size;

static const opal_compress_codec_t *codecs[] = {
    &mca_compress_lzo_codec, &mca_compress_lz4_codec, &mca_compress_zstd_codec,
    &mca_compress_bzip2_codec, &mca_compress_fpc_codec, &mca_compress_rle_codec,
    &mca_compress_huffman_codec, &mca_compress_rice_codec,
};
#define NCODECS ((int) (sizeof(codecs) / sizeof(codecs[0])))

/* A failed check is reported and counted, and the checks go on (to 20). */
static int failures = 0;
#define CHECK_FAIL(...)                                                         \
    do {                                                                        \
        test_report(__VA_ARGS__);                                               \
        if (++failures > 20) exit(1);                                           \
    } while (0)
#include "check.h"

/* Round trip of buf[0..len) (buf may be unaligned); returns compressed size. */
static ssize_t roundtrip(const opal_compress_codec_t *c, const unsigned char *buf, size_t len,
                         const char *what)
{
    size_t cap = c->bound(len);
    unsigned char *z = xmalloc(cap + 1), *back = xmalloc(len + 1);
    ssize_t zn = c->compress(buf, len, z + 1, cap);  /* unaligned output too */
    CHECK(zn >= 0 && (size_t) zn <= cap, "%s: compress %s len %zu returned %zd (bound %zu)",
          c->name, what, len, zn, cap);
    if (zn >= 0) {
        ssize_t n = c->decompress(z + 1, (size_t) zn, back + 1, len, len);
        CHECK(n == (ssize_t) len && 0 == memcmp(back + 1, buf, len),
              "%s: %s len %zu does not round-trip (got %zd)", c->name, what, len, n);
        if (len > 0 && len <= 65537) { /* error paths: small sizes suffice */
            n = c->decompress(z + 1, (size_t) zn, back + 1, len - 1, len);
            CHECK(n == OPAL_ERR_OUT_OF_RESOURCE, "%s: cap < expected_len gave %zd", c->name, n);
            n = c->decompress(z + 1, (size_t) zn, back + 1, len, len - 1);
            CHECK(n < 0, "%s: %s len %zu decoded with expected_len-1 (%zd)", c->name, what, len, n);
        }
    }
    free(z);
    free(back);
    return zn;
}

/* Compress into a buffer of every size below the output: fits or fails with
 * OPAL_ERR_OUT_OF_RESOURCE; exact-size heap buffers catch overruns. */
static void small_caps(const opal_compress_codec_t *c, const unsigned char *buf, size_t len,
                       size_t zn)
{
    for (size_t cap = 0; cap < zn; cap += 1 + cap / 8) {
        unsigned char *z = xmalloc(cap);
        ssize_t r = c->compress(buf, len, z, cap);
        CHECK(r == OPAL_ERR_OUT_OF_RESOURCE || (r >= 0 && (size_t) r <= cap),
              "%s: compress len %zu into cap %zu returned %zd", c->name, len, cap, r);
        free(z);
    }
}

static void fuzz(const opal_compress_codec_t *c, long iters, uint64_t seed)
{
    uint64_t s = seed ^ c->id;
    /* bzip2 streams carry their block size, and the decoder allocates ~4x
     * it per call: 100 kB blocks keep 100,000 calls under ASan affordable
     * and cover the same decoder paths (inputs here are < 4 kB anyway). */
    int saved_bs = mca_compress_bzip2_block_size;
    mca_compress_bzip2_block_size = 1;
    unsigned char *src = xmalloc(4096), *valid = xmalloc(c->bound(4096));
    long ok = 0;
    /* Valid streams to mutate, made once: compressing in the loop would
     * spend the time budget in the encoders instead of the decoders. */
    enum { POOL = 256 };
    unsigned char *pool[POOL];
    size_t pool_len[POOL], pool_n[POOL];
    for (int p = 0; p < POOL; p++) {
        const dataset_t *d = &datasets[test_rand(&s) % n_datasets];
        pool_n[p] = p < 8 ? (size_t) p : test_rand(&s) % 4096;
        d->fill(src, pool_n[p], test_rand(&s));
        pool[p] = xmalloc(c->bound(4096));
        ssize_t zn = c->compress(src, pool_n[p], pool[p], c->bound(4096));
        CHECK(zn >= 0, "%s: fuzz setup compress failed", c->name);
        pool_len[p] = zn >= 0 ? (size_t) zn : 0;
        if (zn < 0) pool_n[p] = 0;
    }
    for (long it = 0; it < iters; it++) {
        size_t inlen, explen;
        unsigned char *in;
        uint64_t r = test_rand(&s);
        if (r % 4 == 0) {                      /* random bytes */
            inlen = test_rand(&s) % 300;
            in = xmalloc(inlen);
            for (size_t i = 0; i < inlen; i++) in[i] = (unsigned char) test_rand(&s);
            explen = test_rand(&s) % 5000;
        } else {                               /* a valid stream, mutated */
            int pi = (int) (test_rand(&s) % POOL);
            memcpy(valid, pool[pi], pool_len[pi]);
            inlen = pool_len[pi];
            explen = pool_n[pi];
            int kind = (int) (test_rand(&s) % 5);
            size_t extra = kind == 3 ? 1 + test_rand(&s) % 16 : 0;
            in = xmalloc(inlen + extra);
            memcpy(in, valid, inlen);
            if (kind == 0 || kind == 4) {      /* flip 1-8 bits */
                int flips = 1 + (int) (test_rand(&s) % 8);
                for (int f = 0; f < flips && inlen > 0; f++)
                    in[test_rand(&s) % inlen] ^= (unsigned char) (1u << (test_rand(&s) % 8));
            } else if (kind == 1) {            /* truncate */
                inlen = inlen ? test_rand(&s) % inlen : 0;
            } else if (kind == 2) {            /* overwrite a byte */
                if (inlen) in[test_rand(&s) % inlen] = (unsigned char) test_rand(&s);
            } else {                           /* insert bytes */
                size_t at = inlen ? test_rand(&s) % inlen : 0;
                memmove(in + at + extra, in + at, inlen - at);
                for (size_t i = 0; i < extra; i++) in[at + i] = (unsigned char) test_rand(&s);
                inlen += extra;
            }
            if (kind == 4) explen = test_rand(&s) % 5000;  /* and a wrong length */
        }
        unsigned char *out = xmalloc(explen);
        unsigned char *inx = xmalloc(inlen);   /* exact-size copy for ASan */
        memcpy(inx, in, inlen);
        ssize_t n = c->decompress(inx, inlen, out, explen, explen);
        CHECK(n == (ssize_t) explen || (n < 0 && n > OPAL_ERR_MAX),
              "%s: fuzz iteration %ld: decompress returned %zd for expected %zu",
              c->name, it, n, explen);
        ok += n >= 0;
        free(inx);
        free(out);
        free(in);
    }
    mca_compress_bzip2_block_size = saved_bs;
    for (int p = 0; p < POOL; p++) free(pool[p]);
    printf("  %-8s fuzz: %ld inputs, %ld decoded, the rest rejected\n", c->name, iters, ok);
    free(src);
    free(valid);
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = {0, 1, 7, 8, 4095, 4096, 65537};
    int big = 0;
    long iters = 100000;
    uint64_t seed = 12345;
    const char *only[16];
    int nonly = 0;

    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--big")) big = 1;
        else if (!strcmp(argv[a], "--fuzz") && a + 1 < argc) iters = atol(argv[++a]);
        else if (!strcmp(argv[a], "--seed") && a + 1 < argc) seed = strtoull(argv[++a], NULL, 0);
        else if (nonly < 16) only[nonly++] = argv[a];
    }

    size_t maxlen = big ? (16u << 20) : 65537;
    unsigned char *buf = xmalloc(maxlen + 1);
    for (int ci = 0; ci < NCODECS; ci++) {
        const opal_compress_codec_t *c = codecs[ci];
        int sel = 0 == nonly;
        for (int k = 0; k < nonly; k++) sel |= !strcmp(only[k], c->name);
        if (!sel) continue;
        CHECK(c->id == ci + 1, "%s has wire id %d", c->name, c->id);

        for (int d = 0; d < n_datasets; d++) {
            double ratio = 0;
            for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]) + (size_t) big; si++) {
                size_t len = si < sizeof(sizes) / sizeof(sizes[0]) ? sizes[si] : maxlen;
                datasets[d].fill(buf + 1, len, seed + d);   /* unaligned input */
                ssize_t zn = roundtrip(c, buf + 1, len, datasets[d].name);
                if (len == 4096 && zn >= 0) small_caps(c, buf + 1, len, (size_t) zn);
                if (zn > 0 && len > 0) ratio = (double) len / (double) zn;
            }
            if (big) printf("  %-8s %-16s ratio %.2f at %zu bytes\n", c->name,
                            datasets[d].name, ratio, maxlen);
        }
        /* NULL with len 0 is valid input. */
        unsigned char z[1024];
        ssize_t zn = c->compress(NULL, 0, z, sizeof(z));
        CHECK(zn >= 0 && c->decompress(z, (size_t) zn, z + 512, 0, 0) == 0,
              "%s: empty NULL input", c->name);
        if (!big) fuzz(c, iters, seed);
        printf("%s: contract checks %s\n", c->name, failures ? "FAILED" : "passed");
    }
    free(buf);
    printf("compress_codecs_test: %s\n", failures ? "FAILED" : "OK");
    return failures ? 1 : 0;
}
