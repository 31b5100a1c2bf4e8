/* The RTT up-buffer transport (src/transport/rtt.c): the control block's public layout (id, counts,
 * descriptors at their offsets for this pointer size), the id written by init, the ring's
 * full/empty rule (one byte unused), wrap-around, SKIP and TRIM when the host has not read (both
 * counted), a reader that writes a bad RdOff, and an RKH recorder streaming through the sink: the
 * bytes a reader drains decode as the records written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "evtrace/rkh.h"
#include "evtrace/rtt.h"
#include "formats/rkh/rkh_defs.h"

/* The host's side: take everything between RdOff and WrOff, advance RdOff. */
static size_t drain(evt_rtt *t, uint8_t *out, size_t cap)
{
    evt_rtt_desc *d = &t->cb.up[0];
    size_t n = 0;
    uint32_t rd = d->rd, wr = d->wr;
    while (rd != wr && n < cap) {
        out[n++] = d->buf[rd];
        if (++rd == d->size) rd = 0;
    }
    d->rd = rd;
    return n;
}

static void test_layout(void **state)
{
    (void)state;
    size_t p = sizeof(void *);
    /* SEGGER's layout for this pointer size: 24-byte descriptors on a 32-bit target. */
    assert_int_equal(offsetof(evt_rtt_cb, max_up), 16);
    assert_int_equal(offsetof(evt_rtt_cb, max_down), 20);
    assert_int_equal(offsetof(evt_rtt_cb, up), 24);
    assert_int_equal(offsetof(evt_rtt_desc, buf), p);
    assert_int_equal(offsetof(evt_rtt_desc, size), 2 * p);
    assert_int_equal(offsetof(evt_rtt_desc, wr), 2 * p + 4);
    assert_int_equal(offsetof(evt_rtt_desc, rd), 2 * p + 8);
    assert_int_equal(offsetof(evt_rtt_desc, flags), 2 * p + 12);
    assert_int_equal(offsetof(evt_rtt, cb), 0);
    static evt_rtt t;
    static uint8_t buf[64];
    memset(&t, 0xA5, sizeof t);
    evt_rtt_init(&t, buf, sizeof buf, EVT_RTT_MODE_SKIP);
    assert_memory_equal(t.cb.id, "SEGGER RTT\0\0\0\0\0\0", 16);
    assert_int_equal(t.cb.max_up, 1);
    assert_int_equal(t.cb.max_down, 1);
    assert_ptr_equal(t.cb.up[0].buf, buf);
    assert_int_equal(t.cb.up[0].size, 64);
    assert_int_equal(t.cb.up[0].wr, 0);
    assert_int_equal(t.cb.up[0].rd, 0);
    assert_int_equal(t.cb.up[0].flags, 0);
    assert_string_equal(t.cb.up[0].name, "evtrace");
    assert_int_equal(t.cb.down[0].size, 0);
    assert_int_equal(t.lost_writes, 0);
    assert_int_equal(t.lost_bytes, 0);
}

static void test_skip_and_wrap(void **state)
{
    (void)state;
    static evt_rtt t;
    static uint8_t buf[16];
    uint8_t in[64], out[64];
    for (int i = 0; i < 64; i++) in[i] = (uint8_t)(i + 1);
    evt_rtt_init(&t, buf, sizeof buf, EVT_RTT_MODE_SKIP);
    assert_int_equal(evt_rtt_write(&t, in, 15), 15); /* 15 fit: one byte stays unused */
    assert_int_equal(evt_rtt_pending(&t), 15);
    assert_int_equal(evt_rtt_write(&t, in, 1), 0);   /* full: dropped whole, counted */
    assert_int_equal(t.lost_writes, 1);
    assert_int_equal(t.lost_bytes, 1);
    assert_int_equal(drain(&t, out, 10), 10);
    assert_memory_equal(out, in, 10);
    assert_int_equal(evt_rtt_write(&t, in + 20, 11), 0); /* 10 free: a write of 11 is dropped whole */
    assert_int_equal(t.lost_writes, 2);
    assert_int_equal(t.lost_bytes, 12);
    assert_int_equal(evt_rtt_write(&t, in + 20, 10), 10); /* wraps */
    assert_int_equal(t.cb.up[0].wr, (15 + 10) % 16);
    assert_int_equal(drain(&t, out, 64), 15);
    assert_memory_equal(out, in + 10, 5);
    assert_memory_equal(out + 5, in + 20, 10);
    assert_int_equal(evt_rtt_pending(&t), 0);
    /* A reader that stores an RdOff past the ring: nothing is written, nothing overrun. */
    t.cb.up[0].rd = 99;
    assert_int_equal(evt_rtt_write(&t, in, 4), 0);
    assert_int_equal(t.lost_writes, 3);
}

static void test_trim(void **state)
{
    (void)state;
    static evt_rtt t;
    static uint8_t buf[8];
    uint8_t in[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, out[16];
    evt_rtt_init(&t, buf, sizeof buf, EVT_RTT_MODE_TRIM);
    assert_int_equal(t.cb.up[0].flags, EVT_RTT_MODE_TRIM);
    assert_int_equal(evt_rtt_write(&t, in, 12), 7);
    assert_int_equal(t.lost_writes, 1);
    assert_int_equal(t.lost_bytes, 5);
    assert_int_equal(drain(&t, out, 16), 7);
    assert_memory_equal(out, in, 7);
}

/* An RKH recorder's sink into RTT, drained by "the host" after every few records: the drained
 * bytes equal what a plain sink received (nothing lost while the host keeps up); then the host
 * stops reading and writes are dropped and counted, and the byte stream stays the sink's stream
 * minus whole records (every drop is a whole sink call). */
static uint8_t g_plain[1 << 16];
static size_t g_plain_n;
static evt_rtt g_t;
static size_t g_calls, g_call_bytes[4096];

static void both_sink(void *user, const uint8_t *p, uint32_t n)
{
    (void)user;
    memcpy(g_plain + g_plain_n, p, n);
    g_plain_n += n;
    if (g_calls < 4096) g_call_bytes[g_calls] = n;
    g_calls++;
    evt_rtt_rkh_sink(&g_t, p, n);
}

static uint32_t ts_fn(void)
{
    static uint32_t t;
    return t += 10;
}

static void test_rkh_sink(void **state)
{
    (void)state;
    static uint8_t ring[256], buf[512], got[1 << 16];
    size_t got_n = 0;
    evt_rtt_init(&g_t, buf, sizeof buf, EVT_RTT_MODE_SKIP);
    static evt_rkh_recorder rec;
    evt_rkh_config cfg;
    evt_rkh_config_default(&cfg);
    evt_rkh_init(&rec, &cfg, ring, sizeof ring, ts_fn, 1000);
    evt_rkh_filter_all(&rec, 1);
    evt_rkh_set_sink(&rec, both_sink, NULL);
    for (unsigned i = 0; i < 200; i++) {
        if (evt_rkh_begin(&rec, RKH_TE_USER)) {
            evt_rkh_usr_int(&rec, EVT_RKH_USR_UI32, 0, i);
            evt_rkh_end(&rec);
        }
        if (i % 4 == 3) got_n += drain(&g_t, got + got_n, sizeof got - got_n);
    }
    got_n += drain(&g_t, got + got_n, sizeof got - got_n);
    assert_true(g_plain_n > 200 * 8);
    assert_int_equal(got_n, g_plain_n);
    assert_memory_equal(got, g_plain, g_plain_n);
    assert_int_equal(g_t.lost_writes, 0);
    /* The host stops reading: the ring fills, later records are dropped whole and counted. */
    size_t before = g_plain_n, calls0 = g_calls;
    for (unsigned i = 0; i < 200; i++)
        if (evt_rkh_begin(&rec, RKH_TE_USER)) {
            evt_rkh_usr_int(&rec, EVT_RKH_USR_UI32, 0, i);
            evt_rkh_end(&rec);
        }
    size_t stored = evt_rtt_pending(&g_t);
    assert_true(stored <= sizeof buf - 1);
    assert_true(g_t.lost_writes > 0);
    assert_int_equal(stored + g_t.lost_bytes, g_plain_n - before);
    size_t dropped_calls = 0, sum = 0;
    for (size_t c = calls0; c < g_calls && c < 4096; c++) {
        sum += g_call_bytes[c];
        if (sum > stored) dropped_calls++;
    }
    assert_int_equal(g_t.lost_writes, dropped_calls); /* once full, every later record dropped */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_skip_and_wrap),
        cmocka_unit_test(test_trim),
        cmocka_unit_test(test_rkh_sink),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
