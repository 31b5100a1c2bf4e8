/* A FreeRTOS stream joined while the target runs (a UART plugged in late): the recorded stream of
 * tests/data/freertos/posix_stream.rkh without its first 100,000 bytes has none of the FWK_TUSR
 * records that name the hook records, so alone it decodes as plain user records (no context, no
 * switch). With the kernel named (`--kernel freertos`, evt_reader_set_kernel) the hook records take
 * the hooks table's names (rkh_hooks_name): from the first switch on, every event has the kind and
 * context the whole stream gives it, and the object operations their meaning. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "evt_test.h"
#include "evtrace/hooks_defs.h"
#include "evtrace/reader.h"

#define CUT 100000u

typedef struct ev_row {
    uint64_t ts, ctx;
    int kind;
    unsigned runs_now, op;
} ev_row;

/* Decode buf[len] (kernel < 0: as the stream says) into rows; returns their number. */
static size_t decode(const uint8_t *buf, size_t len, int kernel, ev_row **rows)
{
    evt_reader *r = NULL;
    char err[256];
    assert_int_equal(evt_reader_open_mem(buf, len, "rkh", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    if (kernel >= 0) evt_reader_set_kernel(r, kernel);
    size_t n = 0, cap = 1024;
    *rows = malloc(cap * sizeof **rows);
    assert_non_null(*rows);
    evt_event ev;
    while (evt_reader_next(r, &ev) == EVT_OK) {
        if (n == cap) {
            cap *= 2;
            *rows = realloc(*rows, cap * sizeof **rows);
            assert_non_null(*rows);
        }
        ev_row *w = &(*rows)[n++];
        w->ts = ev.ts;
        w->ctx = ev.ctx;
        w->kind = (int)ev.kind;
        w->runs_now = (ev.m.has & (EVT_M_RUNS_NOW | EVT_M_NEXT)) != 0; /* a switch or a thread run */
        w->op = (ev.m.has & EVT_M_OP) != 0;
    }
    evt_reader_close(r);
    return n;
}

static void test_late_join(void **st)
{
    (void)st;
    size_t len;
    uint8_t *all = evt_test_read_file(EVT_TEST_DATA_DIR "/freertos/posix_stream.rkh", &len);
    assert_true(len > 2u * CUT);
    ev_row *whole, *plain, *hinted;
    size_t nw = decode(all, len, -1, &whole);
    size_t np = decode(all + CUT, len - CUT, -1, &plain);
    size_t nh = decode(all + CUT, len - CUT, EVT_HOOK_KERNEL_FREERTOS, &hinted);
    assert_int_equal(np, nh);
    unsigned plain_runs = 0, hinted_runs = 0, hinted_ops = 0;
    for (size_t i = 0; i < np; i++) {
        plain_runs += plain[i].runs_now;
        hinted_runs += hinted[i].runs_now;
        hinted_ops += hinted[i].op;
    }
    assert_int_equal(plain_runs, 0); /* nothing names the hooks: no switch */
    assert_true(hinted_runs > 100u);
    assert_true(hinted_ops > 1000u);
    /* the same events as the whole stream's tail, from the late stream's first switch on */
    size_t first = 0;
    while (first < nh && !hinted[first].runs_now) first++;
    assert_true(first < nh);
    size_t at = 0;
    while (at < nw && whole[at].ts != hinted[first].ts) at++;
    assert_true(at < nw);
    assert_true(nw - at >= nh - first);
    for (size_t i = first; i < nh; i++, at++) {
        assert_int_equal(hinted[i].ts, whole[at].ts);
        assert_int_equal(hinted[i].kind, whole[at].kind);
        assert_int_equal(hinted[i].ctx, whole[at].ctx);
        assert_int_equal(hinted[i].op, whole[at].op);
    }
    free(whole);
    free(plain);
    free(hinted);
    free(all);
}

/* RKH's own kernel profile says nothing about hooks: an application's user records keep no name. */
static void test_rkh_kernel_no_hooks(void **st)
{
    (void)st;
    size_t len;
    uint8_t *all = evt_test_read_file(EVT_TEST_DATA_DIR "/freertos/posix_stream.rkh", &len);
    ev_row *rows;
    size_t n = decode(all + CUT, len - CUT, EVT_HOOK_KERNEL_RKH, &rows);
    unsigned runs = 0;
    for (size_t i = 0; i < n; i++) runs += rows[i].runs_now;
    assert_int_equal(runs, 0);
    free(rows);
    free(all);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_late_join), cmocka_unit_test(test_rkh_kernel_no_hooks)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
