/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap gap: two set forms (GRPMAP_KIND_SET: increasing maps only) for
 * sparse groups, whose size depends on the members' spacing, not on the
 * world's size.  Neither declines an increasing map (n = 0 and 1
 * included, world up to 2^31 - 1: every bit position fits 32 bits).
 *
 * gap (Mir Taheri §4.1.4): every B-th member as an absolute uint32, the
 * others as (gap - 1) at k = bits(max gap - 1) bits each (0 bits for a
 * range).  B = 32 when k >= 4, 64 below (measured on 10^5 random members
 * of 10^6: B = 16 takes a third less SELECT time for 0.8 more bits a
 * member, B = 64 half as much again for 0.4 bits less).  Bytes, exactly,
 * with a = ceil(n / B):
 *   56 + 8 * (ceil((n - a) * k / 64) + 1) + 4 * a.
 * SELECT: one absolute plus the sum of at most B - 1 fields, summed a
 * 64-bit window at a time (k >= 5: odd fields folded onto even ones, one
 * multiply; k <= 4: a popcount per bit plane).  RANK: interpolation guess,
 * galloping and binary search over the absolutes, then a scan of at most
 * B - 1 fields.
 *
 * ef (Elias-Fano): the offsets x = w - min below U = max - min + 1, each
 * split into l low bits (packed, l = floor(lg(U / n)) or a neighbour when
 * that is smaller in all) and a high part x >> l written in unary: member
 * i is bit (x >> l) + i of a bit vector of H = n + ((U - 1) >> l) + 1 bits
 * (rounded up to 256), with a directory as bitmap's was (one 64-bit word
 * per 1024 bits: the ones before the block, 32 bits, and in its first 1, 2,
 * 3 quarters, 10 bits each; 3 sentinels after it) and the block of every
 * 2^s1-th one (2^s1 about 4 blocks' worth of ones, 64 .. 2^20); no zero
 * samples (RANK binary-searches the directory for its zero).  Position
 * samples, where the bytes allow: every 2^s2-th one's word and the ones
 * before it in the word (uint32), s2 = 6 or 7, the smaller that keeps the
 * map within 1.25 x lg C(U, n) bits (none else: 50,000 random of 200,000
 * has no room).
 * Data: n l + H <= n (2 + lg(U / n)) + 1 bits.  Bytes, exactly:
 *   40 + 8 * (ceil(n l / 64) + 1) + 32 * ceil(H / 256) + 8 * (ceil(H / 1024) + 3)
 *      + 4 * (ceil(n / 2^s1) + 1) [+ 4 * (ceil(n / 2^s2) + 1)]
 * (48 for n = 0): indexes of about 0.27 bits a member (50,000 of 200,000:
 * 26,072 bytes, 1.286 x lg C(N, n)), 0.25 or 0.5 more with position samples.
 * SELECT with position samples: the sample's word and the 3 after it
 * counted at once (4 popcounts, no branch), pdep or a broadword select in
 * the word; when a gap kept the one out of them (seldom; never on random
 * maps), out of line, the 4 words up to the next sample's, then as
 * without.  Without: select of one number i in the high part minus i,
 * shifted, or'ed with low field i, without a branch when the sample's
 * blocks are at most 3 apart (one sample read, 3 directory words compared
 * at once, the quarter by 3 comparisons, the word by 3 popcounts, then
 * pdep or a broadword select in the word); RANK: the select of zero number
 * (w >> l) - 1 finds w's bucket, whose lows are compared in turn.
 *
 * bitmap and ef pick, per map at build time, a SELECT and RANK compiled
 * for what the CPU has (x86-64: generic, popcnt, popcnt + pdep on Intel).
 */
#ifndef OMPI_MCA_GRPMAP_GAP_H
#define OMPI_MCA_GRPMAP_GAP_H

#include "ompi/mca/grpmap/grpmap_repr.h"

extern const grpmap_repr_t grpmap_gap_repr;
extern const grpmap_repr_t grpmap_ef_repr;

#endif
