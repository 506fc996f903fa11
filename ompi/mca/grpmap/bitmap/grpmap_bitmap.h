/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap bitmap (Mir Taheri §4.1.3): an increasing map (GRPMAP_KIND_SET) as the
 * bits from its first to its last member (L = max - min + 1 bits, rounded
 * up to 512), a directory of one 64-bit word per 2048-bit block (members
 * before the block, 31 bits, and in its first 1, 2, 3 quarters, 11 bits
 * each: Mir Taheri's one 32-bit count per 1024 bits, 3.1 %) with 3
 * sentinels, and a select index (the block of every 2^s-th member, 2^s
 * about 4 blocks' worth of members, 64 <= 2^s <= 2^20).  Bytes, exactly:
 *   32 + 64 * ceil(L / 512) + 8 * (ceil(L / 2048) + 3) + 4 * (ceil(n / 2^s) + 1)
 * (32 for n = 0): about L / 8 * 1.031 + 4 n / 2^s.
 * SELECT: O(1) for evenly spread members (a sample, 3 directory words
 * compared at once, a binary search only when one sample spans more than
 * 3 blocks, then the quarter by 3 comparisons, the word by 7 popcounts and
 * a select in one word); RANK: O(1) (one bit, one directory word, at most
 * 8 popcounts).
 * Limits: declines maps that are not increasing, and maps whose bit array
 * would exceed 8 bytes a member + 64 (8 * ceil(L / 64) > 8 n + 64): a
 * table of 8-byte entries would then be smaller, and a few members far
 * apart cannot blow the memory up (2 members 2^31 apart would take 256 MB).
 * Below that any map of a world up to 2^31 - 1 is held.
 */
#ifndef OMPI_MCA_GRPMAP_BITMAP_H
#define OMPI_MCA_GRPMAP_BITMAP_H

#include "ompi/mca/grpmap/grpmap_repr.h"

extern const grpmap_repr_t grpmap_bitmap_repr;

#endif
