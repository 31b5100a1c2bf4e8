/* Kernel profiles (src/host/kernels/): every profile is found by id and by name, its service
 * table is sorted (binary search), its priority order is the kernel's (lower wins: generic,
 * μT-Kernel, ThreadX, RKH, Zephyr; higher wins: FreeRTOS, embOS, Windows); Zephyr's native thread
 * states map to the generic stop states; and end to end, an RKH hooks stream that names Zephyr or
 * embOS is decoded with that profile's states and order (what the timeline and inversions use);
 * timer services are timer operations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "evt_counter_clock.h"
#include <string.h>
#include "evtrace/freertos_svc.h"
#include "evtrace/hooks.h"
#include "evtrace/reader.h"
#include "evtrace/rkh.h"
#include "formats/rkh/rkh_hooks.h"
#include "host/kernels/kernel_profile.h"

EVT_HOOK_DECLARE_BACKEND(rkh)

static void every_profile(void **st)
{
    (void)st;
    static const struct { unsigned id; const char *name; int higher; } want[] = {
        {EVT_HOOK_KERNEL_GENERIC, "generic", 0}, {EVT_HOOK_KERNEL_UTKERNEL, "utkernel", 0},
        {EVT_HOOK_KERNEL_THREADX, "threadx", 0}, {EVT_HOOK_KERNEL_FREERTOS, "freertos", 1},
        {EVT_HOOK_KERNEL_RKH, "rkh", 0},         {EVT_HOOK_KERNEL_ZEPHYR, "zephyr", 0},
        {EVT_HOOK_KERNEL_EMBOS, "embos", 1},     {EVT_HOOK_KERNEL_WINDOWS, "windows", 1},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const evt_kernel_profile *p = evt_kernel_profile_by_id(want[i].id);
        assert_non_null(p);
        assert_ptr_equal(p, evt_kernel_profile_by_name(want[i].name));
        assert_string_equal(p->name, want[i].name);
        assert_int_equal(p->higher_prio_wins, want[i].higher);
        assert_int_equal(evt_kernel_prio_higher(p, 5, 1), want[i].higher); /* is 5 more urgent than 1? */
        for (size_t k = 1; k < p->nsvcs; k++) assert_true(p->svcs[k - 1].code < p->svcs[k].code);
        for (size_t k = 0; k < p->nsvcs; k++) assert_ptr_equal(evt_kernel_svc_find(p, p->svcs[k].code), &p->svcs[k]);
    }
}

static void zephyr_states(void **st)
{
    (void)st;
    const evt_kernel_profile *z = evt_kernel_profile_by_name("zephyr");
    static const struct { uint32_t native; evt_hook_state gen; } map[] = {
        {0x00, EVT_HOOK_STATE_READY},     {0x02, EVT_HOOK_STATE_WAITING},        {0x08, EVT_HOOK_STATE_DORMANT},
        {0x10, EVT_HOOK_STATE_SUSPENDED}, {0x12, EVT_HOOK_STATE_WAIT_SUSPENDED}, {0x80, EVT_HOOK_STATE_READY},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        evt_meaning m;
        memset(&m, 0, sizeof m);
        assert_int_equal(evt_kernel_meaning_state(z, map[i].native, &m), 1);
        assert_true(m.has & EVT_M_STOP_STATE);
        assert_int_equal(m.stop_state, map[i].gen);
    }
    evt_meaning m;
    memset(&m, 0, sizeof m);
    assert_int_equal(evt_kernel_meaning_state(z, 0x40, &m), 0); /* not in the table: untouched */
    assert_int_equal(m.has, 0);
}

/* FreeRTOS: a failed send, receive or peek says how it failed, by code (freertos_svc.h): refused at
 * once (no wait: would_block, as from an ISR) or a wait that ran out (timeout), with the same
 * label and operation, for each queue type. */
static void freertos_refused_or_timed_out(void **st)
{
    (void)st;
    const evt_kernel_profile *p = evt_kernel_profile_by_name("freertos");
    static const struct { unsigned failed, refused; const char *sem; evt_obj_op sop; } ev[] = {
        {EVT_FREERTOS_QEV_QUEUE_SEND_FAILED, EVT_FREERTOS_QEV_QUEUE_SEND_REFUSED, "xSemaphoreGive", EVT_OP_GIVE},
        {EVT_FREERTOS_QEV_QUEUE_RECEIVE_FAILED, EVT_FREERTOS_QEV_QUEUE_RECEIVE_REFUSED, "xSemaphoreTake", EVT_OP_TAKE},
        {EVT_FREERTOS_QEV_QUEUE_PEEK_FAILED, EVT_FREERTOS_QEV_QUEUE_PEEK_REFUSED, "xQueuePeek", EVT_OP_NONE},
    };
    for (size_t i = 0; i < sizeof ev / sizeof ev[0]; i++) {
        for (unsigned qt = 0; qt < EVT_FREERTOS_QTYPE_N; qt++) {
            int32_t f = (int32_t)EVT_FREERTOS_QCODE(ev[i].failed, qt), r = (int32_t)EVT_FREERTOS_QCODE(ev[i].refused, qt);
            const evt_kernel_svc *sf = evt_kernel_svc_find(p, f), *sr = evt_kernel_svc_find(p, r);
            assert_non_null(sf);
            assert_non_null(sr);
            assert_string_equal(sf->label, sr->label);
            assert_int_equal(sf->op, sr->op);
            assert_int_equal(sf->obj_type, sr->obj_type);
            assert_int_equal(p->result_of(f, 0), EVT_RES_TIMEOUT);
            assert_int_equal(p->result_of(r, 0), EVT_RES_WOULD_BLOCK);
        }
        const evt_kernel_svc *sem = evt_kernel_svc_find(p, (int32_t)EVT_FREERTOS_QCODE(ev[i].refused, 2));
        assert_string_equal(sem->label, ev[i].sem);
        assert_int_equal(sem->op, ev[i].sop);
    }
    /* the waits for bits and notifications: a timeout (or a take or wait returning 0) against a
     * call with no block time that found nothing */
    static const struct { int32_t timed_out, refused; } w[] = {
        {EVT_FREERTOS_EVENT_GROUP_WAIT_BITS_TIMEOUT, EVT_FREERTOS_EVENT_GROUP_WAIT_BITS_REFUSED},
        {EVT_FREERTOS_EVENT_GROUP_SYNC_TIMEOUT, EVT_FREERTOS_EVENT_GROUP_SYNC_REFUSED},
        {EVT_FREERTOS_TASK_NOTIFY_TAKE, EVT_FREERTOS_TASK_NOTIFY_TAKE_REFUSED},
        {EVT_FREERTOS_TASK_NOTIFY_WAIT, EVT_FREERTOS_TASK_NOTIFY_WAIT_REFUSED},
    };
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        const evt_kernel_svc *st_ = evt_kernel_svc_find(p, w[i].timed_out), *sr = evt_kernel_svc_find(p, w[i].refused);
        assert_non_null(st_);
        assert_non_null(sr);
        assert_string_equal(st_->label, sr->label);
        assert_int_equal(st_->op, sr->op);
        assert_int_equal(p->result_of(w[i].timed_out, 0), EVT_RES_TIMEOUT);
        assert_int_equal(p->result_of(w[i].refused, 0), EVT_RES_WOULD_BLOCK);
    }
}

typedef struct out_buf { uint8_t p[4096]; size_t n; } out_buf;
static void sink(void *user, const uint8_t *p, uint32_t n)
{
    out_buf *o = user;
    assert_true(o->n + n <= sizeof o->p);
    memcpy(o->p + o->n, p, n);
    o->n += n;
}

/* An RKH hooks stream naming kernel k: a thread stops in native state 0x12, the generic state left
 * to the kernel's profile (out of range: the reader maps the native one). */
static void stream_of(unsigned k, out_buf *out)
{
    static uint8_t ring[2048];
    evt_rkh_recorder r;
    evt_rkh_config cfg;
    evt_rkh_config_default(&cfg);
    out->n = 0;
    evt_rkh_init(&r, &cfg, ring, sizeof ring, evt_test_clock32, 1000u);
    evt_rkh_set_sink(&r, sink, out);
    evt_rkh_hooks_attach(&r);
    evt_rkh_hook_kernel_info(k, 1);
    evt_rkh_hook_thread_in(0x100, 3);
    evt_rkh_hook_thread_out(0x100, (evt_hook_state)0xFF, 0x12);
    evt_rkh_hooks_attach(NULL);
}

static void hooks_streams_use_the_profile(void **st)
{
    (void)st;
    static out_buf out;
    static const struct { unsigned k; int higher; int has_stop; evt_hook_state stop; } want[] = {
        {EVT_HOOK_KERNEL_ZEPHYR, 0, 1, EVT_HOOK_STATE_WAIT_SUSPENDED}, /* pending | suspended */
        {EVT_HOOK_KERNEL_EMBOS, 1, 0, EVT_HOOK_STATE_READY},           /* no native states: none named */
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        stream_of(want[i].k, &out);
        evt_reader *rd;
        char err[256];
        assert_int_equal(evt_reader_open_mem(out.p, out.n, NULL, NULL, NULL, NULL, &rd, err, sizeof err), EVT_OK);
        evt_event ev;
        int stops = 0;
        while (evt_reader_next(rd, &ev) == EVT_OK)
            if (ev.kind == EVT_KIND_THREAD_STOP) {
                stops++;
                assert_int_equal((ev.m.has & EVT_M_STOP_STATE) != 0, want[i].has_stop);
                if (want[i].has_stop) assert_int_equal(ev.m.stop_state, want[i].stop);
            }
        assert_int_equal(stops, 1);
        assert_int_equal(evt_reader_effective_kernel(rd), (int)want[i].k);
        assert_int_equal(evt_reader_higher_prio_wins(rd), want[i].higher);
        evt_reader_close(rd);
    }
}

/* The service of profile p labelled label (NULL: none). */
static const evt_kernel_svc *svc_labelled(const evt_kernel_profile *p, const char *label)
{
    for (size_t k = 0; k < p->nsvcs; k++)
        if (strcmp(p->svcs[k].label, label) == 0) return &p->svcs[k];
    return NULL;
}

/* Timers: ThreadX's activate/deactivate and μT-Kernel's start/stop of a cyclic handler or an alarm
 * are the operations activate/deactivate on a timer object (stats objects[].ops, which
 * tx_timer_performance_info_get answers); a refused activation is an error by its return value. */
static void timer_operations(void **st)
{
    (void)st;
    static const struct { unsigned kernel; const char *label; evt_obj_op op; } want[] = {
        {EVT_HOOK_KERNEL_THREADX, "TIMER_ACTIVATE", EVT_OP_ACTIVATE},
        {EVT_HOOK_KERNEL_THREADX, "TIMER_DEACTIVATE", EVT_OP_DEACTIVATE},
        {EVT_HOOK_KERNEL_UTKERNEL, "tk_sta_cyc", EVT_OP_ACTIVATE},
        {EVT_HOOK_KERNEL_UTKERNEL, "tk_stp_cyc", EVT_OP_DEACTIVATE},
        {EVT_HOOK_KERNEL_UTKERNEL, "tk_sta_alm", EVT_OP_ACTIVATE},
        {EVT_HOOK_KERNEL_UTKERNEL, "tk_stp_alm", EVT_OP_DEACTIVATE},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const evt_kernel_profile *p = evt_kernel_profile_by_id(want[i].kernel);
        const evt_kernel_svc *s = svc_labelled(p, want[i].label);
        assert_non_null(s);
        evt_meaning m;
        memset(&m, 0, sizeof m);
        assert_ptr_equal(evt_kernel_meaning_of(p, s, s->code, 1, 0, &m), s);
        assert_true(m.has & EVT_M_OP);
        assert_int_equal(m.op, want[i].op);
        assert_int_equal(m.obj_type, EVT_HOOK_OBJ_TIMER);
        assert_string_equal(evt_obj_op_name((evt_obj_op)m.op), want[i].op == EVT_OP_ACTIVATE ? "activate" : "deactivate");
    }
    const evt_kernel_profile *tx = evt_kernel_profile_by_id(EVT_HOOK_KERNEL_THREADX);
    const evt_kernel_svc *act = svc_labelled(tx, "TIMER_ACTIVATE");
    evt_meaning m;
    memset(&m, 0, sizeof m);
    evt_kernel_meaning_of(tx, act, act->code, 1, 0x17, &m); /* TX_ACTIVATE_ERROR */
    assert_int_equal(m.op_result, EVT_RES_ERROR);
    memset(&m, 0, sizeof m);
    evt_kernel_meaning_of(tx, act, act->code, 1, 0, &m);
    assert_int_equal(m.op_result, EVT_RES_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_profile),
        cmocka_unit_test(zephyr_states),
        cmocka_unit_test(freertos_refused_or_timed_out),
        cmocka_unit_test(hooks_streams_use_the_profile),
        cmocka_unit_test(timer_operations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
