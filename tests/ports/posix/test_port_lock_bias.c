/* The POSIX port's biased locks (invariants B1-B4 in src/ports/posix/evt_port_impl.h),
 * deterministically: one thread's consecutive takes claim the bias, after which it enters with no
 * owner word (exit state 2); the claiming take's own section moves onto the bias, and a handler
 * inside it re-enters (state 0); a handler on that thread re-enters without waiting; another thread
 * revokes the bias and waits for the bias thread to leave; a nested context on another thread gives
 * up instead of waiting (P3); a handler whose thread is entering on a bias being revoked takes the
 * owner word (B2c); a lock that keeps changing hands is never biased; a revoked lock stays a P1
 * lock. Skips the bias cases (with the reason) where membarrier(2) is unavailable. */
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

static uintptr_t my_token(void) { return (uintptr_t)&evt_posix_token_; }

static void take_give(evt_rec_lock *l, evt_port_crit_t *st_out)
{
    evt_port_crit_t st;
    assert_int_equal(evt_rec_lock_enter(l, &st), 1);
    if (st_out) *st_out = st;
    evt_rec_lock_exit(l, st);
}

/* Take and give back until the calling thread holds the bias (B1). */
static void claim(evt_rec_lock *l)
{
    for (unsigned i = 0; i < EVT_POSIX_BIAS_AFTER; i++) take_give(l, NULL);
    assert_true(atomic_load(&l->bias) == my_token());
}

/* ---- B2c: a handler where its thread enters on a bias another thread is revoking -------------- */

static void test_handler_in_revoked_entry_takes_owner(void **state)
{
    (void)state;
    if (!evt_port_test_bias_available()) { skip(); return; }
    evt_rec_lock l = EVT_REC_LOCK_INIT;
    claim(&l);
    /* This thread's state just after B2's busy store (entering: section of l at depth 1, busy =
     * its token), and another thread's revocation begun (bias REVOKING, waiting for busy). */
    evt_posix_sect[evt_posix_sect_slot(++evt_posix_hold)] = &l;
    atomic_store(&l.busy, my_token());
    atomic_store(&l.bias, EVT_POSIX_BIAS_REVOKING);
    /* The handler's enter: it used to give up (a dropped record); now it holds the owner word. */
    evt_port_crit_t st, st2;
    assert_int_equal(evt_rec_lock_enter(&l, &st), 1);
    assert_int_equal(st, 1);
    assert_true(atomic_load(&l.owner) == my_token());
    assert_true(atomic_load(&l.bias) == EVT_POSIX_BIAS_REVOKING); /* the revocation goes on */
    assert_int_equal(evt_rec_lock_enter(&l, &st2), 1); /* a handler nested in it: P2 */
    assert_int_equal(st2, 0);
    evt_rec_lock_exit(&l, st2);
    assert_true(atomic_load(&l.owner) == my_token());
    evt_rec_lock_exit(&l, st);
    assert_true(atomic_load(&l.owner) == 0);
    /* The interrupted entry backs off (B2: it sees the bias is no longer its own). */
    atomic_store(&l.busy, 0);
    evt_posix_hold--;
    assert_int_equal(evt_posix_hold, 0);
    /* The next take finishes the revocation and takes the P1 lock. */
    take_give(&l, &st);
    assert_int_equal(st, 1);
    assert_true(atomic_load(&l.bias) == EVT_POSIX_BIAS_OFF);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

/* ---- B1/B2: claim, then enter with no owner word ---------------------------------------------- */

static void test_claim_then_plain_entry(void **state)
{
    (void)state;
    if (!evt_port_test_bias_available()) { skip(); return; }
    evt_rec_lock l = EVT_REC_LOCK_INIT;
    evt_port_crit_t st;
    for (unsigned i = 0; i + 1 < EVT_POSIX_BIAS_AFTER; i++) {
        take_give(&l, &st);
        assert_int_equal(st, 1); /* P1 takes until the claim */
        assert_true(atomic_load(&l.bias) == 0);
    }
    take_give(&l, &st); /* the claiming take */
    assert_true(atomic_load(&l.bias) == my_token());
    assert_int_equal(evt_rec_lock_enter(&l, &st), 1);
    assert_int_equal(st, 2);
    assert_true(atomic_load(&l.owner) == 0); /* no locked instruction, no owner */
    assert_true(atomic_load(&l.busy) == EVT_POSIX_BUSY_IN(my_token())); /* B2b: inside */
    assert_true(evt_posix_lock_held(&l));
    assert_int_equal(evt_posix_hold, 1);
    evt_rec_lock_exit(&l, st);
    assert_false(evt_posix_lock_held(&l));
    assert_int_equal(evt_posix_hold, 0);
}

/* ---- B2 + P2: a handler on the bias thread, inside its section ----------------------------------- */

static evt_rec_lock g_hl = EVT_REC_LOCK_INIT;
static evt_rec_lock *volatile g_h_lock = &g_hl; /* the lock handler_enters takes */
static volatile int g_h_entered = -1;
static volatile evt_port_crit_t g_h_st = 99;

static void handler_enters(int signo)
{
    (void)signo;
    evt_port_crit_t st;
    g_h_entered = evt_rec_lock_enter(g_h_lock, &st);
    g_h_st = st;
    if (g_h_entered) evt_rec_lock_exit(g_h_lock, st);
}

static void test_handler_reenters_biased_section(void **state)
{
    (void)state;
    if (!evt_port_test_bias_available()) { skip(); return; }
    claim(&g_hl);
    evt_port_test_on_signal(SIGUSR1, handler_enters);
    evt_port_crit_t st;
    assert_int_equal(evt_rec_lock_enter(&g_hl, &st), 1);
    assert_int_equal(st, 2);
    raise(SIGUSR1);
    assert_int_equal(g_h_entered, 1); /* re-entered at once; the recorder's nesting guard decides */
    assert_int_equal(g_h_st, 0);      /* and its exit left the section to its owner */
    assert_true(atomic_load(&g_hl.busy) == EVT_POSIX_BUSY_IN(my_token()));
    evt_rec_lock_exit(&g_hl, st);
    assert_false(evt_posix_lock_held(&g_hl));
    /* Outside the section the handler takes the biased path itself. */
    raise(SIGUSR1);
    assert_int_equal(g_h_entered, 1);
    assert_int_equal(g_h_st, 2);
    assert_false(evt_posix_lock_held(&g_hl));
    evt_port_test_on_signal(SIGUSR1, SIG_DFL);
}

/* ---- B2a: the claiming take's section moves onto the bias; a handler inside it re-enters ------- */

static void test_claiming_section_moves_onto_bias(void **state)
{
    (void)state;
    if (!evt_port_test_bias_available()) { skip(); return; }
    static evt_rec_lock l = EVT_REC_LOCK_INIT;
    evt_port_crit_t st;
    for (unsigned i = 0; i + 1 < EVT_POSIX_BIAS_AFTER; i++) take_give(&l, NULL);
    assert_true(atomic_load(&l.bias) == 0);
    g_h_lock = &l;
    evt_port_test_on_signal(SIGUSR1, handler_enters);
    assert_int_equal(evt_rec_lock_enter(&l, &st), 1); /* the claiming take */
    assert_true(atomic_load(&l.bias) == my_token());
    assert_int_equal(st, 2); /* held on the bias now, the owner word given back */
    assert_true(atomic_load(&l.owner) == 0);
    assert_true(atomic_load(&l.busy) == EVT_POSIX_BUSY_IN(my_token()));
    /* A handler of this thread inside it is re-entry (state 0), not a second section on the fresh
       bias (state 2, as before B2a): state 0 tells nesting (EVT_PORT_LOCK_TELLS_NESTING). */
    raise(SIGUSR1);
    assert_int_equal(g_h_entered, 1);
    assert_int_equal(g_h_st, 0);
    assert_true(atomic_load(&l.busy) == EVT_POSIX_BUSY_IN(my_token()));
    evt_rec_lock_exit(&l, st);
    assert_false(evt_posix_lock_held(&l));
    assert_int_equal(evt_posix_hold, 0);
    take_give(&l, &st);
    assert_int_equal(st, 2);
    evt_port_test_on_signal(SIGUSR1, SIG_DFL);
    g_h_lock = &g_hl;
}

/* ---- B3: another thread revokes and waits for the bias thread to leave -------------------------- */

static evt_rec_lock g_rl = EVT_REC_LOCK_INIT;
static atomic_int g_started, g_entered, g_go;
static volatile evt_port_crit_t g_other_st = 99;

static void *other_enters(void *p)
{
    (void)p;
    atomic_store(&g_started, 1);
    evt_port_crit_t st;
    assert_int_equal(evt_rec_lock_enter(&g_rl, &st), 1);
    atomic_store(&g_entered, 1);
    g_other_st = st;
    evt_rec_lock_exit(&g_rl, st);
    return NULL;
}

static void test_other_thread_revokes_and_waits(void **state)
{
    (void)state;
    if (!evt_port_test_bias_available()) { skip(); return; }
    claim(&g_rl);
    evt_port_crit_t st;
    assert_int_equal(evt_rec_lock_enter(&g_rl, &st), 1);
    assert_int_equal(st, 2);
    atomic_store(&g_started, 0);
    atomic_store(&g_entered, 0);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, other_enters, NULL), 0);
    while (!atomic_load(&g_started)) sched_yield();
    sleep_ms(50);
    assert_int_equal(atomic_load(&g_entered), 0); /* waits while the bias thread is inside */
    assert_true(atomic_load(&g_rl.bias) == EVT_POSIX_BIAS_REVOKING); /* but has begun revoking */
    evt_rec_lock_exit(&g_rl, st);
    pthread_join(t, NULL);
    assert_int_equal(atomic_load(&g_entered), 1);
    assert_int_equal(g_other_st, 1);
    /* Revoked for good: the former bias thread now takes the P1 lock, even after many takes. */
    for (unsigned i = 0; i < 2u * EVT_POSIX_BIAS_AFTER; i++) {
        take_give(&g_rl, &st);
        assert_int_equal(st, 1);
    }
    assert_true(atomic_load(&g_rl.bias) == EVT_POSIX_BIAS_OFF);
    assert_false(evt_posix_lock_held(&g_rl));
}

/* ---- B3 + P3: a nested context on another thread gives up ---------------------------------------- */

static evt_rec_lock g_nl = EVT_REC_LOCK_INIT, g_outer = EVT_REC_LOCK_INIT;
static volatile int g_nested_got = -1, g_plain_got = -1;

static void *nested_then_plain(void *p)
{
    (void)p;
    evt_port_crit_t so, st;
    assert_int_equal(evt_rec_lock_enter(&g_outer, &so), 1); /* inside a section: may not wait */
    g_nested_got = evt_rec_lock_enter(&g_nl, &st);
    if (g_nested_got) evt_rec_lock_exit(&g_nl, st);
    evt_rec_lock_exit(&g_outer, so);
    atomic_store(&g_started, 1);
    while (!atomic_load(&g_go)) sched_yield();
    g_plain_got = evt_rec_lock_enter(&g_nl, &st); /* outside any section: waits, then gets it */
    if (g_plain_got) evt_rec_lock_exit(&g_nl, st);
    return NULL;
}

static void test_nested_revoker_gives_up(void **state)
{
    (void)state;
    if (!evt_port_test_bias_available()) { skip(); return; }
    claim(&g_nl);
    evt_port_crit_t st;
    assert_int_equal(evt_rec_lock_enter(&g_nl, &st), 1);
    assert_int_equal(st, 2);
    atomic_store(&g_started, 0);
    atomic_store(&g_go, 0);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, nested_then_plain, NULL), 0);
    while (!atomic_load(&g_started)) sched_yield();
    assert_int_equal(g_nested_got, 0); /* gave up: the caller drops and counts its record */
    assert_true(atomic_load(&g_nl.owner) == 0); /* and gave the P1 lock back */
    atomic_store(&g_go, 1);
    sleep_ms(20);
    evt_rec_lock_exit(&g_nl, st);
    pthread_join(t, NULL);
    assert_int_equal(g_plain_got, 1);
    assert_false(evt_posix_lock_held(&g_nl));
}

/* ---- B1: a lock that changes hands is never biased --------------------------------------------- */

static evt_rec_lock g_sl = EVT_REC_LOCK_INIT;

static void *take_once(void *p)
{
    (void)p;
    take_give(&g_sl, NULL);
    return NULL;
}

static void test_shared_lock_never_biased(void **state)
{
    (void)state;
    for (unsigned i = 0; i < EVT_POSIX_BIAS_SWITCHES; i++) {
        pthread_t t;
        take_give(&g_sl, NULL);
        assert_int_equal(pthread_create(&t, NULL, take_once, NULL), 0);
        pthread_join(t, NULL);
    }
    assert_true(atomic_load(&g_sl.bias) == EVT_POSIX_BIAS_OFF);
    for (unsigned i = 0; i < 2u * EVT_POSIX_BIAS_AFTER; i++) {
        evt_port_crit_t st;
        take_give(&g_sl, &st);
        assert_int_equal(st, 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_claim_then_plain_entry),
        cmocka_unit_test(test_handler_reenters_biased_section),
        cmocka_unit_test(test_claiming_section_moves_onto_bias),
        cmocka_unit_test(test_other_thread_revokes_and_waits),
        cmocka_unit_test(test_nested_revoker_gives_up),
        cmocka_unit_test(test_handler_in_revoked_entry_takes_owner),
        cmocka_unit_test(test_shared_lock_never_biased),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
