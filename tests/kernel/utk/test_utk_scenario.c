/* The scripted μT-Kernel scenario (examples/utk_kernel/utk_scenario.c) on the host kernel with the
 * virtual clock, traced through the DS adapter and the generic hooks into TXTB:
 *  - the decoded event sequence (timestamp, context, kind, name, object, state/error/irq) equals the
 *    golden tests/data/utk/scenario_events.txt (regenerate: EVT_REGEN=1), with names for services
 *    (tk_wai_sem ...), tasks and interrupts;
 *  - per-task CPU time, ISR count/time and per-service latency computed from the decoded trace
 *    equal the host kernel's own accounting of the same run (utk_accounting()).
 *  - the waits (formats/common/hook_wait.c): every task that stops waiting inside tk_wai_sem,
 *    tk_wai_flg or tk_rcv_mbx has a wait_start on that call's object and a wait_end on the same
 *    object when it runs again, and the timeline's blocked intervals are exactly those waits, on
 *    their objects, plus the waits on no object (tk_dly_tsk). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "evt_test.h"
#include "evtrace/reader.h"
#include "formats/threadx/txtb_hooks.h"
#include "formats/threadx/txtb_hooks_dec.h"
#include "host/timeline/timeline.h"
#include "utk_kernel.h"
#include "utk_scenario.h"

#define REGISTRY_ENTRIES 32u
#define EVENT_SLOTS 1024u
static uint8_t g_buf[48u + REGISTRY_ENTRIES * 48u + EVENT_SLOTS * 32u];

static void run_scenario(void)
{
    evt_tx_options o;
    memset(&o, 0, sizeof o);
    o.time_source = utk_now32;
    o.base_address = 0x20000000u;
    evt_txtb_hooks_reset();
    evt_tx_stats s0, st;   /* the recorder's counters run since process start: compare deltas */
    evt_tx_trace_get_stats(&s0);
    assert_int_equal(evt_txtb_hooks_enable(g_buf, sizeof g_buf, REGISTRY_ENTRIES, &o, EVT_HOOK_KERNEL_UTKERNEL),
                     EVT_TX_SUCCESS);
    utk_scenario scn = UTK_SCENARIO_DEFAULT;
    utk_config cfg;
    memset(&cfg, 0, sizeof cfg);
    assert_int_equal(utk_boot(&cfg, utk_scenario_main, 1, &scn), 0);
    evt_tx_trace_disable();
    evt_tx_trace_get_stats(&st);
    assert_int_equal(st.dropped - s0.dropped, 0);
    assert_int_equal(st.wraps - s0.wraps, 0);
}

static const char *field_s(const evt_event *ev, const char *key)
{
    for (uint32_t i = 0; i < ev->nfields; i++)
        if (ev->fields[i].is_str && strcmp(ev->fields[i].key, key) == 0) return ev->fields[i].str;
    return NULL;
}

/* One line of the golden sequence. */
static void line_of(const evt_event *ev, char *out, size_t n)
{
    const char *extra = field_s(ev, "state");
    if (!extra) extra = field_s(ev, "error");
    if (!extra) extra = field_s(ev, "irq_name");
    snprintf(out, n, "%llu %s %s %s %s %s\n", (unsigned long long)ev->ts, ev->ctx_name ? ev->ctx_name : "-",
             evt_kind_name(ev->kind), ev->name, ev->target_name ? ev->target_name : "-", extra ? extra : "-");
}

typedef struct open_call { uint64_t ctx; char name[32]; uint64_t ts; } open_call;

static void test_scenario_golden_and_accounting(void **state)
{
    (void)state;
    run_scenario();
    char path[512];
    snprintf(path, sizeof path, "%s/utk_scenario.trx", evt_test_tmpdir());
    assert_int_equal(evt_test_write_file(path, g_buf, sizeof g_buf), 0);

    evt_reader *r = NULL;
    char err[256];
    assert_int_equal(evt_reader_open_mem(g_buf, sizeof g_buf, "threadx", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    size_t cap = 1 << 20, len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    text[0] = 0;
    const utk_acct *a = utk_accounting();
    uint64_t cpu[UTK_MAX_TSK + 1] = {0}, run_at[UTK_MAX_TSK + 1] = {0}, last_ts = 0;
    int running[UTK_MAX_TSK + 1] = {0};
    uint64_t isr_time = 0, isr_count = 0, isr_at = 0;
    int isr_depth = 0;
    uint64_t svc_count[UTK_FN_INDEX_MAX + 1] = {0}, svc_total[UTK_FN_INDEX_MAX + 1] = {0};
    uint64_t svc_min[UTK_FN_INDEX_MAX + 1], svc_max[UTK_FN_INDEX_MAX + 1] = {0};
    for (int i = 0; i <= UTK_FN_INDEX_MAX; i++) svc_min[i] = UINT64_MAX;
    open_call open[64];
    int nopen = 0, saw_wai_sem = 0, saw_adc = 0, saw_unpaired = 0;
    evt_event ev;
    for (;;) {
        evt_event_reset(&ev);
        evt_status st = evt_reader_next(r, &ev);
        if (st == EVT_END) break;
        assert_int_equal(st, EVT_OK);
        char line[256];
        line_of(&ev, line, sizeof line);
        size_t l = strlen(line);
        assert_true(len + l < cap);
        memcpy(text + len, line, l + 1);
        len += l;
        last_ts = ev.ts;
        switch (ev.kind) {
        case EVT_KIND_THREAD_RUN:
            assert_true(ev.target >= 1 && ev.target <= UTK_MAX_TSK);
            run_at[ev.target] = ev.ts;
            running[ev.target] = 1;
            break;
        case EVT_KIND_THREAD_STOP:
            cpu[ev.target] += ev.ts - run_at[ev.target];
            running[ev.target] = 0;
            break;
        case EVT_KIND_ISR_ENTER:
            if (isr_depth++ == 0) isr_at = ev.ts;
            isr_count++;
            if (strcmp(ev.name, "adc") == 0) saw_adc++;
            break;
        case EVT_KIND_ISR_EXIT:
            if (--isr_depth == 0) isr_time += ev.ts - isr_at;
            break;
        case EVT_KIND_SVC_ENTER:
            assert_true(nopen < 64);
            open[nopen].ctx = ev.ctx;
            snprintf(open[nopen].name, sizeof open[nopen].name, "%s", ev.name);
            open[nopen++].ts = ev.ts;
            if (strcmp(ev.name, "tk_wai_sem") == 0 && ev.ctx_name && strcmp(ev.ctx_name, "sensor") == 0 &&
                ev.target_name && strcmp(ev.target_name, "adc_sem") == 0)
                saw_wai_sem++;
            break;
        case EVT_KIND_SVC_EXIT: {
            int k = nopen - 1;
            while (k >= 0 && open[k].ctx != ev.ctx) k--;
            if (k < 0) { saw_unpaired++; break; }
            assert_string_equal(open[k].name, ev.name);
            uint64_t d = ev.ts - open[k].ts;
            unsigned ix = 0;
            for (unsigned i = 1; i <= UTK_FN_INDEX_MAX; i++)
                if (a->svc[i].count && strcmp(txtb_hooks_utk_fn_name(a->svc[i].fncd), ev.name) == 0) ix = i;
            assert_true(ix > 0);
            svc_count[ix]++;
            svc_total[ix] += d;
            if (d < svc_min[ix]) svc_min[ix] = d;
            if (d > svc_max[ix]) svc_max[ix] = d;
            memmove(&open[k], &open[k + 1], (size_t)(nopen - k - 1) * sizeof open[0]);
            nopen--;
            break;
        }
        default: break;
        }
    }
    for (int t = 1; t <= UTK_MAX_TSK; t++)   /* the task running at the end: up to the last event */
        if (running[t]) cpu[t] += last_ts - run_at[t];
    assert_int_equal(r->errors, 0);
    assert_int_equal(r->lost, 0);
    evt_reader_close(r);
    char gpath[512];
    snprintf(gpath, sizeof gpath, "%s/utk/scenario_events.txt", EVT_TEST_DATA_DIR);
    if (getenv("EVT_REGEN")) assert_int_equal(evt_test_write_file(gpath, text, len), 0);

    /* names for services, tasks and interrupts */
    assert_int_equal(saw_wai_sem, 6);   /* sensor waits before each ADC round (5) and once more ... */
    assert_int_equal(saw_adc, 5);       /* ... and the adc interrupt ran 5 times */
    assert_int_equal(saw_unpaired, 0);
    assert_non_null(strstr(text, "1000 ISR isr_enter systick - systick\n"));
    assert_non_null(strstr(text, "1500 ISR isr_enter adc - adc\n"));
    assert_non_null(strstr(text, " init thread_stop THREAD_SUSPEND init TTS_WAI\n"));
    assert_non_null(strstr(text, " logger svc_exit tk_rcv_mbx - E_TMOUT\n"));

    /* the trace's numbers equal the kernel's own accounting */
    for (int t = 1; t <= UTK_MAX_TSK; t++) assert_int_equal(cpu[t], a->task_cpu[t]);
    assert_int_equal(isr_count, a->isr_count);
    assert_int_equal(isr_time, a->isr_time);
    int nsvc = 0;
    for (unsigned i = 1; i <= UTK_FN_INDEX_MAX; i++) {
        assert_int_equal(svc_count[i], a->svc[i].count);
        if (!a->svc[i].count) continue;
        nsvc++;
        assert_int_equal(svc_total[i], a->svc[i].total);
        assert_int_equal(svc_min[i], a->svc[i].min);
        assert_int_equal(svc_max[i], a->svc[i].max);
    }
    assert_true(nsvc >= 10);
    assert_true(a->task_cpu[2] > 0 && a->task_cpu[3] > 0 && a->task_cpu[4] > 0);

    /* golden sequence */
    size_t glen = 0;
    char *golden = (char *)evt_test_read_file(gpath, &glen);
    assert_int_equal(glen, len);
    assert_memory_equal(golden, text, len);
    free(golden);
    free(text);
}

/* The scenario's waits, from the recorded trace to the timeline: each wait_start (a task's stop
 * inside its waiting call) opens a blocked interval of that task on the same object, ended by the
 * wait_end of the same object when the task runs again; no blocked interval on an object is
 * without one; a delay (tk_dly_tsk) blocks on no object and has none. */
#define MAXW 128
typedef struct wait_rec { uint64_t ctx, t, obj; } wait_rec;
static wait_rec g_ws[MAXW], g_we[MAXW];
static unsigned g_nws, g_nwe;
static evt_tl_state_iv g_blk[MAXW];
static char g_blk_svc[MAXW][24];
static unsigned g_nblk;

static void on_state(void *u, const evt_tl_state_iv *iv)
{
    (void)u;
    if (iv->state != EVT_TL_BLOCKED) return;
    assert_true(g_nblk < MAXW);
    snprintf(g_blk_svc[g_nblk], sizeof g_blk_svc[0], "%s", iv->service ? iv->service : "");
    g_blk[g_nblk++] = *iv;
}

static void test_scenario_waits_on_timeline(void **state)
{
    (void)state;
    run_scenario();
    evt_reader *r = NULL;
    char err[256];
    assert_int_equal(evt_reader_open_mem(g_buf, sizeof g_buf, "threadx", NULL, NULL, NULL, &r, err, sizeof err),
                     EVT_OK);
    evt_tl_sink sink;
    memset(&sink, 0, sizeof sink);
    sink.state = on_state;
    static evt_tl tl;
    assert_true(evt_tl_init(&tl, 0, &sink));
    g_nws = g_nwe = g_nblk = 0;
    evt_event ev;
    for (;;) {
        evt_event_reset(&ev);
        evt_status st = evt_reader_next(r, &ev);
        if (st == EVT_END) break;
        assert_int_equal(st, EVT_OK);
        if ((ev.m.has & EVT_M_OP) && ev.m.op == EVT_OP_WAIT_START) {
            assert_int_equal(ev.kind, EVT_KIND_THREAD_STOP);
            assert_true(g_nws < MAXW);
            g_ws[g_nws++] = (wait_rec){ev.target, ev.ts, ev.m.obj};
        } else if ((ev.m.has & EVT_M_OP) && ev.m.op == EVT_OP_WAIT_END) {
            assert_int_equal(ev.kind, EVT_KIND_THREAD_RUN);
            assert_true(g_nwe < MAXW);
            g_we[g_nwe++] = (wait_rec){ev.target, ev.ts, ev.m.obj};
        }
        evt_tl_add(&tl, &ev);
    }
    evt_tl_finish(&tl);
    assert_int_equal(r->errors, 0);
    evt_reader_close(r);

    /* the scenario's sensor, ctrl and logger wait on their semaphore, flags and mailbox again and again */
    assert_true(g_nws >= 12);
    unsigned on_obj = 0, on_none = 0;
    for (unsigned i = 0; i < g_nblk; i++) {
        const evt_tl_state_iv *iv = &g_blk[i];
        uint64_t ctx = tl.ctxs[iv->ctx]->id;
        if (iv->obj == EVT_TL_NONE) {
            assert_string_equal(g_blk_svc[i], "tk_dly_tsk");
            for (unsigned k = 0; k < g_nws; k++) assert_false(g_ws[k].ctx == ctx && g_ws[k].t == iv->t0);
            on_none++;
            continue;
        }
        uint64_t obj = tl.objs[iv->obj]->id;
        unsigned k = 0;
        while (k < g_nws && !(g_ws[k].ctx == ctx && g_ws[k].t == iv->t0)) k++;
        assert_true(k < g_nws);                /* its wait's start */
        assert_int_equal(g_ws[k].obj, obj);
        if (iv->open_end) continue;
        k = 0;
        while (k < g_nwe && !(g_we[k].ctx == ctx && g_we[k].t == iv->t1)) k++;
        assert_true(k < g_nwe);                /* its wait's end */
        assert_int_equal(g_we[k].obj, obj);
        on_obj++;
    }
    assert_true(on_none >= 1);
    assert_int_equal(on_obj + (g_nws - g_nwe), g_nws); /* every start is a blocked interval */
    assert_true(g_nwe <= g_nws && g_nws - g_nwe <= 3); /* at most one open wait per task at the end */
    evt_tl_free(&tl);
}

/* Two runs give the same bytes (the virtual clock makes the run deterministic; pointers recorded
 * as svc arguments and the recorder's "stk" words are the only run-dependent words, and the
 * decoded sequence above leaves them out). */
static void test_scenario_repeatable(void **state)
{
    (void)state;
    run_scenario();
    uint64_t end1 = utk_accounting()->end;
    const utk_acct a1 = *utk_accounting();
    run_scenario();
    assert_int_equal(utk_accounting()->end, end1);
    assert_memory_equal(&a1, utk_accounting(), sizeof a1);
}

/* A flight-recorder buffer that wrapped (64 slots for ~200 records) still decodes with names: the
 * hooks profile, task, object and interrupt names live in the registry, outside the ring. */
static uint8_t g_small[48u + 32u * 48u + 64u * 32u];
static void test_wrapped_buffer_keeps_names(void **state)
{
    (void)state;
    evt_tx_options o;
    memset(&o, 0, sizeof o);
    o.time_source = utk_now32;
    evt_txtb_hooks_reset();
    evt_tx_stats s0, st;
    evt_tx_trace_get_stats(&s0);
    assert_int_equal(evt_txtb_hooks_enable(g_small, sizeof g_small, 32, &o, EVT_HOOK_KERNEL_UTKERNEL), EVT_TX_SUCCESS);
    utk_scenario scn = UTK_SCENARIO_DEFAULT;
    utk_config cfg;
    memset(&cfg, 0, sizeof cfg);
    assert_int_equal(utk_boot(&cfg, utk_scenario_main, 1, &scn), 0);
    evt_tx_trace_disable();
    evt_tx_trace_get_stats(&st);
    assert_true(st.wraps - s0.wraps >= 3);
    evt_reader *r = NULL;
    char err[256];
    assert_int_equal(evt_reader_open_mem(g_small, sizeof g_small, "threadx", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    int n = 0, svc = 0, named_ctx = 0, ticks = 0;
    for (;;) {
        evt_event_reset(&ev);
        evt_status s = evt_reader_next(r, &ev);
        if (s == EVT_END) break;
        assert_int_equal(s, EVT_OK);
        n++;
        if (ev.kind == EVT_KIND_SVC_ENTER || ev.kind == EVT_KIND_SVC_EXIT) {
            assert_int_equal(strncmp(ev.name, "tk_", 3), 0);
            svc++;
        }
        if (ev.ctx_class == EVT_CTX_THREAD && ev.ctx_name) named_ctx++;
        if (ev.kind == EVT_KIND_ISR_ENTER && strcmp(ev.name, "systick") == 0) ticks++;
    }
    assert_int_equal(r->errors, 0);
    evt_reader_close(r);
    assert_int_equal(n, 64);
    assert_true(svc > 10);
    assert_true(named_ctx > 10);
    assert_true(ticks > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scenario_golden_and_accounting),
        cmocka_unit_test(test_scenario_waits_on_timeline),
        cmocka_unit_test(test_wrapped_buffer_keeps_names),
        cmocka_unit_test(test_scenario_repeatable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
