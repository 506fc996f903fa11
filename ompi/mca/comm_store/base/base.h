/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The core's interface to communicator storage.  Writers (insert, remove,
 * iteration, allocation queries) are serialised here; lookup is lock-free
 * and may run concurrently with one writer (see comm_store_map.h).
 */
#ifndef OMPI_MCA_COMM_STORE_BASE_H
#define OMPI_MCA_COMM_STORE_BASE_H

#include "ompi_config.h"

#include "opal/mca/base/base.h"
#include "ompi/mca/comm_store/comm_store.h"

BEGIN_C_DECLS

OMPI_DECLSPEC extern mca_base_framework_t ompi_comm_store_base_framework;

/* The selected structure; valid between ompi_comm_store_init() and
 * ompi_comm_store_finalize(). */
OMPI_DECLSPEC extern const comm_store_map_ops_t *ompi_comm_store_ops;
OMPI_DECLSPEC extern comm_store_map_t *ompi_comm_store_map;

/* Opens the framework, selects one component and creates its structure. */
OMPI_DECLSPEC int ompi_comm_store_init(void);
OMPI_DECLSPEC int ompi_comm_store_finalize(void);

static inline void *ompi_comm_store_lookup(uint32_t cid)
{
    return ompi_comm_store_ops->lookup(ompi_comm_store_map, cid);
}

/* Store ptr at cid, replacing what is there (NULL removes). */
OMPI_DECLSPEC int ompi_comm_store_set(uint32_t cid, void *ptr);
/* Store ptr at cid only if cid is free; true if stored. */
OMPI_DECLSPEC bool ompi_comm_store_test_and_set(uint32_t cid, void *ptr);
/* Reserve the lowest free cid in [from, limit) for ptr: 0 and *cid, or -1. */
OMPI_DECLSPEC int ompi_comm_store_reserve_lowest(uint32_t from, uint32_t limit, void *ptr,
                                                 uint32_t *cid);
/* Iteration in CID order: the first entry with cid >= from. */
OMPI_DECLSPEC int ompi_comm_store_next(uint32_t from, uint32_t *cid, void **ptr);
OMPI_DECLSPEC int ompi_comm_store_highest(uint32_t *cid);
OMPI_DECLSPEC void ompi_comm_store_stats(comm_store_map_stats_t *s);

/* ---- CID allocation (ompi/communicator/comm_cid.c) ---------------------- */

/* comm_store_base_cid_policy after init resolved "auto": the store's choice. */
enum { OMPI_COMM_STORE_CID_LOWEST = 0, OMPI_COMM_STORE_CID_HIGHEST = 1,
       OMPI_COMM_STORE_CID_AUTO = 2 };
OMPI_DECLSPEC extern int ompi_comm_store_cid_policy;

/* The end of the CID range: the PML's limit, lowered by comm_store_base_cid_limit. */
OMPI_DECLSPEC uint32_t ompi_comm_store_cid_limit(uint32_t pml_max_contextid);
/* Reserve max(highest used + 1, from) for ptr if below limit: 0 and *cid, or -1. */
OMPI_DECLSPEC int ompi_comm_store_reserve_highest(uint32_t from, uint32_t limit, void *ptr,
                                                  uint32_t *cid);
/* Undo a reservation: remove cid only while it still holds owner. */
OMPI_DECLSPEC bool ompi_comm_store_release(uint32_t cid, void *owner);
/* Statistics for MPI_T: one allocation agreed in this many allreduces. */
OMPI_DECLSPEC void ompi_comm_store_cid_allocated(int rounds);
/* No CID left below limit: tell the user (once per process). */
OMPI_DECLSPEC void ompi_comm_store_cid_exhausted(uint32_t limit);

END_C_DECLS

#endif
