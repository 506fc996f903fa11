/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * CID allocation policies of comm_store, observed through their MPI_T
 * performance variables.  Every created communicator is checked by
 * communicating on it.  Rank 0 prints one result line per mode.
 *
 *   comm_store_cid rounds N     N blocking creations of each kind (dup,
 *                               split, create, create_group, intercomm
 *                               create + merge), then MPI_Comm_idup with a
 *                               blocking dup while it is in flight; prints
 *                               "rounds: single=S of A allocations, max=M"
 *   comm_store_cid exhaust      needs comm_store_base_cid_limit: dups until
 *                               creation fails, checks the error class and
 *                               that all ranks failed at the same count,
 *                               frees one and creates again, then creates
 *                               and frees 5 x the limit (wrap-around)
 *   comm_store_cid threads N    MPI_THREAD_MULTIPLE: 4 threads each dup
 *                               their own parent N times concurrently
 *   comm_store_cid density N    N live dups, then all freed: prints the
 *                               live/bytes/density variables at both points
 *   comm_store_cid density-mt N the same under MPI_THREAD_MULTIPLE (memory
 *                               kept for lock-free readers)
 *   comm_store_cid climb N      N dups, each freeing the one before it (two
 *                               live at most): under the highest policy each
 *                               new CID is the last + 1, so the CIDs climb to
 *                               N + 3 and an allocation that reaches the
 *                               PML's limit wraps around (more than one
 *                               round); prints "climb: N dups, single=S of
 *                               A allocations" (S = A: no wrap, the limit is
 *                               above N + 3)
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_pvar.h"

static int rank, size;

#define DIE(...)                                                                                  \
    do {                                                                                          \
        fprintf(stderr, "rank %d: ", rank);                                                      \
        fprintf(stderr, __VA_ARGS__);                                                             \
        fprintf(stderr, "\n");                                                                    \
        MPI_Abort(MPI_COMM_WORLD, 2);                                                             \
    } while (0)

/* ---- MPI_T ----------------------------------------------------------------- */
static MPI_T_pvar_session session;

typedef struct {
    MPI_T_pvar_handle h;
    MPI_Datatype type;
} pvar_t;

static pvar_t pvar_open(const char *name)
{
    pvar_t p;
    int cont, count, i = test_pvar_index(name, &p.type, &cont);
    if (i < 0) {
        DIE("MPI_T performance variable %s not found", name);
    }
    if (MPI_SUCCESS != MPI_T_pvar_handle_alloc(session, i, NULL, &p.h, &count) || 1 != count) {
        DIE("cannot allocate a handle for %s", name);
    }
    if (!cont) MPI_T_pvar_start(session, p.h);
    return p;
}

static double pvar_read(pvar_t p)
{
    unsigned long ul;
    unsigned u;
    double d;
    if (MPI_UNSIGNED_LONG == p.type) {
        MPI_T_pvar_read(session, p.h, &ul);
        return (double) ul;
    }
    if (MPI_UNSIGNED == p.type) {
        MPI_T_pvar_read(session, p.h, &u);
        return u;
    }
    MPI_T_pvar_read(session, p.h, &d);
    return d;
}

/* ---- communication check ----------------------------------------------------- */
static void check(MPI_Comm c, int tag, const char *what)
{
    int r, n, sum = 0, token = -1;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, c);
    int mine = r * 1000 + tag % 1000;
    MPI_Sendrecv(&mine, 1, MPI_INT, (r + 1) % n, tag % 32768, &token, 1, MPI_INT,
                 (r + n - 1) % n, tag % 32768, c, MPI_STATUS_IGNORE);
    if (sum != n * (n - 1) / 2 || token != ((r + n - 1) % n) * 1000 + tag % 1000) {
        DIE("%s communicator %d does not deliver correctly", what, tag);
    }
}

/* ---- modes -------------------------------------------------------------------- */
static void mode_rounds(int n)
{
    pvar_t allocs = pvar_open("comm_store_base_cid_allocations");
    pvar_t single = pvar_open("comm_store_base_cid_single_round");
    pvar_t last = pvar_open("comm_store_base_cid_rounds_last");
    MPI_Group wg, even;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int range[1][3] = {{0, size - 1, 2}};
    MPI_Group_range_incl(wg, 1, range, &even);
    int maxr = 0;
    for (int i = 0; i < n; i++) {
        MPI_Comm c[6];
        int k = 0;
        MPI_Comm_dup(MPI_COMM_WORLD, &c[k++]);
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c[k++]); /* leaders: world 0 and 1 */
        MPI_Comm_create(MPI_COMM_WORLD, wg, &c[k++]);
        c[k] = MPI_COMM_NULL; /* the same slot on every rank keeps the tags matched */
        if (0 == rank % 2) MPI_Comm_create_group(MPI_COMM_WORLD, even, i, &c[k]);
        k++;
        /* intercommunicator between the two halves (split), then merged */
        MPI_Comm inter, merged;
        MPI_Intercomm_create(c[1], 0, MPI_COMM_WORLD, 0 == rank % 2 ? 1 : 0, 100 + i, &inter);
        int r = (int) pvar_read(last);
        maxr = r > maxr ? r : maxr;
        MPI_Intercomm_merge(inter, rank % 2, &merged);
        c[k++] = merged;
        r = (int) pvar_read(last);
        maxr = r > maxr ? r : maxr;
        for (int j = 0; j < k; j++) {
            if (MPI_COMM_NULL == c[j]) continue;
            check(c[j], i * 8 + j, "created");
            MPI_Comm_free(&c[j]);
        }
        int x = rank, y;
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_MAX, inter); /* inter: remote group's max */
        MPI_Comm_free(&inter);
    }
    double s = pvar_read(single), al = pvar_read(allocs);
    if (0 == rank) {
        printf("rounds: single=%.0f of %.0f blocking allocations, max=%d\n", s, al, maxr);
    }
    /* a nonblocking dup, and a blocking dup while it is in flight */
    MPI_Comm a, b;
    MPI_Request req;
    MPI_Comm_idup(MPI_COMM_WORLD, &a, &req);
    MPI_Comm_dup(MPI_COMM_SELF, &b);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    check(a, 1, "idup");
    check(b, 2, "dup during idup");
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
    if (0 == rank) {
        printf("idup: single=%.0f of %.0f allocations\n", pvar_read(single) - s,
               pvar_read(allocs) - al);
    }
    MPI_Group_free(&even);
    MPI_Group_free(&wg);
}

static void mode_exhaust(void)
{
    enum { MAXC = 70000 };
    MPI_Comm *c = malloc(sizeof(MPI_Comm) * MAXC);
    int n = 0, rc = MPI_SUCCESS, cls;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    while (n < MAXC && MPI_SUCCESS == (rc = MPI_Comm_dup(MPI_COMM_WORLD, &c[n]))) {
        n++;
    }
    if (MPI_SUCCESS == rc) DIE("no failure after %d communicators", n);
    MPI_Error_class(rc, &cls);
    if (MPI_ERR_INTERN != cls) DIE("creation failed with class %d, expected MPI_ERR_INTERN", cls);
    int lo, hi;
    MPI_Allreduce(&n, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&n, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (lo != hi) DIE("ranks failed at different counts (%d..%d)", lo, hi);
    for (int i = 0; i < n; i += 1 + n / 20) check(c[i], i, "live");
    /* a freed CID in the middle is found again */
    MPI_Comm_free(&c[n / 2]);
    if (MPI_SUCCESS != MPI_Comm_dup(MPI_COMM_WORLD, &c[n / 2])) DIE("no CID after a free");
    check(c[n / 2], 7, "re-created");
    /* create and free forever while the last CID of the range stays in
     * use: every Highest-CID proposal hits the end and wraps around */
    for (int i = 0; i < n - 1; i++) MPI_Comm_free(&c[i]);
    int loops = 5 * (n + 3);
    for (int i = 0; i < loops; i++) {
        MPI_Comm d;
        if (MPI_SUCCESS != MPI_Comm_dup(MPI_COMM_WORLD, &d)) DIE("churn failed at %d", i);
        if (0 == i % 7) check(d, i, "churned");
        MPI_Comm_free(&d);
    }
    check(c[n - 1], 9, "last");
    MPI_Comm_free(&c[n - 1]);
    if (0 == rank) printf("exhaust: failed at %d live (error class MPI_ERR_INTERN), then %d churned\n", n, loops);
    free(c);
}

static void mode_climb(int n)
{
    pvar_t allocs = pvar_open("comm_store_base_cid_allocations");
    pvar_t single = pvar_open("comm_store_base_cid_single_round");
    double a0 = pvar_read(allocs), s0 = pvar_read(single);
    MPI_Comm prev, cur;
    MPI_Comm_dup(MPI_COMM_WORLD, &prev);
    for (int i = 0; i < n; i++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &cur);
        /* now and then, and around the 16-bit boundary of ob1's CIDs */
        if (0 == i % 4096 || (i > 65500 && i < 65540) || n - 1 == i) check(cur, i, "climbed");
        MPI_Comm_free(&prev);
        prev = cur;
    }
    MPI_Comm_free(&prev);
    if (0 == rank) {
        printf("climb: %d dups, single=%.0f of %.0f allocations\n", n, pvar_read(single) - s0,
               pvar_read(allocs) - a0);
    }
}

struct thr {
    MPI_Comm parent;
    int n, id;
};

static void *dup_thread(void *arg)
{
    struct thr *t = arg;
    for (int i = 0; i < t->n; i++) {
        MPI_Comm c;
        MPI_Comm_dup(t->parent, &c);
        check(c, t->id * 10000 + i, "threaded dup");
        MPI_Comm_free(&c);
    }
    return NULL;
}

static void mode_threads(int n)
{
    pvar_t allocs = pvar_open("comm_store_base_cid_allocations");
    pvar_t rounds = pvar_open("comm_store_base_cid_rounds");
    struct thr t[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        t[i].n = n;
        t[i].id = i;
        MPI_Comm_dup(MPI_COMM_WORLD, &t[i].parent);
    }
    double a0 = pvar_read(allocs), r0 = pvar_read(rounds);
    for (int i = 0; i < 4; i++) pthread_create(&th[i], NULL, dup_thread, &t[i]);
    for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
    double a = pvar_read(allocs) - a0, r = pvar_read(rounds) - r0;
    for (int i = 0; i < 4; i++) {
        check(t[i].parent, i, "parent");
        MPI_Comm_free(&t[i].parent);
    }
    if (0 == rank) printf("threads: 4 x %d dups, allocations=%.0f rounds=%.0f\n", n, a, r);
}

static void mode_density(int n)
{
    pvar_t live = pvar_open("comm_store_base_live");
    pvar_t bytes = pvar_open("comm_store_base_bytes");
    pvar_t dens = pvar_open("comm_store_base_density");
    MPI_Comm *c = malloc(sizeof(MPI_Comm) * n);
    for (int i = 0; i < n; i++) MPI_Comm_dup(MPI_COMM_WORLD, &c[i]);
    double l1 = pvar_read(live), b1 = pvar_read(bytes), d1 = pvar_read(dens);
    for (int i = 0; i < n; i++) MPI_Comm_free(&c[i]);
    double l2 = pvar_read(live), b2 = pvar_read(bytes), d2 = pvar_read(dens);
    if (0 == rank) {
        printf("density: live=%.0f bytes=%.0f density=%.6f; after free live=%.0f bytes=%.0f "
               "density=%.6f\n", l1, b1, d1, l2, b2, d2);
    }
    free(c);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "rounds";
    int n = argc > 2 ? atoi(argv[2]) : 100, provided, tp;
    int want = 0 == strcmp(mode, "threads") || 0 == strcmp(mode, "density-mt")
                   ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, want, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (provided < want) DIE("MPI_THREAD_MULTIPLE not provided");
    /* MPI_THREAD_SINGLE on purpose: Open MPI 4.1.4's MPI_T_init_thread
     * overwrote ompi_mpi_thread_multiple (fixed by patch 0006), which once
     * let the threads mode take the single-round path; comm_cid.c must not
     * depend on that flag either way. */
    MPI_T_init_thread(MPI_THREAD_SINGLE, &tp);
    MPI_T_pvar_session_create(&session);
    if (0 == strcmp(mode, "rounds")) {
        mode_rounds(n);
    } else if (0 == strcmp(mode, "exhaust")) {
        mode_exhaust();
    } else if (0 == strcmp(mode, "threads")) {
        mode_threads(n);
    } else if (0 == strcmp(mode, "climb")) {
        mode_climb(n);
    } else if (0 == strcmp(mode, "density") || 0 == strcmp(mode, "density-mt")) {
        mode_density(n);
    } else {
        DIE("unknown mode %s", mode);
    }
    MPI_T_pvar_session_free(&session);
    MPI_T_finalize();
    MPI_Finalize();
    return 0;
}
