/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MPI-4 Sessions and the communicator store (Open MPI 5.0 and later).
 * Communicators made by MPI_Comm_create_from_group from a group of a
 * process set (MPI_Group_from_session_pset) take Open MPI's extended-CID
 * path: a 128-bit CID from PMIx (PMIx_Group_construct) and a local index
 * each process picks on its own (ompi_comm_nextcid_ext_nb), so that the
 * members of one communicator may hold it at different local indices;
 * their groups exist without MPI_COMM_WORLD.  Every communicator is
 * checked:
 *  - size, rank, its group against the expected world ranks
 *    (MPI_Group_translate_ranks both ways, MPI_Group_compare with the group
 *    it was made from), Open MPI's CID (ompi_comm_print_cid) the same on
 *    every member and different from every other live communicator's on
 *    this process;
 *  - a ring on every live communicator at once, with the same tag on all,
 *    each payload naming its communicator, sender and round, received with
 *    a deadline: a message the store delivers to the wrong communicator
 *    (two communicators at one local index) fails the check and is
 *    reported, it cannot hang; afterwards no communicator holds a stray
 *    message (MPI_Iprobe);
 *  - an allreduce naming the communicator.
 * Communicators are created in batches and a deterministic third of the
 * live ones freed after each, so that local indices are reused and holes
 * appear; each rank also keeps a different number of mpi://SELF
 * communicators, so that the local indices of one communicator differ from
 * rank to rank.  Kinds: from_group of mpi://WORLD, of mpi://SELF, of the
 * even ranks (MPI_Group_incl), of all ranks reversed and of the odd ranks
 * (strided MPI_Group_range_incl, which grpmap's lattice holds), and
 * MPI_Comm_dup, MPI_Comm_split and MPI_Comm_create_group of session-derived
 * communicators.
 *
 *   sessions_cid sessions [N [CYCLES [overlap|reinit]]]
 *       Sessions only, no MPI_Init
 *   sessions_cid mixed [N [CYCLES [overlap|reinit]]]
 *       MPI_Init as well, with communicators of MPI_COMM_WORLD (dup, split,
 *       create) alive beside the session's and interleaved with their
 *       creation
 *
 * N (default 200) communicators in the first session, N / 4 in each
 * further one (CYCLES sessions in all, default 2).  overlap (the default):
 * each further session is initialized before the one before it is
 * finalized; reinit: after it, so that a sessions-only process tears MPI
 * down completely and initializes it again (on stock Open MPI 5.0.7 that
 * hangs now and then: one rank stays in the PMIx fence of
 * MPI_Session_init's modex while the others wait for it in the first
 * MPI_Comm_create_from_group, open-mpi/ompi#11543 and #14125).  Rank 0
 * prints "sessions_cid MODE: NP ranks, C communicators: ok"; any mismatch
 * prints its detail (on stderr, "sessions_cid FAIL") and aborts the job.
 */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXP 64      /* ranks */
#define MAXC 4096    /* live communicators on one process */
#define RING_TAG 76  /* + the round's parity: the same on every communicator */
#define MAGIC 0x5e55c1d
#define DEADLINE 20.0 /* seconds a ring may take */

static int me = -1, np, mixed;
static MPI_Comm abort_comm = MPI_COMM_NULL;
static MPI_Comm sync_comm; /* the session's first communicator, of all ranks */

static void die(void)
{
    fflush(stdout);
    fflush(stderr);
    if (MPI_COMM_NULL != abort_comm) {
        MPI_Abort(abort_comm, 2);
    }
    _exit(2); /* before the first communicator: mpirun ends the job */
}

/* one line (one write, not interleaved with other ranks'), then the abort */
__attribute__((format(printf, 2, 3))) static void fail_at(int line, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    fprintf(stderr, "sessions_cid FAIL rank %d line %d: %s\n", me, line, msg);
    die();
}

#define CHECK_FAIL(...) fail_at(__LINE__, __VA_ARGS__)
#include "check.h"

/* an MPI call that must succeed (every handle here returns errors) */
#define MPI_OK(call)                                                                             \
    do {                                                                                         \
        int rc_ = (call);                                                                        \
        if (MPI_SUCCESS != rc_) {                                                                \
            char es_[MPI_MAX_ERROR_STRING] = "";                                                 \
            int el_ = 0;                                                                         \
            MPI_Error_string(rc_, es_, &el_);                                                    \
            CHECK_FAIL("%s returned %d (%s)", #call, rc_, es_);                                  \
        }                                                                                        \
    } while (0)

typedef struct {
    MPI_Comm comm;
    MPI_Group group; /* the group it was made from, or MPI_GROUP_NULL */
    int id;          /* the same on every member */
    int n, rank;     /* expected size and rank of this process */
    int memb[MAXP];  /* expected world ranks, in communicator rank order */
    const char *kind;
    char cid[MPI_MAX_OBJECT_NAME]; /* Open MPI's CID (ompi_comm_print_cid), or "" */
} tcomm_t;

static tcomm_t live[MAXC];
static int nlive, created;
/* the session's mpi://WORLD and mpi://SELF; MPI_COMM_WORLD's group (mixed) */
static MPI_Group wgroup, sgroup, cwgroup = MPI_GROUP_NULL;

static int rank_of(const int *memb, int n, int w)
{
    for (int i = 0; i < n; i++) {
        if (memb[i] == w) {
            return i;
        }
    }
    return MPI_UNDEFINED;
}

/* world ranks of g, in group order, translated into world group wg */
static void translate_all(MPI_Group g, int n, MPI_Group wg, int *out)
{
    int idx[MAXP];
    for (int i = 0; i < n; i++) {
        idx[i] = i;
    }
    MPI_OK(MPI_Group_translate_ranks(g, n, idx, wg, out));
}

/* group g must hold exactly memb[0..n) of the session's world, in order */
static void check_group(MPI_Group g, const int *memb, int n, const char *what, int id)
{
    int gn, gr, got[MAXP], w, r;
    MPI_OK(MPI_Group_size(g, &gn));
    CHECK(gn == n, "%s %d: group size %d, expected %d", what, id, gn, n);
    translate_all(g, n, wgroup, got);
    for (int i = 0; i < n; i++) {
        CHECK(got[i] == memb[i], "%s %d: group rank %d is world %d, expected %d", what, id, i,
              got[i], memb[i]);
    }
    if (MPI_GROUP_NULL != cwgroup) { /* the same through MPI_COMM_WORLD's group */
        translate_all(g, n, cwgroup, got);
        for (int i = 0; i < n; i++) {
            CHECK(got[i] == memb[i], "%s %d: group rank %d is MPI_COMM_WORLD rank %d, expected %d",
                  what, id, i, got[i], memb[i]);
        }
    }
    for (w = 0; w < np; w++) { /* and back, non-members MPI_UNDEFINED */
        MPI_OK(MPI_Group_translate_ranks(wgroup, 1, &w, g, &r));
        CHECK(r == rank_of(memb, n, w), "%s %d: world %d -> group rank %d, expected %d", what, id,
              w, r, rank_of(memb, n, w));
    }
    MPI_OK(MPI_Group_rank(g, &gr));
    CHECK(gr == rank_of(memb, n, me), "%s %d: my group rank %d, expected %d", what, id, gr,
          rank_of(memb, n, me));
}

/* Open MPI's printable CID of a communicator (libmpi exports it; MPI has
 * no call for it, and MPI_Comm_get_name gives only names set by the
 * program): the 128-bit extended CID of a communicator made from a group,
 * "0x<base><sub>", the index agreed by all members for the others.  Weak,
 * so that the program still links (and skips this check) without it. */
extern char *ompi_comm_print_cid(const void *comm) __attribute__((weak));

static void comm_cid(MPI_Comm c, char *cid)
{
    cid[0] = '\0';
    if (NULL != ompi_comm_print_cid) {
        snprintf(cid, MPI_MAX_OBJECT_NAME, "%s", ompi_comm_print_cid((const void *) c));
    }
}

/* a new communicator t: everything but the traffic */
static void check_comm(tcomm_t *t)
{
    int n, r, res, flag;
    MPI_Group g;
    char (*cids)[MPI_MAX_OBJECT_NAME];
    CHECK(MPI_COMM_NULL != t->comm, "%s %d: MPI_COMM_NULL on a member", t->kind, t->id);
    MPI_OK(MPI_Comm_size(t->comm, &n));
    MPI_OK(MPI_Comm_rank(t->comm, &r));
    CHECK(n == t->n && r == t->rank, "%s %d: size %d rank %d, expected size %d rank %d", t->kind,
          t->id, n, r, t->n, t->rank);
    MPI_OK(MPI_Comm_test_inter(t->comm, &flag));
    CHECK(!flag, "%s %d: an intercommunicator", t->kind, t->id);
    MPI_OK(MPI_Comm_group(t->comm, &g));
    check_group(g, t->memb, t->n, t->kind, t->id);
    if (MPI_GROUP_NULL != t->group) {
        MPI_OK(MPI_Group_compare(g, t->group, &res));
        CHECK(MPI_IDENT == res, "%s %d: MPI_Group_compare with its group: %d, expected MPI_IDENT",
              t->kind, t->id, res);
    }
    MPI_OK(MPI_Group_free(&g));
    /* the CID is global: the same on every member, unique on this process */
    comm_cid(t->comm, t->cid);
    cids = xmalloc(sizeof(*cids) * (size_t) n);
    MPI_OK(MPI_Allgather(t->cid, MPI_MAX_OBJECT_NAME, MPI_CHAR, cids, MPI_MAX_OBJECT_NAME,
                         MPI_CHAR, t->comm));
    for (int i = 0; i < n; i++) {
        CHECK(0 == strcmp(cids[i], t->cid), "%s %d: CID %s on rank %d, %s here", t->kind, t->id,
              cids[i], i, t->cid);
    }
    free(cids);
    for (int i = 0; i < nlive && t->cid[0]; i++) {
        CHECK(&live[i] == t || strcmp(live[i].cid, t->cid),
              "%s %d has CID %s, as live %s %d has", t->kind, t->id, t->cid, live[i].kind,
              live[i].id);
    }
}

static void allreduce_check(tcomm_t *t)
{
    int v[2] = {me + 1, t->id}, s[2], want = 0;
    for (int i = 0; i < t->n; i++) {
        want += t->memb[i] + 1;
    }
    MPI_OK(MPI_Allreduce(v, s, 2, MPI_INT, MPI_SUM, t->comm));
    CHECK(s[0] == want && s[1] == t->n * t->id,
          "%s %d: allreduce gave {%d, %d}, expected {%d, %d}", t->kind, t->id, s[0], s[1], want,
          t->n * t->id);
}

/* Adds a created communicator (MPI_COMM_NULL: not a member, dropped) */
static void add(MPI_Comm c, MPI_Group from, int id, const int *memb, int n, const char *kind)
{
    tcomm_t *t;
    int r = rank_of(memb, n, me);
    if (MPI_UNDEFINED == r) {
        CHECK(MPI_COMM_NULL == c, "%s %d: a communicator on a non-member", kind, id);
        return;
    }
    CHECK(nlive < MAXC, "more than %d live communicators", MAXC);
    t = &live[nlive];
    t->comm = c;
    t->group = from;
    t->id = id;
    t->n = n;
    t->rank = r;
    memcpy(t->memb, memb, sizeof(int) * (size_t) n);
    t->kind = kind;
    check_comm(t);
    nlive++;
    allreduce_check(t);
}

/* a ring payload received on t: must come from t's left neighbour */
static void check_payload(tcomm_t *t, const int *m, int round)
{
    int left = (t->rank + t->n - 1) % t->n;
    CHECK(MAGIC == m[0] && m[1] == t->id && m[2] == left && m[3] == t->memb[left]
              && m[4] == round && m[5] == t->n && m[7] == (MAGIC ^ t->id ^ round),
          "ring round %d on %s %d (CID %s, rank %d of %d): got {magic %#x, communicator %d, "
          "rank %d, world %d, round %d, size %d}, expected communicator %d from rank %d "
          "(world %d): a message delivered to the wrong communicator",
          round, t->kind, t->id, t->cid, t->rank, t->n, m[0], m[1], m[2], m[3], m[4], m[5],
          t->id, left, t->memb[left]);
}

/* A further message on a communicator whose ring receive is done is one
 * meant for another (the store routed it here): shown at once. */
static void sweep_strays(const MPI_Request *reqs, int round)
{
    for (int i = 0; i < nlive; i++) {
        int flag, m[8];
        MPI_Status st;
        if (MPI_REQUEST_NULL != reqs[2 * i]) {
            continue;
        }
        MPI_OK(MPI_Iprobe(MPI_ANY_SOURCE, RING_TAG + (round & 1), live[i].comm, &flag, &st));
        if (flag) {
            memset(m, 0, sizeof(m));
            MPI_Recv(m, 8, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, live[i].comm, MPI_STATUS_IGNORE);
            CHECK(0, "ring round %d: a second message on %s %d (CID %s, rank %d of %d), from "
                  "rank %d: {magic %#x, communicator %d, rank %d, world %d, round %d}: a "
                  "message delivered to the wrong communicator",
                  round, live[i].kind, live[i].id, live[i].cid, live[i].rank, live[i].n,
                  st.MPI_SOURCE, m[0], m[1], m[2], m[3], m[4]);
        }
    }
}

/* Every live communicator passes a message around its ring at once, all on
 * one tag; each payload names its communicator, so a message delivered to
 * another communicator is reported as soon as it arrives, and one that
 * never arrives after DEADLINE seconds.  A round ends with a barrier on
 * the session's first communicator, and its tag alternates from round to
 * round: another rank may start the next round while this one still looks
 * for strays (a barrier does not end everywhere at once), never the one
 * after (its barrier needs this rank). */
static void ring_all(int round)
{
    int(*in)[8] = xcalloc((size_t) nlive + 1, sizeof(*in));
    int(*out)[8] = xcalloc((size_t) nlive + 1, sizeof(*out));
    MPI_Request *reqs = xcalloc(2 * (size_t) nlive + 1, sizeof(MPI_Request));
    int pending = 2 * nlive;
    double t0;
    MPI_Request bar;
    for (int i = 0; i < nlive; i++) {
        tcomm_t *t = &live[i];
        MPI_OK(MPI_Irecv(in[i], 8, MPI_INT, (t->rank + t->n - 1) % t->n, RING_TAG + (round & 1),
                         t->comm, &reqs[2 * i]));
    }
    for (int i = 0; i < nlive; i++) {
        tcomm_t *t = &live[i];
        int msg[8] = {MAGIC, t->id, t->rank, me, round, t->n, i, MAGIC ^ t->id ^ round};
        memcpy(out[i], msg, sizeof(msg));
        MPI_OK(MPI_Isend(out[i], 8, MPI_INT, (t->rank + 1) % t->n, RING_TAG + (round & 1),
                         t->comm, &reqs[2 * i + 1]));
    }
    t0 = MPI_Wtime();
    while (pending > 0) {
        for (int i = 0; i < 2 * nlive; i++) {
            int flag;
            if (MPI_REQUEST_NULL == reqs[i]) {
                continue;
            }
            MPI_OK(MPI_Test(&reqs[i], &flag, MPI_STATUS_IGNORE));
            if (flag) {
                pending--;
                if (0 == i % 2) {
                    check_payload(&live[i / 2], in[i / 2], round);
                }
            }
        }
        sweep_strays(reqs, round);
        if (pending > 0 && MPI_Wtime() - t0 > DEADLINE) {
            for (int i = 0; i < 2 * nlive; i++) {
                tcomm_t *t = &live[i / 2];
                CHECK(MPI_REQUEST_NULL == reqs[i],
                      "ring round %d: %s of %s %d (CID %s, rank %d of %d) not done after %.0f s "
                      "(a message delivered to another communicator?)",
                      round, i % 2 ? "send" : "receive", t->kind, t->id, t->cid, t->rank, t->n,
                      DEADLINE);
            }
        }
        if (pending > 0) {
            usleep(50);
        }
    }
    /* Every rank done with its messages of this round: a further one on
     * this round's tag is a stray.  Waiting, keep sweeping: a stray may
     * still arrive. */
    MPI_OK(MPI_Ibarrier(sync_comm, &bar));
    for (int done = 0; !done;) {
        MPI_OK(MPI_Test(&bar, &done, MPI_STATUS_IGNORE));
        sweep_strays(reqs, round);
        CHECK(done || MPI_Wtime() - t0 <= DEADLINE,
              "ring round %d: the other ranks not done after %.0f s", round, DEADLINE);
        if (!done) {
            usleep(50);
        }
    }
    sweep_strays(reqs, round);
    free(in);
    free(out);
    free(reqs);
}

/* after a ring and an allreduce on each: no message left anywhere */
static void no_strays(void)
{
    for (int i = 0; i < nlive; i++) {
        int flag;
        MPI_Status st;
        allreduce_check(&live[i]);
        MPI_OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, live[i].comm, &flag, &st));
        CHECK(!flag, "%s %d (CID %s): a stray message from rank %d, tag %d", live[i].kind,
              live[i].id, live[i].cid, st.MPI_SOURCE, st.MPI_TAG);
    }
}

static void free_at(int i)
{
    MPI_OK(MPI_Comm_free(&live[i].comm));
    CHECK(MPI_COMM_NULL == live[i].comm, "MPI_Comm_free left a handle");
    memmove(&live[i], &live[i + 1], sizeof(live[0]) * (size_t) (nlive - i - 1));
    nlive--;
}

/* frees about a third of the live communicators, the same on every member;
 * never the kept one (keep_id) */
static void free_some(int batch, int keep_id)
{
    for (int i = nlive - 1; i >= 0; i--) {
        uint64_t s = (uint64_t) live[i].id * 1000003u + (uint64_t) batch;
        if (live[i].id != keep_id && 0 == test_rand(&s) % 3) {
            free_at(i);
        }
    }
}

/* the most recent live communicator of all ranks from a session group */
static tcomm_t *session_parent(void)
{
    for (int i = nlive - 1; i >= 0; i--) {
        if (live[i].n == np && (0 == strcmp(live[i].kind, "world")
                                || 0 == strcmp(live[i].kind, "reversed"))) {
            return &live[i];
        }
    }
    CHECK(0, "no live session communicator of all ranks");
    return NULL;
}

static char psets[2048];

static void list_psets(MPI_Session s, int cycle)
{
    int n, len, found_world = 0, found_self = 0;
    char name[256], line[2048] = "";
    MPI_OK(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
    CHECK(n >= 2, "MPI_Session_get_num_psets: %d", n);
    for (int i = 0; i < n; i++) {
        MPI_Info info;
        char val[64];
        int flag, vlen = sizeof(val);
        len = 0;
        MPI_OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL));
        CHECK(len > 1 && len <= (int) sizeof(name), "pset %d: length %d", i, len);
        memset(name, 'x', sizeof(name));
        MPI_OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
        CHECK('\0' == name[len - 1] && (int) strlen(name) == len - 1,
              "pset %d: name of %zu characters, length %d", i, strnlen(name, sizeof(name)), len);
        MPI_OK(MPI_Session_get_pset_info(s, name, &info));
        MPI_OK(MPI_Info_get_string(info, "mpi_size", &vlen, val, &flag));
        CHECK(flag && atoi(val) > 0, "pset %s: mpi_size %s", name, flag ? val : "(none)");
        if (0 == strcmp(name, "mpi://WORLD")) {
            found_world = 1;
            np = atoi(val);
        } else if (0 == strcmp(name, "mpi://SELF")) {
            found_self = 1;
            CHECK(1 == atoi(val), "mpi://SELF: mpi_size %s", val);
        }
        MPI_OK(MPI_Info_free(&info));
        if (strlen(line) + strlen(name) + 2 < sizeof(line)) {
            strcat(line, " ");
            strcat(line, name);
        }
    }
    CHECK(found_world && found_self, "psets lack mpi://WORLD or mpi://SELF:%s", line);
    /* a pset that does not exist */
    {
        MPI_Group g = MPI_GROUP_NULL;
        CHECK(MPI_SUCCESS != MPI_Group_from_session_pset(s, "mpi://no-such-pset", &g),
              "a group of pset mpi://no-such-pset");
    }
    if (0 == cycle) {
        strcpy(psets, line);
    }
}

/* One session: init (unless s is one already), N creations in batches,
 * checks, free, finalize.  With next, the next cycle's session is
 * initialized before this one is finalized, and returned. */
static MPI_Session one_session(int cycle, int ncomm, MPI_Session s, int next)
{
    MPI_Session nxt = MPI_SESSION_NULL;
    MPI_Group evens, odds, rev;
    int all[MAXP], ev[MAXP], od[MAXP], rv[MAXP], nev = 0, nod = 0, wn, res, r;
    int base_id, kinds = mixed ? 11 : 8, batch = 0, nself = 0;
    char tag[128];
    tcomm_t *p;

    if (MPI_SESSION_NULL == s) {
        MPI_OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    }
    list_psets(s, cycle);
    MPI_OK(MPI_Group_from_session_pset(s, "mpi://WORLD", &wgroup));
    MPI_OK(MPI_Group_from_session_pset(s, "mpi://SELF", &sgroup));
    MPI_OK(MPI_Group_size(wgroup, &wn));
    CHECK(wn == np && np <= MAXP, "mpi://WORLD: %d members, mpi_size %d (at most %d here)", wn,
          np, MAXP);
    MPI_OK(MPI_Group_rank(wgroup, &r));
    CHECK(r >= 0 && r < np && (me < 0 || r == me), "my rank in mpi://WORLD: %d (was %d)", r, me);
    me = r;
    if (0 == cycle && 0 == me) {
        printf("sessions_cid psets:%s\n", psets);
    }
    MPI_OK(MPI_Group_size(sgroup, &r));
    CHECK(1 == r, "mpi://SELF has %d members", r);
    if (mixed) {
        MPI_OK(MPI_Comm_group(MPI_COMM_WORLD, &cwgroup));
        MPI_OK(MPI_Group_compare(wgroup, cwgroup, &res));
        CHECK(MPI_IDENT == res, "mpi://WORLD vs MPI_COMM_WORLD's group: %d, expected MPI_IDENT",
              res);
    }
    for (int i = 0; i < np; i++) {
        all[i] = i;
        rv[i] = np - 1 - i;
        if (0 == i % 2) {
            ev[nev++] = i;
        } else {
            od[nod++] = i;
        }
    }
    check_group(wgroup, all, np, "mpi://WORLD", 0);
    check_group(sgroup, &me, 1, "mpi://SELF", 0);
    /* sub-groups: evens by incl, all reversed and the odd ranks as strided
     * ranges (lattices for grpmap) */
    MPI_OK(MPI_Group_incl(wgroup, nev, ev, &evens));
    {
        int range[1][3] = {{np - 1, 0, -1}};
        MPI_OK(MPI_Group_range_incl(wgroup, 1, range, &rev));
    }
    if (nod > 0) {
        int range[1][3] = {{1, np - 1 - (np % 2 ? 1 : 0), 2}};
        MPI_OK(MPI_Group_range_incl(wgroup, 1, range, &odds));
    } else {
        odds = MPI_GROUP_EMPTY;
    }
    check_group(evens, ev, nev, "evens", 0);
    check_group(rev, rv, np, "reversed", 0);
    check_group(odds, od, nod, "odds", 0);
    MPI_OK(MPI_Group_compare(rev, wgroup, &res));
    CHECK((np > 1 ? MPI_SIMILAR : MPI_IDENT) == res, "reversed vs world: %d", res);
    MPI_OK(MPI_Group_compare(evens, wgroup, &res));
    CHECK((np > 1 ? MPI_UNEQUAL : MPI_IDENT) == res, "evens vs world: %d", res);
    {
        MPI_Group mine, un;
        MPI_OK(MPI_Group_incl(wgroup, 1, &me, &mine));
        MPI_OK(MPI_Group_compare(mine, sgroup, &res));
        CHECK(MPI_IDENT == res, "{me} vs mpi://SELF: %d", res);
        MPI_OK(MPI_Group_union(evens, odds, &un));
        MPI_OK(MPI_Group_compare(un, wgroup, &res));
        CHECK((np > 2 ? MPI_SIMILAR : MPI_IDENT) == res, "evens + odds vs world: %d", res);
        MPI_OK(MPI_Group_free(&mine));
        MPI_OK(MPI_Group_free(&un));
    }

    /* the first communicator of the session: kept until the end */
    base_id = created;
    snprintf(tag, sizeof(tag), "sessions_cid/%d/%d/base", cycle, created);
    {
        MPI_Comm c;
        MPI_OK(MPI_Comm_create_from_group(wgroup, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
        add(c, wgroup, created++, all, np, "world");
        sync_comm = c;
        if (!mixed) {
            abort_comm = c;
        }
    }
    for (int k = 1; k < ncomm; k++) {
        MPI_Comm c = MPI_COMM_NULL;
        int id = created++;
        snprintf(tag, sizeof(tag), "sessions_cid/%d/%d", cycle, id);
        switch (k % kinds) {
        case 0:
            MPI_OK(MPI_Comm_create_from_group(wgroup, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
            add(c, wgroup, id, all, np, "world");
            break;
        case 1:
            /* a tag of this rank's own: the groups differ */
            snprintf(tag, sizeof(tag), "sessions_cid/%d/%d/self%d", cycle, id, me);
            MPI_OK(MPI_Comm_create_from_group(sgroup, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
            add(c, sgroup, id, &me, 1, "self");
            /* more on some ranks: their local indices drift apart */
            if (0 == (k / kinds + me) % 3) {
                snprintf(tag, sizeof(tag), "sessions_cid/%d/%d/extra%d", cycle, id, me);
                MPI_OK(MPI_Comm_create_from_group(sgroup, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                                  &c));
                add(c, sgroup, 1000000 + nself++, &me, 1, "self-extra");
            }
            break;
        case 2:
            if (MPI_UNDEFINED != rank_of(ev, nev, me)) {
                MPI_OK(MPI_Comm_create_from_group(evens, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                                  &c));
            }
            add(c, evens, id, ev, nev, "evens");
            break;
        case 3:
            MPI_OK(MPI_Comm_create_from_group(rev, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
            add(c, rev, id, rv, np, "reversed");
            break;
        case 4:
            if (MPI_UNDEFINED != rank_of(od, nod, me)) {
                MPI_OK(MPI_Comm_create_from_group(odds, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                                  &c));
            }
            add(c, odds, id, od, nod, "odds");
            break;
        case 5:
            p = session_parent();
            MPI_OK(MPI_Comm_dup(p->comm, &c));
            add(c, MPI_GROUP_NULL, id, p->memb, np, "dup");
            break;
        case 6: { /* same parity, reversed by the key */
            int m[MAXP], nm = 0;
            for (int w = np - 1; w >= 0; w--) {
                if (w % 2 == me % 2) {
                    m[nm++] = w;
                }
            }
            p = session_parent();
            MPI_OK(MPI_Comm_split(p->comm, me % 2, np - me, &c));
            add(c, MPI_GROUP_NULL, id, m, nm, "split");
            break;
        }
        case 7:
            p = session_parent();
            if (MPI_UNDEFINED != rank_of(ev, nev, me)) {
                MPI_OK(MPI_Comm_create_group(p->comm, evens, id, &c));
            }
            add(c, evens, id, ev, nev, "create_group");
            break;
        case 8: /* mixed: MPI_COMM_WORLD's, the classic CID path */
            MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
            add(c, cwgroup, id, all, np, "world-dup");
            break;
        case 9: {
            int m[MAXP], nm = 0;
            for (int w = 0; w < np; w++) {
                if (w % 3 == me % 3) {
                    m[nm++] = w;
                }
            }
            MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, me % 3, me, &c));
            add(c, MPI_GROUP_NULL, id, m, nm, "world-split");
            break;
        }
        case 10: {
            MPI_Group g;
            MPI_OK(MPI_Group_incl(cwgroup, nod, od, &g));
            MPI_OK(MPI_Comm_create(MPI_COMM_WORLD, g, &c));
            add(c, MPI_GROUP_NULL, id, od, nod, "world-create");
            MPI_OK(MPI_Group_free(&g));
            break;
        }
        }
        if (0 == k % 16) {
            ring_all(batch);
            free_some(batch++, base_id);
        }
    }
    ring_all(batch);
    no_strays();
    if (mixed) { /* MPI_COMM_WORLD itself beside them */
        int v = me + 1, sum;
        MPI_OK(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        CHECK(sum == np * (np + 1) / 2, "MPI_COMM_WORLD allreduce %d", sum);
    }
    while (nlive > 1) { /* the kept one (live[0]) last */
        free_at(nlive - 1);
    }
    CHECK(1 == nlive && live[0].id == base_id, "the session's first communicator is gone");
    abort_comm = mixed ? MPI_COMM_WORLD : MPI_COMM_NULL;
    free_at(0);
    MPI_OK(MPI_Group_free(&evens));
    MPI_OK(MPI_Group_free(&rev));
    if (MPI_GROUP_EMPTY != odds) {
        MPI_OK(MPI_Group_free(&odds));
    }
    MPI_OK(MPI_Group_free(&wgroup));
    MPI_OK(MPI_Group_free(&sgroup));
    if (MPI_GROUP_NULL != cwgroup) {
        MPI_OK(MPI_Group_free(&cwgroup));
    }
    if (next) {
        MPI_OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &nxt));
        CHECK(nxt != s, "a second session with the handle of the first");
    }
    MPI_OK(MPI_Session_finalize(&s));
    CHECK(MPI_SESSION_NULL == s, "MPI_Session_finalize left a handle");
    return nxt;
}

int main(int argc, char **argv)
{
    int ncomm = argc > 2 ? atoi(argv[2]) : 200, cycles = argc > 3 ? atoi(argv[3]) : 2, flag;
    int reinit = argc > 4 && 0 == strcmp(argv[4], "reinit");
    MPI_Session s = MPI_SESSION_NULL;
    if (argc < 2 || (strcmp(argv[1], "sessions") && strcmp(argv[1], "mixed")) || ncomm < 8
        || cycles < 1 || (argc > 4 && !reinit && strcmp(argv[4], "overlap"))) {
        fprintf(stderr, "usage: %s sessions|mixed [N >= 8 [CYCLES >= 1 [overlap|reinit]]]\n",
                argv[0]);
        return 2;
    }
    mixed = 0 == strcmp(argv[1], "mixed");
    if (mixed) {
        MPI_Init(&argc, &argv);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &me));
        MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &np));
        abort_comm = MPI_COMM_WORLD;
    }
    for (int c = 0; c < cycles; c++) {
        s = one_session(c, c ? ncomm / 4 : ncomm, s, !reinit && c + 1 < cycles);
        MPI_OK(MPI_Initialized(&flag));
        CHECK(flag == mixed, "after MPI_Session_finalize, MPI_Initialized says %d", flag);
    }
    if (0 == me) {
        printf("sessions_cid %s: %d ranks, %d communicators: ok\n", argv[1], np, created);
        fflush(stdout);
    }
    if (mixed) {
        MPI_Finalize();
    }
    return 0;
}
