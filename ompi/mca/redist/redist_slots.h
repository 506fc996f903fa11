/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Which slot each block leaves from and lands in: the slot bookkeeping of
 * one process, apart from the messages that carry the blocks.  Execute
 * and create's dry run both go through it, and test/unit/redist-replay.sh
 * replays every process's schedule through it with each slot's content
 * tracked, so that what the tests check is what runs.  No Open MPI header
 * here.
 */
#ifndef OMPI_MCA_REDIST_SLOTS_H
#define OMPI_MCA_REDIST_SLOTS_H

#include "ompi/mca/redist/redist_actions.h"

/* held[] and home[] values besides a target slot (>= 0).  REDIST_VACANT,
 * REDIST_LANDING: inside one cycle only, a slot whose block was staged
 * and sent, and one a receive is landing in. */
enum { REDIST_EMPTY = -1, REDIST_OUT = -2, REDIST_PARKED = -3, REDIST_VACANT = -4,
       REDIST_LANDING = -5 };

typedef struct redist_slots_t {
    int nslots, nprocs;
    /* The map from this process's side (fixed at create).  home[s]: target
     * slot here for a block that stays, REDIST_OUT for one that leaves,
     * REDIST_EMPTY for a free slot.  Blocks leaving for q are
     * out_slot[out_off[q] .. out_off[q+1]) in slot order; blocks coming
     * from p land in in_slot[in_off[p] .. in_off[p+1]), in p's slot order
     * (the order p sends them in). */
    int *home;
    int *out_off, *out_slot;
    int *in_off, *in_slot;
    /* Execution state (redist_slots_begin resets it).  held[s]: target
     * slot of the block slot s holds now, REDIST_EMPTY if none, or
     * REDIST_PARKED.  Free slots are a set with O(1) removal of a given
     * slot (free_at: index in free_list, -1 when not free). */
    int *held;
    int *free_list, *free_at, nfree;
    int *out_next, *in_next;    /* per peer: blocks taken to send / to land so far */
    /* park: the slots of held batches, batch k at park_slot[batch_off[k]
     * .. batch_off[k+1]), batch_next[k] taken to send on so far (NULL
     * unless the schedule parks) */
    int *park_slot, *batch_off, *batch_next;
    int npark, nbatch;
} redist_slots_t;

/* Reset the execution state to the map's start. */
void redist_slots_begin(redist_slots_t *sl);

static inline void redist_slots_put_free(redist_slots_t *sl, int s)
{
    sl->held[s] = REDIST_EMPTY;
    sl->free_at[s] = sl->nfree;
    sl->free_list[sl->nfree++] = s;
}

/* Take a free slot for a block whose target here is t: t itself when
 * free, else any (t < 0: any).  -1 when none is free (a schedule that
 * overfills this process: the caller reports it, nothing is written). */
static inline int redist_slots_take_free(redist_slots_t *sl, int t)
{
    int s, last, at;
    if (sl->nfree <= 0) {
        return -1;
    }
    s = t >= 0 && sl->free_at[t] >= 0 ? t : sl->free_list[sl->nfree - 1];
    last = sl->free_list[--sl->nfree];
    at = sl->free_at[s];
    sl->free_list[at] = last;
    sl->free_at[last] = at;
    sl->free_at[s] = -1;
    return s;
}

/* Blocks this process still has to send to q / receive from p. */
static inline int redist_slots_out_left(const redist_slots_t *sl, int q)
{
    return sl->out_off[q + 1] - sl->out_off[q] - sl->out_next[q];
}
static inline int redist_slots_in_left(const redist_slots_t *sl, int p)
{
    return sl->in_off[p + 1] - sl->in_off[p] - sl->in_next[p];
}

/* A sending action's next n blocks: their slots (in the order they are
 * sent), or NULL when the action has fewer left.  Moves the action's
 * cursor (its out list, or its parked batch), so the slots of several
 * actions must be taken in action order, before any is sent: two actions
 * can draw on one list (a send to q and a parking of q's blocks
 * elsewhere). */
const int *redist_slots_take_send(redist_slots_t *sl, const redist_action_t *a, int n);
/* A group of k sending actions (run at once): every action's slots, in
 * action order, into slots[g]; -1 when one has fewer blocks left. */
int redist_slots_take_sends(redist_slots_t *sl, const redist_action_t *a, int k,
                            const int **slots);
/* A group of k receiving actions: where their blocks land, action after
 * action, into land[] (as many as their blocks); -1 when they do not fit. */
int redist_slots_take_recvs(redist_slots_t *sl, const redist_action_t *a, int k, int *land);
/* The slots sent from are free (once the sends completed). */
void redist_slots_sent(redist_slots_t *sl, const int *slots, int n);
/* Where a receiving action's next n blocks land (a block's target slot
 * when free, else any free slot; a parked batch: any), into land[0..n).
 * -1 when fewer than n slots are free or the action has fewer blocks
 * left (nothing taken), else 0. */
int redist_slots_take_recv(redist_slots_t *sl, const redist_action_t *a, int n, int *land);

/* A cycle (no free slot needed): block j leaves slot s = the next of the
 * out list for next (staged, so its slot is vacant at once) while block
 * j of prev, whose target here is t, lands in t when t is vacant by now,
 * else in s.  cycle_step(j) returns the slot block j lands in and moves
 * the cursors by one; cycle_landed records the block once it is there. */
int redist_slots_cycle_step(redist_slots_t *sl, int next, int prev, int *out_slot);
void redist_slots_cycle_landed(redist_slots_t *sl, int land, int t);

/* A chained cycle: a cycle of len processes moving n blocks each, cut
 * into m = ceil(n / h) groups of h (group g: blocks g*h .. of the out
 * list for next and of the in list from prev, as a cycle step takes
 * them).  In wave w, the member at pos stages group w*len + pos only, and
 * the hole it leaves travels back round the cycle: at step k = 1 .. len
 * every member sends group w*len + (pos + k) % len straight from its
 * slots (at k = len: its staged group, from the stage) and receives group
 * w*len + (pos + k - 1) % len into the slots that group's own blocks left
 * at the step before (or by staging).  Every member sends and receives
 * one group a step, and a rank copies one group in len locally instead
 * of every block.  Used when there are at least len groups (fewer would
 * leave members idle: chain_use). */
static inline int redist_slots_chain_use(int n, int h, int len)
{
    return len >= 2 && h >= 1 && (n + h - 1) / h >= len;
}
/* Step k (0: staging) of wave w: the group staged (k 0) or sent, and
 * the group received (k >= 1); -1 for none. */
static inline void redist_slots_chain_step(int pos, int len, int m, int w, int k, int *send_g,
                                           int *recv_g)
{
    int gs = w * len + (pos + k) % len, gr = w * len + (pos + k + len - 1) % len;
    *send_g = gs < m ? gs : -1;
    *recv_g = k >= 1 && gr < m ? gr : -1;
}
/* Group g's out slots (*cnt of them, in the order sent).  The caller
 * checks once that the lists hold the cycle's n blocks. */
const int *redist_slots_chain_out(const redist_slots_t *sl, int next, int n, int h, int g,
                                  int *cnt);
/* Those slots' blocks have left (staged, or sent and complete). */
void redist_slots_chain_vacate(redist_slots_t *sl, const int *s, int cnt);
/* Where group g's incoming blocks land, into land[] (their targets into
 * target[], for cycle_landed once they are there): a block's target slot
 * when vacant, else a vacant slot among the group's own out slots (left
 * before it lands).  -1 when none is (a schedule fault), else the count. */
int redist_slots_chain_land(redist_slots_t *sl, int next, int prev, int n, int h, int g,
                            int *land, int *target);
/* The cycle done: the cursors move past its n blocks. */
void redist_slots_chain_end(redist_slots_t *sl, int next, int prev, int n);

/* Put every block this process holds in its target slot: copy(ctx, dst,
 * src) copies one block between slots, or to or from the stage (slot
 * -1).  Each block is copied once, with one stage copy per cycle. */
typedef void (*redist_slots_copy_fn_t)(void *ctx, int dst, int src);
void redist_slots_settle(redist_slots_t *sl, int *scratch, redist_slots_copy_fn_t copy,
                         void *ctx);

/* Groups of consecutive actions that run at once (run_actions): the
 * group that starts at act[i] ends before the returned index.  Sends (to
 * distinct receivers: a receiver's "ready" messages match the sender's
 * token receives in order) form a send group; receives that fit in the
 * free slots (and, unless aggregate, one block per request, in the
 * request limit) form a receive group; anything else is alone.  *kind
 * gets REDIST_GROUP_*, or 0 for an action the interpreter cannot run. */
enum { REDIST_GROUP_SEND = 1, REDIST_GROUP_RECV = 2, REDIST_GROUP_RECV_WINDOWS = 3,
       REDIST_GROUP_CYCLE = 4 };
#define REDIST_GROUP_MAX 64
int redist_slots_group(const redist_action_t *act, int nact, int i, int aggregate,
                       int request_limit, int nfree, int *kind);

/* unit's rounds (MADRE's unitBred), one block a message.  share: budget
 * given out over the n processes' asks, from process first on round
 * robin (give[p] = what p gets).  unit_land: where the next block from q
 * lands (its target slot when free, else any free slot), -1 when none is
 * free.  unit_next_out: the slot of the next block for q.  unit_sent: the
 * slots of the last sent[q] blocks for each q are free again (a round's
 * sends, once complete: from the next round on). */
void redist_slots_share(int n, int first, const int *ask, int *give, int budget);
int redist_slots_unit_land(redist_slots_t *sl, int q);
static inline int redist_slots_unit_next_out(redist_slots_t *sl, int q)
{
    return sl->out_slot[sl->out_off[q] + sl->out_next[q]++];
}
void redist_slots_unit_sent(redist_slots_t *sl, const int *sent);

#endif
