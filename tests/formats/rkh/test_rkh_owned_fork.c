/* A thread-owned RKH recorder and fork (rkh_enc.c O3, port P5): a fork child has only the forking
 * thread, not the owner, whose flag stays as the fork left it (set forever if the owner was inside
 * a record). The child's records claim the recorder: a claim's wait is bounded in a fork child
 * (evt_port_wait_step), so every record of the child is written or dropped and counted, never
 * hung. Built with EVT_RKH_OWNED=1 as test_rkh_owned_fork_owned (switches.cmake), and without it
 * (a locked recorder: the same child). Each child has a 20 s alarm: a hang fails the test. Not in
 * the concurrency label: TSan does not support fork in a multithreaded program. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>
#include "evt_fork_test.h"
#include "evt_port_test.h"
#include "evt_rkh_test.h"
#include "evtrace/rkh.h"

#define FORKS 20
#define CHILD_RECORDS 20u

static evt_rkh_recorder g_rec;
static uint8_t g_ring[4096];
static atomic_int g_stop, g_owned;

/* The owner: records of 1-24 bytes of stuffed data, until g_stop. */
static void *owner_main(void *p)
{
    (void)p;
    atomic_store(&g_owned, 1 + evt_rkh_own(&g_rec));
    for (uint32_t i = 0; !atomic_load(&g_stop); i++) (void)evt_rkh_test_record(&g_rec, 1u, i);
    return NULL;
}

/* The child: CHILD_RECORDS records, each written or dropped and counted (exit 0, or 10 when every
 * one was dropped; 2 if not counted), and 3 if none of them was written although the owner was
 * outside every record at the fork (owned build). A locked build's child drops them all when the
 * recording thread held the lock at the fork (port P5: held by a vanished thread). */
static void child(void)
{
    alarm(20);
    evt_rec_stats a, b;
    evt_rkh_get_stats(&g_rec, &a);
    for (uint32_t i = 0; i < CHILD_RECORDS; i++) (void)evt_rkh_test_record(&g_rec, 0u, i);
    evt_rkh_flush(&g_rec);
    evt_rkh_get_stats(&g_rec, &b);
    if ((b.written - a.written) + (b.dropped - a.dropped) != CHILD_RECORDS) _exit(2);
#if EVT_RKH_OWNED
    int stuck = *(const uint32_t *)g_rec.own != 0u; /* the owner's flag, as the fork left it */
    if (!stuck && b.written == a.written) _exit(3);
#endif
    _exit(b.written == a.written ? 10 : 0); /* 10: every record dropped (the flag stuck) */
}

static void test_fork_while_owned(void **st)
{
    (void)st;
    if (EVT_RKH_OWNED && !evt_port_test_membarrier_available("thread ownership (evt_rkh_own)")) return;
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    evt_rkh_init(&g_rec, &c, g_ring, sizeof g_ring, evt_rkh_test_clock_us, 1000000u);
    evt_rkh_filter_all(&g_rec, 1);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, owner_main, NULL), 0);
    while (!atomic_load(&g_owned)) sched_yield();
    assert_int_equal(atomic_load(&g_owned) - 1, EVT_RKH_OWNED);
    int written = 0, dropped = 0;
    for (int k = 0; k < FORKS; k++) {
        int rc = evt_test_fork_run(child);
        if (rc == 0) written++;
        else if (rc == 10) dropped++;
        else {
            atomic_store(&g_stop, 1);
            pthread_join(t, NULL);
            fail_msg("fork child %d: %s %d", k, evt_test_fork_how(rc), rc & 255);
        }
    }
    atomic_store(&g_stop, 1);
    assert_int_equal(pthread_join(t, NULL), 0);
    print_message("rkh %s fork: %d of %d children wrote their records, %d found the recording thread inside a "
                  "record (every record dropped and counted)\n", EVT_RKH_OWNED ? "owned" : "locked", written, FORKS,
                  dropped);
    assert_int_equal(written + dropped, FORKS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fork_while_owned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
