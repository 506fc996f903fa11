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
 * min(ratio, Vc/B, Vd/B).
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
#include "datasets.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

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
    t0 = now();
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
    return (now() - t0) / k;
}

/* The reference set: ints, 90 % of them zero at random places. */
static void fill_int90(unsigned char *buf, size_t len, uint64_t seed)
{
    uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
    size_t i, n = len / 4;
    for (i = 0; i < n; i++) {
        uint64_t r = ds_rand(&s);
        int32_t v = (r % 100) < 90 ? 0 : (int32_t) (r >> 32);
        memcpy(buf + 4 * i, &v, 4);
    }
    for (i = 4 * n; i < len; i++) {
        buf[i] = 0;
    }
}

static const dataset_t *find_set(const char *name)
{
    static const dataset_t int90 = {"int-90%zero", 4, fill_int90};
    int i;
    if (0 == strcmp(name, int90.name)) {
        return &int90;
    }
    for (i = 0; i < n_datasets; i++) {
        if (0 == strcmp(datasets[i].name, name)) {
            return &datasets[i];
        }
    }
    return NULL;
}

static MPI_Datatype type_of(const dataset_t *d)
{
    if (0 == strncmp(d->name, "float", 5)) {
        return MPI_FLOAT;
    }
    if (8 == d->elem_size) {
        return MPI_DOUBLE;
    }
    if (4 == d->elem_size) {
        return MPI_INT;
    }
    return MPI_BYTE;
}

static int nprocs = 1;

/* Both ranks measure every codec at the same time, as both work during a
 * transfer; rank 0 prints its ratio and compression speed with rank 1's
 * decompression speed: each where zcomp does that work (the two cores of a
 * VM need not be equally fast). */
static void codec_stats(const char *set, const unsigned char *buf, size_t len, const char *codecs,
                        size_t chunk, int rank)
{
    char *list = strdup(codecs), *tok, *save = NULL;
    for (tok = strtok_r(list, ",", &save); NULL != tok; tok = strtok_r(NULL, ",", &save)) {
        const opal_compress_codec_t *c = opal_compress_base_find(tok);
        size_t off, out = 0, cap;
        unsigned char *z, *d;
        double tc = 1e30, td = 1e30;
        int rep;
        if (NULL == c) {
            continue;
        }
        cap = c->bound(chunk);
        z = malloc(cap * ((len + chunk - 1) / chunk));
        /* decompress into a buffer of the message's size, as the receiver
         * does into the user's buffer: a chunk-sized one would stay in
         * cache and overstate the speed */
        d = malloc(len);
        for (rep = 0; rep < 3; rep++) {
            double t0 = now(), t1, t2;
            size_t zo = 0;
            size_t *lens = malloc(sizeof(size_t) * ((len + chunk - 1) / chunk + 1));
            int k = 0;
            for (off = 0; off < len; off += chunk) {
                size_t n = len - off < chunk ? len - off : chunk;
                ssize_t r = c->compress(buf + off, n, z + zo, cap);
                if (r < 0 || (size_t) r >= n) {
                    r = (ssize_t) n; /* stored raw, as zcomp does */
                    lens[k++] = 0;
                } else {
                    lens[k++] = (size_t) r;
                }
                zo += (size_t) r;
            }
            t1 = now();
            zo = 0;
            k = 0;
            for (off = 0; off < len; off += chunk) {
                size_t n = len - off < chunk ? len - off : chunk;
                if (lens[k] > 0) {
                    (void) c->decompress(z + zo, lens[k], d + off, n, n);
                    zo += lens[k];
                } else {
                    memcpy(d + off, buf + off, n);
                    zo += n;
                }
                k++;
            }
            t2 = now();
            out = zo;
            free(lens);
            if (t1 - t0 < tc) {
                tc = t1 - t0;
            }
            if (t2 - t1 < td) {
                td = t2 - t1;
            }
        }
        if (1 == rank) {
            MPI_Send(&td, 1, MPI_DOUBLE, 0, 99, MPI_COMM_WORLD);
        } else if (0 == rank) {
            if (nprocs > 1) {
                MPI_Recv(&td, 1, MPI_DOUBLE, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            printf("codec %s %zu %s %.4f %.1f %.1f\n", set, len, c->name, (double) len / out,
                   len / tc / 1e6, len / td / 1e6);
        }
        free(z);
        free(d);
    }
    free(list);
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
        ab_plain = (mca_pml_base_module_t *) dlsym(RTLD_DEFAULT, "mca_pml_zcomp_wrapped");
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
    }
    sl = strdup(sets);
    for (s1 = strtok_r(sl, ",", &save1); NULL != s1; s1 = strtok_r(NULL, ",", &save1)) {
        const dataset_t *d = find_set(s1);
        char *zl = strdup(sizes), *s2, *save2 = NULL;
        if (NULL == d) {
            if (0 == rank) {
                fprintf(stderr, "zcomp_bench: unknown data set %s\n", s1);
            }
            continue;
        }
        for (s2 = strtok_r(zl, ",", &save2); NULL != s2; s2 = strtok_r(NULL, ",", &save2)) {
            size_t bytes = strtoul(s2, NULL, 10);
            MPI_Datatype t = type_of(d);
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
            for (r = 0; r <= reps; r++) {
                int f;
                if (!ab) {
                    ts[r] = stream(buf, count, t, k, rank);
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
                qsort(ts + 1, (size_t) reps, sizeof(double), cmp_d);
                if (ab) {
                    qsort(tz + 1, (size_t) reps, sizeof(double), cmp_d);
                    qsort(q + 1, (size_t) reps, sizeof(double), cmp_d);
                    printf("ab %s %zu %.9f %.9f %.6f\n", d->name, bytes, ts[1 + reps / 2],
                           tz[1 + reps / 2], q[1 + reps / 2]);
                } else {
                    printf("xfer %s %zu %.9f %.9f\n", d->name, bytes, ts[1 + reps / 2], ts[1]);
                }
                fflush(stdout);
            }
            if (NULL != codecs && rank < 2) {
                codec_stats(d->name, buf, bytes, codecs, chunk, rank);
                fflush(stdout);
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
