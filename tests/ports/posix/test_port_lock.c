/* The POSIX port's recorder lock and simulated interrupts (invariants P1-P4 in
 * src/ports/posix/evt_port_impl.h), deterministically: a signal raised inside a section re-enters
 * the section it interrupted (P2); a handler that interrupted a section and wants another recorder's
 * lock, held by a thread that is itself waiting, gives up instead of deadlocking (P3); a
 * port-installed interrupt raised inside a section runs only after the outermost exit, with the ISR
 * flag set (P4); the same interrupt outside a section runs at once; sections nested deeper than the
 * per-depth lock names reach (P3b) leave the shallower names intact, so P3 still holds after them. */
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

static evt_rec_lock g_a = EVT_REC_LOCK_INIT, g_b = EVT_REC_LOCK_INIT;

/* ---- P2: re-entry from a handler on the holding thread ------------------------------------------ */

static volatile int g_p2_entered = -1;
static volatile evt_port_crit_t g_p2_st = 99;

static void p2_handler(int signo)
{
    (void)signo;
    evt_port_crit_t st;
    g_p2_entered = evt_rec_lock_enter(&g_a, &st);
    g_p2_st = st;
    if (g_p2_entered) evt_rec_lock_exit(&g_a, st);
}

static void test_reentry_from_handler(void **state)
{
    (void)state;
    evt_port_test_on_signal(SIGUSR1, p2_handler);
    evt_port_crit_t st;
    assert_int_equal(evt_rec_lock_enter(&g_a, &st), 1);
    assert_int_equal(st, 1);
    raise(SIGUSR1);                         /* lands inside the section */
    assert_int_equal(g_p2_entered, 1);      /* re-entered without waiting */
    assert_int_equal(g_p2_st, 0);           /* its exit did not give the lock back */
    assert_true(atomic_load(&g_a.owner) != 0);
    evt_rec_lock_exit(&g_a, st);
    assert_true(atomic_load(&g_a.owner) == 0);
    assert_int_equal(evt_posix_hold, 0);
    evt_port_test_on_signal(SIGUSR1, SIG_DFL);
}

/* ---- P3: a nested context never waits -------------------------------------------------------------- */

static atomic_int g_holder_ready, g_release;
static volatile int g_p3_entered = -1;

static void *hold_b(void *p)
{
    (void)p;
    evt_port_crit_t st;
    assert_int_equal(evt_rec_lock_enter(&g_b, &st), 1);
    atomic_store(&g_holder_ready, 1);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do { /* 2 s at most: a context that waits when it must give up gets B late instead of never */
        sched_yield();
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while (!atomic_load(&g_release) && t.tv_sec - t0.tv_sec < 2);
    evt_rec_lock_exit(&g_b, st);
    return NULL;
}

static void p3_handler(int signo)
{
    (void)signo;
    evt_port_crit_t st;
    g_p3_entered = evt_rec_lock_enter(&g_b, &st); /* held by the other thread: must give up */
    if (g_p3_entered) evt_rec_lock_exit(&g_b, st);
}

/* Another thread holding B until g_release (or 2 s), and p3_handler on SIGUSR1. */
static pthread_t start_holder_b(void)
{
    pthread_t t;
    atomic_store(&g_holder_ready, 0);
    atomic_store(&g_release, 0);
    assert_int_equal(pthread_create(&t, NULL, hold_b, NULL), 0);
    while (!atomic_load(&g_holder_ready)) sched_yield();
    evt_port_test_on_signal(SIGUSR1, p3_handler);
    return t;
}

static void test_nested_context_gives_up(void **state)
{
    (void)state;
    pthread_t t = start_holder_b();
    evt_port_crit_t st;
    assert_int_equal(evt_rec_lock_enter(&g_a, &st), 1);
    raise(SIGUSR1);                    /* handler inside A's section wants B */
    assert_int_equal(g_p3_entered, 0); /* gave up: the caller drops and counts its record */
    evt_rec_lock_exit(&g_a, st);
    atomic_store(&g_release, 1);
    pthread_join(t, NULL);
    /* Outside any section the same handler may wait, and gets B once it is free. */
    raise(SIGUSR1);
    assert_int_equal(g_p3_entered, 1);
    evt_port_test_on_signal(SIGUSR1, SIG_DFL);
}

/* ---- P3b: sections deeper than the per-depth names ------------------------------------------------ */

/* evt_posix_sect names the lock of depths 1-7 only. A section at depth 9 once wrote its lock over
 * depth 1's name (index depth & 7) and never restored it: a handler that later landed inside A's
 * section and wanted B, held by another thread, then read every section below it as "entering B",
 * owning nothing, and waited for B without bound (a storm of nested handlers hung that way,
 * test_port_nested_storm_mt, about 1 run in 400 under load). It must still give up. */
static void test_deep_nest_keeps_names(void **state)
{
    (void)state;
    pthread_t t = start_holder_b();
    evt_rec_lock c[7] = {EVT_REC_LOCK_INIT, EVT_REC_LOCK_INIT, EVT_REC_LOCK_INIT, EVT_REC_LOCK_INIT,
                         EVT_REC_LOCK_INIT, EVT_REC_LOCK_INIT, EVT_REC_LOCK_INIT};
    evt_port_crit_t st, cst[7], bst;
    assert_int_equal(evt_rec_lock_enter(&g_a, &st), 1);                       /* depth 1: A */
    for (int i = 0; i < 7; i++) assert_int_equal(evt_rec_lock_enter(&c[i], &cst[i]), 1); /* 2-8 */
    assert_int_equal(evt_rec_lock_enter(&g_b, &bst), 0); /* depth 9: B is held, nested: gives up */
    for (int i = 6; i >= 0; i--) evt_rec_lock_exit(&c[i], cst[i]);
    assert_int_equal(evt_posix_hold, 1);
    g_p3_entered = -1;
    raise(SIGUSR1);                    /* handler inside A's section (depth 2) wants B */
    assert_int_equal(g_p3_entered, 0); /* gave up at once, not after the holder's 2 s */
    evt_rec_lock_exit(&g_a, st);
    atomic_store(&g_release, 1);
    pthread_join(t, NULL);
    evt_port_test_on_signal(SIGUSR1, SIG_DFL);
}

/* ---- P4: port-installed interrupts are held off ---------------------------------------------------- */

static volatile int g_isr_runs, g_isr_flag, g_isr_hold;

static void port_isr(int signo)
{
    (void)signo;
    g_isr_runs++;
    g_isr_flag = evt_port_in_isr();
    g_isr_hold = (int)evt_posix_hold;
}

static void test_port_isr_held_off(void **state)
{
    (void)state;
    assert_int_equal(evt_posix_isr_install(SIGUSR2, port_isr), 0);
    g_isr_runs = 0;
    evt_port_crit_t st1, st2;
    assert_int_equal(evt_rec_lock_enter(&g_a, &st1), 1);
    assert_int_equal(evt_rec_lock_enter(&g_b, &st2), 1); /* nested sections: outermost exit runs it */
    raise(SIGUSR2);
    assert_int_equal(g_isr_runs, 0);
    evt_rec_lock_exit(&g_b, st2);
    assert_int_equal(g_isr_runs, 0);   /* still inside A */
    evt_rec_lock_exit(&g_a, st1);
    assert_int_equal(g_isr_runs, 1);   /* ran at the outermost exit */
    assert_int_equal(g_isr_flag, 1);   /* as an interrupt */
    assert_int_equal(g_isr_hold, 0);   /* outside every section */
    assert_int_equal(evt_port_in_isr(), 0);
    raise(SIGUSR2);                    /* outside a section: at once */
    assert_int_equal(g_isr_runs, 2);
    assert_int_equal(evt_posix_isr_install(0, port_isr), -1);
    assert_int_equal(evt_posix_isr_install(SIGUSR2, NULL), -1);
    evt_port_test_on_signal(SIGUSR2, SIG_DFL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reentry_from_handler),
        cmocka_unit_test(test_nested_context_gives_up),
        cmocka_unit_test(test_deep_nest_keeps_names),
        cmocka_unit_test(test_port_isr_held_off),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
