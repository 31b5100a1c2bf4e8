/* The TXTB backend of the generic kernel hooks (src/formats/threadx/txtb_hooks_enc.c), word by word
 * against the mapping of docs/hooks.md, with a counter clock: context and priority words from the
 * switch/ISR hooks, EVTRACE_SVC_ENTER/EXIT (191/192) fields, THREAD_RESUME/SUSPEND states, the
 * registry (profile marker, thread with priority, object, interrupt name), user events; then the
 * reader-side helper (txtb_hooks_dec) maps the same slots back to canonical kinds and names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "evt_counter_clock.h"
#include "evt_test.h"
#include "formats/common/bytes.h"
#include "formats/threadx/txtb_defs.h"
#include "formats/threadx/txtb_hooks.h"
#include "formats/threadx/txtb_hooks_dec.h"
#include "kernel/utk/utk_fncd.h"

#define NREG 8u
#define NAME 32u
#define NSLOT 64u
static uint8_t g_buf[TXTB_HEADER_SIZE + NREG * (TXTB_REG_FIXED_SIZE + NAME) + NSLOT * TXTB_EVENT_SIZE];

#define EV0 (TXTB_HEADER_SIZE + NREG * (TXTB_REG_FIXED_SIZE + NAME))
static void slot(unsigned i, uint32_t w[8])
{
    for (int k = 0; k < 8; k++) w[k] = evt_ld_u32le(g_buf + EV0 + i * TXTB_EVENT_SIZE + 4u * (unsigned)k);
}
static const uint8_t *reg(unsigned i) { return g_buf + TXTB_HEADER_SIZE + i * (TXTB_REG_FIXED_SIZE + NAME); }
/* Registry entry with this pointer, or NULL. */
static const uint8_t *reg_find(uint32_t ptr)
{
    for (unsigned i = 0; i < NREG; i++)
        if (reg(i)[TXTB_REG_TYPE] && evt_ld_u32le(reg(i) + TXTB_REG_POINTER) == ptr) return reg(i);
    return NULL;
}
static const char *name_of(void *ctx, uint32_t addr, int want)
{
    (void)ctx;
    (void)want; /* the registry of this test holds no address twice */
    const uint8_t *e = reg_find(addr);
    return e ? (const char *)e + TXTB_REG_NAME : NULL;
}

static void expect(unsigned i, uint32_t ctx, uint32_t prio, uint32_t id, uint32_t ts, uint32_t i1, uint32_t i2,
                   uint32_t i3, uint32_t i4)
{
    uint32_t w[8];
    slot(i, w);
    assert_int_equal(w[0], ctx);
    assert_int_equal(w[1], prio);
    assert_int_equal(w[2], id);
    assert_int_equal(w[3], ts);
    assert_int_equal(w[4], i1);
    assert_int_equal(w[5], i2);
    assert_int_equal(w[6], i3);
    assert_int_equal(w[7], i4);
}

static void test_records(void **state)
{
    (void)state;
    evt_tx_options o;
    memset(&o, 0, sizeof o);
    o.big_endian = 0;
    o.time_source = evt_test_clock32;
    evt_test_ticks = 0;
    evt_txtb_hooks_reset();
    assert_int_equal(evt_txtb_hooks_enable(g_buf, sizeof g_buf, NREG, &o, EVT_HOOK_KERNEL_UTKERNEL), EVT_TX_SUCCESS);
    EVT_HOOK_OBJ_CREATE(EVT_HOOK_OBJ_THREAD, 2, "sensor", 5);                  /* slot 2 (0,1 RUNNING) */
    EVT_HOOK_OBJ_CREATE(EVT_HOOK_OBJ_INTERRUPT, 5, "adc", 5);                   /* registry only */
    EVT_HOOK_THREAD_IN(2, 5);                                                   /* 3 */
    uintptr_t a[4] = {0x20001, 1, (uintptr_t)-1, 99};
    EVT_HOOK_SVC_ENTER(UTK_TFN_tk_wai_sem, 4, a);                               /* 4: arg 4 dropped */
    EVT_HOOK_THREAD_OUT(2, EVT_HOOK_STATE_WAITING, 0x04);                      /* 5 */
    EVT_HOOK_ISR_ENTER(5);                                                      /* 6 */
    EVT_HOOK_SVC_ENTER(UTK_TFN_tk_sig_sem, 2, a);                               /* 7 */
    EVT_HOOK_SVC_LEAVE(UTK_TFN_tk_sig_sem, 0, 1);                               /* 8 */
    EVT_HOOK_ISR_EXIT(5);                                                       /* 9 */
    EVT_HOOK_THREAD_IN(2, 5);                                                   /* 10 */
    EVT_HOOK_SVC_LEAVE(UTK_TFN_tk_wai_sem, -50, 0);                             /* 11: E_TMOUT, unpaired */
    EVT_HOOK_OBJ_CREATE(EVT_HOOK_OBJ_SEMAPHORE, 0x20001, "adc_sem", 3);         /* 12 */
    EVT_HOOK_OBJ_DELETE(EVT_HOOK_OBJ_SEMAPHORE, 0x20001);                       /* 13 */
    EVT_HOOK_USER(7, 1, 2, 3, 4);                                               /* 14 */
    evt_tx_trace_disable();

    const uint32_t T = TXTB_PRIO_CURRENT_BIT | 5u, I = TXTB_CTX_INIT, X = TXTB_CTX_ISR;
    expect(2, I, 0, TXTB_EVENT_THREAD_CREATE, 2, 2, 5, 0, 0);
    expect(3, 2, T, TXTB_EVENT_THREAD_RESUME, 3, 2, 0, 0, 0);
    expect(4, 2, T, 191, 4, (uint32_t)UTK_TFN_tk_wai_sem, 0x20001, 1, 0xFFFFFFFFu);
    expect(5, 2, T, TXTB_EVENT_THREAD_SUSPEND, 5, 2, 4 /* TX_SLEEP */, (1u << 16) | 0x04, 0);
    uint32_t w[8];
    slot(6, w);                     /* ISR_ENTER: stk in info1 is a stack address */
    assert_int_equal(w[0], X);
    assert_int_equal(w[1], 0);      /* interrupted nothing: the thread had stopped */
    assert_int_equal(w[2], TXTB_EVENT_ISR_ENTER);
    assert_int_equal(w[5], 5);
    assert_int_equal(w[6], 1);      /* system state = nesting */
    expect(7, X, 0, 191, 7, (uint32_t)UTK_TFN_tk_sig_sem, 0x20001, 1, 0);
    expect(8, X, 0, 192, 8, (uint32_t)UTK_TFN_tk_sig_sem, 0, 1, 0);
    slot(9, w);
    assert_int_equal(w[0], X);
    assert_int_equal(w[2], TXTB_EVENT_ISR_EXIT);
    assert_int_equal(w[5], 5);
    expect(10, 2, T, TXTB_EVENT_THREAD_RESUME, 10, 2, 0, 0, 0);
    expect(11, 2, T, 192, 11, (uint32_t)UTK_TFN_tk_wai_sem, (uint32_t)-50, 0, 0);
    expect(12, 2, T, TXTB_EVENT_SEMAPHORE_CREATE, 12, 0x20001, 3, 0, 0);
    expect(13, 2, T, TXTB_EVENT_SEMAPHORE_DELETE, 13, 0x20001, 0, 0, 0);
    expect(14, 2, T, TXTB_USER_EVENT_START + 7, 14, 1, 2, 3, 4);

    /* registry: profile marker, thread with priority bytes, interrupt name, deleted semaphore */
    const uint8_t *e = reg_find(TXTB_HOOKS_MAGIC);
    assert_non_null(e);
    assert_int_equal(e[TXTB_REG_TYPE], TXTB_OBJ_EVTRACE_HOOKS);
    assert_int_equal(evt_ld_u32le(e + TXTB_REG_PARAM1), EVT_HOOK_KERNEL_UTKERNEL);
    assert_int_equal(evt_ld_u32le(e + TXTB_REG_PARAM2), TXTB_HOOKS_VERSION);
    assert_string_equal((const char *)e + TXTB_REG_NAME, "utkernel");
    e = reg_find(2);
    assert_int_equal(e[TXTB_REG_TYPE], TXTB_OBJ_THREAD);
    assert_int_equal(e[TXTB_REG_RESERVED1], 0x80);
    assert_int_equal(e[TXTB_REG_RESERVED2], 5);
    assert_string_equal((const char *)e + TXTB_REG_NAME, "sensor");
    e = reg_find(TXTB_HOOKS_IRQ_BASE | 5);
    assert_string_equal((const char *)e + TXTB_REG_NAME, "adc");
    e = reg_find(0x20001);
    assert_int_equal(e[TXTB_REG_TYPE], TXTB_OBJ_SEMAPHORE);
    assert_int_equal(e[TXTB_REG_AVAILABLE], 1);   /* deleted */

    /* reader-side helper: the same slots back to canonical kinds and names */
    txtb_hooks_dec h;
    txtb_hooks_dec_init(&h);
    for (unsigned i = 0; i < NREG; i++)
        if (reg(i)[TXTB_REG_TYPE])
            txtb_hooks_dec_registry(&h, reg(i)[TXTB_REG_TYPE], evt_ld_u32le(reg(i) + TXTB_REG_POINTER),
                                    evt_ld_u32le(reg(i) + TXTB_REG_PARAM1), evt_ld_u32le(reg(i) + TXTB_REG_PARAM2));
    assert_true(h.active);
    assert_int_equal(h.kernel, EVT_HOOK_KERNEL_UTKERNEL);
    evt_event ev;
    evt_event_reset(&ev);
    slot(4, w);
    assert_int_equal(txtb_hooks_dec_event(&h, w[2], w, &ev, name_of, NULL), 1);
    assert_int_equal(ev.kind, EVT_KIND_SVC_ENTER);
    assert_string_equal(ev.name, "tk_wai_sem");
    assert_int_equal(ev.target, 0x20001);
    assert_string_equal(ev.target_name, "adc_sem");   /* still in the registry (available) */
    evt_event_reset(&ev);
    slot(11, w);
    txtb_hooks_dec_event(&h, w[2], w, &ev, name_of, NULL);
    assert_int_equal(ev.kind, EVT_KIND_SVC_EXIT);
    assert_string_equal(ev.name, "tk_wai_sem");
    int seen = 0;
    for (uint32_t k = 0; k < ev.nfields; k++) {
        if (strcmp(ev.fields[k].key, "error") == 0) { assert_string_equal(ev.fields[k].str, "E_TMOUT"); seen |= 1; }
        if (strcmp(ev.fields[k].key, "paired") == 0) { assert_int_equal(ev.fields[k].num, 0); seen |= 2; }
        if (strcmp(ev.fields[k].key, "ret") == 0) { assert_int_equal((int64_t)ev.fields[k].num, -50); seen |= 4; }
    }
    assert_int_equal(seen, 7);
    evt_event_reset(&ev);
    slot(5, w);
    evt_event_add_field_s(&ev, "state", "SLEEP");   /* what the TXTB reader itself puts there */
    txtb_hooks_dec_event(&h, w[2], w, &ev, name_of, NULL);
    assert_string_equal(ev.fields[0].str, "TTS_WAI");
    evt_event_reset(&ev);
    slot(6, w);
    txtb_hooks_dec_event(&h, w[2], w, &ev, name_of, NULL);
    assert_string_equal(ev.name, "adc");
    /* without the profile marker: generic names, states untouched */
    txtb_hooks_dec_init(&h);
    evt_event_reset(&ev);
    slot(4, w);
    txtb_hooks_dec_event(&h, w[2], w, &ev, name_of, NULL);
    assert_string_equal(ev.name, "svc_0x80190300");
    evt_event_reset(&ev);
    slot(5, w);
    assert_int_equal(txtb_hooks_dec_event(&h, w[2], w, &ev, name_of, NULL), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_records)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
