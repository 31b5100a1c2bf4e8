/* Test program for the -finstrument-functions front end and the explicit API of evtrace's XRay
 * recorder (xray_oracle.py cyg): built with `cc -finstrument-functions -rdynamic`, 2 threads of
 * recursion; the explicit API adds markers with ids from 100000 up, an argument, a custom and a
 * typed event.
 * Prints the calls it made as one JSON line {"function:tid": count}. */
#define _GNU_SOURCE /* syscall() */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "evtrace/xray.h"

#define NTHREADS 2
static unsigned long g_calls[NTHREADS][3];
static long g_tid[NTHREADS];
static __thread int t_slot;

__attribute__((noinline)) int cyg_leaf(int x);
__attribute__((noinline)) int cyg_rec(int n);
__attribute__((noinline)) void cyg_work(void);

int cyg_leaf(int x)
{
    g_calls[t_slot][0]++;
    __asm__ volatile("" ::: "memory");
    return x + 1;
}

int cyg_rec(int n)
{
    g_calls[t_slot][1]++;
    if (n == 0) return cyg_leaf(n);
    int a = cyg_rec(n - 1);
    __asm__ volatile("" : "+r"(a));
    return a + 1;
}

void cyg_work(void)
{
    g_calls[t_slot][2]++;
    for (int i = 0; i < 4; i++) {
        volatile int r = cyg_rec(3);
        (void)r;
        evt_xray_enter_arg(100000, (uint64_t)i);   /* explicit API */
        evt_xray_custom_event("mark", 4);
        evt_xray_typed_event(5, "\x01\x02\x03", 3);
        evt_xray_exit(100000);
    }
}

static void *worker(void *arg)
{
    t_slot = (int)(intptr_t)arg;
    g_tid[t_slot] = syscall(SYS_gettid);
    cyg_work();
    return NULL;
}

int main(int argc, char **argv)
{
    evt_xray_config cfg = {0, 0, 1};
    if (evt_xray_start(&cfg) != 0) { fprintf(stderr, "evt_xray_start failed\n"); return 1; }
    pthread_t th;
    pthread_create(&th, NULL, worker, (void *)(intptr_t)1);
    worker((void *)0);
    pthread_join(th, NULL);
    evt_xray_stop();
    if (evt_xray_write_file(argc > 1 ? argv[1] : "cyg.xray") != 0) { fprintf(stderr, "write failed\n"); return 1; }
    printf("{");
    for (int t = 0; t < NTHREADS; t++)
        printf("\"cyg_leaf:%ld\": %lu, \"cyg_rec:%ld\": %lu, \"cyg_work:%ld\": %lu, \"#100000:%ld\": 4%s", g_tid[t],
               g_calls[t][0], g_tid[t], g_calls[t][1], g_tid[t], g_calls[t][2], g_tid[t], t + 1 < NTHREADS ? ", " : "");
    printf("}\n");
    return 0;
}
