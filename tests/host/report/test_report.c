/* The HTML report: (1) its inline JSON blocks cannot break out of their script elements: context,
 * event, field and file names containing "</script><!--" appear in them only escaped (no '<' at
 * all between the script tags), the page has exactly its own three script elements, and the
 * title carries the file name entity-escaped; (2) the data block holds what the timeline gave:
 * on a constructed trace (two threads switching, one ISR, one service call) the counts of
 * contexts, state intervals, ISRs and slices, the unit, and the listed events, and the analyses
 * block is there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evt_test.h"
#include "host/report/report.h"

#define EVIL "</script><!--<script>alert(1)</script>"

static size_t count_(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++) n++;
    return n;
}

static char *page_(evt_report *r)
{
    char *page = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&page, &len);
    assert_non_null(m);
    assert_int_equal(evt_report_write(r, m, 0), 1);
    assert_int_equal(fclose(m), 0);
    return page;
}

/* The text between <script type="application/json" id="ID"> and its </script>. */
static char *json_block_(const char *page, const char *id)
{
    char open[96];
    snprintf(open, sizeof open, "<script type=\"application/json\" id=\"%s\">", id);
    const char *a = strstr(page, open);
    assert_non_null(a);
    a += strlen(open);
    const char *b = strstr(a, "</script>");
    assert_non_null(b);
    for (const char *p = a; p < b; p++)
        if (*p == '<') fail_msg("raw '<' in the %s JSON at byte %ld", id, (long)(p - page));
    return strndup(a, (size_t)(b - a));
}

static void ev_(evt_event *e, evt_kind k, const char *name, uint64_t ts, uint64_t ctx, evt_ctx_class cls,
                const char *cname)
{
    evt_event_reset(e);
    e->kind = k;
    e->name = name;
    e->ts = ts;
    e->flags |= EVT_HAS_CTX;
    e->ctx = ctx;
    e->ctx_class = cls;
    e->ctx_name = cname;
}

static void hostile_names_stay_inside(void **st)
{
    (void)st;
    evt_report_info info = {"synthetic", "file" EVIL ".trx", 1000000, NULL};
    evt_report *r = evt_report_new(&info);
    assert_non_null(r);
    for (uint64_t i = 0; i < 20; i++) {
        evt_event e;
        ev_(&e, (i % 2) ? EVT_KIND_SVC_EXIT : EVT_KIND_SVC_ENTER, "svc" EVIL, 100 + i * 10, 1 + (i % 3),
            EVT_CTX_THREAD, "task" EVIL);
        evt_event_add_field_s(&e, "text", "f" EVIL);
        assert_int_equal(evt_report_add(r, &e), 1);
    }
    char *page = page_(r);
    evt_report_free(r);

    assert_int_equal(count_(page, "<script"), 3); /* data, analyses, the page's own script */
    assert_int_equal(count_(page, "</script"), 3);
    char *data = json_block_(page, "evt-data");
    assert_non_null(strstr(data, "task\\u003c/script"));
    assert_non_null(strstr(data, "f\\u003c/script"));
    free(data);
    char *an = json_block_(page, "evt-analyses");
    assert_non_null(strstr(an, "task\\u003c/script")); /* the analyses name the contexts too */
    free(an);
    assert_non_null(strstr(page, "<title>evtrace report: file&lt;/script&gt;&lt;!--"));
    size_t n = strlen(page); /* the page is complete (what fuzz_report checks too) */
    assert_true(n > 15 && strcmp(page + n - 15, "</body></html>\n") == 0);
    free(page);
}

/* thread A runs, B runs (A preempted), an ISR interrupts B, B calls a service, A runs again. */
static void data_block_holds_the_timeline(void **st)
{
    (void)st;
    evt_report_info info = {"synthetic", "t.syn", 0, NULL};
    evt_report *r = evt_report_new(&info);
    assert_non_null(r);
    evt_event e;
    ev_(&e, EVT_KIND_USER, "a1", 100, 1, EVT_CTX_THREAD, "A");
    assert_true(evt_report_add(r, &e));
    ev_(&e, EVT_KIND_USER, "b1", 200, 2, EVT_CTX_THREAD, "B");
    assert_true(evt_report_add(r, &e));
    ev_(&e, EVT_KIND_ISR_ENTER, "irq", 250, 9, EVT_CTX_ISR, "isr9");
    evt_event_add_field_u(&e, "irq", 5);
    assert_true(evt_report_add(r, &e));
    ev_(&e, EVT_KIND_ISR_EXIT, "irq", 260, 9, EVT_CTX_ISR, "isr9");
    evt_event_add_field_u(&e, "irq", 5);
    assert_true(evt_report_add(r, &e));
    ev_(&e, EVT_KIND_SVC_ENTER, "sem_get", 300, 2, EVT_CTX_THREAD, "B");
    assert_true(evt_report_add(r, &e));
    ev_(&e, EVT_KIND_SVC_EXIT, "sem_get", 340, 2, EVT_CTX_THREAD, "B");
    assert_true(evt_report_add(r, &e));
    ev_(&e, EVT_KIND_USER, "a2", 400, 1, EVT_CTX_THREAD, "A");
    assert_true(evt_report_add(r, &e));
    assert_int_equal(evt_report_events(r), 7);
    char *page = page_(r);
    assert_int_equal(evt_report_contexts(r), 3);
    evt_report_free(r);
    char *d = json_block_(page, "evt-data");
    assert_non_null(strstr(d, "\"unit\":\"ticks\""));
    assert_non_null(strstr(d, "\"origin\":100,\"shift\":0,\"duration\":300,\"events\":7,\"listed\":7"));
    /* ISR: cpu 0, t0 150 (relative), 10 long, depth 0 */
    assert_non_null(strstr(d, "\"isrs\":[0,150,10,0,"));
    /* one service slice on B (ctx index 1): t0 200, 40 long, depth 0 */
    assert_non_null(strstr(d, "\"slices\":[1,2,200,40,0,"));
    /* the event list times as deltas from the origin */
    assert_non_null(strstr(d, "\"t\":[0,100,50,10,40,40,60]"));
    /* states: A running 0..100 is the first closed interval */
    assert_non_null(strstr(d, "\"states\":[0,0,0,0,100,"));
    free(d);
    char *an = json_block_(page, "evt-analyses"); /* the analyses ran on the same timeline */
    assert_non_null(strstr(an, "\"load\":"));
    assert_non_null(strstr(an, "\"response\":"));
    free(an);
    free(page);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hostile_names_stay_inside),
        cmocka_unit_test(data_block_holds_the_timeline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
