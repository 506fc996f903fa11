/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Select (and rank's counts) over a bit vector of 64-bit words: the core
 * of bitmap (its members' bits) and ef (its high part).  Plain C, like
 * grpmap_repr.h.
 *
 * In one word, at the CPU levels of grpmap_cpu.h (lvl: a constant wherever
 * these are inlined, so each build of SELECT and RANK gets its own code):
 * popcount by SWAR (0) or the builtin (1, 2); the r-th set bit by pdep (2)
 * or broadword arithmetic and a 1 KB table (0, 1).
 *
 * Over the vector, a directory of one 64-bit word per block of 2^shift
 * bits (shift 10 or 11; 4 sub-blocks of 2^(shift - 8) words): the ones
 * before the block in its low 42 - shift bits, then those in its first 1,
 * 2 and 3 sub-blocks, shift bits each; GRPMAP_BV_STEPS sentinels after the
 * last block hold the total.  Samples (the block of every 2^s-th one, the
 * last block as a sentinel at the end) bracket the block of a one.
 */
#ifndef OMPI_MCA_GRPMAP_BITVEC_H
#define OMPI_MCA_GRPMAP_BITVEC_H

#include <stdint.h>

#include "ompi/mca/grpmap/grpmap_cpu.h"
#include "ompi/mca/grpmap/grpmap_repr.h"

#if defined(__GNUC__) && !defined(__clang__)
#define GRPMAP_UNROLL _Pragma("GCC unroll 8")
#elif defined(__clang__)
#define GRPMAP_UNROLL _Pragma("unroll")
#else
#define GRPMAP_UNROLL
#endif

#define GRPMAP_BV_STEPS 3        /* SELECT's branch-free steps over the directory */
#define GRPMAP_BV_SAMPLE_SPAN 2  /* a sample: about 2^2 blocks' worth of ones */
#define GRPMAP_BV_MIN_SAMPLE 6   /* one sample per 64 .. 2^20 ones */
#define GRPMAP_BV_MAX_SAMPLE 20
#define GRPMAP_BV_BLOCK_WORDS(shift) (1u << ((shift) - 6))
#define GRPMAP_BV_SUB_WORDS(shift) (1u << ((shift) - 8))

#define GRPMAP_L8 0x0101010101010101ull
#define GRPMAP_H8 0x8080808080808080ull

/* bit positions of the set bits of a byte, 3 bits each, lowest first */
static const uint32_t grpmap_sel8[256] = {
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

static inline unsigned grpmap_pop_swar(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    return (unsigned) ((((x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full) * GRPMAP_L8) >> 56);
}

/* lvl: 0 SWAR, 1 the popcount builtin, 2 also pdep */
static inline __attribute__((always_inline)) unsigned grpmap_pop(uint64_t x, int lvl)
{
    return lvl ? (unsigned) __builtin_popcountll(x) : grpmap_pop_swar(x);
}

/* Position of the r-th set bit (from 0) of x; r < popcount(x). */
static inline __attribute__((always_inline)) unsigned
grpmap_select_word(uint64_t x, unsigned r, int lvl)
{
    uint64_t s;
    unsigned b;
#if defined(GRPMAP_CPU_DISPATCH)
    if (lvl >= 2) {
        __asm__("pdep %2, %1, %0" : "=r"(s) : "r"(1ull << r), "r"(x));
        return (unsigned) __builtin_ctzll(s);
    }
#else
    (void) lvl;
#endif
    s = x - ((x >> 1) & 0x5555555555555555ull);
    s = (s & 0x3333333333333333ull) + ((s >> 2) & 0x3333333333333333ull);
    s = ((s + (s >> 4)) & 0x0f0f0f0f0f0f0f0full) * GRPMAP_L8; /* byte k: bits in bytes 0..k */
    /* the first byte whose running count exceeds r (byte 7's always does) */
    b = (unsigned) __builtin_ctzll(~(((uint64_t) r * GRPMAP_L8 | GRPMAP_H8) - s) & GRPMAP_H8) - 7;
    r -= (unsigned) (((s << 8) >> b) & 0xff);
    return b + ((grpmap_sel8[(x >> b) & 0xff] >> (3 * r)) & 7);
}

/* s of the samples of n ones in nblocks blocks (both > 0): a sample every
 * 2^s ones, about 2^GRPMAP_BV_SAMPLE_SPAN blocks' worth */
static inline int grpmap_bv_sample_shift(uint64_t n, uint64_t nblocks)
{
    int s = grpmap_bits(n / nblocks) - 1 + GRPMAP_BV_SAMPLE_SPAN;
    return s < GRPMAP_BV_MIN_SAMPLE ? GRPMAP_BV_MIN_SAMPLE
           : s > GRPMAP_BV_MAX_SAMPLE ? GRPMAP_BV_MAX_SAMPLE : s;
}

/* Fills the directory blk[0 .. nblocks) of words[0 .. nwords) (nblocks >
 * 0) and its sentinels. */
static inline void grpmap_bv_build(uint64_t *blk, const uint64_t *words, uint64_t nwords,
                                   uint64_t nblocks, int shift)
{
    const uint64_t bw = GRPMAP_BV_BLOCK_WORDS(shift), sw = GRPMAP_BV_SUB_WORDS(shift);
    uint64_t b, k, ones = 0;
    for (b = 0; b < nblocks; b++) {
        uint64_t e = 0;
        blk[b] = ones;
        for (k = 0; k < bw; k++) {
            if (k > 0 && 0 == k % sw) {
                blk[b] |= e << (42 - shift + shift * (int) (k / sw - 1));
            }
            if (b * bw + k < nwords) {
                e += grpmap_pop(words[b * bw + k], GRPMAP_CPU_GENERIC);
            }
        }
        ones += e;
    }
    for (k = 0; k < GRPMAP_BV_STEPS; k++) {
        blk[nblocks + k] = ones;
    }
}

/* The ones before the block whose directory entry is bc. */
static inline __attribute__((always_inline)) uint64_t grpmap_bv_ones(uint64_t bc, int shift)
{
    return bc & (~0ull >> (22 + shift));
}

/* Ones (zero == 0) or zeros (zero == 1) before block b */
static inline __attribute__((always_inline)) uint64_t
grpmap_bv_before(const uint64_t *blk, uint64_t b, int shift, int zero)
{
    uint64_t ones = grpmap_bv_ones(blk[b], shift);
    return zero ? (b << shift) - ones : ones;
}

/* and in the first k sub-blocks of the block whose directory entry is bc */
static inline __attribute__((always_inline)) uint32_t
grpmap_bv_sub(uint64_t bc, uint32_t k, int shift, int zero)
{
    uint32_t ones = (uint32_t) (bc >> (42 - 2 * shift + shift * (int) k))
                    & (((1u << shift) - 1) & (0u - (k != 0)));
    return zero ? (1u << (shift - 2)) * k - ones : ones;
}

/* Position in words of bit r (from 0) among the ones (zero == 0) or zeros
 * (zero == 1) of block b, whose directory entry is bc: the sub-block by
 * three comparisons, the word in it by the running popcounts, then the
 * bit in the word; no branches. */
static inline __attribute__((always_inline)) uint64_t
grpmap_bv_in_block(const uint64_t *words, uint64_t b, uint64_t bc, uint32_t r, int shift, int zero,
                   int lvl)
{
    const uint64_t flip = zero ? ~0ull : 0, *p;
    const uint32_t sw = GRPMAP_BV_SUB_WORDS(shift);
    uint32_t sub, k, q[7], c[7], below = 0;

    sub = (r >= grpmap_bv_sub(bc, 1, shift, zero)) + (r >= grpmap_bv_sub(bc, 2, shift, zero))
          + (r >= grpmap_bv_sub(bc, 3, shift, zero));
    r -= grpmap_bv_sub(bc, sub, shift, zero);
    p = words + b * GRPMAP_BV_BLOCK_WORDS(shift) + sub * sw;
    /* word k is the number of running counts (after words 0 .. t) <= r;
     * the bits before it, the sum of the counts of those words (the
     * running counts summed as a tree: a short dependence chain) */
    GRPMAP_UNROLL
    for (k = 0; k < sw - 1; k++) {
        q[k] = grpmap_pop(p[k] ^ flip, lvl);
    }
    c[0] = q[0];
    c[1] = q[0] + q[1];
    c[2] = c[1] + q[2];
    if (8 == sw) {
        c[3] = c[1] + (q[2] + q[3]);
        c[4] = c[3] + q[4];
        c[5] = c[3] + (q[4] + q[5]);
        c[6] = c[5] + q[6];
    }
    sub = 0;
    GRPMAP_UNROLL
    for (k = 0; k < sw - 1; k++) {
        uint32_t in = r >= c[k];
        sub += in;
        below += q[k] & (0u - in);
    }
    r -= below;
    return (uint64_t) (p + sub - words) * 64 + grpmap_select_word(p[sub] ^ flip, r, lvl);
}

/* Position in words of one number i: sample i >> s brackets its block in
 * [lo, hi] (blocks past hi hold more ones before them than i); halve a
 * long bracket, then GRPMAP_BV_STEPS comparisons, made at once, end it
 * (the sentinels hold the total), then grpmap_bv_in_block. */
static inline __attribute__((always_inline)) uint64_t
grpmap_bv_select(const uint64_t *words, const uint64_t *blk, const uint32_t *samp, int s,
                 uint32_t i, int shift, int lvl)
{
    uint32_t j = i >> s, lo = samp[j], hi = samp[j + 1], t, step = 0;
    uint64_t bc;

    while (hi - lo > GRPMAP_BV_STEPS) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if ((uint32_t) grpmap_bv_ones(blk[mid], shift) <= i) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    GRPMAP_UNROLL
    for (t = 1; t <= GRPMAP_BV_STEPS; t++) {
        step += (uint32_t) grpmap_bv_ones(blk[lo + t], shift) <= i;
    }
    bc = blk[lo + step];
    return grpmap_bv_in_block(words, lo + step, bc, i - (uint32_t) grpmap_bv_ones(bc, shift),
                              shift, 0, lvl);
}

#endif /* OMPI_MCA_GRPMAP_BITVEC_H */
