/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Sequence lock for the comm_store maps: one serialized writer, lock-free
 * readers that retry.  The writer makes the counter odd before modifying
 * and even after; a reader snapshots an even counter, reads, and accepts
 * what it read only if the counter is still the same.
 *
 * No standalone fences (ThreadSanitizer does not model them): the writer
 * stores every reader-visible field with MCA_COMM_STORE_PUBLISH (release)
 * and readers load them with MCA_COMM_STORE_READ (acquire).  Then
 *   - a reader that loads any value stored inside a write section
 *     synchronizes with that store, which comes after the odd counter
 *     store, so its final counter load sees the section and it retries;
 *   - a reader whose first counter load sees the even value written at the
 *     end of a section (release) sees every store of that section;
 *   - the acquire data loads keep the final counter load after them.
 * On x86 all of these are plain moves.
 */

#ifndef MCA_COMM_STORE_SEQLOCK_H
#define MCA_COMM_STORE_SEQLOCK_H

#include <stdint.h>

#define MCA_COMM_STORE_PUBLISH(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define MCA_COMM_STORE_READ(p)       __atomic_load_n((p), __ATOMIC_ACQUIRE)

typedef struct {
    uint32_t seq;       /* odd while a writer is modifying */
} mca_comm_store_seqlock_t;

static inline void mca_comm_store_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static inline uint32_t mca_comm_store_read_begin(const mca_comm_store_seqlock_t *l)
{
    uint32_t s;
    while ((s = __atomic_load_n(&l->seq, __ATOMIC_ACQUIRE)) & 1u) {
        mca_comm_store_cpu_relax();
    }
    return s;
}

/* Non-zero when the reads since read_begin(s) may be inconsistent. */
static inline int mca_comm_store_read_retry(const mca_comm_store_seqlock_t *l, uint32_t s)
{
    return __atomic_load_n(&l->seq, __ATOMIC_ACQUIRE) != s;
}

/* Writers are serialized by the caller, so the counter's only writer is
 * the current thread: a relaxed read of it is exact. */
static inline void mca_comm_store_write_begin(mca_comm_store_seqlock_t *l)
{
    __atomic_store_n(&l->seq, __atomic_load_n(&l->seq, __ATOMIC_RELAXED) + 1u,
                     __ATOMIC_RELAXED);
}

static inline void mca_comm_store_write_end(mca_comm_store_seqlock_t *l)
{
    __atomic_store_n(&l->seq, __atomic_load_n(&l->seq, __ATOMIC_RELAXED) + 1u,
                     __ATOMIC_RELEASE);
}

#endif /* MCA_COMM_STORE_SEQLOCK_H */
