/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The thesis's experiment maps (test/unit/grpmap_patterns.h: Table 6.1's
 * 14 communicators on a world of 200,000, chapter 5's classes A-E on a
 * world of 10^6) through the strategy engine under the hybrid strategy
 * (alpha 0.25, every representation and the packed permutation offered):
 * each pick is checked against the plain array (every SELECT, RANK of a
 * sample of members and non-members, iteration whole and in chunks), and
 * the bars on bytes are asserted: the pick holds patterns 1-7 in
 * at most 64 bytes and patterns 8-14 in at most 1.3 times their
 * information bound.  A failed bar is reported with the engine's candidate
 * estimates, after every pattern has been checked.  Built without bdd when
 * GP_NO_BDD is defined (no BuDDy header).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/common/check.h"
#include "ompi/mca/grpmap/grpmap_repr.h"
#include "test/unit/grpmap_check.h"
#include "test/unit/grpmap_patterns.h"

/* The engine's report lines of the last build. */
static char log_buf[8192];
static size_t log_len;

static void log_line(void *ctx, const char *line)
{
    int k;
    (void) ctx;
    k = snprintf(log_buf + log_len, sizeof(log_buf) - log_len, "    %s\n", line);
    if (k > 0 && (size_t) k < sizeof(log_buf) - log_len) {
        log_len += (size_t) k;
    }
}

/* The generator's maps: sizes of Table 6.1, distinct ranks in [0, world),
 * increasing where the map is a set. */
static void check_pattern(const gp_pattern_t *p)
{
    static const int32_t table_n[GP_TABLE_COUNT] = {100000, 2327,  10000, 100000, 66667,
                                                    40000,  28572, 5000,  50000,  10000,
                                                    20000,  100000, 10000, 100000};
    unsigned char *seen = xcalloc((size_t) p->world, 1);
    grpmap_input_t in;
    int32_t i;
    if (p->table) {
        CHECK(p->n == table_n[p->id - 1], "pattern %s: %d members, expected %d", p->name, p->n,
              table_n[p->id - 1]);
    }
    for (i = 0; i < p->n; i++) {
        CHECK(p->ranks[i] >= 0 && p->ranks[i] < p->world && !seen[p->ranks[i]],
              "pattern %s: rank %d at %d out of range or repeated", p->name, p->ranks[i], i);
        seen[p->ranks[i]] = 1;
    }
    free(seen);
    grpmap_input_init(&in, p->ranks, p->n, p->world);
    CHECK(in.increasing == (GP_BOUND_SET == p->bound_kind), "pattern %s: increasing %d", p->name,
          in.increasing);
    CHECK(p->bound_bits > 0.0, "pattern %s: bound %g", p->name, p->bound_bits);
}

/* The pick against the array.  RANK of array, blocks and of a packed
 * permutation scans: a sample of members (every one of small maps). */
static void check_handle(const grpmap_handle_t *h, const gp_pattern_t *p)
{
    const int32_t n = p->n, *ranks = p->ranks;
    int32_t i, k, step = n > 2048 ? n / 2048 : 1, *out = xmalloc(4 * (size_t) (n + 1));
    unsigned char *member = xcalloc((size_t) p->world, 1);
    uint64_t s = 7;
    CHECK(NULL != h->repr, "%s: dense", p->name);
    for (i = 0; i < n; i++) {
        CHECK(h->repr->select(h->map, i) == ranks[i], "%s: select(%d) = %d, expected %d", p->name,
              i, h->repr->select(h->map, i), ranks[i]);
        member[ranks[i]] = 1;
    }
    for (i = 0; i < n; i += (i + step < n || i == n - 1) ? step : n - 1 - i) {
        CHECK(h->repr->rank(h->map, ranks[i]) == i, "%s: rank(%d) = %d, expected %d", p->name,
              ranks[i], h->repr->rank(h->map, ranks[i]), i);
    }
    for (k = 0; k < 2048; k++) {
        int32_t w = (int32_t) test_rand_below(&s, (uint64_t) p->world);
        if (!member[w]) {
            CHECK(GRPMAP_NOT_MEMBER == h->repr->rank(h->map, w), "%s: rank(%d) of a non-member",
                  p->name, w);
        }
    }
    CHECK(GRPMAP_NOT_MEMBER == h->repr->rank(h->map, -1), "%s: rank(-1)", p->name);
    CHECK(GRPMAP_NOT_MEMBER == h->repr->rank(h->map, p->world), "%s: rank(world)", p->name);
    h->repr->iterate(h->map, 0, n, out);
    CHECK(0 == memcmp(out, ranks, 4 * (size_t) n), "%s: iterate(0, n) differs", p->name);
    for (i = 0; i < n; i += k) {
        k = 1 + (i * 7 + 3) % 4999;
        if (k > n - i) {
            k = n - i;
        }
        h->repr->iterate(h->map, i, k, out);
        CHECK(0 == memcmp(out, ranks + i, 4 * (size_t) k), "%s: iterate(%d, %d) differs",
              p->name, i, k);
    }
    free(member);
    free(out);
}

int main(void)
{
    grpmap_engine_t e = {.reprs = gp_forms, .nreprs = GP_NFORMS,
                         .strategy = GRPMAP_STRATEGY_HYBRID, .alpha = 0.25, .report = log_line};
    char failures[16384] = "", name[64];
    size_t flen = 0;
    int k, nfail = 0;

    grpmap_bwt_set_codec(&mca_compress_bzip2_codec);
    printf("%-4s %-40s %7s %8s %-14s %8s %8s %6s  %s\n", "pat", "map", "world", "n", "hybrid pick",
           "bytes", "bound B", "ratio", "bar");
    for (k = 0; k < GP_COUNT; k++) {
        gp_pattern_t p;
        grpmap_handle_t h;
        size_t bytes;
        double ratio;
        const char *bar = "";
        int fail = 0;

        gp_make(k, &p);
        check_pattern(&p);
        log_len = 0;
        log_buf[0] = '\0';
        CHECK(GRPMAP_OK == grpmap_engine_build(&e, p.ranks, p.n, p.world, &h), "%s: build",
              p.name);
        CHECK(NULL != h.repr, "%s: the hybrid kept the dense table\n%s", p.name, log_buf);
        check_handle(&h, &p);
        bytes = h.repr->bytes(h.map);
        ratio = 8.0 * (double) bytes / p.bound_bits;
        if (p.table && p.id <= 7) {
            fail = bytes > 64;
            bar = fail ? "FAIL (<= 64 B)" : "ok (<= 64 B)";
        } else if (p.table) {
            fail = ratio > 1.3;
            bar = fail ? "FAIL (<= 1.3x bound)" : "ok (<= 1.3x bound)";
        }
        grpmap_handle_name(&h, name, sizeof(name));
        printf("%-4s %-40s %7d %8d %-14s %8zu %8.0f %6.3f  %s\n", p.name, p.what, p.world, p.n,
               name, bytes, p.bound_bits / 8.0, ratio, bar);
        if (fail) {
            int w = snprintf(failures + flen, sizeof(failures) - flen,
                             "bar failed: pattern %s (%s, n %d): hybrid pick %s holds %zu bytes,"
                             " %.3fx the bound (%.0f bytes); the engine's report:\n%s",
                             p.name, p.what, p.n, name, bytes, ratio, p.bound_bits / 8.0, log_buf);
            if (w > 0 && (size_t) w < sizeof(failures) - flen) {
                flen += (size_t) w;
            }
            nfail++;
        }
        grpmap_handle_release(&h);
        gp_free(&p);
    }
#ifndef GP_NO_BDD
    grpmap_bdd_finalize();
#endif
    if (nfail > 0) {
        fputs(failures, stdout);
        printf("grpmap_patterns_test: %d bar(s) failed (every pick matched the array)\n", nfail);
        return 1;
    }
    printf("grpmap_patterns_test: OK\n");
    return 0;
}
