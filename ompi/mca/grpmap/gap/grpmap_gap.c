/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * gap and ef, the sparse set forms (layouts and costs in grpmap_gap.h).
 * Both are one allocation each: a header, then 64-bit words, then 32-bit
 * samples.  gap's member i sits in block i >> s; the block's first member
 * is stored whole, each other member m as (its gap - 1) in field
 * m - (m >> s) - 1.  ef's member i is bit (x_i >> l) + i of the high part,
 * its low bits field i of the low part; bucket h (the members with
 * x >> l == h) ends at zero number h of the high part.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/grpmap/gap/grpmap_gap.h"
#include "ompi/mca/grpmap/grpmap_bitvec.h"

/* ================================================================== gap */

#ifndef GAP_BSHIFT_SMALL /* one absolute every 2^s members: s for k < 4, k >= 4 */
#define GAP_BSHIFT_SMALL 6
#endif
#ifndef GAP_BSHIFT
#define GAP_BSHIFT 5
#endif
#define gap_release free /* a map is one block */

typedef struct {
    int32_t n, max;
    int k, bshift;
    uint32_t nabs, nwords;
    /* summing the fields of a 64-bit window (gap_window_sum): per fields a
     * window, fold the mask of the even fields (k >= 5) or of bit 0 of
     * each (k <= 4), mul the multiplier (1 in every even field), top the
     * shift to the last even field */
    uint32_t per;
    int top;
    uint64_t fold, mul;
    double scale; /* (nabs - 1) / (max - min): RANK's first guess */
    uint64_t w[]; /* fields (nwords words), then uint32_t abs[nabs] */
} gap_map_t;

typedef struct {
    int k, bshift;
    uint64_t nabs, nwords;
    size_t bytes;
} gap_shape_t;

static void gap_shape(const grpmap_input_t *in, gap_shape_t *sh)
{
    memset(sh, 0, sizeof(*sh));
    sh->k = in->n > 1 && in->max_gap > 1 ? grpmap_bits((uint64_t) in->max_gap - 1) : 0;
    sh->bshift = sh->k >= 4 ? GAP_BSHIFT : GAP_BSHIFT_SMALL;
    if (in->n > 0) {
        sh->nabs = (((uint64_t) in->n - 1) >> sh->bshift) + 1;
    }
    sh->nwords = grpmap_packed_words((uint64_t) in->n - sh->nabs, sh->k);
    sh->bytes = sizeof(gap_map_t) + 8 * sh->nwords + 4 * sh->nabs;
}

static size_t gap_estimate(const grpmap_input_t *in)
{
    gap_shape_t sh;
    if (!in->increasing) {
        return GRPMAP_DECLINES;
    }
    gap_shape(in, &sh);
    return sh.bytes;
}

static int gap_build(const grpmap_input_t *in, void **out)
{
    gap_shape_t sh;
    gap_map_t *m;
    uint32_t *abs, t;
    int32_t i;
    uint64_t f = 0;

    *out = NULL;
    if (!in->increasing) {
        return GRPMAP_DECLINE;
    }
    gap_shape(in, &sh);
    m = calloc(1, sh.bytes);
    if (NULL == m) {
        return GRPMAP_ENOMEM;
    }
    m->n = in->n;
    m->max = in->max;
    m->k = sh.k;
    m->bshift = sh.bshift;
    m->nabs = (uint32_t) sh.nabs;
    m->nwords = (uint32_t) sh.nwords;
    if (in->max > in->min) {
        m->scale = (double) (sh.nabs - 1) / ((double) in->max - in->min);
    }
    if (sh.k >= 5) {
        m->per = 2 * (32 / (uint32_t) sh.k);
        for (t = 0; t < m->per / 2; t++) {
            m->fold |= ((1ull << sh.k) - 1) << (2 * sh.k * t);
            m->mul |= 1ull << (2 * sh.k * t);
        }
        m->top = 2 * sh.k * (int) (m->per / 2 - 1);
    } else if (sh.k > 0) {
        m->per = 64 / (uint32_t) sh.k;
        for (t = 0; t < m->per; t++) {
            m->fold |= 1ull << (sh.k * t);
        }
    }
    abs = (uint32_t *) (m->w + sh.nwords);
    for (i = 0; i < in->n; i++) {
        if (0 == (i & ((1 << sh.bshift) - 1))) {
            abs[i >> sh.bshift] = (uint32_t) in->ranks[i];
        } else {
            grpmap_packed_put(m->w, f++, sh.k, (uint64_t) (in->ranks[i] - in->ranks[i - 1] - 1));
        }
    }
    *out = m;
    return GRPMAP_OK;
}

/* The 64 bits from bit on (the array has a spare word at its end). */
static inline uint64_t gap_window(const uint64_t *w, uint64_t bit)
{
    const uint64_t *p = w + (bit >> 6);
    unsigned sh = (unsigned) (bit & 63);
    return (p[0] >> sh) | ((p[1] << 1) << (63 - sh)); /* two shifts: sh == 0 too */
}

/* The sum of the k-bit fields of v, at most m->per of them (the rest of v
 * zero): for k >= 5, add odd fields to even ones (2k-bit slots), then one
 * multiply sums the slots into the top one; for k <= 4, weigh each bit
 * plane's popcount. */
static inline uint32_t gap_window_sum(const gap_map_t *m, uint64_t v)
{
    if (m->k >= 5) {
        v = (v & m->fold) + ((v >> m->k) & m->fold);
        return (uint32_t) (((v * m->mul) >> m->top) & ((1ull << (2 * m->k)) - 1));
    } else {
        uint32_t s = 0;
        int b;
        for (b = 0; b < m->k; b++) {
            s += grpmap_pop(v & (m->fold << b), GRPMAP_CPU_GENERIC) << b;
        }
        return s;
    }
}

/* The sum of the cnt fields from field f on. */
static inline uint32_t gap_sum(const gap_map_t *m, uint64_t f, uint32_t cnt)
{
    uint64_t bit = f * (uint64_t) m->k;
    uint32_t sum = 0;
    if (0 == m->k) {
        return 0;
    }
    while (cnt > 0) {
        uint32_t c = cnt < m->per ? cnt : m->per;
        uint64_t v = gap_window(m->w, bit);
        unsigned used = c * (unsigned) m->k;
        if (used < 64) {
            v &= (1ull << used) - 1;
        }
        sum += gap_window_sum(m, v);
        bit += used;
        cnt -= c;
    }
    return sum;
}

static int32_t gap_select(const void *map, int32_t i)
{
    const gap_map_t *m = map;
    const uint32_t *abs = (const uint32_t *) (m->w + m->nwords);
    uint32_t b = (uint32_t) i >> m->bshift, j = (uint32_t) i & ((1u << m->bshift) - 1);
    uint64_t f = (uint64_t) b * ((1u << m->bshift) - 1);
    return (int32_t) (abs[b] + j + gap_sum(m, f, j));
}

static int32_t gap_rank(const void *map, int32_t w)
{
    const gap_map_t *m = map;
    const uint32_t *abs = (const uint32_t *) (m->w + m->nwords);
    uint32_t lo, hi, g, step, v, t, len, uw = (uint32_t) w, mask;
    uint64_t bit;

    if (0 == m->n || w < (int32_t) abs[0] || w > m->max) {
        return GRPMAP_NOT_MEMBER;
    }
    /* the last block whose first member is <= w: guess by interpolation,
     * gallop to a bracket [lo, hi], then halve it */
    g = (uint32_t) ((double) (uw - abs[0]) * m->scale);
    if (g >= m->nabs) {
        g = m->nabs - 1;
    }
    if (abs[g] <= uw) {
        lo = g;
        for (step = 1;; step *= 2) {
            hi = lo + step;
            if (hi >= m->nabs || abs[hi] > uw) {
                hi = hi >= m->nabs ? m->nabs - 1 : hi - 1;
                break;
            }
            lo = hi;
        }
    } else {
        hi = g; /* abs[hi] > w; abs[0] <= w ends the loop */
        for (step = 1;; step *= 2) {
            lo = hi > step ? hi - step : 0;
            if (abs[lo] <= uw) {
                break;
            }
            hi = lo;
        }
        hi--;
    }
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (abs[mid] <= uw) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    v = abs[lo];
    len = (1u << m->bshift) - 1;
    if ((uint64_t) (lo << m->bshift) + len >= (uint64_t) m->n) {
        len = (uint32_t) m->n - (lo << m->bshift) - 1;
    }
    if (0 == m->k) { /* gaps of 1: a range */
        return uw - v <= len ? (int32_t) ((lo << m->bshift) + uw - v) : GRPMAP_NOT_MEMBER;
    }
    if (v == uw) {
        return (int32_t) (lo << m->bshift);
    }
    bit = (uint64_t) lo * ((1u << m->bshift) - 1) * (uint64_t) m->k;
    mask = (uint32_t) ((1ull << m->k) - 1);
    /* step through the block's fields, reading 64 bits when needed */
    {
        uint64_t x = 0;
        unsigned avail = 0;
        for (t = 1; t <= len; t++, bit += (uint64_t) m->k) {
            if (avail < (unsigned) m->k) {
                x = gap_window(m->w, bit);
                avail = 64;
            }
            v += 1 + ((uint32_t) x & mask);
            if (v >= uw) {
                return v == uw ? (int32_t) ((lo << m->bshift) + t) : GRPMAP_NOT_MEMBER;
            }
            x >>= m->k;
            avail -= (unsigned) m->k;
        }
    }
    return GRPMAP_NOT_MEMBER;
}

static void gap_iterate(const void *map, int32_t first, int32_t count, int32_t *out)
{
    const gap_map_t *m = map;
    const uint32_t *abs = (const uint32_t *) (m->w + m->nwords);
    uint32_t i, end = (uint32_t) first + (uint32_t) count, bmask = (1u << m->bshift) - 1;
    uint32_t v, mask = (uint32_t) ((1ull << m->k) - 1);

    if (count <= 0) {
        return;
    }
    v = (uint32_t) gap_select(m, first);
    out[0] = (int32_t) v;
    for (i = (uint32_t) first + 1; i < end; i++) {
        if (0 == (i & bmask)) {
            v = abs[i >> m->bshift];
        } else if (0 == m->k) {
            v++;
        } else {
            uint64_t f = i - (i >> m->bshift) - 1;
            v += 1 + ((uint32_t) gap_window(m->w, f * (uint64_t) m->k) & mask);
        }
        out[i - (uint32_t) first] = (int32_t) v;
    }
}

static size_t gap_bytes(const void *map)
{
    const gap_map_t *m = map;
    return sizeof(gap_map_t) + 8 * (size_t) m->nwords + 4 * (size_t) m->nabs;
}

const grpmap_repr_t grpmap_gap_repr = {
    .name = "gap",
    .kind = GRPMAP_KIND_SET,
    .select_ns = 18.0,
    GRPMAP_REPR_OPS(gap),
};

/* =================================================================== ef */

#ifndef EF_BLOCK_SHIFT
#define EF_BLOCK_SHIFT 10 /* directory: 1024-bit blocks of 4 256-bit sub-blocks */
#endif
#define EF_BLOCK_WORDS GRPMAP_BV_BLOCK_WORDS(EF_BLOCK_SHIFT)
#define EF_SUB_WORDS GRPMAP_BV_SUB_WORDS(EF_BLOCK_SHIFT)
#define EF_SUB_BITS (64 * EF_SUB_WORDS)
#define EF_STEPS GRPMAP_BV_STEPS
#define ef_release free /* a map is one block */
#ifndef EF_PS_WORDS
#define EF_PS_WORDS 4     /* position samples: words a window */
#endif
#ifndef EF_PS_MIN
#define EF_PS_MIN 6       /* one position sample per 2^6 or 2^7 ones ... */
#endif
#ifndef EF_PS_MAX
#define EF_PS_MAX 7
#endif
#ifndef EF_PS_BUDGET
#define EF_PS_BUDGET 1.25 /* ... when the map stays within 1.25 x lg C(U, n) */
#endif

typedef struct {
    int32_t n, min;
    uint32_t umax; /* U - 1 = max - min */
    uint8_t l, hw, s1, s2; /* one sample every 2^s1 ones, one position sample
                              every 2^s2 ones (0: none) */
    uint32_t lowwords, highwords, nblocks, ns1;
    uint32_t off2; /* samp2 from w on, in uint32_t (ns2 = ((n - 1) >> s2) + 2) */
    /* uint64_t low[lowwords], high[highwords] (a multiple of 8), blk[nblocks + EF_STEPS],
     * then uint32_t samp1[ns1], samp2[ns2]; blk[b]: the low 42 - EF_BLOCK_SHIFT
     * bits the ones before block b of high, then EF_BLOCK_SHIFT bits each
     * those in its first k sub-blocks (k = 1, 2, 3); EF_STEPS sentinels = n;
     * samp1[j] is the block of one number j << s1, a sentinel (the last
     * block) ends it; samp2[j] the position p of one number j << s2 as its
     * word (p & ~63) or'ed with the ones before it in its word (< 64), a
     * sentinel (p = the high part's bits) ends it */
    uint64_t w[];
} ef_map_t;

typedef struct {
    int l, s1, s2;
    uint64_t lowwords, highbits, highwords, nblocks, ns1, ns2;
    size_t bytes;
} ef_shape_t;

static void ef_shape_l(const grpmap_input_t *in, int l, ef_shape_t *sh)
{
    uint64_t umax = (uint64_t) ((int64_t) in->max - in->min);
    memset(sh, 0, sizeof(*sh));
    sh->l = l;
    sh->lowwords = grpmap_packed_words((uint64_t) in->n, l);
    if (in->n > 0) {
        sh->highbits = (uint64_t) in->n + (umax >> l) + 1;
        sh->highwords = (sh->highbits + EF_SUB_BITS - 1) / EF_SUB_BITS * EF_SUB_WORDS;
        sh->nblocks = (sh->highwords + EF_BLOCK_WORDS - 1) / EF_BLOCK_WORDS;
        sh->s1 = grpmap_bv_sample_shift((uint64_t) in->n, sh->nblocks);
        sh->ns1 = (((uint64_t) in->n - 1) >> sh->s1) + 2;
    }
    sh->bytes = sizeof(ef_map_t)
                + 8 * (sh->lowwords + sh->highwords + sh->nblocks + (in->n > 0) * EF_STEPS)
                + 4 * sh->ns1;
}

/* lg C(u, n) by Stirling's series (log(), unlike lgamma(), is thread-safe) */
static double ef_lg_binom(double u, double n)
{
    double k = u - n, r = 0.0;
    if (n < 1.0 || k < 1.0) {
        return 0.0;
    }
    r = u * log(u) - n * log(n) - k * log(k) + 0.5 * log(u / (2.0 * 3.141592653589793 * n * k))
        + (1.0 / u - 1.0 / n - 1.0 / k) / 12.0;
    return r / log(2.0);
}

/* the position samples: one every 2^s2 ones, s2 the least of EF_PS_MIN ..
 * EF_PS_MAX that keeps the map within EF_PS_BUDGET x lg C(U, n) bits */
static void ef_shape_s2(const grpmap_input_t *in, ef_shape_t *sh)
{
    double budget;
    int s2;
    if (in->n <= 1) {
        return;
    }
    budget = EF_PS_BUDGET * ef_lg_binom((double) in->max - in->min + 1.0, (double) in->n) / 8.0;
    for (s2 = EF_PS_MIN; s2 <= EF_PS_MAX; s2++) {
        uint64_t ns2 = (((uint64_t) in->n - 1) >> s2) + 2;
        if ((double) (sh->bytes + 4 * ns2) <= budget) {
            sh->s2 = s2;
            sh->ns2 = ns2;
            sh->bytes += 4 * ns2;
            return;
        }
    }
}

/* l = floor(lg(U / n)), or a neighbour when that takes fewer bytes */
static void ef_shape(const grpmap_input_t *in, ef_shape_t *sh)
{
    ef_shape_t c;
    int l0 = 0, l;
    if (in->n > 0) {
        l0 = grpmap_bits((uint64_t) ((int64_t) in->max - in->min + 1) / (uint64_t) in->n) - 1;
    }
    ef_shape_l(in, l0, sh);
    for (l = l0 - 1; l <= l0 + 1; l += 2) {
        if (l >= 0 && l <= 31) {
            ef_shape_l(in, l, &c);
            if (c.bytes < sh->bytes || (c.bytes == sh->bytes && l > sh->l)) {
                *sh = c;
            }
        }
    }
    ef_shape_s2(in, sh);
}

static size_t ef_estimate(const grpmap_input_t *in)
{
    ef_shape_t sh;
    if (!in->increasing) {
        return GRPMAP_DECLINES;
    }
    ef_shape(in, &sh);
    return sh.bytes;
}

static inline const uint64_t *ef_high(const ef_map_t *m)
{
    return m->w + m->lowwords;
}

static inline const uint64_t *ef_blk(const ef_map_t *m)
{
    return m->w + m->lowwords + m->highwords;
}

static inline const uint32_t *ef_samp1(const ef_map_t *m)
{
    return (const uint32_t *) (ef_blk(m) + m->nblocks + EF_STEPS);
}

static inline const uint32_t *ef_samp2(const ef_map_t *m)
{
    return (const uint32_t *) m->w + m->off2;
}

static int ef_build(const grpmap_input_t *in, void **out)
{
    ef_shape_t sh;
    ef_map_t *m;
    uint64_t *high, *blk, j;
    uint32_t *samp1, *samp2;
    int32_t i;

    *out = NULL;
    if (!in->increasing) {
        return GRPMAP_DECLINE;
    }
    ef_shape(in, &sh);
    m = calloc(1, sh.bytes);
    if (NULL == m) {
        return GRPMAP_ENOMEM;
    }
    m->n = in->n;
    m->min = in->min;
    m->umax = (uint32_t) ((int64_t) in->max - in->min);
    m->l = sh.l;
    m->s1 = sh.s1;
    m->lowwords = (uint32_t) sh.lowwords;
    m->highwords = (uint32_t) sh.highwords;
    m->nblocks = (uint32_t) sh.nblocks;
    m->ns1 = (uint32_t) sh.ns1;
    m->s2 = (uint8_t) sh.s2;
    m->off2 = (uint32_t) (2 * (sh.lowwords + sh.highwords + sh.nblocks + EF_STEPS) + sh.ns1);
#if defined(GRPMAP_CPU_DISPATCH)
    m->hw = grpmap_cpu_level();
#endif
    if (0 == in->n) {
        *out = m;
        return GRPMAP_OK;
    }
    high = m->w + sh.lowwords;
    blk = high + sh.highwords;
    samp1 = (uint32_t *) (blk + sh.nblocks + EF_STEPS);
    for (i = 0; i < in->n; i++) {
        uint64_t x = (uint64_t) (in->ranks[i] - in->min), p = (x >> sh.l) + (uint64_t) i;
        grpmap_packed_put(m->w, (uint64_t) i, sh.l, x & ((1ull << sh.l) - 1));
        high[p >> 6] |= 1ull << (p & 63);
    }
    grpmap_bv_build(blk, high, sh.highwords, sh.nblocks, EF_BLOCK_SHIFT);
    /* one number j << s1 is member j << s1's bit */
    for (j = 0; j + 1 < sh.ns1; j++) {
        uint64_t t = j << sh.s1;
        samp1[j] = (uint32_t) (((((uint64_t) (in->ranks[t] - in->min)) >> sh.l) + t)
                               >> EF_BLOCK_SHIFT);
    }
    samp1[sh.ns1 - 1] = (uint32_t) sh.nblocks - 1;
    samp2 = samp1 + sh.ns1;
    for (j = 0; j < sh.ns2; j++) {
        uint64_t t = j << sh.s2, p = sh.highbits;
        if (j + 1 < sh.ns2) {
            p = (((uint64_t) (in->ranks[t] - in->min)) >> sh.l) + t;
        }
        samp2[j] = (uint32_t) ((p & ~63ull)
                               | grpmap_pop(high[p >> 6] & ((1ull << (p & 63)) - 1),
                                            GRPMAP_CPU_GENERIC));
    }
    *out = m;
    return GRPMAP_OK;
}

/* Position in the high part of one number i */
static inline __attribute__((always_inline)) uint64_t ef_select1(const ef_map_t *m, uint32_t i,
                                                                 int lvl)
{
    const uint64_t *blk = ef_blk(m);
    const uint32_t *samp = ef_samp1(m);
    return grpmap_bv_select(ef_high(m), blk, samp, m->s1, i, EF_BLOCK_SHIFT, lvl);
}

/* Position in the high part of one number i by its position samples,
 * the slow way (ef_select2's second half): one number i is in the
 * EF_PS_WORDS words up to e's, e = samp2[j + 1] (one number (j + 1) << s2,
 * or the end; j = i >> s2), when a gap within its group of 2^s2 ones kept
 * it out of the front window; else ef_select1 (a group across more than
 * two windows: seldom; never on random maps). */
static inline __attribute__((always_inline)) uint64_t ef_select2_back(const ef_map_t *m,
                                                                      uint32_t i, int lvl)
{
    const uint64_t *high = ef_high(m);
    uint32_t j = i >> m->s2, se = ef_samp2(m)[j + 1], endc = (j + 1) << m->s2, u, t, tb = 0, sb;
    uint32_t qb[EF_PS_WORDS], cb[EF_PS_WORDS];
    uint64_t wb = se >> 6; /* >= EF_PS_WORDS - 1: the front window missed */

    endc = endc < (uint32_t) m->n ? endc : (uint32_t) m->n;
    GRPMAP_UNROLL
    for (t = 0; t < EF_PS_WORDS; t++) {
        qb[t] = grpmap_pop(high[wb - t], lvl);
    }
    /* u: one number i's rank from the end of word wb down, from 1 (the
     * ones in word wb from e on counted in; se & 63 ones are before e) */
    u = endc - i + qb[0] - (se & 63);
    cb[0] = qb[0];
    for (t = 1; t < EF_PS_WORDS; t++) {
        cb[t] = cb[t - 1] + qb[t];
    }
    if (u > cb[EF_PS_WORDS - 1]) {
        return ef_select1(m, i, lvl);
    }
    sb = qb[0];
    GRPMAP_UNROLL
    for (t = 0; t + 1 < EF_PS_WORDS; t++) {
        uint32_t in = cb[t] < u;
        tb += in;
        sb += qb[t + 1] & (0u - in);
    }
    return (wb - tb) * 64 + grpmap_select_word(high[wb - tb], sb - u, lvl);
}

/* Position in the high part of one number i by its position samples: s =
 * samp2[i >> s2] gives the word of one number (i >> s2) << s2 and the ones
 * before it there, so i is one number r = (i & (2^s2 - 1)) + (s & 63) of
 * the words from s's on; the first EF_PS_WORDS of them are counted at
 * once (popcounts summed as a tree), without branches; when they hold
 * fewer than r + 1 ones, ef_select2_back (out of line). */
static inline __attribute__((always_inline)) uint64_t ef_select2(const ef_map_t *m, uint32_t i,
                                                                 int lvl, uint64_t (*back)(const ef_map_t *, uint32_t))
{
    const uint64_t *high = ef_high(m);
    uint32_t sa = ef_samp2(m)[i >> m->s2], r, t, tf = 0, bf = 0;
    uint32_t qf[EF_PS_WORDS], cf[EF_PS_WORDS];
    uint64_t wf = sa >> 6;

    r = (i & ((1u << m->s2) - 1)) + (sa & 63);
    GRPMAP_UNROLL
    for (t = 0; t < EF_PS_WORDS; t++) {
        qf[t] = grpmap_pop(high[wf + t], lvl);
    }
    cf[0] = qf[0];
    cf[1] = qf[0] + qf[1];
#if EF_PS_WORDS >= 3
    cf[2] = cf[1] + qf[2];
#endif
#if EF_PS_WORDS >= 4
    cf[3] = cf[1] + (qf[2] + qf[3]);
#endif
#if EF_PS_WORDS > 4 || EF_PS_WORDS < 2
#error "EF_PS_WORDS: 2 .. 4"
#endif
    if (__builtin_expect(r >= cf[EF_PS_WORDS - 1], 0)) {
        return back(m, i);
    }
    GRPMAP_UNROLL
    for (t = 0; t + 1 < EF_PS_WORDS; t++) {
        uint32_t in = r >= cf[t];
        tf += in;
        bf += qf[t] & (0u - in);
    }
    return (wf + tf) * 64 + grpmap_select_word(high[wf + tf], r - bf, lvl);
}

/* Position in the high part of zero number i (i below the zeros): the
 * last block with at most i zeros before it, by a binary search over the
 * directory (a loop of a fixed count a map, its steps without branches). */
static inline __attribute__((always_inline)) uint64_t ef_select0(const ef_map_t *m, uint64_t i,
                                                                 int lvl)
{
    const uint64_t *blk = ef_blk(m);
    uint64_t lo = 0, len = m->nblocks;

    while (len > 1) {
        uint64_t half = len / 2;
        lo = grpmap_bv_before(blk, lo + half, EF_BLOCK_SHIFT, 1) <= i ? lo + half : lo;
        len -= half;
    }
    return grpmap_bv_in_block(ef_high(m), lo, blk[lo],
                              (uint32_t) (i - grpmap_bv_before(blk, lo, EF_BLOCK_SHIFT, 1)),
                              EF_BLOCK_SHIFT, 1, lvl);
}

/* Low field i, without branches (the low part has a spare word at its end;
 * a 64-bit window holds a field: l <= 31); little-endian: one unaligned
 * load from the field's byte (its bit in the byte + l <= 38) */
static inline __attribute__((always_inline)) uint64_t ef_low(const ef_map_t *m, uint64_t i)
{
    uint64_t bit = i * (uint64_t) m->l;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t v;
    memcpy(&v, (const unsigned char *) m->w + (bit >> 3), sizeof(v));
    return (v >> (bit & 7)) & ((1ull << m->l) - 1);
#else
    return gap_window(m->w, bit) & ((1ull << m->l) - 1);
#endif
}

/* SELECT with (ps) or without the position samples; back: ef_select2_back
 * of the same lvl, out of line */
static inline __attribute__((always_inline)) int32_t
ef_select_body(const ef_map_t *m, int32_t i, int lvl, int ps,
               uint64_t (*back)(const ef_map_t *, uint32_t))
{
    uint64_t pos = ps ? ef_select2(m, (uint32_t) i, lvl, back) : ef_select1(m, (uint32_t) i, lvl);
    uint64_t x = ((pos - (uint64_t) i) << m->l) | ef_low(m, (uint64_t) i);
    return m->min + (int32_t) x;
}

static inline __attribute__((always_inline)) int32_t ef_rank_body(const ef_map_t *m, int32_t w,
                                                                  int lvl)
{
    const uint64_t *high = ef_high(m);
    int64_t d = (int64_t) w - m->min;
    uint64_t h, low, pos, i;

    if (0 == m->n || d < 0 || d > (int64_t) m->umax) {
        return GRPMAP_NOT_MEMBER;
    }
    h = (uint64_t) d >> m->l;
    low = (uint64_t) d & ((1ull << m->l) - 1);
    /* bucket h starts after zero number h - 1; scan its ones' lows */
    pos = h ? ef_select0(m, h - 1, lvl) + 1 : 0;
    for (i = pos - h; (high[pos >> 6] >> (pos & 63)) & 1; i++, pos++) {
        uint64_t v = grpmap_packed_get(m->w, i, m->l);
        if (v >= low) {
            return v == low ? (int32_t) i : GRPMAP_NOT_MEMBER;
        }
    }
    return GRPMAP_NOT_MEMBER;
}

/* per CPU level: SELECT with and without the position samples, and the
 * position samples' slow half */
#define EF_SELECT_LEVEL(N, L, ATTR)                                                              \
    ATTR __attribute__((noinline)) static uint64_t ef_back_##N(const ef_map_t *m, uint32_t i)  \
    {                                                                                          \
        return ef_select2_back(m, i, L);                                                       \
    }                                                                                          \
    ATTR static int32_t ef_select_##N(const ef_map_t *m, int32_t i)                            \
    {                                                                                          \
        return ef_select_body(m, i, L, 0, ef_back_##N);                                        \
    }                                                                                          \
    ATTR static int32_t ef_select_ps_##N(const ef_map_t *m, int32_t i)                         \
    {                                                                                          \
        return ef_select_body(m, i, L, 1, ef_back_##N);                                        \
    }
EF_SELECT_LEVEL(g, GRPMAP_CPU_GENERIC, )
#if defined(GRPMAP_CPU_DISPATCH)
EF_SELECT_LEVEL(1, 1, __attribute__((target("popcnt"))))
EF_SELECT_LEVEL(2, 2, __attribute__((target("popcnt,bmi,bmi2"))))

GRPMAP_CPU_BUILD(__attribute__((target("popcnt"))), int32_t, ef_rank_1, ef_map_t, int32_t,
                 ef_rank_body, 1)
GRPMAP_CPU_BUILD(__attribute__((target("popcnt"))), int32_t, ef_rank_2, ef_map_t, int32_t,
                 ef_rank_body, 2)
#endif

static int32_t ef_select(const void *map, int32_t i)
{
    const ef_map_t *m = map;
#if defined(GRPMAP_CPU_DISPATCH)
    if (2 == m->hw) {
        return m->s2 ? ef_select_ps_2(m, i) : ef_select_2(m, i);
    }
    if (1 == m->hw) {
        return m->s2 ? ef_select_ps_1(m, i) : ef_select_1(m, i);
    }
#endif
    return m->s2 ? ef_select_ps_g(m, i) : ef_select_g(m, i);
}

static int32_t ef_rank(const void *map, int32_t w)
{
    const ef_map_t *m = map;
#if defined(GRPMAP_CPU_DISPATCH)
    if (2 == m->hw) {
        return ef_rank_2(m, w);
    }
    if (1 == m->hw) {
        return ef_rank_1(m, w);
    }
#endif
    return ef_rank_body(m, w, GRPMAP_CPU_GENERIC);
}

static void ef_iterate(const void *map, int32_t first, int32_t count, int32_t *out)
{
    const ef_map_t *m = map;
    const uint64_t *high = ef_high(m);
    uint64_t pos, wi, x, i;
    int32_t k;

    if (count <= 0) {
        return;
    }
    pos = ef_select1(m, (uint32_t) first, GRPMAP_CPU_GENERIC);
    wi = pos >> 6;
    x = high[wi] & (~0ull << (pos & 63));
    for (k = 0, i = (uint64_t) first; k < count; k++, i++) {
        while (0 == x) {
            x = high[++wi];
        }
        pos = wi * 64 + (uint64_t) __builtin_ctzll(x);
        x &= x - 1;
        out[k] = m->min + (int32_t) (((pos - i) << m->l) | grpmap_packed_get(m->w, i, m->l));
    }
}

static size_t ef_bytes(const void *map)
{
    const ef_map_t *m = map;
    return sizeof(ef_map_t)
           + 8 * ((size_t) m->lowwords + m->highwords + m->nblocks + (m->n > 0) * EF_STEPS)
           + 4 * ((size_t) m->ns1 + (m->s2 ? (((size_t) m->n - 1) >> m->s2) + 2 : 0));
}

const grpmap_repr_t grpmap_ef_repr = {
    .name = "ef",
    .kind = GRPMAP_KIND_SET,
    .select_ns = 8.0, /* bench/grpmap_bench: 2.7 x array's random SELECT (median, all maps) */
    GRPMAP_REPR_OPS(ef),
};
