/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * pml/zcomp decides ahead of time that a peer whose path is faster than
 * every codec gets its messages raw (the peer's code, issue 39), and
 * decides again once a codec proves faster than that path.  Run with a
 * calibration file that makes rank 0's path to itself 1000 MB/s (just
 * faster than the codecs' assumed speed) and its path to rank 1 slow:
 *   A. rank 0 sends itself 1 MB - 1 B of zeros, 4 times: raw, and the code
 *      says so from the first message on;
 *   B. rank 0 sends rank 1 the same, 2 times: compressed, after a sample
 *      that measures the codecs (on zeros, faster than 1000 MB/s on any
 *      machine that runs this suite);
 *   C. rank 0 sends itself the same again, 4 times: compressed, which only
 *      happens if the raise of the fastest codec's speed in B reset the
 *      code (without it, the code keeps them raw).
 * Prints each phase's compressed count; every message's data is checked.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MSG ((1 << 20) - 1) /* below 1 MB: raw sends of this size are not timed */

static MPI_T_pvar_session sess;
static MPI_T_pvar_handle h_comp;

static unsigned long long compressed(void)
{
    unsigned long long v = 0;
    MPI_T_pvar_read(sess, h_comp, &v);
    return v;
}

static int to_self(char *out, char *in, int n)
{
    int i, bad = 0;
    for (i = 0; i < n; i++) {
        MPI_Request q;
        memset(in, 0x5a, MSG);
        MPI_Irecv(in, MSG, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &q);
        MPI_Send(out, MSG, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        bad += 0 != memcmp(in, out, MSG);
    }
    return bad;
}

int main(int argc, char **argv)
{
    int rank, provided, idx, count, i, failures = 0;
    unsigned long long c[4];
    char *out, *in;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_T_pvar_session_create(&sess);
    if (MPI_SUCCESS != MPI_T_pvar_get_index("pml_zcomp_messages_compressed",
                                            MPI_T_PVAR_CLASS_COUNTER, &idx)
        || MPI_SUCCESS != MPI_T_pvar_handle_alloc(sess, idx, NULL, &h_comp, &count)) {
        printf("FAIL: no pml_zcomp_messages_compressed counter (is zcomp enabled?)\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    out = calloc(MSG, 1);
    in = malloc(MSG);
    if (0 == rank) {
        c[0] = compressed();
        failures += to_self(out, in, 4);
        c[1] = compressed();
        for (i = 0; i < 2; i++) {
            MPI_Send(out, MSG, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
        }
        c[2] = compressed();
        failures += to_self(out, in, 4);
        c[3] = compressed();
        printf("A: %llu of 4 to self compressed\nB: %llu of 2 to rank 1 compressed\n"
               "C: %llu of 4 to self compressed\n", c[1] - c[0], c[2] - c[1], c[3] - c[2]);
        if (failures) {
            printf("FAIL: %d messages to self arrived different\n", failures);
        }
    } else if (1 == rank) {
        for (i = 0; i < 2; i++) {
            memset(in, 0x5a, MSG);
            MPI_Recv(in, MSG, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (0 != memcmp(in, out, MSG)) {
                printf("FAIL: message %d to rank 1 arrived different\n", i);
                failures++;
            }
        }
    }
    MPI_T_pvar_handle_free(sess, &h_comp);
    MPI_T_pvar_session_free(&sess);
    MPI_T_finalize();
    free(out);
    free(in);
    MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("zcomp_fastcode: %d failed\n", failures);
    }
    MPI_Finalize();
    return 0;
}
