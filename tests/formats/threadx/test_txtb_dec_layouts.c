/* TXTB reader on layouts the samples do not cover, built with the recorder and patched where the
 * recorder cannot produce them: no registry (R = 0), a 16-byte name field, addresses that wrap
 * past 2^32 (a buffer at the top of a 32-bit address space), the old priority word (bit 31 clear),
 * SMP core bits in the event id, and names whose registry slot is reused; and headers whose areas
 * are not end to end (registry start past the header, slots past the registry end): the bytes
 * between are an error naming the pointer's offset, not passed over in silence. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>
#include "evtrace/reader.h"
#include "evtrace/txtb.h"
#include "evt_reader_test.h"
#include "formats/common/bytes.h"
#include "formats/threadx/txtb_defs.h"

static uint32_t g_clock;
static uint32_t tick(void) { return ++g_clock; }
static evt_tx_context g_ctx;
static void ctx_fn(evt_tx_context *out) { *out = g_ctx; }

static uint8_t g_buf[4096];

static void record(uint32_t registry, uint16_t name_size, uint32_t base)
{
    evt_tx_options o;
    memset(&o, 0, sizeof o);
    o.big_endian = 0;
    o.name_size = name_size;
    o.time_source = tick;
    o.context = ctx_fn;
    o.base_address = base;
    g_clock = 0;
    memset(g_buf, 0, sizeof g_buf);
    g_ctx.context = 0x1000;
    g_ctx.priority_word = 0x80000000u | (7u << 16) | 5u;
    assert_int_equal(evt_tx_trace_enable_ex(g_buf, sizeof g_buf, registry, &o), EVT_TX_SUCCESS);
    evt_tx_trace_thread_register((const void *)(uintptr_t)0x1000, "a_thread_with_a_long_name", 0, 0, 5);
    evt_tx_trace_user_event_insert(4100, 1, 2, 3, 4);
    evt_tx_trace_kernel_event(TXTB_EVENT_QUEUE_SEND, 0x2000, 0, 0, 1);
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
}

/* Open the buffer, pull all events into out (max n); returns the count. */
static unsigned decode(evt_event *out, unsigned n, evt_reader **rp)
{
    char err[256] = "";
    evt_reader *r = NULL;
    evt_status s = evt_reader_open_mem(g_buf, sizeof g_buf, NULL, NULL, NULL, NULL, &r, err, sizeof err);
    if (s != EVT_OK) fail_msg("open: %s", err);
    unsigned k = 0;
    evt_event ev;
    while (evt_reader_next(r, &ev) == EVT_OK) {
        if (k < n) out[k] = ev;
        k++;
    }
    assert_int_equal(r->errors, 0);
    *rp = r;
    return k;
}

static void test_no_registry(void **st)
{
    (void)st;
    record(0, 0, 0);
    evt_event ev[8];
    evt_reader *r;
    assert_int_equal(decode(ev, 8, &r), 4); /* RUNNING x2, user, queue send */
    assert_string_equal(ev[2].name, "USER_4100");
    assert_null(ev[2].ctx_name);
    assert_int_equal(ev[3].id, TXTB_EVENT_QUEUE_SEND);
    evt_reader_close(r);
}

static void test_small_name_field(void **st)
{
    (void)st;
    record(2, 16, 0);
    evt_event ev[8];
    evt_reader *r;
    assert_int_equal(decode(ev, 8, &r), 4);
    assert_string_equal(ev[2].ctx_name, "a_thread_with_a"); /* 15 characters + NUL */
    assert_int_equal(ev[2].prio, 0x80070005u);
    evt_reader_close(r);
}

static void test_addresses_wrap_past_4g(void **st)
{
    (void)st;
    record(2, 0, 0xFFFFFF80u); /* registry and slots lie past 2^32: offsets are taken mod 2^32 */
    assert_int_equal(evt_ld_u32le(g_buf + TXTB_HDR_BASE), 0xFFFFFF80u);
    assert_true(evt_ld_u32le(g_buf + TXTB_HDR_BUF_START) < 0x100u); /* slots start past 2^32 */
    assert_true(evt_ld_u32le(g_buf + TXTB_HDR_BUF_END) < 0x1000u); /* end wrapped past 2^32 */
    evt_event ev[8];
    evt_reader *r;
    assert_int_equal(decode(ev, 8, &r), 4);
    assert_string_equal(ev[3].ctx_name, "a_thread_with_a_long_name");
    assert_int_equal(ev[3].args[0], 0x2000);
    evt_reader_close(r);
}

static void test_old_priority_and_smp_bits(void **st)
{
    (void)st;
    record(2, 0, 0);
    uint32_t slots = 48 + 2 * 48;
    /* slot 3 (queue send): old-format priority word 9, core 2 in the id's top byte */
    evt_put_u32le(g_buf + slots + 3 * 32 + TXTB_EV_PRIORITY, 9);
    evt_put_u32le(g_buf + slots + 3 * 32 + TXTB_EV_ID, (2u << 24) | TXTB_EVENT_QUEUE_SEND);
    evt_event ev[8];
    evt_reader *r;
    assert_int_equal(decode(ev, 8, &r), 4);
    assert_int_equal(ev[3].id, TXTB_EVENT_QUEUE_SEND);
    assert_string_equal(ev[3].name, "QUEUE_SEND");
    assert_true(ev[3].flags & EVT_HAS_CPU);
    assert_int_equal(ev[3].cpu, 2);
    assert_int_equal(ev[3].prio, 9);
    int found = 0;
    for (uint32_t i = 0; i < ev[3].nfields; i++)
        if (strcmp(ev[3].fields[i].key, "priority") == 0) { assert_int_equal(ev[3].fields[i].num, 9); found = 1; }
    assert_true(found);
    /* a user id above 16 bits keeps all its bits (no SMP split outside the kernel range) */
    evt_reader_close(r);
}

/* Decode g_buf with its diagnostics collected into d; returns the event count. */
static unsigned decode_diags(evt_test_diags *d, evt_reader **rp)
{
    char err[256] = "";
    memset(d, 0, sizeof *d);
    evt_status s = evt_reader_open_mem(g_buf, sizeof g_buf, NULL, NULL, evt_test_diag_collect, d, rp, err, sizeof err);
    if (s != EVT_OK) fail_msg("open: %s", err);
    unsigned k = 0;
    evt_event ev;
    while (evt_reader_next(*rp, &ev) == EVT_OK) k++;
    return k;
}

/* Slots past the registry end: the two slots between (queue of 4 records) were silently skipped,
 * exit 0 with 2 of 4 events. */
static void test_slots_not_at_registry_end(void **st)
{
    (void)st;
    record(2, 0, 0);
    uint32_t reg_end = evt_ld_u32le(g_buf + TXTB_HDR_REG_END);
    assert_int_equal(evt_ld_u32le(g_buf + TXTB_HDR_BUF_START), reg_end);
    evt_put_u32le(g_buf + TXTB_HDR_BUF_START, reg_end + 2 * 32);
    evt_test_diags d;
    evt_reader *r;
    assert_int_equal(decode_diags(&d, &r), 2);
    assert_int_equal(r->errors, 1);
    assert_true(evt_test_diag_has(&d, TXTB_HDR_BUF_START, "64 bytes between them are not decoded"));
    evt_reader_close(r);
}

/* Registry start past the header: its first entry was silently skipped (the thread's name gone). */
static void test_registry_not_after_header(void **st)
{
    (void)st;
    record(2, 0, 0);
    evt_put_u32le(g_buf + TXTB_HDR_REG_START, evt_ld_u32le(g_buf + TXTB_HDR_REG_START) + 48);
    evt_test_diags d;
    evt_reader *r;
    assert_int_equal(decode_diags(&d, &r), 4);
    assert_int_equal(r->errors, 1);
    assert_true(evt_test_diag_has(&d, TXTB_HDR_REG_START, "48 bytes between them are not decoded"));
    evt_reader_close(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_registry),
        cmocka_unit_test(test_small_name_field),
        cmocka_unit_test(test_addresses_wrap_past_4g),
        cmocka_unit_test(test_old_priority_and_smp_bits),
        cmocka_unit_test(test_slots_not_at_registry_end),
        cmocka_unit_test(test_registry_not_after_header),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
