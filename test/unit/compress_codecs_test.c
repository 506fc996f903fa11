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
 * and, for the codecs with a check of their own (gzip, bzip2), that no
 * single-bit flip decodes to wrong data; gzip against zlib's own one-shot
 * API at every level; bzip (Open MPI 4.1's name for bzip2) as the same
 * codec; the .gz and .bz2 file formats of gzip and bzip against zlib's and
 * libbz2's own file readers and writers, corrupt, truncated, concatenated.
 * Usage: compress_codecs_test [--big] [--fuzz N] [--seed S] [codec...]
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, for zlib's gzopen */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bzlib.h>
#include <zlib.h>

#include "opal/mca/compress/compress_codec.h"
#include "opal/mca/compress/bzip/compress_bzip.h"
#include "opal/mca/compress/gzip/compress_gzip.h"
#include "datasets.h"

extern const opal_compress_codec_t mca_compress_lzo_codec, mca_compress_lz4_codec,
    mca_compress_zstd_codec, mca_compress_bzip2_codec, mca_compress_fpc_codec,
    mca_compress_rle_codec, mca_compress_huffman_codec, mca_compress_rice_codec;

extern int mca_compress_bzip2_block_size;

/* In wire-id order (ids 1..9); bzip, a second component for bzip2's id,
 * is checked apart (alias_checks). */
static const opal_compress_codec_t *codecs[] = {
    &mca_compress_lzo_codec, &mca_compress_lz4_codec, &mca_compress_zstd_codec,
    &mca_compress_bzip2_codec, &mca_compress_fpc_codec, &mca_compress_rle_codec,
    &mca_compress_huffman_codec, &mca_compress_rice_codec, &mca_compress_gzip_codec,
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

static const dataset_t *dataset(const char *name)
{
    for (int d = 0; d < n_datasets; d++) {
        if (0 == strcmp(datasets[d].name, name)) return &datasets[d];
    }
    test_fail("no data set %s", name);
    return NULL;
}

/* A codec with a check of its own (gzip's Adler-32, bzip2's CRCs): every
 * single-bit flip of a stream is refused or still decodes to the original
 * (a flip in the padding bits before the trailer changes nothing), never
 * to wrong data. */
static void bitflips(const opal_compress_codec_t *c, const char *set, size_t len)
{
    unsigned char *buf = xmalloc(len), *z = xmalloc(c->bound(len)), *back = xmalloc(len);
    long refused = 0, same = 0;
    dataset(set)->fill(buf, len, 7);
    ssize_t zn = c->compress(buf, len, z, c->bound(len));
    CHECK(zn > 0, "%s: bitflips setup", c->name);
    for (size_t bit = 0; zn > 0 && bit < (size_t) zn * 8; bit++) {
        z[bit / 8] ^= (unsigned char) (1u << (bit % 8));
        ssize_t n = c->decompress(z, (size_t) zn, back, len, len);
        z[bit / 8] ^= (unsigned char) (1u << (bit % 8));
        if (n < 0) {
            refused++;
        } else {
            CHECK(n == (ssize_t) len && 0 == memcmp(back, buf, len),
                  "%s: %s len %zu with bit %zu flipped decoded to wrong data", c->name, set,
                  len, bit);
            same++;
        }
    }
    printf("  %-8s %s: %zd bytes, every bit flipped: %ld refused, %ld decoded to the "
           "original\n", c->name, set, zn, refused, same);
    free(buf); free(z); free(back);
}

/* gzip's blocks are plain zlib streams: zlib's own one-shot API reads what
 * the codec writes at every level, and the codec reads what zlib's
 * compress2() writes, whatever its level. */
static void gzip_checks(void)
{
    const opal_compress_codec_t *c = &mca_compress_gzip_codec;
    size_t len = 65537;
    unsigned char *buf = xmalloc(len), *z = xmalloc(c->bound(len)), *back = xmalloc(len);
    ssize_t size[10] = {0};
    int saved = mca_compress_gzip_level;
    dataset("text")->fill(buf, len, 3);
    CHECK(c->bound(len) >= compressBound(len) && c->bound(1u << 30) >= compressBound(1u << 30),
          "gzip: bound below zlib's compressBound");
    for (int level = 1; level <= 9; level++) {
        mca_compress_gzip_level = level;
        size[level] = c->compress(buf, len, z, c->bound(len));
        uLongf n = len;
        CHECK(size[level] > 2 && 0x78 == z[0] && 0 == (z[0] * 256 + z[1]) % 31,
              "gzip: level %d does not write a zlib header", level);
        CHECK(Z_OK == uncompress(back, &n, z, (uLong) size[level]) && n == len
              && 0 == memcmp(back, buf, len), "gzip: zlib cannot read level %d", level);
        uLongf zn = (uLongf) c->bound(len);
        CHECK(Z_OK == compress2(z, &zn, buf, len, level)
              && (ssize_t) len == c->decompress(z, zn, back, len, len)
              && 0 == memcmp(back, buf, len), "gzip: cannot read zlib's level %d", level);
    }
    mca_compress_gzip_level = saved;
    CHECK(size[9] <= size[6] && size[6] < size[1], "gzip: levels 1/6/9 give %zd/%zd/%zd bytes",
          size[1], size[6], size[9]);
    printf("  gzip     text %zu bytes: level 1 %zd, 6 %zd, 9 %zd bytes\n", len, size[1], size[6],
           size[9]);
    /* A dictionary stream (FDICT) is refused, not a crash or a hang. */
    z_stream s;
    memset(&s, 0, sizeof(s));
    unsigned char dz[256];
    CHECK(Z_OK == deflateInit(&s, 6) && Z_OK == deflateSetDictionary(&s, buf, 100),
          "gzip: zlib dictionary setup");
    s.next_in = buf; s.avail_in = 1000; s.next_out = dz; s.avail_out = sizeof(dz);
    CHECK(Z_STREAM_END == deflate(&s, Z_FINISH), "gzip: zlib dictionary stream");
    CHECK(c->decompress(dz, sizeof(dz) - s.avail_out, back, 1000, 1000) == OPAL_ERR_UNPACK_FAILURE,
          "gzip: a stream that needs a dictionary was not refused");
    deflateEnd(&s);
    /* Trailing bytes after the stream are refused. */
    ssize_t zn = c->compress(buf, 1000, z, c->bound(len));
    z[zn] = 0;
    CHECK(c->decompress(z, (size_t) zn + 1, back, 1000, 1000) == OPAL_ERR_UNPACK_FAILURE,
          "gzip: a trailing byte was accepted");
    free(buf); free(z); free(back);
}

/* bzip is bzip2 under Open MPI 4.1's name: the same codec name, wire id and
 * bound, byte-identical streams at bzip2's default block size, and each
 * reads the other's. */
static void alias_checks(void)
{
    const opal_compress_codec_t *a = &mca_compress_bzip_codec, *b = &mca_compress_bzip2_codec;
    size_t len = 65537, cap = b->bound(len);
    unsigned char *buf = xmalloc(len), *za = xmalloc(cap), *zb = xmalloc(cap), *back = xmalloc(len);
    CHECK(0 == strcmp(a->name, "bzip2") && a->id == OPAL_COMPRESS_ID_BZIP2 && a->id == b->id
          && a->bound(len) == cap && a->speed == b->speed && a->datatypes == b->datatypes,
          "bzip does not describe the bzip2 codec (name %s, id %d)", a->name, a->id);
    dataset("sparse-index")->fill(buf, len, 5);
    int saved = mca_compress_bzip2_block_size;
    mca_compress_bzip2_block_size = 9;
    ssize_t na = a->compress(buf, len, za, cap), nb = b->compress(buf, len, zb, cap);
    mca_compress_bzip2_block_size = saved;
    CHECK(na > 0 && na == nb && 0 == memcmp(za, zb, (size_t) na),
          "bzip and bzip2 (block size 9) write different streams");
    CHECK((ssize_t) len == b->decompress(za, (size_t) na, back, len, len)
          && 0 == memcmp(back, buf, len), "bzip2 cannot read bzip's stream");
    CHECK((ssize_t) len == a->decompress(zb, (size_t) nb, back, len, len)
          && 0 == memcmp(back, buf, len), "bzip cannot read bzip2's stream");
    printf("bzip: same codec as bzip2 (name %s, wire id %d)\n", a->name, a->id);
    free(buf); free(za); free(zb); free(back);
}

/* ---- the .gz and .bz2 file formats ---- */

typedef struct {
    const char *name, *postfix;
    int (*compress)(FILE *in, FILE *out);
    int (*decompress)(FILE *in, FILE *out, const char **why);
} file_format_t;

static const file_format_t file_formats[] = {
    {"gzip", ".gz", mca_compress_gzip_file_compress, mca_compress_gzip_file_decompress},
    {"bzip", ".bz2", mca_compress_bzip_file_compress, mca_compress_bzip_file_decompress},
};

/* in[0..n) through a FILE conversion: its return code and output (*outn
 * bytes, malloc'ed), *why from a decompression. */
static unsigned char *convert(const file_format_t *f, int decompress, const unsigned char *in,
                              size_t n, size_t *outn, int *rc, const char **why)
{
    FILE *a = tmpfile(), *b = tmpfile();
    CHECK(NULL != a && NULL != b, "tmpfile");
    CHECK(0 == n || 1 == fwrite(in, n, 1, a), "tmpfile write");
    rewind(a);
    *why = NULL;
    *rc = decompress ? f->decompress(a, b, why) : f->compress(a, b);
    long m = ftell(b);
    unsigned char *out = xmalloc((size_t) m);
    rewind(b);
    CHECK(0 == m || 1 == fread(out, (size_t) m, 1, b), "tmpfile read");
    *outn = (size_t) m;
    fclose(a);
    fclose(b);
    return out;
}

/* A decompression that must fail with OPAL_ERR_UNPACK_FAILURE and a reason. */
static void refused(const file_format_t *f, const unsigned char *in, size_t n, const char *what)
{
    size_t on;
    int rc;
    const char *why;
    free(convert(f, 1, in, n, &on, &rc, &why));
    CHECK(OPAL_ERR_UNPACK_FAILURE == rc && NULL != why, "%s: %s: rc %d", f->name, what, rc);
    printf("  %-4s %-28s refused: %s\n", f->postfix, what, NULL != why ? why : "?");
}

/* The file in[0..n) as the library's own reader (zlib's gzread, libbz2's
 * BZ2_bzRead) decodes it; NULL if it cannot. */
static unsigned char *library_read(const file_format_t *f, const unsigned char *in, size_t n,
                                   size_t cap, size_t *outn)
{
    unsigned char *out = xmalloc(cap + 1);
    int ok = 0;
    *outn = 0;
    if (0 == strcmp(f->name, "gzip")) {
        char path[] = "/tmp/compress_codecs_test.XXXXXX";
        int fd = mkstemp(path);
        CHECK(fd >= 0 && (ssize_t) n == write(fd, in, n), "mkstemp");
        close(fd);
        gzFile g = gzopen(path, "rb");
        int r = NULL == g ? -1 : gzread(g, out, (unsigned) cap + 1);
        ok = r >= 0 && 0 == gzdirect(g);
        *outn = r > 0 ? (size_t) r : 0;
        ok &= NULL != g && Z_OK == gzclose(g);
        unlink(path);
    } else {
        FILE *a = tmpfile();
        int bzerr;
        CHECK(NULL != a && 1 == fwrite(in, n, 1, a), "tmpfile");
        rewind(a);
        BZFILE *bz = BZ2_bzReadOpen(&bzerr, a, 0, 0, NULL, 0);
        int r = BZ_OK == bzerr ? BZ2_bzRead(&bzerr, bz, out, (int) cap + 1) : -1;
        ok = BZ_STREAM_END == bzerr;
        *outn = r > 0 ? (size_t) r : 0;
        BZ2_bzReadClose(&bzerr, bz);
        fclose(a);
    }
    if (!ok) {
        free(out);
        return NULL;
    }
    return out;
}

/* The file the library's own writer (gzwrite at level 6, as gzip does;
 * BZ2_bzWrite at 9, as bzip2 does) makes of in[0..n), in *outn bytes. */
static unsigned char *library_write(const file_format_t *f, const unsigned char *in, size_t n,
                                    size_t *outn)
{
    FILE *a;
    if (0 == strcmp(f->name, "gzip")) {
        char path[] = "/tmp/compress_codecs_test.XXXXXX";
        int fd = mkstemp(path);
        CHECK(fd >= 0, "mkstemp");
        close(fd);
        gzFile g = gzopen(path, "wb6");
        CHECK(NULL != g && (0 == n || (int) n == gzwrite(g, in, (unsigned) n))
              && Z_OK == gzclose(g), "gzwrite");
        a = fopen(path, "rb");
        unlink(path);
    } else {
        int bzerr;
        a = tmpfile();
        BZFILE *bz = BZ2_bzWriteOpen(&bzerr, a, 9, 0, 0);
        CHECK(BZ_OK == bzerr, "BZ2_bzWriteOpen");
        if (n > 0) BZ2_bzWrite(&bzerr, bz, (void *) in, (int) n);
        CHECK(BZ_OK == bzerr, "BZ2_bzWrite");
        BZ2_bzWriteClose(&bzerr, bz, 0, NULL, NULL);
        CHECK(BZ_OK == bzerr, "BZ2_bzWriteClose");
        rewind(a);
    }
    CHECK(NULL != a && 0 == fseek(a, 0, SEEK_END), "library file");
    *outn = (size_t) ftell(a);
    unsigned char *out = xmalloc(*outn);
    rewind(a);
    CHECK(0 == *outn || 1 == fread(out, *outn, 1, a), "library file read");
    fclose(a);
    return out;
}

static void file_format_checks(const file_format_t *f)
{
    static const size_t sizes[] = {0, 1, 4095, 300000, (1u << 20) + 7};
    const size_t maxn = (1u << 20) + 7;
    unsigned char *data = xmalloc(2 * maxn);
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        size_t n = sizes[si], zn, on, ln;
        int rc;
        const char *why;
        dataset(si % 2 ? "text" : "sparse-value")->fill(data, n, si);
        unsigned char *z = convert(f, 0, data, n, &zn, &rc, &why);
        CHECK(OPAL_SUCCESS == rc && zn > 0, "%s: compress %zu bytes: rc %d", f->name, n, rc);
        unsigned char *o = convert(f, 1, z, zn, &on, &rc, &why);
        CHECK(OPAL_SUCCESS == rc && on == n && 0 == memcmp(o, data, n),
              "%s: %zu bytes do not round-trip (rc %d, %zu bytes, %s)", f->name, n, rc, on,
              why ? why : "");
        free(o);
        o = library_read(f, z, zn, n, &ln);
        CHECK(NULL != o && ln == n && 0 == memcmp(o, data, n),
              "%s: the library's reader cannot read our %zu-byte file", f->name, n);
        free(o);
        unsigned char *lz = library_write(f, data, n, &ln);
        o = convert(f, 1, lz, ln, &on, &rc, &why);
        CHECK(OPAL_SUCCESS == rc && on == n && 0 == memcmp(o, data, n),
              "%s: cannot read the library's %zu-byte file (rc %d)", f->name, n, rc);
        free(o);
        /* two members / streams back to back decode to both (gunzip,
         * bunzip2 and pbzip2 files) */
        unsigned char *two = xmalloc(zn + ln);
        memcpy(two, z, zn);
        memcpy(two + zn, lz, ln);
        o = convert(f, 1, two, zn + ln, &on, &rc, &why);
        CHECK(OPAL_SUCCESS == rc && on == 2 * n && 0 == memcmp(o, data, n)
              && 0 == memcmp(o + n, data, n), "%s: two %zu-byte members: rc %d, %zu bytes",
              f->name, n, rc, on);
        free(o);
        free(two);
        free(lz);
        if (n >= 4095) {
            char what[64];
            snprintf(what, sizeof(what), "%zu bytes truncated", n);
            refused(f, z, zn - 1, what);
            refused(f, z, zn / 2, what);
            unsigned char *bad = xmalloc(zn + 8);
            memcpy(bad, z, zn);
            bad[zn / 2] ^= 0x5a;
            snprintf(what, sizeof(what), "%zu bytes, a byte changed", n);
            refused(f, bad, zn, what);
            memcpy(bad, z, zn);
            memcpy(bad + zn, "garbage!", 8);
            snprintf(what, sizeof(what), "%zu bytes, garbage after", n);
            refused(f, bad, zn + 8, what);
            free(bad);
        }
        free(z);
    }
    refused(f, data, 0, "empty");
    refused(f, (const unsigned char *) "plain text, not compressed\n", 27, "not compressed");
    free(data);
    printf("%s: %s file checks %s\n", f->name, f->postfix, failures ? "FAILED" : "passed");
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
        if (!big && c == &mca_compress_gzip_codec) {
            gzip_checks();
            bitflips(c, "text", 4096);
            bitflips(c, "random-bytes", 1000);
        }
        if (!big && c == &mca_compress_bzip2_codec) {
            int saved_bs = mca_compress_bzip2_block_size;
            mca_compress_bzip2_block_size = 1; /* as in fuzz: decoder memory */
            bitflips(c, "text", 2000);
            mca_compress_bzip2_block_size = saved_bs;
        }
        printf("%s: contract checks %s\n", c->name, failures ? "FAILED" : "passed");
    }
    for (size_t f = 0; !big && f < sizeof(file_formats) / sizeof(file_formats[0]); f++) {
        int sel = 0 == nonly;
        for (int k = 0; k < nonly; k++) sel |= !strcmp(only[k], file_formats[f].name);
        if (sel) {
            if (0 == strcmp(file_formats[f].name, "bzip")) alias_checks();
            file_format_checks(&file_formats[f]);
        }
    }
    free(buf);
    printf("compress_codecs_test: %s\n", failures ? "FAILED" : "OK");
    return failures ? 1 : 0;
}
