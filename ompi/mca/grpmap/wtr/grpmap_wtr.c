/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * wtr: a permutation pi of [0, n) with rho maximal ascending runs (Mir Taheri
 * §4.2.1; Barbay and Navarro, "Compressed representations of
 * permutations", STACS 2009), as the merge sort of its runs recorded
 * backwards.  Number the runs 0..rho-1 by position and let S[v] be the run
 * of the element of value v.  A wavelet matrix over S with L = ceil(lg rho)
 * levels, level l split on bit l of the run number (least significant
 * first), is an LSD radix sort of the values by run: after the last level
 * they stand by run and, inside a run, by value, which is the order of
 * their positions in pi (runs ascend).  So the walk of value v down the
 * levels (a rank a level) ends at pi^-1(v), and the walk of position i up
 * (a select a level) ends at pi(i): no run table is kept.  This is the
 * tree of the paper with every run at depth L: n ceil(lg rho) bits instead
 * of n (1 + H(run lengths)), for one code path and no tree.
 *
 * A level: n bits; a 64-bit entry every 1024 bits (ones before it, and in
 * its first 1, 2, 3 quarters); the superblock of every 1024th one and of
 * every 1024th zero.  bytes = header + L * 8 * (1 + ceil(n/64) +
 * ceil(n/1024) + ceil((floor(n/1024) + 4) / 2)), about n L 1.094 / 8, a
 * function of n and L only (estimate is exact).  RANK: L ranks (one entry,
 * at most 4 popcounts each); SELECT: L selects (a bisection among the
 * superblocks between two samples, at most 4 popcounts, a select in a
 * word).  Declines more runs than grpmap_wtr_set_max_runs (default 50,000:
 * Mir Taheri stopped between 10^4 and 5 10^4), more bytes (levels) than a
 * ceil(lg n)-bit packed array of the permutation, and anything that is not
 * a permutation of [0, world == n).
 */
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/grpmap/wtr/grpmap_wtr.h"

#define WT_SB 1024        /* bits a rank entry */
#define WT_SAMPLE 1024    /* ones (zeros) a select sample */
#define wtr_release free  /* a map is one block */

typedef struct {
    int32_t n, L;
    size_t lw;        /* words a level */
    uint64_t d[];     /* the L levels, lw words each */
} wtr_map_t;

static int32_t wtr_max_runs = 50000;

void grpmap_wtr_set_max_runs(int32_t max_runs)
{
    __atomic_store_n(&wtr_max_runs, max_runs, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------ bit tools */

/* Bytes of x hold their own popcounts (each <= 8).  Popcounts are done
 * so (SWAR), not with the POPCNT instruction: it is not in the baseline
 * x86-64 this is built for, and GCC would call libgcc for it. */
static inline uint64_t wt_bytes(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    return (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
}

static inline uint32_t wt_pop(uint64_t x)
{
    return (uint32_t) ((wt_bytes(x) * 0x0101010101010101ull) >> 56);
}

/* position of the k-th (from 0) set bit of x, k < popcount(x); without
 * branches: bytes compared eight at a time (each byte of (k | 0x80) - c
 * keeps its top bit iff c <= k, for counts c <= 64), twice: to find the
 * byte, then the bit in it */
static inline uint32_t wt_select64(uint64_t x, uint32_t k)
{
    const uint64_t L8 = 0x0101010101010101ull, H8 = 0x8080808080808080ull;
    uint64_t s = wt_bytes(x) * L8, t;   /* byte i: ones in bytes 0..i */
    uint32_t b;
    b = (uint32_t) (((((((uint64_t) k * L8) | H8) - s) & H8) >> 7) * L8 >> 56) * 8;
    k -= (uint32_t) ((s << 8) >> b) & 255;
    t = ((((x >> b) & 255) * L8 & 0x8040201008040201ull) + 0x7f7f7f7f7f7f7f7full) & H8;
    t = (t >> 7) * L8;                                  /* byte j: ones in bits 0..j */
    return b + (uint32_t) (((((((uint64_t) k * L8) | H8) - t) & H8) >> 7) * L8 >> 56);
}

/* ---------------------------------------------------------------- levels */

/* A level: [0] zeros | words[nw] | entries[nsb] | samples (uint32): the
 * ones' (ceil(ones/1024), then a sentinel), then the zeros' likewise. */
static inline uint64_t wt_nw(uint64_t n)  { return (n + 63) / 64; }
static inline uint64_t wt_nsb(uint64_t n) { return (n + WT_SB - 1) / WT_SB; }
static inline uint64_t wt_ns(uint64_t n)  { return n / WT_SAMPLE + 4; }

static size_t wt_level_words(uint64_t n)
{
    return (size_t) (1 + wt_nw(n) + wt_nsb(n) + (wt_ns(n) + 1) / 2);
}

typedef struct {
    uint32_t z, ones, nsb;
    const uint64_t *w, *e;
    const uint32_t *s1, *s0;
} wt_level_t;

static inline wt_level_t wt_level(const wtr_map_t *m, int l)
{
    wt_level_t v;
    const uint64_t *base = m->d + (size_t) l * m->lw;
    uint64_t nw = wt_nw((uint64_t) m->n);
    v.z = (uint32_t) base[0];
    v.ones = (uint32_t) m->n - v.z;
    v.nsb = (uint32_t) wt_nsb((uint64_t) m->n);
    v.w = base + 1;
    v.e = v.w + nw;
    v.s1 = (const uint32_t *) (v.e + v.nsb);
    v.s0 = v.s1 + (v.ones + WT_SAMPLE - 1) / WT_SAMPLE + 1;
    return v;
}

/* The four words of a quarter, w[0..4), are read even where the level's
 * bits end (n reached): its rank entries and samples follow in the same
 * allocation, and what is read there is masked off or never chosen. */

/* ones in [0, p), p < n: the entry, then the quarter's words before p
 * (masked, summed bytewise: no branch on how many) */
static inline uint32_t wt_rank1(const wt_level_t *v, uint32_t p)
{
    uint64_t e = v->e[p >> 10], part = (1ull << (p & 63)) - 1, m[4];
    const uint64_t *w = v->w + ((p >> 8) << 2);
    uint32_t q = (p >> 8) & 3, wi = (p >> 6) & 3, r = (uint32_t) e, j;
    r += q ? (uint32_t) (e >> (22 + 10 * q)) & 1023 : 0;
    for (j = 0; j < 4; j++) {
        m[j] = j < wi ? ~0ull : j == wi ? part : 0;
    }
    return r + (uint32_t) (((wt_bytes(w[0] & m[0]) + wt_bytes(w[1] & m[1])
                             + wt_bytes(w[2] & m[2]) + wt_bytes(w[3] & m[3]))
                            * 0x0101010101010101ull) >> 56);
}

/* ones (bit 1) or zeros (bit 0) before superblock s */
static inline uint32_t wt_before(uint64_t e, uint32_t s, int bit)
{
    return bit ? (uint32_t) e : s * WT_SB - (uint32_t) e;
}

/* position of the k-th (from 0) bit equal to bit; k < its count */
static inline uint32_t wt_select(const wt_level_t *v, uint32_t k, int bit)
{
    const uint32_t *smp = bit ? v->s1 : v->s0;
    uint32_t lo = smp[k / WT_SAMPLE], hi = smp[k / WT_SAMPLE + 1], q, j, c[4], r[4];
    uint64_t e, flip = bit ? 0 : ~0ull;
    const uint64_t *w;
    while (lo < hi) {   /* the last superblock with at most k before it */
        uint32_t mid = (lo + hi + 1) >> 1;
        if (wt_before(v->e[mid], mid, bit) <= k) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    e = v->e[lo];
    k -= wt_before(e, lo, bit);
    /* the quarter: how many of the cumulative counts of quarters 1..3 are
     * <= k (quarters past the end hold all of the superblock's ones) */
    r[0] = 0;
    for (j = 1; j < 4; j++) {
        uint32_t ones = (uint32_t) (e >> (22 + 10 * j)) & 1023;
        r[j] = bit ? ones : j * 256 - ones;
    }
    q = (r[1] <= k) + (r[2] <= k) + (r[3] <= k);
    k -= r[q];
    /* the word, likewise */
    w = v->w + lo * 16 + q * 4;
    c[0] = 0;
    for (j = 1; j < 4; j++) {
        c[j] = c[j - 1] + (uint32_t) ((wt_bytes(w[j - 1] ^ flip) * 0x0101010101010101ull) >> 56);
    }
    j = (c[1] <= k) + (c[2] <= k) + (c[3] <= k);
    return (lo * 16 + q * 4 + j) * 64 + wt_select64(w[j] ^ flip, k - c[j]);
}

/* ---------------------------------------------------------------- build */

static int wt_L(int32_t runs)
{
    return runs > 1 ? grpmap_bits((uint64_t) (runs - 1)) : 0;
}

/* bytes of the map, or GRPMAP_DECLINES */
static size_t wtr_size(const grpmap_input_t *in)
{
    uint64_t n = (uint64_t) (in->n > 0 ? in->n : 0);
    int L = wt_L(in->runs);
    size_t levels = (size_t) L * wt_level_words(n) * 8;
    if (in->world != in->n || in->runs > __atomic_load_n(&wtr_max_runs, __ATOMIC_RELAXED)
        || levels > 8 * grpmap_packed_words(n, grpmap_bits(n > 1 ? n - 1 : 0))) {
        return GRPMAP_DECLINES;
    }
    return sizeof(wtr_map_t) + levels;
}

static size_t wtr_estimate(const grpmap_input_t *in)
{
    return wtr_size(in);
}

/* Rank entries and select samples of a level whose bits are set. */
static void wt_index(wtr_map_t *m, int l)
{
    uint64_t *base = m->d + (size_t) l * m->lw;
    uint32_t n = (uint32_t) m->n, nw = (uint32_t) wt_nw(n), nsb = (uint32_t) wt_nsb(n);
    uint32_t c[2] = {0, 0}, i, *s[2], zeros;
    uint64_t *w = base + 1, *e = w + nw;
    for (i = 0; i < nw; i++) {
        c[1] += wt_pop(w[i]);
    }
    zeros = n - c[1];
    base[0] = zeros;
    s[1] = (uint32_t *) (e + nsb);
    s[0] = s[1] + (c[1] + WT_SAMPLE - 1) / WT_SAMPLE + 1;
    s[1][(c[1] + WT_SAMPLE - 1) / WT_SAMPLE] = nsb - 1;
    s[0][(zeros + WT_SAMPLE - 1) / WT_SAMPLE] = nsb - 1;
    c[1] = 0;
    for (i = 0; i < nsb * 16; i++) {   /* past the last word: no ones */
        uint64_t x[2];
        int bit;
        if (0 == i % 16) {
            e[i / 16] = c[1];
        } else if (0 == i % 4) {
            e[i / 16] |= (uint64_t) (c[1] - (uint32_t) e[i / 16]) << (22 + 10 * (i % 16 / 4));
        }
        if (i >= nw) {
            continue;
        }
        x[1] = w[i];
        x[0] = ~w[i];
        if (i == nw - 1 && (n & 63)) {
            x[0] &= (1ull << (n & 63)) - 1;   /* no zeros past the end */
        }
        for (bit = 0; bit < 2; bit++) {
            uint32_t pc = wt_pop(x[bit]);
            /* the next multiple of WT_SAMPLE at or after c[bit] */
            uint32_t k = (c[bit] + WT_SAMPLE - 1) / WT_SAMPLE * WT_SAMPLE;
            for (; k < c[bit] + pc; k += WT_SAMPLE) {
                s[bit][k / WT_SAMPLE] = (i * 64 + wt_select64(x[bit], k - c[bit])) / WT_SB;
            }
            c[bit] += pc;
        }
    }
}

static int wtr_build(const grpmap_input_t *in, void **out)
{
    size_t size = wtr_size(in);
    int32_t n = in->n, i, runs = n > 0;
    uint32_t *seq = NULL, *nxt = NULL, *t;
    wtr_map_t *m;
    int L, l;

    *out = NULL;
    if (GRPMAP_DECLINES == size) {
        return GRPMAP_DECLINE;
    }
    L = wt_L(in->runs);
    if (0 == L) {
        for (i = 0; i < n; i++) {   /* one run of [0, n): the identity */
            if (in->ranks[i] != i) {
                return GRPMAP_DECLINE;
            }
        }
    } else {
        seq = malloc(sizeof(uint32_t) * (size_t) n);
        nxt = malloc(sizeof(uint32_t) * (size_t) n);
        if (NULL == seq || NULL == nxt) {
            free(seq);
            free(nxt);
            return GRPMAP_ENOMEM;
        }
        /* S: the run of each value; a permutation of [0, n) fills it once */
        memset(seq, 0xff, sizeof(uint32_t) * (size_t) n);
        for (i = 0; i < n; i++) {
            int32_t v = in->ranks[i];
            if (i > 0 && v < in->ranks[i - 1]) {
                runs++;
            }
            if (v < 0 || v >= n || UINT32_MAX != seq[v]) {
                runs = -1;
                break;
            }
            seq[v] = (uint32_t) runs - 1;
        }
        if (runs != in->runs) {
            free(seq);
            free(nxt);
            return GRPMAP_DECLINE;
        }
    }
    m = calloc(1, size);
    if (NULL == m) {
        free(seq);
        free(nxt);
        return GRPMAP_ENOMEM;
    }
    m->n = n;
    m->L = L;
    m->lw = wt_level_words((uint64_t) n);
    for (l = 0; l < L; l++) {
        uint64_t *w = m->d + (size_t) l * m->lw + 1;
        uint32_t z = 0, o = 0;
        for (i = 0; i < n; i++) {
            z += !((seq[i] >> l) & 1);
        }
        for (i = 0; i < n; i++) {   /* stable: zeros first, then ones */
            if ((seq[i] >> l) & 1) {
                w[i >> 6] |= 1ull << (i & 63);
                nxt[z + o++] = seq[i];
            } else {
                nxt[i - o] = seq[i];
            }
        }
        t = seq;
        seq = nxt;
        nxt = t;
        wt_index(m, l);
    }
    free(seq);
    free(nxt);
    *out = m;
    return GRPMAP_OK;
}

/* -------------------------------------------------------------- queries */

static int32_t wtr_select(const void *map, int32_t i)
{
    const wtr_map_t *m = map;
    uint32_t p = (uint32_t) i;
    int l;
    for (l = m->L - 1; l >= 0; l--) {
        wt_level_t v = wt_level(m, l);
        p = p < v.z ? wt_select(&v, p, 0) : wt_select(&v, p - v.z, 1);
    }
    return (int32_t) p;
}

static int32_t wtr_rank(const void *map, int32_t w)
{
    const wtr_map_t *m = map;
    uint32_t p = (uint32_t) w;
    int l;
    if (w < 0 || w >= m->n) {
        return GRPMAP_NOT_MEMBER;
    }
    for (l = 0; l < m->L; l++) {
        wt_level_t v = wt_level(m, l);
        uint32_t r = wt_rank1(&v, p);
        p = (v.w[p >> 6] >> (p & 63)) & 1 ? v.z + r : p - r;
    }
    return (int32_t) p;
}

/* Long ranges: replay the radix sort (n L sequential steps) instead of
 * count walks up (count L selects). */
static void wtr_iterate(const void *map, int32_t first, int32_t count, int32_t *out)
{
    const wtr_map_t *m = map;
    int32_t k, n = m->n;
    uint32_t *a = NULL, *b = NULL, *t;
    int l;
    if (0 == m->L) {
        for (k = 0; k < count; k++) {
            out[k] = first + k;
        }
        return;
    }
    if ((int64_t) count * 16 >= n && n >= 4096) {
        a = malloc(sizeof(uint32_t) * (size_t) n);
        b = malloc(sizeof(uint32_t) * (size_t) n);
    }
    if (NULL == a || NULL == b) {
        free(a);
        free(b);
        for (k = 0; k < count; k++) {
            out[k] = wtr_select(m, first + k);
        }
        return;
    }
    for (k = 0; k < n; k++) {
        a[k] = (uint32_t) k;
    }
    for (l = 0; l < m->L; l++) {
        wt_level_t v = wt_level(m, l);
        uint32_t o = 0;
        for (k = 0; k < n; k++) {
            if ((v.w[k >> 6] >> (k & 63)) & 1) {
                b[v.z + o++] = a[k];
            } else {
                b[k - o] = a[k];
            }
        }
        t = a;
        a = b;
        b = t;
    }
    for (k = 0; k < count; k++) {
        out[k] = (int32_t) a[first + k];
    }
    free(a);
    free(b);
}

static size_t wtr_bytes(const void *map)
{
    const wtr_map_t *m = map;
    return sizeof(wtr_map_t) + (size_t) m->L * m->lw * 8;
}

const grpmap_repr_t grpmap_wtr_repr = {
    .name = "wtr",
    .kind = GRPMAP_KIND_PERM,
    .select_ns = 300.0,
    GRPMAP_REPR_OPS(wtr),
};
