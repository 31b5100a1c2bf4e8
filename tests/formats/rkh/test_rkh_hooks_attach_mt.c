/* The generic kernel hooks' RKH backend: evt_rkh_hooks_attach(r) and attach(NULL) (detach) called
 * from a normal context while other threads and their signal handlers call hooks (concurrency
 * label, also under TSan). The attached recorder was a plain volatile pointer that every hook read
 * while attach wrote it: a data race under TSan. Every hook that found the recorder attached
 * records (or is dropped and counted) and the stream reads back exactly: decoded + lost == written
 * + dropped, no error. */
#define EVT_CFG_HOOKS_BACKEND rkh /* (no gate header: the hooks are always called) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include "evt_rkh_test.h"
#include "evtrace/hooks.h"
#include "evtrace/hooks_backends.h"

#define WORKERS 2
#define TOGGLES 200

static _Alignas(128) evt_rkh_recorder g_r;
static uint8_t g_ring[512];
static evt_rkh_test_buf g_out;
static atomic_int g_stop;
static atomic_ulong g_isr;

static void isr(int signo)
{
    (void)signo;
    EVT_HOOK_ISR_ENTER(7);
    EVT_HOOK_USER(3, 1, 2, 3, 4);
    EVT_HOOK_ISR_EXIT(7);
    atomic_fetch_add_explicit(&g_isr, 1u, memory_order_relaxed);
}

static void *worker(void *p)
{
    uintptr_t id = (uintptr_t)p;
    for (uint32_t i = 0; !atomic_load_explicit(&g_stop, memory_order_relaxed); i++) {
        uintptr_t a[2] = {id, i};
        EVT_HOOK_SVC_ENTER(0x10, 2, a);
        EVT_HOOK_USER(1, (uint32_t)id, i, 0, 0);
        EVT_HOOK_SVC_LEAVE(0x10, 0, 1);
        if ((i & 255u) == 0u) EVT_HOOK_OBJ_CREATE(EVT_HOOK_OBJ_SEMAPHORE, 0x1000u + id, "sem", 0);
    }
    return NULL;
}

static void test_attach_detach_while_hooks_record(void **st)
{
    (void)st;
    evt_rkh_test_streamed(&g_r, g_ring, sizeof g_ring, evt_rkh_test_clock_us, 1000000u, &g_out, 256u << 20);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = isr;
    sa.sa_flags = SA_RESTART;
    assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
    evt_rkh_hooks_attach(&g_r);
    pthread_t w[WORKERS];
    for (uintptr_t i = 0; i < WORKERS; i++) assert_int_equal(pthread_create(&w[i], NULL, worker, (void *)(i + 1u)), 0);
    for (int k = 0; k < TOGGLES; k++) {
        pthread_kill(w[k % WORKERS], SIGUSR1);
        struct timespec d = {0, 50000};
        nanosleep(&d, NULL);
        evt_rkh_hooks_attach((k & 1) ? &g_r : NULL);
    }
    atomic_store(&g_stop, 1);
    for (int i = 0; i < WORKERS; i++) pthread_join(w[i], NULL);
    signal(SIGUSR1, SIG_IGN);
    evt_rkh_hooks_attach(NULL);
    evt_rkh_flush(&g_r);
    evt_rec_stats rs;
    evt_rkh_get_stats(&g_r, &rs);
    evt_rkh_decoded d;
    memset(&d, 0, sizeof d);
    assert_int_equal(evt_rkh_test_decode(g_out.p, g_out.n, &d), 0);
    print_message("rkh hooks attach: %d toggles, %lu handler runs, %llu written, %llu dropped, decoded %llu + lost %llu\n",
                  TOGGLES, atomic_load(&g_isr), (unsigned long long)rs.written, (unsigned long long)rs.dropped,
                  (unsigned long long)d.data, (unsigned long long)d.lost);
    assert_false(g_out.overflow);
    assert_int_equal(d.errors, 0);
    assert_int_equal(d.data + d.lost, rs.written + rs.dropped);
    assert_true(rs.written > 0u);
    evt_rkh_test_buf_free(&g_out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_attach_detach_while_hooks_record),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
