/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Data sets of the codec tests and benchmarks: the seed's synthetic ones
 * (ints, floats, doubles with 0/25/50/75/100 % zeros at random places;
 * patterned doubles 50001.0, 50003.0, ...) and realistic ones (a smooth 3-D
 * field of doubles; the index and value arrays of a sparse matrix), plus
 * random bytes and text as the incompressible / general references, drawn
 * with check.h's test_rand.
 */
#ifndef TEST_DATASETS_H
#define TEST_DATASETS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *name;
    int elem_size;     /* 1, 4 or 8: the natural element of the data */
    /* Fills buf[0..len) deterministically from seed. */
    void (*fill)(unsigned char *buf, size_t len, uint64_t seed);
} dataset_t;

extern const dataset_t datasets[];
extern const int n_datasets;

/* The data set called name, NULL when there is none. */
const dataset_t *dataset_find(const char *name);

#endif
