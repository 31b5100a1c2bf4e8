/* Test program for the XRay oracle tests (xray_oracle.py), built with clang -fxray-instrument:
 * 3 threads doing recursion, a logged argument, a tail call and custom events. argv[1] selects the
 * logging: "xray-fdr" (compiler-rt FDR: init, finalize, flush), "xray-basic" (compiler-rt basic,
 * selected by XRAY_OPTIONS), or "evtrace" (built with -DXRAY_PROG_EVTRACE: evtrace's handlers,
 * file $EVT_XRAY_FILE; "evtrace-empty": a session started and stopped before any call). In evtrace mode it prints the calls it made as one JSON line
 * {"function:tid": count}. */
#define _GNU_SOURCE /* syscall() */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef XRAY_PROG_EVTRACE
#include "evtrace/xray.h"
#endif

/* compiler-rt's C++ headers declare these; a C program declares them itself. */
int __xray_log_init_mode(const char *mode, const char *config);
int __xray_log_finalize(void);
int __xray_log_flushLog(void);

#define ITERS 3
#define NTHREADS 3
#define NFUNCS 6

static const char *const k_names[NFUNCS] = {"leaf", "fib", "with_arg", "tail_callee", "tail_caller", "emit_custom"};
/* Calls per function per thread slot, counted outside instrumented code paths that matter. */
static unsigned long g_calls[NTHREADS][NFUNCS];
static long g_tid[NTHREADS];
static __thread int t_slot;
static __thread char t_evbuf[32];

#define COUNT(f) (g_calls[t_slot][f]++)

__attribute__((xray_always_instrument, noinline)) static int leaf(int x)
{
    COUNT(0);
    __asm__ volatile("" ::: "memory");
    return x + 1;
}

__attribute__((xray_always_instrument, noinline)) static int fib(int n)
{
    COUNT(1);
    if (n < 2) return leaf(n);
    int a = fib(n - 1), b = fib(n - 2);
    __asm__ volatile("" : "+r"(a), "+r"(b)); /* no accumulator tail-recursion elimination */
    return a + b;
}

__attribute__((xray_always_instrument, xray_log_args(1), noinline)) static int with_arg(long v)
{
    COUNT(2);
    __asm__ volatile("" ::: "memory");
    return (int)v * 2;
}

__attribute__((xray_always_instrument, noinline)) static int tail_callee(int x)
{
    COUNT(3);
    __asm__ volatile("" ::: "memory");
    return x * 3;
}

__attribute__((xray_always_instrument, noinline)) static int tail_caller(int x)
{
    COUNT(4);
    __asm__ volatile("" ::: "memory");
    return tail_callee(x + 1);
}

__attribute__((xray_always_instrument, noinline)) static void emit_custom(int t, int i)
{
    COUNT(5);
    int n = snprintf(t_evbuf, sizeof t_evbuf, "ev t%d i%d", t, i);
    __asm__ volatile("" ::: "memory");
    __xray_customevent(t_evbuf, (size_t)n);
}

__attribute__((xray_always_instrument, noinline)) static int do_work(int t)
{
    int acc = 0;
    for (int i = 0; i < ITERS; i++) {
        acc += fib(4);
        acc += with_arg((long)t * 1000 + i);
        acc += tail_caller(i);
        emit_custom(t, i);
    }
    return acc;
}

static void *worker(void *arg)
{
    t_slot = (int)(intptr_t)arg;
    g_tid[t_slot] = syscall(SYS_gettid);
    volatile int r = do_work(t_slot);
    (void)r;
    return NULL;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "xray-fdr";
    if (strcmp(mode, "xray-fdr") == 0) {
        if (__xray_log_init_mode("xray-fdr", "") != 2) { fprintf(stderr, "xray-fdr init failed\n"); return 1; }
    }
#ifdef XRAY_PROG_EVTRACE
    if (strcmp(mode, "evtrace-empty") == 0) { /* a session that records nothing: its file */
        const char *path = getenv("EVT_XRAY_FILE");
        if (evt_xray_start(NULL) != 0 || evt_xray_stop() != 0 || evt_xray_write_file(path ? path : "evtrace.xray") != 0) {
            fprintf(stderr, "evtrace: the empty session's file failed\n");
            return 1;
        }
        printf("{}\n");
        return 0;
    }
    if (strcmp(mode, "evtrace") == 0 && evt_xray_start(NULL) != 0) { fprintf(stderr, "evt_xray_start failed\n"); return 1; }
#endif
    pthread_t th[NTHREADS];
    for (int i = 1; i < NTHREADS; i++) pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i);
    worker((void *)0);
    for (int i = 1; i < NTHREADS; i++) pthread_join(th[i], NULL);
    if (strcmp(mode, "xray-fdr") == 0) {
        __xray_log_finalize();
        __xray_log_flushLog();
    }
#ifdef XRAY_PROG_EVTRACE
    if (strcmp(mode, "evtrace") == 0) {
        const char *path = getenv("EVT_XRAY_FILE");
        if (evt_xray_stop() != 0 || evt_xray_write_file(path ? path : "evtrace.xray") != 0) {
            fprintf(stderr, "evtrace: writing the trace failed\n");
            return 1;
        }
    }
#endif
    /* Calls per function per thread (do_work and worker are instrumented too: 1 each). */
    printf("{");
    for (int t = 0; t < NTHREADS; t++) {
        for (int f = 0; f < NFUNCS; f++) printf("\"%s:%ld\": %lu, ", k_names[f], g_tid[t], g_calls[t][f]);
        printf("\"do_work:%ld\": 1%s", g_tid[t], t + 1 < NTHREADS ? ", " : "");
    }
    printf("}\n");
    return 0;
}
