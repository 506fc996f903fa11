/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MADRE's errors.  With MPI_ERRORS_RETURN on the communicator, every bad
 * input, on one rank only (the last) and on all ranks, must give the same
 * error class on every rank (MPI_Allreduce MIN = MAX) and leave every
 * buffer byte-identical (and the bytes around it), from MPIX_Redist_create
 * and from MPIX_Redistribute:
 *   rank out of range (n, -2)               MPI_ERR_RANK
 *   slot out of range (>= nblocks, -1)      MPI_ERR_ARG
 *   two blocks to one slot (same rank, two ranks)   MPI_ERR_ARG
 *   block size differing (count, type)      MPI_ERR_TYPE
 *   negative nblocks, negative count        MPI_ERR_COUNT (a negative count
 *                                           on one rank also makes the block
 *                                           sizes differ: MPI_ERR_TYPE is
 *                                           accepted there)
 *   an intercommunicator                    MPI_ERR_COMM
 *   component unit on a ring with no free slot  MPI_ERR_OTHER (skipped when
 *                                           MCA variable redist leaves unit
 *                                           unopened)
 * A valid map before and after all of them must work (data checked).
 *
 *   redist_bad [errors]     the above
 *   redist_bad nomem        run with redist_base_max_extra_bytes=1: a valid
 *                           map gives MPI_ERR_NO_MEM, buffer intact
 *   redist_bad refuse COMP  info redist_component=COMP on a ring with no
 *                           free slot: MPI_ERR_OTHER, buffer intact
 *   redist_bad abort        MPI_COMM_WORLD's default handler, the last rank
 *                           gives a rank out of range: the job must abort
 *                           (the script checks the message)
 * Prints "bad <case> <one|all>: <class> ok" per case and
 * "redist_bad: N cases, F failed"; exits 1 on a failure (and aborts at
 * once when ranks disagree, as they could not go on together).
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redist_err.h"

#if !defined(OMPI_HAVE_MPI_EXT_MADRE) || !OMPI_HAVE_MPI_EXT_MADRE
#error "mpi-ext.h does not provide the MADRE extension (OMPI_HAVE_MPI_EXT_MADRE)"
#endif

#define NB 4
#define MAXCOUNT 8
#define GUARD 64
#define BUFLEN (NB * MAXCOUNT * sizeof(double))

static int rank, n, ncases, nfailed;
static MPI_Comm comm;


/* The arguments of one call. */
struct args {
    int nb, count;
    MPI_Datatype type;
    int dr[NB], ds[NB];
    MPI_Info info;
    MPI_Comm comm;
};

/* Valid: 0 -> ((r+1)%n, 1), 1 -> (r, 0), 2 -> ((r-1)%n, 3), 3 free. */
static void base_cross(struct args *a)
{
    memset(a, 0, sizeof(*a));
    a->nb = NB;
    a->count = 2;
    a->type = MPI_INT;
    a->info = MPI_INFO_NULL;
    a->comm = comm;
    a->dr[0] = (rank + 1) % n;
    a->ds[0] = 1;
    a->dr[1] = rank;
    a->ds[1] = 0;
    a->dr[2] = (rank + n - 1) % n;
    a->ds[2] = 3;
    a->dr[3] = MPIX_REDIST_FREE;
    a->ds[3] = -1;
}

/* Valid: slot i -> (r, 3-i), nothing leaves the rank. */
static void base_local(struct args *a, int r)
{
    base_cross(a);
    for (int i = 0; i < NB; i++) {
        a->dr[i] = r;
        a->ds[i] = NB - 1 - i;
    }
}

/* Every slot live, all to the same slot of the next rank. */
static void base_ring(struct args *a)
{
    base_cross(a);
    for (int i = 0; i < NB; i++) {
        a->dr[i] = (rank + 1) % n;
        a->ds[i] = i;
    }
}

static void fill(unsigned char *mem)
{
    for (size_t i = 0; i < BUFLEN + 2 * GUARD; i++) {
        uint32_t x = (uint32_t) (rank * 7919 + i) * 2654435761U;
        mem[i] = (unsigned char) (x >> 24);
    }
}

/* Classes on all ranks must agree; abort if not (ranks could deadlock). */
static int agree(int rc, const char *what)
{
    int cls = rc, lo, hi;
    if (MPI_SUCCESS != rc) {
        MPI_Error_class(rc, &cls);
    }
    MPI_Allreduce(&cls, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&cls, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (lo != hi) {
        fprintf(stderr, "rank %d: FAIL: %s: ranks disagree: this one got %s, classes range %s .. %s\n",
                rank, what, err_name(cls), lo == cls ? err_name(cls) : err_name(lo), err_name(hi));
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return cls;
}

/* Both calls with these arguments must fail with want (or alt) on every
 * rank and leave the buffer as it was. */
static void expect(const char *name, const char *scope, const struct args *a, int want, int alt)
{
    unsigned char mem[BUFLEN + 2 * GUARD], before[BUFLEN + 2 * GUARD];
    char what[160];
    int bad = 0, cls[2];
    for (int call = 0; call < 2; call++) {
        MPIX_Redist rd = MPIX_REDIST_NULL;
        int rc;
        fill(mem);
        memcpy(before, mem, sizeof(mem));
        snprintf(what, sizeof(what), "%s (%s) %s", name, scope,
                 call ? "MPIX_Redistribute" : "MPIX_Redist_create");
        if (0 == call) {
            rc = MPIX_Redist_create(mem + GUARD, a->nb, a->count, a->type, a->dr, a->ds, a->info,
                                    a->comm, &rd);
        } else {
            rc = MPIX_Redistribute(mem + GUARD, a->nb, a->count, a->type, a->dr, a->ds, a->info,
                                   a->comm);
        }
        cls[call] = agree(rc, what);
        if (cls[call] != want && cls[call] != alt) {
            if (0 == rank) {
                fprintf(stderr, "FAIL: %s: returned %s, expected %s\n", what, err_name(cls[call]),
                        err_name(want));
            }
            bad = 1;
        }
        if (MPI_SUCCESS == cls[call] && 0 == call) {
            MPIX_Redist_free(&rd);
        } else if (memcmp(mem, before, sizeof(mem))) {
            size_t i = 0;
            while (mem[i] == before[i]) {
                i++;
            }
            fprintf(stderr, "rank %d: FAIL: %s: the buffer changed (first at byte %ld of the buffer)\n",
                    rank, what, (long) i - GUARD);
            bad = 1;
        }
    }
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    ncases++;
    nfailed += bad;
    if (0 == rank) {
        printf("bad %s %s: %s %s\n", name, scope, err_name(cls[0]), bad ? "FAILED" : "ok");
        fflush(stdout);
    }
}

/* A valid map must still work; its data is checked. */
static void expect_ok(const char *name)
{
    struct args a;
    int mem[NB * 2], bad = 0;
    base_cross(&a);
    for (int i = 0; i < NB * 2; i++) {
        mem[i] = rank * 1000 + i;
    }
    int cls = agree(MPIX_Redistribute(mem, a.nb, a.count, a.type, a.dr, a.ds, a.info, comm), name);
    if (MPI_SUCCESS == cls) {
        /* slot 0 from rank r-1's slot 0, 1 from the next rank's slot 2,
         * 3 from my slot 1 (base_cross inverted) */
        int src_r[NB] = {rank, (rank + n - 1) % n, -1, (rank + 1) % n};
        int src_s[NB] = {1, 0, -1, 2};
        for (int s = 0; s < NB; s++) {
            for (int e = 0; e < 2 && src_r[s] >= 0; e++) {
                if (mem[2 * s + e] != src_r[s] * 1000 + 2 * src_s[s] + e) {
                    fprintf(stderr, "rank %d: FAIL: %s: slot %d element %d holds %d, expected %d\n",
                            rank, name, s, e, mem[2 * s + e], src_r[s] * 1000 + 2 * src_s[s] + e);
                    bad = 1;
                }
            }
        }
    } else {
        bad = 1;
    }
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    ncases++;
    nfailed += bad;
    if (0 == rank) {
        printf("bad %s: %s %s\n", name, err_name(cls), bad ? "FAILED" : "ok");
        fflush(stdout);
    }
}

/* is name in the comma-separated MCA component list sel (^: exclusions)? */
static int listed(const char *sel, const char *name)
{
    size_t len = strlen(name);
    const char *p = '^' == *sel ? sel + 1 : sel;
    while (NULL != p) {
        if (0 == strncmp(p, name, len) && (',' == p[len] || '\0' == p[len])) {
            return 1;
        }
        p = strchr(p, ',');
        p = NULL != p ? p + 1 : NULL;
    }
    return 0;
}

/* base_cross, but on the bad ranks slot k goes to (dr, ds) */
static void expect_dest(const char *name, const char *scope, int bad, int k, int dr, int ds,
                        int want)
{
    struct args a;
    base_cross(&a);
    if (bad) {
        a.dr[k] = dr;
        a.ds[k] = ds;
    }
    expect(name, scope, &a, want, -1);
}

static void errors(void)
{
    struct args a;
    const char *scopes[2] = {"one", "all"};
    expect_ok("valid-map-before");
    for (int sc = 0; sc < 2; sc++) {
        const char *s = scopes[sc];
        int bad = 1 == sc || rank == n - 1;
        /* slot 0 goes to ((r+1)%n, 1): a bad rank, then a bad slot */
        expect_dest("rank-too-high", s, bad, 0, n, 1, MPI_ERR_RANK);
        expect_dest("rank-negative", s, bad, 0, -2, 1, MPI_ERR_RANK);
        expect_dest("slot-too-high", s, bad, 0, (rank + 1) % n, NB, MPI_ERR_ARG);
        expect_dest("slot-negative", s, bad, 0, (rank + 1) % n, -1, MPI_ERR_ARG);
        /* slot 3 to where slot 1 goes, then to where rank r+1's slot 0 goes */
        expect_dest("two-to-one-slot-same-rank", s, bad, 3, rank, 0, MPI_ERR_ARG);
        expect_dest("two-to-one-slot-two-ranks", s, bad, 3, (rank + 2) % n, 1, MPI_ERR_ARG);
        base_cross(&a);
        if (0 == sc) {
            a.count = bad ? 3 : 2;
        } else {
            a.count = 1 + rank; /* all different */
        }
        expect("block-size-count", s, &a, MPI_ERR_TYPE, -1);
        base_cross(&a);
        if (0 == sc ? bad : rank % 2) {
            a.type = MPI_DOUBLE;
        }
        expect("block-size-type", s, &a, MPI_ERR_TYPE, -1);
        base_local(&a, rank);
        if (bad) {
            a.nb = -1;
        }
        expect("nblocks-negative", s, &a, MPI_ERR_COUNT, -1);
        base_cross(&a);
        if (bad) {
            a.count = -1;
        }
        expect("count-negative", s, &a, MPI_ERR_COUNT, 0 == sc ? MPI_ERR_TYPE : -1);
    }

    /* an intercommunicator: two halves, even and odd ranks */
    MPI_Comm half, inter;
    int lr;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - rank % 2, 17, &inter);
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    MPI_Comm_rank(inter, &lr);
    base_local(&a, lr);
    a.comm = inter;
    expect("intercommunicator", "all", &a, MPI_ERR_COMM, -1);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);

    /* unit cannot shift a ring without a free slot; the info key can only
     * pick it when the MCA variable redist left it open */
    const char *sel = getenv("OMPI_MCA_redist");
    if (NULL == sel || ('^' == sel[0]) != listed(sel, "unit")) {
        base_ring(&a);
        MPI_Info_create(&a.info);
        MPI_Info_set(a.info, "redist_component", "unit");
        expect("unit-full-ring", "all", &a, MPI_ERR_OTHER, -1);
        MPI_Info_free(&a.info);
    } else if (0 == rank) {
        printf("bad unit-full-ring all: skipped, redist=%s does not open unit\n", sel);
    }
    expect_ok("valid-map-after");
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "errors";
    struct args a;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    if (n < 2) {
        fprintf(stderr, "redist_bad needs 2 ranks or more\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    if (0 == strcmp(mode, "abort")) {
        int mem[NB * 2] = {0};
        MPIX_Redist rd = MPIX_REDIST_NULL;
        base_cross(&a);
        if (rank == n - 1) {
            a.dr[0] = n;
        }
        int rc = MPIX_Redist_create(mem, a.nb, a.count, a.type, a.dr, a.ds, MPI_INFO_NULL,
                                    MPI_COMM_WORLD, &rd);
        printf("rank %d: MPIX_Redist_create returned %d under MPI_ERRORS_ARE_FATAL\n", rank, rc);
        MPI_Finalize();
        return 0; /* the job had to fail */
    }

    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    if (0 == strcmp(mode, "errors")) {
        errors();
    } else if (0 == strcmp(mode, "nomem")) {
        base_cross(&a);
        expect("max-extra-bytes", "all", &a, MPI_ERR_NO_MEM, -1);
    } else if (0 == strcmp(mode, "refuse") && argc > 2) {
        base_ring(&a);
        MPI_Info_create(&a.info);
        MPI_Info_set(a.info, "redist_component", argv[2]);
        char name[64];
        snprintf(name, sizeof(name), "%s-full-ring", argv[2]);
        expect(name, "all", &a, MPI_ERR_OTHER, -1);
        MPI_Info_free(&a.info);
    } else {
        if (0 == rank) {
            fprintf(stderr, "usage: redist_bad [errors|nomem|refuse COMPONENT|abort]\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (0 == rank) {
        printf("redist_bad: %d cases, %d failed\n", ncases, nfailed);
    }
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return nfailed ? 1 : 0;
}
