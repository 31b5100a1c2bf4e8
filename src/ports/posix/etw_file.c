/* POSIX glue of the ETW recorder (recorder library evtrace_rec, POSIX port): an .etl file as the
 * session's write target (positioned writes), and the platform hooks: wall clock as FILETIME, the
 * calling thread's kernel/user CPU time, kernel thread id and process id, and the writers' barrier
 * of THREAD_OWNED sessions (membarrier). C11 + POSIX/Linux. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#include <stdlib.h>
#include "evtrace/etw.h"
#include "formats/common/bytes.h"
#include "evtrace/port.h"
#include "formats/etw/etw_enc_int.h"

/* An open .etl file, written with pwrite (no stdio buffer: a failed write is reported by the call
 * that failed, to the buffer it belongs to; with stdio a full disk was reported by a later write
 * or only at close, and the recorder counted the wrong buffer lost, or none).
 * A buffer reaches us as calls at rising offsets from its start (a multiple of BufferSize, which
 * the first write, buffer 0's WMI_BUFFER_HEADER, gives). When one of them fails, the bytes already
 * written for that buffer are taken back if the buffer was growing the file (ftruncate to its
 * start): the recorder counts the buffer's events lost, and a reader must not find a part of it
 * (a loss record in it was counted twice: once read, once re-pended into EventsLost). */
struct evt_etw_file {
    int fd;            /* the file */
    int failed;        /* a write failed */
    uint32_t bsz;      /* BufferSize (0 until buffer 0 is written) */
    uint64_t end;      /* bytes in the file */
    uint64_t buf_at;   /* start of the buffer being written */
    uint64_t end_at;   /* `end` when that buffer's first write came */
};

static int file_write(void *user, uint64_t offset, const void *data, uint32_t len)
{
    struct evt_etw_file *f = user;
    if (offset == 0 && len >= ETW_BH_BUFFER_SIZE + 4u && !f->bsz)
        f->bsz = evt_ld_u32le((const uint8_t *)data + ETW_BH_BUFFER_SIZE);
    if (f->bsz && offset % f->bsz == 0) { /* a buffer's first write */
        f->buf_at = offset;
        f->end_at = f->end;
    }
    const uint8_t *p = data;
    uint64_t at = offset;
    for (uint32_t left = len; left;) {
        ssize_t k = pwrite(f->fd, p, left, (off_t)at);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            if (at > f->end) f->end = at;
            if (f->bsz && f->buf_at >= f->end_at && f->end > f->buf_at && f->buf_at / f->bsz == offset / f->bsz &&
                ftruncate(f->fd, (off_t)f->buf_at) == 0)
                f->end = f->buf_at; /* the failed buffer was growing the file: none of it stays */
            f->failed = 1;
            return -1;
        }
        p += k;
        at += (uint64_t)k;
        left -= (uint32_t)k;
    }
    if (at > f->end) f->end = at;
    return 0;
}

uint64_t evt_etw_posix_filetime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ETW_FILETIME_UNIX_EPOCH + (uint64_t)ts.tv_sec * 10000000u + (uint64_t)ts.tv_nsec / 100u;
}

void evt_etw_posix_cpu_times(uint64_t *kernel_100ns, uint64_t *user_100ns)
{
#ifdef RUSAGE_THREAD
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) == 0) {
        *kernel_100ns = (uint64_t)ru.ru_stime.tv_sec * 10000000u + (uint64_t)ru.ru_stime.tv_usec * 10u;
        *user_100ns = (uint64_t)ru.ru_utime.tv_sec * 10000000u + (uint64_t)ru.ru_utime.tv_usec * 10u;
        return;
    }
#endif
    struct timespec ts;
    *kernel_100ns = 0;
    *user_100ns = 0;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        *user_100ns = (uint64_t)ts.tv_sec * 10000000u + (uint64_t)ts.tv_nsec / 100u;
}

/* Ids are cached (gettid and getpid are system calls): per thread for the thread id, per process
 * for the process id; a fork child clears both (pthread_atfork). The thread's cache is also read
 * inline by the ETW record (etw_enc_int.h: 0 = not cached yet, then it calls the hook). */
_Thread_local uint32_t evt_etw_posix_tid_;
static uint32_t g_pid;
static int g_fork_handler; /* atomic: the fork handler is (being) registered */

static void after_fork_child(void)
{
    evt_etw_posix_tid_ = 0;
    g_pid = 0;
}
/* Not pthread_once: a signal handler that records on a thread inside the first call would wait for
 * it, i.e. for itself. The first caller registers; the others go on at once. */
static void register_fork_handler(void)
{
    if (!__atomic_load_n(&g_fork_handler, __ATOMIC_RELAXED) && !__atomic_exchange_n(&g_fork_handler, 1, __ATOMIC_ACQ_REL))
        pthread_atfork(NULL, NULL, after_fork_child);
}

uint32_t evt_etw_posix_thread_id(void)
{
    if (!evt_etw_posix_tid_) {
        register_fork_handler();
#ifdef SYS_gettid
        evt_etw_posix_tid_ = (uint32_t)syscall(SYS_gettid);
#else
        evt_etw_posix_tid_ = (uint32_t)getpid();
#endif
    }
    return evt_etw_posix_tid_;
}

uint32_t evt_etw_posix_process_id(void)
{
    if (!g_pid) {
        register_fork_handler();
        g_pid = (uint32_t)getpid();
    }
    return g_pid;
}

void evt_etw_posix_sync_writers(void) { (void)evt_posix_membarrier(); }

struct evt_etw_file *evt_etw_file_open(const char *path, evt_etw_session_config *cfg)
{
    if (!path || !cfg) { errno = EINVAL; return NULL; }
    struct evt_etw_file *f = calloc(1, sizeof *f);
    if (!f) { errno = ENOMEM; return NULL; }
    f->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (f->fd < 0) { int e = errno; free(f); errno = e; return NULL; }
    cfg->write = file_write;
    cfg->write_user = f;
    if (!cfg->filetime) cfg->filetime = evt_etw_posix_filetime;
    if (!cfg->cpu_times) cfg->cpu_times = evt_etw_posix_cpu_times;
    if (!cfg->thread_id) cfg->thread_id = evt_etw_posix_thread_id;
    if (!cfg->process_id) cfg->process_id = evt_etw_posix_process_id;
    if (!cfg->sync_writers) cfg->sync_writers = evt_etw_posix_sync_writers;
    if (!cfg->log_file_name) cfg->log_file_name = path;
    return f;
}

int evt_etw_file_close(struct evt_etw_file *f)
{
    if (!f) return -1;
    int rc = f->failed ? -1 : 0;
    if (close(f->fd) != 0) rc = -1;
    free(f);
    return rc;
}
