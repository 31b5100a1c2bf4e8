/* P3 under a signal storm: a raw SA_NODEFER handler that interrupts a section and wants a lock held
 * by another thread gives up after a short spin and never yields. A handler that yielded while it
 * waited let the next signal in at every yield, and on a loaded machine (each yield a time slice)
 * the waiting handlers piled up on the thread's stack until it overflowed (an ETW stress program:
 * 30,749 frames). Here CPU hogs load the machine, one thread holds lock L throughout, and a thread
 * inside a section of lock M takes a storm of signals whose handler tries L; the deepest nesting of
 * handlers is measured. With the yields it grew by one per yield (hundreds within the test); with
 * spinning alone a handler finishes long before the next signal, most of the time. */
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
#define MAX_DEPTH 64 /* far above what spinning reaches, far below what yielding reached */

static evt_rec_lock g_l = EVT_REC_LOCK_INIT, g_m = EVT_REC_LOCK_INIT;
static atomic_int g_stop, g_holding, g_in_section;
static _Thread_local volatile int t_depth;
static atomic_int g_max_depth, g_handled, g_got;

static void storm_handler(int signo)
{
    (void)signo;
    int d = ++t_depth;
    if (d > atomic_load(&g_max_depth)) atomic_store(&g_max_depth, d);
    if (d < MAX_DEPTH) { /* past it the test has failed: stop before the stack does */
        /* Only the victim gets the signal: while it is inside M this handler is nested (a handler
         * delivered after its exit, as TSan may defer one, waits for L like any thread). */
        int nested = atomic_load(&g_in_section);
        evt_port_crit_t st;
        if (evt_rec_lock_enter(&g_l, &st)) { /* nested, L held by the holder thread: must give up */
            if (nested) atomic_fetch_add(&g_got, 1);
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
    /* until the victim has left M: a handler nested there never sees L given back */
    while (!atomic_load(&g_stop) || atomic_load(&g_in_section)) sched_yield();
    evt_rec_lock_exit(&g_l, st);
    return NULL;
}

/* Inside a section of M for the whole storm: every handler that lands here is nested (P3). */
static void *victim(void *p)
{
    (void)p;
    evt_port_crit_t st;
    assert_int_equal(evt_rec_lock_enter(&g_m, &st), 1);
    atomic_store(&g_in_section, 1);
    while (!atomic_load(&g_stop)) {
    }
    atomic_store(&g_in_section, 0);
    evt_rec_lock_exit(&g_m, st);
    return NULL;
}

static void test_nested_waits_do_not_pile_up(void **state)
{
    (void)state;
    evt_port_test_on_signal_flags(SIGUSR1, storm_handler, SA_NODEFER | SA_RESTART);
    pthread_t hogs[HOGS], h, v;
    for (int i = 0; i < HOGS; i++) assert_int_equal(pthread_create(&hogs[i], NULL, hog, NULL), 0);
    assert_int_equal(pthread_create(&h, NULL, holder, NULL), 0);
    assert_int_equal(pthread_create(&v, NULL, victim, NULL), 0);
    while (!atomic_load(&g_holding) || !atomic_load(&g_in_section)) sched_yield();
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
    atomic_store(&g_stop, 1);
    pthread_join(v, NULL);
    pthread_join(h, NULL);
    for (int i = 0; i < HOGS; i++) pthread_join(hogs[i], NULL);
    evt_port_test_on_signal(SIGUSR1, SIG_DFL);
    print_message("signals sent %d, handled %d, deepest nesting %d\n", sent, atomic_load(&g_handled),
                  atomic_load(&g_max_depth));
    assert_true(atomic_load(&g_handled) > 0);       /* the storm reached the section */
    assert_int_equal(atomic_load(&g_got), 0);        /* L stayed held: every handler gave up */
    assert_true(atomic_load(&g_max_depth) < MAX_DEPTH);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nested_waits_do_not_pile_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
