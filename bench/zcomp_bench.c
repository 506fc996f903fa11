/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Transfer-time benchmark of pml/zcomp: rank 0 sends K messages of a data
 * set to rank 1, which answers with an empty message once it has them all;
 * the time of that exchange divided by K, median of --reps runs after one
 * warm-up, is the transfer time.  K = --batch bytes / message size (at
 * least 1, at most 1024): a single small message measures latency and
 * timer noise, not the transfer, and a shaped link lets a short burst
 * through unshaped.  Run it once with zcomp off (plain ob1) and once with
 * zcomp on, over the same path: bench/zcomp-bench.sh does, and computes the
 * ratios.  With --codecs, ranks 0 and 1 also measure every listed codec on
 * the same data, compressed in chunks as zcomp does (ratio and compress
 * MB/s on rank 0, decompress MB/s on rank 1), for the ideal speedup
 * min(ratio, Vc/B, Vd/B): once right after each timed transfer (one pass;
 * the ideal of that moment) and once after all of them (best of three).
 *
 * --ab (with zcomp on): plain ob1 and zcomp in the same two processes,
 * alternating stream by stream (ABBA order).  zcomp replaces four entries
 * of the PML table (send, isend, isend_init, start) and keeps the one it
 * wraps; for the plain streams both ranks put the wrapped entries back,
 * for the zcomp ones zcomp's.  Receives are the wrapped PML's either way.
 * This is for paths where zcomp sends raw (shared memory): there, separate
 * runs of a few ms differ by more than the few percent in question, and
 * neighbouring streams of one run do not.  Only zcomp's progress callback
 * (two empty-list checks per progress loop) stays during the plain streams.
 *
 *   zcomp_bench [--sets a,b] [--sizes n,m] [--reps N] [--batch B] [--codecs a,b] [--chunk B]
 *               [--ab]
 * Output lines:  xfer <set> <bytes> <median s> <min s>
 *                codec <set> <bytes> <codec> <ratio> <compress MB/s> <decompress MB/s>
 *                xrep <set> <bytes> <rep> <s>          (with --codecs, each timed transfer)
 *                crep <set> <bytes> <rep> <codec> <ratio> <compress MB/s> <decompress MB/s>
 *                ab <set> <bytes> <plain median s> <zcomp median s> <median of plain/zcomp>
 */
#include "ompi_config.h"

#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "opal/mca/base/base.h"
#include "opal/mca/compress/base/base.h"
#include "ompi/mca/pml/pml.h"
#include "check.h"
#include "datasets.h"
#include "datasets_mpi.h"

/* --ab: zcomp's PML table and the one it wraps */
static mca_pml_base_module_t ab_zcomp, *ab_plain;

static void ab_use(int plain)
{
    mca_pml = plain ? *ab_plain : ab_zcomp;
}

/* One timed stream of k messages from rank 0 to rank 1; seconds per message. */
static double stream(unsigned char *buf, int count, MPI_Datatype t, int k, int rank)
{
    double t0;
    int m;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = test_now();
    if (0 == rank) {
        for (m = 0; m < k; m++) {
            MPI_Send(buf, count, t, 1, 1, MPI_COMM_WORLD);
        }
        MPI_Recv(NULL, 0, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (1 == rank) {
        for (m = 0; m < k; m++) {
            MPI_Recv(buf, count, t, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        MPI_Send(NULL, 0, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
    }
    return (test_now() - t0) / k;
}

/* After a codec pass the link was idle: the shaper's bucket is full (slowlink
 * lets 128 KB through unshaped) and TCP may restart slowly.  A timed stream
 * must start on a busy link, as in back-to-back runs without codec passes:
 * 512 KB of random bytes (sent raw) first, untimed. */
static void drain(int rank)
{
    static unsigned char *junk = NULL;
    const int n = 512 * 1024;
    if (NULL == junk) {
        uint64_t s = 99;
        int i;
        junk = malloc(n);
        for (i = 0; i < n; i++) {
            junk[i] = (unsigned char) (test_rand(&s) >> 24);
        }
    }
    if (0 == rank) {
        MPI_Send(junk, n, MPI_BYTE, 1, 3, MPI_COMM_WORLD);
    } else if (1 == rank) {
        MPI_Recv(junk, n, MPI_BYTE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

static int nprocs = 1;

#define MAX_CODECS 16
static const opal_compress_codec_t *codec_tab[MAX_CODECS];
static int n_codecs;

static void codecs_find(const char *codecs)
{
    char *list = strdup(codecs), *tok, *save = NULL;
    for (tok = strtok_r(list, ",", &save); NULL != tok && n_codecs < MAX_CODECS;
         tok = strtok_r(NULL, ",", &save)) {
        const opal_compress_codec_t *c = opal_compress_base_find(tok);
        if (NULL != c) {
            codec_tab[n_codecs++] = c;
        }
    }
    free(list);
}

/* Buffers for measuring the codecs on one message, allocated and touched
 * once so that no pass times page faults.  The output is message-sized, as
 * the receiver decompresses into the user's buffer: a chunk-sized one would
 * stay in cache and overstate the speed. */
typedef struct {
    unsigned char *z, *d;
    size_t *lens, cap, len, chunk;
} codec_bufs_t;

static void bufs_init(codec_bufs_t *b, size_t len, size_t chunk)
{
    size_t nch = (len + chunk - 1) / chunk;
    int i;
    b->cap = 0;
    for (i = 0; i < n_codecs; i++) {
        size_t c = codec_tab[i]->bound(chunk);
        b->cap = c > b->cap ? c : b->cap;
    }
    b->len = len;
    b->chunk = chunk;
    b->z = malloc(b->cap * nch);
    b->d = malloc(len);
    b->lens = malloc(sizeof(size_t) * nch);
    memset(b->z, 0, b->cap * nch);
    memset(b->d, 0, len);
}

static void bufs_fini(codec_bufs_t *b)
{
    free(b->z);
    free(b->d);
    free(b->lens);
}

/* One pass of codec c over the message as zcomp does it: compressed chunk
 * by chunk (a chunk that does not shrink goes raw), then decompressed.
 * Seconds for each half; *out: bytes after compression. */
static void codec_pass(const opal_compress_codec_t *c, const unsigned char *buf, codec_bufs_t *b,
                       double *tc, double *td, size_t *out)
{
    size_t off, zo = 0, len = b->len, chunk = b->chunk;
    double t0 = test_now(), t1;
    int k = 0;
    for (off = 0; off < len; off += chunk) {
        size_t n = len - off < chunk ? len - off : chunk;
        ssize_t r = c->compress(buf + off, n, b->z + zo, b->cap);
        if (r < 0 || (size_t) r >= n) {
            r = (ssize_t) n;
            b->lens[k++] = 0;
        } else {
            b->lens[k++] = (size_t) r;
        }
        zo += (size_t) r;
    }
    t1 = test_now();
    *out = zo;
    zo = 0;
    k = 0;
    for (off = 0; off < len; off += chunk) {
        size_t n = len - off < chunk ? len - off : chunk;
        if (b->lens[k] > 0) {
            (void) c->decompress(b->z + zo, b->lens[k], b->d + off, n, n);
            zo += b->lens[k];
        } else {
            memcpy(b->d + off, buf + off, n);
            zo += n;
        }
        k++;
    }
    *td = test_now() - t1;
    *tc = t1 - t0;
}

/* Both ranks measure every codec at the same time, as both work during a
 * transfer; rank 0 prints its ratio and compression speed with rank 1's
 * decompression speed: each where zcomp does that work (the two cores of a
 * VM need not be equally fast).  Best of `passes`.  rep < 0: the "codec"
 * line after all transfers; else the "crep" line of the transfer just timed. */
static void codec_stats(const char *set, const unsigned char *buf, codec_bufs_t *b, int passes,
                        int rep, int rank)
{
    double tc[MAX_CODECS], td[MAX_CODECS];
    size_t out[MAX_CODECS];
    int i, p;
    for (i = 0; i < n_codecs; i++) {
        tc[i] = td[i] = 1e30;
        for (p = 0; p < passes; p++) {
            double c, d;
            codec_pass(codec_tab[i], buf, b, &c, &d, &out[i]);
            tc[i] = c < tc[i] ? c : tc[i];
            td[i] = d < td[i] ? d : td[i];
        }
    }
    if (1 == rank) {
        MPI_Send(td, n_codecs, MPI_DOUBLE, 0, 99, MPI_COMM_WORLD);
        return;
    }
    if (nprocs > 1) {
        MPI_Recv(td, n_codecs, MPI_DOUBLE, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (i = 0; i < n_codecs; i++) {
        double r = (double) b->len / out[i], vc = b->len / tc[i] / 1e6, vd = b->len / td[i] / 1e6;
        if (rep < 0) {
            printf("codec %s %zu %s %.4f %.1f %.1f\n", set, b->len, codec_tab[i]->name, r, vc, vd);
        } else {
            printf("crep %s %zu %d %s %.4f %.1f %.1f\n", set, b->len, rep, codec_tab[i]->name, r,
                   vc, vd);
        }
    }
}

int main(int argc, char **argv)
{
    const char *sets = "int-90%zero,random-bytes", *sizes = "4096,65536,1048576,16777216";
    const char *codecs = NULL;
    size_t chunk = 256 * 1024, batch = 1u << 20;
    int reps = 3, rank, i, ab = 0;
    char *sl, *s1, *save1 = NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    for (i = 1; i < argc; i++) {
        if (0 == strcmp(argv[i], "--sets") && i + 1 < argc) {
            sets = argv[++i];
        } else if (0 == strcmp(argv[i], "--sizes") && i + 1 < argc) {
            sizes = argv[++i];
        } else if (0 == strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
        } else if (0 == strcmp(argv[i], "--codecs") && i + 1 < argc) {
            codecs = argv[++i];
        } else if (0 == strcmp(argv[i], "--batch") && i + 1 < argc) {
            batch = strtoul(argv[++i], NULL, 10);
        } else if (0 == strcmp(argv[i], "--chunk") && i + 1 < argc) {
            chunk = strtoul(argv[++i], NULL, 10);
        } else if (0 == strcmp(argv[i], "--ab")) {
            ab = 1;
        }
    }
    if (ab) {
        ab_plain = (mca_pml_base_module_t *) dlsym(RTLD_DEFAULT, "mca_pml_zcomp_wrapped_export");
        if (NULL == ab_plain) { /* a zcomp built before the fast path */
            ab_plain = (mca_pml_base_module_t *) dlsym(RTLD_DEFAULT, "mca_pml_zcomp_wrapped");
        }
        if (NULL == ab_plain || mca_pml.pml_send == ab_plain->pml_send) {
            if (0 == rank) {
                fprintf(stderr, "zcomp_bench: --ab needs zcomp on (--mca pml_zcomp_enable 1)\n");
            }
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        ab_zcomp = mca_pml;
    }
    if (NULL != codecs && rank < 2) {
        mca_base_framework_open(&opal_compress_base_framework, 0);
        opal_compress_base_select();
        codecs_find(codecs);
    }
    sl = strdup(sets);
    for (s1 = strtok_r(sl, ",", &save1); NULL != s1; s1 = strtok_r(NULL, ",", &save1)) {
        const dataset_t *d = dataset_find(s1);
        char *zl = strdup(sizes), *s2, *save2 = NULL;
        if (NULL == d) {
            if (0 == rank) {
                fprintf(stderr, "zcomp_bench: unknown data set %s\n", s1);
            }
            continue;
        }
        for (s2 = strtok_r(zl, ",", &save2); NULL != s2; s2 = strtok_r(NULL, ",", &save2)) {
            size_t bytes = strtoul(s2, NULL, 10);
            MPI_Datatype t = dataset_mpi_type(d);
            int tsize, count, r, k = bytes >= batch ? 1 : (int) (batch / bytes);
            unsigned char *buf;
            double *ts = malloc(sizeof(double) * (size_t) (reps + 1));
            if (k > 1024) {
                k = 1024;
            }
            MPI_Type_size(t, &tsize);
            count = (int) (bytes / (size_t) tsize);
            buf = malloc(bytes + 64);
            d->fill(buf, bytes, 12345);
            /* tz, q: zcomp's times and the plain/zcomp ratios (--ab only) */
            double *tz = ab ? malloc(sizeof(double) * (size_t) (reps + 1)) : NULL;
            double *q = ab ? malloc(sizeof(double) * (size_t) (reps + 1)) : NULL;
            int measure = NULL != codecs && rank < 2;
            codec_bufs_t cb;
            if (measure) {
                bufs_init(&cb, bytes, chunk);
            }
            for (r = 0; r <= reps; r++) {
                int f;
                if (!ab) {
                    ts[r] = stream(buf, count, t, k, rank);
                    /* the machine's speed drifts (other tenants of the VM):
                     * codec figures right after each timed transfer give
                     * the ideal of that moment */
                    if (measure && r > 0) {
                        if (0 == rank) {
                            printf("xrep %s %zu %d %.9f\n", d->name, bytes, r, ts[r]);
                        }
                        codec_stats(d->name, buf, &cb, 1, r, rank);
                        if (r < reps) {
                            drain(rank);
                        }
                    }
                    continue;
                }
                /* ABBA: plain first in even pairs, zcomp first in odd ones */
                for (f = 0; f < 2; f++) {
                    int plain = (f == 0) != (r & 1);
                    ab_use(plain);
                    *(plain ? &ts[r] : &tz[r]) = stream(buf, count, t, k, rank);
                }
                q[r] = ts[r] / tz[r];
            }
            if (ab) {
                ab_use(0); /* leave zcomp's table in place */
            }
            if (0 == rank) { /* [0]: warm-up */
                qsort(ts + 1, (size_t) reps, sizeof(double), test_cmp_double);
                if (ab) {
                    qsort(tz + 1, (size_t) reps, sizeof(double), test_cmp_double);
                    qsort(q + 1, (size_t) reps, sizeof(double), test_cmp_double);
                    printf("ab %s %zu %.9f %.9f %.6f\n", d->name, bytes, ts[1 + reps / 2],
                           tz[1 + reps / 2], q[1 + reps / 2]);
                } else {
                    printf("xfer %s %zu %.9f %.9f\n", d->name, bytes, ts[1 + reps / 2], ts[1]);
                }
                fflush(stdout);
            }
            if (measure) {
                codec_stats(d->name, buf, &cb, 3, -1, rank);
                fflush(stdout);
                bufs_fini(&cb);
            }
            free(tz);
            free(q);
            free(buf);
            free(ts);
        }
        free(zl);
    }
    free(sl);
    MPI_Finalize();
    return 0;
}
