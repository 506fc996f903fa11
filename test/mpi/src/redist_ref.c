/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * A naive reference implementation of the MADRE API, only to check the
 * test programs (redist_seed.c, redist_random.c, redist_bad.c): its
 * definitions take the place of libmpi's (redist-seed.sh builds
 *     mpicc -DREDIST_REF redist_seed.c redist_ref.c
 * and plants faults in it that the checks must catch).
 * Not in place: execute copies the live blocks into a second buffer and
 * moves them with one MPI_Alltoallv.  It validates the arguments with the
 * same error classes as the extension, honours
 * OMPI_MCA_redist_base_max_extra_bytes, and imitates component unit's
 * refusal (and phase's with redist_phase_break_cycles=0) with a rank-level
 * simulation: a rank takes an incoming block only into a free slot.
 * redist_ref_pvar() stands in for the framework's MPI_T pvars; its
 * peak_extra_bytes counts only the metadata, not the second buffer.
 * REDIST_REF_MUTATE=N plants a fault, to see that the tests catch it:
 * 1 flips a byte of a received block, 2 swaps two received blocks, 3 miscounts
 * blocks_moved, 4 writes past the buffer, 5 changes the buffer before a
 * validation error, 6 leaves the second execute undone.
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(OMPI_HAVE_MPI_EXT_MADRE) || !OMPI_HAVE_MPI_EXT_MADRE
#error "mpi-ext.h does not provide the MADRE extension (OMPI_HAVE_MPI_EXT_MADRE)"
#endif
int redist_ref_pvar(const char *name, void *value);

struct ompi_redist_t {
    MPI_Comm comm;
    unsigned char *buf;
    size_t bext;     /* bytes of one slot */
    MPI_Datatype blk; /* bext bytes */
    int n, nsend, nrecv;
    int *scount, *sdispl, *rcount, *rdispl; /* in blocks, per rank */
    int *send_slot; /* my live slots, by destination rank */
    int *recv_slot; /* where each incoming block goes, in arrival order */
    unsigned long long away, bsize; /* blocks sent to other ranks, bytes of one */
};

static unsigned long long pv_blocks, pv_bytes, pv_rounds, pv_peak;
static double pv_time;

int redist_ref_pvar(const char *name, void *value)
{
    unsigned long long zero = 0, *u = NULL;
    if (0 == strcmp(name, "redist_base_schedule_time")) {
        *(double *) value = pv_time;
        return 0;
    }
    if (0 == strcmp(name, "redist_base_blocks_moved")) {
        u = &pv_blocks;
    } else if (0 == strcmp(name, "redist_base_bytes_moved")) {
        u = &pv_bytes;
    } else if (0 == strcmp(name, "redist_base_rounds")) {
        u = &pv_rounds;
    } else if (0 == strcmp(name, "redist_base_peak_extra_bytes")) {
        u = &pv_peak;
    } else if (0 == strcmp(name, "redist_base_parked_blocks")
               || 0 == strcmp(name, "redist_base_cycles_broken")) {
        u = &zero;
    } else {
        return -1;
    }
    *(unsigned long long *) value = *u;
    return 0;
}

static int mutate(void)
{
    const char *m = getenv("REDIST_REF_MUTATE");
    return m ? atoi(m) : 0;
}

static int raise_err(MPI_Comm comm, int cls)
{
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(comm, &eh);
    if (MPI_ERRORS_ARE_FATAL == eh) {
        fprintf(stderr, "MPIX_Redist_create: error class %d (MPI_ERR_RANK is %d)\n", cls, MPI_ERR_RANK);
    }
    MPI_Errhandler_free(&eh);
    MPI_Comm_call_errhandler(comm, cls);
    return cls;
}

/* Would a component that moves a block only into a free slot of the
 * receiving rank stall?  Simulated on counts. */
static int stalls(int n, const int *nb, const int *live, const int *cnt /* n x n */)
{
    long *f = malloc(n * sizeof(long)), *pend = malloc((size_t) n * n * sizeof(long));
    int stuck = 0, progress = 1;
    for (int r = 0; r < n; r++) {
        f[r] = nb[r] - live[r];
        for (int q = 0; q < n; q++) {
            pend[r * n + q] = r == q ? 0 : cnt[r * n + q];
        }
    }
    while (progress) {
        progress = 0;
        for (int q = 0; q < n; q++) {
            for (int r = 0; r < n && f[q] > 0; r++) {
                long k = pend[r * n + q] < f[q] ? pend[r * n + q] : f[q];
                if (k > 0) {
                    pend[r * n + q] -= k;
                    f[q] -= k;
                    f[r] += k;
                    progress = 1;
                }
            }
        }
    }
    for (int i = 0; i < n * n; i++) {
        stuck |= pend[i] > 0;
    }
    free(f);
    free(pend);
    return stuck;
}

int MPIX_Redist_create(void *buf, int nblocks, int count, MPI_Datatype type,
                       const int dest_rank[], const int dest_slot[], MPI_Info info,
                       MPI_Comm comm, MPIX_Redist *rd)
{
    int inter, n, me, err = MPI_SUCCESS, tsize = 0;
    MPI_Aint lb, ext = 0;
    double t0 = MPI_Wtime();

    MPI_Comm_test_inter(comm, &inter);
    if (inter) {
        return raise_err(comm, MPI_ERR_COMM);
    }
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &me);
    if (nblocks < 0 || count < 0) {
        err = MPI_ERR_COUNT;
    } else {
        for (int i = 0; i < nblocks; i++) {
            if (MPIX_REDIST_FREE != dest_rank[i] && (dest_rank[i] < 0 || dest_rank[i] >= n)) {
                err = MPI_ERR_RANK;
            }
        }
        MPI_Type_size(type, &tsize);
        MPI_Type_get_extent(type, &lb, &ext);
    }
    /* local errors (the lowest rank's wins), then block sizes */
    long long mine[3] = {err, err ? 0 : nblocks, err ? -1 : (long long) count * tsize};
    long long *all = malloc(3 * sizeof(long long) * n);
    MPI_Allgather(mine, 3, MPI_LONG_LONG, all, 3, MPI_LONG_LONG, comm);
    int *nb = malloc(n * sizeof(int));
    for (int r = 0; r < n; r++) {
        nb[r] = (int) all[3 * r + 1];
    }
    err = MPI_SUCCESS;
    for (int r = 0; r < n && MPI_SUCCESS == err; r++) {
        err = (int) all[3 * r];
    }
    for (int r = 0; r < n && MPI_SUCCESS == err; r++) {
        if (all[3 * r + 2] != all[2]) {
            err = MPI_ERR_TYPE;
        }
    }
    free(all);
    if (MPI_SUCCESS != err) {
        free(nb);
        if (5 == mutate() && nblocks > 0 && count > 0) {
            ((unsigned char *) buf)[0] ^= 1;
        }
        return raise_err(comm, err);
    }

    /* slot ranges, then two blocks to one slot (checked by the owner) */
    int *scount = calloc(n, sizeof(int)), *rcount = calloc(n, sizeof(int));
    int *sdispl = calloc(n + 1, sizeof(int)), *rdispl = calloc(n + 1, sizeof(int));
    int live = 0;
    for (int i = 0; i < nblocks; i++) {
        if (MPIX_REDIST_FREE != dest_rank[i]) {
            if (dest_slot[i] < 0 || dest_slot[i] >= nb[dest_rank[i]]) {
                err = MPI_ERR_ARG;
            } else {
                scount[dest_rank[i]]++;
                live++;
            }
        }
    }
    MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, comm);
    for (int r = 0; r < n; r++) {
        sdispl[r + 1] = sdispl[r] + scount[r];
        rdispl[r + 1] = rdispl[r] + rcount[r];
    }
    int *send_slot = malloc((live + 1) * sizeof(int)), *dslot = malloc((live + 1) * sizeof(int));
    int *recv_slot = malloc((rdispl[n] + 1) * sizeof(int)), *pos = calloc(n, sizeof(int));
    for (int i = 0; i < nblocks; i++) {
        int q = dest_rank[i];
        if (MPIX_REDIST_FREE != q && dest_slot[i] >= 0 && dest_slot[i] < nb[q]) {
            send_slot[sdispl[q] + pos[q]] = i;
            dslot[sdispl[q] + pos[q]++] = dest_slot[i];
        }
    }
    MPI_Alltoallv(dslot, scount, sdispl, MPI_INT, recv_slot, rcount, rdispl, MPI_INT, comm);
    char *hit = calloc(nblocks + 1, 1);
    for (int k = 0; k < rdispl[n]; k++) {
        if (hit[recv_slot[k]]++) {
            err = MPI_ERR_ARG;
        }
    }
    free(hit);
    free(dslot);
    free(pos);

    size_t meta = sizeof(struct ompi_redist_t) + (4 * n + 2 + live + rdispl[n]) * sizeof(int);
    size_t bext = (size_t) count * ext;
    const char *max = getenv("OMPI_MCA_redist_base_max_extra_bytes");
    if (MPI_SUCCESS == err && NULL != max && strtoull(max, NULL, 0) < meta + 2 * bext) {
        err = MPI_ERR_NO_MEM;
    }
    int e = err;
    MPI_Allreduce(&e, &err, 1, MPI_INT, MPI_MAX, comm);

    /* the refusal of unit (and phase not allowed to break cycles) */
    char comp[64] = "";
    int flag = 0;
    if (MPI_INFO_NULL != info) {
        MPI_Info_get(info, "redist_component", sizeof(comp) - 1, comp, &flag);
    }
    if (!flag && getenv("OMPI_MCA_redist")) {
        snprintf(comp, sizeof(comp), "%s", getenv("OMPI_MCA_redist"));
    }
    const char *bc = getenv("OMPI_MCA_redist_phase_break_cycles");
    if (MPI_SUCCESS == err && (0 == strcmp(comp, "unit")
                               || (0 == strcmp(comp, "phase") && bc && 0 == atoi(bc)))) {
        int *cnt = malloc((size_t) n * n * sizeof(int)), *lives = malloc(n * sizeof(int));
        MPI_Allgather(scount, n, MPI_INT, cnt, n, MPI_INT, comm);
        MPI_Allgather(&live, 1, MPI_INT, lives, 1, MPI_INT, comm);
        if (stalls(n, nb, lives, cnt)) {
            err = MPI_ERR_OTHER;
        }
        free(cnt);
        free(lives);
    }
    free(nb);
    if (MPI_SUCCESS != err) {
        free(scount);
        free(rcount);
        free(sdispl);
        free(rdispl);
        free(send_slot);
        free(recv_slot);
        return raise_err(comm, err);
    }

    struct ompi_redist_t *r = malloc(sizeof(*r));
    *r = (struct ompi_redist_t){.buf = buf, .bext = bext, .n = n, .nsend = live,
                                .nrecv = rdispl[n], .scount = scount, .sdispl = sdispl,
                                .rcount = rcount, .rdispl = rdispl, .send_slot = send_slot,
                                .recv_slot = recv_slot, .away = live - scount[me],
                                .bsize = (unsigned long long) count * tsize};
    MPI_Comm_dup(comm, &r->comm);
    MPI_Type_contiguous((int) bext, MPI_BYTE, &r->blk);
    MPI_Type_commit(&r->blk);
    if (meta > pv_peak) {
        pv_peak = meta;
    }
    pv_time += MPI_Wtime() - t0;
    *rd = r;
    return MPI_SUCCESS;
}

int MPIX_Redist_execute(MPIX_Redist r)
{
    static int calls;
    if (6 == mutate() && 1 == calls++ % 2) {
        return MPI_SUCCESS;
    }
    unsigned char *s = malloc(r->nsend * r->bext + 1), *d = malloc(r->nrecv * r->bext + 1);
    for (int k = 0; k < r->nsend; k++) {
        memcpy(s + k * r->bext, r->buf + r->send_slot[k] * r->bext, r->bext);
    }
    MPI_Alltoallv(s, r->scount, r->sdispl, r->blk, d, r->rcount, r->rdispl, r->blk, r->comm);
    for (int k = 0; k < r->nrecv; k++) {
        memcpy(r->buf + r->recv_slot[k] * r->bext, d + k * r->bext, r->bext);
    }
    if (1 == mutate() && r->nrecv > 0) {
        r->buf[r->recv_slot[r->nrecv - 1] * r->bext] ^= 0x10;
    }
    if (2 == mutate() && r->nrecv > 1) {
        memcpy(r->buf + r->recv_slot[0] * r->bext, d + 1 * r->bext, r->bext);
    }
    if (4 == mutate()) {
        r->buf[-1] ^= 1;
    }
    free(s);
    free(d);
    pv_blocks += r->away + (3 == mutate());
    pv_bytes += r->away * r->bsize;
    pv_rounds++;
    return MPI_SUCCESS;
}

int MPIX_Redist_free(MPIX_Redist *rd)
{
    struct ompi_redist_t *r = *rd;
    void *owned[] = {r->scount, r->sdispl, r->rcount, r->rdispl, r->send_slot, r->recv_slot, r};
    MPI_Comm_free(&r->comm);
    MPI_Type_free(&r->blk);
    for (size_t k = 0; k < sizeof(owned) / sizeof(owned[0]); k++) {
        free(owned[k]);
    }
    *rd = MPIX_REDIST_NULL;
    return MPI_SUCCESS;
}

int MPIX_Redistribute(void *buf, int nblocks, int count, MPI_Datatype type,
                      const int dest_rank[], const int dest_slot[], MPI_Info info,
                      MPI_Comm comm)
{
    MPIX_Redist rd;
    int rc = MPIX_Redist_create(buf, nblocks, count, type, dest_rank, dest_slot, info, comm, &rd);
    if (MPI_SUCCESS == rc) {
        MPIX_Redist_execute(rd);
        MPIX_Redist_free(&rd);
    }
    return rc;
}
