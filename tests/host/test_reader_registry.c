/* Unit tests of the reader registry, auto-detection, the pull API and allocation-failure paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "evt_test.h"
#include "evtrace/alloc.h"
#include "evtrace/reader.h"

#define SAMPLE EVT_TEST_DATA_DIR "/threadx_real/nowrap_m32le.trx"

static void test_registry_lookup(void **st)
{
    (void)st;
    assert_true(evt_reader_count() >= 1);
    for (size_t i = 0; i < evt_reader_count(); i++) {
        const evt_reader_desc *d = evt_reader_at(i);
        assert_non_null(d->name);
        assert_ptr_equal(evt_reader_find(d->name), d);
        assert_non_null(d->probe);
        assert_non_null(d->open);
        assert_non_null(d->next);
    }
    assert_null(evt_reader_find("no-such-format"));
    assert_null(evt_reader_at(evt_reader_count()));
}

static void test_detect_and_reject(void **st)
{
    (void)st;
    const uint8_t le[] = {0x42, 0x54, 0x58, 0x54};
    const uint8_t be[] = {0x54, 0x58, 0x54, 0x42};
    assert_string_equal(evt_reader_detect(le, 4, 4)->name, "threadx");
    assert_string_equal(evt_reader_detect(be, 4, 4)->name, "threadx");
    char err[256];
    evt_reader *r = (evt_reader *)1;
    const char junk[] = "this is not a trace of any kind, just text\n";
    evt_status s = evt_reader_open_mem(junk, sizeof junk, NULL, NULL, NULL, NULL, &r, err, sizeof err);
    assert_int_equal(s, EVT_ERR_FORMAT);
    assert_null(r);
    assert_non_null(strstr(err, "offset 0"));
    s = evt_reader_open_mem(junk, 0, NULL, NULL, NULL, NULL, &r, err, sizeof err);
    assert_int_equal(s, EVT_ERR_FORMAT);
    s = evt_reader_open_mem(junk, sizeof junk, "bogus", NULL, NULL, NULL, &r, err, sizeof err);
    assert_int_equal(s, EVT_ERR_USAGE);
    s = evt_reader_open_file("/nonexistent/file.trx", NULL, NULL, NULL, NULL, &r, err, sizeof err);
    assert_int_equal(s, EVT_ERR_IO);
    assert_non_null(strstr(err, "/nonexistent/file.trx"));
}

static void test_pull_counts(void **st)
{
    (void)st;
    char err[256];
    evt_reader *r;
    assert_int_equal(evt_reader_open_file(SAMPLE, NULL, NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    uint64_t n = 0, last = 0;
    evt_status s;
    while ((s = evt_reader_next(r, &ev)) == EVT_OK) {
        assert_string_equal(ev.fmt, "threadx");
        assert_true(ev.ts >= last);
        last = ev.ts;
        n++;
    }
    assert_int_equal(s, EVT_END);
    assert_int_equal(n, 445);
    assert_int_equal(r->events, 445);
    assert_int_equal(r->errors, 0);
    evt_reader_close(r);
}

/* Every allocation made while opening and reading may fail: the result is an error, never a crash
 * or a leak (ASan checks the latter). */
static void test_alloc_failures(void **st)
{
    (void)st;
    size_t len;
    uint8_t *buf = evt_test_read_file(SAMPLE, &len);
    int failures_seen = 0;
    for (unsigned long nth = 1; nth < 200; nth++) {
        evt_alloc_fail_after(nth, 1);
        char err[256];
        evt_reader *r = NULL;
        evt_status s = evt_reader_open_mem(buf, len, NULL, NULL, NULL, NULL, &r, err, sizeof err);
        if (s == EVT_OK) {
            evt_event ev;
            while ((s = evt_reader_next(r, &ev)) == EVT_OK) {
            }
            evt_reader_close(r);
        } else {
            assert_null(r);
            failures_seen++;
        }
    }
    evt_alloc_fail_after(0, 0);
    assert_true(failures_seen > 0);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_lookup),
        cmocka_unit_test(test_detect_and_reject),
        cmocka_unit_test(test_pull_counts),
        cmocka_unit_test(test_alloc_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
