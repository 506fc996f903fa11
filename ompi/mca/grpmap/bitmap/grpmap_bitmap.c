/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * bitmap: bit p of the array is set when min + p is a member, p from 0 to
 * max - min, the array rounded up to 512-bit sub-blocks.  blk[b] holds, for
 * 2048-bit block b, the members before it (31 bits) and those in its first
 * 1, 2 and 3 sub-blocks (11 bits each): 8 bytes a 256 bytes, as the thesis's
 * 32-bit count a 1024-bit block; BM_STEPS sentinels after it hold n.
 * samp[j] is the block of member j << s, s chosen so that a sample spans
 * about 2^BM_SAMPLE_SPAN blocks; a sentinel (the last block) ends the list.
 * SELECT narrows the block to [samp[j], samp[j + 1]] (BM_STEPS branch-free
 * comparisons made at once, a binary search first when the range is
 * longer, as with clustered members), then picks the sub-block by
 * comparisons and the word among its 8 by running popcounts, and selects
 * in the word (pdep, or broadword arithmetic and a 1 KB table).  On x86-64 (GCC or clang),
 * SELECT and RANK come in three builds, chosen per map at build time from
 * what the CPU has: generic (inline SWAR popcount: without -mpopcnt the
 * builtin is a call into libgcc), popcnt, and popcnt + BMI2's pdep for the
 * select in the word (on Intel CPUs only: AMD's before Zen 3 run pdep in
 * microcode).
 */
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/grpmap/bitmap/grpmap_bitmap.h"

#define BM_BLOCK_SHIFT 11 /* 2048-bit blocks of 4 512-bit sub-blocks */
#define BM_BLOCK_WORDS 32
#define BM_SUB_WORDS 8
#define BM_STEPS 3        /* SELECT's branch-free steps over the directory */
#define BM_SAMPLE_SPAN 2  /* a sample: about 2^2 blocks' worth of members */
#define BM_MIN_SAMPLE 6   /* one sample per 64 .. 2^20 members */
#define BM_MAX_SAMPLE 20
#define BM_COUNT_MASK 0x7fffffffull
#if defined(__GNUC__) && !defined(__clang__)
#define BM_UNROLL _Pragma("GCC unroll 8")
#elif defined(__clang__)
#define BM_UNROLL _Pragma("unroll")
#else
#define BM_UNROLL
#endif

#include "ompi/mca/grpmap/grpmap_cpu.h"
#if defined(GRPMAP_CPU_DISPATCH)
#define BM_DISPATCH 1
#endif
/* the popcount of the generic build: SWAR where the builtin may be a call */
#if defined(__x86_64__) && !defined(__POPCNT__)
#define BM_GENERIC 0
#else
#define BM_GENERIC 1
#endif

typedef struct {
    int32_t n, min;
    uint32_t nbits, nwords, nblocks, nsamp;
    int sshift, hw;
    /* w[nwords] (a multiple of 8), then uint64_t blk[nblocks + BM_STEPS],
     * then uint32_t samp[nsamp] */
    uint64_t w[];
} bm_map_t;

typedef struct {
    uint64_t nbits, nwords, nblocks, nsamp;
    int sshift;
    size_t bytes;
} bm_shape_t;

#define BM_L8 0x0101010101010101ull
#define BM_H8 0x8080808080808080ull

/* bit positions of the set bits of a byte, 3 bits each, lowest first */
static const uint32_t bm_sel8[256] = {
    0x000000, 0x000000, 0x000001, 0x000008, 0x000002, 0x000010, 0x000011, 0x000088,
    0x000003, 0x000018, 0x000019, 0x0000c8, 0x00001a, 0x0000d0, 0x0000d1, 0x000688,
    0x000004, 0x000020, 0x000021, 0x000108, 0x000022, 0x000110, 0x000111, 0x000888,
    0x000023, 0x000118, 0x000119, 0x0008c8, 0x00011a, 0x0008d0, 0x0008d1, 0x004688,
    0x000005, 0x000028, 0x000029, 0x000148, 0x00002a, 0x000150, 0x000151, 0x000a88,
    0x00002b, 0x000158, 0x000159, 0x000ac8, 0x00015a, 0x000ad0, 0x000ad1, 0x005688,
    0x00002c, 0x000160, 0x000161, 0x000b08, 0x000162, 0x000b10, 0x000b11, 0x005888,
    0x000163, 0x000b18, 0x000b19, 0x0058c8, 0x000b1a, 0x0058d0, 0x0058d1, 0x02c688,
    0x000006, 0x000030, 0x000031, 0x000188, 0x000032, 0x000190, 0x000191, 0x000c88,
    0x000033, 0x000198, 0x000199, 0x000cc8, 0x00019a, 0x000cd0, 0x000cd1, 0x006688,
    0x000034, 0x0001a0, 0x0001a1, 0x000d08, 0x0001a2, 0x000d10, 0x000d11, 0x006888,
    0x0001a3, 0x000d18, 0x000d19, 0x0068c8, 0x000d1a, 0x0068d0, 0x0068d1, 0x034688,
    0x000035, 0x0001a8, 0x0001a9, 0x000d48, 0x0001aa, 0x000d50, 0x000d51, 0x006a88,
    0x0001ab, 0x000d58, 0x000d59, 0x006ac8, 0x000d5a, 0x006ad0, 0x006ad1, 0x035688,
    0x0001ac, 0x000d60, 0x000d61, 0x006b08, 0x000d62, 0x006b10, 0x006b11, 0x035888,
    0x000d63, 0x006b18, 0x006b19, 0x0358c8, 0x006b1a, 0x0358d0, 0x0358d1, 0x1ac688,
    0x000007, 0x000038, 0x000039, 0x0001c8, 0x00003a, 0x0001d0, 0x0001d1, 0x000e88,
    0x00003b, 0x0001d8, 0x0001d9, 0x000ec8, 0x0001da, 0x000ed0, 0x000ed1, 0x007688,
    0x00003c, 0x0001e0, 0x0001e1, 0x000f08, 0x0001e2, 0x000f10, 0x000f11, 0x007888,
    0x0001e3, 0x000f18, 0x000f19, 0x0078c8, 0x000f1a, 0x0078d0, 0x0078d1, 0x03c688,
    0x00003d, 0x0001e8, 0x0001e9, 0x000f48, 0x0001ea, 0x000f50, 0x000f51, 0x007a88,
    0x0001eb, 0x000f58, 0x000f59, 0x007ac8, 0x000f5a, 0x007ad0, 0x007ad1, 0x03d688,
    0x0001ec, 0x000f60, 0x000f61, 0x007b08, 0x000f62, 0x007b10, 0x007b11, 0x03d888,
    0x000f63, 0x007b18, 0x007b19, 0x03d8c8, 0x007b1a, 0x03d8d0, 0x03d8d1, 0x1ec688,
    0x00003e, 0x0001f0, 0x0001f1, 0x000f88, 0x0001f2, 0x000f90, 0x000f91, 0x007c88,
    0x0001f3, 0x000f98, 0x000f99, 0x007cc8, 0x000f9a, 0x007cd0, 0x007cd1, 0x03e688,
    0x0001f4, 0x000fa0, 0x000fa1, 0x007d08, 0x000fa2, 0x007d10, 0x007d11, 0x03e888,
    0x000fa3, 0x007d18, 0x007d19, 0x03e8c8, 0x007d1a, 0x03e8d0, 0x03e8d1, 0x1f4688,
    0x0001f5, 0x000fa8, 0x000fa9, 0x007d48, 0x000faa, 0x007d50, 0x007d51, 0x03ea88,
    0x000fab, 0x007d58, 0x007d59, 0x03eac8, 0x007d5a, 0x03ead0, 0x03ead1, 0x1f5688,
    0x000fac, 0x007d60, 0x007d61, 0x03eb08, 0x007d62, 0x03eb10, 0x03eb11, 0x1f5888,
    0x007d63, 0x03eb18, 0x03eb19, 0x1f58c8, 0x03eb1a, 0x1f58d0, 0x1f58d1, 0xfac688,
};

static inline unsigned bm_pop_swar(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    return (unsigned) ((((x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full) * BM_L8) >> 56);
}

/* lvl (a constant where inlined): 0 SWAR, 1 the popcount builtin, 2 also pdep */
static inline __attribute__((always_inline)) unsigned bm_pop(uint64_t x, int lvl)
{
    return lvl ? (unsigned) __builtin_popcountll(x) : bm_pop_swar(x);
}

/* Position of the r-th set bit (from 0) of x; r < popcount(x). */
static inline __attribute__((always_inline)) unsigned bm_select_word(uint64_t x, unsigned r,
                                                                     int lvl)
{
    uint64_t s;
    unsigned b;
#if defined(BM_DISPATCH)
    if (lvl >= 2) {
        __asm__("pdep %2, %1, %0" : "=r"(s) : "r"(1ull << r), "r"(x));
        return (unsigned) __builtin_ctzll(s);
    }
#endif
    s = x - ((x >> 1) & 0x5555555555555555ull);
    s = (s & 0x3333333333333333ull) + ((s >> 2) & 0x3333333333333333ull);
    s = ((s + (s >> 4)) & 0x0f0f0f0f0f0f0f0full) * BM_L8; /* byte k: bits in bytes 0..k */
    /* the first byte whose running count exceeds r (byte 7's always does) */
    b = (unsigned) __builtin_ctzll(~(((uint64_t) r * BM_L8 | BM_H8) - s) & BM_H8) - 7;
    r -= (unsigned) (((s << 8) >> b) & 0xff);
    return b + ((bm_sel8[(x >> b) & 0xff] >> (3 * r)) & 7);
}

#if defined(BM_DISPATCH)
/* 0, 1 or 2 as above, for this CPU (pdep on Intel, and on AMD from Zen 3,
 * family 19h, on) */
static int bm_cpu_level(void)
{
    return grpmap_cpu_level(BM_GENERIC);
}
#endif

static int bm_shape(const grpmap_input_t *in, bm_shape_t *sh)
{
    uint64_t per;
    memset(sh, 0, sizeof(*sh));
    if (!in->increasing) {
        return GRPMAP_DECLINE;
    }
    if (in->n > 0) {
        sh->nbits = (uint64_t) ((int64_t) in->max - in->min + 1);
        if ((sh->nbits + 63) / 64 * 8 > (uint64_t) in->n * 8 + 64) {
            return GRPMAP_DECLINE;
        }
        sh->nwords = (sh->nbits + 511) / 512 * BM_SUB_WORDS;
        sh->nblocks = (sh->nwords + BM_BLOCK_WORDS - 1) / BM_BLOCK_WORDS;
        per = (uint64_t) in->n / sh->nblocks;
        sh->sshift = grpmap_bits(per) - 1 + BM_SAMPLE_SPAN;
        if (sh->sshift < BM_MIN_SAMPLE) {
            sh->sshift = BM_MIN_SAMPLE;
        } else if (sh->sshift > BM_MAX_SAMPLE) {
            sh->sshift = BM_MAX_SAMPLE;
        }
        sh->nsamp = (((uint64_t) in->n - 1) >> sh->sshift) + 2;
    }
    sh->bytes = sizeof(bm_map_t) + 8 * (sh->nwords + sh->nblocks + (in->n > 0) * BM_STEPS)
                + 4 * sh->nsamp;
    return GRPMAP_OK;
}

static size_t bm_estimate(const grpmap_input_t *in)
{
    bm_shape_t sh;
    return GRPMAP_OK == bm_shape(in, &sh) ? sh.bytes : GRPMAP_DECLINES;
}

static int bm_build(const grpmap_input_t *in, void **out)
{
    bm_shape_t sh;
    bm_map_t *m;
    uint64_t *blk, b, j;
    uint32_t *samp, c = 0;
    int32_t i;

    *out = NULL;
    if (GRPMAP_OK != bm_shape(in, &sh)) {
        return GRPMAP_DECLINE;
    }
    m = calloc(1, sh.bytes);
    if (NULL == m) {
        return GRPMAP_ENOMEM;
    }
    m->n = in->n;
    m->min = in->min;
    m->nbits = (uint32_t) sh.nbits;
    m->nwords = (uint32_t) sh.nwords;
    m->nblocks = (uint32_t) sh.nblocks;
    m->nsamp = (uint32_t) sh.nsamp;
    m->sshift = sh.sshift;
#if defined(BM_DISPATCH)
    m->hw = bm_cpu_level();
#endif
    blk = m->w + sh.nwords;
    samp = (uint32_t *) (blk + sh.nblocks + (in->n > 0) * BM_STEPS);
    for (i = 0; i < in->n; i++) {
        uint32_t p = (uint32_t) (in->ranks[i] - in->min);
        m->w[p >> 6] |= 1ull << (p & 63);
    }
    for (b = 0; b < sh.nblocks; b++) {
        uint64_t k, e = 0;
        blk[b] = c;
        for (k = 0; k < BM_BLOCK_WORDS; k++) {
            if (k > 0 && 0 == k % BM_SUB_WORDS) {
                blk[b] |= e << (31 + 11 * (k / BM_SUB_WORDS - 1));
            }
            if (b * BM_BLOCK_WORDS + k < sh.nwords) {
                e += (uint64_t) bm_pop(m->w[b * BM_BLOCK_WORDS + k], BM_GENERIC);
            }
        }
        c += (uint32_t) e;
    }
    for (j = 0; in->n > 0 && j < BM_STEPS; j++) {
        blk[sh.nblocks + j] = c;
    }
    for (j = 0; j + 1 < sh.nsamp; j++) {
        samp[j] = (uint32_t) (in->ranks[j << sh.sshift] - in->min) >> BM_BLOCK_SHIFT;
    }
    if (sh.nsamp > 0) {
        samp[sh.nsamp - 1] = (uint32_t) sh.nblocks - 1;
    }
    *out = m;
    return GRPMAP_OK;
}

/* ones in the first k sub-blocks of the block whose directory entry is bc */
static inline __attribute__((always_inline)) uint32_t bm_subcount(uint64_t bc, uint32_t k)
{
    return (uint32_t) (bc >> (20 + 11 * k)) & (2047u & (0u - (k != 0)));
}

/* Bit position of member i (inlined into each build of SELECT): its
 * sample brackets its block in [lo, hi] (blocks past hi hold more members
 * before them than i); halve a long bracket, then BM_STEPS comparisons,
 * made at once, end it; the sub-block by three comparisons, the word
 * among its 8 by the running popcounts, then the bit in the word. */
static inline __attribute__((always_inline)) uint64_t bm_position(const bm_map_t *m, uint32_t i,
                                                                  int lvl)
{
    const uint64_t *blk = m->w + m->nwords, *p;
    const uint32_t *samp = (const uint32_t *) (blk + m->nblocks + BM_STEPS);
    uint32_t j = i >> m->sshift, lo = samp[j], hi = samp[j + 1], r, sub, k, t, step = 0;
    uint32_t q[BM_SUB_WORDS - 1], c[BM_SUB_WORDS - 1], below = 0;
    uint64_t bc;

    while (hi - lo > BM_STEPS) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if ((uint32_t) (blk[mid] & BM_COUNT_MASK) <= i) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    BM_UNROLL
    for (t = 1; t <= BM_STEPS; t++) {
        step += (uint32_t) (blk[lo + t] & BM_COUNT_MASK) <= i;
    }
    lo += step;
    bc = blk[lo];
    r = i - (uint32_t) (bc & BM_COUNT_MASK);
    sub = (r >= bm_subcount(bc, 1)) + (r >= bm_subcount(bc, 2)) + (r >= bm_subcount(bc, 3));
    r -= bm_subcount(bc, sub);
    p = m->w + (size_t) lo * BM_BLOCK_WORDS + sub * BM_SUB_WORDS;
    BM_UNROLL
    for (k = 0; k < BM_SUB_WORDS - 1; k++) {
        q[k] = bm_pop(p[k], lvl);
    }
    c[0] = q[0]; /* running counts, summed as a tree */
    c[1] = q[0] + q[1];
    c[2] = c[1] + q[2];
    c[3] = c[1] + (q[2] + q[3]);
    c[4] = c[3] + q[4];
    c[5] = c[3] + (q[4] + q[5]);
    c[6] = c[5] + q[6];
    sub = 0;
    BM_UNROLL
    for (k = 0; k < BM_SUB_WORDS - 1; k++) {
        uint32_t in = r >= c[k];
        sub += in;
        below += q[k] & (0u - in);
    }
    r -= below;
    return (uint64_t) (p + sub - m->w) * 64 + bm_select_word(p[sub], r, lvl);
}

static inline __attribute__((always_inline)) int32_t bm_rank_body(const bm_map_t *m, int32_t w,
                                                                   int lvl)
{
    const uint64_t *blk = m->w + m->nwords, *q;
    int64_t d = (int64_t) w - m->min;
    uint32_t p, sub, t, k, c;
    uint64_t bc;

    if (d < 0 || d >= (int64_t) m->nbits) {
        return GRPMAP_NOT_MEMBER;
    }
    p = (uint32_t) d;
    q = m->w + (p >> 9) * BM_SUB_WORDS; /* its sub-block */
    t = (p >> 6) & (BM_SUB_WORDS - 1);   /* its word there */
    if (!((q[t] >> (p & 63)) & 1)) {
        return GRPMAP_NOT_MEMBER;
    }
    sub = (p >> 9) & 3;
    bc = blk[p >> BM_BLOCK_SHIFT];
    c = (uint32_t) (bc & BM_COUNT_MASK) + bm_subcount(bc, sub);
    BM_UNROLL
    for (k = 0; k < BM_SUB_WORDS - 1; k++) {
        c += bm_pop(q[k], lvl) & (0u - (k < t));
    }
    return (int32_t) (c + bm_pop(q[t] & ((1ull << (p & 63)) - 1), lvl));
}

#if defined(BM_DISPATCH)
__attribute__((target("popcnt"))) static uint64_t bm_position_1(const bm_map_t *m, uint32_t i)
{
    return bm_position(m, i, 1);
}

__attribute__((target("popcnt"))) static uint64_t bm_position_2(const bm_map_t *m, uint32_t i)
{
    return bm_position(m, i, 2);
}

__attribute__((target("popcnt"))) static int32_t bm_rank_1(const bm_map_t *m, int32_t w)
{
    return bm_rank_body(m, w, 1);
}
#endif

static int32_t bm_select(const void *map, int32_t i)
{
    const bm_map_t *m = map;
#if defined(BM_DISPATCH)
    if (2 == m->hw) {
        return m->min + (int32_t) bm_position_2(m, (uint32_t) i);
    }
    if (1 == m->hw) {
        return m->min + (int32_t) bm_position_1(m, (uint32_t) i);
    }
#endif
    return m->min + (int32_t) bm_position(m, (uint32_t) i, BM_GENERIC);
}

static int32_t bm_rank(const void *map, int32_t w)
{
    const bm_map_t *m = map;
#if defined(BM_DISPATCH)
    if (m->hw) {
        return bm_rank_1(m, w);
    }
#endif
    return bm_rank_body(m, w, BM_GENERIC);
}

static void bm_iterate(const void *map, int32_t first, int32_t count, int32_t *out)
{
    const bm_map_t *m = map;
    uint64_t pos, wi, x;
    int32_t k;

    if (count <= 0) {
        return;
    }
    pos = bm_position(m, (uint32_t) first, BM_GENERIC);
    wi = pos >> 6;
    x = m->w[wi] & (~0ull << (pos & 63));
    for (k = 0; k < count; k++) {
        while (0 == x) {
            x = m->w[++wi];
        }
        out[k] = m->min + (int32_t) (wi * 64 + (uint64_t) __builtin_ctzll(x));
        x &= x - 1;
    }
}

static size_t bm_bytes(const void *map)
{
    const bm_map_t *m = map;
    return sizeof(bm_map_t) + 8 * ((size_t) m->nwords + m->nblocks + (m->n > 0) * BM_STEPS)
           + 4 * (size_t) m->nsamp;
}

const grpmap_repr_t grpmap_bitmap_repr = {
    .name = "bitmap",
    .kind = GRPMAP_KIND_SET,
    .select_ns = 13.0,
    .estimate = bm_estimate,
    .build = bm_build,
    .select = bm_select,
    .rank = bm_rank,
    .iterate = bm_iterate,
    .bytes = bm_bytes,
    .release = free,
};
