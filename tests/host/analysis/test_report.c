/* The HTML report's inline stats JSON cannot break out of its script element: context, event and
 * file names containing "</script><!--" appear in it only escaped (no '<' at all between the
 * script tags), the page has exactly its own two script elements and no comment opener, and the
 * HTML parts carry the names entity-escaped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evt_test.h"
#include "host/analysis/report.h"

#define EVIL "</script><!--<script>alert(1)</script>"

static size_t count_(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++) n++;
    return n;
}

static void hostile_names_stay_inside(void **st)
{
    (void)st;
    evt_stats s;
    assert_true(evt_stats_init(&s, 1000000));
    evt_stats_enable_timeline(&s);
    for (uint64_t i = 0; i < 20; i++) {
        evt_event e;
        evt_event_reset(&e);
        e.kind = (i % 2) ? EVT_KIND_SVC_EXIT : EVT_KIND_SVC_ENTER;
        e.name = "svc" EVIL;
        e.ts = 100 + i * 10;
        e.flags |= EVT_HAS_CTX;
        e.ctx = 1 + (i % 3);
        e.ctx_class = EVT_CTX_THREAD;
        e.ctx_name = "task" EVIL;
        assert_int_equal(evt_stats_add(&s, &e), 1);
    }
    evt_stats_finish(&s);
    char *page = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&page, &len);
    assert_non_null(m);
    assert_int_equal(evt_report_write(m, &s, "synthetic", "file" EVIL ".trx", 0), 1);
    assert_int_equal(fclose(m), 0);
    evt_stats_free(&s);

    assert_int_equal(count_(page, "<!--"), 0);
    assert_int_equal(count_(page, "<script"), 2);  /* the stats JSON and the page's own script */
    assert_int_equal(count_(page, "</script"), 2);
    const char *open = strstr(page, "<script type=\"application/json\" id=\"stats\">");
    assert_non_null(open);
    open = strchr(open, '>') + 1;
    const char *close = strstr(open, "</script>");
    assert_non_null(close);
    for (const char *p = open; p < close; p++)
        if (*p == '<') fail_msg("raw '<' in the stats JSON at byte %ld", (long)(p - page));
    /* the names are there, escaped */
    size_t jlen = (size_t)(close - open);
    char *json = strndup(open, jlen);
    assert_non_null(strstr(json, "task\\u003c/script"));
    free(json);
    assert_non_null(strstr(page, "task&lt;/script&gt;&lt;!--")); /* the HTML tables */
    free(page);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(hostile_names_stay_inside)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
