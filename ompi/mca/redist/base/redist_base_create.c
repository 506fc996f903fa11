/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Redistributor life cycle: create as named steps, each ending in one
 * agreement (one error class on every process, found before anything
 * moves): the arguments, each process's view of the map, the execution
 * state, the component's schedule; and free.
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "mpi.h"
#include "ompi/constants.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/mca/redist/base/base.h"
#include "ompi/mca/redist/base/redist_base_private.h"
#include "ompi/op/op.h"
#include "opal/mca/common/suite/suite_compat.h"
#include "opal/util/output.h"
#include "opal/util/show_help.h"



static int allreduce_max(ompi_communicator_t *comm, int *v, int n)
{
    return comm->c_coll->coll_allreduce(MPI_IN_PLACE, v, n, DT_INT, &ompi_mpi_op_max.op, comm,
                                        comm->c_coll->coll_allreduce_module);
}

int ompi_redist_base_agree(ompi_redist_t *rd, int rc)
{
    int v = OMPI_SUCCESS == rc ? 0 : (rc < 0 ? -rc : rc);
    if (OMPI_SUCCESS != allreduce_max(rd->comm, &v, 1)) {
        return OMPI_ERROR;
    }
    return 0 == v ? OMPI_SUCCESS : -v;
}

void *ompi_redist_base_alloc(ompi_redist_t *rd, size_t n)
{
    void *p;
    if (0 != ompi_redist_base_max_extra_bytes
        && rd->extra_bytes + n > ompi_redist_base_max_extra_bytes) {
        return NULL;
    }
    p = calloc(1, n > 0 ? n : 1);
    if (NULL != p) {
        rd->extra_bytes += n;
    }
    return p;
}

/* --- life cycle --- */

/* The arrays create allocated (NULL where it did not get that far). */
static void rd_free_arrays(ompi_redist_t *rd)
{
    void *arrays[] = {rd->sl.home, rd->sl.out_off, rd->sl.out_slot, rd->sl.in_off, rd->sl.in_slot,
                      rd->sl.held, rd->sl.free_list, rd->sl.free_at, rd->sl.out_next, rd->sl.in_next,
                      rd->land, rd->sl.park_slot, rd->sl.batch_off, rd->sl.batch_next, rd->stage,
                      rd->tok_reqs, rd->tok_val, rd->reqs, rd->tell, rd->run_slots, rd->flow};
    size_t k;
    for (k = 0; k < sizeof(arrays) / sizeof(arrays[0]); k++) {
        free(arrays[k]);
    }
}

static void rd_release(ompi_redist_t *rd)
{
    if (NULL != rd->component && NULL != rd->sched) {
        rd->component->module->release(rd);
    }
    rd_free_arrays(rd);
    if (NULL != rd->act_type) {
        int i;
        for (i = 0; i < rd->nact_type; i++) {
            if (NULL != rd->act_type[i]) {
                ompi_datatype_destroy(&rd->act_type[i]);
            }
        }
        free(rd->act_type);
    }
    if (NULL != rd->block_type) {
        ompi_datatype_destroy(&rd->block_type);
    }
    if (NULL != rd->comm) {
        ompi_comm_free(&rd->comm);
    }
    if (NULL != rd->type) {
        OBJ_RELEASE(rd->type);
    }
    if (NULL != rd->user_comm) {
        OBJ_RELEASE(rd->user_comm);
    }
    free(rd);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

int ompi_redist_base_mpi_class(int rc)
{
    switch (rc) {
    case OMPI_SUCCESS:
        return MPI_SUCCESS;
    case OMPI_ERR_OUT_OF_RESOURCE:
    case OMPI_ERR_TEMP_OUT_OF_RESOURCE:
        return MPI_ERR_NO_MEM;
    case OMPI_ERR_NOT_SUPPORTED:
        return MPI_ERR_OTHER;
    case OMPI_ERR_BAD_PARAM:
        return MPI_ERR_ARG;
    default:
        return rc > 0 ? rc : MPI_ERR_INTERN;
    }
}

/* Say what is wrong, on the process that sees it, unless the program
 * handles errors itself (MPI_ERRORS_RETURN). */
static void fault(ompi_communicator_t *comm, int *err, int cls, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    if (0 != *err) {
        return;
    }
    *err = cls;
    if (comm->error_handler != &ompi_mpi_errors_return.eh) {
        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        opal_show_help("help-redist-base.txt", "bad-map", true, ompi_comm_rank(comm),
                       comm->c_name, msg);
    }
}

/* The largest MPI error class of all processes (0: none): every step of
 * create ends with it, so all processes go on or stop together. */
static int agree_class(ompi_communicator_t *comm, int cls)
{
    int v = cls;
    return OMPI_SUCCESS != allreduce_max(comm, &v, 1) ? MPI_ERR_INTERN : v;
}

/* The staging budget in blocks: the info key redist_stage_bytes, else
 * redist_base_stage_bytes, else min(1 MiB, buffer / 16) and at least two
 * blocks.  0 when a value given is below two blocks (or not a number). */
static int stage_blocks(ompi_redist_t *rd, int nslots, opal_info_t *info, int *bad_info)
{
    unsigned long bytes = ompi_redist_base_stage_bytes, stride = (unsigned long) rd->stride;
    unsigned long blocks;
    char val[64], *end;
    int flag = 0;
    if (NULL != info) {
        (void) suite_info_get(info, "redist_stage_bytes", sizeof(val), val, &flag);
        if (flag) {
            bytes = strtoul(val, &end, 0);
            if (end == val || '\0' != *end) {
                *bad_info = 1;
                return 0;
            }
        }
    }
    if (0 == stride) {
        return 2;   /* empty blocks: nothing to stage */
    }
    if (0 == bytes) {
        bytes = (unsigned long) nslots * stride / 16;
        bytes = bytes < (1UL << 20) ? bytes : (1UL << 20);
        bytes = bytes > 2 * stride ? bytes : 2 * stride;
    }
    blocks = bytes / stride;
    return blocks < 2 ? 0 : blocks > INT_MAX / 4 ? INT_MAX / 4 : (int) blocks;
}

/* 1. What this process can check alone: the framework, the component,
 * the block's geometry, the map's ranges, the staging budget.  Sets rd's
 * block geometry, rd->run_blocks (the budget, in blocks, until agreed)
 * and *comp; returns an MPI class (0: none). */
static int check_args(ompi_redist_t *rd, void *buf, int nslots, int count, ompi_datatype_t *type,
                      const int dest_rank[], const int dest_slot[], opal_info_t *info,
                      ompi_communicator_t *comm, const mca_redist_base_component_t **comp)
{
    int err = 0, i, flag = 0, n = rd->nprocs;
    ptrdiff_t lb = 0, ext = 0, tlb = 0, text = 0;
    size_t tsize = 0;
    char name[64];

    if (!mca_base_framework_is_open(&ompi_redist_base_framework)) {
        fault(comm, &err, MPI_ERR_UNSUPPORTED_OPERATION, "the redist framework did not open "
              "in MPI_Init (see the message printed then)");
    } else if (NULL != info) {
        (void) suite_info_get(info, "redist_component", sizeof(name), name, &flag);
        if (flag) {
            *comp = ompi_redist_base_find(name);
            if (NULL == *comp) {
                fault(comm, &err, MPI_ERR_INFO_VALUE, "no redist component is open with the "
                      "name the info key redist_component gives");
            }
        }
    }
    if (NULL == *comp && 0 == err) {
        fault(comm, &err, MPI_ERR_UNSUPPORTED_OPERATION, "no redist component is available "
              "(see --mca redist and ompi_info)");
    }
    if (nslots < 0 || count < 0) {
        fault(comm, &err, MPI_ERR_COUNT, "negative nblocks (%d) or count (%d)", nslots, count);
        return err;
    }
    ompi_datatype_get_extent(type, &lb, &ext);
    ompi_datatype_get_true_extent(type, &tlb, &text);
    ompi_datatype_type_size(type, &tsize);
    rd->stride = (ptrdiff_t) count * ext;
    rd->block_bytes = (size_t) count * tsize;
    rd->span_lb = tlb;
    rd->span = count > 0 ? (size_t) ((count - 1) * ext + text) : 0;
    if (count > 0 && tsize > 0
        && (ext <= 0 || tlb < 0 || tlb + (ptrdiff_t) rd->span > rd->stride)) {
        fault(comm, &err, MPI_ERR_TYPE, "a block of count elements of this datatype "
              "reaches outside its slot (lower bound %d, extent %d)", (int) tlb, (int) ext);
    } else if (nslots > 0 && rd->block_bytes > 0 && NULL == buf) {
        fault(comm, &err, MPI_ERR_BUFFER, "buf is NULL with %d blocks of %d bytes", nslots,
              (int) rd->block_bytes);
    } else if (nslots > 0 && (NULL == dest_rank || NULL == dest_slot)) {
        fault(comm, &err, MPI_ERR_ARG, "dest_rank or dest_slot is NULL");
    } else {
        int bad_info = 0;
        rd->run_blocks = stage_blocks(rd, nslots, info, &bad_info);
        if (bad_info) {
            fault(comm, &err, MPI_ERR_INFO_VALUE, "the info key redist_stage_bytes is not a "
                  "number of bytes");
        } else if (0 == rd->run_blocks) {
            fault(comm, &err, MPI_ERR_ARG, "the staging budget (redist_base_stage_bytes or "
                  "the info key redist_stage_bytes) is below two blocks (%lu bytes)",
                  2UL * (unsigned long) rd->stride);
        }
    }
    for (i = 0; 0 == err && i < nslots; i++) {
        if (REDIST_FREE_RANK == dest_rank[i]) {
            continue;
        }
        if (dest_rank[i] < 0 || dest_rank[i] >= n) {
            fault(comm, &err, MPI_ERR_RANK, "dest_rank[%d] = %d is out of range", i,
                  dest_rank[i]);
        } else if (dest_slot[i] < 0) {
            fault(comm, &err, MPI_ERR_ARG, "dest_slot[%d] = %d is negative", i, dest_slot[i]);
        }
    }
    return err;
}

/* 2. What must be the same everywhere: the block size, the component,
 * redist_base_request_limit (execute's windows and token checks assume
 * one limit), the staging budget (the smallest: a cycle's sender and
 * receiver cut it into the same runs).  One allreduce with the first
 * step's errors. */
static int agree_args(ompi_redist_t *rd, ompi_communicator_t *comm, int err,
                      const mca_redist_base_component_t *comp)
{
    int v[9], id = 0;
    mca_base_component_list_item_t *cli;
    if (NULL != comp) {
        OPAL_LIST_FOREACH (cli, &ompi_redist_base_framework.framework_components,
                           mca_base_component_list_item_t) {
            id++;
            if (cli->cli_component == &comp->base_version) {
                break;
            }
        }
    }
    v[0] = err;
    v[1] = (int) rd->block_bytes;
    v[2] = -(int) rd->block_bytes;
    v[3] = id;
    v[4] = -id;
    v[5] = (0 == err && rd->block_bytes > (size_t) INT_MAX);
    v[6] = rd->request_limit;
    v[7] = -rd->request_limit;
    v[8] = -rd->run_blocks;
    if (OMPI_SUCCESS != allreduce_max(comm, v, 9)) {
        return MPI_ERR_INTERN;
    }
    /* the budget's smallest value; runs are half of it */
    rd->run_blocks = -v[8] / 2 > 0 ? -v[8] / 2 : 1;
    if (0 == v[0] && (v[1] != -v[2] || v[5])) {
        fault(comm, &err, MPI_ERR_TYPE, "blocks differ in size between processes (%d to "
              "%d bytes)", -v[2], v[1]);
        v[0] = MPI_ERR_TYPE;
    }
    if (0 == v[0] && v[3] != -v[4]) {
        fault(comm, &err, MPI_ERR_INFO_VALUE, "processes chose different redist components "
              "(info key redist_component)");
        v[0] = MPI_ERR_INFO_VALUE;
    }
    if (0 == v[0] && v[6] != -v[7]) {
        fault(comm, &err, MPI_ERR_OTHER, "processes set different redist_base_request_limit "
              "values (%d to %d): set the same value on every process", -v[7], v[6]);
        v[0] = MPI_ERR_OTHER;
    }
    return v[0];
}

/* 3. This process's out lists (source slots per destination, in slot
 * order) and, in *sendslot, their target slots for the receivers. */
static int build_out_lists(ompi_redist_t *rd, const int dest_rank[], const int dest_slot[],
                           int **sendslot)
{
    int n = rd->nprocs, i, q, nout = 0, *fill;
    redist_slots_t *sl = &rd->sl;
    sl->home = ompi_redist_base_alloc(rd, sizeof(int) * (rd->nslots + 1));
    sl->out_off = ompi_redist_base_alloc(rd, sizeof(int) * (n + 1));
    sl->in_off = ompi_redist_base_alloc(rd, sizeof(int) * (n + 1));
    fill = calloc(n + 1, sizeof(int));
    if (NULL == sl->home || NULL == sl->out_off || NULL == sl->in_off || NULL == fill) {
        free(fill);
        return MPI_ERR_NO_MEM;
    }
    for (i = 0; i < rd->nslots; i++) {
        if (REDIST_FREE_RANK == dest_rank[i]) {
            sl->home[i] = REDIST_EMPTY;
        } else {
            rd->nlive++;
            if (dest_rank[i] == rd->me) {
                sl->home[i] = dest_slot[i];
            } else {
                sl->home[i] = REDIST_OUT;
                sl->out_off[dest_rank[i] + 1]++;
                nout++;
            }
        }
    }
    for (q = 0; q < n; q++) {
        sl->out_off[q + 1] += sl->out_off[q];
    }
    sl->out_slot = ompi_redist_base_alloc(rd, sizeof(int) * (nout + 1));
    *sendslot = malloc(sizeof(int) * (nout + 1));
    if (NULL == sl->out_slot || NULL == *sendslot) {
        free(fill);
        return MPI_ERR_NO_MEM;
    }
    for (i = 0; i < rd->nslots; i++) {
        if (REDIST_OUT == sl->home[i]) {
            q = dest_rank[i];
            sl->out_slot[sl->out_off[q] + fill[q]] = i;
            (*sendslot)[sl->out_off[q] + fill[q]++] = dest_slot[i];
        }
    }
    free(fill);
    return 0;
}

/* 4. How many blocks come from each process (an alltoall), and room for
 * their target slots; cnt (2n: sent, received per process) and mark
 * (nslots) are the next step's scratch, allocated here, before the
 * agreement, so that every process reaches that step's alltoallv. */
static int exchange_counts(ompi_redist_t *rd, ompi_communicator_t *comm, int **cnt, char **mark)
{
    int n = rd->nprocs, q;
    redist_slots_t *sl = &rd->sl;
    *cnt = malloc(sizeof(int) * (2 * n + 1));
    *mark = calloc(rd->nslots + 1, 1);
    if (NULL == *cnt || NULL == *mark) {
        return MPI_ERR_NO_MEM;   /* before the alltoall: every process reaches it */
    }
    for (q = 0; q < n; q++) {
        (*cnt)[q] = sl->out_off[q + 1] - sl->out_off[q];
    }
    if (OMPI_SUCCESS != comm->c_coll->coll_alltoall(*cnt, 1, DT_INT, *cnt + n, 1, DT_INT, comm,
                                                    comm->c_coll->coll_alltoall_module)) {
        return MPI_ERR_INTERN;
    }
    sl->in_off[0] = 0;
    for (q = 0; q < n; q++) {
        sl->in_off[q + 1] = sl->in_off[q] + (*cnt)[n + q];
    }
    sl->in_slot = ompi_redist_base_alloc(rd, sizeof(int) * (sl->in_off[n] + 1));
    return NULL == sl->in_slot ? MPI_ERR_NO_MEM : 0;
}

/* 5. The target slots of incoming blocks (an alltoallv), checked by the
 * receiver with its own: in range, no two blocks to one slot. */
static int exchange_slots(ompi_redist_t *rd, ompi_communicator_t *comm, const int *sendslot,
                          const int *cnt, char *mark)
{
    int n = rd->nprocs, q, i, err = 0;
    redist_slots_t *sl = &rd->sl;
    if (OMPI_SUCCESS != comm->c_coll->coll_alltoallv(sendslot, cnt, sl->out_off, DT_INT,
                                                     sl->in_slot, cnt + n, sl->in_off, DT_INT,
                                                     comm, comm->c_coll->coll_alltoallv_module)) {
        err = MPI_ERR_INTERN;
    }
    for (i = 0; 0 == err && i < rd->nslots; i++) {
        if (sl->home[i] >= 0) {
            if (sl->home[i] >= rd->nslots) {
                fault(comm, &err, MPI_ERR_ARG, "dest_slot[%d] = %d is beyond this process's "
                      "last slot", i, sl->home[i]);
            } else if (mark[sl->home[i]]++) {
                fault(comm, &err, MPI_ERR_ARG, "two blocks go to slot %d of rank %d",
                      sl->home[i], rd->me);
            }
        }
    }
    for (q = 0; 0 == err && q < n; q++) {
        for (i = sl->in_off[q]; 0 == err && i < sl->in_off[q + 1]; i++) {
            int t = sl->in_slot[i];
            if (t >= rd->nslots) {
                fault(comm, &err, MPI_ERR_ARG, "rank %d sends a block to slot %d, beyond "
                      "the receiver's last slot", q, t);
            } else if (mark[t]++) {
                fault(comm, &err, MPI_ERR_ARG, "two blocks go to slot %d of rank %d", t, rd->me);
            }
        }
    }
    return err;
}

/* 6. The execution state every component uses. */
static int alloc_state(ompi_redist_t *rd)
{
    int n = rd->nprocs, m = rd->nslots;
    rd->sl.held = ompi_redist_base_alloc(rd, sizeof(int) * (m + 1));
    rd->sl.free_list = ompi_redist_base_alloc(rd, sizeof(int) * (m + 1));
    rd->sl.free_at = ompi_redist_base_alloc(rd, sizeof(int) * (m + 1));
    rd->sl.out_next = ompi_redist_base_alloc(rd, sizeof(int) * n);
    rd->sl.in_next = ompi_redist_base_alloc(rd, sizeof(int) * n);
    rd->run_local = rd->run_blocks < m ? rd->run_blocks : (m > 0 ? m : 1);
    rd->stage = ompi_redist_base_alloc(rd, 2 * (size_t) rd->run_local * rd->stride + 1);
    rd->run_slots = ompi_redist_base_alloc(rd, sizeof(int) * 4 * rd->run_local);
    rd->tok_reqs = ompi_redist_base_alloc(rd, sizeof(ompi_request_t *) * n);
    rd->tok_val = ompi_redist_base_alloc(rd, sizeof(int) * 2 * n);
    rd->reqs = ompi_redist_base_alloc(rd, sizeof(ompi_request_t *) * (rd->request_limit + 4));
    rd->land = ompi_redist_base_alloc(rd, sizeof(int) * (m + 1));
    rd->tell = ompi_redist_base_alloc(rd, sizeof(ompi_request_t *) * n);
    return (NULL == rd->sl.held || NULL == rd->sl.free_list || NULL == rd->sl.free_at
            || NULL == rd->sl.out_next || NULL == rd->sl.in_next || NULL == rd->stage
            || NULL == rd->tok_reqs || NULL == rd->tok_val || NULL == rd->reqs
            || NULL == rd->land || NULL == rd->tell || NULL == rd->run_slots) ? MPI_ERR_NO_MEM
                                                                                : 0;
}

/* 7. A private communicator and the component's schedule (collective
 * inside: every process returns the same). */
static int schedule(ompi_redist_t *rd, ompi_communicator_t *comm, ompi_datatype_t *type,
                    const mca_redist_base_component_t *comp, const int dest_rank[],
                    const int dest_slot[])
{
    int rc;
    if (OMPI_SUCCESS != ompi_comm_dup(comm, &rd->comm)) {
        rd->comm = NULL;
        return MPI_ERR_INTERN;
    }
    OBJ_RETAIN(type);
    rd->type = type;
    OBJ_RETAIN(comm);
    rd->user_comm = comm;
    rd->component = comp;
    rd->dest_rank = dest_rank;
    rd->dest_slot = dest_slot;
    rc = ompi_redist_base_mpi_class(comp->module->schedule(rd));
    rd->dest_rank = rd->dest_slot = NULL;
    if ((MPI_ERR_OTHER == rc || MPI_ERR_NO_MEM == rc) && 0 == rd->me
        && comm->error_handler != &ompi_mpi_errors_return.eh) {
        opal_show_help("help-redist-base.txt", "no-schedule", true,
                       comp->base_version.mca_component_name, comm->c_name,
                       MPI_ERR_NO_MEM == rc ? "it needs more memory than it may use "
                       "(redist_base_max_extra_bytes) or than there is"
                       : "it cannot complete this map (no free slot where it needs one)");
    }
    return rc;
}

int ompi_redist_create(void *buf, int nslots, int count, ompi_datatype_t *type,
                       const int dest_rank[], const int dest_slot[], opal_info_t *info,
                       ompi_communicator_t *comm, ompi_redist_t **rdp)
{
    const mca_redist_base_component_t *comp = ompi_redist_base_default;
    double t0 = now();
    int rc, *sendslot = NULL, *cnt = NULL;
    char *mark = NULL;
    ompi_redist_t *rd;

    *rdp = NULL;
    rd = calloc(1, sizeof(*rd));
    if (NULL == rd) {
        return MPI_ERR_NO_MEM;   /* nothing collective is possible without it */
    }
    rd->nprocs = rd->sl.nprocs = ompi_comm_size(comm);
    rd->me = ompi_comm_rank(comm);
    rd->request_limit = ompi_redist_base_request_limit;

    /* every error is found, and agreed, before anything moves */
    rc = check_args(rd, buf, nslots, count, type, dest_rank, dest_slot, info, comm, &comp);
    if (0 != (rc = agree_args(rd, comm, rc, comp))) {
        free(rd);
        return rc;
    }
    rd->buf = buf;
    rd->nslots = rd->sl.nslots = nslots;
    rd->count = count;
    if (0 == (rc = agree_class(comm, build_out_lists(rd, dest_rank, dest_slot, &sendslot)))
        && 0 == (rc = agree_class(comm, exchange_counts(rd, comm, &cnt, &mark)))
        && 0 == (rc = agree_class(comm, exchange_slots(rd, comm, sendslot, cnt, mark)))
        && 0 == (rc = agree_class(comm, alloc_state(rd)))) {
        rc = schedule(rd, comm, type, comp, dest_rank, dest_slot);
    }
    free(sendslot);
    free(cnt);
    free(mark);
    opal_output_verbose(10, ompi_redist_base_framework.framework_output,
                        "redist: %s on %s: %d slots (%d live, %d out, %d in), %lu bytes "
                        "extra, rc %d", NULL == comp ? "-" : comp->base_version.mca_component_name,
                        comm->c_name, nslots, rd->nlive, NULL == rd->sl.out_off ? 0
                        : rd->sl.out_off[rd->nprocs], NULL == rd->sl.in_slot ? 0
                        : rd->sl.in_off[rd->nprocs], (unsigned long) rd->extra_bytes, rc);
    if (MPI_SUCCESS != rc) {
        rd_release(rd);
        return rc;
    }
    ompi_redist_base_note_peak(rd->extra_bytes);
    ompi_redist_base_note_schedule_time(now() - t0);
    *rdp = rd;
    return MPI_SUCCESS;
}

void ompi_redist_free(ompi_redist_t *rd)
{
    rd_release(rd);
}

