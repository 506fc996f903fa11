/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * pml/zcomp's files, kept apart from the cost model (pml_zcomp_model.c) the
 * way coll/tuned keeps its rules file apart from its decisions:
 *
 * - the decision file of the guided strategy (pml_zcomp_decision_file, one
 *   per process: ".<vpid>" appended): lines "<message class hash> <codec|raw>".
 *   A run that does not find its file traces the adaptive decisions and
 *   writes them at finalize; a later run follows them.
 *
 * - the calibration file (pml_zcomp_calibration_file, written by
 *   contrib/zcomp_calibrate.c): lines "<src vpid> <dst vpid> <MB/s>"; this
 *   process uses the lines whose source is itself.  "* <MB/s>" applies to
 *   every path.
 *
 * Threads: the guide table is only written while tracing, under the model's
 * lock (mca_pml_zcomp_guide_record's caller holds it); while following a
 * file it is read-only.  The calibration table is read-only after init.
 */
#include "ompi_config.h"
#include "opal/mca/common/suite/suite_compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/class/opal_hash_table.h"
#include "opal/util/show_help.h"
#include SUITE_RTE_H
#include "ompi/proc/proc.h"

#include "pml_zcomp.h"

/* ---------------------------------------------------------------- guide */

typedef struct zc_guide_t {
    uint64_t key;
    int8_t codec; /* wire id, 0 = raw, -1 = unknown */
} zc_guide_t;
static opal_hash_table_t zc_guide;
static bool zc_guide_ready = false;
static char *zc_guide_path = NULL;
bool mca_pml_zcomp_guide_tracing = false;

uint64_t mca_pml_zcomp_guide_key(int cls, int bucket, ompi_communicator_t *comm, int dst, int tag)
{
    uint64_t h = 1469598103934665603ull;
    const ompi_proc_t *proc = ompi_comm_peer_lookup(comm, dst);
    /* the peer by its vpid only: the jobid changes from run to run */
    uint64_t v[5] = {(uint64_t) cls, (uint64_t) bucket, (uint64_t) SUITE_COMM_INDEX(comm),
                     NULL == proc ? 0xffffffffu : (uint64_t) proc->super.proc_name.vpid,
                     (uint64_t) (uint32_t) tag};
    int i;
    for (i = 0; i < 5; i++) {
        h ^= v[i];
        h *= 1099511628211ull;
    }
    return h;
}

bool mca_pml_zcomp_guide_lookup(uint64_t key, const opal_compress_codec_t **codec)
{
    zc_guide_t *g = NULL;
    /* no decision file (guided-no-file said so): nothing to follow, the
     * model decides adaptively; the table was never constructed */
    if (!zc_guide_ready) {
        return false;
    }
    if (OPAL_SUCCESS != opal_hash_table_get_value_uint64(&zc_guide, key, (void **) &g)) {
        return false;
    }
    *codec = g->codec > 0 ? opal_compress_base_find_id((uint8_t) g->codec) : NULL;
    return true;
}

void mca_pml_zcomp_guide_record(uint64_t key, const opal_compress_codec_t *codec)
{
    zc_guide_t *g = NULL;
    if (!zc_guide_ready) {
        return;
    }
    if (OPAL_SUCCESS != opal_hash_table_get_value_uint64(&zc_guide, key, (void **) &g)) {
        g = malloc(sizeof(*g));
        if (NULL != g) {
            g->key = key;
            opal_hash_table_set_value_uint64(&zc_guide, key, g);
        }
    }
    if (NULL != g) {
        g->codec = (int8_t) (NULL == codec ? 0 : codec->id);
    }
}

void mca_pml_zcomp_guide_load(void)
{
    const char *base = mca_pml_zcomp.p.decision_file;
    FILE *f;
    char line[128];
    if (NULL == base || '\0' == base[0]) {
        opal_show_help("help-pml-zcomp.txt", "guided-no-file", true);
        return;
    }
    if (0 > asprintf(&zc_guide_path, "%s.%u", base, OMPI_PROC_MY_NAME->vpid)) {
        zc_guide_path = NULL;
        return;
    }
    OBJ_CONSTRUCT(&zc_guide, opal_hash_table_t);
    opal_hash_table_init(&zc_guide, 256);
    zc_guide_ready = true;
    f = fopen(zc_guide_path, "r");
    if (NULL == f) {
        mca_pml_zcomp_guide_tracing = true;
        ZC_VERBOSE(1, "zcomp: guided: %s does not exist: tracing, written at the end",
                   zc_guide_path);
        return;
    }
    while (NULL != fgets(line, sizeof(line), f)) {
        unsigned long long key;
        char name[32];
        zc_guide_t *g;
        if ('#' == line[0] || 2 != sscanf(line, "%llx %31s", &key, name)) {
            continue;
        }
        g = malloc(sizeof(*g));
        if (NULL == g) {
            break;
        }
        g->key = key;
        if (0 == strcmp(name, "raw")) {
            g->codec = 0;
        } else {
            const opal_compress_codec_t *c = opal_compress_base_find(name);
            g->codec = NULL == c ? 0 : (int8_t) c->id;
        }
        opal_hash_table_set_value_uint64(&zc_guide, key, g);
    }
    fclose(f);
    ZC_VERBOSE(1, "zcomp: guided: following %s (%zu decisions)", zc_guide_path,
               opal_hash_table_get_size(&zc_guide));
}

void mca_pml_zcomp_guide_save_and_free(void)
{
    uint64_t key;
    void *value, *node = NULL;
    FILE *f = NULL;
    if (!zc_guide_ready) {
        return;
    }
    if (mca_pml_zcomp_guide_tracing && NULL != zc_guide_path) {
        f = fopen(zc_guide_path, "w");
        if (NULL == f) {
            opal_show_help("help-pml-zcomp.txt", "bad-file", true, zc_guide_path,
                           strerror(errno), "pml_zcomp_decision_file");
        } else {
            fprintf(f, "# pml/zcomp decision file: <message class hash> <codec|raw>\n");
        }
    }
    if (OPAL_SUCCESS == opal_hash_table_get_first_key_uint64(&zc_guide, &key, &value, &node)) {
        do {
            zc_guide_t *g = value;
            if (NULL != f) {
                const opal_compress_codec_t *c = g->codec > 0
                                                     ? opal_compress_base_find_id((uint8_t) g->codec)
                                                     : NULL;
                fprintf(f, "%016llx %s\n", (unsigned long long) key, NULL == c ? "raw" : c->name);
            }
            free(g);
        } while (OPAL_SUCCESS
                 == opal_hash_table_get_next_key_uint64(&zc_guide, &key, &value, node, &node));
    }
    if (NULL != f) {
        fclose(f);
    }
    OBJ_DESTRUCT(&zc_guide);
    zc_guide_ready = false;
    free(zc_guide_path);
    zc_guide_path = NULL;
}

/* ---------------------------------------------------------------- calibration */

typedef struct zc_cal_t {
    uint32_t vpid;
    bool any;
    double bw;
} zc_cal_t;
static zc_cal_t *zc_cal = NULL;
static int zc_ncal = 0;

void mca_pml_zcomp_calibration_load(void)
{
    FILE *f;
    char line[256];
    const char *path = mca_pml_zcomp.p.calibration_file;
    if (NULL == path || '\0' == path[0]) {
        return;
    }
    f = fopen(path, "r");
    if (NULL == f) {
        opal_show_help("help-pml-zcomp.txt", "bad-file", true, path, strerror(errno),
                       "pml_zcomp_calibration_file");
        return;
    }
    while (NULL != fgets(line, sizeof(line), f)) {
        char a[32], b[32];
        double bw;
        zc_cal_t *n;
        bool any = false;
        uint32_t dst = 0;
        int k = sscanf(line, "%31s %31s %lf", a, b, &bw);
        if ('#' == line[0]) {
            continue;
        }
        if (3 == k) {
            if (strtoul(a, NULL, 10) != OMPI_PROC_MY_NAME->vpid) {
                continue;
            }
            dst = (uint32_t) strtoul(b, NULL, 10);
        } else if (2 == sscanf(line, "%31s %lf", a, &bw) && 0 == strcmp(a, "*")) {
            any = true;
        } else {
            continue;
        }
        if (bw <= 0) {
            continue;
        }
        n = realloc(zc_cal, (size_t) (zc_ncal + 1) * sizeof(*zc_cal));
        if (NULL == n) {
            break;
        }
        zc_cal = n;
        zc_cal[zc_ncal].any = any;
        zc_cal[zc_ncal].vpid = dst;
        zc_cal[zc_ncal].bw = bw * 1e6;
        zc_ncal++;
    }
    fclose(f);
    ZC_VERBOSE(5, "zcomp: %d path bandwidths from %s", zc_ncal, path);
}

double mca_pml_zcomp_calibrated(uint32_t vpid)
{
    int i;
    double any = 0;
    for (i = 0; i < zc_ncal; i++) {
        if (zc_cal[i].any) {
            any = zc_cal[i].bw;
        } else if (zc_cal[i].vpid == vpid) {
            return zc_cal[i].bw;
        }
    }
    return any;
}

void mca_pml_zcomp_calibration_free(void)
{
    free(zc_cal);
    zc_cal = NULL;
    zc_ncal = 0;
}
