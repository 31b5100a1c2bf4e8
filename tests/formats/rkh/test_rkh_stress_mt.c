/* RKH recorder under concurrency: several threads plus signal-handler "ISRs" (raw sigaction
 * handlers sent by pthread_kill and by an interval timer, and simulated ISRs installed with
 * evt_posix_isr_install) record at random points into (a) one recorder streamed to a sink, (b) one
 * flight ring that wraps, read after stop, (c) two threads on two separate recorders, and (d) one
 * ring drained by another thread in pieces of random size while it overflows. After stop and
 * evt_rkh_flush the host reader decodes each stream: data records + reported lost == issued,
 * exactly. Bounded: fixed record counts per thread and a watchdog that fails instead of hanging. */
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
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "evt_rkh_test.h"
#include "evtrace/rkh.h"
#include "formats/rkh/rkh_defs.h"

#define MAX_WORKERS 3
#define PER_THREAD 20000u

/* One recorder under test, on its own cache lines. */
typedef struct rig {
    _Alignas(128) evt_rkh_recorder rec;
    _Alignas(64) atomic_ulong issued;
    evt_rkh_test_buf out;
    uint8_t *ring;
    uint32_t ring_size;
} rig;

static atomic_int g_active;                      /* handlers record only while set */
static _Thread_local rig *tl_rig;                /* the rig a worker (and its handlers) records into */
static _Thread_local uint32_t tl_rand;

static uint32_t rnd(void)
{
    uint32_t x = tl_rand ? tl_rand : 0x9E3779B9u;
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    tl_rand = x;
    return x;
}

static uint32_t ts32(void) { return (uint32_t)evt_port_timestamp(); }

/* One record of a random shape (evt_rkh_test_record: SM_STATE half the time, a user record with
 * bytes that need stuffing, a string record), counted as issued before begin. */
static void record_one(rig *g, uint32_t tag)
{
    atomic_fetch_add_explicit(&g->issued, 1u, memory_order_relaxed);
    static const unsigned kind[4] = {0, 0, 1, 2};
    (void)evt_rkh_test_record(&g->rec, kind[tag % 4u], tag);
}

/* ---- ISRs ---------------------------------------------------------------------------------------- */
static void raw_isr(int signo)
{
    rig *g = tl_rig;
    if (g && atomic_load_explicit(&g_active, memory_order_acquire)) record_one(g, 0xA000u + (unsigned)signo + rnd() % 16u);
}
static void port_isr(int signo)
{
    rig *g = tl_rig;
    if (g && atomic_load_explicit(&g_active, memory_order_acquire)) record_one(g, 0xB000u + (unsigned)signo + rnd() % 16u);
}

static void install_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = raw_isr;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
    assert_int_equal(sigaction(SIGALRM, &sa, NULL), 0);
    assert_int_equal(evt_posix_isr_install(SIGUSR2, port_isr), 0);
}

static sigset_t isr_signals(void)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGUSR1);
    sigaddset(&s, SIGUSR2);
    sigaddset(&s, SIGALRM);
    return s;
}

/* ---- threads ------------------------------------------------------------------------------------- */
typedef struct worker {
    pthread_t t;
    rig *g;
    uint32_t seed;
    atomic_int ready;
} worker;

static void *worker_main(void *arg)
{
    worker *w = arg;
    tl_rig = w->g;
    tl_rand = w->seed;
    sigset_t s = isr_signals();
    pthread_sigmask(SIG_UNBLOCK, &s, NULL); /* only workers take the ISRs */
    atomic_store(&w->ready, 1);
    for (uint32_t i = 0; i < PER_THREAD; i++) {
        record_one(w->g, rnd());
        if ((rnd() & 1023u) == 0) sched_yield();
    }
    return NULL;
}

typedef struct ticker {
    pthread_t t;
    worker *w;
    int nw;
    atomic_int stop;
    atomic_ulong sent;
} ticker;

/* Sends SIGUSR1 (raw) or SIGUSR2 (port ISR) to a random worker every few microseconds. */
static void *ticker_main(void *arg)
{
    ticker *k = arg;
    tl_rand = 12345u;
    while (!atomic_load(&k->stop)) {
        worker *w = &k->w[rnd() % (uint32_t)k->nw];
        if (atomic_load(&w->ready)) {
            pthread_kill(w->t, (rnd() & 1u) ? SIGUSR1 : SIGUSR2);
            atomic_fetch_add(&k->sent, 1u);
        }
        struct timespec d = {0, (long)(1000u + rnd() % 10000u)};
        nanosleep(&d, NULL);
    }
    return NULL;
}

static void *watchdog_main(void *arg)
{
    atomic_int *done = arg;
    for (int i = 0; i < 600 && !atomic_load(done); i++) {
        struct timespec d = {0, 100000000L};
        nanosleep(&d, NULL);
    }
    if (!atomic_load(done)) {
        fprintf(stderr, "test_rkh_stress_mt: no progress for 60 s: hang\n");
        abort();
    }
    return NULL;
}

/* ---- drainer for (d) ------------------------------------------------------------------------------ */
typedef struct drainer {
    pthread_t t;
    rig *g;
    atomic_int stop;
} drainer;

static void *drainer_main(void *arg)
{
    drainer *d = arg;
    uint8_t tmp[256];
    tl_rand = 777u;
    while (!atomic_load(&d->stop)) {
        uint32_t k = evt_rkh_get_whole_block(&d->g->rec, tmp, 1u + rnd() % sizeof tmp);
        evt_rkh_test_buf_add(&d->g->out, tmp, k);
        if (!k) {
            struct timespec s = {0, (long)(rnd() % 20000u)};
            nanosleep(&s, NULL);
        } else if ((rnd() & 7u) == 0) {
            sched_yield();
        }
    }
    return NULL;
}

/* ---- scenarios ------------------------------------------------------------------------------------- */
enum mode { STREAMED, FLIGHT, DRAINED };

static void rig_init(rig *g, enum mode m, uint32_t ring_size)
{
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    g->ring_size = ring_size;
    g->ring = malloc(ring_size);
    assert_non_null(g->ring);
    evt_rkh_test_buf_init(&g->out, 64u << 20);
    atomic_init(&g->issued, 0);
    evt_rkh_init(&g->rec, &c, g->ring, ring_size, ts32, 1000000u);
    evt_rkh_filter_all(&g->rec, 1);
    if (m == STREAMED) evt_rkh_set_sink(&g->rec, evt_rkh_test_sink, &g->out);
}

/* Stop, flush, collect the stream, decode, compare. */
static void rig_check(rig *g, enum mode m, const char *what)
{
    evt_rkh_flush(&g->rec);
    if (m != STREAMED) {
        for (;;) {
            uint8_t tmp[4096];
            uint32_t k = evt_rkh_get_whole_block(&g->rec, tmp, sizeof tmp);
            if (!k) break;
            evt_rkh_test_buf_add(&g->out, tmp, k);
        }
    }
    assert_false(g->out.overflow);
    evt_rkh_decoded d;
    assert_int_equal(evt_rkh_test_decode(g->out.p, g->out.n, &d), 0);
    evt_rec_stats s;
    evt_rkh_get_stats(&g->rec, &s);
    unsigned long issued = atomic_load(&g->issued);
    fprintf(stderr, "%s: issued %lu, decoded %llu, lost %llu (loss records %llu); recorder: written %llu, "
            "dropped %llu, overwritten %llu, pending %llu\n", what, issued, (unsigned long long)d.data,
            (unsigned long long)d.lost, (unsigned long long)d.loss_records, (unsigned long long)s.written,
            (unsigned long long)s.dropped, (unsigned long long)s.overwritten, (unsigned long long)s.pending);
    assert_int_equal(s.pending, 0);
    assert_int_equal(s.written + s.dropped, issued);
    if (d.data + d.lost != issued)
        fail_msg("%s: decoded %llu + lost %llu != issued %lu", what, (unsigned long long)d.data,
                 (unsigned long long)d.lost, issued);
    if (m == STREAMED) assert_int_equal(d.data, s.written); /* a sink loses nothing it was given */
    /* Flight: whole records evicted, a clean start. Drained while overflowing: the sequence gaps
     * and aborted frames the evictions leave are the losses the loss records count, not errors. */
    if (d.errors)
        fail_msg("%s: %llu reader errors in a stream the recorder wrote", what, (unsigned long long)d.errors);
    free(g->ring);
    evt_rkh_test_buf_free(&g->out);
}

/* nw workers over rigs[i % nrigs]; ISRs from the ticker and a 100 us interval timer. */
static void run(rig *rigs, int nrigs, int nw, enum mode m)
{
    sigset_t s = isr_signals();
    sigset_t old;
    pthread_sigmask(SIG_BLOCK, &s, &old); /* this thread and the helpers never take the ISRs */
    install_handlers();
    atomic_int done;
    atomic_init(&done, 0);
    pthread_t wd;
    assert_int_equal(pthread_create(&wd, NULL, watchdog_main, &done), 0);
    worker w[MAX_WORKERS];
    ticker k;
    memset(&k, 0, sizeof k);
    k.w = w;
    k.nw = nw;
    drainer dr;
    memset(&dr, 0, sizeof dr);
    dr.g = &rigs[0];
    atomic_store(&g_active, 1);
    for (int i = 0; i < nw; i++) {
        w[i].g = &rigs[i % nrigs];
        w[i].seed = 0x1234567u * (uint32_t)(i + 1) + (uint32_t)time(NULL);
        atomic_init(&w[i].ready, 0);
        assert_int_equal(pthread_create(&w[i].t, NULL, worker_main, &w[i]), 0);
    }
    assert_int_equal(pthread_create(&k.t, NULL, ticker_main, &k), 0);
    if (m == DRAINED) assert_int_equal(pthread_create(&dr.t, NULL, drainer_main, &dr), 0);
    struct itimerval it = {{0, 100}, {0, 100}};
    setitimer(ITIMER_REAL, &it, NULL);
    for (int i = 0; i < nw; i++) pthread_join(w[i].t, NULL);
    /* stop the ISRs before the last records are counted */
    atomic_store(&g_active, 0);
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    atomic_store(&k.stop, 1);
    pthread_join(k.t, NULL);
    if (m == DRAINED) {
        atomic_store(&dr.stop, 1);
        pthread_join(dr.t, NULL);
    }
    atomic_store(&done, 1);
    pthread_join(wd, NULL);
    fprintf(stderr, "signals sent by the ticker: %lu\n", atomic_load(&k.sent));
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void test_streamed_sink(void **st)
{
    (void)st;
    static rig g;
    rig_init(&g, STREAMED, 256);
    run(&g, 1, 3, STREAMED);
    rig_check(&g, STREAMED, "streamed");
}

static void test_flight_ring(void **st)
{
    (void)st;
    static rig g;
    rig_init(&g, FLIGHT, 4096);
    run(&g, 1, 3, FLIGHT);
    rig_check(&g, FLIGHT, "flight ring");
}

static void test_two_recorders(void **st)
{
    (void)st;
    static rig g[2];
    rig_init(&g[0], STREAMED, 512);
    rig_init(&g[1], STREAMED, 512);
    run(g, 2, 2, STREAMED);
    rig_check(&g[0], STREAMED, "recorder 1 of 2");
    rig_check(&g[1], STREAMED, "recorder 2 of 2");
}

static void test_drained_while_overflowing(void **st)
{
    (void)st;
    static rig g;
    rig_init(&g, DRAINED, 600);
    run(&g, 1, 2, DRAINED);
    rig_check(&g, DRAINED, "drained ring");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_streamed_sink),
        cmocka_unit_test(test_flight_ring),
        cmocka_unit_test(test_two_recorders),
        cmocka_unit_test(test_drained_while_overflowing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
