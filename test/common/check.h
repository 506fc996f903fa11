/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * What every test and benchmark of the suite needs: CHECK (report and stop
 * at the first failed assertion), allocation that cannot return NULL
 * (xmalloc_exact: of exactly the size asked, for buffers handed to the
 * code under test), the suite's deterministic generator (test_rand, also
 * what datasets.c draws its data with), a clock and the median of a set
 * of timings.
 *
 * A failed CHECK does CHECK_FAIL(format, ...), by default test_fail: "FAIL
 * file:line: message" on stderr (test_report), exit 1.  A test whose
 * reports must say more (its rank, the case at hand) or that goes on after
 * a failure, so that every rank and every case reports (the MPI tests),
 * defines CHECK_FAIL before including this header.
 *
 * test_now needs clock_gettime: build with -D_POSIX_C_SOURCE=200809L
 * under -std=c99 (without it there is no test_now).
 */
#ifndef TEST_COMMON_CHECK_H
#define TEST_COMMON_CHECK_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* "FAIL file:line: message" on stderr */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static inline void test_report_at(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "FAIL %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
}

#define test_report(...) test_report_at(__FILE__, __LINE__, __VA_ARGS__)
/* test_report, then exit 1 */
#define test_fail(...) (test_report(__VA_ARGS__), exit(1))

#ifndef CHECK_FAIL
#define CHECK_FAIL(...) test_fail(__VA_ARGS__)
#endif

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (!(cond)) {                                                          \
            CHECK_FAIL(__VA_ARGS__);                                            \
        }                                                                       \
    } while (0)

/* Out of memory always stops, whatever CHECK_FAIL does.  (The report is
 * written out here, not through test_fail, so that gcc's view of the
 * allocation, and its warnings, stay as with a plain malloc.) */
static inline void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (NULL == p) {
        fprintf(stderr, "FAIL %s:%d: out of memory (%zu bytes)\n", __FILE__, __LINE__, n);
        exit(1);
    }
    return p;
}

static inline void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (NULL == p) {
        fprintf(stderr, "FAIL %s:%d: out of memory (%zu x %zu bytes)\n", __FILE__, __LINE__, n,
                size);
        exit(1);
    }
    return p;
}

/* Exactly n bytes (NULL allowed for n = 0), so that AddressSanitizer
 * reports any access past the end of a buffer handed to the code under
 * test. */
static inline void *xmalloc_exact(size_t n)
{
    void *p = malloc(n);
    if (NULL == p && n > 0) {
        fprintf(stderr, "FAIL %s:%d: out of memory (%zu bytes)\n", __FILE__, __LINE__, n);
        exit(1);
    }
    return p;
}

/* splitmix64 */
static inline uint64_t test_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* uniform in [0, n) for n > 0 */
static inline uint64_t test_rand_below(uint64_t *s, uint64_t n)
{
    return test_rand(s) % n;
}

/* uniform in [0, 1), 53 bits */
static inline double test_rand_unit(uint64_t *s)
{
    return (double) (test_rand(s) >> 11) * (1.0 / 9007199254740992.0);
}

#if defined(CLOCK_MONOTONIC)
static inline double test_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}
#endif

static inline int test_cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* The median of v[0..n) (the upper one for even n); sorts v. */
static inline double test_median(double *v, int n)
{
    qsort(v, (size_t) n, sizeof(double), test_cmp_double);
    return v[n / 2];
}

/* The median of v[0..n), for even n the mean of the middle two; sorts v. */
static inline double test_median_mean(double *v, int n)
{
    qsort(v, (size_t) n, sizeof(double), test_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif
