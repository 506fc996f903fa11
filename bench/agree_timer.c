/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * What share of a collective MPI-IO call the error agreement of patch
 * 0012 takes (issue 35), measured inside the call instead of by paired
 * runs, whose noise on a 2-core VM is far above 1 %.  An LD_PRELOAD shim:
 *
 *   mpicc -O2 -Wall -Itest/common -shared -fPIC -o agree_timer.so bench/agree_timer.c -ldl -lm
 *   mpirun -x LD_PRELOAD=$PWD/agree_timer.so -np 2 --mca io ompio \
 *          --mca fcoll vulcan ./fcoll_matrix /dev/shm/f rows 7 same
 *
 * (bench/fcoll_agree_share.sh does this for every component and pattern.)
 *
 * It times every MPI_File_write_all, MPI_File_write_at_all (op "write")
 * and MPI_File_read_all, MPI_File_read_at_all (op "read") of each process,
 * and inside them the time spent in the agreement: libmca_common_ompio's
 * mca_common_ompio_agree_error (patch 0012: every fcoll write, individual's
 * read) and mca_common_ompio_agree_read (patch 0018 moved the reads of
 * vulcan, dynamic, dynamic_gen2 and two_phase to it: the same allreduce of
 * one int, with the end-of-file flag in its lowest bit).  The fcoll
 * components are DSOs calling these through their PLT, so a definition in
 * an LD_PRELOADed object (first in the global scope) takes their calls.
 *
 * At MPI_Finalize rank 0 prints, per op:
 *   AGREE_TIMER op=write np=P calls=N call_ms=C agree_us=A share_pct=S
 *               agree_max_us=M agreements=K
 *   N   collective calls a process made (the same on every rank)
 *   C   median over the calls of the slowest rank's time in the call (what
 *       bench/fcoll_matrix.c times: its write_s and read_s)
 *   A   median over the calls of the least time any rank spent inside the
 *       agreement in that call.  The last process to reach the allreduce
 *       spends there only the allreduce's own latency; the others' time
 *       inside it is mostly waiting for the slowest process, which the call
 *       would take anyway, since the call's time is the slowest rank's.
 *   S   100 * A / C
 *   M   median over the calls of the most time a rank spent inside it (the
 *       waiting included; for reference only)
 *   K   agreement calls inside these calls, summed over the ranks (N * P
 *       when every call agrees once; 0 under la_twophase, which reduces its
 *       errors itself, and under ROMIO)
 * ("calls=0 (no timed call)" for an op the program never called),
 * and one line "AGREE_TIMER outside agreements=K" for agreements made
 * outside the timed calls (MPI_File_sync's, patch 0013), summed over ranks.
 *
 * AGREE_TIMER_SKIP=1 measures the agreement's cost by paired calls in one
 * run instead: the timed calls alternate, in the order on, off, off, on
 * (so that neither comes first more often), between the real agreement
 * and none (each process returns its own result, as before patch 0012;
 * only for runs where nothing fails: a failure or a read past the end of
 * the file aborts).  Each pair of calls gives two ratios of the call with
 * the agreement to the call without it; rank 0 prints, per op:
 *   AGREE_PAIRED op=write np=P pairs=N on_ms=A off_ms=B ratio=R lo=L hi=H
 *                span_on_ms=.. span_off_ms=.. span_ratio=.. span_lo=.. span_hi=..
 *   A, B  medians over the pairs of the slowest rank's time in the call,
 *         with and without the agreement
 *   R     median over the pairs of (time with) / (time without)
 *   L, H  the order statistics that bracket R with 95 % confidence
 *         (binomial, normal approximation): a distribution-free interval
 *         for the median ratio
 *   span_*  the same for the call's span: from the first rank's entry to
 *         the last rank's return, on CLOCK_MONOTONIC (all ranks on one
 *         node).  With more ranks than cores only the span is the call's
 *         time: without the agreement a rank that the scheduler runs late
 *         also enters late, and its own time in the call stays short.
 * Calls outside the timed ones (MPI_File_sync's agreement) always agree.
 * AGREE_TIMER_SKIP=aa pairs the calls the same way but lets every call
 * agree: an A/A control, whose ratios show the method's own bias.
 *
 * Assumes a single-threaded program whose collective file calls are all
 * made by every rank of MPI_COMM_WORLD (files opened on WORLD or on a
 * duplicate of it), so that call i of a rank matches call i of the others,
 * as in bench/fcoll_matrix.c.  If the ranks' call counts differ, only the
 * counts are printed.
 */

#define _GNU_SOURCE

#include <dlfcn.h>
#include <link.h>
#include <math.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>

#include "check.h"

enum { OP_WRITE, OP_READ, NOPS };
static const char *op_name[NOPS] = {"write", "read"};

typedef struct {
    double call;    /* seconds in the MPI call */
    double agree;   /* seconds inside the agreement during it */
    double nagree;  /* agreement calls during it (a double: gathered with the times) */
    double skip;    /* 1: this call skipped the agreement (AGREE_TIMER_SKIP) */
    double start;   /* CLOCK_MONOTONIC at entry and return: one clock for */
    double end;     /* every process of a node */
} rec_t;

enum { REC_DOUBLES = sizeof(rec_t) / sizeof(double) };

/* AGREE_TIMER_SKIP: 1 pairs calls with and without the agreement; aa
 * pairs them the same way but every call agrees (the method's own bias,
 * which should read 1.000) */
enum { SKIP_NONE, SKIP_PAIRED, SKIP_AA };
static int skip_mode;

__attribute__((constructor)) static void read_env(void)
{
    const char *v = getenv("AGREE_TIMER_SKIP");
    if (NULL == v || 0 == strcmp(v, "") || 0 == strcmp(v, "0")) {
        skip_mode = SKIP_NONE;
    } else if (0 == strcmp(v, "1")) {
        skip_mode = SKIP_PAIRED;
    } else if (0 == strcmp(v, "aa")) {
        skip_mode = SKIP_AA;
    } else {
        /* a typo would otherwise measure nothing paired, silently */
        fprintf(stderr, "agree_timer: AGREE_TIMER_SKIP=%s: use 1 (paired), aa (A/A control) or 0\n", v);
        exit(2);
    }
}
static int skipping;   /* the timed call in progress skips the agreement */

static rec_t *recs[NOPS];
static size_t nrecs[NOPS], caprecs[NOPS];

/* > 0 while inside a timed call: nested MPI calls are not timed again, and
 * the agreement's time goes to the call in progress */
static int depth;
static double cur_agree, cur_nagree;
static long outside_agree;  /* agreements outside any timed call */

static void record(int op, double t0, double t1)
{
    if (nrecs[op] == caprecs[op]) {
        caprecs[op] = caprecs[op] ? 2 * caprecs[op] : 256;
        recs[op] = realloc(recs[op], caprecs[op] * sizeof(rec_t));
        if (NULL == recs[op]) {
            fprintf(stderr, "agree_timer: out of memory\n");
            abort();
        }
    }
    recs[op][nrecs[op]].call = t1 - t0;
    recs[op][nrecs[op]].start = t0;
    recs[op][nrecs[op]].end = t1;
    recs[op][nrecs[op]].agree = cur_agree;
    recs[op][nrecs[op]].nagree = cur_nagree;
    recs[op][nrecs[op]].skip = skipping;
    nrecs[op]++;
}

/* ---- the agreement ---- */

/* libmca_common_ompio is loaded by io/ompio's dlopen, after this shim.
 * RTLD_NEXT finds it when that dlopen put it in the global scope; if not,
 * look for the loaded library by name and ask it directly. */
static const char *lib_path;

static int find_lib(struct dl_phdr_info *info, size_t size, void *data)
{
    (void) size;
    (void) data;
    if (NULL != info->dlpi_name && NULL != strstr(info->dlpi_name, "libmca_common_ompio")) {
        lib_path = info->dlpi_name;
        return 1;
    }
    return 0;
}

static void *real_sym(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name), *h;
    if (NULL != f) {
        return f;
    }
    if (0 != dl_iterate_phdr(find_lib, NULL) && NULL != (h = dlopen(lib_path, RTLD_LAZY | RTLD_NOLOAD))) {
        f = dlsym(h, name);
    }
    if (NULL == f) {
        /* nothing to forward to: returning an error would change the run */
        fprintf(stderr, "agree_timer: cannot find the real %s\n", name);
        abort();
    }
    return f;
}

static void agreed(double t)
{
    if (depth > 0) {
        cur_agree += t;
        cur_nagree += 1;
    } else {
        outside_agree++;
    }
}

/* No agreement: the process's own result, as before patch 0012.  Only
 * success is handled (then the real agreement returns 0 and leaves the
 * status alone); anything else would need the others' results. */
static int skipped(int ret, bool met_eof)
{
    if (0 != ret || met_eof) {
        fprintf(stderr, "agree_timer: AGREE_TIMER_SKIP=1 met a failure or the end of the file;"
                        " it measures runs where nothing fails\n");
        abort();
    }
    return 0;
}

/* the real signatures take ompio_file_t * and ompi_status_public_t *: only
 * passed on here, so void * keeps the shim free of Open MPI's internal headers */
int mca_common_ompio_agree_error(void *fh, int ret, void *status)
{
    static int (*real)(void *, int, void *);
    double t0;
    int rc;
    if (NULL == real) {
        real = (int (*)(void *, int, void *)) real_sym("mca_common_ompio_agree_error");
    }
    if (skipping && SKIP_PAIRED == skip_mode) {
        return skipped(ret, false);
    }
    t0 = test_now();
    rc = real(fh, ret, status);
    agreed(test_now() - t0);
    return rc;
}

int mca_common_ompio_agree_read(void *fh, int ret, bool met_eof, const struct iovec *iov,
                                int iov_count, void *status)
{
    static int (*real)(void *, int, bool, const struct iovec *, int, void *);
    double t0;
    int rc;
    if (NULL == real) {
        real = (int (*)(void *, int, bool, const struct iovec *, int, void *))
            real_sym("mca_common_ompio_agree_read");
    }
    if (skipping && SKIP_PAIRED == skip_mode) {
        return skipped(ret, met_eof);
    }
    t0 = test_now();
    rc = real(fh, ret, met_eof, iov, iov_count, status);
    agreed(test_now() - t0);
    return rc;
}

/* ---- the collective calls (MPI profiling interface) ---- */

/* calls 0, 1, 2, 3, ... agree, skip, skip, agree, and so on: each pair
 * (2k, 2k+1) holds one of each, and each comes first in half the pairs */
static int skip_call(size_t i)
{
    return (int) ((i / 2) % 2 == 0 ? i % 2 : 1 - i % 2);
}

#define TIMED(op, call) \
    do { \
        double t0; \
        int rc; \
        if (depth > 0) { \
            return call; \
        } \
        depth++; \
        cur_agree = cur_nagree = 0; \
        skipping = skip_mode && skip_call(nrecs[op]); \
        t0 = test_now(); \
        rc = call; \
        record(op, t0, test_now()); \
        skipping = 0; \
        depth--; \
        return rc; \
    } while (0)

int MPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype dt, MPI_Status *st)
{
    TIMED(OP_WRITE, PMPI_File_write_all(fh, buf, count, dt, st));
}

int MPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype dt, MPI_Status *st)
{
    TIMED(OP_READ, PMPI_File_read_all(fh, buf, count, dt, st));
}

int MPI_File_write_at_all(MPI_File fh, MPI_Offset off, const void *buf, int count,
                          MPI_Datatype dt, MPI_Status *st)
{
    TIMED(OP_WRITE, PMPI_File_write_at_all(fh, off, buf, count, dt, st));
}

int MPI_File_read_at_all(MPI_File fh, MPI_Offset off, void *buf, int count, MPI_Datatype dt,
                         MPI_Status *st)
{
    TIMED(OP_READ, PMPI_File_read_at_all(fh, off, buf, count, dt, st));
}

/* ---- the report ---- */

/* The median over the pairs of (measure with the agreement) / (without),
 * with the order statistics around it that hold it with 95 % confidence
 * (n/2 -+ 1.96 sqrt(n)/2: binomial, normal approximation).  x[i] is call
 * i's measure; skip[i] says whether it skipped; on, off and ratio have
 * room for n/2 values. */
static void pair_stats(long n, const double *x, const double *skip, double *on, double *off,
                       double *ratio, double out[5])
{
    long k, m = n / 2, lo, hi;
    double half = m / 2.0, w = 0.98 * sqrt((double) m);

    for (k = 0; k < m; k++) {
        long a = 2 * k, b = 2 * k + 1;
        if (skip[a] == skip[b]) {
            fprintf(stderr, "agree_timer: pair %ld has no call of each kind\n", k);
            abort();
        }
        if (0 != skip[a]) {
            a = b;
            b = 2 * k;
        }
        on[k] = x[a];
        off[k] = x[b];
        ratio[k] = off[k] > 0 ? on[k] / off[k] : 1.0;
    }
    lo = (long) floor(half - w);
    hi = (long) ceil(half + w);
    if (lo < 0) lo = 0;
    if (hi > m - 1) hi = m - 1;
    out[0] = test_median_mean(on, (int) m);
    out[1] = test_median_mean(off, (int) m);
    out[2] = test_median_mean(ratio, (int) m);  /* sorts ratio */
    out[3] = m > 0 ? ratio[lo] : 0.0;
    out[4] = m > 0 ? ratio[hi] : 0.0;
}

/* AGREE_TIMER_SKIP=1: per pair of calls, two measures of the call with
 * and without the agreement.  dur: the slowest rank's time in the call
 * (as bench/fcoll_matrix.c times it).  span: from the first rank's entry
 * to the last rank's return, on the node's one clock.  When ranks
 * outnumber cores the two differ: a rank that the scheduler runs late
 * enters late, and without the agreement it also returns late and its own
 * time stays short, so the slowest duration misses the time the call
 * really took on the node, which the agreement (the ranks return
 * together) makes visible. */
static void paired(int op, int np, long n, const double *dur, const double *span,
                   const double *skip)
{
    long m = n / 2;
    double *on, *off, *ratio, d[5], sp[5];

    if (0 == m) {
        printf("AGREE_PAIRED op=%s np=%d pairs=0 (no pair of calls)\n", op_name[op], np);
        return;
    }
    on = xmalloc(m * sizeof(double));
    off = xmalloc(m * sizeof(double));
    ratio = xmalloc(m * sizeof(double));
    pair_stats(n, dur, skip, on, off, ratio, d);
    pair_stats(n, span, skip, on, off, ratio, sp);
    printf("AGREE_PAIRED op=%s np=%d pairs=%ld on_ms=%.3f off_ms=%.3f ratio=%.4f lo=%.4f hi=%.4f"
           " span_on_ms=%.3f span_off_ms=%.3f span_ratio=%.4f span_lo=%.4f span_hi=%.4f\n",
           op_name[op], np, m, d[0] * 1e3, d[1] * 1e3, d[2], d[3], d[4], sp[0] * 1e3,
           sp[1] * 1e3, sp[2], sp[3], sp[4]);
    free(on);
    free(off);
    free(ratio);
}

static void report(int op, int rank, int np)
{
    long n = (long) nrecs[op], lo, hi;
    double *all = NULL, *cmax, *amin, *amax, *span, *skip, callm, agm;
    double nag = 0;
    long i;
    int r;

    /* call i of every rank is the same collective call only if every rank
     * made as many */
    PMPI_Allreduce(&n, &lo, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
    PMPI_Allreduce(&n, &hi, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (lo != hi) {
        if (0 == rank) {
            printf("AGREE_TIMER op=%s np=%d calls=%ld..%ld (differ between ranks: no estimate)\n",
                   op_name[op], np, lo, hi);
        }
        return;
    }
    if (0 == n) {
        /* no median of nothing (it would read before the array) */
        if (0 == rank) {
            printf("AGREE_TIMER op=%s np=%d calls=0 (no timed call)\n", op_name[op], np);
        }
        return;
    }
    if (0 == rank) {
        all = xmalloc((size_t) np * n * sizeof(rec_t) + 1);
    }
    PMPI_Gather(recs[op], (int) (n * REC_DOUBLES), MPI_DOUBLE, all, (int) (n * REC_DOUBLES),
                MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (0 != rank) {
        return;
    }
    cmax = xmalloc(n * sizeof(double) + 1);
    amin = xmalloc(n * sizeof(double) + 1);
    amax = xmalloc(n * sizeof(double) + 1);
    span = xmalloc(n * sizeof(double) + 1);
    skip = xmalloc(n * sizeof(double) + 1);
    for (i = 0; i < n; i++) {
        rec_t *x = (rec_t *) all + i;  /* rank 0's call i */
        double first = x->start, last = x->end;
        cmax[i] = x->call;
        amin[i] = amax[i] = x->agree;
        skip[i] = x->skip;
        for (r = 0; r < np; r++) {
            x = (rec_t *) all + (long) r * n + i;
            if (x->call > cmax[i]) cmax[i] = x->call;
            if (x->agree < amin[i]) amin[i] = x->agree;
            if (x->agree > amax[i]) amax[i] = x->agree;
            if (x->start < first) first = x->start;
            if (x->end > last) last = x->end;
            nag += x->nagree;
        }
        span[i] = last - first;
    }
    if (skip_mode) {
        paired(op, np, n, cmax, span, skip);
    }
    callm = test_median_mean(cmax, (int) n);
    agm = test_median_mean(amin, (int) n);
    printf("AGREE_TIMER op=%s np=%d calls=%ld call_ms=%.3f agree_us=%.2f share_pct=%.3f "
           "agree_max_us=%.2f agreements=%.0f\n",
           op_name[op], np, n, callm * 1e3, agm * 1e6, callm > 0 ? 100 * agm / callm : 0.0,
           test_median_mean(amax, (int) n) * 1e6, nag);
    free(all);
    free(cmax);
    free(amin);
    free(amax);
    free(span);
    free(skip);
}

int MPI_Finalize(void)
{
    int rank, np, op;
    long out = 0;

    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &np);
    fflush(stdout);
    for (op = 0; op < NOPS; op++) {
        report(op, rank, np);
    }
    PMPI_Reduce(&outside_agree, &out, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("AGREE_TIMER outside agreements=%ld\n", out);
        fflush(stdout);
    }
    return PMPI_Finalize();
}
