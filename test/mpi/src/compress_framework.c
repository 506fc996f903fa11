/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The compress framework as a caller sees it inside an OPAL process:
 * which codecs are open (by name and by wire id), a round trip through each,
 * Open MPI 4.1's name bzip finding bzip2's codec, and the legacy whole-file
 * interface (opal_compress) including a corrupt file, a file of the older
 * format version 1 and of an unknown version.  The file interface writes
 * the framework's container, or upstream's .gz / .bz2 file when gzip or
 * bzip writes files; it leaves DIR/data.bin.orig and the file it made of
 * it, DIR/pristine<postfix>, for the script to check with gunzip/bunzip2.
 * Prints "codecs: name,name,..." and "compress_framework: OK".
 *
 * Usage: compress_framework [DIR-for-files]
 *        compress_framework --decompress FILE   (as opal-restart does)
 */
#include "opal_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "opal/mca/base/base.h"
#include "opal/mca/compress/base/base.h"
#include "opal/runtime/opal.h"
#include "datasets.h"

/* failures are reported and counted, the checks go on */
static int fails = 0;
#define CHECK_FAIL(...) (printf("FAIL: " __VA_ARGS__), printf("\n"), fails++)
#include "check.h"

/* Writes a compressed file by hand: the magic with format version ver, then
 * one stored (raw) block of data[0..n) that claims checksum sum. */
static void write_raw_file(const char *path, char ver, const char *data, size_t n, uint64_t sum)
{
    const char magic[8] = {'O', 'P', 'A', 'L', 'C', 'Z', ver, '\n'};
    unsigned char hdr[17] = {0}; /* codec id 0: stored raw */
    FILE *f = fopen(path, "wb");
    opal_compress_base_store_le32(hdr + 1, (uint32_t) n);
    opal_compress_base_store_le32(hdr + 5, (uint32_t) n);
    opal_compress_base_store_le64(hdr + 9, sum);
    fwrite(magic, 1, sizeof(magic), f);
    fwrite(hdr, 1, sizeof(hdr), f);
    fwrite(data, 1, n, f);
    fclose(f);
}

static int file_is(const char *path, const char *data, size_t n)
{
    char buf[256];
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(buf, 1, sizeof(buf), f) : 0;
    if (f) fclose(f);
    return got == n && 0 == memcmp(buf, data, n);
}

static void copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    int ch;
    while (a && b && EOF != (ch = getc(a))) putc(ch, b);
    if (a) fclose(a);
    if (b) fclose(b);
}

/* Whether file path starts with the n bytes of magic. */
static int starts_with(const char *path, const char *magic, size_t n)
{
    char m[16] = {0};
    FILE *f = fopen(path, "rb");
    int ok = NULL != f && n == fread(m, 1, n, f) && 0 == memcmp(m, magic, n);
    if (f) fclose(f);
    return ok;
}

static int files_equal(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int ca, cb, eq = fa && fb;
    while (eq && (ca = getc(fa)) == (cb = getc(fb)) && ca != EOF) ;
    eq = eq && ca == cb;
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    return eq;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    if (OPAL_SUCCESS != opal_init_util(&argc, &argv)
        || OPAL_SUCCESS != mca_base_framework_open(&opal_compress_base_framework, 0)
        || OPAL_SUCCESS != opal_compress_base_select()) {
        printf("FAIL: cannot open the compress framework\n");
        return 1;
    }
    if (argc > 2 && 0 == strcmp(argv[1], "--decompress")) {
        char *fname = NULL;
        int rc = opal_compress.decompress(argv[2], &fname);
        printf("decompress: %s -> %s: rc %d\n", argv[2], fname ? fname : "(null)", rc);
        free(fname);
        mca_base_framework_close(&opal_compress_base_framework);
        opal_finalize_util();
        return OPAL_SUCCESS == rc ? 0 : 1;
    }

    const opal_compress_codec_t *list[64];
    int n = opal_compress_base_codecs(list, 64);
    printf("codecs:");
    for (int i = 0; i < n; i++) printf("%s%s", i ? "," : " ", list[i]->name);
    printf("\n");

    size_t len = 1 << 20;
    unsigned char *src = malloc(len), *dst = malloc(len);
    datasets[3].fill(src, len, 1);  /* int-75%zero */
    for (int i = 0; i < n; i++) {
        const opal_compress_codec_t *c = list[i];
        CHECK(opal_compress_base_find(c->name) == c, "find(%s)", c->name);
        CHECK(opal_compress_base_find_id(c->id) == c, "find_id(%d)", c->id);
        unsigned char *z = malloc(c->bound(len));
        ssize_t zn = c->compress(src, len, z, c->bound(len));
        CHECK(zn > 0 && c->decompress(z, zn, dst, len, len) == (ssize_t) len
              && 0 == memcmp(src, dst, len), "%s round trip through the framework", c->name);
        if (zn > 0) {
            z[zn / 2] ^= 0x55;  /* a corrupt stream must fail or decode, never crash */
            ssize_t r = c->decompress(z, zn, dst, len, len);
            CHECK(r == (ssize_t) len || r < 0, "%s corrupt stream returned %zd", c->name, r);
        }
        printf("%s: id %d ratio %.2f\n", c->name, c->id, zn > 0 ? (double) len / zn : 0.0);
        free(z);
    }
    CHECK(NULL == opal_compress_base_find("nosuchcodec"), "unknown codec found");
    /* Open MPI 4.1's bzip is a second name of bzip2, whichever is open */
    const opal_compress_codec_t *bz = opal_compress_base_find("bzip");
    CHECK(bz == opal_compress_base_find("bzip2"), "find(bzip) is not find(bzip2)");
    CHECK(NULL == bz || (bz->id == OPAL_COMPRESS_ID_BZIP2 && bz == opal_compress_base_find_id(bz->id)),
          "find(bzip) is not the codec of wire id %d", OPAL_COMPRESS_ID_BZIP2);
    if (NULL != bz) printf("find bzip: %s (id %d)\n", bz->name, bz->id);
    CHECK(NULL == opal_compress_base_find_id(0), "raw id has a codec");

    /* Legacy whole-file interface, used by opal-restart / sstore. */
    if (n > 0) {
        char path[4096], *cname = NULL, *postfix = NULL, *fname = NULL;
        snprintf(path, sizeof(path), "%s/data.bin", dir);
        FILE *f = fopen(path, "wb");
        for (int k = 0; k < 9; k++) fwrite(src, 1, len, f);  /* 9 MB: 3 blocks */
        fwrite(src, 1, 12345, f);
        fclose(f);
        int rc = opal_compress.compress(path, &cname, &postfix);
        CHECK(OPAL_SUCCESS == rc, "file compress rc %d", rc);
        /* upstream's gzip and bzip wrote .gz and .bz2 files; the rest
         * write the framework's container, format version 2 */
        if (0 == strcmp(postfix, ".gz")) {
            CHECK(starts_with(cname, "\x1f\x8b\x08", 3), "a .gz file is not a gzip file");
        } else if (0 == strcmp(postfix, ".bz2")) {
            CHECK(starts_with(cname, "BZh", 3), "a .bz2 file is not a bzip2 file");
        } else {
            CHECK(starts_with(cname, "OPALCZ2\n", 8), "a new file is not written in format version 2");
        }
        char pristine[4200];
        snprintf(pristine, sizeof(pristine), "%s/pristine%s", dir, postfix);
        copy_file(cname, pristine);
        printf("file: %s -> %s (postfix %s, codec %s)\n", path, cname, postfix,
               opal_compress_base_selected_component.base_version.mca_component_name);
        char orig[4200];
        snprintf(orig, sizeof(orig), "%s.orig", path);
        rename(path, orig);
        rc = opal_compress.decompress(cname, &fname);
        CHECK(OPAL_SUCCESS == rc && 0 == strcmp(fname, path) && files_equal(orig, path),
              "file round trip (rc %d, name %s)", rc, fname ? fname : "(null)");
        free(fname); fname = NULL;

        pid_t pid; int st;
        unlink(path);
        rc = opal_compress.decompress_nb(cname, &fname, &pid);
        CHECK(OPAL_SUCCESS == rc && pid == waitpid(pid, &st, 0) && WIFEXITED(st)
              && 0 == WEXITSTATUS(st) && files_equal(orig, path), "decompress_nb");
        free(fname); fname = NULL;

        /* Corrupt the compressed file in its middle: a clear error, no output. */
        f = fopen(cname, "r+b");
        fseek(f, 0, SEEK_END);
        long sz = ftell(f);
        fseek(f, sz / 2, SEEK_SET);
        for (int k = 0; k < 64; k++) fputc(0xA5, f);
        fclose(f);
        unlink(path);
        rc = opal_compress.decompress(cname, &fname);
        CHECK(OPAL_SUCCESS != rc, "corrupt file decompressed");
        FILE *out = fopen(path, "rb");
        CHECK(NULL == out, "corrupt file left output behind");
        if (out) fclose(out);
        free(fname); free(cname); free(postfix);

        /* Directories are refused with a message, not mangled. */
        rc = opal_compress.compress((char *) dir, &cname, &postfix);
        CHECK(OPAL_ERR_NOT_SUPPORTED == rc, "directory compress rc %d", rc);
        free(cname); free(postfix);
    }

    /* File format versions, with stored blocks (no codec needed).  The
     * version 1 fixture's checksum was computed by the version 1 code. */
    {
        static const char v1_data[] = "written by the version 1 file format\n";
        const uint64_t v1_sum = 0xe2d8460a69dd8b8eull;
        const size_t n1 = sizeof(v1_data) - 1;
        char zpath[4096], opath[4200];
        int rc;
        snprintf(zpath, sizeof(zpath), "%s/fmt.z", dir);
        snprintf(opath, sizeof(opath), "%s/fmt.out", dir);

        write_raw_file(zpath, '1', v1_data, n1, v1_sum);
        rc = opal_compress_base_file_decompress(zpath, opath);
        CHECK(OPAL_SUCCESS == rc && file_is(opath, v1_data, n1),
              "a version 1 file does not decode (rc %d)", rc);
        unlink(opath);

        write_raw_file(zpath, '1', v1_data, n1, v1_sum ^ 1);
        rc = opal_compress_base_file_decompress(zpath, opath);
        CHECK(OPAL_ERR_UNPACK_FAILURE == rc && 0 != access(opath, F_OK),
              "a version 1 file with a wrong checksum: rc %d", rc);

        write_raw_file(zpath, '2', v1_data, n1, opal_compress_base_checksum(v1_data, n1));
        rc = opal_compress_base_file_decompress(zpath, opath);
        CHECK(OPAL_SUCCESS == rc && file_is(opath, v1_data, n1),
              "a version 2 stored block does not decode (rc %d)", rc);
        unlink(opath);

        /* a version 2 file whose data changed after it was written */
        char bad[sizeof(v1_data)];
        memcpy(bad, v1_data, sizeof(bad));
        bad[5] ^= 0x20;
        write_raw_file(zpath, '2', bad, n1, opal_compress_base_checksum(v1_data, n1));
        rc = opal_compress_base_file_decompress(zpath, opath);
        CHECK(OPAL_ERR_UNPACK_FAILURE == rc && 0 != access(opath, F_OK),
              "a corrupt version 2 file: rc %d", rc);

        write_raw_file(zpath, '9', v1_data, n1, opal_compress_base_checksum(v1_data, n1));
        rc = opal_compress_base_file_decompress(zpath, opath);
        CHECK(OPAL_ERR_UNPACK_FAILURE == rc && 0 != access(opath, F_OK),
              "an unknown format version: rc %d", rc);
        unlink(zpath);
    }

    free(src); free(dst);
    mca_base_framework_close(&opal_compress_base_framework);
    opal_finalize_util();
    printf("compress_framework: %s\n", fails ? "FAILED" : "OK");
    return fails ? 1 : 0;
}
