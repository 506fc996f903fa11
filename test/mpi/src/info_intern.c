/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Info subscriptions keep their keys and default values once per process
 * (config/patches/<series>/0033-info-subscriber-interned.patch, issue
 * 38): every communicator subscribes to the same few keys, and each used
 * to keep its own copies.  On NOBJ subscriber objects, two subscriptions
 * each, whose key strings come from a buffer rewritten for every object
 * (so equal content, never an equal pointer): the heap the subscriptions
 * cost per object must be at most MAX_PER_OBJECT bytes (the two records;
 * with copies, each record also holds a key of 25-28 bytes and a value).
 * Every callback, at subscription and when the info is made
 * (opal_infosubscribe_change_info replays the records), must see the key
 * and value it was subscribed with, also on objects subscribed after the
 * first ones were freed.  Prints "info_intern: ok BYTES per object".
 */
#include "opal_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/class/opal_object.h"
#include "opal/runtime/opal.h"
#include "opal/util/info.h"
#include "opal/util/info_subscriber.h"

#include "heap_counter.h"

#define NOBJ 64
#define MAX_PER_OBJECT 200

static const char *keys[2] = {"mpi_assert_no_any_source", "mpi_assert_allow_overtaking"};
static const char *vals[2] = {"false", "true"};
static int calls, errs;

#if OPAL_MAJOR_VERSION < 5
static char *cb(opal_infosubscriber_t *obj, char *key, char *value)
#else
static const char *cb(opal_infosubscriber_t *obj, const char *key, const char *value)
#endif
{
    int k = 0 == strcmp(key, keys[0]) ? 0 : 0 == strcmp(key, keys[1]) ? 1 : -1;
    (void) obj;
    calls++;
    if (k < 0 || NULL == value || 0 != strcmp(value, vals[k])) {
        fprintf(stderr, "info_intern: callback got key \"%s\" value \"%s\"\n", key,
                value ? value : "(null)");
        errs++;
    }
    return value;
}

/* subscribe NOBJ objects; returns the heap the subscriptions cost */
static long long batch(opal_infosubscriber_t **o)
{
    char kbuf[2][64], vbuf[2][16];
    long long h0, bytes = 0;
    for (int i = 0; i < NOBJ; i++) {
        o[i] = OBJ_NEW(opal_infosubscriber_t);
        o[i]->s_info = NULL; /* its owner's constructor sets it (ompi_comm_construct) */
        for (int k = 0; k < 2; k++) {
            snprintf(kbuf[k], sizeof(kbuf[k]), "%s", keys[k]);
            snprintf(vbuf[k], sizeof(vbuf[k]), "%s", vals[k]);
        }
        h0 = heap_cur;
        for (int k = 0; k < 2; k++) {
            if (OPAL_SUCCESS != opal_infosubscribe_subscribe(o[i], kbuf[k], vbuf[k], cb)) {
                fprintf(stderr, "info_intern: subscribe failed\n");
                errs++;
            }
            /* the caller's buffers are its own: reuse them */
            memset(kbuf[k], 'x', sizeof(kbuf[k]) - 1);
            memset(vbuf[k], 'y', sizeof(vbuf[k]) - 1);
        }
        bytes += heap_cur - h0;
    }
    return bytes;
}

int main(int argc, char **argv)
{
    opal_infosubscriber_t *a[NOBJ], *b[NOBJ];
    long long bytes;
    int want;

    if (OPAL_SUCCESS != opal_init_util(&argc, &argv)) {
        fprintf(stderr, "info_intern: opal_init_util failed\n");
        return 1;
    }
    bytes = batch(a);
    want = 2 * NOBJ;
    /* make the infos: each record is replayed */
    for (int i = 0; i < NOBJ; i++) {
        opal_info_t *info = OBJ_NEW(opal_info_t);
        opal_infosubscribe_change_info(a[i], info);
        OBJ_RELEASE(info);
        want += 2;
    }
    for (int i = 0; i < NOBJ; i++) {
        OBJ_RELEASE(a[i]);
    }
    /* records made after the first ones were freed */
    (void) batch(b);
    want += 2 * NOBJ;
    for (int i = 0; i < NOBJ; i++) {
        opal_info_t *info = OBJ_NEW(opal_info_t);
        opal_infosubscribe_change_info(b[i], info);
        OBJ_RELEASE(info);
        OBJ_RELEASE(b[i]);
        want += 2;
    }
    if (calls != want) {
        fprintf(stderr, "info_intern: %d callbacks, expected %d\n", calls, want);
        errs++;
    }
    if (bytes / NOBJ > MAX_PER_OBJECT) {
        fprintf(stderr, "info_intern: two subscriptions cost %lld bytes per object (at most %d: "
                "the records alone; are keys and values copied per object?)\n", bytes / NOBJ,
                MAX_PER_OBJECT);
        errs++;
    }
    opal_finalize_util();
    if (0 == errs) {
        printf("info_intern: ok %lld per object\n", bytes / NOBJ);
    }
    return 0 != errs;
}
