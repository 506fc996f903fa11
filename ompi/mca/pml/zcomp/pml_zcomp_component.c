/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * pml/zcomp component: parameters, MPI_T performance variables, and the
 * interposition over the selected PML.
 *
 * Interposition: when pml_zcomp_enable is set, open() adds "zcomp" to the
 * PML base's include list and init() answers with priority 0, so that the
 * base selects the real PML (ob1) and then closes us as "not selected".  In
 * that close we save the selected component and module and install a copy
 * of the module whose send and start functions are ours; every receive and
 * probe function stays the wrapped PML's own (the receive side works from
 * the marked-message hook).  Finalize restores the wrapped PML.
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "opal/mca/base/mca_base_component_repository.h"
#include "opal/mca/base/mca_base_pvar.h"
#include "opal/mca/common/suite/common_suite.h"
#include "opal/mca/pmix/pmix.h"
#include "opal/runtime/opal_progress.h"
#include "opal/util/show_help.h"
#include "ompi/mca/rte/rte.h"

#include "pml_zcomp.h"
#include "pml_zcomp_wire.h"

mca_pml_zcomp_globals_t mca_pml_zcomp = {
    .p = {
        .enable = false,
        .strategy = ZC_STRATEGY_ADAPTIVE,
        .threshold = 4096,
        .chunk_size = 256 * 1024,
        .window = 8,
        .inline_max = 2048,
        .min_gain = 1.03,
        .msg_overhead = 20.0,
        .sample_budget = 0.01,
        .default_bandwidth = 0.0,
    },
    .output = -1,
};

mca_pml_base_module_t mca_pml_zcomp_wrapped;
static mca_pml_base_component_t zc_wrapped_component;
static bool zc_interposed = false;

static const char *zc_codec_names[OPAL_COMPRESS_ID_RICE + 1] = {
    "raw", "lzo", "lz4", "zstd", "bzip2", "fpc", "rle", "huffman", "rice"
};

double mca_pml_zcomp_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

int mca_pml_zcomp_progress(void)
{
    static volatile int32_t busy = 0;
    int n = 0;
    if (0 == __atomic_load_n(&mca_pml_zcomp.nactive, __ATOMIC_RELAXED)) {
        return 0;
    }
    if (0 != OPAL_THREAD_ADD_FETCH32(&busy, 1) - 1) {
        OPAL_THREAD_ADD_FETCH32(&busy, -1);
        return 0; /* re-entered (or another thread is at it) */
    }
    n += mca_pml_zcomp_send_progress();
    n += mca_pml_zcomp_recv_progress();
    OPAL_THREAD_ADD_FETCH32(&busy, -1);
    return n;
}

static void zc_register_pvar(const char *name, const char *desc, unsigned long long *storage)
{
    (void) common_suite_component_pvar_register(&mca_pml_zcomp_component.pmlm_version, name, desc,
                                                MCA_BASE_PVAR_CLASS_COUNTER,
                                                MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, NULL,
                                                storage);
}

static void zc_register_pvars(void)
{
    char name[64], desc[160];
    int i;
    zc_register_pvar("bytes_original", "Bytes of messages zcomp sent compressed, before compression",
                     &mca_pml_zcomp.pv_bytes_original);
    zc_register_pvar("bytes_compressed", "Bytes zcomp put on the wire for compressed messages "
                     "(headers and chunks)", &mca_pml_zcomp.pv_bytes_sent);
    zc_register_pvar("messages_compressed", "Messages sent compressed",
                     &mca_pml_zcomp.pv_msgs_compressed);
    zc_register_pvar("messages_raw", "Messages sent raw (below the threshold, or by decision)",
                     &mca_pml_zcomp.pv_msgs_raw);
    zc_register_pvar("bytes_raw", "Bytes of messages sent raw", &mca_pml_zcomp.pv_bytes_raw);
    zc_register_pvar("messages_decompressed", "Compressed messages received",
                     &mca_pml_zcomp.pv_recv_compressed);
    zc_register_pvar("receive_errors", "Compressed messages received corrupt",
                     &mca_pml_zcomp.pv_recv_errors);
    for (i = 1; i <= OPAL_COMPRESS_ID_RICE; i++) {
        snprintf(name, sizeof(name), "%s_bytes_in", zc_codec_names[i]);
        snprintf(desc, sizeof(desc), "Bytes given to codec %s by zcomp's sends", zc_codec_names[i]);
        zc_register_pvar(name, desc, &mca_pml_zcomp.pv_codec_in[i]);
        snprintf(name, sizeof(name), "%s_bytes_out", zc_codec_names[i]);
        snprintf(desc, sizeof(desc), "Bytes codec %s produced in zcomp's sends (chunks it "
                 "did not shrink are stored raw and not counted)", zc_codec_names[i]);
        zc_register_pvar(name, desc, &mca_pml_zcomp.pv_codec_out[i]);
        snprintf(name, sizeof(name), "%s_messages", zc_codec_names[i]);
        snprintf(desc, sizeof(desc), "Messages zcomp sent compressed with codec %s",
                 zc_codec_names[i]);
        zc_register_pvar(name, desc, &mca_pml_zcomp.pv_codec_msgs[i]);
    }
}

static int zc_register(void)
{
    static const mca_base_var_enum_value_t strategies[] = {
        {ZC_STRATEGY_ADAPTIVE, "adaptive"},
        {ZC_STRATEGY_ALWAYS, "always"},
        {ZC_STRATEGY_NEVER, "never"},
        {ZC_STRATEGY_GUIDED, "guided"},
        {0, NULL}
    };
    mca_base_var_enum_t *senum = NULL;
    const mca_base_component_t *c = &mca_pml_zcomp_component.pmlm_version;
    mca_pml_zcomp_params_t *p = &mca_pml_zcomp.p;

    (void) mca_base_component_var_register(c, "enable",
        "Compress point-to-point messages transparently: wrap the selected PML (ob1) "
        "with zcomp (0 = off: Open MPI behaves exactly as without zcomp)",
        MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0, OPAL_INFO_LVL_2, MCA_BASE_VAR_SCOPE_READONLY,
        &p->enable);

    (void) mca_base_var_enum_create("pml_zcomp_strategy", strategies, &senum);
    (void) mca_base_component_var_register(c, "strategy",
        "How zcomp decides per message: adaptive (cost model with measured codec speed, "
        "ratio and path bandwidth), always (compress every eligible message with "
        "pml_zcomp_codec), never (send everything raw), guided (follow the decision file "
        "pml_zcomp_decision_file; a run without that file traces and writes it)",
        MCA_BASE_VAR_TYPE_INT, senum, 0, 0, OPAL_INFO_LVL_3, MCA_BASE_VAR_SCOPE_READONLY,
        &p->strategy);
    OBJ_RELEASE(senum);

    p->codec = "lz4";
    (void) mca_base_component_var_register(c, "codec",
        "Codec (opal/mca/compress component) used by the 'always' strategy",
        MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0, OPAL_INFO_LVL_3, MCA_BASE_VAR_SCOPE_READONLY,
        &p->codec);
    p->candidates = "lz4,zstd,rle,fpc,rice";
    (void) mca_base_component_var_register(c, "candidates",
        "Comma-separated codecs the adaptive and guided strategies choose from (each "
        "message class only samples the codecs that suit its datatype)",
        MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0, OPAL_INFO_LVL_4, MCA_BASE_VAR_SCOPE_READONLY,
        &p->candidates);
    (void) mca_base_component_var_register(c, "threshold",
        "Messages smaller than this many bytes are never compressed",
        MCA_BASE_VAR_TYPE_UNSIGNED_LONG, NULL, 0, 0, OPAL_INFO_LVL_4,
        MCA_BASE_VAR_SCOPE_READONLY, &p->threshold);
    (void) mca_base_component_var_register(c, "chunk_size",
        "Large messages are compressed, sent and decompressed in chunks of this many "
        "bytes, pipelined (compressing chunk k+1 overlaps sending chunk k)",
        MCA_BASE_VAR_TYPE_UNSIGNED_LONG, NULL, 0, 0, OPAL_INFO_LVL_5,
        MCA_BASE_VAR_SCOPE_READONLY, &p->chunk_size);
    (void) mca_base_component_var_register(c, "window",
        "Chunks in flight per message (sender and receiver)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
        &p->window);
    (void) mca_base_component_var_register(c, "inline_max",
        "A compressed message whose compressed form is at most this many bytes travels "
        "in one message with its header (must stay below the BTLs' eager limits)",
        MCA_BASE_VAR_TYPE_UNSIGNED_LONG, NULL, 0, 0, OPAL_INFO_LVL_6,
        MCA_BASE_VAR_SCOPE_READONLY, &p->inline_max);
    (void) mca_base_component_var_register(c, "path_bandwidth",
        "Bandwidth in MB/s the adaptive strategy assumes for every peer instead of "
        "measuring it (0 = measure each path online)",
        MCA_BASE_VAR_TYPE_DOUBLE, NULL, 0, 0, OPAL_INFO_LVL_4, MCA_BASE_VAR_SCOPE_READONLY,
        &p->path_bandwidth);
    (void) mca_base_component_var_register(c, "default_bandwidth",
        "Bandwidth in MB/s assumed for a path before anything was measured on it and "
        "when the calibration file does not cover it (0 = the BTL's advertised bandwidth)",
        MCA_BASE_VAR_TYPE_DOUBLE, NULL, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
        &p->default_bandwidth);
    p->calibration_file = NULL;
    (void) mca_base_component_var_register(c, "calibration_file",
        "Path bandwidths written by zcomp_calibrate, seeding the adaptive model",
        MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0, OPAL_INFO_LVL_4, MCA_BASE_VAR_SCOPE_READONLY,
        &p->calibration_file);
    p->decision_file = NULL;
    (void) mca_base_component_var_register(c, "decision_file",
        "Decision file of the guided strategy (per process: '.<rank>' is appended); "
        "written by a tracing run when it does not exist",
        MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0, OPAL_INFO_LVL_4, MCA_BASE_VAR_SCOPE_READONLY,
        &p->decision_file);
    (void) mca_base_component_var_register(c, "min_gain",
        "Adaptive: compress only when the model predicts at least this speedup",
        MCA_BASE_VAR_TYPE_DOUBLE, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_READONLY,
        &p->min_gain);
    (void) mca_base_component_var_register(c, "msg_overhead",
        "Adaptive: extra time in microseconds a compressed message costs over a raw one "
        "(its header message, codec set-up), added to the model's compressed time",
        MCA_BASE_VAR_TYPE_DOUBLE, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_READONLY,
        &p->msg_overhead);
    (void) mca_base_component_var_register(c, "sample_budget",
        "Adaptive: share (0-1) of a message class's predicted transfer time that sampling "
        "every candidate codec again may take (codec ratios and speeds drift with the "
        "data; 0: sample each class once only)",
        MCA_BASE_VAR_TYPE_DOUBLE, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_READONLY,
        &p->sample_budget);
    (void) mca_base_component_var_register(c, "verbose",
        "Verbosity of zcomp's output stream (10: every decision with its reasons)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_LOCAL,
        &p->verbose);
    (void) mca_base_component_var_register(c, "corrupt_every",
        "Testing only: corrupt every Nth compressed chunk after its checksum was taken "
        "(0 = never)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_READONLY,
        &p->corrupt_every);

    zc_register_pvars();
    return OMPI_SUCCESS;
}

/* Does the user's "pml" selection name us?  zcomp is not a PML of its own. */
static bool zc_named_in_pml_selection(void)
{
    const char **value = NULL;
    int id = mca_base_var_find("ompi", "pml", NULL, NULL);
    if (id < 0 || OPAL_SUCCESS != mca_base_var_get_value(id, &value, NULL, NULL)
        || NULL == value || NULL == value[0]) {
        return false;
    }
    return NULL != strstr(value[0], "zcomp") && '^' != value[0][0];
}

static int zc_open(void)
{
    mca_pml_zcomp.output = opal_output_open(NULL);
    opal_output_set_verbosity(mca_pml_zcomp.output, mca_pml_zcomp.p.verbose);
    if (mca_pml_zcomp.p.enable && !zc_named_in_pml_selection()) {
        opal_pointer_array_add(&mca_pml_base_pml, strdup("zcomp"));
    }
    return OMPI_SUCCESS;
}

static int zc_activate(void);

/* The PML selection closes the losing components, and closing a component
 * deregisters its variables: register the MPI_T pvars again once MPI_Init
 * enables the PML. */
static int zc_enable(bool enable)
{
    if (enable) {
        zc_register_pvars();
    }
    return mca_pml_zcomp_wrapped.pml_enable(enable);
}

static int zc_close(void)
{
    if (zc_interposed) {
        return OMPI_SUCCESS;
    }
    if (!mca_pml_zcomp.p.enable || NULL == mca_pml_base_selected_component.pmlm_init) {
        /* off, or the framework closes without a selection (ompi_info) */
        if (mca_pml_zcomp.output >= 0) {
            opal_output_close(mca_pml_zcomp.output);
            mca_pml_zcomp.output = -1;
        }
        return OMPI_SUCCESS;
    }
    /* Called by the PML selection for the losing components, after the
     * winner was installed in mca_pml: interpose now.  Keep our library
     * loaded (the selection unloads the losers); like pml/monitoring, the
     * reference is never released, as our code runs until the very end. */
    if (OPAL_SUCCESS != mca_base_component_repository_retain_component("pml", "zcomp")) {
        return OMPI_ERROR;
    }
    zc_wrapped_component = mca_pml_base_selected_component;
    mca_pml_zcomp_wrapped = mca_pml;
    mca_pml_base_selected_component = mca_pml_zcomp_component;
    /* the PML's progress, tags, CID limits and flags stay the wrapped PML's */
    mca_pml.pml_isend_init = mca_pml_zcomp_isend_init;
    mca_pml.pml_isend = mca_pml_zcomp_isend;
    mca_pml.pml_send = mca_pml_zcomp_send;
    mca_pml.pml_start = mca_pml_zcomp_start;
    mca_pml.pml_enable = zc_enable;
    zc_interposed = true;
    return zc_activate();
}

static int zc_activate(void)
{
    mca_pml_zcomp_params_t *p = &mca_pml_zcomp.p;
    static const char *snames[] = {"adaptive", "always", "never", "guided"};
    int rc;

    OBJ_CONSTRUCT(&mca_pml_zcomp.lock, opal_recursive_mutex_t);
    mca_pml_zcomp.nactive = 0;
    OBJ_CONSTRUCT(&mca_pml_zcomp.sends, opal_list_t);
    OBJ_CONSTRUCT(&mca_pml_zcomp.recvs, opal_list_t);
    mca_pml_zcomp.next_ptag = 0;
    mca_pml_zcomp.can_mark = 0 != (mca_pml_zcomp_wrapped.pml_flags & MCA_PML_BASE_FLAG_MARKED);

    if (p->chunk_size < 4096 || p->chunk_size > (1ul << 30)) {
        opal_show_help("help-pml-zcomp.txt", "bad-param", true, "pml_zcomp_chunk_size",
                       "4096 .. 1073741824");
        p->chunk_size = 256 * 1024;
    }
    if (p->window < 1 || p->window > 1024) {
        opal_show_help("help-pml-zcomp.txt", "bad-param", true, "pml_zcomp_window", "1 .. 1024");
        p->window = 8;
    }
    if (p->inline_max > 3072) {
        opal_show_help("help-pml-zcomp.txt", "bad-param", true, "pml_zcomp_inline_max",
                       "0 .. 3072");
        p->inline_max = 2048;
    }
    if (!(p->sample_budget >= 0 && p->sample_budget <= 1)) {
        opal_show_help("help-pml-zcomp.txt", "bad-param", true, "pml_zcomp_sample_budget",
                       "0 .. 1");
        p->sample_budget = 0.01;
    }

    rc = mca_base_framework_open(&opal_compress_base_framework, 0);
    if (OPAL_SUCCESS == rc) {
        mca_pml_zcomp.compress_open = true;
        (void) opal_compress_base_select();
    } else {
        opal_show_help("help-pml-zcomp.txt", "no-compress", true);
        p->strategy = ZC_STRATEGY_NEVER;
    }
    if (!mca_pml_zcomp.can_mark && ZC_STRATEGY_NEVER != p->strategy) {
        opal_show_help("help-pml-zcomp.txt", "pml-cannot-mark", true,
                       zc_wrapped_component.pmlm_version.mca_component_name);
        p->strategy = ZC_STRATEGY_NEVER;
    }
    if (ZC_STRATEGY_ALWAYS == p->strategy) {
        mca_pml_zcomp.always_codec = opal_compress_base_find(p->codec);
        if (NULL == mca_pml_zcomp.always_codec) {
            opal_show_help("help-pml-zcomp.txt", "unknown-codec", true, p->codec,
                           "pml_zcomp_codec");
            p->strategy = ZC_STRATEGY_NEVER;
        }
    }
    if (ZC_STRATEGY_NEVER != p->strategy) {
        mca_pml_base_marked_recv_hook = mca_pml_zcomp_recv_hook;
    } else {
        /* a peer may still compress (its parameters may differ) */
        mca_pml_base_marked_recv_hook = mca_pml_zcomp.can_mark ? mca_pml_zcomp_recv_hook : NULL;
    }
    if (NULL != mca_pml_base_marked_recv_hook) {
        /* before MPI_Init's modex fence: peers compress only to processes
         * that published this (zc_peer_has_zcomp) */
        uint32_t v = ZC_VERSION;
        OPAL_MODEX_SEND_VALUE(rc, OPAL_PMIX_GLOBAL, ZC_MODEX_KEY, &v, OPAL_UINT32);
        if (OPAL_SUCCESS != rc) {
            ZC_VERBOSE(1, "zcomp: cannot publish the wire version (%d): peers will send raw", rc);
        }
    }
    rc = mca_pml_zcomp_model_init();
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    opal_progress_register(mca_pml_zcomp_progress);
    mca_pml_zcomp.active = true;
    ZC_VERBOSE(1, "zcomp: wrapping pml %s, strategy %s%s%s, threshold %lu B, chunks of %lu B",
               zc_wrapped_component.pmlm_version.mca_component_name, snames[p->strategy],
               ZC_STRATEGY_ALWAYS == p->strategy ? ", codec " : "",
               ZC_STRATEGY_ALWAYS == p->strategy ? p->codec : "", p->threshold, p->chunk_size);
    return OMPI_SUCCESS;
}

static mca_pml_base_module_t *zc_init(int *priority, bool enable_progress_threads,
                                      bool enable_mpi_threads)
{
    (void) enable_progress_threads;
    (void) enable_mpi_threads;
    if (zc_named_in_pml_selection()) {
        opal_show_help("help-pml-zcomp.txt", "not-a-pml", true);
        ompi_rte_abort(1, NULL);
        return NULL;
    }
    if (!mca_pml_zcomp.p.enable) {
        return NULL;
    }
    *priority = 0; /* present, but never the winner: we wrap the winner */
    return &mca_pml_zcomp_wrapped;
}

static int zc_finalize(void)
{
    if (!mca_pml_zcomp.active) {
        return OMPI_SUCCESS;
    }
    /* drain what is still in flight (sends the user freed early) */
    {
        double t0 = mca_pml_zcomp_now();
        while ((!opal_list_is_empty(&mca_pml_zcomp.sends)
                || !opal_list_is_empty(&mca_pml_zcomp.recvs))
               && mca_pml_zcomp_now() - t0 < 10.0) {
            opal_progress();
        }
        if (!opal_list_is_empty(&mca_pml_zcomp.sends) || !opal_list_is_empty(&mca_pml_zcomp.recvs)) {
            ZC_VERBOSE(1, "zcomp: finalize: %zu sends and %zu receives never completed",
                       opal_list_get_size(&mca_pml_zcomp.sends),
                       opal_list_get_size(&mca_pml_zcomp.recvs));
        }
    }
    opal_progress_unregister(mca_pml_zcomp_progress);
    mca_pml_base_marked_recv_hook = NULL;
    mca_pml_zcomp_model_fini();
    ZC_VERBOSE(1, "zcomp: sent %llu messages compressed (%llu -> %llu bytes), %llu raw; "
               "received %llu compressed, %llu corrupt",
               mca_pml_zcomp.pv_msgs_compressed, mca_pml_zcomp.pv_bytes_original,
               mca_pml_zcomp.pv_bytes_sent, mca_pml_zcomp.pv_msgs_raw,
               mca_pml_zcomp.pv_recv_compressed, mca_pml_zcomp.pv_recv_errors);
    if (mca_pml_zcomp.compress_open) {
        (void) mca_base_framework_close(&opal_compress_base_framework);
        mca_pml_zcomp.compress_open = false;
    }
    OBJ_DESTRUCT(&mca_pml_zcomp.sends);
    OBJ_DESTRUCT(&mca_pml_zcomp.recvs);
    OBJ_DESTRUCT(&mca_pml_zcomp.lock);
    mca_pml_zcomp.active = false;
    /* give the wrapped PML back and let it finalize */
    mca_pml_base_selected_component = zc_wrapped_component;
    mca_pml = mca_pml_zcomp_wrapped;
    if (mca_pml_zcomp.output >= 0) {
        opal_output_close(mca_pml_zcomp.output);
        mca_pml_zcomp.output = -1;
    }
    if (NULL != zc_wrapped_component.pmlm_finalize) {
        return zc_wrapped_component.pmlm_finalize();
    }
    return OMPI_SUCCESS;
}

mca_pml_base_component_2_0_0_t mca_pml_zcomp_component = {
    .pmlm_version = {
        MCA_PML_BASE_VERSION_2_0_0,
        .mca_component_name = "zcomp",
        MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                              OMPI_RELEASE_VERSION),
        .mca_open_component = zc_open,
        .mca_close_component = zc_close,
        .mca_register_component_params = zc_register,
    },
    .pmlm_data = {
        MCA_BASE_METADATA_PARAM_CHECKPOINT
    },
    .pmlm_init = zc_init,
    .pmlm_finalize = zc_finalize,
};
