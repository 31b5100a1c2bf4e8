/* Concurrency test of the TXTB recorder (runs under TSan in `make check`): 2 threads x 1,000,000
 * user events recorded at once into a small buffer with the port's default context and clock.
 * Every record carries redundant functions of (thread, sequence) in info1..4, so a torn slot
 * (words from two records) is detected after decoding. The buffer-full callback attempts a nested
 * insert too big for the nested stash on every wrap, which must be dropped, counted, and reported
 * by a LOST record.
 * Checks: no torn or foreign entry, per-thread sequence strictly increasing, contexts right,
 * timestamps non-decreasing, written + dropped == issued (stats and own counts), LOST totals.
 * A second phase races disable/enable against the writers: SUCCESS returns == records written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "evt_test.h"
#include "evtrace/reader.h"
#include "evtrace/txtb.h"
#include "formats/threadx/txtb_defs.h"
#include "formats/threadx/txtb_stash.h"

#define PER_THREAD 1000000u
#define NTHREADS   2u
#define SLOTS      256u
#define BUF_SIZE   (48u + 48u * 2u + 32u * SLOTS)
#define USER_ID    0x5000u

static uint8_t g_buf[BUF_SIZE];

typedef struct worker {
    uint32_t tid;                 /* 0 or 1 */
    uint32_t ctx;                 /* low 32 bits of its pthread id, as the port reports it */
    uint32_t n;                   /* events to issue */
    uint64_t ok, not_done;        /* return codes seen */
    atomic_int *stop;             /* phase 2: run until set */
} worker;

static atomic_ulong g_cb_calls, g_cb_nested_not_done;
static uint32_t g_main_ctx; /* the test's own thread: disable flushes the losses in its context */

static uint32_t mix(uint32_t x)
{
    x ^= x >> 16; x *= 0x7FEB352Du; x ^= x >> 15; x *= 0x846CA68Bu; x ^= x >> 16;
    return x;
}
/* The four info words of record `seq` of thread `tid`. */
static void infos(uint32_t tid, uint32_t seq, uint32_t out[4])
{
    out[0] = (tid << 28) | (seq & 0x0FFFFFFFu);
    out[1] = ~seq ^ (tid * 0x9E3779B9u);
    out[2] = mix(seq * 2u + tid);
    out[3] = seq + 0x01000000u * (tid + 1u);
}

/* The nested insert: a record of NESTED_K slots, more than a half of the nested stash holds
 * (txtb_enc.c I9; EVT_TX_NEST_STASH_WORDS / 2 words a half, txtb_stash.h; 4 + 5 per slot), so it is
 * dropped and counted as NESTED_K drops (a smaller one would be stashed and written after the
 * record that wrapped). */
#define NESTED_K (EVT_TX_NEST_STASH_WORDS / 2u / 5u + 1u) /* 4 + 5 * NESTED_K > a half */
static uint32_t g_big[4u * NESTED_K];
static void on_full(void *buf)
{
    (void)buf;
    atomic_fetch_add(&g_cb_calls, 1);
    if (evt_tx_trace_user_words_insert(0xDEAD, 0xFC00u, g_big, 4u * NESTED_K) == 0u)
        atomic_fetch_add(&g_cb_nested_not_done, 1);
}

static void *work(void *p)
{
    worker *w = p;
    uint32_t in[4];
    w->ctx = evt_tx_addr((const void *)(uintptr_t)pthread_self());
    for (uint32_t seq = 0; w->stop ? !atomic_load_explicit(w->stop, memory_order_relaxed) : seq < w->n; seq++) {
        infos(w->tid, seq, in);
        unsigned rc = evt_tx_trace_user_event_insert(USER_ID + w->tid, in[0], in[1], in[2], in[3]);
        if (rc == EVT_TX_SUCCESS) w->ok++; else w->not_done++;
        if (w->stop) w->n = seq + 1;
    }
    return NULL;
}

/* Decode the buffer and check every entry; returns the number of LOST records seen. */
static uint64_t check_buffer(const worker *ws, uint64_t *lost_sum, int allow_running, int full,
                             uint64_t *data_out)
{
    g_main_ctx = evt_tx_addr((const void *)(uintptr_t)pthread_self());
    char err[256];
    evt_reader *r = NULL;
    assert_int_equal(evt_reader_open_mem(g_buf, BUF_SIZE, "threadx", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    evt_status st;
    uint64_t n = 0, lost_records = 0, prev_ts = 0;
    int64_t last_seq[NTHREADS] = {-1, -1};
    *lost_sum = 0;
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        /* Raw timestamps follow slot order: a backward step would unwrap as a jump of ~2^32. */
        assert_true(ev.ts >= prev_ts);
        if (n > 0) assert_true(ev.ts - prev_ts < 0x80000000u);
        prev_ts = ev.ts;
        n++;
        if (ev.id == TXTB_EVTRACE_LOST_ID) {
            assert_int_equal(ev.args[2], TXTB_EVTRACE_LOST_MAGIC);
            assert_true(ev.args[0] + ev.args[3] >= 1);  /* drops, or overwritten (at disable) */
            assert_true(ev.args[1] >= ev.args[0]);
            assert_true(ev.ctx == ws[0].ctx || ev.ctx == ws[1].ctx || ev.ctx == g_main_ctx);
            assert_int_equal(ev.count, ev.args[0] + ev.args[3]);
            *lost_sum += ev.count;
            lost_records++;
            continue;
        }
        if (ev.id == TXTB_EVENT_RUNNING && allow_running) continue;
        assert_true(ev.id == USER_ID || ev.id == USER_ID + 1);
        uint32_t tid = ev.id - USER_ID;
        assert_int_equal(ev.ctx, ws[tid].ctx);
        assert_int_equal(ev.prio, 0x80000000u);
        uint32_t seq_lo = (uint32_t)ev.args[0] & 0x0FFFFFFFu;
        assert_int_equal((uint32_t)ev.args[0] >> 28, tid);
        /* Recover the full sequence from info4 and check every word against it. */
        uint32_t seq = (uint32_t)ev.args[3] - 0x01000000u * (tid + 1u);
        assert_int_equal(seq & 0x0FFFFFFFu, seq_lo);
        uint32_t in[4];
        infos(tid, seq, in);
        for (int i = 0; i < 4; i++) assert_int_equal((uint32_t)ev.args[i], in[i]);
        assert_true((int64_t)seq > last_seq[tid]);
        last_seq[tid] = seq;
    }
    assert_int_equal(st, EVT_END);
    assert_int_equal(r->errors, 0);
    assert_int_equal(r->lost, *lost_sum);
    if (full) assert_int_equal(n, SLOTS); /* wrapped: every slot holds a whole record */
    if (data_out) *data_out = n - lost_records;
    evt_reader_close(r);
    return lost_records;
}

static void test_two_writers(void **st)
{
    (void)st;
    evt_tx_stats s0, s1;
    evt_tx_trace_get_stats(&s0);
    evt_tx_trace_buffer_full_notify(on_full);
    assert_int_equal(evt_tx_trace_enable(g_buf, BUF_SIZE, 2), EVT_TX_SUCCESS);
    worker ws[NTHREADS];
    pthread_t th[NTHREADS];
    for (uint32_t i = 0; i < NTHREADS; i++) {
        memset(&ws[i], 0, sizeof ws[i]);
        ws[i].tid = i;
        ws[i].n = PER_THREAD;
        assert_int_equal(pthread_create(&th[i], NULL, work, &ws[i]), 0);
    }
    for (uint32_t i = 0; i < NTHREADS; i++) pthread_join(th[i], NULL);
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
    evt_tx_trace_buffer_full_notify(NULL);
    evt_tx_trace_get_stats(&s1);

    uint64_t issued = 2u /* RUNNING */, ok = 2u;
    for (uint32_t i = 0; i < NTHREADS; i++) {
        assert_int_equal(ws[i].ok + ws[i].not_done, PER_THREAD);
        assert_int_equal(ws[i].not_done, 0); /* nothing races enable/disable in this phase */
        issued += PER_THREAD;
        ok += ws[i].ok;
    }
    uint64_t cb = atomic_load(&g_cb_calls), nested = atomic_load(&g_cb_nested_not_done);
    issued += cb * NESTED_K;                   /* every callback issued one nested insert */
    uint64_t written = s1.written - s0.written, dropped = s1.dropped - s0.dropped;
    assert_int_equal(written + dropped, issued);
    assert_int_equal(written, ok);
    assert_int_equal(dropped, nested * NESTED_K);
    assert_int_equal(dropped, cb * NESTED_K);
    assert_int_equal(s1.wraps - s0.wraps, cb);
    assert_true(cb > 1000u);                   /* 2M records in 256 slots wrap ~7800 times */
    uint64_t lost_sum = 0, data = 0;
    uint64_t lost_records = check_buffer(ws, &lost_sum, 0, 1, &data);
    assert_true(lost_records > 0);             /* the window holds some LOST records */
    /* Exact after disable: records in the buffer + every lost record counted == issued (the
     * RUNNING pair was overwritten long ago; it is among the lost). */
    assert_int_equal(data + lost_sum, issued);
    evt_rec_stats rs;
    evt_tx_trace_get_rec_stats(&rs);
    assert_int_equal(rs.written + rs.dropped, issued);
    assert_int_equal(rs.pending, 0);
    assert_int_equal(rs.lost_reported, lost_sum);
}

/* Writers race disable/enable: a SUCCESS return always means a record was written. */
static void test_race_enable_disable(void **st)
{
    (void)st;
    evt_tx_stats s0, s1;
    evt_tx_trace_get_stats(&s0);
    assert_int_equal(evt_tx_trace_enable(g_buf, BUF_SIZE, 2), EVT_TX_SUCCESS);
    atomic_int stop = 0;
    worker ws[NTHREADS];
    pthread_t th[NTHREADS];
    for (uint32_t i = 0; i < NTHREADS; i++) {
        memset(&ws[i], 0, sizeof ws[i]);
        ws[i].tid = i;
        ws[i].stop = &stop;
        assert_int_equal(pthread_create(&th[i], NULL, work, &ws[i]), 0);
    }
    uint64_t enables = 1, cb0 = atomic_load(&g_cb_calls);
    for (int k = 0; k < 300; k++) {
        assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
        assert_int_equal(evt_tx_trace_enable(g_buf, BUF_SIZE, 2), EVT_TX_SUCCESS);
        enables++;
        for (volatile int spin = 0; spin < 2000; spin++) {}
    }
    atomic_store(&stop, 1);
    for (uint32_t i = 0; i < NTHREADS; i++) pthread_join(th[i], NULL);
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
    evt_tx_trace_get_stats(&s1);
    uint64_t ok = 0, nd = 0;
    for (uint32_t i = 0; i < NTHREADS; i++) { ok += ws[i].ok; nd += ws[i].not_done; }
    uint64_t written = s1.written - s0.written, dropped = s1.dropped - s0.dropped;
    assert_int_equal(written, ok + 2u * enables);  /* + the RUNNING pairs */
    /* drops are NOT_DONE returns, or the callbacks' nested inserts */
    assert_true(dropped <= nd + (atomic_load(&g_cb_calls) - cb0) * NESTED_K);
    /* Whatever the last session holds decodes cleanly (no torn slot). */
    uint64_t lost_sum;
    (void)check_buffer(ws, &lost_sum, 1, 0, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_writers),
        cmocka_unit_test(test_race_enable_disable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
