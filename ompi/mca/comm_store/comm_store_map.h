/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Storage of the communicator of every context id (CID): the associative
 * array behind ompi_comm_lookup(cid).  Three interchangeable
 * implementations (Bosilca et al., "Trade-offs in Context Identifier
 * Allocation in MPI", sections 3.3 and 4):
 *
 *   flat    a growable pointer array indexed by the CID (today's Open MPI);
 *           cheapest lookup, memory proportional to the highest CID.
 *   rbtree  a red-black tree keyed by the CID: density 1 (one node per
 *           entry), lookup walks up to 2*log2(n) nodes.
 *   radix   a 4-level array indexed by the CID's bytes (b3 = top byte ...
 *           b0 = leaf index), 256-entry chunks with a count of non-empty
 *           slots; a chunk whose count drops to 0 is unlinked at once.
 *
 * The modules are standalone C99 (libc and GCC __atomic builtins only) so
 * that they can be unit-tested without OPAL; the MCA glue wraps them.
 *
 * Return codes: insert 0, -1 when the cid is present (or ptr is NULL, which
 * could not be told from absence), -2 when memory (or, for flat, the
 * COMM_STORE_FLAT_MAX_CIDS limit) runs out -- the map is then unchanged.
 * remove 0 or -1 when absent.  next, lowest_free, highest: 0 or -1.
 *
 * ---- Concurrency contract -------------------------------------------------
 *
 * Writers -- insert, remove, next, lowest_free, highest, stats, destroy and
 * the *_check debug functions -- must be serialized by the caller (the
 * communicator mutex).  Only `lookup` is lock-free: any number of threads
 * may call it at any time, concurrently with one writer, without a lock.
 * lookup never reads freed memory and never returns a pointer for a cid
 * that was not mapped to that pointer at some moment during the call; a
 * lookup racing an insert or remove of the same cid returns the old value
 * or the new one.  insert publishes ptr with release ordering and lookup
 * loads it with acquire ordering, so an object initialized before insert()
 * is seen initialized by the thread that looked it up.  destroy must not
 * race lookups (the caller quiesces them first, as for any object).
 *
 * How each implementation keeps that promise:
 *
 *   flat    Each slot is one word, so a lookup reads one atomic value and
 *           needs no validation.  Growth copies into a doubled array and
 *           publishes it (array pointer, then capacity, both with release
 *           stores; lookup loads capacity with acquire, then the array).
 *           The old array is never freed while the map lives: it goes on a
 *           retire list freed by destroy (with doubling, all retired arrays
 *           together are smaller than the current one) and is never written
 *           again, so a lookup still reading it returns the value the cid
 *           had when the array was replaced, a moment within the lookup.
 *
 *   rbtree, radix
 *           A sequence lock (comm_store_seqlock.h): every mutation runs
 *           between a bump of the counter to odd and a bump back to even;
 *           lookup retries when the counter was odd or changed meanwhile,
 *           so a result is only returned from a snapshot no writer touched.
 *           Type-stable memory makes the optimistic traversal safe: a
 *           removed tree node, or an emptied chunk, goes to a per-map pool
 *           reused by later inserts and is returned to libc only by
 *           destroy.  Pools are kept per kind (tree nodes; radix level-2,
 *           level-1 and leaf chunks separately), so every pointer a reader
 *           can load is NULL or points to an object of the kind it
 *           expects -- never to a user pointer or to freed memory -- even
 *           when the node or chunk was recycled under it.  A recycled tree
 *           node can form a cycle on a stale path, so tree lookups stop
 *           after COMM_STORE_RBTREE_MAX_DEPTH nodes (a valid tree of 2^32
 *           nodes is at most 64 deep) and retry through the seqlock; radix
 *           lookups are at most 4 loads by construction.
 *           radix shortcut: the map header also holds low[256], a copy of
 *           the slots of the level-2 chunk of b3 == 0 (low[b2] is the
 *           level-1 chunk of prefix (0, b2), or NULL), stored by the writer
 *           inside the write section that links or unlinks such a level-1
 *           chunk.  A lookup of a cid < 2^24 (all CIDs of ob1, whose CIDs
 *           are < 65536, and the whole range flat can hold) reads low[b2]
 *           -> level-1 slot[b1] -> leaf slot[b0], 3 loads instead of 4;
 *           larger cids walk from top[b3].  The cache is validated by the
 *           same seqlock as the walk; it changes nothing else (chunks,
 *           counts and unlinking are the 4-level structure's).
 *           rbtree hint: the map remembers the node of a recent successful
 *           lookup (stored by readers with a release store, only when it
 *           changes, on a cache line of its own; cleared by remove when it
 *           is the removed node).  A lookup first reads hint->key and
 *           hint->value and returns the value if the key is the cid, the
 *           value is non-NULL and the seqlock counter did not change;
 *           otherwise it walks the tree.  This is safe whatever the hint
 *           points to, because a node's value is non-NULL exactly while
 *           the node is in the tree (insert sets it and remove clears it
 *           inside their write sections), and a key is in the tree at most
 *           once: a stale hint -- e.g. one a reader stores just after a
 *           remove of that node -- points to a pooled node (value NULL) or
 *           to a node reused for another key, and only costs a miss.  A
 *           run of lookups of the same cid (one communicator in use) costs
 *           a few loads instead of a walk.
 *           Every field a reader loads (root, child links, keys, values,
 *           slots, radix's low[], the counter) is written by the writer with
 *           __atomic_store_n(RELEASE) and read with __atomic_load_n(ACQUIRE)
 *           (plain moves on x86), which both orders the seqlock without
 *           standalone fences (unsupported by ThreadSanitizer) and keeps
 *           the code free of data races.  rbtree's hint is the one field
 *           readers write (atomic stores; the writer's clear is atomic too).
 *           Pools are never trimmed while readers may run: the memory held
 *           is that of the peak number of entries (rbtree) or chunks
 *           (radix).  In exclusive mode (set_exclusive, single-threaded
 *           processes) nothing is pooled or retired: memory is freed the
 *           moment it leaves the structure.  Readers can be
 *           starved by a continuous stream of writes; CID changes are rare.
 *
 * ---- Statistics -----------------------------------------------------------
 *
 *   live    entries present.
 *   bytes   bytes requested from malloc and not yet freed: map header,
 *           arrays (flat: current + retired + its writer-only presence
 *           bitmap), nodes and chunks, pooled ones included.
 *   cells   slots of the structure that can hold an entry (the paper's
 *           density denominator).  flat: array capacity; rbtree: nodes in
 *           the tree, i.e. live (density 1; pooled nodes appear only in
 *           bytes); radix: 256 * linked leaf chunks, the
 *           paper's density denominator (pooled chunks appear only in
 *           bytes: pooled bytes = bytes - header - chunks * chunk size).
 *   chunks  radix: level-2, level-1 and leaf chunks currently linked (the
 *           top-level 256-pointer array and the low[] shortcut live in the
 *           map header and are not counted, so an empty map has 0 chunks);
 *           flat, rbtree: 0.
 */

#ifndef MCA_COMM_STORE_MAP_H
#define MCA_COMM_STORE_MAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque.  Each implementation keeps its own state behind this pointer;
 * the struct itself is never defined. */
typedef struct comm_store_map comm_store_map_t;

typedef struct {
    size_t live;        /* entries present */
    size_t bytes;       /* bytes currently held by the structure (all allocations incl. pools) */
    size_t cells;       /* allocated slots that can hold an entry (flat: array capacity; rbtree: nodes in the tree (== live); radix: 256 * leaf chunks) */
    size_t chunks;      /* radix: leaf+interior chunks currently linked; others 0 */
} comm_store_map_stats_t;

typedef struct comm_store_map_ops {
    const char *name;
    comm_store_map_t *(*create)(void);
    void (*destroy)(comm_store_map_t *m);          /* frees everything */
    int (*insert)(comm_store_map_t *m, uint32_t cid, void *ptr);  /* 0; -1 exists; -2 no memory; ptr != NULL */
    int (*remove)(comm_store_map_t *m, uint32_t cid);             /* 0; -1 not present */
    void *(*lookup)(const comm_store_map_t *m, uint32_t cid);     /* NULL if absent; see concurrency */
    int (*next)(const comm_store_map_t *m, uint32_t from, uint32_t *cid, void **ptr); /* smallest present cid >= from: 0, or -1 none */
    int (*lowest_free)(const comm_store_map_t *m, uint32_t from, uint32_t *cid); /* smallest absent cid >= from: 0, or -1 none (all taken up to UINT32_MAX) */
    int (*highest)(const comm_store_map_t *m, uint32_t *cid);     /* largest present cid: 0, or -1 empty */
    void (*stats)(const comm_store_map_t *m, comm_store_map_stats_t *s);
    /* on != 0: no lookup ever runs beside a writer (the process runs no
     * MPI threads), so memory leaving the structure (flat: a replaced
     * array; rbtree: a removed node; radix: an emptied chunk) is freed at
     * once and the pools are emptied; 0 (after create): it is kept for
     * lock-free readers until destroy.  Switch it on only while no reader
     * runs; switching it off is always safe. */
    void (*set_exclusive)(comm_store_map_t *m, int on);
} comm_store_map_ops_t;

extern const comm_store_map_ops_t comm_store_flat_ops, comm_store_rbtree_ops, comm_store_radix_ops;

/* The function members of an implementation's ops table, named after one
 * prefix: COMM_STORE_MAP_OPS(comm_store_flat) is .create =
 * comm_store_flat_create, .destroy = comm_store_flat_destroy, and so on
 * for insert, remove, lookup, next, lowest_free, highest, stats and
 * set_exclusive.  Each implementation defines its table with it:
 *   const comm_store_map_ops_t comm_store_flat_ops = {
 *       .name = "flat", COMM_STORE_MAP_OPS(comm_store_flat)};
 */
#define COMM_STORE_MAP_OPS(p)                                                           \
    .create = p##_create, .destroy = p##_destroy, .insert = p##_insert,                 \
    .remove = p##_remove, .lookup = p##_lookup, .next = p##_next,                       \
    .lowest_free = p##_lowest_free, .highest = p##_highest, .stats = p##_stats,         \
    .set_exclusive = p##_set_exclusive

/* flat indexes an array by the cid, so it stores cids below this bound
 * only (2^24 slots = 128 MiB of pointers); insert of a larger cid returns
 * -2.  Sparse 32-bit CIDs (Highest-CID allocation) need rbtree or radix. */
#define COMM_STORE_FLAT_MAX_CIDS (UINT32_C(1) << 24)

/* Longest path a tree lookup follows before retrying (see above). */
#define COMM_STORE_RBTREE_MAX_DEPTH 66

/* Debug: verify every structural invariant (writer side: serialize with
 * the writers).  0 when consistent; otherwise prints the first violation
 * to stderr and returns -1.
 *   flat:   live == non-empty slots, cached highest correct, capacity a
 *           power of two within the limit, byte count of current + retired.
 *   rbtree: root black with no parent, no red node with a red child, equal
 *           black height on every path, strict BST order of the keys,
 *           parent links, node count == live, pool length == pooled
 *           count, depth <= the lookup bound, pooled nodes hold NULL
 *           values, the hint is NULL, a node of the tree or a pooled node.
 *   radix:  every linked chunk sits at the level it was made for, its
 *           count equals its non-empty slots and is > 0 (no linked empty
 *           chunk), leaf entries == live, linked chunks == chunks stat,
 *           pooled chunks are all-NULL with count 0 and in the pool of
 *           their level, the shortcut low[b2] equals top[0]->slot[b2] (NULL
 *           when top[0] is) for every b2. */
/* Inside a check function: report a violation of comm_store_<impl>_check
 * (impl a string literal, then a printf format and its arguments) on
 * stderr and return -1. */
#define COMM_STORE_CHECK_FAIL(impl, ...)                                          \
    do {                                                                          \
        fprintf(stderr, "comm_store_" impl "_check: " __VA_ARGS__);               \
        fputc('\n', stderr);                                                      \
        return -1;                                                                \
    } while (0)
int comm_store_flat_check(const comm_store_map_t *m);
int comm_store_rbtree_check(const comm_store_map_t *m);
int comm_store_radix_check(const comm_store_map_t *m);

#ifdef __cplusplus
}
#endif

#endif /* MCA_COMM_STORE_MAP_H */
