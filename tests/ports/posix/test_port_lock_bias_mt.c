/* Stress of the POSIX port's biased locks (B1-B4, src/ports/posix/evt_port_impl.h). Per round,
 * LOCKS fresh locks in turn: thread A takes lock i until it holds its bias and goes on entering it;
 * thread B waits for that, then enters lock i too (its first take revokes A's bias while A is
 * entering) a few dozen times; then both move to lock i + 1. The interrupter of tests/support/evt_irq
 * sends both raw signals (SIGUSR1) and port-installed simulated interrupts (SIGUSR2) at random
 * moments; their handlers
 * enter the current lock, with a nesting guard as the recorders have. Inside, each context checks
 * it is alone (an owner marker that must survive the section) and increments a plain counter. At
 * the end: no context ever saw another inside, the counter equals the sections entered exactly,
 * threads were never refused, and every lock was biased and then revoked. Under TSan the plain
 * counter also checks the happens-before edges. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include "evt_irq.h"
#include "evt_port_test.h"
#include "evtrace/recorder.h"

#define ROUNDS 4
#define LOCKS 500
#define B_SECTIONS 40

static evt_rec_lock g_locks[LOCKS];
static _Atomic int g_cur;            /* the lock both threads (and the handlers) use now */
static _Atomic int g_biased, g_b_done; /* index + 1 of the last lock A biased / B finished */
static evt_nest g_nest[LOCKS];
static uint64_t g_counter[LOCKS];    /* plain: written only inside the lock, under the guard */
static uintptr_t g_inside[LOCKS];    /* plain: the context inside (0: nobody) */
static atomic_ullong g_entered, g_overlaps, g_thread_refused, g_handler_calls;
static evt_irq g_irq;

/* One section on lock i: enter, guard, check alone, increment. who: a non-zero id. */
static int section(int i, uintptr_t who)
{
    evt_port_crit_t st;
    if (!evt_rec_lock_enter(&g_locks[i], &st)) return 0;
    if (!evt_nest_enter(&g_nest[i])) {
        evt_rec_lock_exit(&g_locks[i], st);
        return 0;
    }
    if (g_inside[i] != 0) atomic_fetch_add(&g_overlaps, 1);
    g_inside[i] = who;
    uint64_t c = g_counter[i];
    for (volatile int k = 0; k < 4; k++) {
    }
    g_counter[i] = c + 1;
    if (g_inside[i] != who) atomic_fetch_add(&g_overlaps, 1);
    g_inside[i] = 0;
    atomic_fetch_add_explicit(&g_entered, 1, memory_order_relaxed);
    evt_nest_exit(&g_nest[i]);
    evt_rec_lock_exit(&g_locks[i], st);
    return 1;
}

/* Work between two sections (an application does not record back to back): without it A would
 * retake the P1 lock (an unfair spinlock) before B, spinning on another CPU, ever saw it free. */
static void outside(void)
{
    for (volatile int k = 0; k < 64; k++) {
    }
}

static void handler(int signo)
{
    atomic_fetch_add_explicit(&g_handler_calls, 1, memory_order_relaxed);
    /* Only once A holds the current lock's bias: a handler on B taking it earlier would break A's
     * streak (B1), and the lock would never be biased. */
    int i = atomic_load_explicit(&g_cur, memory_order_relaxed);
    if (atomic_load_explicit(&g_biased, memory_order_acquire) == i + 1) (void)section(i, (uintptr_t)signo << 8 | 1u);
}

static void *thread_a(void *p)
{
    (void)p;
    for (int i = 0; i < LOCKS; i++) {
        atomic_store(&g_cur, i);
        int announced = 0;
        while (atomic_load_explicit(&g_b_done, memory_order_acquire) <= i) {
            if (!section(i, 0xA)) atomic_fetch_add(&g_thread_refused, 1);
            outside();
            if (!announced && atomic_load_explicit(&g_locks[i].bias, memory_order_relaxed) ==
                                  (uintptr_t)&evt_posix_token_) {
                atomic_store_explicit(&g_biased, i + 1, memory_order_release);
                announced = 1;
            }
        }
        if (!announced) atomic_fetch_add(&g_thread_refused, 1000000); /* never biased: fails below */
    }
    evt_irq_target_done(&g_irq);
    return NULL;
}

static void *thread_b(void *p)
{
    (void)p;
    for (int i = 0; i < LOCKS; i++) {
        while (atomic_load_explicit(&g_biased, memory_order_acquire) <= i) evt_posix_cpu_relax();
        for (int k = 0; k < B_SECTIONS; k++)
        {
            if (!section(i, 0xB)) atomic_fetch_add(&g_thread_refused, 1);
            outside();
        }
        atomic_store_explicit(&g_b_done, i + 1, memory_order_release);
    }
    evt_irq_target_done(&g_irq);
    return NULL;
}

static void test_bias_claim_revoke_under_signals(void **state)
{
    (void)state;
    if (!evt_port_test_bias_available()) {
        skip();
        return;
    }
    assert_int_equal(evt_irq_install(handler, handler), 0);
    for (int round = 0; round < ROUNDS; round++) {
        const evt_rec_lock fresh = EVT_REC_LOCK_INIT;
        const evt_nest idle = {0};
        for (int i = 0; i < LOCKS; i++) {
            g_locks[i] = fresh;
            g_nest[i] = idle;
            g_counter[i] = 0;
        }
        atomic_store(&g_cur, 0);
        atomic_store(&g_biased, 0);
        atomic_store(&g_b_done, 0);
        atomic_store(&g_entered, 0);
        atomic_store(&g_overlaps, 0);
        atomic_store(&g_thread_refused, 0);
        evt_irq_init(&g_irq);
        pthread_t th[2];
        assert_int_equal(pthread_create(&th[0], NULL, thread_a, NULL), 0);
        assert_int_equal(pthread_create(&th[1], NULL, thread_b, NULL), 0);
        assert_int_equal(evt_irq_start(&g_irq, th, 2), 0);
        pthread_join(th[0], NULL);
        pthread_join(th[1], NULL);
        evt_irq_join(&g_irq);
        uint64_t sum = 0;
        for (int i = 0; i < LOCKS; i++) {
            sum += g_counter[i];
            assert_true(atomic_load(&g_locks[i].bias) == EVT_POSIX_BIAS_OFF);
            assert_false(evt_posix_lock_held(&g_locks[i]));
        }
        assert_int_equal(atomic_load(&g_overlaps), 0);
        assert_int_equal(atomic_load(&g_thread_refused), 0); /* threads may wait: never refused */
        assert_true(sum == atomic_load(&g_entered));
        assert_true(sum >= (uint64_t)LOCKS * (EVT_POSIX_BIAS_AFTER + B_SECTIONS));
    }
    print_message("handler calls: %llu\n", (unsigned long long)atomic_load(&g_handler_calls));
    assert_true(atomic_load(&g_handler_calls) >= ROUNDS); /* the signals did land */
    evt_irq_uninstall();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bias_claim_revoke_under_signals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
