/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The `lattice` representation: Mir Taheri's range/stride form generalised
 * to ranks[i] = first + sum_k x_k * stride_k, where i is written in mixed
 * radix over count_0..count_{L-1} (x_0 the fastest digit), L <= 8, strides
 * of any sign and order.  Ranges, strides, reversed ranges, block-cyclic
 * sets, hypercube faces and the Cartesian sub-rectangles of Kumar et al. (any
 * number of dimensions, any dimension order) are all lattices.
 *
 * Detection reads the map once: level L (its block P = count_0 *..*
 * count_{L-1} elements long) has the stride d = ranks[P] - ranks[0], and
 * its count is the number of blocks that repeat the first one shifted by a
 * multiple of d, i.e. the first i with ranks[i + P] - ranks[i] != d; that
 * mismatch must fall at a block start, else the map is not a lattice.  The
 * counts found are maximal (levels that could merge are merged), so every
 * stored level has count >= 2 and the form is canonical.  RANK peels digits
 * from the largest |stride| down; that is exact only when each |stride|
 * exceeds the span of all smaller levels (true of every family above), and
 * build declines the other (interleaved, skewed) lattices.  A map holds
 * 32 + 8 (L - 1) + 12 L bytes: 44 for one level, 64 for two.
 */
#include <stdint.h>
#include <stdlib.h>

#include "ompi/mca/grpmap/lattice/grpmap_lattice.h"

#define LAT_MAX GRPMAP_LATTICE_MAX_LEVELS
#define LAT_BLOCK 32

/* One level, in mixed-radix order (x_0 the fastest digit). */
typedef struct lat_level {
    uint32_t count;
    uint32_t step;  /* the stride, two's complement */
    uint32_t mult;  /* the digit's weight in the group rank, negated for a
                     * negative stride (RANK counts from the smallest member) */
} lat_level_t;

/* Header, then mag[levels - 1] (SELECT's division by count_k: the magic
 * number in the low LAT_MAG_BITS bits, the shift above), then
 * lat_level_t[levels].  Kept small on purpose: Mir Taheri's regular maps
 * (one or two levels) fit in 44 and 64 bytes. */
typedef struct lat {
    uint32_t first;    /* ranks[0] */
    uint32_t min;      /* smallest member */
    uint32_t span;     /* largest member - min */
    uint32_t base;     /* group rank of min */
    uint8_t levels;    /* >= 1 (one level of count n when n <= 1) */
    uint8_t order[LAT_MAX]; /* levels by |stride|, largest first (RANK) */
    uint64_t mag[];
} lat_t;

#define LAT_MAG_BITS 58
#define LAT_MAG_MASK ((1ull << LAT_MAG_BITS) - 1)

static inline lat_level_t *lat_lv(const lat_t *m)
{
    return (lat_level_t *) (uintptr_t) (m->mag + (m->levels - 1));
}

/* What detection finds. */
typedef struct lat_shape {
    int levels;
    int32_t count[LAT_MAX], stride[LAT_MAX];
    int order[LAT_MAX]; /* levels by |stride|, largest first */
} lat_shape_t;

static size_t lat_size(int levels)
{
    return sizeof(lat_t) + 8 * (size_t) (levels - 1) + (size_t) levels * sizeof(lat_level_t);
}

static uint32_t lat_abs(int32_t s)
{
    return s < 0 ? 0u - (uint32_t) s : (uint32_t) s;
}

/* First i < len with r[i + lag] - r[i] != d (len if none): blocks of
 * LAT_BLOCK compared without branches, one test per block. */
static int32_t lat_scan(const int32_t *r, int32_t lag, int32_t len, uint32_t d)
{
    const int32_t *a = r + lag;
    int32_t i = 0;
    for (; len - i >= LAT_BLOCK; i += LAT_BLOCK) {
        uint32_t acc = 0;
        int q;
        for (q = 0; q < LAT_BLOCK; q++) {
            acc |= ((uint32_t) a[i + q] - (uint32_t) r[i + q]) ^ d;
        }
        if (0 != acc) {
            break;
        }
    }
    while (i < len && (uint32_t) a[i] - (uint32_t) r[i] == d) {
        i++;
    }
    return i;
}

/* The canonical levels of in, or 0 when in is not a lattice of at most
 * LAT_MAX levels whose RANK can peel digits (see the file comment).
 * Differences of ranks in [0, 2^31) lie in (-2^31, 2^31), so the modular
 * comparisons of lat_scan are exact. */
static int lat_detect(const grpmap_input_t *in, lat_shape_t *sh)
{
    const int32_t *r = in->ranks;
    int32_t n = in->n, P = 1;
    int L = 0, j, k;
    uint64_t below;

    if (n <= 1) {
        sh->levels = 1;
        sh->count[0] = n;
        sh->stride[0] = 0;
        sh->order[0] = 0;
        return 1;
    }
    if (in->increasing && (int64_t) (n - 1) * in->max_gap == (int64_t) in->max - in->min) {
        /* gaps at most max_gap summing to (n - 1) max_gap: all equal */
        sh->levels = 1;
        sh->count[0] = n;
        sh->stride[0] = in->max_gap;
        sh->order[0] = 0;
        return 1;
    }
    while (P < n) {
        int32_t d, m, K;
        if (LAT_MAX == L || 0 != n % P) {
            return 0;
        }
        d = r[P] - r[0];
        if (0 == d) {
            return 0; /* a repeated rank: not a map */
        }
        m = lat_scan(r, P, n - P, (uint32_t) d);
        if (m == n - P) {
            K = n / P;
        } else if (0 != m % P) {
            return 0; /* a block starts right but differs inside */
        } else {
            K = m / P + 1;
        }
        sh->count[L] = K;
        sh->stride[L] = d;
        L++;
        P *= K;
    }
    sh->levels = L;
    /* order by |stride|, largest first (insertion sort, L <= 8) */
    for (k = 0; k < L; k++) {
        int o = k;
        for (j = k; j > 0 && lat_abs(sh->stride[sh->order[j - 1]]) < lat_abs(sh->stride[o]);
             j--) {
            sh->order[j] = sh->order[j - 1];
        }
        sh->order[j] = o;
    }
    /* each |stride| must exceed the span of the smaller levels */
    below = 0;
    for (j = L - 1; j >= 0; j--) {
        k = sh->order[j];
        if ((uint64_t) lat_abs(sh->stride[k]) <= below) {
            return 0;
        }
        below += (uint64_t) (sh->count[k] - 1) * lat_abs(sh->stride[k]);
    }
    return 1;
}

/* Division by d >= 1 for dividends below 2^31 (Granlund and Montgomery):
 * with l = ceil(lg d) and mag = floor(2^(31+l) / d) + 1 <= 2^32 + 1,
 * floor(v / d) = (v * mag) >> (31 + l), and v * mag < 2^64.  Packed with
 * its shift in one word. */
static uint64_t lat_magic(uint32_t d)
{
    int l = grpmap_bits(d - 1);
    uint64_t mag = ((uint64_t) 1 << (31 + l)) / d + 1;
    return mag | (uint64_t) (31 + l) << LAT_MAG_BITS;
}

static inline uint32_t lat_div(uint32_t q, uint64_t packed)
{
    return (uint32_t) ((q * (packed & LAT_MAG_MASK)) >> (packed >> LAT_MAG_BITS));
}

static size_t lat_estimate(const grpmap_input_t *in)
{
    lat_shape_t sh;
    return lat_detect(in, &sh) ? lat_size(sh.levels) : GRPMAP_DECLINES;
}

static int lat_build(const grpmap_input_t *in, void **map)
{
    lat_shape_t sh;
    lat_t *m;
    uint32_t weight[LAT_MAX], p = 1, base = 0, span = 0;
    int64_t mn;
    int L, j, k;

    *map = NULL;
    if (!lat_detect(in, &sh)) {
        return GRPMAP_DECLINE;
    }
    L = sh.levels;
    m = malloc(lat_size(L));
    if (NULL == m) {
        return GRPMAP_ENOMEM;
    }
    m->levels = (uint8_t) L;
    m->first = in->n > 0 ? (uint32_t) in->ranks[0] : 0;
    mn = in->n > 0 ? in->ranks[0] : 0;
    for (k = 0; k < L; k++) {
        uint32_t c = (uint32_t) sh.count[k];
        int32_t s = sh.stride[k];
        lat_level_t *lv = &lat_lv(m)[k];
        if (k < L - 1) {
            m->mag[k] = lat_magic(c ? c : 1);
        }
        lv->count = c;
        lv->step = (uint32_t) s;
        lv->mult = s < 0 ? 0u - p : p;
        weight[k] = p;
        p *= c;
        if (c > 0) {
            if (s < 0) {
                mn += (int64_t) (c - 1) * s;
                base += (c - 1) * weight[k];
            }
            span += (c - 1) * lat_abs(s);
        }
    }
    m->min = (uint32_t) (int32_t) mn;
    m->span = span;
    m->base = base;
    for (j = 0; j < LAT_MAX; j++) {
        m->order[j] = (uint8_t) (j < L ? sh.order[j] : 0);
    }
    *map = m;
    return GRPMAP_OK;
}

static int32_t lat_select(const void *map, int32_t i)
{
    const lat_t *m = map;
    const lat_level_t *lv = lat_lv(m);
    uint32_t r = m->first, q = (uint32_t) i;
    int k, last = m->levels - 1;
    for (k = 0; k < last; k++) {
        uint32_t d = lat_div(q, m->mag[k]);
        r += (q - d * lv[k].count) * lv[k].step;
        q = d;
    }
    return (int32_t) (r + q * lv[last].step);
}

/* Digits peeled from the largest |stride| down; not on the message path,
 * so plain divisions (keeps the form at one magic number per level). */
static int32_t lat_rank(const void *map, int32_t w)
{
    const lat_t *m = map;
    const lat_level_t *lv = lat_lv(m);
    int64_t v = (int64_t) w - (int32_t) m->min;
    uint32_t u, q, idx = m->base;
    int j, L = m->levels;
    if (v < 0 || (uint64_t) v > m->span) {
        return GRPMAP_NOT_MEMBER;
    }
    u = (uint32_t) v;
    for (j = 0; j < L; j++) {
        const lat_level_t *l = &lv[m->order[j]];
        uint32_t t = lat_abs((int32_t) l->step);
        t = t ? t : 1; /* n <= 1 */
        q = u / t;
        if (q >= l->count) {
            return GRPMAP_NOT_MEMBER;
        }
        u -= q * t;
        idx += q * l->mult;
    }
    return 0 == u ? (int32_t) idx : GRPMAP_NOT_MEMBER;
}

static void lat_iterate(const void *map, int32_t first, int32_t count, int32_t *out)
{
    const lat_t *m = map;
    const lat_level_t *lv = lat_lv(m);
    uint32_t x[LAT_MAX], base = m->first, q = (uint32_t) first, x0, s0 = lv[0].step;
    uint32_t left = count > 0 ? (uint32_t) count : 0;
    int k, L = m->levels;

    if (0 == left) {
        return;
    }
    /* digits of first; base = the value of its level-0 block's start */
    for (k = 0; k < L - 1; k++) {
        uint32_t d = lat_div(q, m->mag[k]);
        x[k] = q - d * lv[k].count;
        q = d;
        if (k > 0) {
            base += x[k] * lv[k].step;
        }
    }
    x[L - 1] = q;
    if (L > 1) {
        base += q * lv[L - 1].step;
    }
    x0 = x[0];
    for (;;) {
        uint32_t run = lv[0].count - x0, j, v;
        if (run > left) {
            run = left;
        }
        v = base + x0 * s0;
        for (j = 0; j < run; j++) {
            out[j] = (int32_t) v;
            v += s0;
        }
        out += run;
        left -= run;
        if (0 == left) {
            return;
        }
        x0 = 0;
        for (k = 1; k < L; k++) {
            base += lv[k].step;
            if (++x[k] < lv[k].count) {
                break;
            }
            x[k] = 0;
            base -= lv[k].count * lv[k].step;
        }
    }
}

static size_t lat_bytes(const void *map)
{
    return lat_size(((const lat_t *) map)->levels);
}

static void lat_release(void *map)
{
    free(map);
}

const grpmap_repr_t grpmap_lattice_repr = {
    .name = "lattice",
    .kind = GRPMAP_KIND_LIST,
    .select_ns = 1.5,
    GRPMAP_REPR_OPS(lat),
};
