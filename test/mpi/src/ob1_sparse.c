/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * ob1's peer table (config/patches/4.1/0005-ob1-sparse-peer-table.patch), read
 * through its communicator-bound pvar pml_ob1_peer_table_bytes:
 *   ob1_sparse flat    the table is one pointer per member (8n bytes);
 *   ob1_sparse sparse  one pointer per 256 ranks until a peer is contacted,
 *                      then one 256-entry chunk more (n <= 256 here).
 * Around it, traffic a sparse table must not change: a ring with named and
 * wildcard receives, MPI_Iprobe(ANY_SOURCE) before the sender's chunk
 * exists, from 4 threads at once on their own duplicates (when the library
 * gives MPI_THREAD_MULTIPLE), every payload checked.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mpi_pvar.h"

#define NTHREADS 4
#define ROUNDS 200

static int rank, size;
static MPI_Comm tcomm[NTHREADS];

static unsigned long long table_bytes(int idx, MPI_Comm comm)
{
    MPI_T_pvar_session s;
    MPI_T_pvar_handle h;
    unsigned long long v = 0;
    int count;
    CHECK(MPI_SUCCESS == MPI_T_pvar_session_create(&s), "pvar session");
    CHECK(MPI_SUCCESS == MPI_T_pvar_handle_alloc(s, idx, &comm, &h, &count), "pvar handle");
    CHECK(1 == count, "peer_table_bytes has %d values, expected 1", count);
    MPI_T_pvar_read(s, h, &v);
    MPI_T_pvar_handle_free(s, &h);
    MPI_T_pvar_session_free(&s);
    return v;
}

/* One ring round trip per round on comm: receive from the left neighbour
 * by name on even rounds and by MPI_ANY_SOURCE on odd ones. */
static void ring(MPI_Comm comm, int salt)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int r = 0; r < ROUNDS; r++) {
        int out[16], in[16];
        MPI_Status st;
        for (int i = 0; i < 16; i++) {
            out[i] = salt * 1000003 + r * 131 + rank * 17 + i;
        }
        MPI_Request req;
        MPI_Isend(out, 16, MPI_INT, right, r, comm, &req);
        MPI_Recv(in, 16, MPI_INT, (r & 1) ? MPI_ANY_SOURCE : left, r, comm, &st);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        CHECK(st.MPI_SOURCE == left, "round %d: source %d, expected %d", r, st.MPI_SOURCE, left);
        for (int i = 0; i < 16; i++) {
            CHECK(in[i] == salt * 1000003 + r * 131 + left * 17 + i,
                  "round %d: word %d is %d (salt %d)", r, i, in[i], salt);
        }
    }
}

/* Thread t's all-to-all on the shared communicator: tag t, every peer by
 * name, so 4 threads make first contact with the same peers (the same
 * chunk) at once. */
static MPI_Comm shared;
static void *shared_main(void *arg)
{
    int t = (int) (long) arg;
    int *out = xmalloc(size * sizeof(int)), *in = xmalloc(size * sizeof(int));
    MPI_Request *req = xmalloc(2 * size * sizeof(MPI_Request));
    for (int p = 0; p < size; p++) {
        out[p] = t * 1000000 + rank * 1000 + p;
        in[p] = -1;
        MPI_Irecv(&in[p], 1, MPI_INT, p, t, shared, &req[p]);
    }
    for (int p = 0; p < size; p++) {
        MPI_Isend(&out[p], 1, MPI_INT, p, t, shared, &req[size + p]);
    }
    MPI_Waitall(2 * size, req, MPI_STATUSES_IGNORE);
    for (int p = 0; p < size; p++) {
        CHECK(in[p] == t * 1000000 + p * 1000 + rank, "thread %d: from %d got %d", t, p, in[p]);
    }
    free(req);
    free(in);
    free(out);
    return NULL;
}

static void *thread_main(void *arg)
{
    MPI_Comm *comm = arg;
    ring(*comm, 8 + (int) (comm - tcomm));
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, tprov, idx, sparse;
    unsigned long long before, after, chunks, chunk_bytes;
    MPI_Comm dup;

    CHECK(argc == 2
              && (0 == strcmp(argv[1], "flat") || 0 == strcmp(argv[1], "sparse")
                  || 0 == strcmp(argv[1], "chunked")),
          "usage: ob1_sparse flat|sparse|chunked  (chunked: pml_ob1_sparse_flat_one_chunk false)");
    sparse = 0 != strcmp(argv[1], "flat");
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &tprov);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2 && size <= 256, "run on 2 to 256 ranks (%d)", size);

    idx = test_pvar_index("pml_ob1_peer_table_bytes", NULL, NULL);
    CHECK(idx >= 0, "no pvar pml_ob1_peer_table_bytes (is pml ob1 selected and patched?)");

    /* A duplicate is agreed on by collectives on its parent, then
     * activated by one on itself, which may or may not have reached this
     * process's table yet: one pointer per 256 ranks, plus at most the one
     * chunk of a peer already heard from.  A communicator of at most 256
     * members has one chunk of its own size (8 per member), which is then
     * its flat table too. */
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    before = table_bytes(idx, dup);
    chunks = (size + 255) / 256;
    chunk_bytes = 8ull * (size < 256 && 0 == strcmp(argv[1], "sparse") ? size : 256);
    if (sparse) {
        CHECK(before == 8 * chunks || before == 8 * chunks + chunk_bytes,
              "sparse table before the ring: %llu bytes, expected %llu or %llu", before,
              8 * chunks, 8 * chunks + chunk_bytes);
    } else {
        CHECK(before == 8ull * size, "flat table: %llu bytes, expected %llu", before,
              8ull * size);
    }

    /* A wildcard probe walks every peer, contacted or not. */
    {
        int flag = 1;
        MPI_Iprobe(MPI_ANY_SOURCE, 12345, dup, &flag, MPI_STATUS_IGNORE);
        CHECK(!flag, "a probe found a message nobody sent");
    }
    ring(dup, 1);
    after = table_bytes(idx, dup);
    if (sparse) {
        CHECK(after == 8 * chunks + chunk_bytes, "sparse table after contact: %llu bytes, expected %llu",
              after, 8 * chunks + chunk_bytes);
    } else {
        CHECK(after == before, "flat table changed size: %llu -> %llu", before, after);
    }

    /* Concurrent first contact on fresh duplicates. */
    if (MPI_THREAD_MULTIPLE == provided) {
        pthread_t th[NTHREADS];
        for (int t = 0; t < NTHREADS; t++) {
            MPI_Comm_dup(MPI_COMM_WORLD, &tcomm[t]);
        }
        for (int t = 0; t < NTHREADS; t++) {
            CHECK(0 == pthread_create(&th[t], NULL, thread_main, &tcomm[t]), "pthread_create");
        }
        for (int t = 0; t < NTHREADS; t++) {
            pthread_join(th[t], NULL);
        }
        for (int t = 0; t < NTHREADS; t++) {
            MPI_Comm_free(&tcomm[t]);
        }
        /* ... and on one shared duplicate: the chunk is created once
         * (under the table's lock) and every entry is whole */
        MPI_Comm_dup(MPI_COMM_WORLD, &shared);
        for (int t = 0; t < NTHREADS; t++) {
            CHECK(0 == pthread_create(&th[t], NULL, shared_main, (void *) (long) t),
                  "pthread_create");
        }
        for (int t = 0; t < NTHREADS; t++) {
            pthread_join(th[t], NULL);
        }
        {
            unsigned long long b = table_bytes(idx, shared);
            unsigned long long want = sparse ? 8 * chunks + chunk_bytes : 8ull * size;
            CHECK(b == want, "shared duplicate after 4 threads' first contact: %llu bytes, expected %llu",
                  b, want);
        }
        MPI_Comm_free(&shared);
    }
    MPI_Comm_free(&dup);
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        printf("ob1_sparse %s: %d ranks, table %llu -> %llu bytes, threads %s: ok\n", argv[1],
               size, before, after, MPI_THREAD_MULTIPLE == provided ? "yes" : "no");
    }
    MPI_T_finalize();
    MPI_Finalize();
    return 0;
}
