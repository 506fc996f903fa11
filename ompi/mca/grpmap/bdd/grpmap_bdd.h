/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap bdd (Mir Taheri §4.1.2): an increasing map (GRPMAP_KIND_SET) as the
 * Boolean function "w is a member" of the b world-rank bits (b = bits of
 * world - 1, at least 1), built with BuDDy and kept only as its p paths to
 * true, disjoint cubes of 2 bits a variable (a b-bit "specified" mask and a
 * b-bit value per path, packed).  Bytes: 16 + 8 * words(2p fields of b
 * bits), plus 8 * words(b fields of bits(n) bits) of counts when p > 1 and
 * the paths' spans overlap; one path (a matrix row or column, evens, a
 * mesh face) is 32 bytes.  SELECT: O(1) deposit for one path, O(p) scan
 * when the spans are disjoint ("ordered": ranges, random sets), else
 * Mir Taheri's bit walk, O(p * specified bits); RANK and iterate's first step
 * O(p); iterate O(1) a member for one path or ordered paths, O(log p)
 * otherwise.  Declines unordered maps, maps whose BDD needs more than
 * max_nodes nodes (BuDDy's node ceiling or the count of nodes the build
 * made), and maps with more than max_paths paths: every SELECT and RANK
 * of an unordered-span map reads all p paths (4096 paths sharing X bits:
 * ~70 us a SELECT, ~30 us a RANK on a 2020s x86 core, 20 paths: < 1 us).
 * No BuDDy node outlives build; BuDDy itself (global, not thread-safe,
 * every use under one mutex) keeps a ~2 MB node table between builds,
 * given back by grpmap_bdd_finalize or after a build that grew it.
 */
#ifndef OMPI_MCA_GRPMAP_BDD_H
#define OMPI_MCA_GRPMAP_BDD_H

#include "ompi/mca/grpmap/grpmap_repr.h"

#define GRPMAP_BDD_DEFAULT_MAX_NODES 1000000
#define GRPMAP_BDD_DEFAULT_MAX_PATHS 4096

extern const grpmap_repr_t grpmap_bdd_repr;

/* Limits for the builds that follow; a value < 1 restores its default. */
void grpmap_bdd_set_limits(int max_nodes, int max_paths);

/* bdd_done() when BuDDy was initialised (a later build initialises it
 * again).  Call when no build is running. */
void grpmap_bdd_finalize(void);

/* Number of paths to true a map built by grpmap_bdd_repr holds. */
int32_t grpmap_bdd_paths(const void *map);

#endif
