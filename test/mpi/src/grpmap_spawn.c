/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * A group with processes of another job (MPI_Comm_spawn, then
 * MPI_Intercomm_merge) keeps Open MPI's dense table even when grpmap is
 * told to compress every group: the merged communicator's group adds no
 * compressed map (MPI_T grpmap_base_groups), and messages on it arrive from
 * the right senders.  Run as the parent with 2 ranks; it spawns 2 copies.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "mpi_pvar.h"

/* MPI_T grpmap_base_groups, ~0 when there is none */
static unsigned long long groups(void)
{
    unsigned long long v = 0;
    int idx = test_pvar_index("grpmap_base_groups", NULL, NULL);
    if (idx < 0) {
        return ~0ull;
    }
    test_pvar_read_once(idx, &v);
    return v;
}

int main(int argc, char **argv)
{
    MPI_Comm parent, inter, merged;
    MPI_Group g;
    int me, n, provided, fails = 0, i, *all, gs;
    unsigned long long before, after;

    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_get_parent(&parent);
    if (MPI_COMM_NULL == parent) {
        MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                       MPI_ERRCODES_IGNORE);
    } else {
        inter = parent;
    }
    before = groups();
    MPI_Intercomm_merge(inter, MPI_COMM_NULL != parent, &merged);
    MPI_Comm_group(merged, &g);
    MPI_Group_size(g, &gs);
    after = groups();
    MPI_Comm_rank(merged, &me);
    MPI_Comm_size(merged, &n);
    if (4 != n || 4 != gs) {
        printf("FAIL: merged size %d, group size %d (expected 4)\n", n, gs);
        fails++;
    }
    if (after != before) {
        printf("FAIL rank %d: merging with another job compressed %llu group(s)\n", me,
               after - before);
        fails++;
    }
    {
        int v[4];
        all = v;
        MPI_Allgather(&me, 1, MPI_INT, all, 1, MPI_INT, merged);
        for (i = 0; i < n; i++) {
            if (all[i] != i) {
                printf("FAIL rank %d: allgather[%d] = %d\n", me, i, all[i]);
                fails++;
            }
        }
    }
    MPI_Group_free(&g);
    MPI_Allreduce(MPI_IN_PLACE, &fails, 1, MPI_INT, MPI_SUM, merged);
    if (0 == me) {
        printf("grpmap_spawn: %s (%d failures)\n", fails ? "FAILED" : "OK", fails);
    }
    MPI_Comm_free(&merged);
    MPI_Comm_disconnect(&inter);
    MPI_T_finalize();
    MPI_Finalize();
    return fails ? 1 : 0;
}
