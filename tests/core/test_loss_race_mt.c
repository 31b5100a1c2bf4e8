/* The core's race protocol between a drop decided outside a recorder's lock and a close on another
 * thread (evt_loss_race_enter/exit, evt_loss_close_wait; concurrency label, also under TSan). A
 * "nested context" thread tests an open flag and counts a drop, as TXTB's and ETW's lock-failure
 * paths do, with a pause of random length inside the window (a context preempted there); a
 * "closer" thread clears the flag at a random moment, waits, and takes the count its last loss
 * record would carry. Every round: drops the nested context counted as issued == the count the
 * close took (none lost after it, none counted after it). Without the protocol the pause makes
 * the close miss a drop in most rounds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include "evtrace/recorder.h"

#define ROUNDS 1000

static evt_loss g_loss;
static uint32_t g_open;                 /* the recorder's open state (a gate word, `running`) */
static atomic_int g_go;                /* both threads run: the nested context starts */
static evt_rec_count g_taken;           /* the count the close took */
static uint64_t g_issued;               /* drops the nested context counted as issued */
static uint32_t g_seed;

static uint32_t rnd(uint32_t *s)
{
    *s ^= *s << 13; *s ^= *s >> 17; *s ^= *s << 5;
    return *s;
}

static void spin(uint32_t n)
{
    for (volatile uint32_t i = 0; i < n; i++) {
    }
}

/* The nested context: the lock-failure path of a recorder, repeated until it finds the recorder
 * closed. */
static void *nested(void *p)
{
    uint32_t s = *(uint32_t *)p;
    while (!atomic_load_explicit(&g_go, memory_order_acquire)) {
    }
    for (;;) {
        evt_loss_race_enter(&g_loss);
        int open = EVT_LOAD_RLX(&g_open) != 0u;
        if (open) {
            spin(rnd(&s) % 64u); /* preempted inside the window */
            evt_loss_drop(&g_loss);
            g_issued++;
        }
        evt_loss_race_exit(&g_loss);
        if (!open) return NULL;
    }
}

/* The close: clear the open state, wait for drops in flight, take the count. */
static void *closer(void *p)
{
    uint32_t s = *(uint32_t *)p;
    atomic_store_explicit(&g_go, 1, memory_order_release); /* running: let the nested context go */
    spin(rnd(&s) % 2000u);
    EVT_STORE_REL(&g_open, 0u);
    evt_loss_close_wait(&g_loss);
    g_taken = EVT_LOAD_RLX(&g_loss.dropped);
    return NULL;
}

static void test_close_takes_every_issued_drop(void **st)
{
    (void)st;
    g_seed = 0x9E3779B9u;
    unsigned bad = 0;
    for (int k = 0; k < ROUNDS; k++) {
        evt_loss_reset(&g_loss);
        g_open = 1u;
        g_issued = 0;
        g_taken = 0;
        atomic_store(&g_go, 0);
        uint32_t s1 = rnd(&g_seed) | 1u, s2 = rnd(&g_seed) | 1u;
        pthread_t a, b;
        assert_int_equal(pthread_create(&a, NULL, nested, &s1), 0);
        assert_int_equal(pthread_create(&b, NULL, closer, &s2), 0);
        pthread_join(a, NULL);
        pthread_join(b, NULL);
        if (g_taken != g_issued) {
            if (bad < 5u)
                print_message("round %d: issued %llu, the close took %llu\n", k, (unsigned long long)g_issued,
                              (unsigned long long)g_taken);
            bad++;
        }
        assert_int_equal(EVT_LOAD_RLX(&g_loss.racing), 0u);
    }
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_close_takes_every_issued_drop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
