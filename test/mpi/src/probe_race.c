/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MPI_Iprobe racing MPI_Recv on the same messages
 * (config/patches/4.1/0007-ob1-probe-under-matching-lock.patch).  Rank 0 sends
 * N pairs: 16 ints on tag 1, then 3 chars on tag 2.  On rank 1, 4 threads
 * each loop MPI_Iprobe(0, tag 1) -> check the status -> MPI_Recv(tag 1),
 * while the main thread receives the tag-2 messages.  A probe must report
 * source 0, tag 1 and 16 ints; stock 4.1.4's ob1 read the fragment after
 * releasing the matching lock, so another thread could take it and the
 * next message reuse it: about 1 probe in 1,000 reported tag 2 or 3 bytes.
 *
 *   probe_race N     (2 ranks; prints "probe_race: N pairs, B bad probes")
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

#define NT 4
#define STOP (-7)

static int bad;

static void *probe_recv(void *arg)
{
    int buf[64];
    (void) arg;
    for (;;) {
        int flag = 0, count;
        MPI_Status st;
        MPI_Iprobe(0, 1, MPI_COMM_WORLD, &flag, &st);
        if (!flag) {
            continue;
        }
        MPI_Get_count(&st, MPI_INT, &count);
        if (st.MPI_TAG != 1 || st.MPI_SOURCE != 0 || count != 16) {
            if (__atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED) <= 5) {
                fprintf(stderr, "probe_race: a probe for tag 1 from 0 reported tag %d source %d count %d\n",
                        st.MPI_TAG, st.MPI_SOURCE, count);
            }
        }
        /* the probed message may have gone to another thread: any tag-1
         * message will do */
        MPI_Recv(buf, 64, MPI_INT, 0, 1, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(16 == count && 1 == st.MPI_TAG, "a tag-1 receive got %d ints, tag %d", count, st.MPI_TAG);
        if (STOP == buf[0]) {
            return NULL;
        }
        CHECK(buf[15] == buf[0] + 15, "a tag-1 message is damaged: %d .. %d", buf[0], buf[15]);
    }
}

int main(int argc, char **argv)
{
    int provided, rank, size, n;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(2 == argc && 2 == size, "usage: mpirun -np 2 probe_race N");
    CHECK(MPI_THREAD_MULTIPLE == provided, "MPI_THREAD_MULTIPLE not provided (%d)", provided);
    n = atoi(argv[1]);
    if (0 == rank) {
        int m[16];
        char c[3] = {1, 2, 3};
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < 16; k++) {
                m[k] = i + k;
            }
            MPI_Send(m, 16, MPI_INT, 1, 1, MPI_COMM_WORLD);
            MPI_Send(c, 3, MPI_CHAR, 1, 2, MPI_COMM_WORLD);
        }
        m[0] = STOP;
        for (int t = 0; t < NT; t++) {
            MPI_Send(m, 16, MPI_INT, 1, 1, MPI_COMM_WORLD);
        }
    } else {
        pthread_t th[NT];
        char c[3];
        for (long t = 0; t < NT; t++) {
            CHECK(0 == pthread_create(&th[t], NULL, probe_recv, (void *) t), "pthread_create");
        }
        for (int i = 0; i < n; i++) {
            MPI_Recv(c, 3, MPI_CHAR, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(1 == c[0] && 3 == c[2], "a tag-2 message is damaged");
        }
        for (int t = 0; t < NT; t++) {
            pthread_join(th[t], NULL);
        }
        printf("probe_race: %d pairs, %d bad probes\n", n, bad);
    }
    MPI_Finalize();
    return 0;
}
