/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * comm_store benchmarks (driven by bench/comm_store_bench.sh, which runs
 * every configuration in the same script and prints ratios):
 *
 *   comm_store_bench pingpong LIVE ITERS
 *       ranks 0 and 1 ping-pong 0- and 8-byte messages on a communicator
 *       created after LIVE others (all kept alive); prints the median
 *       one-way latency of 15 batches:  "pingpong 0B <ns> 8B <ns>"
 *
 *   comm_store_bench split small|large SPLITS [SEED]
 *       the split stress benchmark of Bosilca et al. (section 4): SPLITS
 *       times, a communicator is drawn among the existing ones (all kept
 *       alive) and its processes call MPI_Comm_split, where a random subset
 *       participates (the others pass MPI_UNDEFINED).  large: 0 to 2 of the
 *       drawn communicator's processes stay out (the paper drops 0-8 of 128
 *       ranks); small: the new communicator has 2 or 3 processes (the
 *       paper's 8-16 of 128).  Every process times each split it takes part
 *       in and reads comm_store_base_cid_rounds_last; rank 0 prints the
 *       distribution and, from MPI_T, density and bytes per live
 *       communicator averaged over the ranks:
 *       "split <mode> n=<samples> p50=<us> p90=<us> p99=<us> rounds=<mean>
 *        single=<fraction> density=<mean> bytes_per_comm=<mean> live=<mean>"
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mpi_pvar.h"

static int rank, size;
static MPI_T_pvar_session session;

/* ---- ping-pong ---------------------------------------------------------- */
static double pingpong(MPI_Comm c, int bytes, int iters)
{
    char buf[8] = {0};
    double batch[15];
    for (int b = -1; b < 15; b++) { /* batch -1 warms up */
        MPI_Barrier(c);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++) {
            if (0 == rank) {
                MPI_Send(buf, bytes, MPI_BYTE, 1, 0, c);
                MPI_Recv(buf, bytes, MPI_BYTE, 1, 0, c, MPI_STATUS_IGNORE);
            } else if (1 == rank) {
                MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, c, MPI_STATUS_IGNORE);
                MPI_Send(buf, bytes, MPI_BYTE, 0, 0, c);
            }
        }
        if (b >= 0) batch[b] = (MPI_Wtime() - t0) / iters / 2 * 1e9;
    }
    return test_median(batch, 15);
}

static void mode_pingpong(int live, int iters)
{
    MPI_Comm *keep = malloc(sizeof(MPI_Comm) * (live > 0 ? live : 1)), c;
    for (int i = 0; i < live; i++) MPI_Comm_dup(MPI_COMM_WORLD, &keep[i]);
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    double l0 = pingpong(c, 0, iters), l8 = pingpong(c, 8, iters);
    if (0 == rank) printf("pingpong 0B %.1f 8B %.1f\n", l0, l8);
    MPI_Comm_free(&c);
    for (int i = 0; i < live; i++) MPI_Comm_free(&keep[i]);
    free(keep);
}

/* ---- split stress ------------------------------------------------------- */
/* Deterministic generator shared by all ranks, so that they agree on every
 * draw without communicating (its own LCG, not test_rand: the splits of
 * the published runs follow from its sequence). */
static uint64_t rng_state;
static uint32_t rng(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t) (rng_state >> 33);
}

static MPI_T_pvar_handle pvar_handle(const char *name)
{
    MPI_T_pvar_handle h;
    int count, i = test_pvar_index(name, NULL, NULL);
    if (i < 0) {
        fprintf(stderr, "MPI_T variable %s not found\n", name);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_T_pvar_handle_alloc(session, i, NULL, &h, &count);
    return h;
}

static void mode_split(int small, int splits, unsigned seed)
{
    /* every communicator: its members as a bit mask of world ranks (all
     * ranks track all masks), and the handle where this rank is a member */
    uint32_t *mask = malloc(sizeof(uint32_t) * (splits + 1));
    MPI_Comm *comm = malloc(sizeof(MPI_Comm) * (splits + 1));
    double *times = malloc(sizeof(double) * splits);
    int ncomm = 1, nt = 0, rounds = 0, single = 0;
    MPI_T_pvar_handle h_last = pvar_handle("comm_store_base_cid_rounds_last");
    mask[0] = (size >= 32) ? UINT32_MAX : (UINT32_C(1) << size) - 1;
    comm[0] = MPI_COMM_WORLD;
    rng_state = seed;
    int min_size = small ? 2 : (size > 2 ? size - 2 : 1);
    for (int it = 0; it < splits; it++) {
        /* draw a communicator at least as large as the target */
        int pick;
        do {
            pick = rng() % ncomm;
        } while (__builtin_popcount(mask[pick]) < min_size);
        uint32_t parent = mask[pick], child = 0;
        int members[32], nm = 0;
        for (int r = 0; r < size; r++) {
            if (parent & (UINT32_C(1) << r)) members[nm++] = r;
        }
        if (small) { /* 2 or 3 of the parent's processes */
            int want = 2 + (int) (rng() % 2);
            want = want > nm ? nm : want;
            for (int k = 0; k < want; k++) { /* partial Fisher-Yates */
                int j = k + (int) (rng() % (nm - k)), t = members[k];
                members[k] = members[j];
                members[j] = t;
                child |= UINT32_C(1) << members[k];
            }
        } else { /* drop 0 to 2 */
            child = parent;
            int drop = (int) (rng() % 3);
            for (int k = 0; k < drop && __builtin_popcount(child) > 1; k++) {
                child &= ~(UINT32_C(1) << members[rng() % nm]);
            }
        }
        mask[ncomm] = child;
        comm[ncomm] = MPI_COMM_NULL;
        if (parent & (UINT32_C(1) << rank)) {
            int color = (child & (UINT32_C(1) << rank)) ? 0 : MPI_UNDEFINED;
            double t0 = MPI_Wtime();
            MPI_Comm_split(comm[pick], color, 0, &comm[ncomm]);
            times[nt++] = (MPI_Wtime() - t0) * 1e6;
            unsigned last = 0;
            MPI_T_pvar_read(session, h_last, &last);
            rounds += (int) last;
            single += 1 == last;
        }
        ncomm++;
    }
    /* the distribution over every (process, split) sample */
    int *counts = NULL, *displs = NULL, total = 0;
    double *all = NULL;
    if (0 == rank) counts = malloc(sizeof(int) * size), displs = malloc(sizeof(int) * size);
    MPI_Gather(&nt, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        for (int r = 0; r < size; r++) displs[r] = total, total += counts[r];
        all = malloc(sizeof(double) * (total ? total : 1));
    }
    MPI_Gatherv(times, nt, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    int tot_rounds = 0, tot_single = 0;
    MPI_Reduce(&rounds, &tot_rounds, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&single, &tot_single, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    /* density and memory of every rank's store, with everything alive */
    MPI_T_pvar_handle h_live = pvar_handle("comm_store_base_live");
    MPI_T_pvar_handle h_bytes = pvar_handle("comm_store_base_bytes");
    MPI_T_pvar_handle h_dens = pvar_handle("comm_store_base_density");
    unsigned long live = 0, bytes = 0;
    double dens = 0, mine[3], sum[3];
    MPI_T_pvar_read(session, h_live, &live);
    MPI_T_pvar_read(session, h_bytes, &bytes);
    MPI_T_pvar_read(session, h_dens, &dens);
    mine[0] = dens;
    mine[1] = (double) bytes / (double) live;
    mine[2] = (double) live;
    MPI_Reduce(mine, sum, 3, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        qsort(all, total, sizeof(double), test_cmp_double);
        printf("split %s n=%d p50=%.1f p90=%.1f p99=%.1f rounds=%.3f single=%.4f "
               "density=%.4f bytes_per_comm=%.1f live=%.0f\n",
               small ? "small" : "large", total, all[total / 2], all[(int) (total * 0.9)],
               all[(int) (total * 0.99)], (double) tot_rounds / total,
               (double) tot_single / total, sum[0] / size, sum[1] / size, sum[2] / size);
        free(all);
        free(counts);
        free(displs);
    }
    for (int i = 1; i < ncomm; i++) {
        if (MPI_COMM_NULL != comm[i]) MPI_Comm_free(&comm[i]);
    }
    free(mask);
    free(comm);
    free(times);
}

int main(int argc, char **argv)
{
    int tp;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &tp);
    MPI_T_pvar_session_create(&session);
    if (argc >= 4 && 0 == strcmp(argv[1], "pingpong")) {
        mode_pingpong(atoi(argv[2]), atoi(argv[3]));
    } else if (argc >= 4 && 0 == strcmp(argv[1], "split") && size <= 32) {
        mode_split(0 == strcmp(argv[2], "small"), atoi(argv[3]),
                   argc > 4 ? (unsigned) atoi(argv[4]) : 12345u);
    } else {
        if (0 == rank) fprintf(stderr, "usage: comm_store_bench pingpong LIVE ITERS | split small|large SPLITS [SEED] (at most 32 ranks)\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_T_pvar_session_free(&session);
    MPI_T_finalize();
    MPI_Finalize();
    return 0;
}
