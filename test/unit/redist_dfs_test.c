/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The rank-level schedulers (redist_cyclic_dfs; redist_phase_search with
 * and without breaking cycles; redist_park_search) against a simulator
 * (parked blocks held where they were parked until sent on): random
 * injective block maps (and the seed's hard cases: a ring with no free
 * slot, one process all free, equal all-to-all) give a transmission graph;
 * the schedule is replayed step by step in its global order, checking that
 * no process ever receives more blocks than it has free slots, that no
 * edge sends more than it has, that cycle steps form closed cycles with
 * one weight, and that every edge ends empty.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/redist/redist_actions.h"
#include "test/common/check.h"

typedef struct { int rank; redist_action_t a; } step_t;
typedef struct { step_t *s; int n, cap; } log_t;

static void emit(void *ctx, int rank, const redist_action_t *a)
{
    log_t *l = ctx;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->s = realloc(l->s, sizeof(step_t) * l->cap);
        CHECK(NULL != l->s, "out of memory");
    }
    l->s[l->n].rank = rank;
    l->s[l->n++].a = *a;
}

static uint64_t rng = 88172645463325252ULL;
static int rnd(int n)
{
    return (int) test_rand_below(&rng, (uint64_t) n);
}

/* 0: the cyclic DFS; 1: phases without breaking cycles; 2: with; 3: park */
static int search;

/* Is step i + 1 the receive (op) at rank, from peer, of step i's blocks? */
static int received(const log_t *l, int i, int op, int rank, int peer)
{
    return i + 1 < l->n && op == l->s[i + 1].a.op && rank == l->s[i + 1].rank
           && peer == l->s[i + 1].a.peer && l->s[i].a.n == l->s[i + 1].a.n;
}

/* Step i moves nb blocks from process from to process to, which must have
 * as many free slots; from gets the slots they leave. */
static void move_room(int *r2, int from, int to, int nb, const char *what, int i)
{
    CHECK(r2[to] >= nb, "%s: step %d: %d receives %d with %d free", what, i, to, nb, r2[to]);
    r2[to] -= nb;
    r2[from] += nb;
}

/* w[p*n+q]: blocks p sends q; room[p]: free slots.  Returns steps, or -1
 * when the search refused the map. */
static int run(int n, const int *w, const int *room0, const char *what)
{
    int *off = calloc(n + 1, sizeof(int)), *to = malloc(sizeof(int) * n * n);
    int *ew = malloc(sizeof(int) * n * n), *room = malloc(sizeof(int) * n);
    int *left = malloc(sizeof(int) * n * n), *r2 = malloc(sizeof(int) * n);
    int *parked = calloc(n * n, sizeof(int));   /* [r*n+v]: held at r for v */
    int p, q, k = 0, i, j, rc;
    log_t l = {0};

    for (p = 0; p < n; p++) {
        off[p] = k;
        for (q = 0; q < n; q++) {
            if (w[p * n + q] > 0) {
                to[k] = q;
                ew[k++] = w[p * n + q];
            }
        }
    }
    off[n] = k;
    memcpy(room, room0, sizeof(int) * n);
    memcpy(left, w, sizeof(int) * n * n);
    memcpy(r2, room0, sizeof(int) * n);
    rc = 0 == search ? redist_cyclic_dfs(n, room, off, to, ew, emit, &l)
         : 3 == search ? redist_park_search(n, room, off, to, ew, emit, &l, NULL)
                       : redist_phase_search(n, room, off, to, ew, 2 == search, emit, &l, NULL);
    if (1 == search && -1 == rc) {
        free(off), free(to), free(ew), free(room), free(left), free(r2), free(l.s), free(parked);
        return -1;
    }
    CHECK(0 == rc, "%s: the scheduler gave up (%d)", what, rc);
    for (i = 0; i < l.n;) {
        step_t *s = &l.s[i];
        if (REDIST_ACT_SEND == s->a.op && s->a.peer2 >= 0) {
            /* parking: u's blocks for peer2 held at peer */
            int r = s->a.peer, v = s->a.peer2;
            p = s->rank;
            CHECK(received(&l, i, REDIST_ACT_RECV_PARK, r, p),
                  "%s: step %d: parking without its receive", what, i);
            CHECK(left[p * n + v] >= s->a.n, "%s: step %d: parks more than %d has for %d", what,
                  i, p, v);
            move_room(r2, p, r, s->a.n, what, i);
            left[p * n + v] -= s->a.n;
            parked[r * n + v] += s->a.n;
            i += 2;
        } else if (REDIST_ACT_SEND_PARKED == s->a.op) {
            int r = s->rank, v = s->a.peer;
            CHECK(received(&l, i, REDIST_ACT_RECV, v, r) && l.s[i + 1].a.peer2 >= 0,
                  "%s: step %d: a parked send without its receive", what, i);
            CHECK(parked[r * n + v] >= s->a.n, "%s: step %d: %d sends on more than it holds",
                  what, i, r);
            move_room(r2, r, v, s->a.n, what, i);
            parked[r * n + v] -= s->a.n;
            i += 2;
        } else if (REDIST_ACT_SEND == s->a.op) {
            p = s->rank, q = s->a.peer;
            CHECK(received(&l, i, REDIST_ACT_RECV, q, p), "%s: step %d: a send without its receive",
                  what, i);
            CHECK(s->a.n > 0 && left[p * n + q] >= s->a.n, "%s: step %d: %d sends %d of %d to %d",
                  what, i, p, s->a.n, left[p * n + q], q);
            move_room(r2, p, q, s->a.n, what, i);
            left[p * n + q] -= s->a.n;
            i += 2;
        } else {
            /* a cycle: consecutive CYCLE steps, each sending to the next */
            int len = 0, x = s->a.n;
            CHECK(REDIST_ACT_CYCLE == s->a.op, "%s: step %d: a lone receive", what, i);
            while (i + len < l.n && REDIST_ACT_CYCLE == l.s[i + len].a.op) {
                len++;
                if (l.s[i + len - 1].a.peer == s->rank) {
                    break;   /* closed */
                }
            }
            CHECK(len >= 2, "%s: step %d: a cycle of %d", what, i, len);
            for (j = 0; j < len; j++) {
                step_t *c = &l.s[i + j], *nx = &l.s[i + (j + 1) % len];
                CHECK(c->a.n == x && c->a.peer == nx->rank && nx->a.peer2 == c->rank,
                      "%s: step %d: cycle member %d does not chain", what, i, j);
                CHECK(left[c->rank * n + c->a.peer] >= x, "%s: step %d: cycle overdraws", what, i);
                left[c->rank * n + c->a.peer] -= x;
            }
            i += len;
        }
    }
    for (p = 0; p < n * n; p++) {
        CHECK(0 == left[p], "%s: %d blocks left from %d to %d", what, left[p], p / n, p % n);
        CHECK(0 == parked[p], "%s: %d blocks left parked at %d for %d", what, parked[p], p / n,
              p % n);
    }
    free(off), free(to), free(ew), free(room), free(left), free(r2), free(l.s), free(parked);
    return l.n;
}

/* a random injective map: nslots[p] slots, live with probability, targets
 * a random permutation of the slots */
static void random_case(int n, int maxslots, int freepct, int *w, int *room)
{
    int total = 0, p, g, *owner, *perm, *slots = malloc(sizeof(int) * n);
    for (p = 0; p < n; p++) {
        slots[p] = rnd(maxslots + 1);
        total += slots[p];
    }
    owner = malloc(sizeof(int) * (total + 1));
    perm = malloc(sizeof(int) * (total + 1));
    for (p = 0, g = 0; p < n; p++) {
        for (int s = 0; s < slots[p]; s++) {
            owner[g++] = p;
        }
    }
    for (g = 0; g < total; g++) {
        perm[g] = g;
    }
    for (g = total - 1; g > 0; g--) {
        int k = rnd(g + 1), t = perm[g];
        perm[g] = perm[k], perm[k] = t;
    }
    memset(w, 0, sizeof(int) * n * n);
    memcpy(room, slots, sizeof(int) * n);
    for (g = 0; g < total; g++) {
        if (rnd(100) < freepct) {
            continue;   /* a free slot */
        }
        room[owner[g]]--;
        if (owner[perm[g]] != owner[g]) {
            w[owner[g] * n + owner[perm[g]]]++;
        }
    }
    free(slots), free(owner), free(perm);
}

static void all_cases(void)
{
    int n, t, p, q, steps;
    int w[64 * 64], room[64];

    /* exp 3 with no free slot: one cycle through everyone */
    for (n = 2; n <= 64; n *= 2) {
        memset(w, 0, sizeof(int) * n * n);
        for (p = 0; p < n; p++) {
            w[p * n + (p + 1) % n] = 100;
            room[p] = 0;
        }
        steps = run(n, w, room, "ring, 0 free");
        if (0 == search) {
            CHECK(steps == n, "ring of %d, 0 free: %d steps (one cycle expected)", n, steps);
        } else if (1 == search) {
            CHECK(-1 == steps, "ring of %d, 0 free: phases without breaking cycles completed", n);
        }
    }
    /* exp 4: process 0 all free, the others send to each other */
    for (n = 4; n <= 32; n *= 2) {
        memset(w, 0, sizeof(int) * n * n);
        for (p = 1; p < n; p++) {
            room[p] = 0;
            for (q = 1; q < n; q++) {
                w[p * n + q] = p == q ? 0 : 7;
            }
        }
        room[0] = 50;
        run(n, w, room, "exp 4");
    }
    /* equal all-to-all, no free slot */
    for (n = 2; n <= 16; n++) {
        for (p = 0; p < n; p++) {
            room[p] = 0;
            for (q = 0; q < n; q++) {
                w[p * n + q] = p == q ? 0 : 5;
            }
        }
        run(n, w, room, "all-to-all");
    }
    /* a ring with one free slot each: phases must complete it */
    for (n = 2; n <= 16; n++) {
        memset(w, 0, sizeof(int) * n * n);
        for (p = 0; p < n; p++) {
            w[p * n + (p + 1) % n] = 30;
            room[p] = 1;
        }
        CHECK(run(n, w, room, "ring, 1 free") > 0, "ring of %d with a free slot refused", n);
    }
    for (t = 0; t < 3000; t++) {
        n = 2 + rnd(20);
        random_case(n, 40, t % 3 == 0 ? 0 : rnd(60), w, room);
        run(n, w, room, "random");
    }
}

int main(void)
{
    for (search = 0; search < 4; search++) {
        all_cases();
    }
    printf("redist_dfs_test: OK\n");
    return 0;
}
