/* Unit tests of the stats engine on hand-built event sequences with hand-computed answers: CPU
 * time per context with ISR time subtracted, idle after a self thread_stop, service pairing per
 * context (by name, and by position when the exit has another name), nested functions with a
 * tail exit unwinding the stack (llvm-xray account -d), unmatched exits, lost data, event names
 * counted by their text (a reader's buffer rewritten at the same address is another name), and the
 * same answers from `evtrace stats --json` on a synthetic trace. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "evt_meaning_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evt_test.h"
#include "evtrace/alloc.h"
#include "host/analyses/stats.h"

static evt_stats S;

static void ev_(evt_kind k, const char *name, uint64_t ts, uint64_t ctx, evt_ctx_class cls, const char *fn)
{
    evt_event e;
    evt_event_reset(&e);
    e.kind = k;
    e.name = name;
    e.ts = ts;
    if (cls != EVT_CTX_NONE) {
        e.flags |= EVT_HAS_CTX;
        e.ctx = ctx;
        e.ctx_class = cls;
    }
    if (fn) tm_label(&e, fn);
    if (k == EVT_KIND_LOST) { e.flags |= EVT_HAS_COUNT; e.count = 7; }
    assert_int_equal(evt_stats_add(&S, &e), 1);
}

static evt_stats_ctx *ctx_(uint64_t id)
{
    for (uint32_t i = 0; i < S.nctx; i++)
        if (S.ctxs[i].has_ctx && S.ctxs[i].ctx == id) return &S.ctxs[i];
    fail_msg("no context %llu", (unsigned long long)id);
    return NULL;
}

static evt_stats_lat *lat_(evt_span_cat cat, const char *label)
{
    for (uint32_t i = 0; i < S.nlat; i++)
        if (S.lats[i].cat == cat && strcmp(evt_strtab_str(&S.strs, S.lats[i].label), label) == 0) return &S.lats[i];
    fail_msg("no latency %s", label);
    return NULL;
}

enum { A = 1, B = 2, IRQ = 99 };
#define T EVT_CTX_THREAD
#define I EVT_CTX_ISR

static void cpu_time_and_isr(void **st)
{
    (void)st;
    evt_stats_init(&S, 0);
    ev_(EVT_KIND_THREAD_RUN, "RUN", 100, A, T, NULL);     /* A runs from 100 */
    ev_(EVT_KIND_SVC_ENTER, "sem_take", 110, A, T, NULL);
    ev_(EVT_KIND_ISR_ENTER, "ISR_ENTER", 120, IRQ, I, NULL); /* ISR 120..135 */
    ev_(EVT_KIND_ISR_EXIT, "ISR_EXIT", 135, IRQ, I, NULL);
    ev_(EVT_KIND_SVC_EXIT, "sem_take_done", 150, A, T, NULL); /* other name: closes by position */
    ev_(EVT_KIND_THREAD_STOP, "SUSPEND", 160, A, T, NULL); /* A stops itself: idle 160..200 */
    ev_(EVT_KIND_USER, "U", 200, B, T, NULL);             /* B from 200 */
    ev_(EVT_KIND_SVC_ENTER, "q_send", 210, B, T, NULL);
    ev_(EVT_KIND_SVC_EXIT, "q_send", 230, B, T, NULL);
    ev_(EVT_KIND_SVC_EXIT, "q_send", 240, B, T, NULL);    /* unmatched */
    ev_(EVT_KIND_USER, "U", 300, A, T, NULL);             /* A again from 300 */
    ev_(EVT_KIND_USER, "U", 330, A, T, NULL);
    evt_stats_finish(&S);
    assert_int_equal(evt_stats_duration(&S), 230);
    assert_int_equal(ctx_(A)->cpu_ticks, (120 - 100) + (160 - 135) + (330 - 300)); /* 75 */
    assert_int_equal(ctx_(B)->cpu_ticks, 300 - 200);
    assert_int_equal(ctx_(IRQ)->cpu_ticks, 0); /* ISR time is isr_time, not a context's cpu time */
    assert_int_equal(ctx_(IRQ)->isr_count, 1);
    assert_int_equal(S.isr_ticks, 15);
    assert_int_equal(S.idle_ticks, 40);
    assert_int_equal(ctx_(A)->switches, 2);
    evt_stats_lat *l = lat_(EVT_SPAN_SVC, "sem_take");
    assert_int_equal(l->h.count, 1);
    assert_int_equal(l->h.min, 40);
    l = lat_(EVT_SPAN_SVC, "q_send");
    assert_int_equal(l->h.count, 1);
    assert_int_equal(l->h.max, 20);
    assert_int_equal(lat_(EVT_SPAN_ISR, "ISR_ENTER")->h.sum, 15);
    assert_int_equal(S.unmatched[EVT_SPAN_SVC], 1);
    evt_stats_free(&S);
}

static void nested_functions_tail_exit(void **st)
{
    (void)st;
    evt_stats_init(&S, 1000000000u);
    ev_(EVT_KIND_FUNC_ENTER, "enter", 0, A, T, "main");
    ev_(EVT_KIND_FUNC_ENTER, "enter", 10, A, T, "caller");
    ev_(EVT_KIND_FUNC_ENTER, "enter", 20, B, T, "other");  /* other thread interleaved */
    ev_(EVT_KIND_FUNC_ENTER, "enter", 30, A, T, "callee");  /* tail-called by caller */
    ev_(EVT_KIND_FUNC_EXIT, "tail_exit", 45, A, T, "caller"); /* closes callee and caller */
    ev_(EVT_KIND_FUNC_EXIT, "exit", 50, B, T, "other");
    ev_(EVT_KIND_FUNC_EXIT, "exit", 60, A, T, "nothere");   /* unmatched, closes nothing */
    ev_(EVT_KIND_FUNC_EXIT, "exit", 100, A, T, "main");
    ev_(EVT_KIND_FUNC_ENTER, "enter", 110, A, T, "main");
    ev_(EVT_KIND_FUNC_EXIT, "exit", 130, A, T, "main");
    ev_(EVT_KIND_FUNC_ENTER, "enter", 140, A, T, "never_exits");
    evt_stats_finish(&S);
    assert_int_equal(lat_(EVT_SPAN_FUNC, "callee")->h.sum, 15);
    assert_int_equal(lat_(EVT_SPAN_FUNC, "caller")->h.sum, 35);
    assert_int_equal(lat_(EVT_SPAN_FUNC, "other")->h.sum, 30);
    evt_stats_lat *m = lat_(EVT_SPAN_FUNC, "main");
    assert_int_equal(m->h.count, 2);
    assert_int_equal(m->h.min, 20);
    assert_int_equal(m->h.max, 100);
    assert_int_equal(evt_hist_pct(&m->h, 0.5), 100);
    assert_int_equal(S.unmatched[EVT_SPAN_FUNC], 1);
    assert_int_equal(S.dropped[EVT_SPAN_FUNC], 1);
    evt_stats_free(&S);
}

static void lost_data(void **st)
{
    (void)st;
    evt_stats_init(&S, 0);
    ev_(EVT_KIND_SVC_ENTER, "s", 0, A, T, NULL);
    ev_(EVT_KIND_LOST, "LOST", 10, 0, EVT_CTX_NONE, NULL);  /* drops the open span, A unknown */
    ev_(EVT_KIND_SVC_EXIT, "s", 20, A, T, NULL);           /* nothing to close */
    ev_(EVT_KIND_USER, "U", 50, A, T, NULL);
    evt_stats_finish(&S);
    assert_int_equal(S.lost_events, 1);
    assert_int_equal(S.lost_count, 7);
    assert_int_equal(S.dropped[EVT_SPAN_SVC], 1);
    assert_int_equal(S.unmatched[EVT_SPAN_SVC], 1);
    assert_int_equal(ctx_(A)->cpu_ticks, 10 + 30);
    assert_int_equal(S.idle_ticks, 0); /* 10..20 is unknown (after the loss), not idle */
    evt_stats_free(&S);
}

/* The CLI on a synthetic trace: per slice (10 events, 1..64 ticks apart) every span closes, so the
 * counts are exact: 200 slices -> 200 of each span; three tasks + ISR share the time. */
static void cli_json_synthetic(void **st)
{
    (void)st;
    char cmd[4096], *out = NULL;
    snprintf(cmd, sizeof cmd, "%s stats --json %s/tests/host/data/small.syn", evt_test_bin(), EVT_SOURCE_DIR);
    assert_int_equal(evt_test_run(cmd, &out, NULL), 0);
    assert_non_null(strstr(out, "\"format\":\"synthetic\""));
    assert_non_null(strstr(out, "\"time_unit\":\"ns\""));
    assert_non_null(strstr(out, "\"lost\":{\"events\":2,\"count\":10}"));
    assert_non_null(strstr(out, "{\"name\":\"sem_take\",\"count\":200,"));
    assert_non_null(strstr(out, "{\"name\":\"compute\",\"count\":200,"));
    assert_non_null(strstr(out, "{\"name\":\"ISR_ENTER #7\",\"count\":200,"));
    assert_non_null(strstr(out, "\"unmatched_exits\":{\"isr\":0,\"svc\":0,\"func\":0}"));
    free(out);
}

static uint64_t name_count_(const char *name, evt_kind k)
{
    for (uint32_t i = 0; i < S.nnames; i++)
        if (S.names[i].kind == k && strcmp(evt_strtab_str(&S.strs, S.names[i].name), name) == 0) return S.names[i].count;
    return 0;
}

/* The name counts' cache by address: a literal's address may be trusted (its text cannot change),
 * a reader's buffer rewritten with other text is compared (this fails if it were trusted). */
static void names_by_text_not_address(void **st)
{
    (void)st;
    evt_stats_init(&S, 0);
    char *h = malloc(16);
    assert_non_null(h);
    uint64_t t = 0;
    for (int round = 0; round < 3; round++) {
        strcpy(h, "tx_queue_send");
        ev_(EVT_KIND_USER, h, t++, A, T, NULL);
        ev_(EVT_KIND_USER, "tx_queue_send", t++, A, T, NULL);
        strcpy(h, "tx_queue_recv"); /* the same address and length */
        ev_(EVT_KIND_USER, h, t++, A, T, NULL);
        ev_(EVT_KIND_USER, h, t++, A, T, NULL);
        ev_(EVT_KIND_MARKER, h, t++, A, T, NULL); /* another kind: another count */
    }
    evt_stats_finish(&S);
    assert_int_equal(name_count_("tx_queue_send", EVT_KIND_USER), 6);
    assert_int_equal(name_count_("tx_queue_recv", EVT_KIND_USER), 6);
    assert_int_equal(name_count_("tx_queue_recv", EVT_KIND_MARKER), 3);
    free(h);
    evt_stats_free(&S);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cpu_time_and_isr),
        cmocka_unit_test(nested_functions_tail_exit),
        cmocka_unit_test(lost_data),
        cmocka_unit_test(names_by_text_not_address),
        cmocka_unit_test(cli_json_synthetic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
