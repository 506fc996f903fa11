/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * A process set of the launcher's own (PRRTE's mpirun --pset NAME, one per
 * application context) seen through MPI-4 Sessions: its size as
 * MPI_Session_get_pset_info reports it must be the size of its group
 * (MPI_Group_from_session_pset), whose members must be distinct world
 * ranks.  Open MPI 5.0.7 builds both from each process's PMIX_PSET_NAME and
 * stored the set name's length in its member counter
 * (config/patches/5.0/0023-instance-pmix-pset-members.patch): sizes of 5
 * and 6 for sets of 2 and 3, members at wrong slots.  Which processes are
 * members is not checked against the launch: with the PRRTE bundled with
 * 5.0.7 (3.0.8) each process reads every process's PMIX_PSET_NAME
 * differently (each finds itself in the first context's set), so the
 * members differ from process to process, a PRRTE matter.
 *
 *   sessions_pset NAME...: check each named set.
 * Each process prints "sessions_pset NAME: N members: ok" per set.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *name, const char *what, long got, long want)
{
    fprintf(stderr, "sessions_pset FAIL %s: %s: %ld, expected %ld\n", name, what, got, want);
    fflush(stderr);
    exit(1);
}

static void check(int rc, const char *name, const char *call)
{
    if (MPI_SUCCESS != rc) {
        char msg[MPI_MAX_ERROR_STRING];
        int len;
        MPI_Error_string(rc, msg, &len);
        fprintf(stderr, "sessions_pset FAIL %s: %s: %s\n", name, call, msg);
        exit(1);
    }
}

static void check_set(MPI_Session s, MPI_Group world, const char *name)
{
    MPI_Info info;
    MPI_Group g;
    char value[64];
    int flag, size, nworld, i, j, wrank[4096];

    check(MPI_Session_get_pset_info(s, name, &info), name, "MPI_Session_get_pset_info");
    check(MPI_Info_get(info, "mpi_size", (int) sizeof(value) - 1, value, &flag), name, "MPI_Info_get");
    if (!flag) {
        fail(name, "mpi_size not set", 0, 1);
    }
    MPI_Info_free(&info);

    check(MPI_Group_from_session_pset(s, name, &g), name, "MPI_Group_from_session_pset");
    MPI_Group_size(g, &size);
    MPI_Group_size(world, &nworld);
    if (atoi(value) != size) {
        fail(name, "MPI_Session_get_pset_info's mpi_size against the group's size", atol(value), size);
    }
    if (size < 1 || size > nworld || size > 4096) {
        fail(name, "group size", size, nworld);
    }
    for (i = 0; i < size; i++) {
        check(MPI_Group_translate_ranks(g, 1, &i, world, &wrank[i]), name, "MPI_Group_translate_ranks");
        if (wrank[i] < 0 || wrank[i] >= nworld) {
            fail(name, "world rank of a member", wrank[i], nworld - 1);
        }
        for (j = 0; j < i; j++) {
            if (wrank[j] == wrank[i]) {
                fail(name, "a world rank twice among the members", wrank[i], -1);
            }
        }
    }
    MPI_Group_free(&g);
    printf("sessions_pset %s: %d members: ok\n", name, size);
}

int main(int argc, char **argv)
{
    MPI_Session s;
    MPI_Group world;
    int i;

    if (argc < 2) {
        fprintf(stderr, "usage: %s NAME...\n", argv[0]);
        return 2;
    }
    check(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s), argv[1], "MPI_Session_init");
    check(MPI_Group_from_session_pset(s, "mpi://WORLD", &world), argv[1], "mpi://WORLD");
    for (i = 1; i < argc; i++) {
        check_set(s, world, argv[i]);
    }
    MPI_Group_free(&world);
    check(MPI_Session_finalize(&s), argv[1], "MPI_Session_finalize");
    return 0;
}
