/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * ob1's peer table (config/patches/4.1/0005-ob1-sparse-peer-table.patch), read
 * through its communicator-bound pvar pml_ob1_peer_table_bytes:
 *   ob1_sparse flat H     the table is one pointer per member (8n bytes);
 *   ob1_sparse sparse H   nothing while a process has contacted at most 5
 *                         peers (they live in the communicator's slots,
 *                         patches 0029 and 0037), then
 *                         a hash of the peers contacted while there are at
 *                         most H (pml_ob1_sparse_hash_peers, patch 0035:
 *                         24 + 12k bytes for capacity k, a power of 2 at
 *                         least 16 and twice the peers, every capacity made
 *                         on the way kept), then one pointer per member
 *                         (n <= 256 here) besides; the table at once where
 *                         it is no larger than the hashes (patch 0036: up to
 *                         27 members, which this program's runs have);
 *   ob1_sparse chunked H  the same, with the two-level table past the hash:
 *                         one pointer per 256 ranks and a 256-entry chunk.
 *   ob1_sparse hot H      chunked, where a communicator that has looked its
 *                         peers up 16 times a member past its first slot
 *                         (pml_ob1_sparse_hot_lookups, its default) and has
 *                         no table gets one pointer per member as well, and
 *                         allocates nothing more for new peers; the other
 *                         modes run with pml_ob1_sparse_hot_lookups 0.
 * A communicator of 2 members never has a table; a duplicate of the world
 * has one once every peer was contacted, if the world has more than 5 ranks.
 * Around it, traffic a sparse table must not change: a ring with named and
 * wildcard receives, MPI_Iprobe(ANY_SOURCE) before the sender is known,
 * messages that wait unexpected in a slot's queue while the table is made,
 * from 4 threads at once on their own duplicates and on one shared one (when
 * the library gives MPI_THREAD_MULTIPLE), every payload checked.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mpi_pvar.h"

#define NTHREADS 4
#define ROUNDS 200
/* ob1's slots (MCA_PML_OB1_PEER_SLOTS) */
#define SLOTS 5

static int rank, size, hash_peers, chunked, hot;

/* Heap bytes of a sparse communicator's peer table once it has contacted
 * `peers` distinct peers (its size is `size`). */
static unsigned long long want(int peers)
{
    unsigned long long b = 0, k = 0;
    if (peers <= SLOTS) {
        return 0;
    }
    /* the p-th peer (SLOTS < p <= hash_peers) goes into the hash, made or
     * grown to twice its capacity when it would be more than half full;
     * unless (one-chunk table) a flat table is no larger than every hash
     * made so far and the new one together (patch 0036): then the table */
    for (int p = SLOTS + 1; p <= peers; p++) {
        unsigned long long nk = 16;
        if (p > hash_peers) {
            return b + (chunked ? 8 + 8 * 256 : 8ull * size);
        }
        if (2ull * p <= k) {
            continue;
        }
        while (nk < 2ull * p) {
            nk *= 2;
        }
        if (!chunked && 8ull * size <= b + 24 + 12 * nk) {
            return b + 8ull * size;
        }
        b += 24 + 12 * nk;
        k = nk;
    }
    return b;
}
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
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
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

/* Whether a promoted communicator's bytes are the flat table of its size
 * beside the compact form it had when promoted (some number of peers
 * contacted, at most hash_peers, so no table of its own). */
static int promoted_from_compact(unsigned long long b, int n)
{
    for (int p = 0; p <= n && p <= hash_peers; p++) {
        if (b == want(p) + 8ull * n) {
            return 1;
        }
    }
    return 0;
}

/* Every peer by name on comm, tag t (0 <= t < 1000). */
static void alltoall(MPI_Comm comm, int t)
{
    int *out = xmalloc(size * sizeof(int)), *in = xmalloc(size * sizeof(int));
    MPI_Request *req = xmalloc(2 * size * sizeof(MPI_Request));
    for (int p = 0; p < size; p++) {
        out[p] = t * 1000000 + rank * 1000 + p;
        in[p] = -1;
        MPI_Irecv(&in[p], 1, MPI_INT, p, t, comm, &req[p]);
    }
    for (int p = 0; p < size; p++) {
        MPI_Isend(&out[p], 1, MPI_INT, p, t, comm, &req[size + p]);
    }
    MPI_Waitall(2 * size, req, MPI_STATUSES_IGNORE);
    for (int p = 0; p < size; p++) {
        CHECK(in[p] == t * 1000000 + p * 1000 + rank, "tag %d: from %d got %d", t, p, in[p]);
    }
    free(req);
    free(in);
    free(out);
}

/* A message from the left neighbour waits unexpected (queued on its slot's
 * entry) while an all-to-all makes the table; then a wildcard receive must
 * still find it, and only it. */
static void pending_then_table(MPI_Comm comm)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size, v = rank * 7 + 1, got = -1;
    MPI_Status st;
    MPI_Send(&v, 1, MPI_INT, right, 999, comm);     /* eager: small */
    MPI_Barrier(MPI_COMM_WORLD);
    alltoall(comm, 998);
    MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 999, comm, &st);
    CHECK(st.MPI_SOURCE == left && got == left * 7 + 1,
          "pending message: source %d value %d, expected %d and %d", st.MPI_SOURCE, got, left,
          left * 7 + 1);
}

/* Thread t's all-to-all on the shared communicator: tag t, every peer by
 * name, so 4 threads make first contact with the same peers (the same
 * chunk) at once. */
static MPI_Comm shared;
static void *shared_main(void *arg)
{
    alltoall(shared, (int) (long) arg);
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
    int provided, tprov, idx, sparse, known;
    unsigned long long before, after, pair_bytes;
    MPI_Comm dup, pair;

    CHECK(argc == 3
              && (0 == strcmp(argv[1], "flat") || 0 == strcmp(argv[1], "sparse")
                  || 0 == strcmp(argv[1], "chunked") || 0 == strcmp(argv[1], "hot")),
          "usage: ob1_sparse flat|sparse|chunked|hot H  (chunked: pml_ob1_sparse_flat_one_chunk false; "
          "H: pml_ob1_sparse_hash_peers)");
    sparse = 0 != strcmp(argv[1], "flat");
    chunked = 0 == strcmp(argv[1], "chunked");
    hot = 0 == strcmp(argv[1], "hot");
    /* hot runs on the two-level path, where the hash is made at any size */
    chunked = chunked || hot;
    hash_peers = atoi(argv[2]);
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &tprov);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2 && size <= 256, "run on 2 to 256 ranks (%d)", size);

    idx = test_pvar_index("pml_ob1_peer_table_bytes", NULL, NULL);
    CHECK(idx >= 0, "no pvar pml_ob1_peer_table_bytes (is pml ob1 selected and patched?)");

    /* A duplicate is agreed on by collectives on its parent, then activated
     * by one on itself, which may have contacted any number of peers. */
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    before = table_bytes(idx, dup);
    if (sparse) {
        known = 0;
        for (int p = 0; p <= size; p++) {
            known |= before == want(p);
        }
        CHECK(known, "sparse table before the ring: %llu bytes, for no number of peers", before);
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
    if (!sparse) {
        CHECK(after == before, "flat table changed size: %llu -> %llu", before, after);
    }
    if (hot) {
        /* 200 rounds, one of the two neighbours past slot 0 (3+ ranks):
         * at least 200 counted lookups, 16 a member up to 12 ranks */
        CHECK(size < 3 || size > 12 || promoted_from_compact(after, size),
              "a ring of 200 rounds on %d ranks left a %llu-byte table, not a flat one beside its "
              "compact form", size, after);
    }

    /* Pairs (and a single rank left over): at most 2 peers, all in slots,
     * whatever their collectives did. */
    MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &pair);
    ring(pair, 2);
    MPI_Barrier(pair);
    pair_bytes = table_bytes(idx, pair);
    if (sparse) {
        int psize;
        MPI_Comm_size(pair, &psize);
        /* hot: a peer found in slot 1 counts, and a pair is soon busy */
        CHECK(pair_bytes == 0 || (hot && pair_bytes == 8ull * psize),
              "a communicator of %d members has a %llu-byte table after a ring "
              "(its 2 peers fit in its slots)", psize, pair_bytes);
    }
    MPI_Comm_free(&pair);

    /* Every peer: more than SLOTS of them make the table, carrying the queues
     * of the peers in slots. */
    pending_then_table(dup);
    ring(dup, 3);
    if (hot) {
        unsigned long long promoted = after;
        after = table_bytes(idx, dup);
        CHECK(size < 3 || size > 12 || after == promoted,
              "a promoted table grew from %llu to %llu bytes on contact with every peer", promoted, after);
    } else {
        after = table_bytes(idx, dup);
        CHECK(!sparse || after == want(size),
              "sparse table after contact with all %d ranks: %llu bytes, expected %llu", size, after,
              want(size));
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
        /* ... and on one shared duplicate: 4 threads contact every peer at
         * once, filling the slots and making the table (under the table's
         * lock) while the others look peers up; every entry is whole and
         * the table is made once */
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
            unsigned long long w = !sparse ? 8ull * size : want(size);
            CHECK(b == w || (hot && b == w + 8ull * size),
                  "shared duplicate after 4 threads' first contact: %llu bytes, expected %llu", b, w);
        }
        ring(shared, 4);
        if (hot && size >= 3 && size <= 12) {
            /* past H peers it has its own flat table: nothing to promote */
            unsigned long long b = table_bytes(idx, shared);
            unsigned long long w = want(size) + (size > hash_peers ? 0 : 8ull * size);
            CHECK(b == w, "shared duplicate after a ring of 200 rounds: %llu bytes, expected %llu", b, w);
        }
        MPI_Comm_free(&shared);
    }
    MPI_Comm_free(&dup);
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        printf("ob1_sparse %s %d: %d ranks, table %llu -> %llu bytes, pair %llu, threads %s: ok\n", argv[1],
               hash_peers, size, before, after, pair_bytes, MPI_THREAD_MULTIPLE == provided ? "yes" : "no");
    }
    MPI_T_finalize();
    MPI_Finalize();
    return 0;
}
