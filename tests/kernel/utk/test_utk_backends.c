/* One μT-Kernel run recorded through both hooks backends at once: the DS adapter
 * (src/kernel/utk/utk_adapter.c, compiled here with a "tee" backend that calls the TXTB and the
 * RKH backend for every hook) under the scripted scenario on the host kernel. Both decoded traces
 * must name every object the same way: the same object ids for creations and for the objects of
 * the service calls (one canonical id, class << 16 | id, whichever backend recorded the call),
 * every operation's object one that was created, and the same operations per object (the waits'
 * starts and ends included). */
#define EVT_CFG_HOOKS_BACKEND tee
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "evtrace/reader.h"
#include "evtrace/rkh.h"
#include "formats/rkh/rkh_hooks.h"
#include "formats/threadx/txtb_hooks.h"
#include "utk_kernel.h"
#include "utk_scenario.h"

/* The adapter itself, on the tee backend (its symbols replace the library's in this program). */
#include "kernel/utk/utk_adapter.c"

EVT_HOOK_DECLARE_BACKEND(txtb)
EVT_HOOK_DECLARE_BACKEND(rkh)

#define TEE_(what, ...)                      \
    do {                                     \
        evt_txtb_hook_##what(__VA_ARGS__);   \
        evt_rkh_hook_##what(__VA_ARGS__);    \
    } while (0)
void evt_tee_hook_kernel_info(uint32_t k, uint32_t v) { TEE_(kernel_info, k, v); }
void evt_tee_hook_thread_in(uintptr_t t, uint32_t p) { TEE_(thread_in, t, p); }
void evt_tee_hook_thread_out(uintptr_t t, evt_hook_state s, uint32_t n) { TEE_(thread_out, t, s, n); }
void evt_tee_hook_isr_enter(uint32_t irq) { TEE_(isr_enter, irq); }
void evt_tee_hook_isr_exit(uint32_t irq) { TEE_(isr_exit, irq); }
void evt_tee_hook_svc_enter(int32_t c, uint32_t n, const uintptr_t *a) { TEE_(svc_enter, c, n, a); }
void evt_tee_hook_svc_leave(int32_t c, int32_t r, int p) { TEE_(svc_leave, c, r, p); }
void evt_tee_hook_obj_create(evt_hook_obj t, uintptr_t o, const char *n, uint32_t p) { TEE_(obj_create, t, o, n, p); }
void evt_tee_hook_obj_delete(evt_hook_obj t, uintptr_t o) { TEE_(obj_delete, t, o); }
void evt_tee_hook_user(uint32_t id, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4) { TEE_(user, id, a1, a2, a3, a4); }
void evt_tee_hook_thread_switch(uintptr_t f, evt_hook_state s, uint32_t n, uintptr_t b, uintptr_t t, uint32_t p)
{
    TEE_(thread_switch, f, s, n, b, t, p);
}
void evt_tee_hook_thread_ready(uintptr_t t) { TEE_(thread_ready, t); }
void evt_tee_hook_prio_set(uintptr_t t, uint32_t p, evt_hook_prio_why w) { TEE_(prio_set, t, p, w); }
void evt_tee_hook_obj_name(evt_hook_obj t, uintptr_t o, const char *n) { TEE_(obj_name, t, o, n); }
void evt_tee_hook_obj_op(int32_t c, uintptr_t o, int32_t r) { TEE_(obj_op, c, o, r); }

#define REGISTRY_ENTRIES 32u
#define EVENT_SLOTS 4096u
static uint8_t g_txtb[48u + REGISTRY_ENTRIES * 48u + EVENT_SLOTS * 32u];
static uint8_t g_ring[1u << 16];
static struct { uint8_t p[1u << 20]; size_t n; } g_rkh;
static void sink(void *user, const uint8_t *p, uint32_t n)
{
    (void)user;
    assert_true(g_rkh.n + n <= sizeof g_rkh.p);
    memcpy(g_rkh.p + g_rkh.n, p, n);
    g_rkh.n += n;
}

#define MAXO 64
/* What a decoded trace says about objects: created ids, and per operation the object and count. */
typedef struct objs {
    uint64_t created[MAXO];
    size_t ncreated;
    struct { uint8_t op; uint64_t obj; unsigned n; } ops[MAXO];
    size_t nops, total;
} objs;

static void decode(const uint8_t *b, size_t n, const char *fmt, objs *o)
{
    memset(o, 0, sizeof *o);
    evt_reader *r;
    char err[256];
    assert_int_equal(evt_reader_open_mem(b, n, fmt, NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    for (;;) {
        evt_event_reset(&ev);
        evt_status st = evt_reader_next(r, &ev);
        if (st == EVT_END) break;
        assert_int_equal(st, EVT_OK);
        /* kernel objects (an interrupt's name is no object an operation names: each backend keys it its own way) */
        if (ev.kind == EVT_KIND_OBJ_CREATE && (ev.flags & EVT_HAS_TARGET) && o->ncreated < MAXO &&
            !((ev.m.has & EVT_M_OBJ_TYPE) && ev.m.obj_type == EVT_HOOK_OBJ_INTERRUPT))
            o->created[o->ncreated++] = ev.target;
        /* an operation on its object: the call's entry (its exit carries the result only) */
        if (!(ev.m.has & EVT_M_OP) || ev.m.op == EVT_OP_NONE || ev.kind == EVT_KIND_SVC_EXIT) continue;
        o->total++;
        size_t k = 0;
        while (k < o->nops && !(o->ops[k].op == ev.m.op && o->ops[k].obj == ev.m.obj)) k++;
        if (k == o->nops) {
            assert_true(o->nops < MAXO);
            o->ops[o->nops].op = ev.m.op;
            o->ops[o->nops].obj = ev.m.obj;
            o->nops++;
        }
        o->ops[k].n++;
    }
    evt_reader_close(r);
}

static int has_(const uint64_t *v, size_t n, uint64_t x)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] == x) return 1;
    return 0;
}

static void same_objects_through_both_backends(void **st)
{
    (void)st;
    evt_tx_options o;
    memset(&o, 0, sizeof o);
    o.time_source = utk_now32;
    o.base_address = 0x20000000u;
    evt_txtb_hooks_reset();
    assert_int_equal(evt_txtb_hooks_enable(g_txtb, sizeof g_txtb, REGISTRY_ENTRIES, &o, EVT_HOOK_KERNEL_UTKERNEL),
                     EVT_TX_SUCCESS);
    evt_rkh_recorder rk;
    evt_rkh_config cfg;
    evt_rkh_config_default(&cfg);
    evt_rkh_init(&rk, &cfg, g_ring, sizeof g_ring, utk_now32, UTK_CLOCK_HZ);
    evt_rkh_set_sink(&rk, sink, NULL);
    evt_rkh_hooks_attach(&rk);
    evt_rkh_hook_kernel_info(EVT_HOOK_KERNEL_UTKERNEL, 1);
    evt_rkh_hooks_clock(EVT_HOOK_KERNEL_UTKERNEL, UTK_CLOCK_HZ);

    utk_scenario scn = UTK_SCENARIO_DEFAULT;
    utk_config kc;
    memset(&kc, 0, sizeof kc);
    assert_int_equal(utk_boot(&kc, utk_scenario_main, 1, &scn), 0);
    evt_tx_trace_disable();
    evt_rkh_flush(&rk);
    evt_rkh_hooks_attach(NULL);

    static objs a, b;
    decode(g_txtb, sizeof g_txtb, "threadx", &a);
    decode(g_rkh.p, g_rkh.n, "rkh", &b);
    assert_true(a.total > 10);            /* the scenario's semaphore, flag, mailbox calls */
    assert_true(a.ncreated >= 4);
    assert_int_equal(a.total, b.total);
    assert_int_equal(a.nops, b.nops);
    for (size_t i = 0; i < a.nops; i++) {
        assert_true(has_(a.created, a.ncreated, a.ops[i].obj)); /* the object its creation named */
        int found = 0;
        for (size_t k = 0; k < b.nops; k++)
            if (b.ops[k].op == a.ops[i].op && b.ops[k].obj == a.ops[i].obj) {
                assert_int_equal(b.ops[k].n, a.ops[i].n);
                found = 1;
            }
        assert_true(found);
    }
    /* the waits (formats/common/hook_wait.c) too: each object's wait_start and wait_end alike */
    unsigned waits = 0;
    for (size_t i = 0; i < a.nops; i++)
        if (a.ops[i].op == EVT_OP_WAIT_START || a.ops[i].op == EVT_OP_WAIT_END) waits += a.ops[i].n;
    assert_true(waits >= 24);
    for (size_t i = 0; i < b.ncreated; i++) {
        assert_true(has_(a.created, a.ncreated, b.created[i]));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_objects_through_both_backends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
