/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * pml/zcomp under MPI_THREAD_MULTIPLE: 4 threads a process send to and
 * receive from every rank, themselves included, at once.  Threads 0 and 2
 * share MPI_COMM_WORLD (each on tags of its own), threads 1 and 3 have a
 * duplicate each.  Every round runs every mode:
 *   nonblocking  Irecv from all, Isend to all, Waitall
 *   blocking     Irecv from all, blocking Send to each in turn, Waitall
 *   sendrecv     Sendrecv around the ring of distances 0..n-1
 *   synchronous  Irecv from all, Issend to all, Waitall
 *   probe        Isend to all; Probe (or Iprobe) each source, then Recv
 *   mprobe       Isend to all; Mprobe (or Improbe) ANY_SOURCE, then Mrecv
 * at sizes from 4 KB (inline in zcomp's header) to 1 MB (several chunks),
 * contiguous longs and a strided vector, 75 %-zero (compressible) and
 * random contents.  Every receive checks its count (Get_count and the
 * probes) and every element.
 *
 *   zcomp_threads [rounds]      (default 3)
 * Prints "pvar <rank> <name> <value>" for zcomp's counters and
 * "zcomp_threads: N messages, N failed"; exits 1 on a failure.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NT 4
enum { M_NONBLOCKING, M_BLOCKING, M_SENDRECV, M_SYNC, M_PROBE, M_MPROBE, NMODES };
static const char *mode_name[NMODES] = {"nonblocking", "blocking", "sendrecv",
                                        "synchronous", "probe", "mprobe"};
static const int sizes[] = {512, 16384, 65536, 131072}; /* longs: 4 KB .. 1 MB */
#define NSIZES ((int) (sizeof(sizes) / sizeof(sizes[0])))

static int rank, nprocs, rounds = 3;
static MPI_Comm comms[NT];
static MPI_Datatype vec; /* every other long */
static long failures, messages;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

/* A failure of thread t in mode m: reported in one line (the threads
 * report at once), counted, and the run goes on. */
__attribute__((format(printf, 3, 4)))
static void thread_failed(int t, int m, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    fprintf(stderr, "FAIL [rank %d thread %d] %s: %s\n", rank, t, mode_name[m], msg);
    pthread_mutex_lock(&count_lock);
    failures++;
    pthread_mutex_unlock(&count_lock);
}

#define CHECK_FAIL(...) thread_failed(t, m, __VA_ARGS__)
#include "check.h"

/* The message src sends dst: its seed and shape. */
typedef struct {
    uint64_t seed;
    int n;        /* elements of the datatype */
    int strided;  /* datatype: vec instead of MPI_LONG */
    int random;   /* incompressible contents */
} shape_t;

static shape_t shape_of(int src, int dst, int t, int r, int m)
{
    shape_t s;
    s.seed = ((uint64_t) src << 40) ^ ((uint64_t) dst << 28) ^ ((uint64_t) t << 20)
             ^ ((uint64_t) r << 8) ^ (uint64_t) m;
    s.n = sizes[(src + dst + t + r + m) % NSIZES];
    s.strided = 0 == (src + 2 * dst + r + m) % 5;
    s.random = 0 == (src + dst + t + m + r) % 7;
    if (s.strided) {
        s.n /= 2; /* vec covers two longs' extent */
    }
    return s;
}

static long value(const shape_t *s, size_t i)
{
    uint64_t x = s->seed * 0x9e3779b97f4a7c15ull + i * 0xbf58476d1ce4e5b9ull;
    x ^= x >> 31;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 29;
    if (!s->random && x % 4 != 0) {
        return 0; /* 75 % zeros */
    }
    return (long) (x >> 1);
}

/* Longs the message's buffer holds (a strided one uses every other). */
static size_t span(const shape_t *s)
{
    return s->strided ? 2 * (size_t) s->n : (size_t) s->n;
}

static long *make_send(const shape_t *s)
{
    size_t i, len = span(s);
    long *b = malloc(len * sizeof(long));
    for (i = 0; i < len; i++) {
        b[i] = s->strided && (i & 1) ? -1 : value(s, s->strided ? i / 2 : i);
    }
    return b;
}

static long *make_recv(const shape_t *s)
{
    size_t len = span(s);
    long *b = malloc(len * sizeof(long));
    memset(b, 0x5a, len * sizeof(long));
    return b;
}

static MPI_Datatype dt(const shape_t *s)
{
    return s->strided ? vec : MPI_LONG;
}

/* Check a received message against what src sent (and the gaps a strided
 * receive must leave alone). */
static void verify(int t, int m, int src, const shape_t *s, const long *b, MPI_Status *st)
{
    size_t i, len = span(s);
    int c = -1;
    long gap;
    memset(&gap, 0x5a, sizeof(gap));
    MPI_Get_count(st, dt(s), &c);
    CHECK(c == s->n, "from %d: Get_count %d, sent %d (%s)", src, c, s->n,
          s->strided ? "vector" : "long");
    /* single-completion calls leave MPI_ERROR alone: callers preset it */
    CHECK(MPI_SUCCESS == st->MPI_ERROR, "from %d: status error %d", src, st->MPI_ERROR);
    for (i = 0; i < len; i++) {
        long want = s->strided && (i & 1) ? gap : value(s, s->strided ? i / 2 : i);
        if (b[i] != want) {
            CHECK(0, "from %d: element %zu of %zu is %ld, sent %ld", src, i, len, b[i], want);
            break;
        }
    }
    pthread_mutex_lock(&count_lock);
    messages++;
    pthread_mutex_unlock(&count_lock);
}

static void *worker(void *arg)
{
    int t = (int) (intptr_t) arg, m, r, k;
    MPI_Comm comm = comms[t];
    int n = nprocs;
    long **sb = calloc((size_t) n, sizeof(long *)), **rb = calloc((size_t) n, sizeof(long *));
    shape_t *ss = calloc((size_t) n, sizeof(shape_t)), *rs = calloc((size_t) n, sizeof(shape_t));
    MPI_Request *req = calloc(2 * (size_t) n, sizeof(MPI_Request));
    MPI_Status *sts = calloc(2 * (size_t) n, sizeof(MPI_Status));

    for (r = 0; r < rounds; r++) {
        for (m = 0; m < NMODES; m++) {
            int tag = 1000 * t + 10 * m + (r & 1); /* threads sharing a comm never share a tag */
            for (k = 0; k < n; k++) {
                ss[k] = shape_of(rank, k, t, r, m);
                rs[k] = shape_of(k, rank, t, r, m);
                sb[k] = make_send(&ss[k]);
                rb[k] = make_recv(&rs[k]);
            }
            switch (m) {
            case M_NONBLOCKING:
            case M_SYNC:
            case M_BLOCKING:
                for (k = 0; k < n; k++) {
                    MPI_Irecv(rb[k], rs[k].n, dt(&rs[k]), k, tag, comm, &req[k]);
                }
                for (k = 0; k < n; k++) {
                    int d = (rank + k) % n;
                    if (M_BLOCKING == m) {
                        MPI_Send(sb[d], ss[d].n, dt(&ss[d]), d, tag, comm);
                        req[n + d] = MPI_REQUEST_NULL;
                    } else if (M_SYNC == m) {
                        MPI_Issend(sb[d], ss[d].n, dt(&ss[d]), d, tag, comm, &req[n + d]);
                    } else {
                        MPI_Isend(sb[d], ss[d].n, dt(&ss[d]), d, tag, comm, &req[n + d]);
                    }
                }
                CHECK(MPI_SUCCESS == MPI_Waitall(2 * n, req, sts), "Waitall failed");
                for (k = 0; k < n; k++) {
                    verify(t, m, k, &rs[k], rb[k], &sts[k]);
                }
                break;
            case M_SENDRECV:
                for (k = 0; k < n; k++) {
                    int d = (rank + k) % n, s = (rank - k + n) % n;
                    MPI_Status st;
                    st.MPI_ERROR = MPI_SUCCESS;
                    CHECK(MPI_SUCCESS == MPI_Sendrecv(sb[d], ss[d].n, dt(&ss[d]), d, tag, rb[s],
                                                      rs[s].n, dt(&rs[s]), s, tag, comm, &st),
                          "Sendrecv with %d/%d failed", d, s);
                    verify(t, m, s, &rs[s], rb[s], &st);
                }
                break;
            case M_PROBE:
            case M_MPROBE:
                for (k = 0; k < n; k++) {
                    MPI_Isend(sb[k], ss[k].n, dt(&ss[k]), k, tag, comm, &req[k]);
                }
                for (k = 0; k < n; k++) {
                    MPI_Status st;
                    int s = (rank - k + n) % n, c = -1, flag = 0;
                    st.MPI_ERROR = MPI_SUCCESS;
                    if (M_PROBE == m) {
                        if (r & 1) {
                            while (!flag) {
                                MPI_Iprobe(s, tag, comm, &flag, &st);
                            }
                        } else {
                            MPI_Probe(s, tag, comm, &st);
                        }
                        MPI_Get_count(&st, dt(&rs[s]), &c);
                        CHECK(c == rs[s].n && st.MPI_SOURCE == s && st.MPI_TAG == tag,
                              "probe from %d: count %d source %d tag %d, sent %d", s, c,
                              st.MPI_SOURCE, st.MPI_TAG, rs[s].n);
                        st.MPI_ERROR = MPI_SUCCESS;
                        CHECK(MPI_SUCCESS == MPI_Recv(rb[s], rs[s].n, dt(&rs[s]), s, tag, comm, &st),
                              "Recv from %d failed", s);
                    } else {
                        MPI_Message msg;
                        if (r & 1) {
                            while (!flag) {
                                MPI_Improbe(MPI_ANY_SOURCE, tag, comm, &flag, &msg, &st);
                            }
                        } else {
                            MPI_Mprobe(MPI_ANY_SOURCE, tag, comm, &msg, &st);
                        }
                        s = st.MPI_SOURCE;
                        if (s < 0 || s >= n) {
                            CHECK(0, "mprobe: source %d", s);
                            break;
                        }
                        MPI_Get_count(&st, dt(&rs[s]), &c);
                        CHECK(c == rs[s].n && st.MPI_TAG == tag,
                              "mprobe from %d: count %d tag %d, sent %d", s, c, st.MPI_TAG,
                              rs[s].n);
                        st.MPI_ERROR = MPI_SUCCESS;
                        CHECK(MPI_SUCCESS == MPI_Mrecv(rb[s], rs[s].n, dt(&rs[s]), &msg, &st),
                              "Mrecv from %d failed", s);
                    }
                    verify(t, m, s, &rs[s], rb[s], &st);
                }
                CHECK(MPI_SUCCESS == MPI_Waitall(n, req, MPI_STATUSES_IGNORE), "send Waitall");
                break;
            }
            for (k = 0; k < n; k++) {
                free(sb[k]);
                free(rb[k]);
            }
        }
    }
    free(sb);
    free(rb);
    free(ss);
    free(rs);
    free(req);
    free(sts);
    return NULL;
}

/* zcomp's counters, by name; a handle counts from its allocation on, so
 * they are allocated before the threads start.  -1: no such counter. */
static const char *pv[] = {"messages_compressed", "messages_decompressed", "messages_raw",
                           "receive_errors"};
#define NPV ((int) (sizeof(pv) / sizeof(pv[0])))
static MPI_T_pvar_session ses;
static MPI_T_pvar_handle pvh[NPV];
static int pv_ok[NPV];

static void pvars_open(void)
{
    int i, idx, count, tprov;
    char full[64];
    MPI_T_init_thread(MPI_THREAD_SINGLE, &tprov);
    MPI_T_pvar_session_create(&ses);
    for (i = 0; i < NPV; i++) {
        snprintf(full, sizeof(full), "pml_zcomp_%s", pv[i]);
        pv_ok[i] = MPI_SUCCESS == MPI_T_pvar_get_index(full, MPI_T_PVAR_CLASS_COUNTER, &idx)
                   && MPI_SUCCESS == MPI_T_pvar_handle_alloc(ses, idx, NULL, &pvh[i], &count);
    }
}

static void pvars_print_close(void)
{
    int i;
    for (i = 0; i < NPV; i++) {
        unsigned long long v = 0;
        if (pv_ok[i]) {
            MPI_T_pvar_read(ses, pvh[i], &v);
            MPI_T_pvar_handle_free(ses, &pvh[i]);
            printf("pvar %d pml_zcomp_%s %llu\n", rank, pv[i], v);
        } else {
            printf("pvar %d pml_zcomp_%s -1\n", rank, pv[i]);
        }
    }
    MPI_T_pvar_session_free(&ses);
    MPI_T_finalize();
    fflush(stdout);
}

int main(int argc, char **argv)
{
    int provided, i;
    long tot[2], loc[2];
    pthread_t th[NT];

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (MPI_THREAD_MULTIPLE != provided) {
        if (0 == rank) {
            printf("FAIL: MPI_THREAD_MULTIPLE not provided (%d)\n", provided);
        }
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (argc > 1) {
        rounds = atoi(argv[1]);
    }
    pvars_open();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_vector(1, 1, 2, MPI_LONG, &vec);
    {
        MPI_Datatype v2;
        MPI_Type_create_resized(vec, 0, 2 * sizeof(long), &v2);
        vec = v2;
    }
    MPI_Type_commit(&vec);
    for (i = 0; i < NT; i++) {
        if (i & 1) {
            MPI_Comm_dup(MPI_COMM_WORLD, &comms[i]);
        } else {
            comms[i] = MPI_COMM_WORLD;
        }
    }
    for (i = 0; i < NT; i++) {
        pthread_create(&th[i], NULL, worker, (void *) (intptr_t) i);
    }
    for (i = 0; i < NT; i++) {
        pthread_join(th[i], NULL);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    pvars_print_close();

    loc[0] = messages;
    loc[1] = failures;
    MPI_Reduce(loc, tot, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        long want = (long) nprocs * nprocs * NT * NMODES * rounds;
        if (tot[0] != want && 0 == tot[1]) {
            printf("FAIL: %ld messages checked, expected %ld\n", tot[0], want);
            tot[1]++;
        }
        printf("zcomp_threads: %ld messages, %ld failed\n", tot[0], tot[1]);
    }
    for (i = 1; i < NT; i += 2) {
        MPI_Comm_free(&comms[i]);
    }
    MPI_Type_free(&vec);
    MPI_Finalize();
    return 0 == rank && tot[1] > 0 ? 1 : 0;
}
