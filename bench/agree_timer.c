/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * What share of a collective MPI-IO call the error agreement of patch
 * 0012 takes (issue 35), measured inside the call instead of by paired
 * runs, whose noise on a 2-core VM is far above 1 %.  An LD_PRELOAD shim:
 *
 *   mpicc -O2 -Wall -Itest/common -shared -fPIC -o agree_timer.so bench/agree_timer.c -ldl
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
 * and one line "AGREE_TIMER outside agreements=K" for agreements made
 * outside the timed calls (MPI_File_sync's, patch 0013), summed over ranks.
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
} rec_t;

static rec_t *recs[NOPS];
static size_t nrecs[NOPS], caprecs[NOPS];

/* > 0 while inside a timed call: nested MPI calls are not timed again, and
 * the agreement's time goes to the call in progress */
static int depth;
static double cur_agree, cur_nagree;
static long outside_agree;  /* agreements outside any timed call */

static void record(int op, double call)
{
    if (nrecs[op] == caprecs[op]) {
        caprecs[op] = caprecs[op] ? 2 * caprecs[op] : 256;
        recs[op] = realloc(recs[op], caprecs[op] * sizeof(rec_t));
        if (NULL == recs[op]) {
            fprintf(stderr, "agree_timer: out of memory\n");
            abort();
        }
    }
    recs[op][nrecs[op]].call = call;
    recs[op][nrecs[op]].agree = cur_agree;
    recs[op][nrecs[op]].nagree = cur_nagree;
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
    t0 = test_now();
    rc = real(fh, ret, met_eof, iov, iov_count, status);
    agreed(test_now() - t0);
    return rc;
}

/* ---- the collective calls (MPI profiling interface) ---- */

#define TIMED(op, call) \
    do { \
        double t0; \
        int rc; \
        if (depth > 0) { \
            return call; \
        } \
        depth++; \
        cur_agree = cur_nagree = 0; \
        t0 = test_now(); \
        rc = call; \
        record(op, test_now() - t0); \
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

static void report(int op, int rank, int np)
{
    long n = (long) nrecs[op], lo, hi;
    double *all = NULL, *cmax, *amin, *amax, callm, agm;
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
    if (0 == rank) {
        all = xmalloc((size_t) np * n * 3 * sizeof(double) + 1);
    }
    PMPI_Gather(recs[op], (int) (n * 3), MPI_DOUBLE, all, (int) (n * 3), MPI_DOUBLE, 0,
                MPI_COMM_WORLD);
    if (0 != rank) {
        return;
    }
    cmax = xmalloc(n * sizeof(double) + 1);
    amin = xmalloc(n * sizeof(double) + 1);
    amax = xmalloc(n * sizeof(double) + 1);
    for (i = 0; i < n; i++) {
        rec_t *x = (rec_t *) all + i;  /* rank 0's call i */
        cmax[i] = x->call;
        amin[i] = amax[i] = x->agree;
        for (r = 0; r < np; r++) {
            x = (rec_t *) all + (long) r * n + i;
            if (x->call > cmax[i]) cmax[i] = x->call;
            if (x->agree < amin[i]) amin[i] = x->agree;
            if (x->agree > amax[i]) amax[i] = x->agree;
            nag += x->nagree;
        }
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
}

int MPI_Finalize(void)
{
    int rank, np, op;
    long out = 0;

    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &np);
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
