/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Codec benchmark of opal/mca/compress, through the framework (as pml/zcomp
 * uses it), on the seed's data sets and two realistic ones.  For each data
 * set and size: ratio, compress and decompress MB/s per codec, and memcpy
 * MB/s measured in the same run as the reference.  Then the framework's
 * overhead against calling liblz4 and libzstd directly, interleaved in the
 * same run.  Codec times are medians of repeated runs; the overhead is
 * the median ratio of many back-to-back pairs.
 *
 * Usage: compress_bench [--quick] [--reps N] [--sizes a,b,...] [--codecs a,b]
 *                       [--overhead-only]
 */
#include "opal_config.h"

#include <lz4.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zstd.h>

#include "opal/mca/base/base.h"
#include "opal/mca/compress/base/base.h"
#include "opal/runtime/opal.h"
#include "check.h"
#include "datasets.h"

/* CPU time of this thread: time while descheduled by other load is not
 * counted, which keeps the overhead comparison meaningful on a busy machine. */
static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Repeat inner calls so that each timed sample lasts at least ~2 ms. */
static int inner_reps(size_t len)
{
    return len >= (1u << 20) ? 1 : (int) ((1u << 21) / (len ? len : 1));
}

static volatile size_t sink;

/* A codec knob's value as the framework sees it (MCA variable system), so
 * that the direct calls use the same setting. */
static int knob(const char *comp, const char *name, int dflt)
{
    const int *v = NULL;
    int idx = mca_base_var_find("opal", "compress", comp, name);
    if (idx >= 0 && OPAL_SUCCESS == mca_base_var_get_value(idx, &v, NULL, NULL) && NULL != v) {
        return *v;
    }
    return dflt;
}

int main(int argc, char **argv)
{
    size_t sizes[8] = {65536, 1u << 20, 16u << 20};
    int nsizes = 3, reps = 7, overhead_only = 0;
    const char *codec_list = NULL;

    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--quick")) { sizes[0] = 65536; sizes[1] = 1u << 20; nsizes = 2; reps = 3; }
        else if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--codecs") && a + 1 < argc) codec_list = argv[++a];
        else if (!strcmp(argv[a], "--overhead-only")) overhead_only = 1;
        else if (!strcmp(argv[a], "--sizes") && a + 1 < argc) {
            nsizes = 0;
            for (char *t = strtok(argv[++a], ","); t && nsizes < 8; t = strtok(NULL, ","))
                sizes[nsizes++] = strtoull(t, NULL, 0);
        } else { fprintf(stderr, "unknown argument %s\n", argv[a]); return 2; }
    }
    if (reps < 1 || reps > 99) reps = 7;

    if (OPAL_SUCCESS != opal_init_util(&argc, &argv)
        || OPAL_SUCCESS != mca_base_framework_open(&opal_compress_base_framework, 0)
        || OPAL_SUCCESS != opal_compress_base_select()) {
        fprintf(stderr, "compress_bench: cannot open the compress framework\n");
        return 1;
    }
    const opal_compress_codec_t *all[32], *codecs[32];
    int nall = opal_compress_base_codecs(all, 32), n = 0;
    for (int i = 0; i < nall; i++) {
        if (NULL == codec_list || strstr(codec_list, all[i]->name)) codecs[n++] = all[i];
    }

    size_t maxlen = 0;
    for (int i = 0; i < nsizes; i++) maxlen = sizes[i] > maxlen ? sizes[i] : maxlen;
    size_t zcap = 0;
    for (int i = 0; i < nall; i++) zcap = all[i]->bound(maxlen) > zcap ? all[i]->bound(maxlen) : zcap;
    unsigned char *src = malloc(maxlen), *z = malloc(zcap), *dst = malloc(maxlen);
    double *t = malloc(sizeof(double) * reps), *t2 = malloc(sizeof(double) * reps);
    int fail = 0;

    if (!overhead_only) {
        printf("%-16s %9s %-8s %7s %9s %9s %8s %8s\n", "dataset", "bytes", "codec", "ratio",
               "comp_MB/s", "dec_MB/s", "comp/cpy", "dec/cpy");
        for (int d = 0; d < n_datasets; d++) {
            for (int si = 0; si < nsizes; si++) {
                size_t len = sizes[si];
                int in = inner_reps(len);
                datasets[d].fill(src, len, 42 + d);
                for (int r = 0; r < reps; r++) {
                    double t0 = test_now();
                    for (int k = 0; k < in; k++) { memcpy(dst, src, len); sink += dst[k % len]; }
                    t[r] = (test_now() - t0) / in;
                }
                double cpy = len / test_median_mean(t, reps) / 1e6;
                printf("%-16s %9zu %-8s %7s %9.0f %9.0f %8s %8s\n", datasets[d].name, len,
                       "memcpy", "1.00", cpy, cpy, "1.000", "1.000");
                for (int c = 0; c < n; c++) {
                    ssize_t zn = 0;
                    for (int r = 0; r < reps; r++) {
                        double t0 = test_now();
                        for (int k = 0; k < in; k++) zn = codecs[c]->compress(src, len, z, zcap);
                        t[r] = (test_now() - t0) / in;
                        t0 = test_now();
                        for (int k = 0; k < in; k++)
                            sink += codecs[c]->decompress(z, (size_t) zn, dst, len, len);
                        t2[r] = (test_now() - t0) / in;
                    }
                    if (zn < 0 || 0 != memcmp(src, dst, len)) {
                        printf("%-16s %9zu %-8s ROUND TRIP FAILED\n", datasets[d].name, len,
                               codecs[c]->name);
                        fail = 1;
                        continue;
                    }
                    double cm = len / test_median_mean(t, reps) / 1e6;
                    double dm = len / test_median_mean(t2, reps) / 1e6;
                    printf("%-16s %9zu %-8s %7.2f %9.0f %9.0f %8.3f %8.3f\n", datasets[d].name,
                           len, codecs[c]->name, zn ? (double) len / zn : 0.0, cm, dm, cm / cpy,
                           dm / cpy);
                }
            }
        }
    }

    /* Framework overhead: the same compress/decompress through the codec
     * table and directly through the libraries, alternating, same buffers. */
    const opal_compress_codec_t *lz4 = opal_compress_base_find("lz4");
    const opal_compress_codec_t *zstd = opal_compress_base_find("zstd");
    if (NULL != lz4 && NULL != zstd) {
        int accel = knob("lz4", "acceleration", 1), level = knob("zstd", "level", 1);
        ZSTD_CCtx *cctx = ZSTD_createCCtx();
        ZSTD_DCtx *dctx = ZSTD_createDCtx();
        static const int sets[] = {3, 16, 17}; /* int-75%zero, field3d, sparse-index */
        static const size_t osz[] = {65536, 1u << 20};
        int oreps = reps < 31 ? 31 : reps;
        double *a = malloc(sizeof(double) * oreps), *b = malloc(sizeof(double) * oreps);
        double *ratio = malloc(sizeof(double) * oreps);
        double worst = -1e9;
        printf("\nframework overhead (thread CPU time, median ratio of %d back-to-back pairs; + = framework slower; "
               "lz4 acceleration %d, zstd level %d)\n", oreps, accel, level);
        printf("%-16s %9s %-14s %10s %10s %9s\n", "dataset", "bytes", "operation", "direct_us",
               "framework_us", "overhead");
        for (int si = 0; si < 2; si++) {
            for (int di = 0; di < 3; di++) {
                size_t len = osz[si];
                int in = len >= 262144 ? 1 : (int) (262144 / len); /* short samples */
                datasets[sets[di]].fill(src, len, 7);
                for (int op = 0; op < 4; op++) {
                    const char *name[] = {"lz4 compress", "lz4 decompress", "zstd compress",
                                          "zstd decompress"};
                    int zn4 = LZ4_compress_fast((const char *) src, (char *) z, (int) len,
                                                (int) zcap, accel);
                    size_t znz = 0;
                    if (op >= 2) znz = ZSTD_compressCCtx(cctx, z, zcap, src, len, level);
                    for (int r = 0; r < oreps; r++) {
                        for (int side = 0; side < 2; side++) {
                            int fw = (r + side) % 2; /* alternate which goes first */
                            double t0 = cpu_now();
                            for (int k = 0; k < in; k++) {
                                switch (op * 2 + fw) {
                                case 0: sink += LZ4_compress_fast((const char *) src, (char *) z, (int) len, (int) zcap, accel); break;
                                case 1: sink += lz4->compress(src, len, z, zcap); break;
                                case 2: sink += LZ4_decompress_safe((const char *) z, (char *) dst, zn4, (int) len); break;
                                case 3: sink += lz4->decompress(z, zn4, dst, len, len); break;
                                case 4: sink += ZSTD_compressCCtx(cctx, z, zcap, src, len, level); break;
                                case 5: sink += zstd->compress(src, len, z, zcap); break;
                                case 6: sink += ZSTD_decompressDCtx(dctx, dst, len, z, znz); break;
                                case 7: sink += zstd->decompress(z, znz, dst, len, len); break;
                                }
                            }
                            (fw ? b : a)[r] = (cpu_now() - t0) / in;
                        }
                    }
                    /* The two sides of a pair run back to back and share the
                     * machine's conditions, so the median of the pairs' ratios
                     * is robust to bursts of load from other tenants; the
                     * times shown are each side's fastest sample. */
                    double da = a[0], db = b[0];
                    for (int r = 0; r < oreps; r++) {
                        da = a[r] < da ? a[r] : da;
                        db = b[r] < db ? b[r] : db;
                        ratio[r] = b[r] / a[r];
                    }
                    double ov = (test_median_mean(ratio, oreps) - 1.0) * 100.0;
                    worst = ov > worst ? ov : worst;
                    printf("%-16s %9zu %-14s %10.2f %10.2f %+8.2f%%\n", datasets[sets[di]].name,
                           len, name[op], da * 1e6, db * 1e6, ov);
                }
            }
        }
        printf("framework overhead: worst %+.2f%% (bar: < 5%%)\n", worst);
        ZSTD_freeCCtx(cctx);
        ZSTD_freeDCtx(dctx);
        free(a);
        free(b);
        free(ratio);
    }

    free(src); free(z); free(dst); free(t); free(t2);
    mca_base_framework_close(&opal_compress_base_framework);
    opal_finalize_util();
    return fail;
}
