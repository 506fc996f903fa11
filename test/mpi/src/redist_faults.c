/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * redist under faults (test/mpi/redist-faults.sh):
 *   report     4 ranks: the map that made park corrupt its heap (rank 1's
 *              free() aborted), one int block of 64 elements per slot;
 *              every block checked in its slot, executed twice, freed
 *   limits     create with redist_base_request_limit set differently on
 *              some ranks (by the script): the same class on every rank
 *              (MPI_ERR_OTHER), no hang, buffers intact
 *   fault COMP [big [ring]]
 *              a map on which one rank's point-to-point call fails in
 *              execute (the script caps that rank's ob1 free list, or sets
 *              redist_base_fault_post there): every rank returns the same
 *              class, none hangs; a second execute says MPI_ERR_OTHER
 *              everywhere; free works, and so do a new, small
 *              redistribution and a collective afterwards.  A ring for
 *              unit and unitcyclic, block to block-cyclic for the others;
 *              big: blocks of 16 KB instead of 256 bytes; ring: the
 *              zero-free ring for every component (with a staging budget
 *              of 16 blocks or more, cyclic chains its cycle)
 * With MPI_ERRORS_RETURN.  Prints "redist_faults: OK" on rank 0.
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redist_err.h"

/* ints a block: 64 (eager); fault's "big" variant 4096 (16 KB, above
 * shared memory's eager limit: sends stay pending until received) */
static int elems = 64;
#define ELEMS elems

static int me, np, failures;

#define FAIL(...)                                                                       \
    do {                                                                                \
        fprintf(stderr, "redist_faults: rank %d: ", me);                                \
        fprintf(stderr, __VA_ARGS__);                                                   \
        fprintf(stderr, "\n");                                                          \
        failures++;                                                                     \
    } while (0)

static int code(int r, int s, int e)
{
    return (r * 1000 + s) * ELEMS + e + 1;
}

static void fill(int *buf, int nslots, const int *dr)
{
    int s, e;
    for (s = 0; s < nslots; s++) {
        for (e = 0; e < ELEMS; e++) {
            buf[s * ELEMS + e] = dr[s] == MPIX_REDIST_FREE ? -7 : code(me, s, e);
        }
    }
}

/* Every rank learns every rank's map: check each target slot. */
static void check(const int *buf, int nslots, const int *dr, const int *ds, const char *what)
{
    int *all_n = malloc(sizeof(int) * np), *displs = malloc(sizeof(int) * (np + 1)), r, s, e;
    int *adr, *ads, total;
    MPI_Allgather(&nslots, 1, MPI_INT, all_n, 1, MPI_INT, MPI_COMM_WORLD);
    displs[0] = 0;
    for (r = 0; r < np; r++) {
        displs[r + 1] = displs[r] + all_n[r];
    }
    total = displs[np];
    adr = malloc(sizeof(int) * (total + 1));
    ads = malloc(sizeof(int) * (total + 1));
    MPI_Allgatherv(dr, nslots, MPI_INT, adr, all_n, displs, MPI_INT, MPI_COMM_WORLD);
    MPI_Allgatherv(ds, nslots, MPI_INT, ads, all_n, displs, MPI_INT, MPI_COMM_WORLD);
    for (r = 0; r < np; r++) {
        for (s = 0; s < all_n[r]; s++) {
            int g = displs[r] + s;
            if (adr[g] != me) {
                continue;
            }
            for (e = 0; e < ELEMS; e++) {
                if (buf[ads[g] * ELEMS + e] != code(r, s, e)) {
                    FAIL("%s: slot %d element %d holds %d, not %d (block of rank %d slot %d)",
                         what, ads[g], e, buf[ads[g] * ELEMS + e], code(r, s, e), r, s);
                    e = ELEMS;
                }
            }
        }
    }
    free(all_n), free(displs), free(adr), free(ads);
}

/* The class every rank got; a failure unless all agree. */
static int agree(int rc, const char *what)
{
    int cls = MPI_SUCCESS, lo, hi;
    if (MPI_SUCCESS != rc) {
        MPI_Error_class(rc, &cls);
    }
    MPI_Allreduce(&cls, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&cls, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (lo != hi) {
        FAIL("%s: ranks disagree: %s here, classes %s to %s", what, err_name(cls), err_name(lo),
             err_name(hi));
    }
    return cls;
}

static MPI_Info comp_info(const char *comp)
{
    MPI_Info info = MPI_INFO_NULL;
    if (NULL != comp && 0 != strcmp(comp, "default")) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "redist_component", (char *) comp);
    }
    return info;
}

static void report(const char *comp)
{
    /* rank: slots; slot -> (rank, slot), -1 free */
    static const int nsl[4] = {1, 3, 2, 3};
    static const int DR[4][3] = {{3}, {-1, 3, 3}, {2, 1}, {-1, 1, 1}};
    static const int DS[4][3] = {{2}, {0, 0, 1}, {1, 2}, {0, 1, 0}};
    int n = nsl[me], dr[3], ds[3], s, rc, it;
    int *buf = malloc(sizeof(int) * ELEMS * n);
    MPIX_Redist rd;
    MPI_Info info = comp_info(comp);
    for (s = 0; s < n; s++) {
        dr[s] = DR[me][s] < 0 ? MPIX_REDIST_FREE : DR[me][s];
        ds[s] = DS[me][s] < 0 ? 0 : DS[me][s];
    }
    fill(buf, n, dr);
    rc = MPIX_Redist_create(buf, n, ELEMS, MPI_INT, dr, ds, info, MPI_COMM_WORLD, &rd);
    if (0 == strcmp(comp, "unit")) {
        /* unit stalls on full ranks that wait for each other and refuses
         * such a map at create, as documented: one class, nothing moved */
        if (MPI_ERR_OTHER != agree(rc, "report: create (unit)")) {
            FAIL("report (unit): create does not refuse with MPI_ERR_OTHER (%d)", rc);
        }
        for (s = 0; s < n; s++) {
            if (dr[s] != MPIX_REDIST_FREE && buf[s * ELEMS] != code(me, s, 0)) {
                FAIL("report (unit): slot %d changed by a refused create", s);
            }
        }
        if (MPI_SUCCESS == rc) {
            MPIX_Redist_free(&rd);
        }
        if (MPI_INFO_NULL != info) {
            MPI_Info_free(&info);
        }
        free(buf);
        return;
    }
    if (MPI_SUCCESS != agree(rc, "report: create")) {
        FAIL("report (%s): create says %d", comp, rc);
        return;
    }
    for (it = 0; it < 2; it++) {   /* the second execute starts from a refill */
        fill(buf, n, dr);
        rc = MPIX_Redist_execute(rd);
        if (MPI_SUCCESS != agree(rc, "report: execute")) {
            FAIL("report (%s): execute %d fails", comp, it);
        }
        check(buf, n, dr, ds, "report");
    }
    MPIX_Redist_free(&rd);
    if (MPI_INFO_NULL != info) {
        MPI_Info_free(&info);
    }
    free(buf);
}

/* A ring: every slot of rank r goes to the same slot of rank r + 1;
 * nfree of them free. */
static void ring(int n, int nfree, int *dr, int *ds)
{
    int s;
    for (s = 0; s < n; s++) {
        dr[s] = s < nfree ? MPIX_REDIST_FREE : (me + 1) % np;
        ds[s] = s;
    }
}

/* Block to block-cyclic (MADRE's experiment 1), the last nfree slots
 * free: every rank sends to and receives from every other, so the
 * root-scheduled components have an action per peer in flight at once. */
static void scatter(int n, int nfree, int *dr, int *ds)
{
    int s, live = n - nfree;
    for (s = 0; s < n; s++) {
        dr[s] = s < live ? (me * live + s) % np : MPIX_REDIST_FREE;
        ds[s] = s < live ? (me * live + s) / np : -1;
    }
}

static void limits(void)
{
    int n = 32, dr[32], ds[32], *buf = malloc(sizeof(int) * ELEMS * n), *copy, rc, cls;
    MPIX_Redist rd = MPIX_REDIST_NULL;
    ring(n, 4, dr, ds);
    fill(buf, n, dr);
    copy = malloc(sizeof(int) * ELEMS * n);
    memcpy(copy, buf, sizeof(int) * ELEMS * n);
    rc = MPIX_Redist_create(buf, n, ELEMS, MPI_INT, dr, ds, MPI_INFO_NULL, MPI_COMM_WORLD, &rd);
    cls = agree(rc, "limits: create");
    if (MPI_ERR_OTHER != cls) {
        FAIL("limits: create says %s, not MPI_ERR_OTHER", err_name(cls));
    }
    if (0 != memcmp(copy, buf, sizeof(int) * ELEMS * n)) {
        FAIL("limits: the buffer changed");
    }
    if (MPI_SUCCESS == rc) {
        MPIX_Redist_free(&rd);
    }
    free(buf), free(copy);
}

static int zero_free_ring;   /* fault's "ring" variant */

static void fault(const char *comp)
{
    /* 64 blocks a rank on a ring with 8 free: unitcyclic sends many blocks
     * per window, unit many per round: more requests than the capped rank
     * has.  The components that send an action per message (cyclic,
     * phase, park) move a ring in cycles, a request or two at a time: for
     * them every rank sends to every other (run it on 6 ranks or more) */
    int n = 64, dr[64], ds[64], *buf = malloc(sizeof(int) * ELEMS * n), rc, cls, one = 1, sum;
    MPIX_Redist rd;
    MPI_Info info = comp_info(comp);
    if (zero_free_ring) {
        ring(n, 0, dr, ds);
    } else if (0 == strcmp(comp, "unitcyclic") || 0 == strcmp(comp, "unit")) {
        ring(n, 8, dr, ds);
    } else {
        scatter(n, 32, dr, ds);
    }
    fill(buf, n, dr);
    rc = MPIX_Redist_create(buf, n, ELEMS, MPI_INT, dr, ds, info, MPI_COMM_WORLD, &rd);
    if (MPI_SUCCESS != agree(rc, "fault: create")) {
        FAIL("fault (%s): create fails (%d)", comp, rc);
        return;
    }
    rc = MPIX_Redist_execute(rd);
    cls = agree(rc, "fault: execute");
    if (0 == me) {
        printf("fault (%s): execute: %s on every rank\n", comp, err_name(cls));
    }
    if (MPI_SUCCESS == cls) {
        FAIL("fault (%s): execute succeeded: the injected fault did not fire", comp);
    }
    rc = MPIX_Redist_execute(rd);
    cls = agree(rc, "fault: execute after a failed one");
    if (MPI_ERR_OTHER != cls) {
        FAIL("fault (%s): execute after a failed one says %s, not MPI_ERR_OTHER", comp,
             err_name(cls));
    }
    MPIX_Redist_free(&rd);
    /* the library still works: a small redistribution and a collective */
    n = 4;
    ring(n, 1, dr, ds);
    fill(buf, n, dr);
    rc = MPIX_Redist_create(buf, n, ELEMS, MPI_INT, dr, ds, info, MPI_COMM_WORLD, &rd);
    if (MPI_SUCCESS != agree(rc, "fault: create after")) {
        FAIL("fault (%s): a new redistributor fails (%d)", comp, rc);
    } else {
        if (MPI_SUCCESS != agree(MPIX_Redist_execute(rd), "fault: execute after")) {
            FAIL("fault (%s): a new small execute fails", comp);
        }
        check(buf, n, dr, ds, "fault: after");
        MPIX_Redist_free(&rd);
    }
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (sum != np) {
        FAIL("fault: allreduce after gives %d", sum);
    }
    if (MPI_INFO_NULL != info) {
        MPI_Info_free(&info);
    }
    free(buf);
}

int main(int argc, char **argv)
{
    int total;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (argc < 2) {
        FAIL("usage: redist_faults report COMP | limits | fault COMP [big [ring]]");
    } else if (0 == strcmp(argv[1], "report") && argc > 2) {
        if (4 != np) {
            FAIL("report needs 4 ranks");
        } else {
            report(argv[2]);
        }
    } else if (0 == strcmp(argv[1], "limits")) {
        limits();
    } else if (0 == strcmp(argv[1], "fault") && argc > 2) {
        if (argc > 3 && 0 == strcmp(argv[3], "big")) {
            elems = 4096;
        }
        zero_free_ring = argc > 4 && 0 == strcmp(argv[4], "ring");
        fault(argv[2]);
    } else {
        FAIL("unknown mode %s", argv[1]);
    }
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (0 == me) {
        printf(0 == total ? "redist_faults: OK\n" : "redist_faults: %d failures\n", total);
    }
    MPI_Finalize();
    return 0 != total;
}
