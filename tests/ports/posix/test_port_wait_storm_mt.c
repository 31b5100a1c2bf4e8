/* P3b under a signal storm: raw SA_NODEFER handlers that land while their thread waits for a lock
 * another thread holds (the thread owns no lock, so a handler's wait for that lock may be unbounded,
 * P3b) must not pile up on the thread's stack. A wait that yields lets the next signal in at every
 * yield, and a yield on a loaded machine can last a time slice, so while the holder was descheduled
 * each waiting handler gathered more waiting handlers on top of it: an outside stress program (three
 * threads and a controller on one RKH recorder, a 20 us SIGALRM timer and a pthread_kill storm, both
 * SA_NODEFER) overflowed an 8 MiB stack with about 2,970 nested handlers, every one waiting in
 * lock_slow. test_port_nested_storm_mt covers the handlers that land inside a section (P3); here
 * CPU hogs load the machine, one thread holds lock L for the whole storm, the victim waits to enter
 * L, and its handlers try L too; the deepest nesting of handlers is measured. After the storm the
 * holder gives L back: the victim, and every handler still waiting, enter it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <time.h>
#include "evt_port_test.h"
#include "evtrace/recorder.h"

#define HOGS 3
#define STORM_MS 300
#define MAX_DEPTH 64 /* far above what bounded waits reach, far below what yielding waits reached */

static evt_rec_lock g_l = EVT_REC_LOCK_INIT;
static atomic_int g_stop, g_holding, g_waiting, g_victim_in;
static _Thread_local volatile int t_depth;
static atomic_int g_max_depth, g_handled, g_got;

static void storm_handler(int signo)
{
    (void)signo;
    int d = ++t_depth;
    if (d > atomic_load(&g_max_depth)) atomic_store(&g_max_depth, d);
    if (d < MAX_DEPTH) { /* past it the test has failed: stop before the stack does */
        evt_port_crit_t st;
        if (evt_rec_lock_enter(&g_l, &st)) {
            atomic_fetch_add(&g_got, 1);
            evt_rec_lock_exit(&g_l, st);
        }
    }
    atomic_fetch_add(&g_handled, 1);
    t_depth--;
}

static void *hog(void *p)
{
    (void)p;
    while (!atomic_load(&g_stop)) {
    }
    return NULL;
}

static void *holder(void *p)
{
    (void)p;
    evt_port_crit_t st;
    assert_int_equal(evt_rec_lock_enter(&g_l, &st), 1);
    atomic_store(&g_holding, 1);
    while (!atomic_load(&g_stop)) sched_yield();
    evt_rec_lock_exit(&g_l, st);
    return NULL;
}

/* Waits for L (held by the holder) for the whole storm: its thread owns no lock (P3b). */
static void *victim(void *p)
{
    (void)p;
    evt_port_crit_t st;
    atomic_store(&g_waiting, 1);
    assert_int_equal(evt_rec_lock_enter(&g_l, &st), 1);
    atomic_store(&g_victim_in, 1);
    evt_rec_lock_exit(&g_l, st);
    return NULL;
}

static void test_waiting_handlers_do_not_pile_up(void **state)
{
    (void)state;
    evt_port_test_on_signal_flags(SIGUSR1, storm_handler, SA_NODEFER | SA_RESTART);
    pthread_t hogs[HOGS], h, v;
    for (int i = 0; i < HOGS; i++) assert_int_equal(pthread_create(&hogs[i], NULL, hog, NULL), 0);
    assert_int_equal(pthread_create(&h, NULL, holder, NULL), 0);
    while (!atomic_load(&g_holding)) sched_yield();
    assert_int_equal(pthread_create(&v, NULL, victim, NULL), 0);
    while (!atomic_load(&g_waiting)) sched_yield();
    struct timespec t0, t1, gap = {0, 50000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int sent = 0;
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if ((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 >= STORM_MS) break;
        assert_int_equal(pthread_kill(v, SIGUSR1), 0);
        sent++;
        nanosleep(&gap, NULL);
    }
    assert_int_equal(atomic_load(&g_victim_in), 0); /* L was held throughout */
    atomic_store(&g_stop, 1);
    pthread_join(v, NULL);
    pthread_join(h, NULL);
    for (int i = 0; i < HOGS; i++) pthread_join(hogs[i], NULL);
    evt_port_test_on_signal(SIGUSR1, SIG_DFL);
    print_message("signals sent %d, handled %d, entered L %d, deepest nesting %d\n", sent,
                  atomic_load(&g_handled), atomic_load(&g_got), atomic_load(&g_max_depth));
    assert_true(atomic_load(&g_handled) > 0);
    assert_int_equal(atomic_load(&g_victim_in), 1);
    assert_true(atomic_load(&g_max_depth) < MAX_DEPTH);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_waiting_handlers_do_not_pile_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
