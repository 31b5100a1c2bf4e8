/* The POSIX port's signal-masking mode (S1-S2 in src/ports/posix/evt_port_impl.h): while it is on,
 * a signal sent to a thread inside a recorder section runs only after the outermost give-back, with
 * the lock free, and the thread's own mask comes back as it was; a handler that parks its thread
 * (as FreeRTOS's POSIX port does in SIGALRM) therefore never parks it holding the lock, and another
 * thread then takes the lock. Off, the mask is not touched. */
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

static int blocked(int signo)
{
    sigset_t cur;
    assert_int_equal(pthread_sigmask(SIG_BLOCK, NULL, &cur), 0);
    return sigismember(&cur, signo);
}

/* ---- S1: held off to the outermost exit, mask restored ---------------------------------------------- */

static volatile int g_runs, g_run_hold, g_run_owner_free;

static void count_handler(int signo)
{
    (void)signo;
    g_runs++;
    g_run_hold = (int)evt_posix_hold;
    g_run_owner_free = atomic_load(&g_a.owner) == 0;
}

static void test_signal_runs_after_outermost_exit(void **state)
{
    (void)state;
    evt_posix_mask_signals(1);
    evt_port_test_on_signal(SIGUSR1, count_handler);
    sigset_t u2;
    sigemptyset(&u2);
    sigaddset(&u2, SIGUSR2);
    assert_int_equal(pthread_sigmask(SIG_BLOCK, &u2, NULL), 0); /* the caller's own mask */
    g_runs = 0;
    evt_port_crit_t st1, st2;
    assert_int_equal(evt_rec_lock_enter(&g_a, &st1), 1);
    assert_true(blocked(SIGUSR1));
    assert_true(blocked(SIGALRM));
    assert_false(blocked(SIGSEGV)); /* synchronous signals never */
    assert_int_equal(evt_rec_lock_enter(&g_b, &st2), 1);
    raise(SIGUSR1);
    assert_int_equal(g_runs, 0);
    evt_rec_lock_exit(&g_b, st2);
    assert_int_equal(g_runs, 0); /* still inside A */
    assert_true(blocked(SIGUSR1));
    evt_rec_lock_exit(&g_a, st1);
    assert_int_equal(g_runs, 1); /* at the outermost exit */
    assert_int_equal(g_run_hold, 0);
    assert_int_equal(g_run_owner_free, 1);
    assert_false(blocked(SIGUSR1));
    assert_true(blocked(SIGUSR2)); /* the mask as it was */
    assert_int_equal(evt_posix_masked, 0);
    assert_int_equal(pthread_sigmask(SIG_UNBLOCK, &u2, NULL), 0);
    evt_port_test_on_signal(SIGUSR1, SIG_DFL);
    evt_posix_mask_signals(0);
}

/* ---- S1: a handler that parks its thread never parks it inside --------------------------------------- */

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cv = PTHREAD_COND_INITIALIZER;
static int g_go, g_taken;

static void *taker(void *p)
{
    (void)p;
    pthread_mutex_lock(&g_mu);
    while (!g_go) pthread_cond_wait(&g_cv, &g_mu);
    pthread_mutex_unlock(&g_mu);
    evt_port_crit_t st;
    assert_int_equal(evt_rec_lock_enter(&g_a, &st), 1); /* would spin forever on a parked holder */
    evt_rec_lock_exit(&g_a, st);
    pthread_mutex_lock(&g_mu);
    g_taken = 1;
    pthread_cond_broadcast(&g_cv);
    pthread_mutex_unlock(&g_mu);
    return NULL;
}

/* Parks the interrupted thread until the other thread has taken and given back the lock (at most
 * 10 s: the test fails instead of hanging). pthread calls in a handler: acceptable in a test whose
 * main thread is not inside them when the signal arrives. */
static void park_handler(int signo)
{
    (void)signo;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    pthread_mutex_lock(&g_mu);
    g_go = 1;
    pthread_cond_broadcast(&g_cv);
    while (!g_taken)
        if (pthread_cond_timedwait(&g_cv, &g_mu, &until) != 0) break;
    pthread_mutex_unlock(&g_mu);
}

static void test_parking_handler_parks_outside(void **state)
{
    (void)state;
    evt_posix_mask_signals(1);
    evt_port_test_on_signal(SIGALRM, park_handler);
    g_go = g_taken = 0;
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, taker, NULL), 0);
    evt_port_crit_t st;
    assert_int_equal(evt_rec_lock_enter(&g_a, &st), 1);
    pthread_kill(pthread_self(), SIGALRM); /* the tick, inside the section */
    evt_rec_lock_exit(&g_a, st);           /* parks here, after the give-back */
    assert_int_equal(g_taken, 1);
    pthread_join(t, NULL);
    evt_port_test_on_signal(SIGALRM, SIG_DFL);
    evt_posix_mask_signals(0);
}

/* ---- S2: off, the mask is not touched ------------------------------------------------------------- */

static void test_off_leaves_mask(void **state)
{
    (void)state;
    evt_port_crit_t st;
    assert_int_equal(evt_rec_lock_enter(&g_a, &st), 1);
    assert_false(blocked(SIGUSR1));
    assert_int_equal(evt_posix_masked, 0);
    evt_rec_lock_exit(&g_a, st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signal_runs_after_outermost_exit),
        cmocka_unit_test(test_parking_handler_parks_outside),
        cmocka_unit_test(test_off_leaves_mask),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
