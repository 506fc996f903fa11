/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * A heap counter for benchmarks and tests: the program's own malloc,
 * calloc, realloc, free and aligned allocators interpose on every
 * library's (the executable's definitions win symbol resolution), and
 * glibc's __libc_* entry points do the work.  heap_cur is the bytes
 * outstanding (malloc_usable_size of each live block); heap_start /
 * heap_stop give the peak above a starting level.  Include in exactly one
 * file of a program, compiled with _GNU_SOURCE.
 */
#ifndef TEST_COMMON_HEAP_COUNTER_H
#define TEST_COMMON_HEAP_COUNTER_H

#include <malloc.h>
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void *__libc_valloc(size_t);
extern void __libc_free(void *);

static long long heap_cur, heap_peak;
static int heap_on;

static void heap_add(void *p)
{
    if (NULL != p) {
        long long c = __atomic_add_fetch(&heap_cur, (long long) malloc_usable_size(p), __ATOMIC_RELAXED);
        if (heap_on && c > heap_peak) {
            heap_peak = c; /* racy max: other threads allocate little */
        }
    }
}

static void heap_sub(void *p)
{
    if (NULL != p) {
        __atomic_sub_fetch(&heap_cur, (long long) malloc_usable_size(p), __ATOMIC_RELAXED);
    }
}

void *malloc(size_t n)
{
    void *p = __libc_malloc(n);
    heap_add(p);
    return p;
}

void *calloc(size_t k, size_t n)
{
    void *p = __libc_calloc(k, n);
    heap_add(p);
    return p;
}

void *realloc(void *old, size_t n)
{
    size_t was = NULL != old ? malloc_usable_size(old) : 0;
    void *p = __libc_realloc(old, n);
    if (NULL != p || 0 == n) {
        __atomic_sub_fetch(&heap_cur, (long long) was, __ATOMIC_RELAXED);
        heap_add(p);
    }
    return p;
}

void free(void *p)
{
    heap_sub(p);
    __libc_free(p);
}

void *memalign(size_t a, size_t n)
{
    void *p = __libc_memalign(a, n);
    heap_add(p);
    return p;
}

void *aligned_alloc(size_t a, size_t n)
{
    return memalign(a, n);
}

void *valloc(size_t n)
{
    void *p = __libc_valloc(n);
    heap_add(p);
    return p;
}

int posix_memalign(void **out, size_t a, size_t n)
{
    void *p = __libc_memalign(a, n);
    if (NULL == p) {
        return 12; /* ENOMEM */
    }
    heap_add(p);
    *out = p;
    return 0;
}

static inline void heap_start(void)
{
    heap_peak = heap_cur;
    heap_on = 1;
}

static inline long long heap_stop(long long start) /* peak above start */
{
    heap_on = 0;
    return heap_peak - start;
}

#endif
