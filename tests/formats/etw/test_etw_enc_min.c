/* ETW recorder built in its smallest configuration (every compile-time switch of evtrace/etw.h off,
 * the 64-bit pointer layout fixed): this file compiles the recorder's own sources with those
 * switches (the library's objects are not linked: this one defines every evt_etw_* symbol). The
 * features left out are refused (INVALID_PARAMETER: THREAD_OWNED and PER_THREAD slots, circular
 * files, the other pointer size, MOF payloads; detach: INVALID_HANDLE); what stays works as in the
 * full build: a sequential file read back by the independent reader with every payload intact, a
 * file-full case where events read + lost reported == events issued, and the counters. */
#define EVT_ETW_OWNED_SLOTS 0
#define EVT_ETW_THREAD_SLOTS 0
#define EVT_ETW_CIRCULAR 0
#define EVT_ETW_MOF 0
#define EVT_ETW_CPU_TIMES 0
#define EVT_ETW_CLOCK_HOOKS 0
#define EVT_ETW_UTF8_NAMES 0
#define EVT_ETW_POINTER_SIZE 8
#define EVT_ETW_MAX_SLOTS 4u
#include "formats/etw/etw_enc.c"
#include "formats/etw/etw_ctl_enc.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>
#include "evtrace/reader.h"

static uint8_t g_file[1 << 20];
static uint64_t g_len;

static int mem_write(void *user, uint64_t off, const void *data, uint32_t len)
{
    (void)user;
    if (off + len > sizeof g_file) return -1;
    memcpy(g_file + off, data, len);
    if (off + len > g_len) g_len = off + len;
    return 0;
}

static const evt_etw_guid k_guid = {0x5a11c0deu, 0x1, 0x2, {3, 4, 5, 6, 7, 8, 9, 10}};
static _Alignas(8) uint8_t g_mem[2u * 4096u];

static void config(evt_etw_session_config *c, uint32_t max_file_buffers)
{
    memset(c, 0, sizeof *c);
    c->buffer_size = 4096u;
    c->buffers = 1u;
    c->log_file_mode = ETW_FILE_MODE_SEQUENTIAL;
    c->max_file_buffers = max_file_buffers;
    c->write = mem_write;
    c->logger_name = "min\xc3\xa9"; /* UTF-8 compiled out: the two bytes become U+FFFD each */
}

static void header(evt_etw_trace_header *h, uint16_t payload)
{
    memset(h, 0, sizeof *h);
    h->size = (uint16_t)(48u + payload);
    h->type = 10;
    h->level = 4;
    h->guid = k_guid;
    h->flags = ETW_WNODE_FLAG_TRACED_GUID;
}

static void test_refused(void **st)
{
    (void)st;
    static evt_etw_session s;
    evt_etw_session_config c;
    config(&c, 0);
    c.per_thread = EVT_ETW_SLOTS_THREAD_OWNED;
    assert_int_equal(evt_etw_session_start(&s, &c, g_mem, sizeof g_mem), EVT_ETW_ERROR_INVALID_PARAMETER);
    c.per_thread = EVT_ETW_SLOTS_PER_THREAD;
    assert_int_equal(evt_etw_session_start(&s, &c, g_mem, sizeof g_mem), EVT_ETW_ERROR_INVALID_PARAMETER);
    config(&c, 4);
    c.log_file_mode = ETW_FILE_MODE_CIRCULAR;
    assert_int_equal(evt_etw_session_start(&s, &c, g_mem, sizeof g_mem), EVT_ETW_ERROR_INVALID_PARAMETER);
    config(&c, 0);
    c.pointer_size = 4;
    assert_int_equal(evt_etw_session_start(&s, &c, g_mem, sizeof g_mem), EVT_ETW_ERROR_INVALID_PARAMETER);
    config(&c, 0);
    assert_int_equal(evt_etw_session_start(&s, &c, g_mem, sizeof g_mem), EVT_ETW_SUCCESS);
    evt_etw_provider p;
    evt_etw_register(&p, &k_guid, NULL, NULL);
    assert_int_equal(evt_etw_enable(&s, &p, ETW_CONTROL_ENABLE_PROVIDER, 0, 0, 0), EVT_ETW_SUCCESS);
    uint32_t a = 7;
    evt_etw_mof_field mof[1] = {{&a, 4, 0}};
    evt_etw_trace_header h;
    header(&h, 16);
    h.flags |= ETW_WNODE_FLAG_USE_MOF_PTR;
    assert_int_equal(evt_etw_trace_event(&p, &h, mof), EVT_ETW_ERROR_INVALID_PARAMETER);
    assert_int_equal(evt_etw_thread_detach(&s), EVT_ETW_ERROR_INVALID_HANDLE);
    assert_int_equal(evt_etw_session_stop(&s), EVT_ETW_SUCCESS);
}

/* Events with payloads of 0..40 bytes (the call-site words and the flat copy), read back. */
static void test_round_trip(void **st)
{
    (void)st;
    static evt_etw_session s;
    evt_etw_session_config c;
    config(&c, 0);
    g_len = 0;
    assert_int_equal(evt_etw_session_start(&s, &c, g_mem, sizeof g_mem), EVT_ETW_SUCCESS);
    evt_etw_provider p;
    evt_etw_register(&p, &k_guid, NULL, NULL);
    assert_int_equal(evt_etw_enable(&s, &p, ETW_CONTROL_ENABLE_PROVIDER, 0, 0, 0), EVT_ETW_SUCCESS);
    enum { N = 300 };
    for (uint32_t i = 0; i < N; i++) {
        uint8_t v[40];
        for (uint32_t k = 0; k < sizeof v; k++) v[k] = (uint8_t)(i * 7u + k);
        evt_etw_trace_header h;
        header(&h, (uint16_t)(i % 41u));
        assert_int_equal(evt_etw_trace_event(&p, &h, v), EVT_ETW_SUCCESS);
        if (i % 3u == 0) { /* a constant 8-byte payload: the call-site words on 64-bit hosts */
            uint64_t w = 0x1122334455667700ull | i;
            header(&h, 8);
            assert_int_equal(evt_etw_write(&p, 0, &h, &w), EVT_ETW_SUCCESS);
        }
    }
    assert_int_equal(evt_etw_session_stop(&s), EVT_ETW_SUCCESS);
    evt_etw_stats sx;
    evt_etw_session_stats(&s, &sx);
    assert_int_equal(sx.events, N + N / 3);
    assert_int_equal(sx.events_lost, 0);
    evt_reader *rd;
    char err[256];
    assert_int_equal(evt_reader_open_mem(g_file, g_len, "etw", NULL, NULL, NULL, &rd, err, sizeof err), EVT_OK);
    evt_event ev;
    uint32_t seen = 0, words = 0;
    while (evt_reader_next(rd, &ev) == EVT_OK) {
        if (ev.kind != EVT_KIND_USER) continue;
        if (ev.data_len == 8 && ev.data[7] == 0x11 && ev.data[1] == 0x77) {
            words++;
            continue;
        }
        uint32_t i = seen++;
        assert_int_equal(ev.data_len, i % 41u);
        for (uint32_t k = 0; k < ev.data_len; k++) assert_int_equal(ev.data[k], (uint8_t)(i * 7u + k));
    }
    assert_int_equal(seen, N);
    assert_int_equal(words, N / 3);
    assert_int_equal(rd->lost, 0);
    evt_reader_close(rd);
}

/* A sequential file of 3 buffers (header + 2 data): events read + lost reported == issued. */
static void test_file_full(void **st)
{
    (void)st;
    static evt_etw_session s;
    evt_etw_session_config c;
    config(&c, 3);
    g_len = 0;
    assert_int_equal(evt_etw_session_start(&s, &c, g_mem, sizeof g_mem), EVT_ETW_SUCCESS);
    evt_etw_provider p;
    evt_etw_register(&p, &k_guid, NULL, NULL);
    assert_int_equal(evt_etw_enable(&s, &p, ETW_CONTROL_ENABLE_PROVIDER, 0, 0, 0), EVT_ETW_SUCCESS);
    enum { N = 1000 };
    uint32_t ok = 0;
    for (uint32_t i = 0; i < N; i++) {
        uint32_t v[4] = {i, ~i, 1, 2};
        evt_etw_trace_header h;
        header(&h, sizeof v);
        uint32_t rc = evt_etw_trace_event(&p, &h, v);
        assert_true(rc == EVT_ETW_SUCCESS || rc == EVT_ETW_ERROR_NOT_ENOUGH_MEMORY);
        ok += rc == EVT_ETW_SUCCESS;
    }
    assert_int_equal(evt_etw_session_stop(&s), EVT_ETW_SUCCESS);
    assert_true(ok < N);
    evt_reader *rd;
    char err[256];
    assert_int_equal(evt_reader_open_mem(g_file, g_len, "etw", NULL, NULL, NULL, &rd, err, sizeof err), EVT_OK);
    evt_event ev;
    uint64_t data = 0;
    while (evt_reader_next(rd, &ev) == EVT_OK)
        if (ev.kind == EVT_KIND_USER) data++;
    print_message("file full: %llu events + %llu lost of %d\n", (unsigned long long)data, (unsigned long long)rd->lost, N);
    assert_int_equal(data + rd->lost, N);
    assert_int_equal(rd->errors, 0);
    evt_reader_close(rd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_file_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
