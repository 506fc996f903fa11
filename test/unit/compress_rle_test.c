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
#include "test/common/check.h"
#include "test/common/codec_test.h"

#define TEST_NAME "compress_rle_test"

static const opal_compress_codec_t *codec = &mca_compress_rle_codec;

enum { KIND_RUNS = CT_KIND_SHARED, KIND_COUNT };

static const char *const kind_name[KIND_COUNT] = {
    "int32 0% zeros", "int32 25% zeros", "int32 50% zeros", "int32 75% zeros",
    "int32 100% zeros", "random bytes", "all-equal bytes", "int32 in [-8,8]",
    "int32 in [-1000,1000]", "int32 near INT32_MIN/MAX, UINT32_MAX",
    "byte runs of length 1..300"
};

static void gen(int kind, uint8_t *buf, size_t len)
{
    size_t i = 0;

    if (CT_KIND_ALL_EQUAL == kind) {
        memset(buf, 0x5a, len);
    } else if (KIND_RUNS == kind) {
        while (i < len) {
            size_t run = 1 + ct_below(300);
            uint8_t b = (uint8_t) ct_rand();
            while (run-- > 0 && i < len) {
                buf[i++] = b;
            }
        }
    } else {
        ct_gen(kind, buf, len, NULL);
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

static size_t doc_bound(size_t len)
{
    return len + (len + 127) / 128;
}

/* bound(len) within [len, doc_bound]; the empty input compresses to
 * nothing; random data does not expand beyond the bound */
static const char *check_size(int kind, const uint8_t *data, size_t len, size_t bound, size_t c)
{
    (void) data;
    CHECK(bound >= len && bound <= doc_bound(len), "bound(%zu) = %zu outside [len, %zu]", len,
          bound, doc_bound(len));
    CHECK(0 != len || 0 == c, "empty input compressed to %zu bytes", c);
    CHECK(CT_KIND_RANDOM_BYTES != kind || c <= doc_bound(len),
          "random data expanded beyond the bound");
    return "";
}

static ct_codec_test_t test = {
    .name = TEST_NAME, .codec = &mca_compress_rle_codec,
    .nkinds = KIND_COUNT, .kind_name = kind_name, .gen = gen, .ref_decode = ref_decode,
    .check_size = check_size, .longer = {1},
    .fuzz = {.iterations = 200000, .nseeds = 32, .seed_max = 400, .room = 1024,
             .random_expected = 2000, .wrong_expected = 600},
};

static void test_roundtrips(void)
{
    size_t run, pre;

    printf("round trips (sizes 0..16 MB, %d data kinds), reference decoder, caps, "
           "wrong lengths, truncations:\n", KIND_COUNT);
    ct_roundtrip_sizes(&test);
    /* Small sizes exhaustively and runs around the token limits. */
    ct_roundtrip_range(&test, 0, 600);
    for (run = 1; run <= 400; ++run) {
        for (pre = 0; pre < 4; ++pre) {
            size_t len = pre + run + 2, i;
            uint8_t *data = xmalloc_exact(len);
            for (i = 0; i < len; ++i) {
                data[i] = (uint8_t) (i < pre ? 1 + i : i < pre + run ? 0xee : 0x10 + i);
            }
            ct_roundtrip(&test, KIND_RUNS, data, len, 0);
            free(data);
        }
    }
    printf("  all round trips: %zu -> %zu bytes\n", test.total_in, test.total_out);
}

static void test_worst_case(void)
{
    size_t len = 1u << 20, i, worst_len = 0;
    uint8_t *data = xmalloc_exact(len);
    uint8_t *out = xmalloc_exact(codec->bound(len));
    double worst = 0.0;

    /* Random bytes, and the pattern a b b a b b ... whose runs stay below 3. */
    for (i = 0; i < 2; ++i) {
        size_t j;
        ssize_t c;
        for (j = 0; j < len; ++j) {
            data[j] = (uint8_t) ((0 == i) ? ct_rand() : (j % 3 == 0) ? 1 : 2);
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

int main(int argc, char **argv)
{
    static void (*const tests[])(void) = {test_roundtrips, test_worst_case};
    return ct_main(&test, argc, argv, tests, 2);
}
