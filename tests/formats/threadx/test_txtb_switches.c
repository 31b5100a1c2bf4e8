/* TXTB recorder in whatever switch configuration it is compiled with (EVT_TX_* and EVT_REC_NESTING:
 * the default library build here, and the Cortex-M footprint rows of scripts/footprint.def built
 * by switches.cmake): user events into a buffer that does not wrap and into one that wraps many
 * times decode exactly (ids and infos in order, then data + lost == issued after disable);
 * registrations appear in the registry only when it is built in; kernel events and ISR records are
 * recorded only when they are built in; a switched-out option is refused, not ignored; the stats
 * calls (EVT_TX_STATS) and the buffer-full callback (EVT_TX_FULL_NOTIFY) are checked when built
 * in (without them they are not defined). The smallest row's buffer is the same TXTB layout (header,
 * registry area of 0 entries, 32-byte slots), read here by the threadx reader. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>
#include "evtrace/reader.h"
#include "evtrace/txtb.h"
#include "formats/threadx/txtb_defs.h"
#include "formats/threadx/txtb_switches.h"


static _Alignas(8) uint8_t g_buf[48 + 4 * 48 + 64 * 32];

/* The infos of the ISR enter record decoded last (its four args). */
static uint64_t g_isr_args[4];
static int g_isr_seen;

/* Decode buf; ids[] receives the user events' ids in order (at most cap). Returns data events. */
static uint64_t decode(size_t *n_user, uint32_t *ids, size_t cap, uint64_t *lost, uint64_t *kernel)
{
    char err[256];
    evt_reader *r = NULL;
    assert_int_equal(evt_reader_open_mem(g_buf, sizeof g_buf, "threadx", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    uint64_t data = 0;
    *n_user = 0;
    *kernel = 0;
    while (evt_reader_next(r, &ev) == EVT_OK) {
        if (ev.kind == EVT_KIND_LOST) continue;
        if (ev.id == TXTB_EVENT_RUNNING) continue; /* enable's two RUNNING records */
        data++;
        if (ev.id >= TXTB_USER_EVENT_START) {
            if (*n_user < cap) ids[*n_user] = ev.id;
            (*n_user)++;
        } else {
            (*kernel)++;
            if (ev.id == TXTB_EVENT_ISR_ENTER && ev.nargs >= 4u) {
                for (int k = 0; k < 4; k++) g_isr_args[k] = ev.args[k];
                g_isr_seen = 1;
            }
        }
    }
    assert_int_equal(r->errors, 0);
    *lost = r->lost;
    evt_reader_close(r);
    return data;
}

static void test_user_events_exact(void **st)
{
    (void)st;
    assert_int_equal(evt_tx_trace_enable(g_buf, sizeof g_buf, 4u), EVT_TX_SUCCESS);
    for (uint32_t i = 0; i < 40u; i++)
        assert_int_equal(evt_tx_trace_user_event_insert(TXTB_USER_EVENT_START + i, i, ~i, 0x7E7D, i * 3u), EVT_TX_SUCCESS);
    evt_tx_trace_kernel_event(10u, 1, 2, 3, 4); /* a block-pool kernel event (1 .. 199) */
    evt_tx_trace_isr_enter_insert(7u);
    evt_tx_trace_isr_exit_insert(7u);
    int x = 0;
    evt_tx_trace_object_register(TXTB_OBJ_THREAD, &x, "obj", 1, 2);
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
    uint32_t ids[64];
    size_t n;
    uint64_t lost, kernel;
    decode(&n, ids, 64, &lost, &kernel);
    assert_int_equal(n, 40);
    for (uint32_t i = 0; i < 40u; i++) assert_int_equal(ids[i], TXTB_USER_EVENT_START + i);
    assert_int_equal(lost, 0);
    assert_int_equal(kernel, EVT_TX_KERNEL_EVENTS ? 3 : 0);
    if (EVT_TX_KERNEL_EVENTS) { /* ISR enter from thread code (not in an ISR): the same infos in every build */
        assert_true(g_isr_seen);
        assert_true(g_isr_args[0] != 0u); /* a stack address */
        assert_int_equal(g_isr_args[1], 7u); /* the ISR id */
        assert_int_equal(g_isr_args[2], 0u); /* system_state of a thread context */
        assert_int_equal(g_isr_args[3], 0u); /* preempt_disable */
    }
    /* the registry entry: type byte of the first entry (only with the registry) */
    const uint8_t *e = g_buf + TXTB_HEADER_SIZE;
    if (EVT_TX_REGISTRY) {
        assert_int_equal(e[TXTB_REG_AVAILABLE], 0u);
        assert_int_equal(e[TXTB_REG_TYPE], TXTB_OBJ_THREAD);
    }
}

#if EVT_TX_FULL_NOTIFY
static unsigned g_fulls;
static void on_full(void *buffer)
{
    assert_ptr_equal(buffer, g_buf);
    g_fulls++;
}
#endif

static void test_wraps_exact(void **st)
{
    (void)st;
#if EVT_TX_FULL_NOTIFY
    assert_int_equal(evt_tx_trace_buffer_full_notify(on_full), EVT_TX_SUCCESS);
    g_fulls = 0;
#endif
    assert_int_equal(evt_tx_trace_enable(g_buf, sizeof g_buf, 4u), EVT_TX_SUCCESS);
    uint64_t issued = 2; /* enable's RUNNING records */
#if EVT_TX_STATS
    evt_rec_stats s0;
    evt_tx_trace_get_rec_stats(&s0);
    assert_int_equal(s0.written, issued);
#endif
    for (uint32_t i = 0; i < 5000u; i++) {
        assert_int_equal(evt_tx_trace_user_event_insert(TXTB_USER_EVENT_START + (i & 0xFFu), i, 0, 0, 0), EVT_TX_SUCCESS);
        issued++;
    }
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
    char err[256];
    evt_reader *r = NULL;
    assert_int_equal(evt_reader_open_mem(g_buf, sizeof g_buf, "threadx", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    uint64_t data = 0;
    while (evt_reader_next(r, &ev) == EVT_OK) data += ev.kind != EVT_KIND_LOST;
    assert_int_equal(data + r->lost, issued);
    assert_true(r->lost > 4000u);
#if EVT_TX_STATS
    evt_rec_stats s;
    evt_tx_trace_get_rec_stats(&s);
    assert_int_equal(s.pending, 0);
    assert_int_equal(s.lost_reported, r->lost);
    evt_tx_stats ts;
    evt_tx_trace_get_stats(&ts);
    assert_true(ts.wraps > 0u);
#endif
#if EVT_TX_FULL_NOTIFY
    assert_true(g_fulls > 0u); /* one call per wrap */
    assert_int_equal(evt_tx_trace_buffer_full_notify(NULL), EVT_TX_SUCCESS);
#endif
    evt_reader_close(r);
}

static void test_options(void **st)
{
    (void)st;
    evt_tx_options o;
    memset(&o, 0, sizeof o);
    o.big_endian = -1;
    unsigned rc = evt_tx_trace_enable_ex(g_buf, sizeof g_buf, 4u, &o);
    assert_int_equal(rc, EVT_TX_OPTIONS ? EVT_TX_SUCCESS : EVT_TX_PTR_ERROR);
    if (rc == EVT_TX_SUCCESS) assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_user_events_exact),
        cmocka_unit_test(test_wraps_exact),
        cmocka_unit_test(test_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
