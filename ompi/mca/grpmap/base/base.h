/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The grpmap base: what Open MPI's group code calls (config/patches/
 * 0004-grpmap-hooks.patch).  A group whose members are all processes of
 * MPI_COMM_WORLD's job, and at least grpmap_base_min_size of them, is
 * handed to the strategy; when it picks a compressed form, the group drops
 * its pointer table (OMPI_GROUP_GRPMAP) and resolves members through the
 * world group.
 */
#ifndef OMPI_MCA_GRPMAP_BASE_H
#define OMPI_MCA_GRPMAP_BASE_H

#include "ompi_config.h"

#include "ompi/mca/grpmap/grpmap.h"
#include "ompi/mca/grpmap/base/grpmap_engine.h"

BEGIN_C_DECLS

struct ompi_group_t;
struct ompi_proc_t;

OMPI_DECLSPEC extern mca_base_framework_t ompi_grpmap_base_framework;

/* Opens the framework and keeps world, retained, as
 * ompi_group_grpmap_world: on 4.1 from ompi_comm_init with MPI_COMM_WORLD's
 * group; on 5.0 from ompi_group_init with NULL, and the base builds its
 * own table of the job's processes (a Sessions program may have no
 * MPI_COMM_WORLD). */
int ompi_grpmap_base_init(struct ompi_group_t *world);
/* From ompi_group_finalize. */
void ompi_grpmap_base_fini(void);

/* Compresses a freshly built dense group when the strategy says so. */
void ompi_grpmap_base_compress(struct ompi_group_t *group);
/* From the group destructor of an OMPI_GROUP_GRPMAP group. */
void ompi_grpmap_base_group_release(struct ompi_group_t *group);

/* MPI_Group_translate_ranks into a compressed group2: OMPI_SUCCESS, or
 * OMPI_ERR_NOT_SUPPORTED when group2 is not compressed (the caller's loop
 * then runs). */
int ompi_grpmap_base_translate(struct ompi_group_t *group1, int n, const int *ranks1,
                               struct ompi_group_t *group2, int *ranks2);
/* The rank of proc in a compressed group, or MPI_UNDEFINED. */
int ompi_grpmap_base_proc_rank(struct ompi_group_t *group, struct ompi_proc_t *proc);

END_C_DECLS

#endif
