/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Actions of the rank-level schedules (cyclic, unitcyclic): what one
 * process does at one step of a global order that every process follows
 * in its own list, so that a step never waits on a process busy with a
 * later one (the earliest unfinished step always has every participant at
 * it: no deadlock).  No Open MPI header here: the unit tests build the
 * schedulers alone.
 */
#ifndef OMPI_MCA_REDIST_ACTIONS_H
#define OMPI_MCA_REDIST_ACTIONS_H

enum {
    REDIST_ACT_SEND = 1,   /* send n blocks to peer (the next ones of its out list) */
    REDIST_ACT_RECV = 2,   /* receive n blocks from peer into free slots */
    REDIST_ACT_CYCLE = 3,  /* send n to peer while n come from peer2, slot for slot */
    REDIST_ACT_RECV_PARK = 4,   /* receive n blocks from peer to hold for others (a batch) */
    REDIST_ACT_SEND_PARKED = 5, /* send n blocks of held batch peer2 on to peer */
};
/* SEND with peer2 >= 0: the blocks are the next ones of the out list for
 * peer2, parked at peer; RECV with peer2 >= 0: the blocks are peer2's,
 * forwarded by peer (the next ones of peer2's in list). */
/* CYCLE: pos, len: this process's place in the cycle of processes
 * (pos 0 .. len-1, following peer) and the cycle's length, for the
 * chained execution (redist_slots_chain_*); 0 in other actions. */
typedef struct redist_action_t {
    int op, peer, peer2, n, pos, len;
} redist_action_t;
#define REDIST_ACT_INTS 6   /* ints per action in a schedule list */

/* emit(ctx, rank, action): append action to rank's list */
typedef void (*redist_act_emit_fn_t)(void *ctx, int rank, const redist_action_t *a);

/* The cyclic scheduler (Siegel's cyclicScheduler): a depth-first search
 * over the transmission graph of n processes (out edges of p:
 * edge_to/edge_w[edge_off[p] .. edge_off[p+1]), weights in blocks; free:
 * room: free slots per process).  Moves as much as the target has room for;
 * a cycle of full processes moves its smallest weight around at once.
 * Consumes free and edge_w.  Returns 0, or -1 when the graph cannot be
 * completed (a full process with nothing to send is sent to: the map was
 * not injective). */
int redist_cyclic_dfs(int n, int *room, const int *edge_off, const int *edge_to, int *edge_w,
                      redist_act_emit_fn_t emit, void *ctx);

/* The phase scheduler (Pinar and Hendrickson's phases; MADRE's
 * phaseBred): in each phase every process receives at most the free slots
 * it had when the phase began, shared among its senders round-robin
 * (the first sender moves on by one each phase); all of a phase's moves
 * can run at once.  A phase that can move nothing means every process
 * still waiting is full: with break_cycles, one block goes round a cycle
 * of them (a cycle step of n = 1); without, -1 (the map needs a cycle
 * broken).  Consumes room and edge_w; *phases gets the phase count. */
int redist_phase_search(int n, int *room, const int *edge_off, const int *edge_to, int *edge_w,
                        int break_cycles, redist_act_emit_fn_t emit, void *ctx, int *phases);

/* Pinar and Hendrickson's phases with parking (park): phases as above
 * (blocks parked earlier go on first); when a phase can move nothing, a
 * full process that waits for blocks parks some of its outgoing ones on a
 * process with room that waits for nothing (they travel twice), and only
 * when no such room exists, one block goes round a cycle. */
int redist_park_search(int n, int *room, const int *edge_off, const int *edge_to, int *edge_w,
                       redist_act_emit_fn_t emit, void *ctx, int *phases);

/* cycleshift's global order (cycleShiftBred of S. F. Siegel and A. R.
 * Siegel, "MADRE: The Memory-Aware Data Redistribution Engine",
 * EuroPVM/MPI 2008): shifts (chains ending in a free slot, moved from the free end
 * back), then cycles (one block staged, the rest shifted, the staged one
 * put last), each block straight to its target slot.  One step of one
 * process is 3 ints {op, a, b}: */
enum {
    REDIST_CS_SEND = 1,       /* send slot a to process b */
    REDIST_CS_RECV = 2,       /* receive slot a from process b */
    REDIST_CS_COPY = 3,       /* local: slot a to slot b */
    REDIST_CS_STAGE = 4,      /* slot a to the stage */
    REDIST_CS_SEND_STAGE = 5, /* send the stage to process a */
    REDIST_CS_UNSTAGE = 6,    /* the stage to slot a */
};
typedef void (*redist_step_emit_fn_t)(void *ctx, int rank, const int *step);
/* n processes, process p's slots global base[p] .. base[p+1); target[g]:
 * the global slot block g goes to, -1 for a free slot.  Returns 0, or -2
 * when out of memory. */
int redist_cycleshift_order(int n, const int *base, const int *target,
                            redist_step_emit_fn_t emit, void *ctx);

#endif
