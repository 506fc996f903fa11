/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * What a used communicator holds that grows with its members, at world
 * sizes no test machine runs (issue 38: at most 0.5 bytes a member beyond
 * the peers contacted, at 10^5).  Two owners grow with the members by
 * design; everything else a communicator holds was measured constant from
 * 8 to 64 ranks (bench/comm_memory.sh, bench/comm_census.sh):
 *
 *   - its group's map: built here by the grpmap engine from the members'
 *     world ranks, as ompi_grpmap_base_group_compress does under the
 *     benchmark's settings (grpmap_base_min_size 0: lattice first, then
 *     the hybrid; a translation cache where the frame would add one);
 *     a duplicate of the world shares the world's group (0 bytes);
 *   - ob1's per-communicator peer storage: the base's own patched
 *     pml_ob1_comm.c (slots, hash, flat or two-level table, promotion) is
 *     compiled into this program, and each simulated process of the
 *     communicator makes its ob1 state, looks up its peers in the order a
 *     ring round and an 8-byte allreduce contact them, and is measured
 *     with an interposed heap counter; the peers' own entries (one per
 *     peer contacted, what the issue leaves out) are subtracted.
 *
 * The allreduce's peers: recursive doubling as Open MPI's base
 * implements it (the pre-step with rank +- 1 below 2 x (size - 2^k), then
 * log2 partners), which tuned picks, or falls back to from the ring
 * algorithms, for 8 bytes below 128 members; above, tuned reduces and
 * broadcasts over trees, whose peers a binomial tree rooted at 0 stands
 * for (parent and children).  Both are simulated for every member and
 * the larger per-member cost is reported.
 *
 * Kinds as bench/comm_memory.c makes them from a world of N: dup, row and
 * col of MPI_Dims_create(N, 2)'s grid, plane of (N, 3)'s, cart (the rows,
 * by MPI_Cart_sub: the same members as row).  For each, the median and
 * the largest over the members, in bytes a member; exit 1 when any member
 * holds more than BAR (0.5) bytes a member.
 *
 *   comm_members_sim [-d] [-p PEERS] [N...]
 *       N: world sizes (default 64 1000 4096 32768 40000 65536 100000);
 *       -p: pml_ob1_sparse_hash_peers (default: ob1's); -d: every communicator
 *       dense, as stock ob1 and groups are (pml_ob1_sparse_peers_min -1,
 *       grpmap_base_min_size above the job): the check must then fail
 */
#define _GNU_SOURCE
#include "ompi_config.h"
#include "ompi/communicator/communicator.h"

#include "heap_counter.h"

/* ob1's first contact asks the communicator for the peer's process; every
 * peer here is the same placeholder, retained and released like a real one */
static ompi_proc_t sim_proc;
static ompi_proc_t *sim_peer_lookup(ompi_communicator_t *comm, int rank)
{
    (void) comm;
    (void) rank;
    return &sim_proc;
}
#define ompi_comm_peer_lookup(c, r) sim_peer_lookup(c, r)

#include "ompi/mca/pml/ob1/pml_ob1_comm.c"

#include "ompi/mca/grpmap/base/grpmap_engine.h"
#include "ompi/mca/grpmap/lattice/grpmap_lattice.h"
#include "test/common/check.h"
#include "test/unit/grpmap_check.h"
#include "test/unit/grpmap_patterns.h"

#include <stdio.h>
#include <stdlib.h>

void ompi_rte_abort(int error_code, char *fmt, ...)
{
    fprintf(stderr, "comm_members_sim: ob1 aborted (%d): %s\n", error_code, fmt);
    exit(2);
}

#define BAR 0.5

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

/* MPI_Dims_create's shape: the most balanced factors, non-increasing
 * (MPI 4.0, section 8.5.2) */
static void dims_create(int n, int nd, int *d)
{
    int best[3] = {n, 1, 1};
    if (2 == nd) {
        for (int a = 1; (long) a * a <= n; a++) {
            if (0 == n % a) {
                best[0] = n / a;
                best[1] = a;
            }
        }
    } else {
        long bestspread = -1;
        for (int a = 1; (long) a * a * a <= n; a++) {
            if (0 != n % a) {
                continue;
            }
            for (int b = a; (long) b * b <= n / a; b++) {
                if (0 == (n / a) % b) {
                    int c = n / a / b;
                    long spread = (long) c - a;
                    if (bestspread < 0 || spread < bestspread) {
                        bestspread = spread;
                        best[0] = c;
                        best[1] = b;
                        best[2] = a;
                    }
                }
            }
        }
    }
    for (int i = 0; i < nd; i++) {
        d[i] = best[i];
    }
}

/* recursive doubling's peers of rank r of n (ompi_coll_base_allreduce_intra_recursivedoubling) */
static int rd_peers(int r, int n, int *out)
{
    int k = 0, adj = 1, extra, newrank;
    while (adj * 2 <= n) {
        adj *= 2;
    }
    extra = n - adj;
    if (r < 2 * extra) {
        if (0 == r % 2) {
            out[k++] = r + 1;
            return k;
        }
        out[k++] = r - 1;
        newrank = r >> 1;
    } else {
        newrank = r - extra;
    }
    for (int dist = 1; dist < adj; dist <<= 1) {
        int nr = newrank ^ dist;
        out[k++] = nr < extra ? nr * 2 + 1 : nr + extra;
    }
    return k;
}

/* a binomial tree rooted at 0: parent and children */
static int tree_peers(int r, int n, int *out)
{
    int k = 0, low = n;
    if (r > 0) {
        low = r & -r;
        out[k++] = r - low;
    }
    for (int b = 1; b < low && r + b < n; b <<= 1) {
        out[k++] = r + b;
    }
    return k;
}

/* The hash generations ob1 makes for k peers past its slots (24 + 12c
 * bytes each, c from 16 doubling while the table would be more than half
 * full): what the peers contacted cost in a per-peer structure. */
static long long hash_for(int k)
{
    long long b = 0;
    if (k <= MCA_PML_OB1_PEER_SLOTS) {
        return 0;
    }
    for (size_t c = MCA_PML_OB1_PEER_HASH_MIN;; c *= 2) {
        b += (long long) mca_pml_ob1_peer_hash_bytes(c);
        if (2 * (size_t) k <= c) {
            return b;
        }
    }
}

/* After rank r of n contacts its ring neighbours and the allreduce's
 * peers: ob1's bytes beyond the peers contacted (their entries, and a hash
 * of them as hash_for counts it) in *beyond, the hash generations it holds
 * in *hash, its rank-indexed table (flat, or two-level: chunk pointers and
 * the chunks contacted) in *table; returns the heap's growth beyond the
 * peers' entries, which must hold the hash and the table. */
static size_t entry_bytes;
static long long ob1_state(int r, int n, int tree, long long *beyond, long long *table, long long *hash)
{
    int peers[80], np = 0, distinct = 0;
    ompi_communicator_t oc;
    mca_pml_ob1_comm_t *pc;
    long long before, after;

    if (n > 1) {
        peers[np++] = (r + 1) % n;
        peers[np++] = (r + n - 1) % n;
    }
    np += tree ? tree_peers(r, n, peers + np) : rd_peers(r, n, peers + np);

    memset(&oc, 0, sizeof(oc));
    pc = OBJ_NEW(mca_pml_ob1_comm_t);
    before = heap_cur;   /* the communicator's size is known from here on */
    if (NULL == pc || OMPI_SUCCESS != mca_pml_ob1_comm_init_size(pc, (size_t) n)) {
        fprintf(stderr, "comm_members_sim: out of memory\n");
        exit(2);
    }
    oc.c_pml_comm = (struct mca_pml_comm_t *) pc;
    for (int i = 0; i < np; i++) {
        if (NULL == mca_pml_ob1_peer_get(pc, peers[i])) {
            distinct++;
        }
        if (NULL == mca_pml_ob1_peer_lookup(&oc, peers[i])) {
            fprintf(stderr, "comm_members_sim: no entry for peer %d\n", peers[i]);
            exit(2);
        }
    }
    after = heap_cur - (long long) distinct * (long long) entry_bytes;
    *hash = 0;
    for (const mca_pml_ob1_peer_hash_t *h = pc->hash; NULL != h; h = h->older) {
        *hash += (long long) mca_pml_ob1_peer_hash_bytes(h->mask + 1);
    }
    *table = (long long) mca_pml_ob1_peer_table_bytes(pc) - *hash;
    /* the pvar's count (pml_ob1_peer_table_bytes) against the heap's */
    if (*table + *hash > after - before) {
        fprintf(stderr, "comm_members_sim: pml_ob1_peer_table_bytes %lld exceeds the heap's %lld\n",
                *table + *hash, after - before);
        exit(2);
    }
    *beyond = *table + *hash - hash_for(distinct);
    if (*beyond < 0) {
        *beyond = 0;   /* a flat table made where it is smaller than the hash */
    }
    OBJ_RELEASE(pc);
    return after - before;
}

/* the group map's bytes, as the frame holds them under grpmap_base_min_size 0 */
static int dense_groups;
static long long group_bytes(const int32_t *wr, int n, int world, char *name, size_t len)
{
    grpmap_engine_t e = {.reprs = gp_forms, .nreprs = GP_NFORMS,
                         .strategy = GRPMAP_STRATEGY_HYBRID, .alpha = 0.25};
    grpmap_handle_t h = {0};
    long long bytes;
    int rc = GRPMAP_DECLINE;
    if (!dense_groups) {
        rc = grpmap_engine_build_named(&e, "lattice", wr, n, world, &h);
        if (GRPMAP_OK != rc || NULL == h.repr) {
            rc = grpmap_engine_build(&e, wr, n, world, &h);
        }
    }
    if (GRPMAP_OK != rc || NULL == h.repr) {
        snprintf(name, len, "dense");
        return 8LL * n;
    }
    bytes = (long long) h.repr->bytes(h.map);
    /* the frame's cache: groups of 1024 or more whose SELECT costs more
     * than 1.5 table reads, set-associative (8,352 bytes) by default */
    if (n >= 1024 && grpmap_handle_select_ns(&h) > 1.5 * GRPMAP_DENSE_SELECT_NS) {
        grpmap_cache_t *c = grpmap_cache_new(GRPMAP_CACHE_SETASSOC, 16, NULL, NULL);
        bytes += (long long) grpmap_cache_bytes(c);
        free(c);
    }
    grpmap_handle_name(&h, name, len);
    grpmap_handle_release(&h);
    return bytes;
}

static int failures;

/* bench/comm_memory.c's kinds in a world of N: the members of the
 * communicator holding world rank 0 are 0, stride, 2 stride, ... (n of
 * them); a duplicate shares the world's group */
enum { K_DUP, K_ROW, K_COL, K_PLANE, K_CART, K_COUNT };
static const char *const kind_name[K_COUNT] = {"dup", "row", "col", "plane", "cart"};

static void kind_shape(int k, int world, int *n, int *stride)
{
    int d2[2], d3[3];
    dims_create(world, 2, d2);
    dims_create(world, 3, d3);
    *stride = K_COL == k ? d2[1] : 1;
    *n = K_DUP == k ? world : K_COL == k ? d2[0] : K_PLANE == k ? d3[1] * d3[2] : d2[1];
}

static long long kind_group_bytes(int k, int world, char *form, size_t len)
{
    int n, stride;
    int32_t *wr;
    long long b;
    if (K_DUP == k) {
        snprintf(form, len, "world's");
        return 0;
    }
    kind_shape(k, world, &n, &stride);
    wr = malloc(sizeof(int32_t) * (size_t) n);
    for (int i = 0; i < n; i++) {
        wr[i] = i * stride;
    }
    b = group_bytes(wr, n, world, form, len);
    free(wr);
    return b;
}

/* Every member of the kind's communicator simulated.  Growth a member:
 * ob1's bytes beyond the peers contacted, and the group map's beyond the
 * same kind's map in a world of 64. */
static void kind(int k, int world)
{
    int n, stride;
    double *per, med;
    long long gb, gref, tmax = 0, hmax = 0, heapmax = 0;
    char form[64];

    kind_shape(k, world, &n, &stride);
    gref = kind_group_bytes(k, 64, form, sizeof(form));
    gb = kind_group_bytes(k, world, form, sizeof(form));
    per = malloc(sizeof(double) * (size_t) n);
    for (int r = 0; r < n; r++) {
        long long worst = 0;
        for (int tree = 0; tree < 2; tree++) {
            long long x, t, h, heap = ob1_state(r, n, tree, &x, &t, &h);
            worst = x > worst ? x : worst;
            tmax = t > tmax ? t : tmax;
            hmax = h > hmax ? h : hmax;
            heapmax = heap > heapmax ? heap : heapmax;
        }
        per[r] = (double) (worst + gb - gref) / n;
    }
    qsort(per, (size_t) n, sizeof(*per), cmp_double);
    med = per[n / 2];
    printf("%7d  %-6s %7d  %-8s %5lld  %6lld  %7lld  %8lld  %8.3f  %8.3f  %s\n", world, kind_name[k],
           n, form, gb, hmax, tmax, heapmax, med, per[n - 1], per[n - 1] <= BAR ? "ok" : "OVER");
    if (per[n - 1] > BAR) {
        failures++;
    }
    free(per);
}

int main(int argc, char **argv)
{
    static const int def[] = {64, 1000, 4096, 32768, 40000, 65536, 100000};
    int nw, a0 = 1;
    mca_pml_ob1_comm_proc_t *probe;

    for (; argc > a0; a0++) {
        if (0 == strcmp(argv[a0], "-d")) {
            mca_pml_ob1_sparse_peers_min = -1;
            dense_groups = 1;
        } else if (0 == strcmp(argv[a0], "-p") && argc > a0 + 1) {
            mca_pml_ob1_sparse_hash_peers = atoi(argv[++a0]);
        } else {
            break;
        }
    }
    nw = argc > a0 ? argc - a0 : (int) (sizeof(def) / sizeof(def[0]));

    OBJ_CONSTRUCT((opal_list_item_t *) &sim_proc, opal_list_item_t);
    grpmap_bwt_set_codec(&mca_compress_bzip2_codec);
    probe = OBJ_NEW(mca_pml_ob1_comm_proc_t);
    entry_bytes = malloc_usable_size(probe);
    OBJ_RELEASE(probe);

    printf("ob1: %d slots, up to %d peers in the hash, table chunks of %d; a peer's entry %zu "
           "bytes (left out)\n", MCA_PML_OB1_PEER_SLOTS, mca_pml_ob1_sparse_hash_peers,
           MCA_PML_OB1_PEER_CHUNK, entry_bytes);
    printf("%7s  %-6s %7s  %-8s %5s  %6s  %7s  %8s  %8s  %8s\n", "world", "kind", "members", "group",
           "grp B", "hash B", "table B", "ob1 B", "median/m", "max/m");
    for (int w = 0; w < nw; w++) {
        int world = argc > a0 ? atoi(argv[w + a0]) : def[w];
        if (world < 2) {
            fprintf(stderr, "comm_members_sim: a world of %d\n", world);
            return 2;
        }
        for (int k = 0; k < K_COUNT; k++) {
            kind(k, world);
        }
    }
    printf("(after a ring round and an 8-byte allreduce, the larger of recursive doubling's and a\n"
           " binomial tree's peers; grp B: the group's map; hash B, table B: ob1's hash of the peers\n"
           " and its rank-indexed table, the largest over the members; ob1 B: the heap's growth\n"
           " beyond the peers' entries, largest; median/m, max/m: a member, over the members, ob1's\n"
           " bytes beyond the peers' entries and a hash of them, and grp B beyond a world of 64's\n"
           " map of the kind)\n");
    if (failures) {
        printf("comm_members_sim: %d communicators with a member over %.1f bytes a member\n",
               failures, BAR);
        return 1;
    }
    printf("comm_members_sim: OK\n");
    return 0;
}
