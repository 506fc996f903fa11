/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * pml/zcomp decisions: the seed's cost model with measured inputs.
 *
 * For a message of S bytes in class (datatype class, size bucket), codec c
 * with measured ratio r, compression speed Vc and decompression speed Vd,
 * and the path's bandwidth B:
 *   raw time           T_raw = S / B
 *   pipelined time     T_z   = S / min(Vc, Vd, r B) + C / Vc + C / Vd
 * where C = min(S, chunk size) is the pipeline's fill and drain; a single
 * chunk (S <= C) costs S/Vc + S/(r B) + S/Vd.  The sender compresses with
 * the codec of best T_raw / T_z when that is at least pml_zcomp_min_gain.
 * r, Vc, Vd per class and codec come from sampling (the first 64 KB of a
 * message compressed and decompressed by every candidate) and from every
 * chunk sent.  A class is sampled on its first message, and again whenever
 * its sampling credit allows: every decision earns pml_zcomp_sample_budget
 * of the message's predicted transfer time, a sample spends what it took.
 * So re-sampling costs a bounded share of the time, on any data and size,
 * and large messages (whose sample is cheap beside their transfer) are
 * re-sampled often enough to follow data that changes from message to
 * message.  A chunk whose ratio departs far from the class's figure (either
 * way: a class may inherit a choice made on other data) asks for a sample
 * early, within a bounded debt.  B per peer comes from pml_zcomp_path_bandwidth, or
 * is learned from completed transfers, seeded by the calibration file, the
 * BTL's advertised bandwidth or pml_zcomp_default_bandwidth.
 *
 * The calibration file and the guided strategy's decision file are read and
 * written in pml_zcomp_guide.c.
 */
#include "ompi_config.h"
#include "opal/mca/common/suite/suite_compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stddef.h>

#include "opal/class/opal_hash_table.h"
#include "opal/datatype/opal_datatype_internal.h"
#include SUITE_PMIX_H
#include "opal/util/show_help.h"
#include "ompi/mca/bml/bml.h"
#include "ompi/mca/bml/base/base.h"
#include "ompi/proc/proc.h"
#include SUITE_RTE_H

#include "pml_zcomp.h"
#include "pml_zcomp_wire.h"

#define ZC_SAMPLE (64 * 1024)
#define ZC_ALPHA 0.25
#define ZC_SHIFT 1.3 /* see zc_ratio_shifted */
/* a class whose data changed may sample early, up to this many samples'
 * cost in debt (bounds re-sampling when the data alternates) */
#define ZC_DEBT 4.0

typedef struct zc_cstat_t {
    double ratio, vc, vd; /* vc, vd in bytes/s */
    int n;
} zc_cstat_t;

typedef struct zc_class_t {
    zc_cstat_t c[ZC_MAX_CANDIDATES];
    double credit;      /* seconds of sampling earned and not spent */
    double sample_cost; /* seconds the last sample took */
    bool measured;      /* sampled at least once */
    bool changed;       /* a chunk's ratio says the data changed */
    bool sampling;      /* a thread is sampling this class now */
} zc_class_t;

typedef struct zc_peer_t {
    const ompi_proc_t *proc;
    double bw;      /* bytes/s; read without the lock (zc_load_d) */
    int samples;    /* transfers that moved bw (0: bw is still the prior) */
    bool remote;    /* on another node: the estimate may fall (note_transfer) */
    double low;     /* a timed transfer slower than bw, not yet confirmed (0: none) */
    double probe_credit; /* seconds a raw probe may cost (zc_probe) */
    double timed;   /* the estimate after the last timed sample (0: none yet) */
    int since_probe; /* messages the model compressed since the last probe */
    bool probe_now; /* a lower bound passed the last timed figure: probe next */
    /* per candidate codec: compressed transfers' measured / predicted
     * time (0: not measured) and the estimate it was measured at */
    double eff[ZC_MAX_CANDIDATES], eff_bw[ZC_MAX_CANDIDATES];
    int since_recheck; /* messages sent raw because of eff since the last recheck */
    /* per codec, its last timed compressed transfer (note_coded), to
     * measure its eff again against a risen estimate (note_transfer) */
    bool lc_valid[ZC_MAX_CANDIDATES];
    int lc_cls[ZC_MAX_CANDIDATES], lc_bucket[ZC_MAX_CANDIDATES];
    double lc_bytes[ZC_MAX_CANDIDATES], lc_secs[ZC_MAX_CANDIDATES];
    bool eff_derived[ZC_MAX_CANDIDATES]; /* eff came from lc_*, not measured at eff_bw */
    double eff_low[ZC_MAX_CANDIDATES]; /* the lowest sample since eff_bw (0: none) */
    bool zcomp;     /* it decodes marked messages of our wire version */
    size_t mark_room; /* largest marked payload ob1 sends eagerly to it */
} zc_peer_t;

/*
 * Threads (MPI_THREAD_MULTIPLE): zc_model_lock guards the class statistics,
 * the peer table and the guide table (pml_zcomp_guide.c) while tracing.  Three values are read on the fast
 * path without it, each a single aligned word written under it with atomic
 * stores: zc_last_peer, a peer's bw and zc_fastest_codec.  Peer entries are
 * complete before they are published and live until finalize.  A sample
 * runs outside the lock, in buffers of its own, while the class's sampling
 * flag keeps a second thread from sampling the same class.  Without
 * MPI_THREAD_MULTIPLE, OPAL_THREAD_LOCK costs one test.
 */
static opal_mutex_t zc_model_lock;

static inline double zc_load_d(const double *p)
{
    double v;
    __atomic_load(p, &v, __ATOMIC_RELAXED);
    return v;
}

static inline void zc_store_d(double *p, double v)
{
    __atomic_store(p, &v, __ATOMIC_RELAXED);
}

static zc_class_t zc_classes[ZC_NUM_CLASSES][ZC_NUM_SIZE_BUCKETS];
static opal_hash_table_t zc_peers;
static bool zc_peers_ready = false;
/* The peer of the last lookup: most programs send to the same peer many
 * times in a row.  One pointer, so a concurrent reader sees a whole entry. */
static zc_peer_t *zc_last_peer = NULL;
/* Upper bound on the speed (min of compress and decompress) any codec has
 * reached or is assumed to reach, over every class: a path faster than
 * this (times min_gain) is sent raw without looking at the class.  It only
 * rises, so it stays a bound when a class slows down. */
static double zc_fastest_codec = 0;
/* The slowest path (B, bytes/s) a ZC_PEER_FAST code was given for, since
 * the last reset (under the model lock): once zc_fastest_codec reaches
 * it, those codes may be wrong and are reset.  A change that lowers a
 * peer's bandwidth estimate must reset them too. */
static double zc_fast_bw_min = HUGE_VAL;

/* The fastest codec's speed rose to v (under the model lock). */
static void zc_fastest_raise(double v)
{
    zc_store_d(&zc_fastest_codec, v);
    if (v >= zc_fast_bw_min * mca_pml_zcomp.p.min_gain) {
        ZC_VERBOSE(5, "zcomp: a codec reached %.0f MB/s, as fast as a path sent raw as faster "
                   "than every codec (%.0f MB/s): such peers are decided per message again",
                   v / 1e6, zc_fast_bw_min / 1e6);
        zc_fast_bw_min = HUGE_VAL;
        mca_pml_zcomp_codes_reset_fast();
    }
}

static const char *zc_class_names[ZC_NUM_CLASSES] = {"bytes", "int32", "int64", "float",
                                                     "double", "mixed"};

/* The codecs a class may use (opal_compress_codec_t.datatypes). */
static const uint32_t zc_class_mask[ZC_NUM_CLASSES] = {
    OPAL_COMPRESS_DT_BYTES, OPAL_COMPRESS_DT_INT32, OPAL_COMPRESS_DT_INT64,
    OPAL_COMPRESS_DT_FLOAT, OPAL_COMPRESS_DT_DOUBLE, OPAL_COMPRESS_DT_BYTES};

static inline bool zc_suits(int j, int cls)
{
    return 0 != (mca_pml_zcomp.cand[j]->datatypes & zc_class_mask[cls]);
}

const char *mca_pml_zcomp_class_name(int cls)
{
    return zc_class_names[cls];
}

static int zc_class_of(ompi_datatype_t *dtype)
{
    uint32_t u = dtype->super.bdt_used;
    if (0 == u) {
        return 0;
    }
    if (0 == (u & ~((1u << OPAL_DATATYPE_INT4) | (1u << OPAL_DATATYPE_UINT4)))) {
        return 1;
    }
    if (0 == (u & ~((1u << OPAL_DATATYPE_INT8) | (1u << OPAL_DATATYPE_UINT8)
                    | (1u << OPAL_DATATYPE_LONG) | (1u << OPAL_DATATYPE_UNSIGNED_LONG)))) {
        return 2;
    }
    if (u == (1u << OPAL_DATATYPE_FLOAT4)) {
        return 3;
    }
    if (u == (1u << OPAL_DATATYPE_FLOAT8)) {
        return 4;
    }
    if (0 == (u & ~((1u << OPAL_DATATYPE_INT1) | (1u << OPAL_DATATYPE_UINT1)
                    | (1u << OPAL_DATATYPE_BOOL)))) {
        return 0;
    }
    return 5;
}

static int zc_bucket_of(size_t bytes)
{
    /* floor(log2(bytes)) - 11: 2 KB and below share bucket 0 */
    int b = bytes > 1 ? (int) (sizeof(unsigned long long) * 8 - 1)
                            - __builtin_clzll((unsigned long long) bytes) - 11
                      : 0;
    if (b < 0) {
        b = 0;
    }
    if (b >= ZC_NUM_SIZE_BUCKETS) {
        b = ZC_NUM_SIZE_BUCKETS - 1;
    }
    return b;
}

/* ---------------------------------------------------------------- peers */

static uint64_t zc_peer_key(const ompi_proc_t *proc)
{
    return ((uint64_t) proc->super.proc_name.jobid << 32) | proc->super.proc_name.vpid;
}

/* The wire version proc published, if any.  4.1's ORTE gives every process
 * the whole modex at MPI_Init's fence, so only that data is looked at
 * (OPTIONAL): a direct fetch of a key that was never published would wait
 * for ever.  Under 5.0's PRRTE a client holds no other node's data (OPTIONAL
 * and IMMEDIATE gets miss keys that were published, measured 2026-11-30
 * with PRRTE 3.0.8 and PMIx 5.0.5), so the key is fetched, with a time
 * limit for a peer that never published it: ZC_MODEX_FETCH_S seconds, once
 * per such peer, which is told to the user anyway (peer-without-zcomp). */
#define ZC_MODEX_FETCH_S 2
static int zc_peer_wire_version(const ompi_proc_t *proc, uint32_t *v)
{
#if SUITE_OMPI_5
    pmix_proc_t pp;
    pmix_info_t info;
    pmix_value_t *kv = NULL;
    int secs = ZC_MODEX_FETCH_S;
    pmix_status_t prc;
    OPAL_PMIX_CONVERT_NAME(&pp, &proc->super.proc_name);
    PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &secs, PMIX_INT);
    prc = PMIx_Get(&pp, ZC_MODEX_KEY, &info, 1, &kv);
    PMIX_INFO_DESTRUCT(&info);
    if (PMIX_SUCCESS == prc && NULL != kv && PMIX_UINT32 == kv->type) {
        *v = kv->data.uint32;
        PMIX_VALUE_RELEASE(kv);
        return OPAL_SUCCESS;
    }
    if (NULL != kv) {
        PMIX_VALUE_RELEASE(kv);
    }
    return OPAL_ERR_NOT_FOUND;
#else
    uint32_t *pv = v;
    int rc;
    OPAL_MODEX_RECV_VALUE_OPTIONAL(rc, ZC_MODEX_KEY, &proc->super.proc_name, &pv, OPAL_UINT32);
    return rc;
#endif
}

/* Does this peer decode our marked messages?  A process with zcomp off (or
 * another wire version, or a PML without marked messages) would take the
 * header and compressed bytes for the data: it published nothing, so it
 * gets everything raw. */
static bool zc_peer_has_zcomp(const ompi_proc_t *proc, int dst)
{
    static int32_t warned = 0;
    uint32_t v = 0;
    int rc;
    if (proc == ompi_proc_local()) {
        return true;
    }
    rc = zc_peer_wire_version(proc, &v);
    if (OPAL_SUCCESS == rc && ZC_VERSION == v) {
        return true;
    }
    ZC_VERBOSE(1, "zcomp: peer %d (%s) %s: messages to it are sent raw", dst,
               OMPI_NAME_PRINT(&proc->super.proc_name),
               OPAL_SUCCESS == rc ? "speaks another zcomp wire version"
                                  : "did not publish that it runs zcomp");
    if (0 == __atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED)) {
        char *host = suite_proc_hostname(&proc->super);
        opal_show_help("help-pml-zcomp.txt", "peer-without-zcomp", true,
                       OMPI_NAME_PRINT(OMPI_PROC_MY_NAME), ompi_process_info.nodename,
                       OMPI_NAME_PRINT(&proc->super.proc_name),
                       NULL == host ? "unknown" : host,
                       OPAL_SUCCESS == rc ? "runs another version of zcomp"
                                          : "did not publish that it runs zcomp");
        free(host);
    }
    return false;
}

/* The largest marked payload ob1 sends to proc in its first fragment, over
 * every BTL it may pick for an eager send: the receive hook sees only that
 * fragment (a rendezvous or RGET match brings part of the payload or none),
 * so a marked message must fit it.  The self BTL's limit is 1 KB. */
static size_t zc_mark_room(const ompi_proc_t *proc)
{
    mca_bml_base_endpoint_t *ep = mca_bml_base_get_endpoint((ompi_proc_t *) proc);
    size_t i, n, room = SIZE_MAX;
    if (NULL == ep) {
        return 0;
    }
    n = mca_bml_base_btl_array_get_size(&ep->btl_eager);
    for (i = 0; i < n; i++) {
        mca_bml_base_btl_t *bb = mca_bml_base_btl_array_get_index(&ep->btl_eager, i);
        size_t lim = NULL == bb ? 0 : bb->btl->btl_eager_limit;
        lim = lim > ZC_PML_HDR_RESERVE ? lim - ZC_PML_HDR_RESERVE : 0;
        if (lim < room) {
            room = lim;
        }
    }
    return 0 == n ? 0 : room;
}

/* A new entry for proc, built without the lock (the modex look-up and a
 * show_help may take time). */
static zc_peer_t *zc_peer_new(const ompi_proc_t *proc, int dst, uint64_t key)
{
    zc_peer_t *p = calloc(1, sizeof(*p));
    if (NULL == p) {
        return NULL;
    }
    p->proc = proc;
    p->remote = !OPAL_PROC_ON_LOCAL_NODE(((ompi_proc_t *) proc)->super.proc_flags);
    p->zcomp = zc_peer_has_zcomp(proc, dst);
    p->mark_room = zc_mark_room(proc);
    if (p->zcomp && p->mark_room < sizeof(zc_hdr_t)) {
        ZC_VERBOSE(1, "zcomp: peer %d: the BTL's eager limit leaves %zu bytes for a marked "
                   "message: messages to it are sent raw", dst, p->mark_room);
    }
    p->bw = mca_pml_zcomp_calibrated((uint32_t) key);
    if (p->bw <= 0 && proc == ompi_proc_local()) {
        p->bw = 10e9; /* a message to oneself is a memory copy */
    }
    if (p->bw <= 0 && mca_pml_zcomp.p.default_bandwidth > 0) {
        p->bw = mca_pml_zcomp.p.default_bandwidth * 1e6;
    }
    if (p->bw <= 0) {
        /* the BTL's advertised bandwidth (Mbit/s) as a prior */
        mca_bml_base_endpoint_t *ep = mca_bml_base_get_endpoint((ompi_proc_t *) proc);
        if (NULL != ep && mca_bml_base_btl_array_get_size(&ep->btl_eager) > 0) {
            mca_bml_base_btl_t *bb = mca_bml_base_btl_array_get_index(&ep->btl_eager, 0);
            if (NULL != bb && bb->btl->btl_bandwidth > 0) {
                p->bw = bb->btl->btl_bandwidth * 1e6 / 8.0;
            }
        }
    }
    if (p->bw <= 0) {
        p->bw = 1.25e9;
    }
    ZC_VERBOSE(5, "zcomp: path to peer %d: starting from %.1f MB/s", dst, p->bw / 1e6);
    return p;
}

static zc_peer_t *zc_peer(ompi_communicator_t *comm, int dst)
{
    const ompi_proc_t *proc = ompi_comm_peer_lookup(comm, dst);
    zc_peer_t *p = __atomic_load_n(&zc_last_peer, __ATOMIC_ACQUIRE), *q = NULL;
    uint64_t key;
    if (NULL == proc) {
        return NULL;
    }
    if (NULL != p && p->proc == proc) {
        return p;
    }
    key = zc_peer_key(proc);
    OPAL_THREAD_LOCK(&zc_model_lock);
    if (OPAL_SUCCESS != opal_hash_table_get_value_uint64(&zc_peers, key, (void **) &p)) {
        OPAL_THREAD_UNLOCK(&zc_model_lock);
        q = zc_peer_new(proc, dst, key);
        if (NULL == q) {
            return NULL;
        }
        OPAL_THREAD_LOCK(&zc_model_lock);
        /* another thread may have added it meanwhile: keep the first */
        if (OPAL_SUCCESS != opal_hash_table_get_value_uint64(&zc_peers, key, (void **) &p)) {
            opal_hash_table_set_value_uint64(&zc_peers, key, q);
            p = q;
            q = NULL;
        }
    }
    __atomic_store_n(&zc_last_peer, p, __ATOMIC_RELEASE);
    OPAL_THREAD_UNLOCK(&zc_model_lock);
    free(q);
    return p;
}

static double zc_speedup(const zc_cstat_t *s, double S, double B);
/* the pipeline's efficiency (mca_pml_zcomp_note_coded) */
#define ZC_EFF_MIN 0.5
#define ZC_EFF_MAX 16.0
#define ZC_EFF_SLACK 1.5

/* The estimate of a path's delivered bandwidth, from the application's own
 * transfers, seen from the sender (the only side that decides).
 *
 * Two kinds of sample, both of 4 MB or more (below that, socket buffers
 * and the shaper's burst absorb a large share of a transfer, which then
 * looks faster than the path):
 * - ZC_XFER_TIMED, a blocking raw send (MPI_Send, MPI_Ssend): the sender
 *   was inside the call from start to completion, so the time is the path's
 *   unless the receiver posted late (a rendezvous waits for it).  Such a
 *   sample may lower the estimate, but only once a second one in a row
 *   confirms it: one late receiver does not flip the decision, two in a row
 *   do (the estimate becomes the faster of the two).  A sample above the
 *   estimate raises it at once (lateness only ever slows a sample) and
 *   cancels an unconfirmed low one.  Before any sample the estimate is the
 *   prior (calibration file, pml_zcomp_default_bandwidth, the BTL's
 *   advertised figure): the first timed sample replaces it, up or down.
 *   ZC_XFER_ACKED is such a send timed from the receiver's rendezvous ACK
 *   to completion: a late receiver cannot slow it, so one that is
 *   ZC_BW_DROP (2) times below the estimate or more lowers it at once (a
 *   link that slowed, followed within one message); a smaller drop, which
 *   the sender's own hiccups can make, waits for a second one as above.
 * - ZC_XFER_AT_LEAST, a nonblocking raw send (completion is seen when the
 *   application next enters MPI, maybe long after) or a compressed one
 *   (the compressor may have been the bottleneck): the path is at least
 *   this fast.  It only raises.
 * Only paths to other nodes fall: on one node the path is a memory copy,
 * which the BTL's figure describes, and which a loaded core slows for a
 * codec as much as for a copy.  A lowered estimate resets every
 * ZC_PEER_FAST code, whose messages then go through the model again. */
void mca_pml_zcomp_note_transfer(ompi_communicator_t *comm, int dst, size_t bytes, double secs,
                                 int kind)
{
    zc_peer_t *p;
    double s, old;
    const char *what = "";
    if (mca_pml_zcomp.p.path_bandwidth > 0 || !(secs > 0) || !zc_peers_ready
        || bytes < ZC_XFER_MIN) {
        return;
    }
    p = zc_peer(comm, dst);
    if (NULL == p) {
        return;
    }
    s = (double) bytes / secs;
    OPAL_THREAD_LOCK(&zc_model_lock);
    old = p->bw;
    if (ZC_XFER_AT_LEAST == kind && p->remote && p->timed > 0 && s > p->timed * ZC_BW_TOLERANCE) {
        /* compressed, the path carried more than the last raw transfer
         * did: it became faster, by how much only a raw transfer can tell
         * (compared with the timed figure, not the estimate, which these
         * lower bounds raise step by step) */
        p->probe_now = true;
    }
    if (s > old) {
        /* faster than the estimate: the path is at least this fast */
        zc_store_d(&p->bw, s);
        p->samples++;
        p->low = 0;
        what = "raised";
    } else if (ZC_XFER_AT_LEAST == kind || !p->remote) {
        /* a lower bound below the estimate says nothing new */
    } else if (0 == p->samples) {
        zc_store_d(&p->bw, s);
        p->samples++;
        what = "measured (replaces the prior)";
    } else if (s * ZC_BW_TOLERANCE >= old) {
        p->low = 0; /* within the noise of the estimate */
    } else if (ZC_XFER_ACKED == kind && s * ZC_BW_DROP <= old) {
        zc_store_d(&p->bw, s);
        p->samples++;
        p->low = 0;
        what = "lowered (timed from the receiver's ACK, half the estimate or less)";
    } else if (0 == p->low) {
        p->low = s;
        what = "slower, to be confirmed";
    } else {
        zc_store_d(&p->bw, s > p->low ? s : p->low);
        p->samples++;
        p->low = 0;
        what = "lowered (two slow transfers in a row)";
    }
    if (ZC_XFER_AT_LEAST != kind && p->remote) {
        p->timed = p->bw;
        p->since_probe = 0; /* a timed transfer is as good as a probe */
    }
    for (int j = 0; j < ZC_MAX_CANDIDATES; j++) {
        double sp;
        if (p->eff[j] > 0
            && (p->bw > p->eff_bw[j] * ZC_BW_TOLERANCE || p->bw * ZC_BW_TOLERANCE < p->eff_bw[j])) {
            /* the pipeline's efficiency was measured at another estimate:
             * the codec's last compressed transfer is measured again
             * against the new one.  Forgotten, the model was back at its
             * prediction and compressed one message more on a faster path
             * (pCrrrrrr), or more than one after a probe that read far
             * above the link was halved (CprCCCCC).  On a risen estimate
             * that transfer ran on the faster path (maybe the one that
             * showed it, note_coded) or on the slower one, which can only
             * overstate eff where raw gained, until a recheck measures it.
             * On a fallen one a transfer on the faster path understates
             * it, so it counts at 1 at least: never more in favour of
             * compression than forgetting it */
            if (p->lc_valid[j]
                && (sp = zc_speedup(&zc_classes[p->lc_cls[j]][p->lc_bucket[j]].c[j],
                                    p->lc_bytes[j], p->bw)) > 0) {
                double e = p->lc_secs[j] / (p->lc_bytes[j] / p->bw / sp);
                if (p->bw < p->eff_bw[j] && e < 1.0) {
                    e = 1.0;
                }
                e = e < ZC_EFF_MIN ? ZC_EFF_MIN : (e > ZC_EFF_MAX ? ZC_EFF_MAX : e);
                ZC_VERBOSE(5, "zcomp: path to peer %d: %s's pipeline efficiency, measured at "
                           "%.1f MB/s, is %.2f against the new estimate (its last transfer)",
                           dst, mca_pml_zcomp.cand[j]->name, p->eff_bw[j] / 1e6, e);
                p->eff[j] = e;
                p->eff_bw[j] = p->bw;
                p->eff_derived[j] = true;
                p->eff_low[j] = 0;
            } else {
                ZC_VERBOSE(5, "zcomp: path to peer %d: %s's pipeline efficiency, measured at "
                           "%.1f MB/s, is forgotten", dst, j < mca_pml_zcomp.ncand
                           ? mca_pml_zcomp.cand[j]->name : "?", p->eff_bw[j] / 1e6);
                p->eff[j] = 0;
                p->eff_low[j] = 0;
            }
            p->since_recheck = 0;
        }
    }
    if (p->bw < old) {
        /* a path given a ZC_PEER_FAST code may be slower than a codec now */
        zc_fast_bw_min = HUGE_VAL;
        mca_pml_zcomp_codes_reset_fast();
    }
    s = p->bw;
    OPAL_THREAD_UNLOCK(&zc_model_lock);
    if ('\0' != what[0]) {
        ZC_VERBOSE(5, "zcomp: path to peer %d: %s %zu B in %.4f s (%.1f MB/s): estimate %s, "
                   "%.1f -> %.1f MB/s", dst,
                   ZC_XFER_ACKED == kind ? "timed from the ACK"
                                         : (ZC_XFER_TIMED == kind ? "timed" : "at least"),
                   bytes, secs, (double) bytes / secs / 1e6, what, old / 1e6, s / 1e6);
    }
}

/* Exploration: while a peer's messages are compressed, the estimate can
 * only rise through lower bounds (a compressed transfer shows the path is
 * at least as fast as the compressor fed it), so a path that became faster
 * than the codecs would never be seen.  Now and then a message that the
 * model would compress is sent raw instead, to be timed: each compressed
 * message to a remote peer earns pml_zcomp_probe_budget of its predicted
 * time, and a probe spends its predicted extra time (raw minus compressed,
 * at the current estimate), at most one in 1/probe_budget of them.  And
 * at once when a compressed transfer carried its wire bytes more than
 * ZC_BW_TOLERANCE faster than the last timed raw transfer did (probe_now):
 * the path is faster than it was, by an amount the compressor's pace
 * hides.  And at once while a slow timed sample is held (low): the
 * estimate it doubts still picks compression, and the second sample that
 * confirms or clears it would otherwise wait up to 1/probe_budget
 * messages (80 MB of a slowed path once, in zcomp-cluster at a budget of
 * 0.25).  Only messages that can be timed (ZC_XFER_TIMED or _ACKED:
 * 4 MB and more, blocking) qualify.  Under the
 * model lock. */
static bool zc_probe(zc_peer_t *peer, size_t bytes, double B, double speedup, bool blocking)
{
    double tz, extra;
    if (!peer->remote || !blocking || bytes < ZC_XFER_MIN || mca_pml_zcomp.p.probe_budget <= 0
        || mca_pml_zcomp.p.path_bandwidth > 0) {
        return false;
    }
    tz = (double) bytes / B / speedup;
    extra = (double) bytes / B - tz;
    peer->probe_credit += mca_pml_zcomp.p.probe_budget * tz;
    peer->since_probe++;
    if (peer->probe_now || peer->low > 0) {
        peer->probe_now = false;
        peer->since_probe = 0;
        return true;
    }
    /* and at most one in 1/budget compressed messages: where the predicted
     * gain is small, a probe is cheap, and would otherwise be every one */
    if (peer->probe_credit < extra
        || peer->since_probe * mca_pml_zcomp.p.probe_budget < 1.0) {
        return false;
    }
    peer->probe_credit -= extra;
    peer->since_probe = 0;
    return true;
}

/* The pipeline's efficiency.  The model predicts a compressed transfer
 * from the codecs' speeds and ratio and the path's estimate, as if
 * compressing, sending and decompressing overlapped perfectly.  Where the
 * codecs, the network stack and the receiver share cores (a node running
 * more ranks than cores, a VM), a compressed transfer takes longer: on
 * the 2-core fakecluster an unshaped link's rle transfers took 2-3x their
 * prediction and 2x a raw transfer, which the model still picked.  So a
 * blocking compressed send of ZC_XFER_MIN or more to another node is
 * timed like a raw one, from its first chunk's completion (the receiver
 * is there) to its last's, and its time over the prediction (eff) is kept
 * per peer and codec (zstd's pipeline on the bed fell 2x short where
 * rle's fell 1.5x short), the geometric mean of the last two samples,
 * within [ZC_EFF_MIN, ZC_EFF_MAX].  The decision takes the codec of best
 * speedup divided by its eff (an untried codec counts as predicted), and
 * sends raw when even that is below 1/ZC_EFF_SLACK: compression measured
 * clearly slower than raw.  Nearer a tie the model's choice stands: the
 * raw estimate, timed from the ACK, reads up to 1.25x above the link
 * (the data's tail is still queued when the send completes), so on the
 * 1 Gbit/s bed rle's measured speedup came out at 0.8-0.86x where it ran
 * 1.0-1.12x faster than raw end to end, and at a slack of 1.1 or 1.25 the
 * slow link went raw; the unshaped link's 0.43x stays well below 1/1.5.
 * eff holds while the path's estimate stays within ZC_BW_TOLERANCE of the
 * figure it was measured at: an estimate that moves further forgets it
 * (note_transfer), so a path that changed and changed back is measured
 * again.  And one message in 1/pml_zcomp_probe_budget of those it turned
 * raw is compressed anyway (a recheck): one slow sample, a core taken
 * away for a while, must not keep compression off for good.  Under the
 * model lock. */
static int zc_cand_index(const opal_compress_codec_t *c);

static inline double zc_eff(const zc_peer_t *peer, int j)
{
    return peer->remote && peer->eff[j] > 0 && mca_pml_zcomp.p.path_bandwidth <= 0
               ? peer->eff[j] : 1.0;
}

void mca_pml_zcomp_note_coded(ompi_communicator_t *comm, int dst, const zc_decision_t *d,
                              size_t bytes, size_t steady, double secs)
{
    zc_peer_t *p;
    double e, old, whole;
    bool faster;
    int j;
    if (mca_pml_zcomp.p.path_bandwidth > 0 || !(secs > 0) || !(d->pred > 0) || !zc_peers_ready
        || bytes < ZC_XFER_MIN || 0 == steady) {
        return;
    }
    p = zc_peer(comm, dst);
    if (NULL == p || !p->remote) {
        return;
    }
    j = zc_cand_index(d->codec);
    if (j < 0) {
        return;
    }
    /* the whole message's time at the steady part's pace */
    whole = secs * ((double) bytes / (double) steady);
    e = whole / d->pred;
    e = e < ZC_EFF_MIN ? ZC_EFF_MIN : (e > ZC_EFF_MAX ? ZC_EFF_MAX : e);
    OPAL_THREAD_LOCK(&zc_model_lock);
    old = p->eff[j];
    /* ZC_BW_TOLERANCE faster than any of this codec's measured transfers
     * at the same estimate: the codec did not speed up, so the path did,
     * by an amount only a raw transfer can tell.  Probe with the next
     * message, within one message of the change, where a compressor that
     * paces the wire below the last raw timing hides the faster path from
     * the lower bounds (zcomp-cluster: CCCprrrr).  Against the lowest
     * sample, so that one disturbed transfer does not make the next
     * ordinary one look fast */
    faster = p->eff_low[j] > 0 && e * ZC_BW_TOLERANCE < p->eff_low[j] && !p->probe_now;
    if (faster) {
        p->probe_now = true;
    }
    if (0 == p->eff_low[j] || e < p->eff_low[j]) {
        p->eff_low[j] = e;
    }
    p->lc_valid[j] = true;
    p->lc_cls[j] = d->cls;
    p->lc_bucket[j] = d->bucket;
    p->lc_bytes[j] = (double) bytes;
    p->lc_secs[j] = whole;
    /* a derived eff is a bound, not a sample: the first measured one replaces it */
    p->eff[j] = old > 0 && !p->eff_derived[j] ? sqrt(old * e) : e;
    p->eff_derived[j] = false;
    p->eff_bw[j] = zc_load_d(&p->bw);
    p->since_recheck = 0;
    e = p->eff[j];
    OPAL_THREAD_UNLOCK(&zc_model_lock);
    ZC_VERBOSE(5, "zcomp: path to peer %d: %s compressed %zu B in %.4f s (steady part), "
               "predicted %.4f s for all: pipeline efficiency %.2f -> %.2f%s", dst,
               d->codec->name, bytes, secs, d->pred, old, e,
               faster ? " (faster than before: probe the path)" : "");
}

/* ---------------------------------------------------------------- codec stats */

static double zc_nominal_speed(const opal_compress_codec_t *c)
{
    switch (c->speed) {
    case OPAL_COMPRESS_SPEED_FAST:
        return 500e6;
    case OPAL_COMPRESS_SPEED_MEDIUM:
        return 250e6;
    default:
        return 15e6;
    }
}

/* The speed a codec's statistics allow: min(Vc, Vd), Vc alone while Vd is
 * unknown. */
static inline double zc_stat_speed(const zc_cstat_t *s)
{
    return s->vc < s->vd || s->vd <= 0 ? s->vc : s->vd;
}

/* What a codec not yet measured is assumed to reach: an upper bound. */
static inline double zc_assumed_speed(const opal_compress_codec_t *c)
{
    return zc_nominal_speed(c) * 2;
}

/* A ratio this far from the class's figure, either way, means other data. */
static inline bool zc_ratio_shifted(double r, double ref)
{
    return r * ZC_SHIFT < ref || r > ZC_SHIFT * ref;
}

static int zc_cand_index(const opal_compress_codec_t *c)
{
    int i;
    for (i = 0; i < mca_pml_zcomp.ncand; i++) {
        if (mca_pml_zcomp.cand[i] == c) {
            return i;
        }
    }
    return -1;
}

static void zc_update(zc_cstat_t *s, double ratio, double vc, double vd)
{
    if (0 == s->n) {
        s->ratio = ratio;
        s->vc = vc;
        s->vd = vd;
    } else {
        s->ratio = (1 - ZC_ALPHA) * s->ratio + ZC_ALPHA * ratio;
        if (vc > 0) {
            s->vc = (1 - ZC_ALPHA) * s->vc + ZC_ALPHA * vc;
        }
        if (vd > 0) {
            s->vd = (1 - ZC_ALPHA) * s->vd + ZC_ALPHA * vd;
        }
    }
    s->n++;
    if (zc_stat_speed(s) > zc_fastest_codec) {
        zc_fastest_raise(zc_stat_speed(s));
    }
}

void mca_pml_zcomp_note_compress(const zc_decision_t *d, const opal_compress_codec_t *c,
                                 size_t raw, size_t out, double secs)
{
    int j;
    zc_cstat_t *s;
    if (ZC_STRATEGY_ADAPTIVE != mca_pml_zcomp.p.strategy
        && ZC_STRATEGY_GUIDED != mca_pml_zcomp.p.strategy) {
        return;
    }
    j = zc_cand_index(c);
    if (j < 0 || raw < 4096) {
        return;
    }
    s = &zc_classes[d->cls][d->bucket].c[j];
    OPAL_THREAD_LOCK(&zc_model_lock);
    {
        double r = (double) raw / (double) (out > 0 ? out : 1);
        if (s->n > 0 && (zc_ratio_shifted(r, s->ratio) || (r <= 1.02 && s->ratio > 1.1))) {
            /* a "mistake" (the seed's term), either way: the data of this
             * class changed; believe the observation, and sample every
             * candidate again soon, since another codec may now be best */
            ZC_VERBOSE(10, "zcomp: %s ratio %.2f, expected %.2f: class %s/%d re-sampled soon",
                       c->name, r, s->ratio, zc_class_names[d->cls], d->bucket);
            s->ratio = r;
            zc_classes[d->cls][d->bucket].changed = true;
        } else {
            zc_update(s, r, secs > 0 ? raw / secs : 0, 0);
        }
    }
    OPAL_THREAD_UNLOCK(&zc_model_lock);
}

/* What one sample found, per candidate (ok: measured). */
typedef struct zc_sample_t {
    bool ok[ZC_MAX_CANDIDATES];
    double r[ZC_MAX_CANDIDATES], vc[ZC_MAX_CANDIDATES], vd[ZC_MAX_CANDIDATES];
    double cost; /* seconds the sample took */
} zc_sample_t;

/* Compress and decompress the first bytes of the message with every
 * candidate.  Runs without the model lock, in buffers of its own, so that
 * threads sampling other classes or deciding meanwhile do not wait. */
static void zc_measure(const void *buf, size_t count, ompi_datatype_t *dtype, size_t bytes,
                       int cls, zc_sample_t *res)
{
    size_t n = bytes < ZC_SAMPLE ? bytes : ZC_SAMPLE, zcap = 0;
    const char *sample;
    char *mem, *zbuf, *dbuf, *sbuf;
    bool contig = opal_datatype_is_contiguous_memory_layout(&dtype->super, count);
    int j;
    double t_begin = mca_pml_zcomp_now();

    memset(res, 0, sizeof(*res));
    for (j = 0; j < mca_pml_zcomp.ncand; j++) {
        size_t cap = mca_pml_zcomp.cand[j]->bound(ZC_SAMPLE);
        if (zc_suits(j, cls) && cap > zcap) {
            zcap = cap;
        }
    }
    mem = malloc(zcap + ZC_SAMPLE + (contig ? 0 : ZC_SAMPLE));
    if (NULL == mem) {
        return;
    }
    zbuf = mem;
    dbuf = mem + zcap;
    sbuf = dbuf + ZC_SAMPLE;
    if (contig) {
        sample = (const char *) buf + dtype->super.true_lb;
    } else {
        opal_convertor_t conv;
        struct iovec iov;
        uint32_t iovcnt = 1;
        size_t max = n;
        OBJ_CONSTRUCT(&conv, opal_convertor_t);
        opal_convertor_copy_and_prepare_for_send(ompi_mpi_local_convertor, &dtype->super, count,
                                                 buf, 0, &conv);
        iov.iov_base = sbuf;
        iov.iov_len = n;
        opal_convertor_pack(&conv, &iov, &iovcnt, &max);
        opal_convertor_cleanup(&conv);
        OBJ_DESTRUCT(&conv);
        sample = sbuf;
    }
    for (j = 0; j < mca_pml_zcomp.ncand; j++) {
        const opal_compress_codec_t *c = mca_pml_zcomp.cand[j];
        ssize_t out = 0;
        double t0, t1, t2, tc, td;
        int rep;
        if (!zc_suits(j, cls)) {
            continue;
        }
        /* Each step twice, keeping the faster: a sample may replace all the
         * class knew, and one preemption of a few hundred us on a shared
         * core (taking the 64 KB sample's fpc speed from 640 to 113 MB/s)
         * let lz4 win on data fpc compresses 8x better, until the next
         * sample.  Twice is cheaper than a wrong codec for several messages. */
        tc = td = 1e30;
        for (rep = 0; rep < 2; rep++) {
            t0 = mca_pml_zcomp_now();
            out = c->compress(sample, n, zbuf, zcap);
            t1 = mca_pml_zcomp_now();
            if (out <= 0) {
                break;
            }
            if ((size_t) out < n) {
                (void) c->decompress(zbuf, (size_t) out, dbuf, n, n);
            }
            t2 = mca_pml_zcomp_now();
            tc = t1 - t0 < tc ? t1 - t0 : tc;
            td = t2 - t1 < td ? t2 - t1 : td;
        }
        if (out <= 0) {
            continue;
        }
        res->ok[j] = true;
        res->r[j] = (double) n / (double) out;
        res->vc[j] = tc > 0 ? n / tc : 0;
        res->vd[j] = (size_t) out < n && td > 0 ? n / td : 0;
    }
    free(mem);
    res->cost = mca_pml_zcomp_now() - t_begin;
}

/* Fold a sample into its class (under the model lock). */
static void zc_sample_apply(zc_class_t *k, const zc_sample_t *res)
{
    int j;
    for (j = 0; j < mca_pml_zcomp.ncand; j++) {
        zc_cstat_t *s = &k->c[j];
        if (!res->ok[j]) {
            continue;
        }
        /* a first sample, or one that finds other data, replaces what the
         * class knew; a routine one is averaged in */
        if (!k->measured || k->changed || zc_ratio_shifted(res->r[j], s->ratio)) {
            s->n = 0;
        }
        zc_update(s, res->r[j], res->vc[j], res->vd[j]);
    }
    k->measured = true;
    k->changed = false;
    k->sample_cost = res->cost;
    k->credit -= res->cost;
}

/* Predicted speedup of codec stats s for S bytes over bandwidth B. */
static double zc_speedup(const zc_cstat_t *s, double S, double B)
{
    double C = S < (double) mca_pml_zcomp.p.chunk_size ? S : (double) mca_pml_zcomp.p.chunk_size;
    double vc = s->vc > 0 ? s->vc : 1, vd = s->vd > 0 ? s->vd : 1e12;
    double r = s->ratio > 0 ? s->ratio : 1;
    double traw = S / B, tz;
    if (r <= 1.0) {
        return r; /* stored raw, after paying for the attempt */
    }
    if (S <= C) {
        tz = S / vc + S / (r * B) + S / vd;
    } else {
        double rate = vc;
        if (vd < rate) {
            rate = vd;
        }
        if (r * B < rate) {
            rate = r * B;
        }
        tz = S / rate + C / vc + C / vd;
    }
    /* the header message and the chunk messages cost more than one raw
     * message: a fixed per-message overhead, which keeps small messages raw
     * where latency, not bandwidth, dominates */
    tz += mca_pml_zcomp.p.msg_overhead * 1e-6;
    return traw / tz;
}

bool mca_pml_zcomp_peer_decodes(ompi_communicator_t *comm, int dst)
{
    zc_peer_t *peer = zc_peer(comm, dst);
    if (NULL == peer) {
        return false;
    }
    if (!peer->zcomp || peer->mark_room < sizeof(zc_hdr_t)) {
        mca_pml_zcomp_code_set(comm, dst, ZC_PEER_NEVER);
        return false;
    }
    return true;
}

/* The model's fast exit sent a message to (comm, dst) raw: path B is
 * faster than any codec.  Let the next ones skip the model while that
 * holds (ZC_PEER_FAST), unless every decision is to be explained (verbose
 * 10) or a guide may say otherwise. */
static void zc_note_fast(ompi_communicator_t *comm, int dst, double B)
{
    if (ZC_STRATEGY_ADAPTIVE != mca_pml_zcomp.p.strategy || mca_pml_zcomp.p.verbose >= 10
        || ZC_PEER_FAST == zc_code_get(comm, dst)) {
        return;
    }
    OPAL_THREAD_LOCK(&zc_model_lock);
    /* again under the lock, which zc_fastest_raise holds: a code is not
     * set from a figure that was raised meanwhile */
    if (zc_fastest_codec < B * mca_pml_zcomp.p.min_gain) {
        if (B < zc_fast_bw_min) {
            zc_fast_bw_min = B;
        }
        mca_pml_zcomp_code_set(comm, dst, ZC_PEER_FAST);
    }
    OPAL_THREAD_UNLOCK(&zc_model_lock);
}

void mca_pml_zcomp_decide(const void *buf, size_t count, ompi_datatype_t *dtype, size_t bytes,
                          int dst, ompi_communicator_t *comm, int tag, bool blocking,
                          zc_decision_t *d)
{
    zc_class_t *k;
    zc_peer_t *peer;
    double B, best = 0, sp[ZC_MAX_CANDIDATES];
    int j, bj = -1;
    uint64_t gkey = 0;

    d->codec = NULL;
    d->measure = false;
    d->probe = false;
    d->recheck = false;
    d->pred = 0;
    d->cls = 0;
    d->bucket = 0;
    d->mark_room = 0;
    if (ZC_STRATEGY_NEVER == mca_pml_zcomp.p.strategy) {
        return;
    }
    /* any strategy: compressed only to a peer that can decode it, over
     * BTLs that send zcomp's header eagerly */
    peer = zc_peer(comm, dst);
    if (NULL == peer) {
        return;
    }
    if (!peer->zcomp || peer->mark_room < sizeof(zc_hdr_t)) {
        mca_pml_zcomp_code_set(comm, dst, ZC_PEER_NEVER); /* for good */
        return;
    }
    d->mark_room = peer->mark_room;
    switch (mca_pml_zcomp.p.strategy) {
    case ZC_STRATEGY_ALWAYS:
        d->codec = mca_pml_zcomp.always_codec;
        d->cls = zc_class_of(dtype);
        d->bucket = zc_bucket_of(bytes);
        return;
    default:
        break;
    }
    if (0 == mca_pml_zcomp.ncand) {
        return;
    }
    if (ZC_STRATEGY_GUIDED == mca_pml_zcomp.p.strategy && !mca_pml_zcomp_guide_tracing) {
        /* read-only while following a file: no lock */
        d->cls = zc_class_of(dtype);
        d->bucket = zc_bucket_of(bytes);
        gkey = mca_pml_zcomp_guide_key(d->cls, d->bucket, comm, dst, tag);
        if (mca_pml_zcomp_guide_lookup(gkey, &d->codec)) {
            ZC_VERBOSE(10, "zcomp: guided: %zu B %s to %d tag %d: %s", bytes,
                       zc_class_names[d->cls], dst, tag, NULL == d->codec ? "raw" : d->codec->name);
            return;
        }
        /* not in the file: decide adaptively */
    }
    /* The fast path (shared memory): every message pays only this. */
    B = mca_pml_zcomp.p.path_bandwidth > 0 ? mca_pml_zcomp.p.path_bandwidth * 1e6
                                           : zc_load_d(&peer->bw);
    if (zc_load_d(&zc_fastest_codec) < B * mca_pml_zcomp.p.min_gain) {
        ZC_VERBOSE(10, "zcomp: %zu B to %d: raw (path %.0f MB/s is faster than any codec, "
                   "best %.0f MB/s)", bytes, dst, B / 1e6, zc_load_d(&zc_fastest_codec) / 1e6);
        zc_note_fast(comm, dst, B);
        return;
    }
    d->cls = zc_class_of(dtype);
    d->bucket = zc_bucket_of(bytes);
    k = &zc_classes[d->cls][d->bucket];
    OPAL_THREAD_LOCK(&zc_model_lock);
    /* cheap exit where no codec can win even with an infinite ratio */
    {
        double fastest = 0;
        for (j = 0; j < mca_pml_zcomp.ncand; j++) {
            const zc_cstat_t *s = &k->c[j];
            double v;
            if (!zc_suits(j, d->cls)) {
                continue;
            }
            v = s->n > 0 ? zc_stat_speed(s) : zc_assumed_speed(mca_pml_zcomp.cand[j]);
            if (v > fastest) {
                fastest = v;
            }
        }
        if (fastest < B * mca_pml_zcomp.p.min_gain) {
            OPAL_THREAD_UNLOCK(&zc_model_lock);
            ZC_VERBOSE(10, "zcomp: %zu B %s to %d: raw (path %.0f MB/s is faster than any "
                       "codec, best %.0f MB/s)", bytes, zc_class_names[d->cls], dst, B / 1e6,
                       fastest / 1e6);
            return;
        }
    }
    if (!k->sampling
        && (!k->measured || k->credit >= k->sample_cost
            || (k->changed && k->credit >= -ZC_DEBT * k->sample_cost))) {
        zc_sample_t res;
        k->sampling = true;
        OPAL_THREAD_UNLOCK(&zc_model_lock);
        zc_measure(buf, count, dtype, bytes, d->cls, &res);
        OPAL_THREAD_LOCK(&zc_model_lock);
        zc_sample_apply(k, &res);
        k->sampling = false;
        d->measure = true;
    }
    /* the model's speedups sp[]; the codec is the best of them as measured
     * on this path, each divided by its pipeline efficiency (zc_eff), so
     * that a codec whose transfers fell short gives way to one that did
     * not (an untried one counts as predicted).  Only codecs the model
     * itself would send with compete: an untried codec predicted slower
     * than raw must not win over one whose efficiency lowered it, which
     * sent the message raw where that one still gained. */
    for (j = 0; j < mca_pml_zcomp.ncand; j++) {
        sp[j] = k->c[j].n > 0 && zc_suits(j, d->cls) ? zc_speedup(&k->c[j], (double) bytes, B) : 0;
        if (sp[j] >= mca_pml_zcomp.p.min_gain && sp[j] / zc_eff(peer, j) > best) {
            best = sp[j] / zc_eff(peer, j);
            bj = j;
        }
    }
    if (bj >= 0 && sp[bj] >= mca_pml_zcomp.p.min_gain) {
        d->codec = mca_pml_zcomp.cand[bj];
        d->pred = (double) bytes / B / sp[bj];
        if (best * ZC_EFF_SLACK < 1.0) {
            /* measured clearly slower than raw: raw, but for a recheck */
            if (blocking && bytes >= ZC_XFER_MIN && mca_pml_zcomp.p.probe_budget > 0
                && ++peer->since_recheck * mca_pml_zcomp.p.probe_budget >= 1.0) {
                peer->since_recheck = 0;
                d->recheck = true;
            } else {
                d->codec = NULL;
            }
        }
        if (best < mca_pml_zcomp.p.min_gain) {
            best = mca_pml_zcomp.p.min_gain; /* for the credit and probes below */
        }
    }
    /* earn a share of the time this message is predicted to take */
    k->credit += mca_pml_zcomp.p.sample_budget * ((double) bytes / B)
                 / (NULL != d->codec ? best : 1.0);
    if (NULL != d->codec && !d->recheck && !mca_pml_zcomp_guide_tracing
        && zc_probe(peer, bytes, B, best, blocking)) {
        d->codec = NULL;
        d->probe = true;
        zc_count(&mca_pml_zcomp.pv_probes, 1);
    }
    if (mca_pml_zcomp_guide_tracing) {
        gkey = mca_pml_zcomp_guide_key(d->cls, d->bucket, comm, dst, tag);
        mca_pml_zcomp_guide_record(gkey, d->codec);
    }
    if (opal_output_get_verbosity(mca_pml_zcomp.output) >= 10) {
        char why[512];
        int o = 0;
        for (j = 0; j < mca_pml_zcomp.ncand && o < (int) sizeof(why) - 40; j++) {
            const zc_cstat_t *s = &k->c[j];
            if (!zc_suits(j, d->cls)) {
                continue;
            }
            o += snprintf(why + o, sizeof(why) - (size_t) o, " %s r=%.2f c=%.0f d=%.0f x%.2f;",
                          mca_pml_zcomp.cand[j]->name, s->ratio, s->vc / 1e6, s->vd / 1e6,
                          sp[j]);
        }
        ZC_VERBOSE(10, "zcomp: %zu B %s to %d tag %d over %.1f MB/s: %s%s |%s", bytes,
                   zc_class_names[d->cls], dst, tag, B / 1e6,
                   NULL == d->codec
                       ? (d->probe ? "raw (probe: timed to follow the path)"
                                   : (bj >= 0 && sp[bj] >= mca_pml_zcomp.p.min_gain
                                          ? "raw (compressed transfers measured slower)"
                                          : "raw"))
                       : (d->recheck ? "compressed again (recheck of the pipeline)"
                                     : d->codec->name),
                   d->measure ? " (measured)" : "",
                   why);
    }
    OPAL_THREAD_UNLOCK(&zc_model_lock);
}

/* ---------------------------------------------------------------- setup */

/* Run every candidate once, so that a class's first sample measures the
 * codec and not its first-call set-up (contexts, tables, page faults),
 * which made a first sample several times too slow. */
static void zc_warm_candidates(void)
{
    size_t n = 16 * 1024, cap = 0;
    char *in = malloc(n), *z = NULL, *out = malloc(n);
    int j;
    for (j = 0; j < mca_pml_zcomp.ncand; j++) {
        if (mca_pml_zcomp.cand[j]->bound(n) > cap) {
            cap = mca_pml_zcomp.cand[j]->bound(n);
        }
    }
    z = malloc(cap);
    if (NULL != in && NULL != z && NULL != out) {
        size_t i;
        for (i = 0; i < n; i++) {
            in[i] = (char) (i % 7 == 0 ? i * 31 : 0);
        }
        for (j = 0; j < mca_pml_zcomp.ncand; j++) {
            ssize_t k = mca_pml_zcomp.cand[j]->compress(in, n, z, cap);
            if (k > 0 && (size_t) k < n) {
                (void) mca_pml_zcomp.cand[j]->decompress(z, (size_t) k, out, n, n);
            }
        }
    }
    free(in);
    free(z);
    free(out);
}

int mca_pml_zcomp_model_init(void)
{
    char *list, *tok, *save = NULL;
    int i;
    memset(zc_classes, 0, sizeof(zc_classes));
    OBJ_CONSTRUCT(&zc_model_lock, opal_mutex_t);
    OBJ_CONSTRUCT(&zc_peers, opal_hash_table_t);
    opal_hash_table_init(&zc_peers, 64);
    zc_peers_ready = true;
    mca_pml_zcomp.ncand = 0;
    if (ZC_STRATEGY_ADAPTIVE != mca_pml_zcomp.p.strategy
        && ZC_STRATEGY_GUIDED != mca_pml_zcomp.p.strategy) {
        return OMPI_SUCCESS;
    }
    list = strdup(NULL == mca_pml_zcomp.p.candidates ? "" : mca_pml_zcomp.p.candidates);
    for (tok = strtok_r(list, ", ", &save); NULL != tok && mca_pml_zcomp.ncand < ZC_MAX_CANDIDATES;
         tok = strtok_r(NULL, ", ", &save)) {
        const opal_compress_codec_t *c = opal_compress_base_find(tok);
        if (NULL == c) {
            opal_show_help("help-pml-zcomp.txt", "unknown-codec", true, tok,
                           "pml_zcomp_candidates");
            continue;
        }
        mca_pml_zcomp.cand[mca_pml_zcomp.ncand++] = c;
    }
    free(list);
    zc_fastest_codec = 0;
    zc_fast_bw_min = HUGE_VAL;
    for (i = 0; i < mca_pml_zcomp.ncand; i++) {
        double v = zc_assumed_speed(mca_pml_zcomp.cand[i]);
        if (v > zc_fastest_codec) {
            zc_fastest_codec = v;
        }
    }
    zc_warm_candidates();
    mca_pml_zcomp_calibration_load();
    if (ZC_STRATEGY_GUIDED == mca_pml_zcomp.p.strategy) {
        mca_pml_zcomp_guide_load();
    }
    return OMPI_SUCCESS;
}

void mca_pml_zcomp_model_fini(void)
{
    uint64_t key;
    void *value, *node = NULL;
    mca_pml_zcomp_guide_save_and_free();
    if (zc_peers_ready) {
        if (OPAL_SUCCESS == opal_hash_table_get_first_key_uint64(&zc_peers, &key, &value, &node)) {
            do {
                free(value);
            } while (OPAL_SUCCESS
                     == opal_hash_table_get_next_key_uint64(&zc_peers, &key, &value, node, &node));
        }
        OBJ_DESTRUCT(&zc_peers);
        OBJ_DESTRUCT(&zc_model_lock);
        zc_peers_ready = false;
        zc_last_peer = NULL;
    }
    mca_pml_zcomp_calibration_free();
}
