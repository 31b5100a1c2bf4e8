/* User events through the ETW recorder (EVT_CFG_USER_BACKEND etw: classic events of evtrace's user
 * class with MOF fields) and the .etl reader: the printf text (as snprintf formats it), values,
 * intervals and states come back with their channels, thread and time; sites register once per
 * enable; a filtered level writes nothing; other classic events of the session stay what they
 * were; a user-class event whose payload does not read as a user record is left a classic event.
 * `test_user_etw FILE` writes instead an .etl with the make-run demo's user events (producer lines
 * "sent message i: value 7i+3", the value channel "sum", intervals "work round", the state machine
 * "worker state", on three threads): tests/host/user_exports.cmake and tests/browser/user_browser.cmake
 * check them in every output. */
#define EVT_CFG_USER_BACKEND etw
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>
#include "evt_test.h"
#include "evtrace/user.h"
#include "user_test_util.h"

static uint8_t g_file[1 << 20];
static uint64_t g_len;
static _Alignas(8) uint8_t g_mem[4 * 8192];
static uint64_t g_ticks = 1000;

static int mem_write(void *user, uint64_t off, const void *data, uint32_t len)
{
    (void)user;
    if (off + len > sizeof g_file) return -1;
    memcpy(g_file + off, data, len);
    if (off + len > g_len) g_len = off + len;
    return 0;
}
static uint64_t tick(void) { return g_ticks += 10; }
static uint32_t g_tid = 77;
static uint32_t tid(void) { return g_tid; }

static void start(evt_etw_session *s)
{
    evt_etw_session_config c;
    memset(&c, 0, sizeof c);
    c.buffer_size = 8192;
    c.buffers = 2;
    c.log_file_mode = ETW_FILE_MODE_SEQUENTIAL;
    c.clock_type = ETW_CLOCK_QPC;
    c.clock_hz = 1000000;
    c.write = mem_write;
    c.clock = tick;
    c.thread_id = tid;
    memset(g_file, 0, sizeof g_file);
    g_len = 0;
    assert_int_equal(evt_etw_session_start(s, &c, g_mem, sizeof g_mem), EVT_ETW_SUCCESS);
}

static void test_etw_roundtrip(void **st)
{
    (void)st;
    static evt_etw_session s;
    static evt_etw_provider other;
    static const evt_etw_guid og = {0x11111111u, 0x2222, 0x3333, {0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb}};
    evt_printf("off", "%d", 1); /* not enabled: nothing */
    start(&s);
    assert_int_equal(evt_etw_user_attach(&s, ETW_LEVEL_INFORMATION), EVT_ETW_SUCCESS);
    evt_etw_register(&other, &og, NULL, NULL);
    assert_int_equal(evt_etw_enable(&s, &other, ETW_CONTROL_ENABLE_PROVIDER, 0, 0, 0), EVT_ETW_SUCCESS);
    for (int k = 0; k < 2; k++)
        evt_printf("net", "rx %u bytes from %s port %hu, rtt %.2f ms %lld", 1500u + (unsigned)k, "10.0.0.1",
                   (unsigned short)8080, 0.75, -5ll);
    evt_value("queue", -12);
    evt_interval_begin("frame", 9);
    uint32_t v = 7;
    evt_etw_trace_header h = {ETW_TRACE_HEADER_SIZE + 4u, 11, ETW_LEVEL_INFORMATION, 0, 0, og, 0, ETW_WNODE_FLAG_TRACED_GUID};
    assert_int_equal(evt_etw_trace_event(&other, &h, &v), EVT_ETW_SUCCESS);
    /* a user-class event that is not a user record (no name): stays a classic event */
    evt_etw_trace_header hu = h;
    hu.guid = evt_etw_user_provider.guid;
    hu.type = EVT_USER_ETW_TYPE;
    assert_int_equal(evt_etw_trace_event(&evt_etw_user_provider, &hu, &v), EVT_ETW_SUCCESS);
    evt_interval_end("frame", 9);
    EVT_STATE_MACHINE(link, "link", "down,up");
    evt_state(link, 1);
    /* a session at level ERROR filters user events (INFORMATION): nothing written, sites not sent */
    assert_int_equal(evt_etw_user_attach(&s, ETW_LEVEL_ERROR), EVT_ETW_SUCCESS);
    evt_printf("filtered", "%d", 2);
    assert_int_equal(evt_etw_user_attach(&s, ETW_LEVEL_INFORMATION), EVT_ETW_SUCCESS); /* resends */
    evt_value("queue", 13);
    assert_int_equal(evt_etw_session_stop(&s), EVT_ETW_SUCCESS);
    evt_value("queue", 14); /* stopped: nothing */

    ut_trace t;
    assert_int_equal(ut_decode(g_file, (size_t)g_len, "etw", NULL, &t), EVT_END);
    char expect[128];
    unsigned seen = 0, net = 0, q = 0, classic = 0;
    uint64_t last_ts = 0;
    for (unsigned i = 0; i < t.n; i++) {
        const ut_ev *e = &t.ev[i];
        assert_true(e->ts >= last_ts);
        last_ts = e->ts;
        if (!strcmp(e->name, "net")) {
            snprintf(expect, sizeof expect, "rx %u bytes from %s port %hu, rtt %.2f ms %lld", 1500u + net, "10.0.0.1",
                     (unsigned short)8080, 0.75, -5ll);
            assert_string_equal(e->text, expect);
            assert_string_equal(e->text_field, expect);
            assert_int_equal(e->ctx, 77);
            net++;
        }
        if (!strcmp(e->name, "queue")) { assert_int_equal(e->value, q ? 13 : -12); q++; }
        if (!strcmp(e->name, "frame")) { assert_int_equal(e->interval_id, 9); seen |= e->interval_end ? 2 : 1; }
        if (!strcmp(e->name, "link")) { assert_string_equal(e->state, "up"); seen |= 4; }
        if (!strncmp(e->name, "Classic/", 8)) classic++;
        assert_string_not_equal(e->name, "off");
        assert_string_not_equal(e->name, "filtered");
    }
    assert_int_equal(net, 2);
    assert_int_equal(q, 2);
    assert_int_equal(seen, 7);
    assert_int_equal(classic, 2);
    /* net, queue, frame begin, frame end, link; then queue again after the re-enable */
    assert_int_equal(t.sites, 6);
    assert_int_equal(t.errors, 0);
    assert_int_equal(t.lost, 0);
    free(t.ev);
}

/* The demo's user events (examples/demo_threadx/demo_main.c) through ETW, written to path. */
static int write_demo(const char *path)
{
    static evt_etw_session s;
    EVT_STATE_MACHINE(worker_sm, "worker state", "waiting,working");
    start(&s);
    if (evt_etw_user_attach(&s, ETW_LEVEL_INFORMATION) != EVT_ETW_SUCCESS) return 1;
    uint32_t sum = 0;
    for (uint32_t i = 0; i < 50u; i++) {
        uint32_t value = i * 7u + 3u;
        g_tid = 1;
        evt_printf("producer", "sent message %u: value %u", i, value);
        g_tid = 2;
        sum += value;
        evt_printf("consumer", "got value %u, sum %u (%u messages)", value, sum, i + 1u);
        evt_value("sum", sum);
        if (i % 5u == 0u) {
            g_tid = 3;
            evt_state(worker_sm, 1);
            evt_interval_begin("work round", i / 5u);
            g_ticks += 300;
            evt_interval_end("work round", i / 5u);
            evt_printf("worker", "round %u done", i / 5u);
            evt_state(worker_sm, 0);
        }
    }
    if (evt_etw_session_stop(&s) != EVT_ETW_SUCCESS) return 1;
    FILE *f = fopen(path, "wb");
    if (!f) return 1;
    int bad = fwrite(g_file, 1, (size_t)g_len, f) != (size_t)g_len;
    return fclose(f) != 0 || bad;
}

int main(int argc, char **argv)
{
    if (argc > 1) return write_demo(argv[1]);
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_etw_roundtrip)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
