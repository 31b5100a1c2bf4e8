/* Thread-owned RKH recorders, one thread at a time (rkh_enc.c O6): a thread's exit gives up the
 * recorders it still owns, and never looks at one it gave up itself (which may be freed by then:
 * the ASan build, where this unit test also runs, reports a read of freed memory). Built with
 * EVT_RKH_OWNED=1 as test_rkh_owned_owned (switches.cmake), and without it (evt_rkh_own 0). The
 * concurrent cases: test_rkh_owned_mt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdlib.h>
#include "evt_port_test.h"
#include "evt_rkh_test.h"
#include "evtrace/rkh.h"

typedef struct held {
    evt_rkh_recorder *kept; /* owned to the thread's exit */
    int owned;              /* evt_rkh_own's results, added */
} held;

static evt_rkh_recorder *new_recorder(void)
{
    evt_rkh_recorder *r = aligned_alloc(128, sizeof *r);
    uint8_t *ring = malloc(1024);
    assert_non_null(r);
    assert_non_null(ring);
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    evt_rkh_init(r, &c, ring, 1024, evt_rkh_test_clock_us, 1000000u);
    evt_rkh_filter_all(r, 1);
    return r;
}
static void free_recorder(evt_rkh_recorder *r)
{
    free(r->ring);
    free(r);
}

/* Owns two recorders: gives one up and frees it, keeps the other to its exit. */
static void *thread_main(void *p)
{
    held *h = p;
    evt_rkh_recorder *gone = new_recorder();
    h->owned += evt_rkh_own(gone);
    h->owned += evt_rkh_own(h->kept);
    for (uint32_t i = 0; i < 100u; i++) {
        assert_int_equal(evt_rkh_test_record(gone, i % 3u, i), 1);
        assert_int_equal(evt_rkh_test_record(h->kept, i % 3u, i), 1);
    }
    evt_rkh_disown(gone);
    free_recorder(gone);
    return NULL;
}

static void test_exit_gives_up(void **st)
{
    (void)st;
    if (EVT_RKH_OWNED && !evt_port_test_membarrier_available("thread ownership (evt_rkh_own)")) return;
    held h = {new_recorder(), 0};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, thread_main, &h), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(h.owned, 2 * EVT_RKH_OWNED);
#if EVT_RKH_OWNED
    assert_int_equal(h.kept->own, 0u); /* given up at the thread's exit */
#endif
    /* a locked recorder again: this thread records and flushes as any */
    assert_int_equal(evt_rkh_test_record(h.kept, 0u, 7u), 1);
    evt_rkh_flush(h.kept);
    evt_rec_stats s;
    evt_rkh_get_stats(h.kept, &s);
    assert_int_equal(s.written, 101u);
    assert_int_equal(s.dropped, 0u);
    free_recorder(h.kept);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exit_gives_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
