/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * What the fcoll benchmarks share: the run lists of hindexed file views
 * and the BIPS3D-like irregular workload (bench/fcoll_bench.c,
 * bench/fcoll_matrix.c), and the command line, pattern check and RESULT
 * line of bench/fcoll_matrix.c and bench/fcoll_hdf5.c.
 */
#ifndef BENCH_FCOLL_WORKLOADS_H
#define BENCH_FCOLL_WORKLOADS_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../test/common/check.h" /* builds without -I (bench/fcoll_matrix.sh: fcoll_hdf5) */

#define FCOLL_IRREGULAR_ESZ 48 /* irregular: bytes an element */
/* xorshift, not test_rand: the irregular workload of the published runs
 * follows from its sequence from this seed */
#define FCOLL_IRREGULAR_SEED 88172645463325252ULL

static inline uint64_t fcoll_xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A rank's file runs for a hindexed file view: run i is bl[i] units at
 * file byte dp[i]; cap the room in bl and dp. */
typedef struct {
    int n, cap;
    int *bl;
    MPI_Aint *dp;
} fcoll_runs_t;

/* No runs yet, room for 1024. */
static inline void fcoll_runs_init(fcoll_runs_t *r)
{
    r->n = 0;
    r->cap = 1024;
    r->bl = xmalloc(r->cap * sizeof(int));
    r->dp = xmalloc(r->cap * sizeof(MPI_Aint));
}

/* Appends the run [off, off + len) (units of the hindexed blocklengths;
 * off in bytes, unit bytes a unit), merged with the last one when
 * adjacent. */
static inline void fcoll_add_run(fcoll_runs_t *r, int64_t off, int64_t len, int unit)
{
    if (r->n > 0 && r->dp[r->n - 1] + (MPI_Aint) r->bl[r->n - 1] * unit == off) {
        r->bl[r->n - 1] += (int) len;
        return;
    }
    if (r->n == r->cap) {
        r->cap *= 2;
        r->bl = realloc(r->bl, r->cap * sizeof(int));
        r->dp = realloc(r->dp, r->cap * sizeof(MPI_Aint));
        CHECK(NULL != r->bl && NULL != r->dp, "out of memory");
    }
    r->bl[r->n] = (int) len;
    r->dp[r->n] = (MPI_Aint) off;
    r->n++;
}

/* The irregular (BIPS3D-like) workload of total bytes over nprocs ranks:
 * elements of FCOLL_IRREGULAR_ESZ bytes (the file is the total / ESZ whole
 * ones); the file is cut into nprocs equal regions; runs of 1..32 elements
 * of region g belong (70 % of the runs) to rank (g + P/2 + 1) mod P, the
 * rest are runs of 1..8 elements of random ranks.  Sets runs (initialised
 * here) to rank's runs in bytes, adjacent ones merged, and returns the
 * bytes rank owns.  The sequence is the same on every rank. */
static inline int64_t fcoll_irregular(int64_t total, int nprocs, int rank, fcoll_runs_t *runs)
{
    uint64_t s = FCOLL_IRREGULAR_SEED;
    int64_t E = total / FCOLL_IRREGULAR_ESZ, e = 0, my = 0;
    fcoll_runs_init(runs);
    while (e < E) {
        int64_t g = e * nprocs / E;
        int owner, len;
        if (fcoll_xorshift(&s) % 100 < 70) {
            owner = (int) ((g + nprocs / 2 + 1) % nprocs);
            len = 1 + (int) (fcoll_xorshift(&s) % 32);
        } else {
            owner = (int) (fcoll_xorshift(&s) % nprocs);
            len = 1 + (int) (fcoll_xorshift(&s) % 8);
        }
        if (e + len > E) {
            len = (int) (E - e);
        }
        if (owner == rank) {
            fcoll_add_run(runs, e * FCOLL_IRREGULAR_ESZ, (int64_t) len * FCOLL_IRREGULAR_ESZ, 1);
            my += (int64_t) len * FCOLL_IRREGULAR_ESZ;
        }
        e += len;
    }
    return my;
}

/* The command line of fcoll_matrix and fcoll_hdf5: FILE PATTERN REPS
 * [same|reopen], and env MB (default 32). */
typedef struct {
    const char *path, *pattern, *mode; /* mode "same" or "reopen" */
    int reps, reopen;
    int64_t mb;
} fcoll_args_t;

/* 0, or 2 after the usage of prog (patterns its PATTERN list) on rank 0's
 * stderr. */
static inline int fcoll_args(int argc, char **argv, int rank, const char *prog,
                             const char *patterns, fcoll_args_t *a)
{
    const char *env;
    if (argc < 4 || atoi(argv[3]) < 1
        || (argc > 4 && 0 != strcmp(argv[4], "same") && 0 != strcmp(argv[4], "reopen"))) {
        if (0 == rank) {
            fprintf(stderr,
                    "usage: %s FILE PATTERN REPS [same|reopen]   (env MB)\n"
                    "  PATTERN: %s\n",
                    prog, patterns);
        }
        return 2;
    }
    a->path = argv[1];
    a->pattern = argv[2];
    a->reps = atoi(argv[3]);
    a->mode = argc > 4 ? argv[4] : "same";
    a->reopen = 0 == strcmp(a->mode, "reopen");
    env = getenv("MB");
    a->mb = NULL != env ? atoll(env) : 32;
    return 0;
}

/* A pattern that cannot be laid out for this P or MB: the condition is the
 * same on every rank, so all stop here. */
static inline void fcoll_need(int cond, const char *prog, const char *pattern, int rank,
                              int nprocs, const char *what)
{
    if (!cond) {
        if (0 == rank) {
            fprintf(stderr, "%s: pattern %s cannot run with P=%d: %s\n", prog, pattern, nprocs,
                    what);
        }
        MPI_Finalize();
        exit(2);
    }
}

static inline void fcoll_print_list(const char *name, const double *v, int n)
{
    int i;
    printf(" %s=", name);
    for (i = 0; i < n; i++) {
        printf("%s%.6f", i ? "," : "", v[i]);
    }
}

/* rank 0: RESULT pattern=P mode=M np=N bytes=B write_s=MED read_s=MED
 * write_all=t1,t2,... read_all=t1,t2,... (tw, tr: reps seconds each) */
static inline void fcoll_print_result(const char *pattern, const char *mode, int nprocs,
                                      int64_t bytes, const double *tw, const double *tr, int reps)
{
    double *sorted = xmalloc(reps * sizeof(double));
    memcpy(sorted, tw, reps * sizeof(double));
    printf("RESULT pattern=%s mode=%s np=%d bytes=%lld write_s=%.6f", pattern, mode, nprocs,
           (long long) bytes, test_median(sorted, reps));
    memcpy(sorted, tr, reps * sizeof(double));
    printf(" read_s=%.6f", test_median(sorted, reps));
    fcoll_print_list("write_all", tw, reps);
    fcoll_print_list("read_all", tr, reps);
    printf("\n");
    fflush(stdout);
    free(sorted);
}

#endif
