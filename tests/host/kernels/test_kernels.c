/* Kernel profiles (src/host/kernels/): every profile is found by id and by name, its service
 * table is sorted (binary search), its priority order is the kernel's (lower wins: generic,
 * μT-Kernel, ThreadX, RKH, Zephyr; higher wins: FreeRTOS, embOS, Windows); Zephyr's native thread
 * states map to the generic stop states; and end to end, an RKH hooks stream that names Zephyr or
 * embOS is decoded with that profile's states and order (what the timeline and inversions use). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "evt_counter_clock.h"
#include <string.h>
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_profile),
        cmocka_unit_test(zephyr_states),
        cmocka_unit_test(hooks_streams_use_the_profile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
