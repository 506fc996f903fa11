/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * What every plain-C test and benchmark of the suite needs: CHECK (report
 * and stop at the first failed assertion), allocation that cannot return
 * NULL, and the suite's deterministic generator (ds_rand of datasets.c,
 * repeated here as an inline so a test need not link datasets.c).
 * test_now needs clock_gettime: build with -D_POSIX_C_SOURCE=200809L
 * under -std=c99.
 */
#ifndef TEST_COMMON_CHECK_H
#define TEST_COMMON_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                \
            fprintf(stderr, __VA_ARGS__);                                       \
            fprintf(stderr, "\n");                                              \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

static inline void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    CHECK(NULL != p, "out of memory (%zu bytes)", n);
    return p;
}

static inline void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    CHECK(NULL != p, "out of memory (%zu x %zu bytes)", n, size);
    return p;
}

/* splitmix64, as ds_rand in datasets.c */
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

static inline double test_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

#endif
