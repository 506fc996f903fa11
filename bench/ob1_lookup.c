/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Instructions of one ob1 peer lookup (mca_pml_ob1_peer_lookup, inline in
 * pml_ob1_comm.h, as the send and matching paths call it; with patch 0036
 * a lookup past slot 0 on a communicator without a flat table also counts
 * down to its promotion, which never comes here) by the form of a
 * communicator's peer table, counted under
 * callgrind by bench/ob1_lookup.sh: the lookups rank 5 of a 16-rank
 * communicator makes in an 8-byte allreduce by recursive doubling (partners
 * 4, 7, 1, 13) and a ring round (4, 6), each peer once per iteration, and
 * with a sixth peer (9) for the forms past the slots.
 *
 *   ob1_lookup flat N      the 5 peers in the flat table (stock)
 *   ob1_lookup slots N     the 5 peers in the slots (patches 0029, 0037)
 *   ob1_lookup flat6 N     the 6 peers in the flat table (stock, or promoted)
 *   ob1_lookup hash N      5 peers in slots, all 6 in the hash (patch 0035)
 *   ob1_lookup chunked N   5 peers in slots, all 6 in the two-level table
 * N iterations (default 1000).
 *
 * The tables are laid out here as pml_ob1_comm.c lays them out (the hash by
 * its own insertion rule), so that only the lookup runs under the count.
 */
#include "ompi_config.h"
#include "ompi/mca/pml/ob1/pml_ob1_comm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static mca_pml_ob1_comm_t comm;
static ompi_communicator_t ocomm;
static mca_pml_ob1_comm_proc_t entry[16];
static const int peers[] = {4, 6, 7, 1, 13, 9};
static int npeers = 6;
void *volatile sink;

void __attribute__((noinline)) loop(int n)
{
    for (int it = 0; it < n; it++) {
        for (int k = 0; k < npeers; k++) {
            sink = mca_pml_ob1_peer_lookup(&ocomm, peers[k]);
        }
    }
}

/* every peer looked up has its entry, and the count never runs out */
mca_pml_ob1_comm_proc_t *mca_pml_ob1_peer_create(struct ompi_communicator_t *c, int rank)
{
    (void) c;
    fprintf(stderr, "ob1_lookup: rank %d has no entry\n", rank);
    exit(1);
}

void mca_pml_ob1_peer_promote(mca_pml_ob1_comm_t *p)
{
    p->hot_left = UINT32_MAX;
}

int main(int argc, char **argv)
{
    const char *form = argc > 1 ? argv[1] : "";
    int n = argc > 2 ? atoi(argv[2]) : 1000;

    comm.num_procs = 16;
    comm.hot_left = UINT32_MAX;
    ocomm.c_pml_comm = (struct mca_pml_comm_t *) &comm;
    for (int i = 0; i < MCA_PML_OB1_PEER_SLOTS; i++) {
        comm.slot_rank[i] = UINT32_MAX;
    }
    if (0 == strcmp(form, "flat") || 0 == strcmp(form, "slots")) {
        npeers = 5;
    }
    if (0 == strcmp(form, "flat") || 0 == strcmp(form, "flat6")) {
        comm.procs = calloc(16, sizeof(*comm.procs));
        for (int k = 0; k < npeers; k++) {
            comm.procs[peers[k]] = &entry[peers[k]];
        }
    } else if (0 == strcmp(form, "hash") || 0 == strcmp(form, "chunked") || 0 == strcmp(form, "slots")) {
        for (int i = 0; i < MCA_PML_OB1_PEER_SLOTS && i < npeers; i++) {
            comm.slot_rank[i] = peers[i];
            comm.slot_proc[i] = &entry[peers[i]];
        }
        if (0 == strcmp(form, "slots")) {
            /* no table */
        } else if (0 == strcmp(form, "hash")) {
            mca_pml_ob1_peer_hash_t *h = calloc(1, sizeof(*h) + 16 * (sizeof(uint32_t) + sizeof(void *)));
            h->mask = 15;
            h->shift = 28;
            memset(h->rank, 0xff, 16 * sizeof(uint32_t));
            for (int k = 0; k < npeers; k++) {
                uint32_t i = mca_pml_ob1_peer_hash_home(h, peers[k]);
                while (UINT32_MAX != h->rank[i]) {
                    i = (i + 1) & h->mask;
                }
                mca_pml_ob1_peer_hash_procs(h)[i] = &entry[peers[k]];
                h->rank[i] = peers[k];
                h->count++;
            }
            comm.hash = h;
        } else {
            comm.chunks = calloc(1, sizeof(*comm.chunks));
            comm.chunks[0] = calloc(MCA_PML_OB1_PEER_CHUNK, sizeof(**comm.chunks));
            for (int k = 0; k < npeers; k++) {
                comm.chunks[0][peers[k]] = &entry[peers[k]];
            }
        }
    } else {
        fprintf(stderr, "usage: ob1_lookup flat|slots|flat6|hash|chunked [N]\n");
        return 2;
    }
    loop(n);
    for (int r = 0; r < 16; r++) {
        int want = 0;
        for (int k = 0; k < npeers; k++) {
            want |= peers[k] == r;
        }
        if (mca_pml_ob1_peer_get(&comm, r) != (want ? &entry[r] : NULL)) {
            fprintf(stderr, "ob1_lookup %s: rank %d: wrong entry\n", form, r);
            return 1;
        }
    }
    return 0;
}
