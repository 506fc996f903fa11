/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * comm_store rbtree: a red-black tree keyed by the cid (insert and delete
 * fix-ups after Cormen et al., with NULL leaves instead of a sentinel so
 * that lock-free readers never touch a shared, writer-modified node).
 * One node per entry; removed nodes go to a pool (type-stable memory, see
 * comm_store_map.h) and are reused by later inserts, freed by destroy
 * (in exclusive mode, without concurrent readers, freed at once).
 *
 * Readers load root, child[], key and value only; the writer stores
 * those with release stores.  A node's value is non-NULL exactly while it
 * is in the tree (insert sets it, remove clears it, both inside the write
 * section), which is what makes the lookup hint below safe.  Color and parent are writer-only; parent
 * doubles as the pool link of a pooled node.  Deletion relinks the
 * successor node into the removed node's place instead of copying its
 * key and value, so a node's (key, value) pair only changes on reuse.
 *
 * Nodes also carry their subtree size (order-statistic tree, CLRS ch. 14,
 * writer-only) so that lowest_free finds the end of a run of consecutive
 * cids in O(log n): the vanilla allocator asks for the lowest free cid
 * from the bottom of a dense run, which a node-by-node walk makes O(run).
 */

#include <stdio.h>
#include <stdlib.h>

#include "ompi/mca/comm_store/comm_store_map.h"
#include "ompi/mca/comm_store/comm_store_seqlock.h"

typedef struct comm_store_rbtree_node comm_store_rbtree_node_t;
struct comm_store_rbtree_node {
    comm_store_rbtree_node_t *child[2];      /* reader-visible: left, right */
    void *value;                             /* reader-visible */
    uint32_t key;                            /* reader-visible */
    unsigned char red;                       /* writer-only */
    comm_store_rbtree_node_t *parent;        /* writer-only; pool link */
    size_t size;                             /* writer-only: nodes in this subtree */
};

typedef struct {
    mca_comm_store_seqlock_t seq;
    comm_store_rbtree_node_t *root;          /* reader-visible */
    /* Lookup hint: the node of a recent successful lookup, or NULL.
     * Written by readers (release, only when it changes) and cleared by
     * remove; on its own cache line so that readers storing it do not
     * evict seq and root from the other readers' caches. */
    char pad_[64];
    comm_store_rbtree_node_t *hint;
    comm_store_rbtree_node_t *pool;
    size_t live, pooled;
    int exclusive;                           /* no concurrent readers: free, do not pool */
} comm_store_rbtree_t;

typedef comm_store_rbtree_node_t node_t;

#define TREE(m)  ((comm_store_rbtree_t *) (m))
#define CTREE(m) ((const comm_store_rbtree_t *) (m))
#define SET(field, v) MCA_COMM_STORE_PUBLISH(&(field), (v))
#define IS_RED(n) (NULL != (n) && (n)->red)
#define SIZE(n) (NULL != (n) ? (n)->size : 0)
#define LEFT(n) ((n)->child[0])
#define RIGHT(n) ((n)->child[1])

static comm_store_map_t *comm_store_rbtree_create(void)
{
    return (comm_store_map_t *) calloc(1, sizeof(comm_store_rbtree_t));
}

static void comm_store_rbtree_free_subtree(node_t *n)
{
    /* Iterative (no recursion depth to worry about): free leaves upward. */
    while (NULL != n) {
        if (LEFT(n)) {
            node_t *l = LEFT(n);
            LEFT(n) = NULL;
            n = l;
        } else if (RIGHT(n)) {
            node_t *r = RIGHT(n);
            RIGHT(n) = NULL;
            n = r;
        } else {
            node_t *p = n->parent;
            free(n);
            n = p;
        }
    }
}

static void comm_store_rbtree_destroy(comm_store_map_t *m)
{
    comm_store_rbtree_t *t = TREE(m);
    if (NULL == t) {
        return;
    }
    comm_store_rbtree_free_subtree(t->root);
    while (NULL != t->pool) {
        node_t *n = t->pool;
        t->pool = n->parent;
        free(n);
    }
    free(t);
}

/* Replace child `old` of p (or the root when p is NULL) with `n`. */
static void comm_store_rbtree_replace_child(comm_store_rbtree_t *t, node_t *p, node_t *old,
                                            node_t *n)
{
    if (NULL == p) {
        SET(t->root, n);
    } else if (LEFT(p) == old) {
        SET(LEFT(p), n);
    } else {
        SET(RIGHT(p), n);
    }
}

/* Rotate x down to side d (0 left, 1 right): its child on the other side,
 * y, takes its place, and y's child on side d becomes x's.  The fix-ups
 * index child[] by such a direction, so each mirrored pair of CLRS's
 * cases is one code (CLRS's left-hand case: d == 0). */
static void comm_store_rbtree_rotate(comm_store_rbtree_t *t, node_t *x, int d)
{
    node_t *y = x->child[!d];
    SET(x->child[!d], y->child[d]);
    if (y->child[d]) {
        y->child[d]->parent = x;
    }
    y->parent = x->parent;
    comm_store_rbtree_replace_child(t, x->parent, x, y);
    SET(y->child[d], x);
    x->parent = y;
    y->size = x->size;
    x->size = SIZE(LEFT(x)) + SIZE(RIGHT(x)) + 1;
}

static void comm_store_rbtree_insert_fixup(comm_store_rbtree_t *t, node_t *z)
{
    while (IS_RED(z->parent)) {
        node_t *p = z->parent, *g = p->parent;   /* red p is not the root */
        int d = p != LEFT(g);                    /* p's side of g */
        node_t *u = g->child[!d];
        if (IS_RED(u)) {
            p->red = 0;
            u->red = 0;
            g->red = 1;
            z = g;
        } else {
            if (z == p->child[!d]) {
                z = p;
                comm_store_rbtree_rotate(t, z, d);
                p = z->parent;
            }
            p->red = 0;
            g->red = 1;
            comm_store_rbtree_rotate(t, g, !d);
        }
    }
    t->root->red = 0;
}

static int comm_store_rbtree_insert(comm_store_map_t *m, uint32_t cid, void *ptr)
{
    comm_store_rbtree_t *t = TREE(m);
    node_t *p = NULL, *n = t->root, *z;

    if (NULL == ptr) {
        return -1;
    }
    while (NULL != n) {
        if (cid == n->key) {
            return -1;
        }
        p = n;
        n = cid < n->key ? LEFT(n) : RIGHT(n);
    }
    if (NULL != t->pool) {
        z = t->pool;
        t->pool = z->parent;
        t->pooled--;
    } else if (NULL == (z = malloc(sizeof(*z)))) {
        return -2;
    } else {
        /* Fresh memory is invisible to readers until linked below. */
        LEFT(z) = RIGHT(z) = NULL;
        z->value = NULL;
        z->key = 0;
    }

    mca_comm_store_write_begin(&t->seq);
    /* A pooled node may still be on a stale reader's path: atomic stores. */
    SET(z->key, cid);
    SET(z->value, ptr);
    SET(LEFT(z), (node_t *) NULL);
    SET(RIGHT(z), (node_t *) NULL);
    z->parent = p;
    z->red = 1;
    z->size = 1;
    for (node_t *q = p; NULL != q; q = q->parent) {
        q->size++;
    }
    if (NULL == p) {
        SET(t->root, z);
    } else if (cid < p->key) {
        SET(LEFT(p), z);
    } else {
        SET(RIGHT(p), z);
    }
    comm_store_rbtree_insert_fixup(t, z);
    mca_comm_store_write_end(&t->seq);
    t->live++;
    return 0;
}

/* Restore the properties after removing a black node; x (possibly NULL)
 * took its place under xp and carries an extra black. */
static void comm_store_rbtree_delete_fixup(comm_store_rbtree_t *t, node_t *x, node_t *xp)
{
    while (x != t->root && !IS_RED(x)) {
        int d = x != LEFT(xp);          /* x's side of xp */
        node_t *w = xp->child[!d];      /* non-NULL: its side is >= 1 black deeper */
        if (w->red) {
            w->red = 0;
            xp->red = 1;
            comm_store_rbtree_rotate(t, xp, d);
            w = xp->child[!d];
        }
        if (!IS_RED(LEFT(w)) && !IS_RED(RIGHT(w))) {
            w->red = 1;
            x = xp;
            xp = x->parent;
        } else {
            if (!IS_RED(w->child[!d])) {
                w->child[d]->red = 0;
                w->red = 1;
                comm_store_rbtree_rotate(t, w, !d);
                w = xp->child[!d];
            }
            w->red = xp->red;
            xp->red = 0;
            w->child[!d]->red = 0;
            comm_store_rbtree_rotate(t, xp, d);
            x = t->root;
        }
    }
    if (NULL != x) {
        x->red = 0;
    }
}

/* CLRS TRANSPLANT: v (possibly NULL) takes u's place under u's parent. */
static void comm_store_rbtree_transplant(comm_store_rbtree_t *t, node_t *u, node_t *v)
{
    comm_store_rbtree_replace_child(t, u->parent, u, v);
    if (NULL != v) {
        v->parent = u->parent;
    }
}

static int comm_store_rbtree_remove(comm_store_map_t *m, uint32_t cid)
{
    comm_store_rbtree_t *t = TREE(m);
    node_t *z = t->root, *x, *xp;
    int removed_black;

    while (NULL != z && cid != z->key) {
        z = cid < z->key ? LEFT(z) : RIGHT(z);
    }
    if (NULL == z) {
        return -1;
    }

    mca_comm_store_write_begin(&t->seq);
    removed_black = !z->red;
    if (NULL == LEFT(z)) {
        x = RIGHT(z);
        xp = z->parent;
        comm_store_rbtree_transplant(t, z, RIGHT(z));
    } else if (NULL == RIGHT(z)) {
        x = LEFT(z);
        xp = z->parent;
        comm_store_rbtree_transplant(t, z, LEFT(z));
    } else {
        node_t *y = RIGHT(z);
        while (NULL != LEFT(y)) {
            y = LEFT(y);
        }
        removed_black = !y->red;
        x = RIGHT(y);
        if (y->parent == z) {
            xp = y;
        } else {
            xp = y->parent;
            comm_store_rbtree_transplant(t, y, RIGHT(y));
            SET(RIGHT(y), RIGHT(z));
            RIGHT(y)->parent = y;
        }
        comm_store_rbtree_transplant(t, z, y);
        SET(LEFT(y), LEFT(z));
        LEFT(y)->parent = y;
        y->red = z->red;
    }
    /* xp is the lowest node whose subtree lost a node; y, when it moved,
     * is on the path from xp to the root. */
    for (node_t *q = xp; NULL != q; q = q->parent) {
        q->size = SIZE(LEFT(q)) + SIZE(RIGHT(q)) + 1;
    }
    if (removed_black) {
        comm_store_rbtree_delete_fixup(t, x, xp);
    }
    /* Out of the tree, so value NULL: a hint to z no longer matches. */
    SET(z->value, (void *) NULL);
    if (__atomic_load_n(&t->hint, __ATOMIC_RELAXED) == z) {
        __atomic_store_n(&t->hint, (node_t *) NULL, __ATOMIC_RELAXED);
    }
    mca_comm_store_write_end(&t->seq);

    /* z keeps its links and key: a reader still on it ends its walk on
     * valid nodes and fails the seqlock check (it may read the NULL value,
     * stored in the section, so it sees the section). */
    t->live--;
    if (t->exclusive) {
        free(z);
        return 0;
    }
    z->parent = t->pool;
    t->pool = z;
    t->pooled++;
    return 0;
}

static void comm_store_rbtree_set_exclusive(comm_store_map_t *m, int on)
{
    comm_store_rbtree_t *t = TREE(m);
    t->exclusive = on;
    while (on && NULL != t->pool) {
        node_t *n = t->pool;
        t->pool = n->parent;
        t->pooled--;
        free(n);
    }
}

/* The hint: a node read in an unchanged seqlock snapshot with key == cid
 * and a non-NULL value is in the tree (see the top of the file), hence
 * cid's node.  Any node pointer will do (nodes are type-stable), so a
 * stale or racing hint costs a miss, never a wrong answer; remove's
 * clearing of it only saves that miss. */
static void *comm_store_rbtree_lookup(const comm_store_map_t *m, uint32_t cid)
{
    const comm_store_rbtree_t *t = CTREE(m);
    /* The map is not const underneath; readers only write the hint. */
    node_t **hintp = &TREE((comm_store_map_t *) m)->hint;
    for (;;) {
        uint32_t s = mca_comm_store_read_begin(&t->seq);
        const node_t *h = __atomic_load_n(hintp, __ATOMIC_ACQUIRE), *n;
        void *v;
        if (NULL != h && cid == MCA_COMM_STORE_READ(&h->key)) {
            v = MCA_COMM_STORE_READ(&h->value);
            if (__builtin_expect(NULL != v, 1)) {
                if (__builtin_expect(!mca_comm_store_read_retry(&t->seq, s), 1)) {
                    return v;
                }
                continue;
            }
        }
        v = NULL;
        n = MCA_COMM_STORE_READ(&t->root);
        for (int depth = 0; NULL != n && depth < COMM_STORE_RBTREE_MAX_DEPTH; depth++) {
            uint32_t k = MCA_COMM_STORE_READ(&n->key);
            if (cid == k) {
                v = MCA_COMM_STORE_READ(&n->value);
                break;
            }
            /* An index, not a branch: the direction is unpredictable. */
            n = MCA_COMM_STORE_READ(&n->child[cid > k]);
        }
        /* An unchanged counter means no writer touched what we read, so a
         * walk cut short by the depth bound cannot happen then. */
        if (!mca_comm_store_read_retry(&t->seq, s)) {
            if (NULL != v && n != h) {
                /* Release: a reader that loads the hint then sees the node
                 * at least as this snapshot had it. */
                __atomic_store_n(hintp, (node_t *) n, __ATOMIC_RELEASE);
            }
            return v;
        }
    }
}

static int comm_store_rbtree_next(const comm_store_map_t *m, uint32_t from, uint32_t *cid,
                                  void **ptr)
{
    const node_t *n = CTREE(m)->root, *best = NULL;
    while (NULL != n) {
        if (n->key >= from) {
            best = n;
            n = LEFT(n);
        } else {
            n = RIGHT(n);
        }
    }
    if (NULL == best) {
        return -1;
    }
    *cid = best->key;
    if (ptr) {
        *ptr = best->value;
    }
    return 0;
}

/* With r0 keys below `from` (which is present), the run of consecutive
 * keys from, from + 1, ... has ranks r0, r0 + 1, ..., so all its keys have
 * key - rank == from - r0 =: D.  key - rank never decreases in key order,
 * so the run ends before the first key with key - rank > D, found by one
 * descent; the lowest free cid is D + that key's rank (D + n if none). */
static int comm_store_rbtree_lowest_free(const comm_store_map_t *m, uint32_t from,
                                         uint32_t *cid)
{
    const node_t *n = CTREE(m)->root;
    uint64_t r0 = 0, base = 0, d, rank_end;
    int present = 0;

    while (NULL != n) {                 /* rank of from, and is it present */
        if (from <= n->key) {
            present = from == n->key;
            if (present) {
                r0 += SIZE(LEFT(n));
                break;
            }
            n = LEFT(n);
        } else {
            r0 += SIZE(LEFT(n)) + 1;
            n = RIGHT(n);
        }
    }
    if (!present) {
        *cid = from;
        return 0;
    }
    d = (uint64_t) from - r0;
    rank_end = CTREE(m)->live;
    for (n = CTREE(m)->root; NULL != n;) {
        uint64_t rank = base + SIZE(LEFT(n));
        if (n->key - rank > d) {        /* key >= rank always, no wrap */
            rank_end = rank;
            n = LEFT(n);
        } else {
            base = rank + 1;
            n = RIGHT(n);
        }
    }
    if (d + rank_end > UINT32_MAX) {
        return -1;
    }
    *cid = (uint32_t) (d + rank_end);
    return 0;
}

static int comm_store_rbtree_highest(const comm_store_map_t *m, uint32_t *cid)
{
    const node_t *n = CTREE(m)->root;
    if (NULL == n) {
        return -1;
    }
    while (NULL != RIGHT(n)) {
        n = RIGHT(n);
    }
    *cid = n->key;
    return 0;
}

static void comm_store_rbtree_stats(const comm_store_map_t *m, comm_store_map_stats_t *s)
{
    const comm_store_rbtree_t *t = CTREE(m);
    s->live = t->live;
    s->cells = t->live; /* a node exists per entry; pooled nodes show in bytes only */
    s->bytes = sizeof(*t) + (t->live + t->pooled) * sizeof(node_t);
    s->chunks = 0;
}

#define RB_FAIL(...) COMM_STORE_CHECK_FAIL("rbtree", __VA_ARGS__)

/* Checks the subtree at n whose keys must lie in [lo, hi]; stores its
 * black height (NULL leaves count 1) and node count.  Recursion depth is
 * bounded by the height check. */
static int comm_store_rbtree_check_node(const node_t *n, const node_t *parent, uint64_t lo,
                                        uint64_t hi, int depth, int *bh, size_t *count)
{
    int lbh, rbh;
    if (NULL == n) {
        *bh = 1;
        return 0;
    }
    if (depth >= COMM_STORE_RBTREE_MAX_DEPTH) {
        RB_FAIL("depth %d exceeds the lookup bound %d", depth + 1, COMM_STORE_RBTREE_MAX_DEPTH);
    }
    if (n->parent != parent) {
        RB_FAIL("node %u: parent link %p, expected %p", n->key, (void *) n->parent,
                (const void *) parent);
    }
    if (n->key < lo || n->key > hi) {
        RB_FAIL("node %u outside its subtree's range [%llu, %llu]", n->key,
                (unsigned long long) lo, (unsigned long long) hi);
    }
    if (NULL == n->value) {
        RB_FAIL("node %u holds NULL", n->key);
    }
    if (n->size != SIZE(LEFT(n)) + SIZE(RIGHT(n)) + 1) {
        RB_FAIL("node %u: subtree size %zu, children %zu + %zu", n->key, n->size,
                SIZE(LEFT(n)), SIZE(RIGHT(n)));
    }
    if (n->red && (IS_RED(LEFT(n)) || IS_RED(RIGHT(n)))) {
        RB_FAIL("red node %u has a red child", n->key);
    }
    /* Strict order: the bounds exclude n->key on both sides. */
    if (comm_store_rbtree_check_node(LEFT(n), n, lo, (uint64_t) n->key - 1, depth + 1, &lbh,
                                     count)
        || comm_store_rbtree_check_node(RIGHT(n), n, (uint64_t) n->key + 1, hi, depth + 1,
                                        &rbh, count)) {
        return -1;
    }
    if (lbh != rbh) {
        RB_FAIL("node %u: black heights %d (left) and %d (right)", n->key, lbh, rbh);
    }
    *bh = lbh + !n->red;
    ++*count;
    return 0;
}

int comm_store_rbtree_check(const comm_store_map_t *m)
{
    const comm_store_rbtree_t *t = CTREE(m);
    size_t count = 0, pooled = 0;
    const node_t *h;
    int bh;

    if (t->seq.seq & 1u) {
        RB_FAIL("sequence counter %u is odd outside a write", t->seq.seq);
    }
    if (NULL != t->root && (t->root->red || NULL != t->root->parent)) {
        RB_FAIL("root %u is red or has a parent", t->root->key);
    }
    if (comm_store_rbtree_check_node(t->root, NULL, 0, UINT32_MAX, 0, &bh, &count)) {
        return -1;
    }
    if (count != t->live) {
        RB_FAIL("%zu nodes in the tree, live says %zu", count, t->live);
    }
    for (const node_t *n = t->pool; NULL != n; n = n->parent) {
        if (++pooled > t->pooled) {
            break;
        }
        if (NULL != n->value) {
            RB_FAIL("pooled node (key %u) holds a value", n->key);
        }
    }
    if (pooled != t->pooled) {
        RB_FAIL("pool holds %s%zu nodes, pooled says %zu", pooled > t->pooled ? "more than " : "",
                pooled > t->pooled ? t->pooled : pooled, t->pooled);
    }
    /* The hint is NULL, a node of the tree, or a pooled node (value NULL). */
    if (NULL != (h = __atomic_load_n(&t->hint, __ATOMIC_ACQUIRE))) {
        const node_t *n = t->root, *q = NULL;
        while (NULL != n && n != h) {
            n = h->key < n->key ? LEFT(n) : RIGHT(n);
        }
        for (q = t->pool; NULL == n && NULL != q && q != h; q = q->parent) {
        }
        if (NULL == n && NULL == q) {
            RB_FAIL("hint %p (key %u) is neither in the tree nor in the pool", (const void *) h,
                    h->key);
        }
        if (NULL == n && NULL != h->value) {
            RB_FAIL("hint (key %u) is pooled but holds a value", h->key);
        }
    }
    return 0;
}

const comm_store_map_ops_t comm_store_rbtree_ops = {
    .name = "rbtree", COMM_STORE_MAP_OPS(comm_store_rbtree)};
