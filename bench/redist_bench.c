/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MADRE benchmark (driven by bench/redist_bench.sh): every rank holds
 * NBLOCKS slots of 16,000 bytes (2,000 doubles); maps, with m live slots
 * (0..m-1) a rank:
 *   exp1-L     (i,j) -> ((m*i+j)%n, (m*i+j)/n): block to block-cyclic, L % live
 *   exp3-L     the ring: (i,j) -> ((i+1)%n, j), L = 50 .. 100 % live
 *   exp4       rank n-1 all free; the others full, each splitting its
 *              blocks into n-2 chunks, one to each other full rank
 *   alltoall   every rank full, chunk q of its blocks to rank q
 * (exp4 and alltoall use the largest multiple of n-2, resp. n, of NBLOCKS
 * as live blocks.)
 * Baseline: MPI_Alltoallw from the buffer into a preallocated second buffer,
 * with one indexed-block datatype per peer on each side (blocks are
 * scattered over the slots, so no packing step); its extra memory is that
 * second buffer.
 *
 *   redist_bench [-b NBLOCKS] [-r REPS] [-M MAPS] COMPONENT...
 *       For each map: every component's MPIX_Redist_execute and the
 *       baseline timed REPS times, interleaved, each time the slowest rank's;
 *       the minimum is kept.  Then, per component, a warm MPIX_Redistribute
 *       (create + execute + free, after one unmeasured) under an interposed
 *       malloc counter (peak bytes outstanding above the level at its start,
 *       largest over ranks) and redist_base_peak_extra_bytes read after it
 *       (largest over ranks); the data it moved is checked (first element of
 *       every block).  Prints one line per map and component:
 *       "row <map> <component> <exec_ms> <base_ms> <ratio> <create_ms>
 *        <pvar_peak> <heap_peak> <base_heap_peak> <base_extra> <vs_blockwise>"
 *       (a refused map: "row <map> <component> refused"), and per map
 *       "blockwise <map> <ms> <base_ms> <ratio>": the same moves with one
 *       message per block into the second buffer, all posted at once,
 *       timed in the same interleaved repeats (the floor for one block
 *       per message).
 *   redist_bench --rss WHO [-b NBLOCKS] [-M MAPS]
 *       WHO (a component or "baseline") alone over all maps; prints
 *       "rss <WHO> <KB>": the largest growth of ru_maxrss over a rank's level
 *       once its buffer is filled and shared memory warmed up.
 * MAPS: comma-separated names (default all).
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <mpi-ext.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#if !defined(OMPI_HAVE_MPI_EXT_MADRE) || !OMPI_HAVE_MPI_EXT_MADRE
#error "mpi-ext.h does not provide the MADRE extension (OMPI_HAVE_MPI_EXT_MADRE)"
#endif
#ifdef REDIST_REF
int redist_ref_pvar(const char *name, void *value);
#endif

#include "heap_counter.h"

/* ---- maps --------------------------------------------------------------- */
#define BDBL 2000 /* doubles a block: 16,000 bytes */
#define BBYTES (BDBL * sizeof(double))

static int rank, n, nb;

struct map {
    char name[32];
    int kind, pct; /* kind: 1 exp1, 3 exp3, 4 exp4, 5 alltoall */
};

/* live blocks a rank r holds in map mp */
static int live_of(const struct map *mp, int r)
{
    switch (mp->kind) {
    case 1:
    case 3:
        return (int) ((long) nb * mp->pct / 100);
    case 4:
        return r == n - 1 ? 0 : nb / (n - 2) * (n - 2);
    default:
        return nb / n * n;
    }
}

/* destination of rank i's slot j (j < live_of(i)) */
static void dest(const struct map *mp, int i, int j, int *q, int *s)
{
    int m = live_of(mp, i);
    switch (mp->kind) {
    case 1:
        *q = (m * i + j) % n;
        *s = (m * i + j) / n;
        break;
    case 3:
        *q = (i + 1) % n;
        *s = j;
        break;
    case 4: {
        /* full ranks 0..n-2; chunk c of rank i goes to the c-th full rank
         * other than i, into the part of its slots kept for i */
        int cs = m / (n - 2), c = j / cs;
        *q = c < i ? c : c + 1;
        *s = (i < *q ? i : i - 1) * cs + j % cs;
        break;
    }
    default: {
        int cs = m / n;
        *q = j / cs;
        *s = i * cs + j % cs;
    }
    }
}

static void map_arrays(const struct map *mp, int *dr, int *ds)
{
    int m = live_of(mp, rank);
    for (int j = 0; j < nb; j++) {
        if (j < m) {
            dest(mp, rank, j, &dr[j], &ds[j]);
        } else {
            dr[j] = MPIX_REDIST_FREE;
            ds[j] = -1;
        }
    }
}

/* ---- baseline: MPI_Alltoallw with indexed-block types ------------------- */
struct baseline {
    MPI_Datatype *st, *rt;
    int *sc, *rc, *zero;
};

/* *t: the blocks of process from that go to process to, in from's slot
 * order, at their slots at from (at_target 0) or at to (1); *any: whether
 * there are some.  idx: room for nb. */
static void blocks_type(const struct map *mp, int from, int to, int at_target, int *idx,
                        MPI_Datatype blk, MPI_Datatype *t, int *any)
{
    int k = 0, q, s;
    for (int j = 0; j < live_of(mp, from); j++) {
        dest(mp, from, j, &q, &s);
        if (q == to) {
            idx[k++] = at_target ? s : j;
        }
    }
    MPI_Type_create_indexed_block(k, 1, idx, blk, t);
    MPI_Type_commit(t);
    *any = k > 0;
}

static void baseline_init(struct baseline *b, const struct map *mp, MPI_Datatype blk)
{
    int *idx = malloc((nb + 1) * sizeof(int));
    b->st = malloc(n * sizeof(MPI_Datatype));
    b->rt = malloc(n * sizeof(MPI_Datatype));
    b->sc = calloc(n, sizeof(int));
    b->rc = calloc(n, sizeof(int));
    b->zero = calloc(n, sizeof(int));
    for (int p = 0; p < n; p++) {
        /* my blocks to p; p's blocks to me, to their final slots */
        blocks_type(mp, rank, p, 0, idx, blk, &b->st[p], &b->sc[p]);
        blocks_type(mp, p, rank, 1, idx, blk, &b->rt[p], &b->rc[p]);
    }
    free(idx);
}

static void baseline_run(struct baseline *b, double *buf, double *buf2)
{
    MPI_Alltoallw(buf, b->sc, b->zero, b->st, buf2, b->rc, b->zero, b->rt, MPI_COMM_WORLD);
}

static void baseline_free(struct baseline *b)
{
    for (int p = 0; p < n; p++) {
        MPI_Type_free(&b->st[p]);
        MPI_Type_free(&b->rt[p]);
    }
    free(b->st);
    free(b->rt);
    free(b->sc);
    free(b->rc);
    free(b->zero);
}

/* ---- reference: the same moves one block per message ---------------------
 * Every live block its own message into the second buffer, all posted at
 * once: no memory bound and nothing to schedule, only the granularity an
 * in-place method is held to (it can land a block only where one has
 * left, so with no free slot it moves at most its staging blocks at a
 * time).  Its ratio to the baseline is the floor for any method that moves
 * one block per message. */
struct blockwise {
    int nmsg, m, *peer, *tag, *isrecv;
    MPI_Datatype *t;
    MPI_Request *req;
};

/* The moves as messages of up to m blocks (a peer's blocks in the
 * sender's slot order, m at a time; m = 1: one block a message). */
static void blockwise_init(struct blockwise *w, const struct map *mp, int m, MPI_Datatype blk)
{
    int q, s, p, k, *sidx = malloc((nb + 1) * sizeof(int)), *ridx = malloc((nb + 1) * sizeof(int));
    int cap = 2 * nb + 2 * n + 1;
    w->m = m;
    w->nmsg = 0;
    w->peer = malloc(cap * sizeof(int));
    w->tag = malloc(cap * sizeof(int));
    w->isrecv = malloc(cap * sizeof(int));
    w->t = malloc(cap * sizeof(MPI_Datatype));
    w->req = malloc(cap * sizeof(MPI_Request));
    for (p = 0; p < n; p++) {
        /* receives from p, then sends to p, chunk by chunk */
        for (int dir = 0; dir < 2; dir++) {
            int from = dir ? rank : p, to = dir ? p : rank, c = 0;
            k = 0;
            for (int j = 0; j < live_of(mp, from); j++) {
                dest(mp, from, j, &q, &s);
                if (q != to) {
                    continue;
                }
                sidx[k] = dir ? j : s;   /* where the block is read or lands here */
                if (++k == m) {
                    MPI_Type_create_indexed_block(k, 1, sidx, blk, &w->t[w->nmsg]);
                    MPI_Type_commit(&w->t[w->nmsg]);
                    w->peer[w->nmsg] = p, w->tag[w->nmsg] = c++, w->isrecv[w->nmsg++] = !dir;
                    k = 0;
                }
            }
            if (k > 0) {
                MPI_Type_create_indexed_block(k, 1, sidx, blk, &w->t[w->nmsg]);
                MPI_Type_commit(&w->t[w->nmsg]);
                w->peer[w->nmsg] = p, w->tag[w->nmsg] = c++, w->isrecv[w->nmsg++] = !dir;
            }
        }
    }
    free(sidx);
    free(ridx);
}

static void blockwise_run(struct blockwise *w, double *buf, double *buf2)
{
    for (int i = 0; i < w->nmsg; i++) {   /* receives first: none waits unexpected */
        if (w->isrecv[i]) {
            MPI_Irecv(buf2, 1, w->t[i], w->peer[i], w->tag[i], MPI_COMM_WORLD, &w->req[i]);
        }
    }
    for (int i = 0; i < w->nmsg; i++) {
        if (!w->isrecv[i]) {
            MPI_Isend(buf, 1, w->t[i], w->peer[i], w->tag[i], MPI_COMM_WORLD, &w->req[i]);
        }
    }
    MPI_Waitall(w->nmsg, w->req, MPI_STATUSES_IGNORE);
}

static void blockwise_free(struct blockwise *w)
{
    for (int i = 0; i < w->nmsg; i++) {
        MPI_Type_free(&w->t[i]);
    }
    free(w->peer);
    free(w->tag);
    free(w->isrecv);
    free(w->t);
    free(w->req);
}

/* ---- pvar ------------------------------------------------------------------ */
static unsigned long long peak_pvar(void)
{
    unsigned long long v = 0;
#ifdef REDIST_REF
    redist_ref_pvar("redist_base_peak_extra_bytes", &v);
#else
    static int idx = -1;
    static MPI_T_pvar_session ses;
    MPI_T_pvar_handle h;
    int count, provided;
    if (idx < 0) {
        MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
        if (MPI_SUCCESS != MPI_T_pvar_get_index("redist_base_peak_extra_bytes",
                                                MPI_T_PVAR_CLASS_HIGHWATERMARK, &idx)) {
            return 0;
        }
        MPI_T_pvar_session_create(&ses);
    }
    /* a fresh handle reads the variable's current value */
    MPI_T_pvar_handle_alloc(ses, idx, NULL, &h, &count);
    MPI_T_pvar_start(ses, h);
    MPI_T_pvar_read(ses, h, &v);
    MPI_T_pvar_handle_free(ses, &h);
#endif
    return v;
}

/* ---- helpers ---------------------------------------------------------------- */
static double max_all(double v)
{
    double m;
    MPI_Allreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return m;
}

static long long max_all_ll(long long v)
{
    long long m;
    MPI_Allreduce(&v, &m, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    return m;
}

/* first element of a live block: who it came from */
static void tag_blocks(double *buf, const struct map *mp)
{
    for (int j = 0; j < live_of(mp, rank); j++) {
        buf[(size_t) j * BDBL] = (double) rank * nb + j;
    }
}

/* every slot a block targets holds it; returns wrong slots on all ranks */
static long check_blocks(const double *buf, const struct map *mp)
{
    long bad = 0, all;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < live_of(mp, i); j++) {
            int q, s;
            dest(mp, i, j, &q, &s);
            if (q == rank && buf[(size_t) s * BDBL] != (double) i * nb + j) {
                bad++;
            }
        }
    }
    MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    return all;
}

/* "cyclic" or "cyclic@B": the component, and a staging budget of B
 * blocks (the info key redist_stage_bytes; none: the default). */
static MPI_Info info_for(const char *spec)
{
    MPI_Info info;
    char comp[64], *at, bytes[32];
    snprintf(comp, sizeof(comp), "%s", spec);
    MPI_Info_create(&info);
    if (NULL != (at = strchr(comp, '@'))) {
        *at++ = '\0';
        snprintf(bytes, sizeof(bytes), "%lu", (unsigned long) atoi(at) * (unsigned long) BBYTES);
        MPI_Info_set(info, "redist_stage_bytes", bytes);
    }
    MPI_Info_set(info, "redist_component", comp);
    return info;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int k)
{
    qsort(v, k, sizeof(double), cmp_dbl);
    return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

static int nmaps;
static struct map maps[16];

static void maps_init(const char *only)
{
    static const int e1[] = {80, 96}, e3[] = {50, 60, 70, 80, 90, 100};
    struct map all[16];
    int k = 0;
    for (int i = 0; i < 2; i++) {
        all[k] = (struct map){"", 1, e1[i]};
        snprintf(all[k++].name, sizeof(all[0].name), "exp1-%d", e1[i]);
    }
    for (int i = 0; i < 6; i++) {
        all[k] = (struct map){"", 3, e3[i]};
        snprintf(all[k++].name, sizeof(all[0].name), "exp3-%d", e3[i]);
    }
    all[k++] = (struct map){"exp4", 4, 0};
    all[k++] = (struct map){"alltoall", 5, 100};
    for (int i = 0; i < k; i++) {
        char pat[48];
        snprintf(pat, sizeof(pat), ",%.31s,", all[i].name);
        if (NULL == only || strstr(only, pat)) {
            maps[nmaps++] = all[i];
        }
    }
}

/* ---- modes ------------------------------------------------------------------- */
static void bench(char **comps, int ncomp, int reps, int runm, double *buf, double *buf2,
                  MPI_Datatype blk)
{
    int *dr = malloc(nb * sizeof(int)), *ds = malloc(nb * sizeof(int));
    MPIX_Redist *rd = malloc(ncomp * sizeof(MPIX_Redist));
    /* t[c * reps + r]: comps, then the baseline, one block a message, runm
     * blocks a message */
    double *t = malloc((ncomp + 3) * reps * sizeof(double)), *tcreate = malloc(ncomp * sizeof(double));
    double *best = malloc((ncomp + 3) * sizeof(double)), *ratio = malloc((ncomp + 3) * sizeof(double));
    double *vsblock = malloc((ncomp + 3) * sizeof(double));
    double *v = malloc((reps + 1) * sizeof(double));
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);

    for (int mi = 0; mi < nmaps; mi++) {
        const struct map *mp = &maps[mi];
        struct baseline b;
        struct blockwise w, wm;
        map_arrays(mp, dr, ds);
        baseline_init(&b, mp, blk);
        blockwise_init(&w, mp, 1, blk);
        blockwise_init(&wm, mp, runm, blk);
        for (int c = 0; c < ncomp; c++) {
            MPI_Info info = info_for(comps[c]);
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            int rc = MPIX_Redist_create(buf, nb, BDBL, MPI_DOUBLE, dr, ds, info, comm, &rd[c]);
            tcreate[c] = max_all(MPI_Wtime() - t0);
            if (MPI_SUCCESS != max_all_ll(rc)) {
                rd[c] = MPIX_REDIST_NULL; /* refused (unit) */
                if (MPI_SUCCESS == rc) {
                    MPIX_Redist_free(&rd[c]);
                }
            }
            MPI_Info_free(&info);
        }
        /* interleaved: each repeat runs every candidate once, so a ratio
         * pairs times taken moments apart; medians of the repeats.  The
         * order is shuffled every repeat (the same on every rank): in a
         * fixed or rotated order each candidate always follows the same
         * one, and four identical candidates read 1.19x, 1.11x, 1.09x and
         * 1.02x on exp 1, the first always after the references that fill
         * the second buffer */
        int *order = malloc((ncomp + 3) * sizeof(int));
        unsigned long long lcg = 0x9e3779b97f4a7c15ULL;
        for (int r = 0; r < reps; r++) {
            for (int k = 0; k <= ncomp + 2; k++) {
                order[k] = k;
            }
            for (int k = ncomp + 2; k > 0; k--) {
                lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
                int x = (int) ((lcg >> 33) % (unsigned long long) (k + 1)), tmp = order[k];
                order[k] = order[x], order[x] = tmp;
            }
            for (int k = 0; k <= ncomp + 2; k++) {
                int c = order[k];
                if (c < ncomp && MPIX_REDIST_NULL == rd[c]) {
                    continue;
                }
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                if (c < ncomp) {
                    MPIX_Redist_execute(rd[c]);
                } else if (c == ncomp) {
                    baseline_run(&b, buf, buf2);
                } else {
                    blockwise_run(c == ncomp + 1 ? &w : &wm, buf, buf2);
                }
                t[c * reps + r] = max_all(MPI_Wtime() - t0);
            }
        }
        free(order);
        for (int c = 0; c <= ncomp + 2; c++) {
            if (c < ncomp && MPIX_REDIST_NULL == rd[c]) {
                continue;
            }
            for (int r = 0; r < reps; r++) {
                v[r] = t[c * reps + r] / t[ncomp * reps + r];
            }
            ratio[c] = median(v, reps);
            /* against the one-message-per-block reference, paired too */
            for (int r = 0; r < reps; r++) {
                v[r] = t[c * reps + r] / t[(ncomp + 1) * reps + r];
            }
            vsblock[c] = median(v, reps);
            memcpy(v, &t[c * reps], reps * sizeof(double));
            best[c] = median(v, reps);
        }
        /* the baseline's heap over a warm call (its second buffer is extra) */
        long long h0 = heap_cur;
        heap_start();
        baseline_run(&b, buf, buf2);
        long long base_heap = max_all_ll(heap_stop(h0));
        if (0 == rank) {
            printf("blockwise %s %.3f %.3f %.3f\n", mp->name, best[ncomp + 1] * 1e3,
                   best[ncomp] * 1e3, ratio[ncomp + 1]);
            printf("runwise %s %d %.3f %.3f %.3f\n", mp->name, runm, best[ncomp + 2] * 1e3,
                   best[ncomp] * 1e3, ratio[ncomp + 2]);
        }
        for (int c = 0; c < ncomp; c++) {
            if (MPIX_REDIST_NULL == rd[c]) {
                if (0 == rank) {
                    printf("row %s %s refused\n", mp->name, comps[c]);
                }
                continue;
            }
            MPIX_Redist_free(&rd[c]);
            /* warm MPIX_Redistribute: one unmeasured, one measured */
            MPI_Info info = info_for(comps[c]);
            MPIX_Redistribute(buf, nb, BDBL, MPI_DOUBLE, dr, ds, info, comm);
            tag_blocks(buf, mp);
            MPI_Barrier(MPI_COMM_WORLD);
            h0 = heap_cur;
            heap_start();
            MPIX_Redistribute(buf, nb, BDBL, MPI_DOUBLE, dr, ds, info, comm);
            long long heap = max_all_ll(heap_stop(h0));
            long long pv = max_all_ll((long long) peak_pvar());
            long bad = check_blocks(buf, mp);
            MPI_Info_free(&info);
            if (0 == rank) {
                printf("row %s %s %.3f %.3f %.3f %.3f %lld %lld %lld %zu %.3f%s\n", mp->name,
                       comps[c], best[c] * 1e3, best[ncomp] * 1e3, ratio[c], tcreate[c] * 1e3,
                       pv, heap, base_heap, (size_t) nb * BBYTES, vsblock[c],
                       bad ? " WRONG-DATA" : "");
                fflush(stdout);
            }
        }
        baseline_free(&b);
        blockwise_free(&w);
        blockwise_free(&wm);
    }
    MPI_Comm_free(&comm);
    free(dr);
    free(ds);
    free(rd);
    free(best);
    free(ratio);
    free(vsblock);
    free(t);
    free(v);
    free(tcreate);
}

static long maxrss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static void rss(const char *who, double *buf, MPI_Datatype blk)
{
    int *dr = malloc(nb * sizeof(int)), *ds = malloc(nb * sizeof(int));
    int is_base = 0 == strcmp(who, "baseline");
    /* warm up shared memory: an all-to-all of one block a peer */
    double *w = calloc((size_t) n * 2 * BDBL, sizeof(double));
    MPI_Alltoall(w, BDBL, MPI_DOUBLE, w + (size_t) n * BDBL, BDBL, MPI_DOUBLE, MPI_COMM_WORLD);
    free(w);
    long base = maxrss_kb();
    double *buf2 = NULL;
    if (is_base) { /* the baseline's second buffer is its extra memory */
        buf2 = malloc((size_t) nb * BBYTES);
        memset(buf2, 0, (size_t) nb * BBYTES);
    }
    MPI_Info info = info_for(who);
    for (int mi = 0; mi < nmaps; mi++) {
        map_arrays(&maps[mi], dr, ds);
        for (int k = 0; k < 2; k++) {
            if (is_base) {
                struct baseline b;
                baseline_init(&b, &maps[mi], blk);
                baseline_run(&b, buf, buf2);
                baseline_free(&b);
            } else {
                MPI_Comm comm;
                MPI_Comm_dup(MPI_COMM_WORLD, &comm);
                MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
                MPIX_Redistribute(buf, nb, BDBL, MPI_DOUBLE, dr, ds, info, comm);
                MPI_Comm_free(&comm);
            }
        }
    }
    long grow = max_all_ll(maxrss_kb() - base);
    if (0 == rank) {
        printf("rss %s %ld\n", who, grow);
    }
    MPI_Info_free(&info);
    free(buf2);
    free(dr);
    free(ds);
}

int main(int argc, char **argv)
{
    int reps = 11, ncomp = 0, runm = 16;
    const char *rss_who = NULL;
    char *only = NULL, **comps = calloc(argc, sizeof(char *));
    nb = 512;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    for (int i = 1; i < argc; i++) {
        if (0 == strcmp(argv[i], "-b") && i + 1 < argc) {
            nb = atoi(argv[++i]);
        } else if (0 == strcmp(argv[i], "-r") && i + 1 < argc) {
            reps = atoi(argv[++i]);
        } else if (0 == strcmp(argv[i], "-m") && i + 1 < argc) {
            runm = atoi(argv[++i]);
        } else if (0 == strcmp(argv[i], "-M") && i + 1 < argc) {
            only = malloc(strlen(argv[++i]) + 3);
            sprintf(only, ",%s,", argv[i]);
        } else if (0 == strcmp(argv[i], "--rss") && i + 1 < argc) {
            rss_who = argv[++i];
        } else {
            comps[ncomp++] = argv[i];
        }
    }
    if (n < 3 || nb < n || (NULL == rss_who && 0 == ncomp)) {
        if (0 == rank) {
            fprintf(stderr, "usage: redist_bench [-b NBLOCKS] [-r REPS] [-M MAPS] COMPONENT... | "
                            "--rss WHO (3 ranks or more, NBLOCKS >= ranks)\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    maps_init(only);
    MPI_Datatype blk;
    MPI_Type_contiguous(BDBL, MPI_DOUBLE, &blk);
    MPI_Type_commit(&blk);
    double *buf = malloc((size_t) nb * BBYTES);
    for (size_t i = 0; i < (size_t) nb * BDBL; i++) {
        buf[i] = (double) i;
    }
    if (NULL != rss_who) {
        rss(rss_who, buf, blk);
    } else {
        double *buf2 = malloc((size_t) nb * BBYTES);
        memset(buf2, 0, (size_t) nb * BBYTES);
        if (0 == rank) {
            printf("# %d ranks, %d slots of %zu bytes a rank (%zu MB), medians of %d interleaved repeats\n",
                   n, nb, BBYTES, (size_t) nb * BBYTES >> 20, reps);
        }
        bench(comps, ncomp, reps, runm > 0 ? runm : 1, buf, buf2, blk);
        free(buf2);
    }
    MPI_Type_free(&blk);
    free(buf);
    free(only);
    free(comps);
    MPI_Finalize();
    return 0;
}
