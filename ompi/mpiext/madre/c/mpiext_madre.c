/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MPIX_Redist_*: the C bindings of the madre extension (argument checks
 * that need no communication, then the redist framework) and the hooks
 * MPI_Init / MPI_Finalize run to open and close the framework.
 */
#include "ompi_config.h"

#include "mpi.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/info/info.h"
#include "ompi/mca/redist/base/base.h"
#include "ompi/mpi/c/bindings.h"
#include "ompi/mpiext/madre/c/mpiext_madre_c.h"
#include "ompi/mpiext/mpiext.h"
#include "ompi/runtime/params.h"

#if MPIX_REDIST_FREE != REDIST_FREE_RANK
#error "MPIX_REDIST_FREE and the redist framework disagree"
#endif

static int madre_init(void)
{
    /* A framework that cannot open must not stop MPI_Init for programs
     * that never redistribute: MPIX_Redist_create reports it instead. */
    (void) ompi_redist_base_init();
    return OMPI_SUCCESS;
}

static int madre_fini(void)
{
    (void) ompi_redist_base_fini();
    return OMPI_SUCCESS;
}

const ompi_mpiext_component_t ompi_mpiext_madre = {madre_init, madre_fini};

/* Checks on one process that every process of a correct program passes
 * alike (so returning early cannot leave the others in a collective). */
static int check_comm(MPI_Comm comm, const char *name)
{
    if (ompi_mpi_param_check) {
        OMPI_ERR_INIT_FINALIZE(name);
        if (ompi_comm_invalid(comm)) {
            return OMPI_ERRHANDLER_INVOKE(MPI_COMM_WORLD, MPI_ERR_COMM, name);
        }
        if (OMPI_COMM_IS_INTER(comm)) {
            return OMPI_ERRHANDLER_INVOKE(comm, MPI_ERR_COMM, name);
        }
    }
    return MPI_SUCCESS;
}

static int create(void *buf, int nblocks, int count, MPI_Datatype type, const int dest_rank[],
                  const int dest_slot[], MPI_Info info, MPI_Comm comm, MPIX_Redist *rd,
                  const char *name)
{
    int rc = check_comm(comm, name);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (ompi_mpi_param_check) {
        if (NULL == type || MPI_DATATYPE_NULL == type || !opal_datatype_is_committed(&type->super)) {
            return OMPI_ERRHANDLER_INVOKE(comm, MPI_ERR_TYPE, name);
        }
        if (NULL == info || ompi_info_is_freed(info)) {
            return OMPI_ERRHANDLER_INVOKE(comm, MPI_ERR_INFO, name);
        }
    }
    rc = ompi_redist_create(buf, nblocks, count, type, dest_rank, dest_slot,
                            MPI_INFO_NULL == info ? NULL : &info->super, comm,
                            (ompi_redist_t **) rd);
    OMPI_ERRHANDLER_RETURN(rc, comm, rc, name);
}

int MPIX_Redist_create(void *buf, int nblocks, int count, MPI_Datatype type,
                       const int dest_rank[], const int dest_slot[], MPI_Info info,
                       MPI_Comm comm, MPIX_Redist *rd)
{
    if (ompi_mpi_param_check && NULL == rd) {
        OMPI_ERR_INIT_FINALIZE("MPIX_Redist_create");
        return OMPI_ERRHANDLER_INVOKE(MPI_COMM_WORLD, MPI_ERR_ARG, "MPIX_Redist_create");
    }
    return create(buf, nblocks, count, type, dest_rank, dest_slot, info, comm, rd,
                  "MPIX_Redist_create");
}

int MPIX_Redist_execute(MPIX_Redist rd)
{
    static const char name[] = "MPIX_Redist_execute";
    int rc;
    if (ompi_mpi_param_check) {
        OMPI_ERR_INIT_FINALIZE(name);
        if (MPIX_REDIST_NULL == rd) {
            return OMPI_ERRHANDLER_INVOKE(MPI_COMM_WORLD, MPI_ERR_ARG, name);
        }
    }
    rc = ompi_redist_execute(rd);
    OMPI_ERRHANDLER_RETURN(rc, rd->user_comm, rc, name);
}

int MPIX_Redist_free(MPIX_Redist *rd)
{
    static const char name[] = "MPIX_Redist_free";
    if (ompi_mpi_param_check) {
        OMPI_ERR_INIT_FINALIZE(name);
        if (NULL == rd || MPIX_REDIST_NULL == *rd) {
            return OMPI_ERRHANDLER_INVOKE(MPI_COMM_WORLD, MPI_ERR_ARG, name);
        }
    }
    ompi_redist_free(*rd);
    *rd = MPIX_REDIST_NULL;
    return MPI_SUCCESS;
}

int MPIX_Redistribute(void *buf, int nblocks, int count, MPI_Datatype type,
                      const int dest_rank[], const int dest_slot[], MPI_Info info,
                      MPI_Comm comm)
{
    static const char name[] = "MPIX_Redistribute";
    MPIX_Redist rd = MPIX_REDIST_NULL;
    int rc = create(buf, nblocks, count, type, dest_rank, dest_slot, info, comm, &rd, name);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    rc = ompi_redist_execute(rd);
    ompi_redist_free(rd);
    OMPI_ERRHANDLER_RETURN(rc, comm, rc, name);
}
