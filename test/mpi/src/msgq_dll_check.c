/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Drives Open MPI's message-queue debugger library (the "MQS" plugin that
 * TotalView and DDT load, lib/openmpi/libompi_dbg_msgq.so) against this
 * very process, the way a debugger does, and checks that it lists exactly
 * the communicators that exist.
 *
 *   msgq_dll_check DLL
 *
 * The debugger's side of the interface (msgq_interface.h) is implemented
 * here on the own process: fetch_data is a memcpy, symbols come from
 * dlsym(RTLD_DEFAULT) (libmpi's are global), and the types and field
 * offsets a debugger reads from DWARF come from the compiler: like
 * upstream's ompi_debugger_canary.c, this file redefines ompi_field_offset
 * and includes ompi_common_dll.c, whose ompi_fill_in_type_info() then
 * records {struct, field, offsetof} for every field the library asks for.
 * The sizes of the types it asks for are the hand list TYPE_SIZES below
 * (a type missing there is reported).  Built against the build tree's
 * internal headers, which also give the truth: c_contextid of every
 * communicator.
 *
 * Sequence (all ranks make the same MPI calls; each checks its own list):
 *  round 1: 40 dups of MPI_COMM_WORLD and a split with reversed ranks, all
 *           named, then every other dup freed; a fresh DLL process must
 *           list MPI_COMM_WORLD, MPI_COMM_SELF, MPI_COMM_NULL (upstream
 *           lists it too: CID 2 is in the table) and the live ones, each
 *           once, with the right CID, local rank, size, name and ranks in
 *           MPI_COMM_WORLD (mqs_get_comm_group), and no freed one;
 *  round 2: 5 more dups freed and 4 created (the table's lowest_free and
 *           number_free change), mqs_update_communicator_list: the same;
 *  receive: an MPI_Irecv on the reversed split is listed by the
 *           pending-receive iterator of that communicator (tag, source,
 *           status, buffer, length) and of no other; then cancelled.
 *  Probes, reported and never failed ("probe NAME: up to date" or
 *  "probe NAME: STALE (...)" after the differences): the library rebuilds
 *  its list only when the table's lowest_free or number_free change; on a
 *  rebuild it keeps its entry (communicator pointer, rank, size, group) for
 *  a CID it already knows, refreshing only the name; and it takes the
 *  first group it newly meets in a rebuild for MPI_COMM_WORLD's when
 *  translating ranks (round 1 meets MPI_COMM_WORLD first; round 2 creates
 *  only dups, which share its group):
 *    receive-new: an MPI_Irecv on the first dup of round 2, whose CID (with
 *           dense CIDs) the library knew for a freed communicator;
 *    free+create: one communicator freed and one created between two
 *           updates (the new one takes the freed slot: counters unchanged);
 *    cid-reuse: every created communicator freed, then a 1-process split
 *           (new group; with dense CIDs on a CID the library knew for a
 *           2-process dup).
 *
 * Output (stdout), per rank:
 *   msgq: rank R: round 1: listed N communicators (CIDs 0-M), expected N, all match
 *   msgq: rank R: round 2: listed ...
 *   msgq: rank R: pending receive on split-rev (CID C) tag 77 from P: listed
 *   msgq: rank R: probe receive-new|free+create|cid-reuse: up to date (...) | STALE (...)
 *   msgq: rank R: FAIL: ...                  (any problem; exit status 1)
 * and on rank 0, when no rank found a problem, "msgq: OK on P ranks".
 */

#define _GNU_SOURCE

#include "ompi_config.h"

#include <ctype.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/class/opal_free_list.h"
#include "opal/class/opal_hash_table.h"
#include "opal/class/opal_list.h"
#include "opal/class/opal_pointer_array.h"
#include "opal/datatype/opal_datatype.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/group/group.h"
#include "ompi/mca/pml/base/pml_base_recvreq.h"
#include "ompi/mca/pml/base/pml_base_request.h"
#include "ompi/mca/pml/base/pml_base_sendreq.h"
#include "ompi/mca/topo/topo.h"
#include "ompi/request/request.h"
#include "mpi.h"

/* ---- field offsets, recorded by a private copy of ompi_common_dll.c ---- */

#define MAX_FIELDS 256
static struct {
    const char *type, *field;
    int offset;
} fields[MAX_FIELDS];
static int nfields;

static void record_field(const char *type, const char *field, int offset)
{
    if (nfields < MAX_FIELDS) {
        fields[nfields].type = type;
        fields[nfields].field = field;
        fields[nfields].offset = offset;
        nfields++;
    }
}

/* The private copy must not clash with the library's own symbols. */
#define mqs_basic_entrypoints msgq_check_basic_entrypoints
#define ompi_fill_in_type_info msgq_check_fill_in_type_info
#define ompi_fetch_pointer msgq_check_fetch_pointer
#define ompi_fetch_int msgq_check_fetch_int
#define ompi_fetch_bool msgq_check_fetch_bool
#define ompi_fetch_size_t msgq_check_fetch_size_t
#define ompi_fetch_opal_pointer_array_info msgq_check_fetch_opal_pointer_array_info
#define ompi_fetch_opal_pointer_array_item msgq_check_fetch_opal_pointer_array_item
#define ompi_get_lib_version msgq_check_get_lib_version
#define ompi_field_offset(out_name, qh_type, struct_name, field_name)                  \
    {                                                                                  \
        (void) (qh_type);                                                              \
        record_field(#struct_name, #field_name, (int) offsetof(struct_name, field_name)); \
        out_name = (int) offsetof(struct_name, field_name);                            \
    }
#include "ompi_common_dll.c"
#undef mqs_malloc
#undef mqs_free
#undef mqs_prints
#undef mqs_put_image_info
#undef mqs_get_image_info
#undef mqs_put_process_info
#undef mqs_get_process_info
#undef mqs_find_type
#undef mqs_field_offset
#undef mqs_sizeof
#undef mqs_get_type_sizes
#undef mqs_find_function
#undef mqs_find_symbol
#undef mqs_get_image
#undef mqs_get_global_rank
#undef mqs_fetch_data
#undef mqs_target_to_host

/* The sizes of the types the library looks up (mqs_find_type). */
struct mqs_type_ {
    const char *name;
    int size;
};
#define TYPE(t) {#t, (int) sizeof(t)}
static struct mqs_type_ TYPE_SIZES[] = {
    TYPE(opal_list_item_t),
    TYPE(opal_list_t),
    TYPE(opal_free_list_item_t),
    TYPE(opal_free_list_t),
    TYPE(opal_hash_table_t),
    TYPE(ompi_request_t),
    TYPE(mca_pml_base_request_t),
    TYPE(mca_pml_base_send_request_t),
    TYPE(mca_pml_base_recv_request_t),
    TYPE(opal_pointer_array_t),
    TYPE(ompi_communicator_t),
    TYPE(mca_topo_base_module_t),
    TYPE(mca_topo_base_comm_cart_2_2_0_t),
    TYPE(mca_topo_base_comm_graph_2_2_0_t),
    TYPE(mca_topo_base_comm_dist_graph_2_2_0_t),
    TYPE(ompi_group_t),
    TYPE(ompi_status_public_t),
    TYPE(ompi_datatype_t),
    TYPE(opal_datatype_t),
};
#define NTYPES ((int) (sizeof(TYPE_SIZES) / sizeof(TYPE_SIZES[0])))

/* ---- reporting ---- */

static int world_rank, world_size;
static int failures;   /* problems that fail the test */

static void say(const char *fmt, ...)
{
    va_list ap;
    printf("msgq: rank %d: ", world_rank);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

#define FAIL(...) (failures++, say("FAIL: " __VA_ARGS__))

/* ---- the debugger's side: image, process, callbacks ---- */

struct mqs_image_ {
    mqs_image_info *info;
};
struct mqs_process_ {
    mqs_image *image;
    mqs_process_info *info;
};

static char missing_symbol[128];   /* the last symbol dlsym did not find */

static void *cb_malloc(size_t n)
{
    return malloc(n);
}

static void cb_free(void *p)
{
    free(p);
}

static void cb_dprints(const char *s)
{
    fprintf(stderr, "msgq dll: %s", s);
}

static char *cb_errorstring(int code)
{
    (void) code;
    return "error in the test's debugger callbacks";
}

static void cb_put_image_info(mqs_image *image, mqs_image_info *info)
{
    image->info = info;
}

static mqs_image_info *cb_get_image_info(mqs_image *image)
{
    return image->info;
}

static void cb_put_process_info(mqs_process *proc, mqs_process_info *info)
{
    proc->info = info;
}

static mqs_process_info *cb_get_process_info(mqs_process *proc)
{
    return proc->info;
}

static const mqs_basic_callbacks basic_callbacks = {
    cb_malloc, cb_free, cb_dprints, cb_errorstring,
    cb_put_image_info, cb_get_image_info, cb_put_process_info, cb_get_process_info,
};

static void cb_get_type_sizes(mqs_process *proc, mqs_target_type_sizes *s)
{
    (void) proc;
    s->short_size = (int) sizeof(short);
    s->int_size = (int) sizeof(int);
    s->long_size = (int) sizeof(long);
    s->long_long_size = (int) sizeof(long long);
    s->pointer_size = (int) sizeof(void *);
    s->bool_size = (int) sizeof(bool);
    s->size_t_size = (int) sizeof(size_t);
}

static int cb_find_symbol(mqs_image *image, char *name, mqs_taddr_t *addr)
{
    void *p;
    (void) image;
    dlerror();
    p = dlsym(RTLD_DEFAULT, name);
    if (NULL == p) {
        snprintf(missing_symbol, sizeof(missing_symbol), "%s", name);
        return mqs_no_information;
    }
    if (NULL != addr) {
        *addr = (mqs_taddr_t) (uintptr_t) p;
    }
    return mqs_ok;
}

static int cb_find_function(mqs_image *image, char *name, mqs_lang_code lang, mqs_taddr_t *addr)
{
    (void) lang;
    return cb_find_symbol(image, name, addr);
}

static mqs_type *cb_find_type(mqs_image *image, char *name, mqs_lang_code lang)
{
    (void) image;
    (void) lang;
    for (int i = 0; i < NTYPES; i++) {
        if (0 == strcmp(TYPE_SIZES[i].name, name)) {
            return &TYPE_SIZES[i];
        }
    }
    FAIL("the library asked for type %s, which the test does not know (add it to TYPE_SIZES)",
         name);
    return NULL;
}

static int cb_field_offset(mqs_type *type, char *field)
{
    for (int i = 0; i < nfields; i++) {
        if (0 == strcmp(fields[i].type, type->name) && 0 == strcmp(fields[i].field, field)) {
            return fields[i].offset;
        }
    }
    FAIL("the library asked for field %s of %s, which ompi_common_dll.c did not record",
         field, type->name);
    return -1;
}

static int cb_sizeof(mqs_type *type)
{
    return type->size;
}

static const mqs_image_callbacks image_callbacks = {
    cb_get_type_sizes, cb_find_function, cb_find_symbol,
    cb_find_type, cb_field_offset, cb_sizeof,
};

static int cb_get_global_rank(mqs_process *proc)
{
    (void) proc;
    return world_rank;
}

static mqs_image *cb_get_image(mqs_process *proc)
{
    return proc->image;
}

static int cb_fetch_data(mqs_process *proc, mqs_taddr_t addr, int size, void *buf)
{
    (void) proc;
    if (addr < 4096 || size < 0) {   /* a NULL pointer plus an offset */
        return mqs_no_information;
    }
    memcpy(buf, (const void *) (uintptr_t) addr, (size_t) size);
    return mqs_ok;
}

static void cb_target_to_host(mqs_process *proc, const void *in, void *out, int size)
{
    (void) proc;
    memcpy(out, in, (size_t) size);
}

static const mqs_process_callbacks process_callbacks = {
    cb_get_global_rank, cb_get_image, cb_fetch_data, cb_target_to_host,
};

/* Run the private ompi_fill_in_type_info once with a recording image: its
 * ompi_field_offset fills fields[]; every type it asks for must have a
 * size in TYPE_SIZES. */
static mqs_type recorded_type = {"(recording)", 0};

static mqs_type *rec_find_type(mqs_image *image, char *name, mqs_lang_code lang)
{
    (void) image;
    (void) lang;
    for (int i = 0; i < NTYPES; i++) {
        if (0 == strcmp(TYPE_SIZES[i].name, name)) {
            return &recorded_type;
        }
    }
    FAIL("ompi_common_dll.c asks for type %s, which has no size in TYPE_SIZES", name);
    return &recorded_type;
}

static int rec_field_offset(mqs_type *type, char *field)
{
    (void) type;
    (void) field;
    return 0;
}

static int rec_sizeof(mqs_type *type)
{
    (void) type;
    return 0;
}

static const mqs_image_callbacks record_callbacks = {
    cb_get_type_sizes, cb_find_function, cb_find_symbol,
    rec_find_type, rec_field_offset, rec_sizeof,
};

static void record_types(void)
{
    mpi_image_info info;
    mqs_image image;
    char *message = NULL;

    memset(&info, 0, sizeof(info));
    info.image_callbacks = &record_callbacks;
    image.info = (mqs_image_info *) &info;
    msgq_check_basic_entrypoints = &basic_callbacks;
    if (mqs_ok != msgq_check_fill_in_type_info(&image, &message) || 0 == nfields) {
        FAIL("recording the field offsets failed (%s)", message ? message : "no fields");
    }
}

/* ---- the library ---- */

static struct {
    __typeof__(&mqs_setup_basic_callbacks) setup_basic_callbacks;
    __typeof__(&mqs_version_compatibility) version_compatibility;
    __typeof__(&mqs_version_string) version_string;
    __typeof__(&mqs_dll_taddr_width) dll_taddr_width;
    __typeof__(&mqs_dll_error_string) dll_error_string;
    __typeof__(&mqs_setup_image) setup_image;
    __typeof__(&mqs_image_has_queues) image_has_queues;
    __typeof__(&mqs_destroy_image_info) destroy_image_info;
    __typeof__(&mqs_setup_process) setup_process;
    __typeof__(&mqs_destroy_process_info) destroy_process_info;
    __typeof__(&mqs_process_has_queues) process_has_queues;
    __typeof__(&mqs_update_communicator_list) update_communicator_list;
    __typeof__(&mqs_setup_communicator_iterator) setup_communicator_iterator;
    __typeof__(&mqs_get_communicator) get_communicator;
    __typeof__(&mqs_get_comm_group) get_comm_group;
    __typeof__(&mqs_next_communicator) next_communicator;
    __typeof__(&mqs_setup_operation_iterator) setup_operation_iterator;
    __typeof__(&mqs_next_operation) next_operation;
} dll;

static mqs_image the_image;
static mqs_process the_process = {&the_image, NULL};
static bool dll_ready;   /* the library accepted image and process */

static const char *dll_error(int rc)
{
    switch (rc) {
    case mqs_ok:
        return "mqs_ok";
    case mqs_no_information:
        return "mqs_no_information";
    case mqs_end_of_list:
        return "mqs_end_of_list";
    default:
        return dll.dll_error_string ? dll.dll_error_string(rc) : "?";
    }
}

static bool load_dll(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (NULL == h) {
        FAIL("cannot dlopen %s: %s", path, dlerror());
        return false;
    }
#define LOAD(f)                                                             \
    do {                                                                    \
        dll.f = (__typeof__(dll.f)) dlsym(h, "mqs_" #f);                    \
        if (NULL == dll.f) {                                                \
            FAIL("%s has no mqs_" #f, path);                                \
            return false;                                                   \
        }                                                                   \
    } while (0)
    LOAD(dll_error_string);
    LOAD(setup_basic_callbacks);
    LOAD(version_compatibility);
    LOAD(version_string);
    LOAD(dll_taddr_width);
    LOAD(setup_image);
    LOAD(image_has_queues);
    LOAD(destroy_image_info);
    LOAD(setup_process);
    LOAD(destroy_process_info);
    LOAD(process_has_queues);
    LOAD(update_communicator_list);
    LOAD(setup_communicator_iterator);
    LOAD(get_communicator);
    LOAD(get_comm_group);
    LOAD(next_communicator);
    LOAD(setup_operation_iterator);
    LOAD(next_operation);
#undef LOAD
    if (MQS_INTERFACE_COMPATIBILITY != dll.version_compatibility()) {
        FAIL("interface version %d, expected %d", dll.version_compatibility(),
             (int) MQS_INTERFACE_COMPATIBILITY);
        return false;
    }
    if ((int) sizeof(mqs_taddr_t) != dll.dll_taddr_width()) {
        FAIL("address width %d, expected %d", dll.dll_taddr_width(), (int) sizeof(mqs_taddr_t));
        return false;
    }
    return true;
}

/* What a debugger does once it has stopped the process. */
static void attach(void)
{
    char *msg = NULL;
    int rc;

    dll.setup_basic_callbacks(&basic_callbacks);
    rc = dll.setup_image(&the_image, &image_callbacks);
    if (mqs_ok != rc) {
        FAIL("mqs_setup_image: %s", dll_error(rc));
        return;
    }
    rc = dll.image_has_queues(&the_image, &msg);
    if (mqs_ok != rc) {
        FAIL("mqs_image_has_queues: %s (%s)", dll_error(rc), msg ? msg : "");
        return;
    }
    rc = dll.setup_process(&the_process, &process_callbacks);
    if (mqs_ok != rc) {
        FAIL("mqs_setup_process: %s (symbol not found: %s)", dll_error(rc),
             missing_symbol[0] ? missing_symbol : "none");
        return;
    }
    missing_symbol[0] = '\0';
    rc = dll.process_has_queues(&the_process, &msg);
    if (mqs_ok != rc) {
        FAIL("mqs_process_has_queues: %s (symbol not found: %s)", dll_error(rc),
             missing_symbol[0] ? missing_symbol : "none");
        return;
    }
    dll_ready = true;
}

/* ---- the truth ---- */

#define MAX_KNOWN 128
typedef struct {
    MPI_Comm comm;
    char name[MPI_MAX_OBJECT_NAME];
    unsigned cid;
    int rank, size;
    int *world_ranks;   /* of the local group; NULL for MPI_COMM_NULL */
    bool live;
} known_t;
static known_t known[MAX_KNOWN];
static int nknown;

static known_t *track(MPI_Comm comm, const char *name)
{
    known_t *k = &known[nknown++];
    ompi_communicator_t *c = (ompi_communicator_t *) comm;

    if (nknown > MAX_KNOWN) {
        fprintf(stderr, "msgq_dll_check: MAX_KNOWN too small\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    k->comm = comm;
#if OPAL_MAJOR_VERSION >= 5
    k->cid = c->c_index;   /* 5.0: the DLL's unique_id is the local index */
#else
    k->cid = c->c_contextid;
#endif
    k->live = true;
    k->world_ranks = NULL;
    if (MPI_COMM_NULL == comm) {   /* no MPI calls allowed on it */
        memcpy(k->name, c->c_name, sizeof(k->name) - 1);
        k->name[sizeof(k->name) - 1] = '\0';
        k->rank = c->c_my_rank;
        k->size = c->c_local_group->grp_proc_count;
        return k;
    }
    if (NULL != name) {
        MPI_Comm_set_name(comm, name);
    }
    int len;
    MPI_Comm_get_name(comm, k->name, &len);
    MPI_Comm_rank(comm, &k->rank);
    MPI_Comm_size(comm, &k->size);

    MPI_Group g, wg;
    int *ranks = malloc(sizeof(int) * (size_t) k->size);
    k->world_ranks = malloc(sizeof(int) * (size_t) k->size);
    for (int i = 0; i < k->size; i++) {
        ranks[i] = i;
    }
    MPI_Comm_group(comm, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_translate_ranks(g, k->size, ranks, wg, k->world_ranks);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    free(ranks);
    return k;
}

static void untrack(known_t *k)
{
    MPI_Comm_free(&k->comm);
    k->live = false;
}

static known_t *dup_world(const char *name)
{
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    return track(c, name);
}

/* ---- what the library lists ---- */

#define MAX_LISTED 256
typedef struct {
    mqs_communicator info;
    int group_rc;
    int *members;
} listed_t;

/* A difference from the truth: counted in the caller's `bad`; fails the
 * test when the caller is `strict`, else printed as a probe line. */
#define DIFF(...)                                                                  \
    do {                                                                           \
        bad++;                                                                     \
        if (strict) {                                                              \
            FAIL(__VA_ARGS__);                                                     \
        } else {                                                                   \
            say(__VA_ARGS__);                                                      \
        }                                                                          \
    } while (0)

/* Compare the library's list with the live entries of known[].  Prints
 * each difference as "<label>: <difference>" through FAIL (strict) or as a
 * plain line (probe) and returns how many it found; -1 if the library
 * failed. */
static int check_list(const char *label, bool strict, unsigned *max_cid, int *count)
{
    static listed_t listed[MAX_LISTED];
    int n = 0, rc, bad = 0;
    bool seen[MAX_KNOWN] = {false};

    rc = dll.update_communicator_list(&the_process);
    if (mqs_ok != rc) {
        FAIL("%s: mqs_update_communicator_list: %s", label, dll_error(rc));
        return -1;
    }
    for (rc = dll.setup_communicator_iterator(&the_process); mqs_ok == rc;
         rc = dll.next_communicator(&the_process)) {
        if (n == MAX_LISTED) {
            FAIL("%s: the library lists more than %d communicators", label, MAX_LISTED);
            return -1;
        }
        listed_t *l = &listed[n++];
        rc = dll.get_communicator(&the_process, &l->info);
        if (mqs_ok != rc) {
            FAIL("%s: mqs_get_communicator: %s", label, dll_error(rc));
            return -1;
        }
        l->info.name[sizeof(l->info.name) - 1] = '\0';
        for (char *ch = l->info.name; *ch; ch++) {   /* printable in the report */
            if (!isprint((unsigned char) *ch)) {
                *ch = '?';
            }
        }
        l->members = NULL;
        l->group_rc = -1;
        if (l->info.size > 0 && l->info.size <= 4096) {
            l->members = malloc(sizeof(int) * (size_t) l->info.size);
            l->group_rc = dll.get_comm_group(&the_process, l->members);
        }
    }
    if (mqs_end_of_list != rc) {
        FAIL("%s: communicator iterator ended with %s", label, dll_error(rc));
        return -1;
    }

    *max_cid = 0;
    for (int i = 0; i < n; i++) {
        listed_t *l = &listed[i];
        unsigned cid = (unsigned) l->info.unique_id;
        known_t *k = NULL, *freed = NULL;

        if (cid > *max_cid) {
            *max_cid = cid;
        }
        for (int j = 0; j < nknown; j++) {
            if (known[j].cid != cid) {
                continue;
            }
            if (known[j].live) {
                k = &known[j];
                if (seen[j]) {
                    DIFF("%s: CID %u (%s) listed more than once", label, cid, k->name);
                }
                seen[j] = true;
            } else {
                freed = &known[j];
            }
        }
        if (NULL == k) {
            if (NULL != freed) {
                DIFF("%s: freed communicator CID %u (%s) listed (as '%s')", label, cid,
                     freed->name, l->info.name);
            } else {
                DIFF("%s: unknown communicator CID %u listed (name '%s', rank %ld, size %ld)",
                     label, cid, l->info.name, (long) l->info.local_rank, (long) l->info.size);
            }
            continue;
        }
        if (0 != strncmp(k->name, l->info.name, sizeof(l->info.name))) {
            DIFF("%s: CID %u listed with name '%s', expected '%s'", label, cid, l->info.name,
                 k->name);
        }
        /* (int): the library reads an int without sign extension, so
         * MPI_COMM_NULL's rank (-2) comes as 4294967294 */
        if ((int) l->info.local_rank != k->rank || l->info.size != k->size) {
            DIFF("%s: CID %u (%s) listed with local rank %d, size %ld; expected rank %d, "
                 "size %d", label, cid, k->name, (int) l->info.local_rank,
                 (long) l->info.size, k->rank, k->size);
        } else if (k->size > 0) {
            if (mqs_ok != l->group_rc) {
                DIFF("%s: CID %u (%s): mqs_get_comm_group: %s", label, cid, k->name,
                     dll_error(l->group_rc));
            } else {
                for (int r = 0; r < k->size; r++) {
                    if (l->members[r] != k->world_ranks[r]) {
                        DIFF("%s: CID %u (%s): local rank %d is MPI_COMM_WORLD rank %d for "
                             "the library, expected %d", label, cid, k->name, r,
                             l->members[r], k->world_ranks[r]);
                        break;
                    }
                }
            }
        }
    }
    int expected = 0;
    for (int j = 0; j < nknown; j++) {
        if (known[j].live) {
            expected++;
            if (!seen[j]) {
                DIFF("%s: live communicator CID %u (%s) not listed", label, known[j].cid,
                     known[j].name);
            }
        }
    }
    for (int i = 0; i < n; i++) {
        free(listed[i].members);
    }
    *count = n;
    if (strict) {
        say("%s: listed %d communicators (CIDs 0-%u), expected %d, %s", label, n, *max_cid,
            expected, bad ? "MISMATCH" : "all match");
    }
    return bad;
}

static void strict_round(const char *label)
{
    unsigned max_cid;
    int n;
    if (dll_ready) {
        (void) check_list(label, true, &max_cid, &n);
    }
}

/* The table the library reads (exported by libmpi), for the probes'
 * explanations; NULL when this libmpi does not export it. */
static void table_counters(char *buf, size_t len)
{
    opal_pointer_array_t *t = dlsym(RTLD_DEFAULT, "ompi_comm_store_debugger_comms");
    if (NULL == t) {
        snprintf(buf, len, "?");
    } else {
        snprintf(buf, len, "lowest_free=%d number_free=%d size=%d", t->lowest_free,
                 t->number_free, t->size);
    }
}

static void probe(const char *label, const char *before)
{
    unsigned max_cid;
    int n, bad;
    char after[128];

    if (!dll_ready) {
        return;
    }
    table_counters(after, sizeof(after));
    bad = check_list(label, false, &max_cid, &n);
    if (0 == bad) {
        say("probe %s: up to date (listed %d communicators)", label, n);
    } else if (bad > 0) {
        say("probe %s: STALE (%d differences; table before %s, after %s)", label, bad, before,
            after);
    }
}

/* ---- pending receive ---- */

/* Post an MPI_Irecv of 4 ints from the next local rank on k, check that
 * the pending-receive iterator lists it on k's CID (tag, source, status,
 * buffer, length) and on no other communicator, then cancel it.  Strict:
 * differences fail the test; else they make a probe line. */
static void check_pending_receive(const char *label, bool strict, known_t *k, int tag)
{
    int buf[4] = {0}, cancelled = 0, peer = (k->rank + 1) % k->size;
    int rc, found = 0, bad = 0;
    MPI_Request req;
    MPI_Status st;

    MPI_Irecv(buf, 4, MPI_INT, peer, tag, k->comm, &req);
    if (!dll_ready) {
        goto out;
    }
    rc = dll.update_communicator_list(&the_process);
    if (mqs_ok != rc) {
        FAIL("%s: mqs_update_communicator_list: %s", label, dll_error(rc));
        goto out;
    }
    for (rc = dll.setup_communicator_iterator(&the_process); mqs_ok == rc;
         rc = dll.next_communicator(&the_process)) {
        mqs_communicator c;
        mqs_pending_operation op;

        if (mqs_ok != dll.get_communicator(&the_process, &c)) {
            FAIL("%s: mqs_get_communicator failed", label);
            goto out;
        }
        c.name[sizeof(c.name) - 1] = '\0';
        rc = dll.setup_operation_iterator(&the_process, mqs_pending_receives);
        if (mqs_ok != rc) {
            FAIL("%s: mqs_setup_operation_iterator: %s", label, dll_error(rc));
            goto out;
        }
        while (mqs_ok == (rc = dll.next_operation(&the_process, &op))) {
            if (op.tag_wild || op.desired_tag != tag) {
                continue;
            }
            if (c.unique_id != k->cid) {
                DIFF("%s: receive with tag %d listed on CID %lu ('%s'), posted on CID %u (%s)",
                     label, tag, (unsigned long) c.unique_id, c.name, k->cid, k->name);
                continue;
            }
            found++;
            if (op.desired_local_rank != peer || op.status != mqs_st_pending
                || op.buffer != (mqs_taddr_t) (uintptr_t) buf
                || op.desired_length != (mqs_tword_t) sizeof(buf)) {
                DIFF("%s: receive listed with source %ld, status %d, buffer %#lx, length %ld; "
                     "expected %d, %d (pending), %p, %d", label, (long) op.desired_local_rank,
                     op.status, (unsigned long) op.buffer, (long) op.desired_length, peer,
                     (int) mqs_st_pending, (void *) buf, (int) sizeof(buf));
            }
        }
        if (mqs_end_of_list != rc) {
            FAIL("%s: operation iterator ended with %s", label, dll_error(rc));
        }
    }
    if (1 != found) {
        DIFF("%s: the MPI_Irecv on %s (CID %u) tag %d listed %d times on its communicator",
             label, k->name, k->cid, tag, found);
    }
    if (strict && 0 == bad) {
        say("pending receive on %s (CID %u) tag %d from %d: listed", k->name, k->cid, tag, peer);
    } else if (!strict) {
        if (0 == bad) {
            say("probe %s: up to date (receive on %s, CID %u, listed)", label, k->name, k->cid);
        } else {
            say("probe %s: STALE (%d differences)", label, bad);
        }
    }
out:
    MPI_Cancel(&req);
    MPI_Wait(&req, &st);
    MPI_Test_cancelled(&st, &cancelled);
    if (!cancelled) {
        FAIL("%s: MPI_Irecv could not be cancelled", label);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- scenario ---- */

int main(int argc, char **argv)
{
    known_t *dups[40], *news[4], *split_rev, *k;
    char name[MPI_MAX_OBJECT_NAME], before[128];
    MPI_Comm c;
    int i;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    if (argc != 2) {
        if (0 == world_rank) {
            fprintf(stderr, "usage: msgq_dll_check PATH/libompi_dbg_msgq.so\n");
        }
        MPI_Finalize();
        return 2;
    }

    record_types();
    track(MPI_COMM_WORLD, NULL);
    track(MPI_COMM_SELF, NULL);
    track(MPI_COMM_NULL, NULL);

    /* round 1 */
    for (i = 0; i < 40; i++) {
        snprintf(name, sizeof(name), "dup-%02d", i);
        dups[i] = dup_world(name);
    }
    MPI_Comm_split(MPI_COMM_WORLD, 0, world_size - world_rank, &c);
    split_rev = track(c, "split-rev");
    for (i = 1; i < 40; i += 2) {
        untrack(dups[i]);
    }
    if (load_dll(argv[1])) {
        if (0 == world_rank) {
            printf("msgq: %s\n", dll.version_string());
        }
        attach();
    }
    strict_round("round 1");

    /* round 2: the table's counters change (5 freed, 4 created).  Only dups
     * of MPI_COMM_WORLD: with dense CIDs they reuse CIDs the library knows
     * (see the probes), and they share MPI_COMM_WORLD's group. */
    for (i = 0; i < 20; i += 4) {
        untrack(dups[i]);
    }
    for (i = 0; i < 4; i++) {
        snprintf(name, sizeof(name), "new-%d", i);
        news[i] = dup_world(name);
    }
    strict_round("round 2");

    /* a pending receive on the reversed split, from its other end */
    check_pending_receive("receive", true, split_rev, 77);

    /* probe receive-new: a receive on the first new dup */
    check_pending_receive("receive-new", false, news[0], 78);

    /* probe free+create: the new communicator takes the freed slot */
    k = NULL;
    for (i = 0; i < 40 && NULL == k; i++) {
        if (dups[i]->live) {
            k = dups[i];
        }
    }
    table_counters(before, sizeof(before));
    untrack(k);
    k = dup_world("swap-new");
    probe("free+create", before);

    /* probe cid-reuse: only MPI_COMM_WORLD, SELF and NULL left, then a
     * 1-process communicator */
    table_counters(before, sizeof(before));
    for (i = 3; i < nknown; i++) {
        if (known[i].live) {
            untrack(&known[i]);
        }
    }
    MPI_Comm_split(MPI_COMM_WORLD, world_rank, 0, &c);
    k = track(c, "solo");
    probe("cid-reuse", before);
    untrack(k);

    if (dll_ready) {
        dll.destroy_process_info(the_process.info);
        dll.destroy_image_info(the_image.info);
    }
    for (i = 0; i < nknown; i++) {
        free(known[i].world_ranks);
    }

    int any;
    MPI_Allreduce(&failures, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (0 != failures) {
        say("FAILED (%d problems)", failures);
    } else if (0 == world_rank && 0 == any) {
        printf("msgq: OK on %d ranks\n", world_size);
    }
    MPI_Finalize();
    return 0 != failures || 0 != any ? 1 : 0;
}
