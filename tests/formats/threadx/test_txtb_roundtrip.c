/* Round trip of the TXTB recorder through the TXTB reader: record a varied script (thread / ISR /
 * init contexts, kernel events of every table id, user events, interrupt control, LOST records
 * from nested inserts), decode with evt_reader_open_mem(..., "threadx", ...) and compare every
 * field (id, info1..4, context, priority word, unwrapped timestamp) with a shadow log of what was
 * recorded; before and after many wraps, in both byte orders, with a 32-bit up-counter and a
 * 16-bit down-counter (mask 0xFFFF) whose unwrapped ts must keep growing. The shadow log models
 * the ring's slots, so the LOST records' counts (drops, LOST records carried again after a wrap
 * overwrote them, records overwritten by wraps reported at disable) are predicted exactly, and after
 * disable decoded records + reported lost == records issued. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "evt_test.h"
#include "evtrace/reader.h"
#include "evtrace/txtb.h"
#include "formats/threadx/txtb_defs.h"
#include "formats/threadx/txtb_stash.h"

/* One recorded event, as the recorder should have written it. */
typedef struct exp_ev {
    uint32_t ctx, prio, id, raw_ts;
    uint32_t info[4];
} exp_ev;

#define MAX_LOG 40000u
static exp_ev g_log[MAX_LOG];  /* every record, in order */
static uint32_t g_nlog;
static evt_tx_context g_ctx;   /* the context callback's answer */
static uint32_t g_reads;       /* clock reads so far */
static int g_down;             /* 16-bit down-counter instead of the 32-bit up-counter */
static uint32_t g_last_ts;     /* value of the last clock read */
static uint32_t g_cb_drops;    /* drops during the current call (buffer-full callback) */
/* The loss account as the recorder keeps it (evtrace/recorder.h), modelled independently. */
static uint32_t g_drops;       /* drops since enable, before the current call */
static uint32_t g_repended;    /* counts of LOST records that a wrap overwrote */
static uint32_t g_reported;    /* drops + repended carried by LOST records (their info1) */
static uint32_t g_ow;          /* data records overwritten by wraps */
static uint32_t g_ow_reported; /* ...carried by LOST records (their info4) */
static uint32_t g_issued;      /* data records issued (written or dropped) */
/* The ring's slots: what each holds (LOST count, or ~0 for a data record, or 0 when empty). */
#define RT_SLOTS 61u
static uint32_t g_slot[RT_SLOTS];
static uint32_t g_next_slot;

static uint32_t clock_fn(void)
{
    uint32_t k = g_reads++;
    /* up: 1000 + 3k (32 bits, wraps never); down: 16-bit timer from 0x0100 down by 37 per read */
    g_last_ts = g_down ? ((0x0100u - 37u * k) & 0xFFFFu) : 1000u + 3u * k;
    return g_last_ts;
}
static void ctx_fn(evt_tx_context *out) { *out = g_ctx; }
/* Nested insert from the callback, too big for the nested stash (txtb_enc.c I9;
 * EVT_TX_NEST_STASH_WORDS / 2 words a half, txtb_stash.h; 4 + 5 per slot): must be dropped and
 * counted (NESTED_K slots), then reported by LOST. */
#define NESTED_K (EVT_TX_NEST_STASH_WORDS / 2u / 5u + 1u) /* 4 + 5 * NESTED_K > a half */
static uint32_t g_big[4u * NESTED_K];
static void on_full(void *buf)
{
    (void)buf;
    assert_int_equal(evt_tx_trace_user_words_insert(0xBAD, 0xFC00u, g_big, 4u * NESTED_K), 0u);
    g_cb_drops += NESTED_K;
}

static void logv(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4, uint32_t ts)
{
    assert_true(g_nlog < MAX_LOG);
    uint32_t *slot = &g_slot[g_next_slot];
    if (*slot == ~0u) g_ow++;           /* a data record is overwritten */
    else if (*slot != 0u) g_repended += *slot - 1u; /* a LOST record: its count is carried again */
    if (id != TXTB_EVTRACE_LOST_ID) g_issued++;
    g_next_slot = (g_next_slot + 1u) % RT_SLOTS;
    exp_ev *e = &g_log[g_nlog++];
    e->ctx = g_ctx.context;
    e->prio = g_ctx.priority_word;
    e->id = id;
    e->raw_ts = ts;
    e->info[0] = i1; e->info[1] = i2; e->info[2] = i3; e->info[3] = i4;
    *slot = id == TXTB_EVTRACE_LOST_ID ? 1u + i1 + i4 : ~0u;
}
/* A LOST record as the recorder writes it: the slot it takes is reclaimed first. */
static void log_lost(int at_stop)
{
    uint32_t *slot = &g_slot[g_next_slot];
    if (*slot == ~0u) { g_ow++; *slot = 0; }
    else if (*slot != 0u) { g_repended += *slot - 1u; *slot = 0; }
    uint32_t n = g_drops + g_repended - g_reported, ow = at_stop ? g_ow - g_ow_reported : 0u;
    g_reported += n;
    g_ow_reported += ow;
    logv(TXTB_EVTRACE_LOST_ID, n, g_reported, TXTB_EVTRACE_LOST_MAGIC, ow, g_last_ts);
}
/* Log one recorded API call (after the call: g_last_ts is its timestamp), LOST first if pending. */
static void log_rec(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4)
{
    if (g_drops + g_repended != g_reported) log_lost(0);
    logv(id, i1, i2, i3, i4, g_last_ts);
    g_drops += g_cb_drops;
    g_issued += g_cb_drops;
    g_cb_drops = 0;
}

static const uint32_t k_table_ids[] = {
#define RT_ID_(id, name, filt, kind) id,
    TXTB_EVENT_TABLE(RT_ID_)
#undef RT_ID_
};

static uint32_t g_rng = 12345u;
static uint32_t rnd(void) { g_rng = g_rng * 1103515245u + 12345u; return g_rng >> 8; }

/* Record `count` random events after enable. */
static void record_script(uint32_t count)
{
    static const uint32_t threads[3] = {0x20001000u, 0x20001100u, 0x7FFF0000u};
    for (uint32_t n = 0; n < count; n++) {
        uint32_t r = rnd();
        uint32_t t = threads[r % 3];
        g_ctx.context = t;
        g_ctx.priority_word = 0x80000000u | ((r >> 4) & 0x3FFu) << 16 | ((r >> 14) & 0x3FFu);
        g_ctx.system_state = 0;
        g_ctx.preempt_disable = 0;
        g_ctx.stack = 0x2000F000u + (r & 0xFF0u);
        uint32_t a = rnd(), b = rnd(), c = rnd(), d = rnd();
        switch ((r >> 2) % 6) {
        case 0: case 1: {
            uint32_t id = 4096u + (a % (0xFFFFFFu - 4096u));
            assert_int_equal(evt_tx_trace_user_event_insert(id, a, b, c, d), EVT_TX_SUCCESS);
            log_rec(id, a, b, c, d);
            break;
        }
        case 2: {
            uint32_t id = k_table_ids[a % (sizeof k_table_ids / sizeof k_table_ids[0])];
            if (id == TXTB_EVTRACE_LOST_ID) id = TXTB_EVENT_THREAD_RESUME;
            evt_tx_trace_kernel_event(id, t, b, c, d);
            log_rec(id, t, b, c, d);
            break;
        }
        case 3: { /* an interrupt: enter + exit in ISR context, interrupted thread in the prio word */
            g_ctx.context = TXTB_CTX_ISR;
            g_ctx.priority_word = t;
            g_ctx.system_state = 1u + (b & 3u);
            g_ctx.preempt_disable = c & 1u;
            evt_tx_trace_isr_enter_insert(a & 0xFFu);
            log_rec(TXTB_EVENT_ISR_ENTER, g_ctx.stack, a & 0xFFu, g_ctx.system_state, g_ctx.preempt_disable);
            evt_tx_trace_isr_exit_insert(a & 0xFFu);
            log_rec(TXTB_EVENT_ISR_EXIT, g_ctx.stack, a & 0xFFu, g_ctx.system_state, g_ctx.preempt_disable);
            break;
        }
        case 4:
            evt_tx_trace_interrupt_control(a & 1u);
            log_rec(TXTB_EVENT_INTERRUPT_CONTROL, a & 1u, g_ctx.stack, 0, 0);
            break;
        default: /* initialisation context */
            g_ctx.context = TXTB_CTX_INIT;
            g_ctx.priority_word = 0;
            evt_tx_trace_kernel_event(TXTB_EVENT_QUEUE_CREATE, a, b, c, d);
            log_rec(TXTB_EVENT_QUEUE_CREATE, a, b, c, d);
            break;
        }
    }
}

/* Decode buf and compare with the last min(g_nlog, capacity) logged records. */
static void check_decode(const uint8_t *buf, size_t size, uint32_t capacity, uint32_t mask)
{
    char err[256];
    evt_reader *r = NULL;
    assert_int_equal(evt_reader_open_mem(buf, size, "threadx", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    uint32_t expect_n = g_nlog < capacity ? g_nlog : capacity;
    uint32_t first = g_nlog - expect_n, k = 0;
    uint64_t prev_ts = 0, lost = 0;
    evt_event ev;
    evt_status st;
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        assert_true(k < expect_n);
        const exp_ev *e = &g_log[first + k];
        assert_int_equal(ev.id, e->id);
        assert_int_equal(ev.nargs, 4);
        for (int i = 0; i < 4; i++) assert_int_equal(ev.args[i], e->info[i]);
        assert_true(ev.flags & EVT_HAS_CTX);
        assert_int_equal(ev.ctx, e->ctx);
        assert_int_equal(ev.prio, e->prio);
        /* ts: first = masked raw (down-counter: mask - masked raw), then the masked steps. */
        uint32_t m = e->raw_ts & mask;
        if (k == 0) {
            assert_int_equal(ev.ts, g_down ? (uint64_t)(mask - m) : (uint64_t)m);
        } else {
            uint32_t pm = g_log[first + k - 1].raw_ts & mask;
            uint64_t step = g_down ? ((uint64_t)pm - m) & mask : ((uint64_t)m - pm) & mask;
            assert_int_equal(ev.ts, prev_ts + step);
            assert_true(ev.ts >= prev_ts);
        }
        if (e->id == TXTB_EVTRACE_LOST_ID) {
            assert_int_equal(ev.kind, EVT_KIND_LOST);
            assert_int_equal(ev.count, (uint64_t)e->info[0] + e->info[3]);
            lost += (uint64_t)e->info[0] + e->info[3];
        }
        prev_ts = ev.ts;
        k++;
    }
    assert_int_equal(st, EVT_END);
    assert_int_equal(k, expect_n);
    assert_int_equal(r->errors, 0);
    assert_int_equal(r->lost, lost);
    evt_reader_close(r);
}

/* After disable: every record issued is decoded or counted lost, exactly. */
static void check_issued(const uint8_t *buf, size_t size)
{
    char err[256];
    evt_reader *r = NULL;
    assert_int_equal(evt_reader_open_mem(buf, size, "threadx", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    uint64_t data = 0;
    while (evt_reader_next(r, &ev) == EVT_OK) data += ev.kind != EVT_KIND_LOST;
    assert_int_equal(data + r->lost, g_issued);
    evt_tx_stats st;
    evt_rec_stats rs;
    evt_tx_trace_get_stats(&st);
    evt_tx_trace_get_rec_stats(&rs);
    assert_int_equal(rs.written + rs.dropped, g_issued);
    assert_int_equal(rs.pending, 0);
    assert_int_equal(rs.lost_reported, r->lost);
    evt_reader_close(r);
}

/* g_reads counts clock reads, g_nlog counts records: they differ by the LOST records. */
static uint32_t lost_records_logged(void)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < g_nlog; i++) n += g_log[i].id == TXTB_EVTRACE_LOST_ID;
    return n;
}

static void run(int big, int down, uint32_t count, int with_lost)
{
    enum { R = 4, N = RT_SLOTS, SIZE = 48 + 48 * R + 32 * N + 11 };
    static uint8_t buf[SIZE];
    memset(buf, 0xC3, sizeof buf);
    g_nlog = 0;
    g_reads = 0;
    g_down = down;
    g_cb_drops = g_drops = g_repended = g_reported = g_ow = g_ow_reported = g_issued = 0;
    memset(g_slot, 0, sizeof g_slot);
    g_next_slot = 0;
    (void)evt_tx_trace_disable();
    evt_tx_trace_buffer_full_notify(with_lost ? on_full : NULL);
    evt_tx_options o;
    memset(&o, 0, sizeof o);
    o.big_endian = big;
    o.time_source = clock_fn;
    o.time_mask = down ? 0xFFFFu : 0;
    o.context = ctx_fn;
    g_ctx.context = TXTB_CTX_INIT;
    g_ctx.priority_word = 0;
    assert_int_equal(evt_tx_trace_enable_ex(buf, SIZE, R, &o), EVT_TX_SUCCESS);
    /* The two RUNNING records of enable read the clock twice. */
    logv(TXTB_EVENT_RUNNING, 0, 0, 0, 0, down ? 0x0100u : 1000u);
    logv(TXTB_EVENT_RUNNING, 0, 0, 0, 0, down ? ((0x0100u - 37u) & 0xFFFFu) : 1003u);
    evt_tx_trace_thread_register((const void *)(uintptr_t)0x20001000u, "t0", 0, 0, 3);
    record_script(count);
    assert_int_equal(g_reads, g_nlog - lost_records_logged()); /* LOST shares its record's read */
    if (with_lost) assert_true(lost_records_logged() > 10);
    check_decode(buf, SIZE, N, down ? 0xFFFFu : 0xFFFFFFFFu);
    uint32_t reads = g_reads;
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
    if (g_drops + g_repended != g_reported || g_ow != g_ow_reported) { /* disable flushes */
        assert_int_equal(g_reads, reads + 1u);
        log_lost(1);
    } else {
        assert_int_equal(g_reads, reads);
    }
    check_decode(buf, SIZE, N, down ? 0xFFFFu : 0xFFFFFFFFu); /* still decodable after disable */
    check_issued(buf, SIZE);
    evt_tx_trace_buffer_full_notify(NULL);
}

static void test_no_wrap_le(void **st) { (void)st; run(0, 0, 20, 0); }
static void test_no_wrap_be(void **st) { (void)st; run(1, 0, 20, 0); }
static void test_wraps_le(void **st) { (void)st; run(0, 0, 5000, 0); }
static void test_wraps_be(void **st) { (void)st; run(1, 0, 5000, 0); }
static void test_down16_le(void **st) { (void)st; run(0, 1, 7000, 0); }
static void test_down16_be(void **st) { (void)st; run(1, 1, 7000, 0); }

static void test_lost_records_le(void **st) { (void)st; run(0, 0, 5000, 1); }
static void test_lost_records_be_down16(void **st) { (void)st; run(1, 1, 7000, 1); }

/* The registry scripts below: a 2-entry registry in byte order `big`, the script's registrations,
 * then a QUEUE_SEND of `target`. The header's count of dropped registrations (reserved1, low byte
 * first in both orders) must be `lost`, and the reader must give it (r->names_lost). Returns the
 * open reader (over a static buffer: close it before the next run). */
enum { REG_R = 2, REG_SZ = 48 + 48 * REG_R + 32 * 8 };
static evt_reader *registry_run(int big, void (*script)(void), uint32_t target, unsigned lost)
{
    static uint8_t buf[REG_SZ];
    evt_tx_options o;
    memset(&o, 0, sizeof o);
    o.big_endian = big;
    memset(buf, 0, sizeof buf);
    assert_int_equal(evt_tx_trace_enable_ex(buf, REG_SZ, REG_R, &o), EVT_TX_SUCCESS);
    script();
    evt_tx_trace_kernel_event(TXTB_EVENT_QUEUE_SEND, target, 0, 0, 0);
    evt_tx_trace_disable();
    assert_int_equal(buf[17] << 8 | buf[16], lost);
    char err[256];
    evt_reader *r = NULL;
    assert_int_equal(evt_reader_open_mem(buf, REG_SZ, "threadx", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    assert_int_equal(r->names_lost, lost);
    return r;
}

static void reg(uintptr_t addr, const char *name) { evt_tx_trace_object_register(TXTB_OBJ_QUEUE, (const void *)addr, name, 0, 0); }

/* Registrations a full registry drops are counted in the header (reserved1) and the reader gives
 * the count (r->names_lost: info, stats, check). Before, a full registry dropped them silently
 * (FreeRTOS: 22 tasks with 8 entries, every task unnamed and nothing said so). Both byte orders. */
static void five_queues(void)
{
    for (uintptr_t i = 1; i <= 5; i++) reg(i * 0x100u, "q");
}
static void test_registry_full_counted(void **st)
{
    (void)st;
    for (int big = 0; big < 2; big++) evt_reader_close(registry_run(big, five_queues, 0x500, 3)); /* 5 - R */
}

/* An object unregistered twice (a delete the application repeats, or one whose registration was
 * dropped, at the address of an earlier object's available entry) leaves one available entry, not
 * two: before, the count of available entries grew by two, and a later registration into the then
 * full registry found no slot and was dropped without being counted. Both byte orders. */
static void unregister_twice(void)
{
    reg(0x100u, "a");
    evt_tx_trace_object_unregister((const void *)0x100u);
    evt_tx_trace_object_unregister((const void *)0x100u);
    for (uintptr_t i = 2; i <= 4; i++) reg(i * 0x100u, "q"); /* two fit (a's entry and the unused one), one is lost */
}
static void test_registry_unregister_twice(void **st)
{
    (void)st;
    for (int big = 0; big < 2; big++) evt_reader_close(registry_run(big, unregister_twice, 0x200, 1));
}

/* An object registered again while its entry is in use (a new name for it) takes that entry
 * without using up an available one: before, the count of available entries went down anyway,
 * and a later object that had a free entry was dropped (counted as lost, its name gone). The
 * search itself is ThreadX's (tx_trace_object_register.c): from the slot after the last one
 * taken, the first never-used or same-address entry, else an available one. Both byte orders. */
static void register_twice(void)
{
    reg(0x100u, "a");                                     /* entry 0 */
    reg(0x400u, "x");                                     /* entry 1 */
    evt_tx_trace_object_unregister((const void *)0x400u); /* entry 1 available */
    reg(0x100u, "a2");                                    /* a's own entry 0 */
    reg(0x200u, "b");                                     /* entry 1 */
    reg(0x300u, "c");                                     /* full: lost */
}
static void test_registry_register_twice(void **st)
{
    (void)st;
    for (int big = 0; big < 2; big++) {
        evt_reader *r = registry_run(big, register_twice, 0x200, 1);
        evt_event ev;
        int named = 0;
        while (evt_reader_next(r, &ev) == EVT_OK)
            if ((ev.flags & EVT_HAS_TARGET) && ev.target == 0x200u) {
                assert_non_null(ev.target_name);
                assert_string_equal(ev.target_name, "b");
                named++;
            }
        assert_int_equal(named, 1);
        evt_reader_close(r);
    }
}

/* tx_trace_user_event_insert takes any id, 190 included (and evt_tx_trace_insert, ids with an SMP
 * core in bits 24-31): such a record is the application's, not evtrace's LOST record (which has
 * the "evtr" marker in info3). Before, the reader took every id-190 record as a loss of info1
 * records: decoded + lost != issued. Both byte orders, before and after the ring wraps. */
static void test_user_id_190_is_no_loss(void **st)
{
    (void)st;
    enum { SLOTS = 8, SZ = 48 + 32 * SLOTS };
    static uint8_t buf[SZ];
    static const uint32_t ids[] = {190u, 0x010000BEu, 0xFF0000BEu};
    for (int big = 0; big <= 1; big++) {
        for (unsigned n = 3; n <= 3u * SLOTS; n += 3u * SLOTS - 3u) {
            evt_tx_options o;
            memset(&o, 0, sizeof o);
            o.big_endian = big;
            assert_int_equal(evt_tx_trace_enable_ex(buf, SZ, 0, &o), EVT_TX_SUCCESS);
            for (unsigned i = 0; i < n; i++)
                assert_int_equal(evt_tx_trace_user_event_insert(ids[i % 3u], 1000u + i, 2u, 3u, 4u), EVT_TX_SUCCESS);
            assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
            evt_rec_stats rs;
            evt_tx_trace_get_rec_stats(&rs);
            assert_int_equal(rs.written, 2u + n);
            char err[256];
            evt_reader *r = NULL;
            assert_int_equal(evt_reader_open_mem(buf, SZ, "threadx", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
            evt_event ev;
            evt_status s;
            uint64_t data = 0, user190 = 0;
            while ((s = evt_reader_next(r, &ev)) == EVT_OK) {
                if (ev.kind == EVT_KIND_LOST) continue;
                data++;
                if (ev.id == 190u) {
                    user190++;
                    assert_true(ev.args[0] >= 1000u);
                    assert_string_equal(ev.name, "UNKNOWN_190");
                }
            }
            assert_int_equal(s, EVT_END);
            assert_int_equal(r->errors, 0);
            assert_true(user190 > 0u);
            assert_int_equal(data + r->lost, rs.written + rs.dropped);
            assert_int_equal(r->lost, rs.lost_reported);
            evt_reader_close(r);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_full_counted),
        cmocka_unit_test(test_registry_unregister_twice),
        cmocka_unit_test(test_registry_register_twice),
        cmocka_unit_test(test_no_wrap_le),
        cmocka_unit_test(test_no_wrap_be),
        cmocka_unit_test(test_wraps_le),
        cmocka_unit_test(test_wraps_be),
        cmocka_unit_test(test_down16_le),
        cmocka_unit_test(test_down16_be),
        cmocka_unit_test(test_lost_records_le),
        cmocka_unit_test(test_lost_records_be_down16),
        cmocka_unit_test(test_user_id_190_is_no_loss),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
