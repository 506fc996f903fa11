/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Predefined attributes on communicators made from MPI_COMM_WORLD
 * (config/patches/<series>/0026-comm-dup-predefined-attrs.patch: a
 * duplicate reads WORLD's inherited predefined attributes from WORLD
 * instead of holding copies).  Checks that every program sees what it saw
 * before:
 *  - MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_APPNUM and
 *    MPI_UNIVERSE_SIZE on dup, dup of a dup, dup_with_info, idup and
 *    create_group of WORLD (all copy attributes): the same flag and the
 *    same pointer as on WORLD (MPI_COMM_DUP_FN copied WORLD's pointer);
 *  - on split and create of WORLD, and their dups: none (they copy no
 *    attributes);
 *  - MPI_LASTUSEDCODE (not inherited): on WORLD only, also after
 *    MPI_Add_error_class moves it;
 *  - user keyvals on WORLD: MPI_COMM_DUP_FN copied, MPI_COMM_NULL_COPY_FN
 *    not, a counting copy callback called once per copy and its delete
 *    callback once per free; attributes set on a duplicate;
 *  - setting or deleting a predefined attribute on a duplicate fails;
 *  - the heap a duplicate of WORLD costs, against a duplicate of a split
 *    of WORLD with the same members (which has no attributes to copy):
 *    "extra bytes" is printed, and must stay below 256 with the patch
 *    (about 1,400 without it).
 * Prints "comm_attrs: N ranks: ok" on rank 0; any failure exits 1.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heap_counter.h"

static int rank, errs;

#define CHECK_FAIL(...) (fprintf(stderr, "comm_attrs FAIL rank %d line %d: ", rank, __LINE__), \
                         fprintf(stderr, __VA_ARGS__), fputc('\n', stderr), errs++)
#include "check.h"

static const int predef[] = {MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_APPNUM,
                             MPI_UNIVERSE_SIZE};
static const char *predef_name[] = {"MPI_TAG_UB", "MPI_HOST", "MPI_IO", "MPI_WTIME_IS_GLOBAL",
                                    "MPI_APPNUM", "MPI_UNIVERSE_SIZE"};
#define NPREDEF ((int) (sizeof(predef) / sizeof(predef[0])))

static void *world_val[NPREDEF];
static int world_flag[NPREDEF];

/* each predefined attribute: as on WORLD (inherit) or absent */
static void check_predef(MPI_Comm c, const char *what, int inherit)
{
    for (int i = 0; i < NPREDEF; i++) {
        void *v = NULL;
        int flag = -1;
        CHECK(MPI_SUCCESS == MPI_Comm_get_attr(c, predef[i], &v, &flag), "%s: get %s", what, predef_name[i]);
        if (inherit) {
            CHECK(flag == world_flag[i], "%s: %s flag %d, WORLD's %d", what, predef_name[i], flag, world_flag[i]);
            CHECK(!flag || v == world_val[i], "%s: %s at %p, WORLD's at %p", what, predef_name[i], v,
                  world_val[i]);
            CHECK(!flag || *(int *) v == *(int *) world_val[i], "%s: %s value", what, predef_name[i]);
        } else {
            CHECK(0 == flag, "%s: %s present, copied from nowhere", what, predef_name[i]);
        }
        /* MPI-1's name for the same call (deprecated, not removed) */
        flag = -1;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        CHECK(MPI_SUCCESS == MPI_Attr_get(c, predef[i], &v, &flag), "%s: MPI_Attr_get %s", what,
              predef_name[i]);
#pragma GCC diagnostic pop
        CHECK(flag == (inherit ? world_flag[i] : 0), "%s: MPI_Attr_get %s flag %d", what, predef_name[i], flag);
    }
    void *v;
    int flag = -1;
    MPI_Comm_get_attr(c, MPI_LASTUSEDCODE, &v, &flag);
    CHECK(0 == flag, "%s: MPI_LASTUSEDCODE present (it is not inherited)", what);
}

static int copies, deletes;
static int count_copy(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void) c; (void) k; (void) extra;
    copies++;
    *(void **) out = (char *) in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}
static int count_delete(MPI_Comm c, int k, void *val, void *extra)
{
    (void) c; (void) k; (void) val; (void) extra;
    deletes++;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int np, flag, kdup, knull, kcount;
    void *v;
    static int a, b;
    char c;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);

    for (int i = 0; i < NPREDEF; i++) {
        MPI_Comm_get_attr(MPI_COMM_WORLD, predef[i], &world_val[i], &world_flag[i]);
    }
    CHECK(world_flag[0] && *(int *) world_val[0] >= 32767, "WORLD has no valid MPI_TAG_UB");

    /* heap: dup of WORLD against dup of a split with the same members,
       before any user attribute exists */
    enum { NH = 40 };
    MPI_Comm s, d[NH];
    MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &s);
    /* one of each first: one-time allocations are not counted */
    MPI_Comm_dup(s, &d[0]);
    MPI_Comm_dup(MPI_COMM_WORLD, &d[1]);
    MPI_Comm_free(&d[0]);
    MPI_Comm_free(&d[1]);
    long long h0 = heap_cur;
    for (int i = 0; i < NH; i++) MPI_Comm_dup(s, &d[i]);
    long long hs = heap_cur - h0;
    for (int i = 0; i < NH; i++) MPI_Comm_free(&d[i]);
    h0 = heap_cur;
    for (int i = 0; i < NH; i++) MPI_Comm_dup(MPI_COMM_WORLD, &d[i]);
    long long hw = heap_cur - h0;
    long long extra = (hw - hs) / NH, extra_max = 0;
    MPI_Allreduce(&extra, &extra_max, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("comm_attrs: a dup of WORLD costs %lld extra bytes over a dup of a split of it\n", extra_max);
    }
    CHECK(extra < 256, "a duplicate of WORLD costs %lld bytes more than one of a split of it", extra);
    for (int i = 0; i < NH; i++) {
        check_predef(d[i], "dup(WORLD)", 1);
        MPI_Comm_free(&d[i]);
    }

    /* every kind of copy, before and after user attributes exist on WORLD */
    for (int round = 0; round < 2; round++) {
        MPI_Comm dup, dupdup, info, idup, cg, sp, cr, spdup;
        MPI_Group g;
        MPI_Request r;
        MPI_Info inf;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        MPI_Comm_dup(dup, &dupdup);
        MPI_Info_create(&inf);
        MPI_Info_set(inf, "mpi_assert_no_any_tag", "false");
        MPI_Comm_dup_with_info(MPI_COMM_WORLD, inf, &info);
        MPI_Info_free(&inf);
        MPI_Comm_idup(MPI_COMM_WORLD, &idup, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Comm_group(MPI_COMM_WORLD, &g);
        MPI_Comm_create_group(MPI_COMM_WORLD, g, 7, &cg);
        MPI_Comm_create(MPI_COMM_WORLD, g, &cr);
        MPI_Group_free(&g);
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &sp);
        MPI_Comm_dup(sp, &spdup);

        check_predef(dup, "dup", 1);
        check_predef(dupdup, "dup(dup)", 1);
        check_predef(info, "dup_with_info", 1);
        check_predef(idup, "idup", 1);
        check_predef(cg, "create_group", 1);
        check_predef(cr, "create", 0);
        check_predef(sp, "split", 0);
        check_predef(spdup, "dup(split)", 0);

        if (0 == round) {
            MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kdup, NULL);
            MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &knull, NULL);
            MPI_Comm_create_keyval(count_copy, count_delete, &kcount, NULL);
            MPI_Comm_set_attr(MPI_COMM_WORLD, kdup, &a);
            MPI_Comm_set_attr(MPI_COMM_WORLD, knull, &b);
            MPI_Comm_set_attr(MPI_COMM_WORLD, kcount, &c);
        } else {
            /* user attributes: copied by their callbacks, once per copy */
            MPI_Comm each[] = {dup, dupdup, info, idup, cg};
            const char *name[] = {"dup", "dup(dup)", "dup_with_info", "idup", "create_group"};
            for (int i = 0; i < 5; i++) {
                flag = 0;
                MPI_Comm_get_attr(each[i], kdup, &v, &flag);
                CHECK(flag && v == &a, "%s: MPI_COMM_DUP_FN attribute not copied", name[i]);
                flag = 1;
                MPI_Comm_get_attr(each[i], knull, &v, &flag);
                CHECK(!flag, "%s: MPI_COMM_NULL_COPY_FN attribute copied", name[i]);
                flag = 0;
                MPI_Comm_get_attr(each[i], kcount, &v, &flag);
                CHECK(flag && v == (i == 1 ? &c + 2 : &c + 1), "%s: counted attribute %p (&c %p)", name[i], v,
                      (void *) &c);
            }
            CHECK(5 == copies, "copy callback ran %d times for 5 copies", copies);
        }

        /* predefined attributes cannot be set or deleted on a duplicate */
        MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
        static int x = 5;
        CHECK(MPI_SUCCESS != MPI_Comm_set_attr(dup, MPI_TAG_UB, &x), "set MPI_TAG_UB on a dup succeeded");
        CHECK(MPI_SUCCESS != MPI_Comm_delete_attr(dup, MPI_TAG_UB), "delete MPI_TAG_UB on a dup succeeded");
        check_predef(dup, "dup after refused set/delete", 1);
        /* a user attribute set on a duplicate with none of its own */
        MPI_Comm_set_attr(spdup, kdup, &x);
        MPI_Comm_set_attr(dupdup, knull, &x);
        flag = 0;
        MPI_Comm_get_attr(dupdup, knull, &v, &flag);
        CHECK(flag && v == &x, "attribute set on dup(dup) not read back");
        check_predef(dupdup, "dup(dup) with an attribute set", 1);
        MPI_Comm_delete_attr(dupdup, knull);
        check_predef(dupdup, "dup(dup) after deleting it", 1);

        MPI_Comm fr[] = {dup, dupdup, info, idup, cg, cr, sp, spdup};
        for (int i = 0; i < 8; i++) MPI_Comm_free(&fr[i]);
        if (1 == round) {
            CHECK(5 == deletes, "delete callback ran %d times for 5 copies", deletes);
        }
    }

    /* MPI_LASTUSEDCODE moves on WORLD; duplicates still have none */
    int cls, *last0, *last1;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last0, &flag);
    CHECK(flag, "WORLD has no MPI_LASTUSEDCODE");
    int last_before = *last0;
    MPI_Add_error_class(&cls);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last1, &flag);
    CHECK(flag && *last1 >= cls && *last1 > last_before, "MPI_LASTUSEDCODE did not move");
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    check_predef(dup, "dup after MPI_Add_error_class", 1);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&s);
    MPI_Comm_free_keyval(&kdup);
    MPI_Comm_free_keyval(&knull);
    MPI_Comm_free_keyval(&kcount);

    int all = 0;
    MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (0 == rank) {
        printf(all ? "comm_attrs: FAILED (%d errors)\n" : "comm_attrs: %d ranks: ok\n", all ? all : np);
    }
    MPI_Finalize();
    return all ? 1 : 0;
}
