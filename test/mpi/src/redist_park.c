/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Parking happens where it should: the seed's experiment 4 (rank 0 all
 * free, every other rank full and sending all its blocks to the other full
 * ranks).  With component park some blocks must travel through rank 0
 * (redist_base_parked_blocks > 0 in all, on rank 0 only); with cyclic none
 * may (cycles instead).  Every block is checked.
 *   redist_park COMPONENT MIN_PARKED
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS 12

/* A counter's handle reports what happened since the handle was made:
 * one session and handle for the whole run. */
static MPI_T_pvar_session ses;

static MPI_T_pvar_handle pvar_handle(const char *name)
{
    int idx, count;
    MPI_T_pvar_handle h;
    if (MPI_SUCCESS != MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &idx)
        || MPI_SUCCESS != MPI_T_pvar_handle_alloc(ses, idx, NULL, &h, &count)) {
        fprintf(stderr, "no pvar %s\n", name);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return h;
}

static unsigned long long pvar(MPI_T_pvar_handle h)
{
    unsigned long long v = 0;
    MPI_T_pvar_read(ses, h, &v);
    return v;
}

int main(int argc, char **argv)
{
    int r, n, i, provided, bad = 0, full, q, k;
    int buf[SLOTS], dr[SLOTS], ds[SLOTS];
    unsigned long long p0, p1, mine, all;
    MPI_Info info;
    MPI_T_pvar_handle hpark, hmoved;

    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (argc < 3 || n < 4) {
        fprintf(stderr, "usage: redist_park COMPONENT MIN_PARKED (4 ranks or more)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    full = n - 1;
    /* full rank f (1..n-1) sends block i to the (i % (full-1))-th other
     * full rank, into slot (f's index among its senders) * k + i / (full-1) */
    k = SLOTS / (full - 1);
    for (i = 0; i < SLOTS; i++) {
        buf[i] = -1;
        dr[i] = MPIX_REDIST_FREE;
        ds[i] = 0;
        if (r > 0 && i < k * (full - 1)) {
            int j = i % (full - 1), t = 1 + (r - 1 + 1 + j) % full;   /* skips r */
            int from = (r - t + full) % full - 1;   /* r's index among t's senders */
            buf[i] = r * 1000 + i;
            dr[i] = t;
            ds[i] = from * k + i / (full - 1);
        }
    }
    MPI_Info_create(&info);
    MPI_Info_set(info, "redist_component", argv[1]);
    MPI_T_pvar_session_create(&ses);
    hpark = pvar_handle("redist_base_parked_blocks");
    hmoved = pvar_handle("redist_base_blocks_moved");
    p0 = pvar(hpark);
    if (MPI_SUCCESS != MPIX_Redistribute(buf, SLOTS, 1, MPI_INT, dr, ds, info, MPI_COMM_WORLD)) {
        fprintf(stderr, "rank %d: MPIX_Redistribute failed\n", r);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    p1 = pvar(hpark);
    /* what each full rank must hold: from every other full rank q, its k
     * blocks, in q's slot order */
    for (q = 1; r > 0 && q < n; q++) {
        if (q == r) {
            continue;
        }
        for (i = 0; i < k * (full - 1); i++) {
            int j = i % (full - 1), t = 1 + (q - 1 + 1 + j) % full;
            int from = (q - t + full) % full - 1;
            if (t == r && buf[from * k + i / (full - 1)] != q * 1000 + i) {
                fprintf(stderr, "rank %d slot %d: %d, expected %d\n", r, from * k + i / (full - 1),
                        buf[from * k + i / (full - 1)], q * 1000 + i);
                bad++;
            }
        }
    }
    mine = p1 - p0;
    /* a full rank sends each of its blocks once, rank 0 each it parked */
    if (pvar(hmoved) != (r > 0 ? (unsigned long long) (k * (full - 1)) : mine)) {
        fprintf(stderr, "rank %d: redist_base_blocks_moved %llu\n", r, pvar(hmoved));
        bad++;
    }
    MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (r > 0 && mine > 0) {
        fprintf(stderr, "rank %d parked %llu blocks (only the free rank may)\n", r, mine);
        bad++;
    }
    if (0 == r) {
        printf("redist_park: %s parked %llu blocks on rank 0\n", argv[1], all);
        if ((long long) all < atoll(argv[2]) || (0 == atoll(argv[2]) && all > 0)) {
            fprintf(stderr, "parked %llu blocks, expected %s%s\n", all,
                    0 == atoll(argv[2]) ? "" : "at least ", argv[2]);
            bad++;
        }
    }
    MPI_Info_free(&info);
    MPI_T_pvar_handle_free(ses, &hpark);
    MPI_T_pvar_handle_free(ses, &hmoved);
    MPI_T_pvar_session_free(&ses);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (0 == r) {
        printf("redist_park: %s\n", bad ? "FAILED" : "OK");
    }
    MPI_T_finalize();
    MPI_Finalize();
    return bad ? 1 : 0;
}
