/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Every ordered pair of ranks exchanges messages from 0 bytes to 4 MB (eager
 * and rendezvous sizes on every BTL), each filled with a pattern unique to
 * (sender, receiver, size, sequence); the receiver checks every byte, the
 * count and the status.  Several messages per pair are in flight at once to
 * check ordering.  Prints "p2p_check OK <bytes>" on rank 0 on success.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned char pat(int src, int dst, int size, int seq, long i)
{
    return (unsigned char)(src * 131 + dst * 71 + size * 7 + seq * 13 + i * 2654435761u);
}

int main(int argc, char **argv)
{
    static const int sizes[] = {0, 1, 7, 64, 4095, 4096, 65536, 65537, 1 << 20, 4 << 20};
    enum { NSIZES = sizeof(sizes) / sizeof(sizes[0]), INFLIGHT = 3 };
    int rank, size, errors = 0, total_err;
    long long bytes = 0, total_bytes;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    unsigned char *sbuf[INFLIGHT], *rbuf[INFLIGHT];
    for (int k = 0; k < INFLIGHT; k++) {
        sbuf[k] = malloc(4 << 20);
        rbuf[k] = malloc(4 << 20);
    }

    for (int step = 1; step < size; step++) {
        int to = (rank + step) % size, from = (rank - step + size) % size;
        for (int s = 0; s < NSIZES; s++) {
            int n = sizes[s];
            MPI_Request req[2 * INFLIGHT];
            for (int k = 0; k < INFLIGHT; k++) {
                for (long i = 0; i < n; i++) sbuf[k][i] = pat(rank, to, n, k, i);
                MPI_Irecv(rbuf[k], n, MPI_BYTE, from, 100 + s, MPI_COMM_WORLD, &req[k]);
            }
            for (int k = 0; k < INFLIGHT; k++)
                MPI_Isend(sbuf[k], n, MPI_BYTE, to, 100 + s, MPI_COMM_WORLD, &req[INFLIGHT + k]);
            MPI_Status st[2 * INFLIGHT];
            MPI_Waitall(2 * INFLIGHT, req, st);
            for (int k = 0; k < INFLIGHT; k++) {
                int cnt;
                MPI_Get_count(&st[k], MPI_BYTE, &cnt);
                if (cnt != n || st[k].MPI_SOURCE != from || st[k].MPI_TAG != 100 + s) {
                    fprintf(stderr, "rank %d: from %d size %d msg %d: count %d source %d tag %d\n",
                            rank, from, n, k, cnt, st[k].MPI_SOURCE, st[k].MPI_TAG);
                    errors++;
                }
                for (long i = 0; i < n; i++) {
                    if (rbuf[k][i] != pat(from, rank, n, k, i)) {
                        fprintf(stderr, "rank %d: from %d size %d msg %d: byte %ld wrong\n",
                                rank, from, n, k, i);
                        errors++;
                        break;
                    }
                }
                bytes += n;
            }
        }
    }

    MPI_Allreduce(&errors, &total_err, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce(&bytes, &total_bytes, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        if (total_err) printf("p2p_check FAILED: %d errors\n", total_err);
        else printf("p2p_check OK %lld bytes checked on %d ranks\n", total_bytes, size);
    }
    for (int k = 0; k < INFLIGHT; k++) { free(sbuf[k]); free(rbuf[k]); }
    MPI_Finalize();
    return total_err ? 1 : 0;
}
