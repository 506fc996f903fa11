/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Unit test of grpmap's wtr representation (wavelet tree on runs): the
 * shared contract checks on the identity (1 run, any n up to 2^20 + 1),
 * n = 0, 1, 2, permutations shuffle-merged from 2 .. 50,000 ascending runs
 * of random lengths (word, superblock and sample boundaries, a level of
 * sparse ones), all permutations of n <= 5 and random ones of small n;
 * the declines (reversal over the run limit or over ceil(lg n) bits,
 * a lowered limit, inputs that are not permutations); estimate == bytes;
 * bits an element against lg(rho), SELECT and RANK ns.
 */
#include <math.h>
#include <string.h>

#include "test/common/check.h"
#include "ompi/mca/grpmap/grpmap_repr.h"
#include "test/unit/grpmap_check.h"
#include "ompi/mca/grpmap/wtr/grpmap_wtr.h"

static const grpmap_repr_t *R = &grpmap_wtr_repr;

/* A permutation of [0, n) merged from rho ascending runs of random lengths
 * (rho <= n): every value goes to a random run, the runs follow each other. */
static void shuffle_merge(uint64_t *s, int32_t *out, int32_t n, int32_t rho)
{
    int32_t *cut = xmalloc(sizeof(int32_t) * (size_t) rho), *lab, *pos, r, v, i = 0;
    lab = xmalloc(sizeof(int32_t) * (size_t) n);
    pos = xmalloc(sizeof(int32_t) * (size_t) (rho + 1));
    gm_random_set(s, cut, rho - 1, n - 1);   /* rho - 1 cuts in [1, n) */
    pos[0] = 0;
    for (r = 0; r < rho; r++) {
        int32_t end = r < rho - 1 ? cut[r] + 1 : n;
        pos[r + 1] = end;
        for (; i < end; i++) {
            lab[i] = r;
        }
    }
    gm_shuffle(s, lab, n);
    for (v = 0; v < n; v++) {
        out[pos[lab[v]]++] = v;
    }
    free(cut);
    free(lab);
    free(pos);
}

/* (small n: the fixed words of each level, ~40 bytes, can outweigh a
 * ceil(lg n)-bit array; from n = 1024 on, a few runs never do) */
static int runs_of(const int32_t *p, int32_t n)
{
    grpmap_input_t in;
    grpmap_input_init(&in, p, n, n);
    return in.runs;
}

/* build must answer rc; on OK checks estimate == bytes */
static void expect(const int32_t *p, int32_t n, int32_t world, int rc, const char *what)
{
    grpmap_input_t in;
    void *map = (void *) 1;
    size_t est;
    int got;
    grpmap_input_init(&in, p, n, world);
    est = R->estimate(&in);
    got = R->build(&in, &map);
    CHECK(got == rc, "%s: build returned %d, expected %d", what, got, rc);
    if (GRPMAP_OK == got) {
        CHECK(est == R->bytes(map), "%s: estimate %zu, bytes %zu", what, est, R->bytes(map));
        R->release(map);
    } else {
        CHECK(NULL == map, "%s: declined but left a map", what);
    }
}

int main(void)
{
    uint64_t s = 7;
    int32_t big = (1 << 20) + 1, *p = xmalloc(sizeof(int32_t) * (size_t) big), *idx;
    int32_t i, n, k;
    const int32_t rhos[] = {2, 3, 10, 100, 1000, 1025};
    const int32_t sizes[] = {63, 64, 65, 1023, 1024, 1025, 2047, 2049, 4096, 100003};
    char what[96];

    /* n = 0, 1, 2 and the identity (one run: the header only) */
    gm_check(R, p, 0, 0, 1, "empty");
    p[0] = 0;
    gm_check(R, p, 1, 1, 1, "n = 1");
    p[1] = 1;
    gm_check(R, p, 2, 2, 1, "identity n = 2");
    p[0] = 1;
    p[1] = 0;
    expect(p, 2, 2, GRPMAP_DECLINE, "n = 2 reversed (2 bits a level > 1-bit array)");
    for (i = 0; i < big; i++) p[i] = i;
    gm_check(R, p, 1 << 20, 1 << 20, 1, "identity 2^20");
    gm_check(R, p, big, big, 1, "identity 2^20 + 1");
    expect(p, big, big, GRPMAP_OK, "identity 2^20 + 1");

    /* reversal: n runs; over the limit, and within it over ceil(lg n) bits */
    n = 100000;
    for (i = 0; i < n; i++) p[i] = n - 1 - i;
    expect(p, n, n, GRPMAP_DECLINE, "reversal of 100,000 (runs over 50,000)");
    grpmap_wtr_set_max_runs(INT32_MAX);
    expect(p, n, n, GRPMAP_DECLINE, "reversal of 100,000, no run limit (over 17 bits)");
    for (n = 1; n <= 5; n++) {   /* every permutation of n <= 5, no limit */
        int32_t c[6] = {0};
        for (i = 0; i < n; i++) p[i] = i;
        gm_check(R, p, n, n, 1, "permutations of n <= 5");
        for (i = 1; i < n;) {   /* Heap's algorithm */
            if (c[i] < i) {
                int32_t j = i % 2 ? c[i] : 0, t = p[j];
                p[j] = p[i];
                p[i] = t;
                (void) gm_check(R, p, n, n, 0, "permutations of n <= 5");
                c[i]++;
                i = 1;
            } else {
                c[i++] = 0;
            }
        }
    }
    grpmap_wtr_set_max_runs(50000);

    /* random permutations of small n (most decline: rho ~ n / 2) */
    for (k = 0; k < 300; k++) {
        n = 2 + (int32_t) test_rand_below(&s, 300);
        for (i = 0; i < n; i++) p[i] = i;
        gm_shuffle(&s, p, n);
        (void) gm_check(R, p, n, n, 0, "random permutation of small n");
    }

    /* shuffle-merged runs at word / superblock / sample boundaries */
    for (k = 0; k < (int) (sizeof(sizes) / sizeof(sizes[0])); k++) {
        for (i = 0; i < (int) (sizeof(rhos) / sizeof(rhos[0])); i++) {
            int32_t rho = rhos[i];
            n = sizes[k];
            if (rho * 8 > n) {
                continue;
            }
            shuffle_merge(&s, p, n, rho);
            snprintf(what, sizeof(what), "n = %d, %d runs merged (%d maximal)", n, rho,
                     runs_of(p, n));
            if (GRPMAP_OK == gm_check(R, p, n, n, n >= 1024, what)) {
                expect(p, n, n, GRPMAP_OK, what);
            }
        }
    }
    /* 1025 runs: bit 10 of the run number is set for run 1024 alone, made
     * of the 10 lowest values (10 ones among 200,000 at level 10) or of the
     * 150,000 lowest (50,000 zeros there) */
    n = 200000;
    for (k = 10; k <= 150000; k += 149990) {
        shuffle_merge(&s, p, n - k, 1024);
        for (i = 0; i < n - k; i++) p[i] += k;
        for (i = 0; i < k; i++) p[n - k + i] = i;
        snprintf(what, sizeof(what), "n = %d, %d runs, the last of %d", n, runs_of(p, n), k);
        gm_check(R, p, n, n, 1, what);
    }
    /* 1,000,000 with 1,000 runs */
    n = 1000000;
    shuffle_merge(&s, p, n, 1000);
    snprintf(what, sizeof(what), "n = 10^6, %d runs", runs_of(p, n));
    gm_check(R, p, n, n, 1, what);

    /* limits and inputs that are not permutations */
    n = 100000;
    shuffle_merge(&s, p, n, 100);
    grpmap_wtr_set_max_runs(99);
    expect(p, n, n, GRPMAP_DECLINE, "100 runs over a limit of 99");
    grpmap_wtr_set_max_runs(runs_of(p, n));
    expect(p, n, n, GRPMAP_OK, "100 runs at a limit of 100");
    grpmap_wtr_set_max_runs(50000);
    expect(p, n, n + 1, GRPMAP_DECLINE, "world != n");
    k = p[5];
    p[5] = p[6];
    expect(p, n, n, GRPMAP_DECLINE, "a value twice");
    p[5] = n;
    expect(p, n, n, GRPMAP_DECLINE, "a value out of range");
    p[5] = k;
    for (i = 0; i < 10; i++) p[i] = i;
    p[3] = 4;
    p[4] = 4;
    expect(p, 10, 10, GRPMAP_DECLINE, "one run, not the identity");

    /* bits an element against lg(rho), SELECT and RANK ns; n = 100,000 */
    n = 100000;
    idx = xmalloc(sizeof(int32_t) * 1000000);
    for (i = 0; i < 1000000; i++) idx[i] = (int32_t) test_rand_below(&s, (uint64_t) n);
    {
        const int32_t rr[] = {1, 2, 10, 100, 1000, 10000, 25000};
        printf("n = 100,000        bits/elt  lg rho   SELECT ns  RANK ns"
               "  (medians, 2 10^5 random)\n");
        for (k = 0; k < (int) (sizeof(rr) / sizeof(rr[0])); k++) {
            grpmap_input_t in;
            void *map;
            int32_t rho;
            if (1 == rr[k]) {
                for (i = 0; i < n; i++) p[i] = i;
            } else {
                shuffle_merge(&s, p, n, rr[k]);
            }
            rho = runs_of(p, n);
            grpmap_input_init(&in, p, n, n);
            CHECK(GRPMAP_OK == R->build(&in, &map), "%d runs declined", rho);
            printf("%6d runs          %6.2f  %6.2f  %9.1f  %7.1f\n", rho,
                   8.0 * (double) R->bytes(map) / n, rho > 1 ? log2((double) rho) : 0.0,
                   gm_time(R, map, p, idx, 101, 200000 / 101, GM_TIME_SELECT),
                   gm_time(R, map, p, idx, 101, 200000 / 101, GM_TIME_RANK_OF));
            if (1000 == rr[k]) {
                printf("timing: SELECT median ns, 10^6 random on 100,000 members (%d runs): "
                       "wtr %.1f, int32 array %.1f\n",
                       rho, gm_time(R, map, p, idx, 101, 1000000 / 101, GM_TIME_SELECT),
                       gm_time(R, NULL, p, idx, 101, 1000000 / 101, GM_TIME_ARRAY));
            }
            R->release(map);
        }
    }
    free(idx);
    free(p);
    printf("grpmap_wtr_test: OK\n");
    return 0;
}
