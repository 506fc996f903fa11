/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * bitmap: bit p of the array is set when min + p is a member, p from 0 to
 * max - min, the array rounded up to 512-bit sub-blocks.  blk[b] holds, for
 * 2048-bit block b, the members before it (31 bits) and those in its first
 * 1, 2 and 3 sub-blocks (11 bits each): 8 bytes a 256 bytes, as Mir Taheri's
 * 32-bit count a 1024-bit block; BM_STEPS sentinels after it hold n.
 * samp[j] is the block of member j << s, s chosen so that a sample spans
 * about 4 blocks; a sentinel (the last block) ends the list.  SELECT
 * narrows the block to [samp[j], samp[j + 1]] (BM_STEPS branch-free
 * comparisons made at once, a binary search first when the range is
 * longer, as with clustered members), then picks the sub-block by
 * comparisons and the word among its 8 by running popcounts, and selects
 * in the word (pdep, or broadword arithmetic and a 1 KB table).  The
 * layout and SELECT are ef's too (grpmap_bitvec.h).  On x86-64 (GCC or clang),
 * SELECT and RANK come in three builds, chosen per map at build time from
 * what the CPU has: generic (inline SWAR popcount: without -mpopcnt the
 * builtin is a call into libgcc), popcnt, and popcnt + BMI2's pdep for the
 * select in the word (on Intel CPUs only: AMD's before Zen 3 run pdep in
 * microcode).
 */
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/grpmap/bitmap/grpmap_bitmap.h"
#include "ompi/mca/grpmap/grpmap_bitvec.h"

#define BM_BLOCK_SHIFT 11 /* 2048-bit blocks of 4 512-bit sub-blocks */
#define BM_BLOCK_WORDS GRPMAP_BV_BLOCK_WORDS(BM_BLOCK_SHIFT)
#define BM_SUB_WORDS GRPMAP_BV_SUB_WORDS(BM_BLOCK_SHIFT)
#define BM_STEPS GRPMAP_BV_STEPS
#define bm_release free /* a map is one block */

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

static int bm_shape(const grpmap_input_t *in, bm_shape_t *sh)
{
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
        sh->sshift = grpmap_bv_sample_shift((uint64_t) in->n, sh->nblocks);
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
    uint64_t *blk, j;
    uint32_t *samp;
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
#if defined(GRPMAP_CPU_DISPATCH)
    m->hw = grpmap_cpu_level();
#endif
    blk = m->w + sh.nwords;
    samp = (uint32_t *) (blk + sh.nblocks + (in->n > 0) * BM_STEPS);
    for (i = 0; i < in->n; i++) {
        uint32_t p = (uint32_t) (in->ranks[i] - in->min);
        m->w[p >> 6] |= 1ull << (p & 63);
    }
    if (in->n > 0) {
        grpmap_bv_build(blk, m->w, sh.nwords, sh.nblocks, BM_BLOCK_SHIFT);
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

/* Bit position of member i (inlined into each build of SELECT) */
static inline __attribute__((always_inline)) uint64_t bm_position(const bm_map_t *m, uint32_t i,
                                                                  int lvl)
{
    const uint64_t *blk = m->w + m->nwords;
    const uint32_t *samp = (const uint32_t *) (blk + m->nblocks + BM_STEPS);
    return grpmap_bv_select(m->w, blk, samp, m->sshift, i, BM_BLOCK_SHIFT, lvl);
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
    c = (uint32_t) grpmap_bv_ones(bc, BM_BLOCK_SHIFT) + grpmap_bv_sub(bc, sub, BM_BLOCK_SHIFT, 0);
    GRPMAP_UNROLL
    for (k = 0; k < BM_SUB_WORDS - 1; k++) {
        c += grpmap_pop(q[k], lvl) & (0u - (k < t));
    }
    return (int32_t) (c + grpmap_pop(q[t] & ((1ull << (p & 63)) - 1), lvl));
}

#if defined(GRPMAP_CPU_DISPATCH)
#define BM_POPCNT __attribute__((target("popcnt")))
GRPMAP_CPU_BUILD(BM_POPCNT, uint64_t, bm_position_1, bm_map_t, uint32_t, bm_position, 1)
GRPMAP_CPU_BUILD(BM_POPCNT, uint64_t, bm_position_2, bm_map_t, uint32_t, bm_position, 2)
GRPMAP_CPU_BUILD(BM_POPCNT, int32_t, bm_rank_1, bm_map_t, int32_t, bm_rank_body, 1)
#endif

static int32_t bm_select(const void *map, int32_t i)
{
    const bm_map_t *m = map;
#if defined(GRPMAP_CPU_DISPATCH)
    if (2 == m->hw) {
        return m->min + (int32_t) bm_position_2(m, (uint32_t) i);
    }
    if (1 == m->hw) {
        return m->min + (int32_t) bm_position_1(m, (uint32_t) i);
    }
#endif
    return m->min + (int32_t) bm_position(m, (uint32_t) i, GRPMAP_CPU_GENERIC);
}

static int32_t bm_rank(const void *map, int32_t w)
{
    const bm_map_t *m = map;
#if defined(GRPMAP_CPU_DISPATCH)
    if (m->hw) {
        return bm_rank_1(m, w);
    }
#endif
    return bm_rank_body(m, w, GRPMAP_CPU_GENERIC);
}

static void bm_iterate(const void *map, int32_t first, int32_t count, int32_t *out)
{
    const bm_map_t *m = map;
    uint64_t pos, wi, x;
    int32_t k;

    if (count <= 0) {
        return;
    }
    pos = bm_position(m, (uint32_t) first, GRPMAP_CPU_GENERIC);
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
    GRPMAP_REPR_OPS(bm),
};
