/* RKH-stream backend of the generic hooks (src/formats/rkh/rkh_hooks_enc.c, rkh_hooks_dec.c): every
 * hook call comes back from the RKH reader as one user record named by its FWK_TUSR symbol, with its
 * fields in the documented order, object names from FWK_OBJ, and its canonical kind and context
 * (thread run/stop, ISR enter/exit, ...); detached or filtered hooks write nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "evt_counter_clock.h"
#include <stdlib.h>
#include <string.h>
#include "evtrace/hooks.h"
#include "evtrace/reader.h"
#include "evtrace/rkh.h"
#include "formats/rkh/rkh_defs.h"
#include "formats/rkh/rkh_hooks.h"
#include "formats/rkh/rkh_clock_dec.h"
#include "kernel/utk/utk_fncd.h"

EVT_HOOK_DECLARE_BACKEND(rkh)

typedef struct out_buf { uint8_t p[8192]; size_t n; } out_buf;
static out_buf g_out;
static uint8_t g_ring[2048];
static void sink(void *user, const uint8_t *p, uint32_t n)
{
    out_buf *o = user;
    assert_true(o->n + n <= sizeof o->p);
    memcpy(o->p + o->n, p, n);
    o->n += n;
}

static const char *str_field(const evt_event *ev, const char *key)
{
    for (uint32_t i = 0; i < ev->nfields; i++)
        if (strcmp(ev->fields[i].key, key) == 0 && ev->fields[i].is_str) return ev->fields[i].str;
    return NULL;
}

/* r initialised (default configuration, g_ring, the test clock) and streaming into g_out, emptied. */
static void recorder_start(evt_rkh_recorder *r)
{
    evt_rkh_config cfg;
    evt_rkh_config_default(&cfg);
    g_out.n = 0;
    evt_rkh_init(r, &cfg, g_ring, sizeof g_ring, evt_test_clock32, 1000u);
    evt_rkh_set_sink(r, sink, &g_out);
}

/* The next user record (it has a user_event name), skipping symbol and configuration records. */
static evt_status next_user(evt_reader *rd, evt_event *ev)
{
    evt_status st;
    while ((st = evt_reader_next(rd, ev)) == EVT_OK && !str_field(ev, "user_event")) {
    }
    return st;
}

/* The next user record is `name` with these args, of this kind, recorded in context ctx (0: none). */
static void expect(evt_reader *rd, const char *name, uint32_t nargs, const uint64_t *args, evt_kind kind,
                   uint64_t ctx)
{
    evt_event ev;
    assert_int_equal(next_user(rd, &ev), EVT_OK);
    assert_string_equal(str_field(&ev, "user_event"), name);
    assert_int_equal(ev.nargs, nargs);
    for (uint32_t i = 0; i < nargs; i++) assert_int_equal(ev.args[i], args[i]);
    assert_int_equal(ev.kind, kind);
    if (ctx) {
        assert_true(ev.flags & EVT_HAS_CTX);
        assert_int_equal(ev.ctx, ctx);
    } else {
        assert_false(ev.flags & EVT_HAS_CTX);
    }
}

static void test_every_hook_round_trips(void **st)
{
    (void)st;
    evt_rkh_recorder r;
    recorder_start(&r);
    evt_rkh_hook_user(1, 2, 3, 4, 5); /* before attach: nothing */
    evt_rkh_hooks_attach(&r);
    const uintptr_t sargs[3] = {0x10, 0x20, 0x30};
    evt_rkh_hook_kernel_info(EVT_HOOK_KERNEL_GENERIC, 7);
    evt_rkh_hook_obj_create(EVT_HOOK_OBJ_THREAD, 0x20000100u, "worker", 5);
    evt_rkh_hook_thread_in(0x20000100u, 5);
    evt_rkh_hook_isr_enter(11);
    evt_rkh_hook_isr_exit(11);
    evt_rkh_hook_svc_enter(-3, 3, sargs);
    evt_rkh_hook_svc_leave(-3, -22, 1);
    evt_rkh_hook_user(42, 1, 2, 3, 0xFFFFFFFFu);
    evt_rkh_hook_thread_out(0x20000100u, EVT_HOOK_STATE_WAITING, 9);
    evt_rkh_hook_obj_delete(EVT_HOOK_OBJ_THREAD, 0x20000100u);
    evt_rkh_hooks_attach(NULL);
    evt_rkh_hook_user(1, 2, 3, 4, 5); /* detached: nothing */

    evt_reader *rd;
    char err[256];
    assert_int_equal(evt_reader_open_mem(g_out.p, g_out.n, NULL, NULL, NULL, NULL, &rd, err, sizeof err), EVT_OK);
    assert_string_equal(rd->desc->name, "rkh");
    expect(rd, "hook.kernel_info", 2, (const uint64_t[]){0, 7}, EVT_KIND_USER, 0);
    expect(rd, "hook.obj_create", 3, (const uint64_t[]){EVT_HOOK_OBJ_THREAD, 0x20000100u, 5}, EVT_KIND_OBJ_CREATE, 0);
    evt_event ev;
    assert_int_equal(next_user(rd, &ev), EVT_OK);
    assert_string_equal(str_field(&ev, "user_event"), "hook.thread_in");
    assert_string_equal(str_field(&ev, "f0_OBJ_name"), "worker"); /* from the FWK_OBJ record */
    assert_int_equal(ev.args[1], 5);
    assert_int_equal(ev.kind, EVT_KIND_THREAD_RUN);
    assert_int_equal(ev.ctx, 0x20000100u);
    assert_int_equal(ev.ctx_class, EVT_CTX_THREAD);
    assert_string_equal(ev.ctx_name, "worker");
    assert_string_equal(ev.target_name, "worker");
    assert_int_equal(ev.prio, 5);
    expect(rd, "hook.isr_enter", 1, (const uint64_t[]){11}, EVT_KIND_ISR_ENTER, 0xFFFFFFFFu);
    expect(rd, "hook.isr_exit", 1, (const uint64_t[]){11}, EVT_KIND_ISR_EXIT, 0xFFFFFFFFu);
    /* back in the thread after the interrupt */
    expect(rd, "hook.svc_enter", 4, (const uint64_t[]){0xFFFFFFFDu, 0x10, 0x20, 0x30}, EVT_KIND_SVC_ENTER,
           0x20000100u); /* raw 32-bit I32 */
    expect(rd, "hook.svc_leave", 3, (const uint64_t[]){0xFFFFFFFDu, 0xFFFFFFEAu, 1}, EVT_KIND_SVC_EXIT, 0x20000100u);
    expect(rd, "hook.user", 5, (const uint64_t[]){42, 1, 2, 3, 0xFFFFFFFFu}, EVT_KIND_USER, 0x20000100u);
    expect(rd, "hook.thread_out", 3, (const uint64_t[]){0x20000100u, EVT_HOOK_STATE_WAITING, 9},
           EVT_KIND_THREAD_STOP, 0x20000100u);
    /* no thread runs any more */
    expect(rd, "hook.obj_delete", 2, (const uint64_t[]){EVT_HOOK_OBJ_THREAD, 0x20000100u}, EVT_KIND_OBJ_DELETE, 0);
    assert_int_equal(next_user(rd, &ev), EVT_END);
    assert_int_equal(rd->errors, 0);
    assert_int_equal(rd->lost, 0);
    evt_reader_close(rd);
}

/* A hook record's event name says what it is, as the snapshot's do (THREAD_CREATE, int<n>, the
 * service): never "USR#<n>" but for hook.user, the application's own; an interrupt named by
 * hook.obj_create is named so, another "int<n>" (also its label: the ISR tables and tracks). */
static void test_hook_records_named_by_meaning(void **st)
{
    (void)st;
    evt_rkh_recorder r;
    recorder_start(&r);
    evt_rkh_hooks_attach(&r);
    const uintptr_t sargs[3] = {0x7, 0x1, 0x64};
    evt_rkh_hook_kernel_info(EVT_HOOK_KERNEL_UTKERNEL, 2);
    evt_rkh_hook_obj_create(EVT_HOOK_OBJ_INTERRUPT, 11, "adc", 0);
    evt_rkh_hook_obj_create(EVT_HOOK_OBJ_THREAD, 0x20000100u, "worker", 5);
    evt_rkh_hook_thread_in(0x20000100u, 5);
    evt_rkh_hook_isr_enter(11);
    evt_rkh_hook_isr_enter(12);
    evt_rkh_hook_isr_exit(12);
    evt_rkh_hook_isr_exit(11);
    evt_rkh_hook_svc_enter(UTK_TFN_tk_wai_sem, 3, sargs);
    evt_rkh_hook_svc_leave(UTK_TFN_tk_wai_sem, -50, 1);
    evt_rkh_hook_user(42, 1, 2, 3, 4);
    evt_rkh_hook_thread_out(0x20000100u, EVT_HOOK_STATE_WAITING, 4);
    evt_rkh_hook_obj_delete(EVT_HOOK_OBJ_QUEUE, 0x20000300u);
    evt_rkh_hooks_attach(NULL);

    static const char *const want[] = {"kernel_info", "interrupt_create", "thread_create", "thread_in",
                                       "adc", "int12", "int12", "adc", "tk_wai_sem", "tk_wai_sem", "USR#9",
                                       "thread_out", "queue_delete"};
    evt_reader *rd;
    char err[256];
    assert_int_equal(evt_reader_open_mem(g_out.p, g_out.n, NULL, NULL, NULL, NULL, &rd, err, sizeof err), EVT_OK);
    evt_event ev;
    for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++) {
        assert_int_equal(next_user(rd, &ev), EVT_OK);
        assert_string_equal(ev.name, want[i]);
        if (ev.kind == EVT_KIND_ISR_ENTER || ev.kind == EVT_KIND_ISR_EXIT) {
            assert_true(ev.m.has & EVT_M_LABEL);
            assert_string_equal(ev.m.label, want[i]);
        }
    }
    assert_int_equal(next_user(rd, &ev), EVT_END);
    evt_reader_close(rd);
}

static void test_filtered_hooks_write_nothing(void **st)
{
    (void)st;
    evt_rkh_recorder r;
    recorder_start(&r);
    evt_rkh_hooks_attach(&r);
    size_t after_attach = g_out.n;
    evt_rkh_filter_on_event(&r, RKH_TE_USER + RKH_HOOK_ISR_ENTER);
    evt_rkh_hook_isr_enter(3);
    assert_int_equal(g_out.n, after_attach);
    evt_rkh_hook_isr_exit(3);
    assert_true(g_out.n > after_attach);
    evt_rkh_hooks_attach(NULL);
}

/* The hooks reader on par with TXTB's: with hook.kernel_info naming μT-Kernel, a service gets its
 * kernel's label, operation, object type and result; an interrupt named by hook.obj_create its name
 * and id; thread_out its stop state; the stream records scheduling from its hooks on. */
static void test_hooks_meaning_from_the_profile(void **st)
{
    (void)st;
    evt_rkh_recorder r;
    recorder_start(&r);
    evt_rkh_hooks_attach(&r);
    const uintptr_t sargs[3] = {0x7, 0x1, 0x64};
    evt_rkh_hook_kernel_info(EVT_HOOK_KERNEL_UTKERNEL, 2);
    evt_rkh_hook_obj_create(EVT_HOOK_OBJ_INTERRUPT, 11, "adc", 0);
    evt_rkh_hook_thread_in(0x20000100u, 5);
    evt_rkh_hook_isr_enter(11);
    evt_rkh_hook_isr_exit(11);
    evt_rkh_hook_svc_enter(UTK_TFN_tk_wai_sem, 3, sargs);
    evt_rkh_hook_svc_leave(UTK_TFN_tk_wai_sem, -50, 1); /* E_TMOUT */
    evt_rkh_hook_thread_out(0x20000100u, EVT_HOOK_STATE_WAITING, 4);
    evt_rkh_hooks_attach(NULL);

    evt_reader *rd;
    char err[256];
    assert_int_equal(evt_reader_open_mem(g_out.p, g_out.n, NULL, NULL, NULL, NULL, &rd, err, sizeof err), EVT_OK);
    assert_false(rd->caps & EVT_CAP_SCHED); /* RKH's own records hold no scheduling */
    evt_event ev;
    assert_int_equal(next_user(rd, &ev), EVT_OK); /* kernel_info */
    assert_int_equal(rd->kernel, EVT_HOOK_KERNEL_UTKERNEL);
    assert_true(rd->caps & EVT_CAP_SCHED);
    assert_int_equal(next_user(rd, &ev), EVT_OK); /* obj_create */
    assert_true(ev.m.has & EVT_M_OBJ_TYPE);
    assert_int_equal(ev.m.obj_type, EVT_HOOK_OBJ_INTERRUPT);
    assert_int_equal(next_user(rd, &ev), EVT_OK); /* thread_in */
    assert_true(ev.m.has & EVT_M_RUNS_NOW);
    assert_int_equal(ev.m.ctx_prio, 5);
    assert_int_equal(next_user(rd, &ev), EVT_OK); /* isr_enter */
    assert_true((ev.m.has & (EVT_M_IRQ | EVT_M_LABEL)) == (EVT_M_IRQ | EVT_M_LABEL));
    assert_int_equal(ev.m.irq, 11);
    assert_string_equal(ev.m.label, "adc");
    assert_int_equal(next_user(rd, &ev), EVT_OK); /* isr_exit */
    assert_int_equal(next_user(rd, &ev), EVT_OK); /* svc_enter */
    assert_string_equal(ev.m.label, "tk_wai_sem");
    assert_true(ev.m.has & EVT_M_OP);
    assert_int_equal(ev.m.op, EVT_OP_TAKE);
    assert_int_equal(ev.m.obj, (UTK_OC_SEM << 16) | 0x7); /* the canonical id: as the adapter creates it */
    assert_int_equal(ev.m.obj_type, EVT_HOOK_OBJ_SEMAPHORE);
    assert_int_equal(next_user(rd, &ev), EVT_OK); /* svc_leave */
    assert_string_equal(ev.m.label, "tk_wai_sem"); /* pairs with its enter by label */
    assert_int_equal(ev.m.op_result, EVT_RES_TIMEOUT);
    assert_int_equal(next_user(rd, &ev), EVT_OK); /* thread_out */
    assert_true(ev.m.has & EVT_M_STOP_STATE);
    assert_int_equal(ev.m.stop_state, EVT_HOOK_STATE_WAITING);
    assert_int_equal(next_user(rd, &ev), EVT_END);
    evt_reader_close(rd);
}

/* hook.clock: a 64-bit rate (5 GHz: more than 32 bits; TCFG's 16-bit field says 1000 here) and
 * the kernel profile, known when the reader opens, before its first event; the scanner finds it
 * with escaped bytes in its value and not in a stream without one. */
static void test_clock_record(void **st)
{
    (void)st;
    evt_rkh_recorder r;
    recorder_start(&r);
    evt_rkh_hooks_clock(EVT_HOOK_KERNEL_FREERTOS, 1000u); /* detached: writes nothing */
    evt_rkh_hooks_attach(&r);
    const uint64_t hz = 0x12A05F27Dull; /* 5 000 000 125: the low word holds 0x7D (escaped) */
    evt_rkh_hooks_clock(EVT_HOOK_KERNEL_FREERTOS, hz);
    evt_rkh_hooks_clock(EVT_HOOK_KERNEL_FREERTOS, 0); /* no rate: nothing */
    evt_rkh_hook_thread_in(0x20000100u, 5);
    evt_rkh_hooks_attach(NULL);

    uint32_t k = 99;
    uint64_t got = 0;
    assert_int_equal(rkh_clock_scan(g_out.p, g_out.n, &k, &got), 1);
    assert_int_equal(k, EVT_HOOK_KERNEL_FREERTOS);
    assert_true(got == hz);
    evt_reader *rd;
    char err[256];
    assert_int_equal(evt_reader_open_mem(g_out.p, g_out.n, NULL, NULL, NULL, NULL, &rd, err, sizeof err), EVT_OK);
    assert_true(rd->clock_hz == hz);          /* before the first event */
    assert_int_equal(rd->kernel, EVT_HOOK_KERNEL_FREERTOS);
    evt_event ev;
    int clocks = 0;
    while (next_user(rd, &ev) == EVT_OK) {
        const char *un = str_field(&ev, "user_event");
        clocks += un && strcmp(un, "hook.clock") == 0;
    }
    assert_int_equal(clocks, 1);
    assert_true(rd->clock_hz == hz);          /* the TCFG's 1000 did not replace it */
    evt_reader_close(rd);

    /* a stream without the record: not found */
    recorder_start(&r);
    evt_rkh_hooks_attach(&r);
    evt_rkh_hook_kernel_info(EVT_HOOK_KERNEL_FREERTOS, 1);
    evt_rkh_hooks_attach(NULL);
    assert_int_equal(rkh_clock_scan(g_out.p, g_out.n, &k, &got), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_hook_round_trips),
        cmocka_unit_test(test_hook_records_named_by_meaning),
        cmocka_unit_test(test_filtered_hooks_write_nothing),
        cmocka_unit_test(test_hooks_meaning_from_the_profile),
        cmocka_unit_test(test_clock_record),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
