/* Thread-owned RKH recorders (evt_rkh_own, rkh_enc.c O1-O6). Single thread: own/disown, what is
 * refused nested in an owner's record, an inert recorder. Concurrency: an owner thread records
 * while signal handlers on it (raw sigaction ones and port simulated ISRs) record into the same
 * recorder, another thread records through claims (O3) and a third drains, flushes and reads the
 * stats; ownership handed between two threads while a third takes it away. After evt_rkh_flush
 * the host reader decodes each stream: data records + reported lost == issued, exactly, and every
 * record of a normal context (the owner's, a claimer's) is there: only a handler's may be dropped.
 * Built twice: as test_rkh_owned_mt_owned with EVT_RKH_OWNED=1 (tests/formats/rkh/switches.cmake:
 * the recorder compiled into the test), and against the library (EVT_RKH_OWNED 0), where
 * evt_rkh_own returns 0 and the same scenarios run on a locked recorder, as exact.
 * Concurrency label: also under TSan. Bounded: fixed counts and a watchdog that fails a hang. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "evt_port_test.h"
#include "evt_rkh_test.h"
#include "evtrace/rkh.h"

#define OWNER_RECORDS 40000u
#define OTHER_RECORDS 20000u /* at most: until the owner is done */
#define WHAT "thread ownership (evt_rkh_own)"
#define OWNABLE EVT_RKH_OWNED /* what evt_rkh_own returns on a thread that owns nothing yet */
#if EVT_RKH_OWNED
#define OWNER_OF(r) ((r)->own)
#else
#define OWNER_OF(r) 0u
#endif
/* Whether the owned scenarios can run here (membarrier(2); a skip fails in CI). */
static int ownable_here(void) { return !OWNABLE || evt_port_test_membarrier_available(WHAT); }

/* kinds of evt_rkh_test_record: the owner's records, its handlers', every other thread's */
enum { K_OWNER = 0, K_HANDLER = 1, K_OTHER = 2 };

static evt_rkh_recorder g_rec;
static uint8_t *g_ring;
static evt_rkh_test_buf g_out;
static atomic_ulong g_issued[3];   /* per kind */
static atomic_int g_handlers_on;   /* handlers record only while set */
static atomic_int g_stop;          /* the helper threads' stop */
static _Thread_local uint32_t tl_rand;

static uint32_t rnd(void)
{
    uint32_t x = tl_rand ? tl_rand : 0x9E3779B9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    tl_rand = x;
    return x;
}

/* Each thread's random sequence: its constant and the run's seed (the time: each run differs). */
static uint32_t g_seed;
static void seed(uint32_t c) { tl_rand = (c ^ g_seed) | 1u; }

static void record(unsigned kind)
{
    atomic_fetch_add_explicit(&g_issued[kind], 1u, memory_order_relaxed);
    (void)evt_rkh_test_record(&g_rec, kind, rnd());
}

static void rec_init(uint32_t ring_size, int streamed)
{
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    g_ring = malloc(ring_size);
    assert_non_null(g_ring);
    evt_rkh_test_buf_init(&g_out, 64u << 20);
    for (int k = 0; k < 3; k++) atomic_init(&g_issued[k], 0);
    evt_rkh_init(&g_rec, &c, g_ring, ring_size, evt_rkh_test_clock_us, 1000000u);
    evt_rkh_filter_all(&g_rec, 1);
    if (streamed) evt_rkh_set_sink(&g_rec, evt_rkh_test_sink, &g_out);
}

/* Flush, collect, decode, compare: exact, and every normal context's record there (exact_kinds:
 * bit k set = kind k was issued by normal contexts only). */
static void rec_check(const char *what, unsigned exact_kinds)
{
    evt_rkh_flush(&g_rec);
    for (;;) { /* a ring without a sink (nothing left in a streamed one) */
        uint8_t tmp[4096];
        uint32_t k = evt_rkh_get_whole_block(&g_rec, tmp, sizeof tmp);
        if (!k) break;
        evt_rkh_test_buf_add(&g_out, tmp, k);
    }
    assert_false(g_out.overflow);
    evt_rkh_decoded d;
    assert_int_equal(evt_rkh_test_decode(g_out.p, g_out.n, &d), 0);
    evt_rec_stats s;
    evt_rkh_get_stats(&g_rec, &s);
    unsigned long issued = 0, by_kind[3];
    for (unsigned k = 0; k < 3; k++) issued += by_kind[k] = atomic_load(&g_issued[k]);
    fprintf(stderr, "%s: issued %lu (owner %lu, handlers %lu, others %lu), decoded %llu, lost %llu; recorder: "
            "written %llu, dropped %llu, overwritten %llu\n", what, issued, by_kind[K_OWNER], by_kind[K_HANDLER],
            by_kind[K_OTHER], (unsigned long long)d.data, (unsigned long long)d.lost,
            (unsigned long long)s.written, (unsigned long long)s.dropped, (unsigned long long)s.overwritten);
    assert_int_equal(s.pending, 0);
    assert_int_equal(s.written + s.dropped, issued);
    if (d.data + d.lost != issued)
        fail_msg("%s: decoded %llu + lost %llu != issued %lu", what, (unsigned long long)d.data,
                 (unsigned long long)d.lost, issued);
    if (d.errors) fail_msg("%s: %llu reader errors", what, (unsigned long long)d.errors);
    for (unsigned k = 0; k < 3; k++)
        if (exact_kinds >> k & 1u) assert_int_equal(d.by_id[EVT_RKH_TEST_ID(k)], by_kind[k]);
    free(g_ring);
    evt_rkh_test_buf_free(&g_out);
}

/* ---- single thread ------------------------------------------------------------------------------- */

static void test_own_disown(void **st)
{
    (void)st;
    evt_rkh_recorder inert;
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    evt_rkh_init(&inert, &c, NULL, 0, evt_rkh_test_clock_us, 1000000u);
    assert_int_equal(evt_rkh_own(&inert), 0); /* no ring: nothing to own */
    if (!ownable_here()) return;

    rec_init(512, 1);
    assert_int_equal(evt_rkh_own(&g_rec), OWNABLE);
    assert_int_equal(OWNER_OF(&g_rec) != 0u, OWNABLE);
    for (unsigned i = 0; i < 1000u; i++) record(i % 3u);
    /* nested in one of the owner's records (as its signal handler or its sink would be): a record
       is dropped and counted, a change of owner refused, a drain gets nothing */
    assert_int_equal(evt_rkh_begin(&g_rec, RKH_TE_SM_STATE), 1);
    atomic_fetch_add(&g_issued[K_OWNER], 1u);
    evt_rkh_sym(&g_rec, 1u);
    atomic_fetch_add(&g_issued[K_HANDLER], 1u);
    assert_int_equal(evt_rkh_begin(&g_rec, RKH_TE_USER + 3u), 0);
    assert_int_equal(evt_rkh_own(&g_rec), 0);
    evt_rkh_disown(&g_rec);
    assert_int_equal(OWNER_OF(&g_rec) != 0u, OWNABLE);
    uint8_t tmp[16];
    assert_int_equal(evt_rkh_get_whole_block(&g_rec, tmp, sizeof tmp), 0);
    evt_rkh_sym(&g_rec, 2u);
    evt_rkh_end(&g_rec);
    evt_rec_stats s;
    evt_rkh_get_stats(&g_rec, &s);
    assert_int_equal(s.dropped, 1);
    /* a locked recorder again, then owned again */
    evt_rkh_disown(&g_rec);
    assert_int_equal(OWNER_OF(&g_rec), 0u);
    for (unsigned i = 0; i < 1000u; i++) record(i % 3u == 1u ? K_OTHER : i % 3u);
    assert_int_equal(evt_rkh_own(&g_rec), OWNABLE);
    for (unsigned i = 0; i < 1000u; i++) record(i % 3u == 1u ? K_OTHER : i % 3u);
    rec_check("own, disown", 1u << K_OWNER | 1u << K_OTHER);
}

/* ---- threads and handlers ------------------------------------------------------------------------- */

static void on_raw(int signo)
{
    (void)signo;
    if (atomic_load_explicit(&g_handlers_on, memory_order_acquire)) record(K_HANDLER);
}
static void on_port(int signo)
{
    (void)signo;
    if (atomic_load_explicit(&g_handlers_on, memory_order_acquire)) record(K_HANDLER);
}

static sigset_t handler_signals(void)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGUSR1);
    sigaddset(&s, SIGUSR2);
    return s;
}

typedef struct owner_arg {
    unsigned records;
    atomic_int ready;
    int owned;
} owner_arg;

/* Owns the recorder, records, and takes the handlers' signals until g_stop. */
static void *owner_main(void *p)
{
    owner_arg *a = p;
    seed(0x2545F491u);
    sigset_t s = handler_signals();
    pthread_sigmask(SIG_UNBLOCK, &s, NULL);
    a->owned = evt_rkh_own(&g_rec);
    atomic_store(&a->ready, 1);
    for (unsigned i = 0; i < a->records; i++) {
        record(K_OWNER);
        if ((rnd() & 4095u) == 0) sched_yield();
    }
    while (!atomic_load(&g_stop)) {
        struct timespec d = {0, 100000};
        nanosleep(&d, NULL);
    }
    return NULL;
}

typedef struct kicker_arg {
    pthread_t target;
    atomic_ulong sent;
} kicker_arg;

/* SIGUSR1 (raw) or SIGUSR2 (port ISR) to the owner every few microseconds until g_stop. */
static void *kicker_main(void *p)
{
    kicker_arg *k = p;
    seed(12345u);
    while (!atomic_load(&g_stop)) {
        pthread_kill(k->target, (rnd() & 1u) ? SIGUSR1 : SIGUSR2);
        atomic_fetch_add(&k->sent, 1u);
        struct timespec d = {0, (long)(rnd() % 5000u)};
        nanosleep(&d, NULL);
    }
    return NULL;
}

/* Another thread's records, each through a claim (O3), while the owner records. */
static void *other_main(void *p)
{
    (void)p;
    seed(0x6C078965u);
    for (unsigned i = 0; i < OTHER_RECORDS && atomic_load(&g_issued[K_OWNER]) < OWNER_RECORDS; i++) {
        record(K_OTHER);
        if ((rnd() & 15u) == 0) sched_yield();
    }
    return NULL;
}

/* Drains (a ring without a sink) or flushes, and reads the stats, until g_stop. */
static void *reader_main(void *p)
{
    int drain = *(const int *)p;
    uint8_t tmp[256];
    seed(777u);
    while (!atomic_load(&g_stop)) {
        if (drain) {
            uint32_t k = evt_rkh_get_whole_block(&g_rec, tmp, 1u + rnd() % sizeof tmp);
            evt_rkh_test_buf_add(&g_out, tmp, k);
            if (k) continue;
        } else {
            evt_rkh_flush(&g_rec);
        }
        evt_rec_stats s;
        evt_rkh_get_stats(&g_rec, &s);
        struct timespec d = {0, (long)(rnd() % 50000u)};
        nanosleep(&d, NULL);
    }
    return NULL;
}

static void *watchdog_main(void *p)
{
    atomic_int *done = p;
    for (int i = 0; i < 600 && !atomic_load(done); i++) {
        struct timespec d = {0, 100000000L};
        nanosleep(&d, NULL);
    }
    if (!atomic_load(done)) {
        fprintf(stderr, "test_rkh_owned_mt: no progress for 60 s: hang\n");
        abort();
    }
    return NULL;
}

/* The owner with its handlers, another recording thread and a reader (drain: 1 drains a ring
 * without a sink, 0 flushes a streamed one). */
static void run_owner(int drain)
{
    sigset_t s = handler_signals(), old;
    pthread_sigmask(SIG_BLOCK, &s, &old); /* only the owner takes them */
    evt_port_test_on_signal_flags(SIGUSR1, on_raw, SA_RESTART);
    assert_int_equal(evt_posix_isr_install(SIGUSR2, on_port), 0);
    atomic_int done;
    atomic_init(&done, 0);
    atomic_store(&g_stop, 0);
    pthread_t wd, ow, ot, rd, kk;
    assert_int_equal(pthread_create(&wd, NULL, watchdog_main, &done), 0);
    owner_arg oa = {.records = OWNER_RECORDS};
    atomic_init(&oa.ready, 0);
    atomic_store(&g_handlers_on, 1);
    assert_int_equal(pthread_create(&ow, NULL, owner_main, &oa), 0);
    while (!atomic_load(&oa.ready)) sched_yield();
    assert_int_equal(oa.owned, OWNABLE);
    kicker_arg ka = {.target = ow};
    atomic_init(&ka.sent, 0);
    assert_int_equal(pthread_create(&kk, NULL, kicker_main, &ka), 0);
    assert_int_equal(pthread_create(&ot, NULL, other_main, NULL), 0);
    assert_int_equal(pthread_create(&rd, NULL, reader_main, &drain), 0);
    pthread_join(ot, NULL);
    /* the owner's last records with the handlers still landing, then everything stops */
    while (atomic_load(&g_issued[K_OWNER]) < OWNER_RECORDS) sched_yield();
    atomic_store(&g_handlers_on, 0);
    atomic_store(&g_stop, 1);
    pthread_join(kk, NULL);
    pthread_join(rd, NULL);
    pthread_join(ow, NULL);
    atomic_store(&done, 1);
    pthread_join(wd, NULL);
    fprintf(stderr, "signals sent to the owner: %lu\n", atomic_load(&ka.sent));
    assert_int_equal(OWNER_OF(&g_rec), 0u); /* the owner's exit gave it up (rkh_enc.c O6) */
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void test_owner_streamed(void **st)
{
    (void)st;
    if (!ownable_here()) return;
    rec_init(256, 1);
    run_owner(0);
    rec_check("owned, streamed", 1u << K_OWNER | 1u << K_OTHER);
}

static void test_owner_drained_ring(void **st)
{
    (void)st;
    if (!ownable_here()) return;
    rec_init(600, 0); /* overflows: evictions counted as overwritten */
    run_owner(1);
    rec_check("owned, drained while overflowing", 0u);
}

/* ---- handing ownership over ---------------------------------------------------------------------- */

#define HANDOFF_ROUNDS 2000u

typedef struct taker_arg {
    unsigned kind;
    unsigned owned; /* rounds in which evt_rkh_own succeeded */
} taker_arg;

/* Owns the recorder, records a few, disowns it; again. */
static void *taker_main(void *p)
{
    taker_arg *a = p;
    seed(0x1234567u + a->kind);
    for (unsigned round = 0; round < HANDOFF_ROUNDS; round++) {
        a->owned += (unsigned)evt_rkh_own(&g_rec);
        unsigned n = 1u + rnd() % 40u;
        for (unsigned i = 0; i < n; i++) record(a->kind);
        if (rnd() & 1u) evt_rkh_disown(&g_rec);
    }
    return NULL;
}

/* Takes ownership away at random moments until g_stop. */
static void *robber_main(void *p)
{
    atomic_ulong *n = p;
    seed(99u);
    while (!atomic_load(&g_stop)) {
        evt_rkh_disown(&g_rec);
        atomic_fetch_add(n, 1u);
        struct timespec d = {0, (long)(rnd() % 20000u)};
        nanosleep(&d, NULL);
    }
    return NULL;
}

/* Reads the stats until g_stop (a flight ring's owner writes its pending overwrites, ow_pend,
 * without the lock: the stats must enter as a drain does, owned or not). */
static void *stats_main(void *p)
{
    unsigned long *reads = p;
    while (!atomic_load(&g_stop)) {
        evt_rec_stats s;
        evt_rkh_get_stats(&g_rec, &s);
        (*reads)++;
    }
    return NULL;
}

/* Ownership handed between two threads while a third takes it away; streamed, or (flight) a
 * flight ring that keeps overflowing while a fourth thread reads the stats (before 3 Dec 2026 a
 * stats call that found the recorder unowned read ow_pend under the lock only, while an
 * evt_rkh_own that came in between let the new owner write it: TSan, a data race). */
static void handoff(int flight)
{
    if (!ownable_here()) return;
    rec_init(384, !flight);
    atomic_store(&g_stop, 0);
    atomic_int done;
    atomic_init(&done, 0);
    atomic_ulong robbed;
    atomic_init(&robbed, 0);
    pthread_t wd, ta, tb, rb, sr;
    assert_int_equal(pthread_create(&wd, NULL, watchdog_main, &done), 0);
    taker_arg a = {.kind = K_OWNER}, b = {.kind = K_OTHER};
    assert_int_equal(pthread_create(&rb, NULL, robber_main, &robbed), 0);
    unsigned long reads = 0;
    if (flight) assert_int_equal(pthread_create(&sr, NULL, stats_main, &reads), 0);
    assert_int_equal(pthread_create(&ta, NULL, taker_main, &a), 0);
    assert_int_equal(pthread_create(&tb, NULL, taker_main, &b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    atomic_store(&g_stop, 1);
    pthread_join(rb, NULL);
    if (flight) {
        pthread_join(sr, NULL);
        assert_true(reads > 0);
    }
    atomic_store(&done, 1);
    pthread_join(wd, NULL);
    fprintf(stderr, "handoff: owned %u + %u of %u rounds each, disowned by a third thread %lu times\n", a.owned,
            b.owned, HANDOFF_ROUNDS, atomic_load(&robbed));
    assert_int_equal(a.owned, OWNABLE * HANDOFF_ROUNDS); /* a normal context is never refused ownership */
    assert_int_equal(b.owned, OWNABLE * HANDOFF_ROUNDS);
    rec_check(flight ? "handoff, flight ring, stats read meanwhile" : "handoff", flight ? 0u : 1u << K_OWNER | 1u << K_OTHER);
}
static void test_handoff(void **st)
{
    (void)st;
    handoff(0);
}
static void test_handoff_flight_stats(void **st)
{
    (void)st;
    handoff(1);
}

int main(void)
{
    g_seed = (uint32_t)time(NULL) ^ (uint32_t)getpid() << 16;
    fprintf(stderr, "seed %#x\n", g_seed);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_own_disown),
        cmocka_unit_test(test_owner_streamed),
        cmocka_unit_test(test_owner_drained_ring),
        cmocka_unit_test(test_handoff),
        cmocka_unit_test(test_handoff_flight_stats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
