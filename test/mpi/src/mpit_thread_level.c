/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MPI_T_init_thread must not change MPI's thread level
 * (config/patches/4.1/0006-mpit-own-thread-level.patch).  The program asks MPI
 * for MPI_THREAD_MULTIPLE and the tools interface for MPI_THREAD_SINGLE, as
 * a tool inside a threaded program does, then:
 *  - MPI_Query_thread must still say MPI_THREAD_MULTIPLE (4.1.4 said
 *    SINGLE) and a nested MPI_T_init_thread must report the first call's
 *    level;
 *  - 4 threads, each on its own duplicate of the world, run rings of
 *    blocking receives (named on even rounds, MPI_ANY_SOURCE on odd ones):
 *    every status and every word is checked.  On 4.1.4 ob1 handed two
 *    threads one cached request: receives returned early with source -1
 *    or with another thread's data.
 *
 *   mpit_thread_level ROUNDS
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

#define NTHREADS 4

static int rank, size, rounds;
static MPI_Comm tcomm[NTHREADS];

static void *ring(void *arg)
{
    int t = (int) (long) arg;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int r = 0; r < rounds; r++) {
        int out[16], in[16];
        MPI_Status st;
        MPI_Request req;
        for (int i = 0; i < 16; i++) {
            out[i] = t * 10000000 + r * 131 + rank * 17 + i;
            in[i] = -1;
        }
        MPI_Isend(out, 16, MPI_INT, right, r % 32768, tcomm[t], &req);
        MPI_Recv(in, 16, MPI_INT, (r & 1) ? MPI_ANY_SOURCE : left, r % 32768, tcomm[t], &st);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        CHECK(st.MPI_SOURCE == left && st.MPI_TAG == r % 32768,
              "thread %d round %d: status source %d tag %d, expected %d and %d", t, r,
              st.MPI_SOURCE, st.MPI_TAG, left, r % 32768);
        for (int i = 0; i < 16; i++) {
            CHECK(in[i] == t * 10000000 + r * 131 + left * 17 + i,
                  "thread %d round %d: word %d is %d, expected %d", t, r, i, in[i],
                  t * 10000000 + r * 131 + left * 17 + i);
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, tprov, tprov2, query;
    pthread_t th[NTHREADS];

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(2 == argc, "usage: mpit_thread_level ROUNDS");
    rounds = atoi(argv[1]);
    CHECK(MPI_THREAD_MULTIPLE == provided, "MPI_Init_thread gave level %d, not MULTIPLE", provided);

    MPI_T_init_thread(MPI_THREAD_SINGLE, &tprov);
    CHECK(MPI_THREAD_SINGLE == tprov, "MPI_T_init_thread(SINGLE) gave %d", tprov);
    MPI_Query_thread(&query);
    CHECK(MPI_THREAD_MULTIPLE == query,
          "MPI_Query_thread says %d after MPI_T_init_thread(SINGLE): MPI's level was changed", query);
    tprov2 = -1;
    MPI_T_init_thread(MPI_THREAD_MULTIPLE, &tprov2);
    CHECK(MPI_THREAD_SINGLE == tprov2, "nested MPI_T_init_thread reported %d, not the first level",
          tprov2);
    MPI_T_finalize();

    for (int t = 0; t < NTHREADS; t++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &tcomm[t]);
    }
    for (int t = 0; t < NTHREADS; t++) {
        CHECK(0 == pthread_create(&th[t], NULL, ring, (void *) (long) t), "pthread_create");
    }
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
    }
    for (int t = 0; t < NTHREADS; t++) {
        MPI_Comm_free(&tcomm[t]);
    }
    MPI_T_finalize();
    MPI_Query_thread(&query);
    CHECK(MPI_THREAD_MULTIPLE == query, "MPI_Query_thread says %d after MPI_T_finalize", query);
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        printf("mpit_thread_level: %d ranks, %d threads x %d rounds: ok\n", size, NTHREADS, rounds);
    }
    MPI_Finalize();
    return 0;
}
