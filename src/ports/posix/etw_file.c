/* POSIX glue of the ETW recorder (recorder library evtrace_rec, POSIX port): an .etl file as the
 * session's write target (positioned writes), and the platform hooks: wall clock as FILETIME, the
 * calling thread's kernel/user CPU time, kernel thread id and process id, and the writers' barrier
 * of THREAD_OWNED sessions (membarrier). C11 + POSIX/Linux. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#include <stdlib.h>
#include "evtrace/etw.h"

/* An open .etl file. */
struct evt_etw_file {
    FILE *fp;      /* the file */
    int failed;    /* a write failed */
};

static int file_write(void *user, uint64_t offset, const void *data, uint32_t len)
{
    struct evt_etw_file *f = user;
    if (fseeko(f->fp, (off_t)offset, SEEK_SET) != 0 || fwrite(data, 1, len, f->fp) != len) {
        f->failed = 1;
        return -1;
    }
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
 * for the process id; a fork child clears both (pthread_atfork). */
static _Thread_local uint32_t t_tid;
static uint32_t g_pid;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void after_fork_child(void)
{
    t_tid = 0;
    g_pid = 0;
}
static void register_fork_handler(void) { pthread_atfork(NULL, NULL, after_fork_child); }

uint32_t evt_etw_posix_thread_id(void)
{
    if (!t_tid) {
        pthread_once(&g_once, register_fork_handler);
#ifdef SYS_gettid
        t_tid = (uint32_t)syscall(SYS_gettid);
#else
        t_tid = (uint32_t)getpid();
#endif
    }
    return t_tid;
}

uint32_t evt_etw_posix_process_id(void)
{
    if (!g_pid) {
        pthread_once(&g_once, register_fork_handler);
        g_pid = (uint32_t)getpid();
    }
    return g_pid;
}

void evt_etw_posix_sync_writers(void) { (void)evt_posix_membarrier(); }

struct evt_etw_file *evt_etw_file_open(const char *path, evt_etw_session_config *cfg)
{
    struct evt_etw_file *f = calloc(1, sizeof *f);
    if (!f) { errno = ENOMEM; return NULL; }
    f->fp = fopen(path, "wb");
    if (!f->fp) { free(f); return NULL; }
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
    if (fclose(f->fp) != 0) rc = -1;
    free(f);
    return rc;
}
