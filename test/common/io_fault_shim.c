/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * A fault injector for file I/O, loaded with LD_PRELOAD.  Nothing happens
 * until the program arms it (found with dlsym(RTLD_DEFAULT, ...), so a
 * program runs unchanged without it):
 *
 *   iofault_arm(path, op, kind, nth): the nth write ('w': write, pwrite,
 *   pwritev and their 64-bit names), read ('r': read, pread, preadv),
 *   fsync ('f': fsync, fdatasync), close ('c': the descriptor is closed,
 *   then the error returned, as Linux does), ftruncate ('t') or aio
 *   submission ('a': aio_write, aio_read) of this process on the file at
 *   path (compared with /proc/self/fd/N; a path with a '*' is a pattern,
 *   for files whose names the program does not know, such as a shared
 *   file pointer's) fails with EIO (kind 'e'), ENOSPC (kind 'n'), or
 *   transfers only half of what was asked (kind 's', a short transfer,
 *   which POSIX allows at any time); kind 'g' makes the nth and every
 *   later call fail with EAGAIN (the kernel's aio queue full); every other
 *   call goes through.  iofault_arm(NULL, 0, 0, 0) disarms.
 *   iofault_fired(): how many faults were injected since the last arm.
 *
 * The transfers of asynchronous I/O are not intercepted (glibc calls
 * pwrite inside its own library there), only their submission.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>
#include <aio.h>

static char target[PATH_MAX];
static int armed_op, armed_kind, armed_nth, calls, fired;

void iofault_arm(const char *path, int op, int kind, int nth);
int iofault_fired(void);

void iofault_arm(const char *path, int op, int kind, int nth)
{
    target[0] = '\0';
    if (NULL != path) {
        snprintf(target, sizeof(target), "%s", path);
    }
    armed_op = op;
    armed_kind = kind;
    armed_nth = nth;
    calls = 0;
    fired = 0;
}

int iofault_fired(void)
{
    return fired;
}

/* Whether this call on fd is the one to fail: 0 no, else the kind. */
static int iofault_hit(int fd, int op)
{
    char link[64], path[PATH_MAX];
    ssize_t n;
    int err = errno;

    if (0 == armed_op || op != armed_op || '\0' == target[0]) {
        return 0;
    }
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    n = readlink(link, path, sizeof(path) - 1);
    errno = err;
    if (n <= 0) {
        return 0;
    }
    path[n] = '\0';
    if (strchr(target, '*') ? 0 != fnmatch(target, path, 0) : 0 != strcmp(path, target)) {
        return 0;
    }
    ++calls;
    if ('g' == armed_kind ? calls < armed_nth : calls != armed_nth) {
        return 0;
    }
    fired++;
    fprintf(stderr, "iofault: injected %s into %s call %d on %s (pid %d)\n",
            's' == armed_kind ? "a short transfer"
                              : ('n' == armed_kind ? "ENOSPC" : ('g' == armed_kind ? "EAGAIN" : "EIO")),
            'w' == op ? "write" : ('r' == op ? "read" : ('a' == op ? "aio submission" :
                                  ('c' == op ? "close" : ('t' == op ? "ftruncate" : "fsync")))),
            calls, path, (int) getpid());
    return armed_kind;
}

#define REAL(name, type) \
    static type real_##name; \
    if (NULL == real_##name) { \
        real_##name = (type) dlsym(RTLD_NEXT, #name); \
    }

static ssize_t fail_with(int kind)
{
    errno = ('n' == kind) ? ENOSPC : ('g' == kind ? EAGAIN : EIO);
    return -1;
}

/* the halved length of a short transfer: at least one byte */
static size_t half(size_t len)
{
    return len > 1 ? len / 2 : len;
}

/* an iovec list cut to half its bytes */
static int half_iov(const struct iovec *iov, int cnt, struct iovec *out, int max)
{
    size_t total = 0, want;
    int i;

    for (i = 0; i < cnt; i++) {
        total += iov[i].iov_len;
    }
    want = half(total);
    for (i = 0; i < cnt && i < max && want > 0; i++) {
        out[i] = iov[i];
        if (out[i].iov_len > want) {
            out[i].iov_len = want;
        }
        want -= out[i].iov_len;
    }
    return i;
}

#define IOV_CUT 1024

#define PWRITE_LIKE(name, offt) \
    ssize_t name(int fd, const void *buf, size_t len, offt off) \
    { \
        typedef ssize_t (*fn_t)(int, const void *, size_t, offt); \
        REAL(name, fn_t); \
        int k = iofault_hit(fd, 'w'); \
        if ('s' == k) { \
            return real_##name(fd, buf, half(len), off); \
        } \
        return k ? fail_with(k) : real_##name(fd, buf, len, off); \
    }
#define PREAD_LIKE(name, offt) \
    ssize_t name(int fd, void *buf, size_t len, offt off) \
    { \
        typedef ssize_t (*fn_t)(int, void *, size_t, offt); \
        REAL(name, fn_t); \
        int k = iofault_hit(fd, 'r'); \
        if ('s' == k) { \
            return real_##name(fd, buf, half(len), off); \
        } \
        return k ? fail_with(k) : real_##name(fd, buf, len, off); \
    }
#define PWRITEV_LIKE(name, offt, op) \
    ssize_t name(int fd, const struct iovec *iov, int cnt, offt off) \
    { \
        typedef ssize_t (*fn_t)(int, const struct iovec *, int, offt); \
        REAL(name, fn_t); \
        int k = iofault_hit(fd, op); \
        if ('s' == k) { \
            struct iovec cut[IOV_CUT]; \
            int n = half_iov(iov, cnt, cut, IOV_CUT); \
            return real_##name(fd, cut, n, off); \
        } \
        return k ? fail_with(k) : real_##name(fd, iov, cnt, off); \
    }

PWRITE_LIKE(pwrite, off_t)
PWRITE_LIKE(pwrite64, off64_t)
PREAD_LIKE(pread, off_t)
PREAD_LIKE(pread64, off64_t)
PWRITEV_LIKE(pwritev, off_t, 'w')
PWRITEV_LIKE(pwritev64, off64_t, 'w')
PWRITEV_LIKE(preadv, off_t, 'r')
PWRITEV_LIKE(preadv64, off64_t, 'r')

ssize_t write(int fd, const void *buf, size_t len)
{
    typedef ssize_t (*fn_t)(int, const void *, size_t);
    REAL(write, fn_t);
    int k = iofault_hit(fd, 'w');
    if ('s' == k) {
        return real_write(fd, buf, half(len));
    }
    return k ? fail_with(k) : real_write(fd, buf, len);
}

ssize_t read(int fd, void *buf, size_t len)
{
    typedef ssize_t (*fn_t)(int, void *, size_t);
    REAL(read, fn_t);
    int k = iofault_hit(fd, 'r');
    if ('s' == k) {
        return real_read(fd, buf, half(len));
    }
    return k ? fail_with(k) : real_read(fd, buf, len);
}

int fsync(int fd)
{
    typedef int (*fn_t)(int);
    REAL(fsync, fn_t);
    int k = iofault_hit(fd, 'f');
    return k ? (int) fail_with(k) : real_fsync(fd);
}

int close(int fd)
{
    typedef int (*fn_t)(int);
    REAL(close, fn_t);
    int k = iofault_hit(fd, 'c'), rc = real_close(fd);
    return k ? (int) fail_with(k) : rc;
}

int ftruncate(int fd, off_t len)
{
    typedef int (*fn_t)(int, off_t);
    REAL(ftruncate, fn_t);
    int k = iofault_hit(fd, 't');
    return k ? (int) fail_with(k) : real_ftruncate(fd, len);
}

int fdatasync(int fd)
{
    typedef int (*fn_t)(int);
    REAL(fdatasync, fn_t);
    int k = iofault_hit(fd, 'f');
    return k ? (int) fail_with(k) : real_fdatasync(fd);
}

#define AIO_LIKE(name)                                        \
    int name(struct aiocb *cb)                                \
    {                                                         \
        typedef int (*fn_t)(struct aiocb *);                  \
        REAL(name, fn_t);                                     \
        int k = iofault_hit(cb->aio_fildes, 'a');             \
        return k ? (int) fail_with(k) : real_##name(cb);      \
    }
AIO_LIKE(aio_write)
AIO_LIKE(aio_read)
