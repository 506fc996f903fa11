/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "datasets.h"

#include <math.h>
#include <string.h>

#include "check.h"

/* Elements of the given size; a zero with probability pct/100 at random
 * places, otherwise a random value of the type (as the seed describes). */
static void fill_zeros(unsigned char *buf, size_t len, uint64_t seed, int pct, int kind)
{
    uint64_t s = seed;
    size_t esz = kind == 'i' || kind == 'f' ? 4 : 8, i;
    for (i = 0; i + esz <= len; i += esz) {
        uint64_t r = test_rand(&s);
        if ((int) (r % 100) < pct) {
            memset(buf + i, 0, esz);
        } else if (kind == 'i') {
            int32_t v = (int32_t) (r >> 32);
            memcpy(buf + i, &v, 4);
        } else if (kind == 'f') {
            float v = (float) ((double) (r >> 11) / 9007199254740992.0 * 2.0e6 - 1.0e6);
            memcpy(buf + i, &v, 4);
        } else {
            double v = (double) (r >> 11) / 9007199254740992.0 * 2.0e6 - 1.0e6;
            memcpy(buf + i, &v, 8);
        }
    }
    for (; i < len; i++) {
        buf[i] = (unsigned char) test_rand(&s);
    }
}

#define ZEROS(kind, pct, tag) \
    static void fill_##tag##_##pct(unsigned char *b, size_t n, uint64_t s) \
    { fill_zeros(b, n, s, pct, kind); }
ZEROS('i', 0, int) ZEROS('i', 25, int) ZEROS('i', 50, int) ZEROS('i', 75, int) ZEROS('i', 100, int)
ZEROS('i', 90, int)
ZEROS('f', 0, flt) ZEROS('f', 25, flt) ZEROS('f', 50, flt) ZEROS('f', 75, flt) ZEROS('f', 100, flt)
ZEROS('d', 0, dbl) ZEROS('d', 25, dbl) ZEROS('d', 50, dbl) ZEROS('d', 75, dbl) ZEROS('d', 100, dbl)

/* The seed's patterned doubles: 50001.0, 50003.0, 50005.0, ... */
static void fill_pattern(unsigned char *b, size_t n, uint64_t seed)
{
    size_t i;
    (void) seed;
    for (i = 0; i + 8 <= n; i += 8) {
        double v = 50001.0 + 2.0 * (double) (i / 8);
        memcpy(b + i, &v, 8);
    }
    memset(b + i, 0x5a, n - i);
}

/* A smooth 3-D field (128 x 128 x N doubles), as a simulation would hold. */
static void fill_field(unsigned char *b, size_t n, uint64_t seed)
{
    size_t i;
    double ph = (double) (seed % 97) * 0.01;
    for (i = 0; i + 8 <= n; i += 8) {
        size_t k = i / 8, x = k % 128, y = (k / 128) % 128, z = k / 16384;
        double v = sin(0.05 * x + ph) * cos(0.03 * y) * exp(-0.001 * z) + 0.1 * (double) z;
        memcpy(b + i, &v, 8);
    }
    memset(b + i, 0, n - i);
}

/* A sparse matrix in CSR form: the column-index array (sorted within rows,
 * about 20 nonzeros per row of a 1M-column band matrix) ... */
static void fill_sparse_idx(unsigned char *b, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    size_t i;
    int32_t row = 0, col = 0, left = 0;
    for (i = 0; i + 4 <= n; i += 4) {
        if (0 == left) {
            row++;
            left = 10 + (int) (test_rand(&s) % 21);
            col = row > 500 ? row - 500 + (int32_t) (test_rand(&s) % 100) : 0;
        }
        col += 1 + (int32_t) (test_rand(&s) % 40);
        left--;
        memcpy(b + i, &col, 4);
    }
    memset(b + i, 0, n - i);
}

/* ... and its value array (doubles from a discretised operator: a few
 * distinct stencil weights plus perturbed entries). */
static void fill_sparse_val(unsigned char *b, size_t n, uint64_t seed)
{
    static const double w[] = {4.0, -1.0, -1.0, -1.0, -1.0, 0.5, -0.25};
    uint64_t s = seed;
    size_t i;
    for (i = 0; i + 8 <= n; i += 8) {
        uint64_t r = test_rand(&s);
        double v = (r % 4) ? w[r % 7] : w[r % 7] * (1.0 + (double) (r >> 40) * 1e-9);
        memcpy(b + i, &v, 8);
    }
    memset(b + i, 0, n - i);
}

static void fill_random(unsigned char *b, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    size_t i;
    for (i = 0; i + 8 <= n; i += 8) {
        uint64_t r = test_rand(&s);
        memcpy(b + i, &r, 8);
    }
    for (; i < n; i++) {
        b[i] = (unsigned char) test_rand(&s);
    }
}

/* English-like text from a small vocabulary. */
static void fill_text(unsigned char *b, size_t n, uint64_t seed)
{
    static const char *words[] = {"the ", "message ", "passing ", "interface ", "rank ",
                                  "of ", "a ", "communicator ", "is ", "an ", "integer ",
                                  "buffer, ", "send ", "receive.\n", "data ", "with "};
    uint64_t s = seed;
    size_t i = 0;
    while (i < n) {
        const char *w = words[test_rand(&s) % 16];
        for (; *w && i < n; w++) {
            b[i++] = (unsigned char) *w;
        }
    }
}

const dataset_t datasets[] = {
    {"int-0%zero", 4, fill_int_0},     {"int-25%zero", 4, fill_int_25},
    {"int-50%zero", 4, fill_int_50},   {"int-75%zero", 4, fill_int_75},
    {"int-100%zero", 4, fill_int_100}, {"float-0%zero", 4, fill_flt_0},
    {"float-25%zero", 4, fill_flt_25}, {"float-50%zero", 4, fill_flt_50},
    {"float-75%zero", 4, fill_flt_75}, {"float-100%zero", 4, fill_flt_100},
    {"double-0%zero", 8, fill_dbl_0},  {"double-25%zero", 8, fill_dbl_25},
    {"double-50%zero", 8, fill_dbl_50}, {"double-75%zero", 8, fill_dbl_75},
    {"double-100%zero", 8, fill_dbl_100}, {"double-pattern", 8, fill_pattern},
    {"field3d-double", 8, fill_field}, {"sparse-index", 4, fill_sparse_idx},
    {"sparse-value", 8, fill_sparse_val}, {"random-bytes", 1, fill_random},
    {"text", 1, fill_text},
    /* issue 39's reference set (zcomp's benchmark and cluster test) */
    {"int-90%zero", 4, fill_int_90},
};
const int n_datasets = sizeof(datasets) / sizeof(datasets[0]);

const dataset_t *dataset_find(const char *name)
{
    int i;
    for (i = 0; i < n_datasets; i++) {
        if (0 == strcmp(datasets[i].name, name)) {
            return &datasets[i];
        }
    }
    return NULL;
}
