/* Unit and golden tests of the TXTB recorder (src/formats/threadx/txtb_enc.c): a fixed script with
 * a counter clock gives byte-exact buffers (tests/data/threadx/txtb_enc_{le,be}.expect) in both
 * byte orders, plus enable error codes, registry rules (threadx.md §7), filters, buffer-full
 * callback, the LOST record and the port-default context.
 * Regenerate the golden files (then inspect them!) with EVT_TXTB_WRITE_GOLDEN=1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evt_counter_clock.h"
#include "evt_test.h"
#include "evtrace/port.h"
#include "evtrace/txtb.h"
#include "formats/common/bytes.h"
#include "formats/threadx/txtb_defs.h"
#include "formats/threadx/txtb_stash.h"

/* ---- fixtures: counter clock, fixed context ---------------------------------------------------- */

static evt_tx_context g_ctx; /* what the context callback reports */
static unsigned g_full_calls;
static void *g_full_arg;

static void fixed_context(evt_tx_context *out) { *out = g_ctx; }
static void on_full(void *buf) { g_full_calls++; g_full_arg = buf; }

static void set_ctx(uint32_t context, uint32_t prio, uint32_t sys, uint32_t preempt, uint32_t stack)
{
    g_ctx.context = context;
    g_ctx.priority_word = prio;
    g_ctx.system_state = sys;
    g_ctx.preempt_disable = preempt;
    g_ctx.stack = stack;
}

static int reset(void **st)
{
    (void)st;
    (void)evt_tx_trace_disable();
    evt_tx_trace_buffer_full_notify(NULL);
    evt_test_ticks = 0;
    g_full_calls = 0;
    g_full_arg = NULL;
    set_ctx(TXTB_CTX_INIT, 0, 0, 0, 0x2000FF00u);
    evt_posix_in_isr = 0;
    return 0;
}

static evt_tx_options opts(int big, uint32_t base)
{
    evt_tx_options o;
    memset(&o, 0, sizeof o);
    o.big_endian = big;
    o.time_source = evt_test_clock32;
    o.context = fixed_context;
    o.base_address = base;
    return o;
}

/* Word / byte access in the buffer's order. */
static uint32_t w32(const uint8_t *b, size_t off, int big) { return evt_ld_u32(b + off, big); }
static const uint8_t *slot(const uint8_t *b, uint32_t reg, uint32_t esz, uint32_t i)
{
    return b + TXTB_HEADER_SIZE + reg * esz + i * TXTB_EVENT_SIZE;
}
static void assert_slot(const uint8_t *s, int big, uint32_t ctx, uint32_t prio, uint32_t id, uint32_t ts,
                        uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4)
{
    assert_int_equal(w32(s, 0, big), ctx);
    assert_int_equal(w32(s, 4, big), prio);
    assert_int_equal(w32(s, 8, big), id);
    assert_int_equal(w32(s, 12, big), ts);
    assert_int_equal(w32(s, 16, big), i1);
    assert_int_equal(w32(s, 20, big), i2);
    assert_int_equal(w32(s, 24, big), i3);
    assert_int_equal(w32(s, 28, big), i4);
}

/* ---- the golden script ------------------------------------------------------------------------- */

#define G_R      4u
#define G_N      8u
#define G_SLACK  5u
#define G_SIZE   (48u + 48u * G_R + 32u * G_N + G_SLACK) /* 501 */
#define G_BASE   0x20000000u
#define T_MAIN   0x20001000u
#define T_LONG   0x20001100u
#define Q_0      0x20003000u
#define SEM_0    0x20003300u
#define FLAGS_0  0x20003400u
#define P(a)     ((const void *)(uintptr_t)(a))

static const char k_long_name[] = "a_thread_with_a_very_long_name_exceeding_31";

/* Runs the fixed script into buf (prefilled with 0x5A first). */
static void golden_script(uint8_t *buf, int big)
{
    memset(buf, 0x5A, G_SIZE);
    evt_test_ticks = 0;
    evt_tx_options o = opts(big, G_BASE);
    evt_tx_trace_buffer_full_notify(on_full);
    set_ctx(TXTB_CTX_INIT, 0, 0, 0, 0x2000FF00u);
    assert_int_equal(evt_tx_trace_enable_ex(buf, G_SIZE, G_R, &o), EVT_TX_SUCCESS); /* slots 0,1 */
    evt_tx_trace_thread_register(P(T_MAIN), "main_thread", 0x20002000u, 1024u, 16u);      /* reg 0 */
    evt_tx_trace_object_register(TXTB_OBJ_QUEUE, P(Q_0), "queue_0", 40u, 1u);             /* reg 1 */
    evt_tx_trace_thread_register(P(T_LONG), k_long_name, 0x20002400u, 512u, 300u);         /* reg 2 */
    evt_tx_trace_kernel_event(TXTB_EVENT_THREAD_CREATE, T_MAIN, 16u, 0x20002000u, 1024u);  /* slot 2 */
    set_ctx(T_MAIN, 0x80100010u, 0, 0, 0x2000FF00u);
    assert_int_equal(evt_tx_trace_user_event_insert(4096u + 5u, 1u, 2u, 3u, 4u), EVT_TX_SUCCESS); /* 3 */
    evt_tx_trace_event_filter(EVT_TX_TRACE_QUEUE_EVENTS);
    evt_tx_trace_kernel_event(TXTB_EVENT_QUEUE_SEND, Q_0, 0x20004000u, 0xFFFFFFFFu, 0u);   /* filtered */
    assert_int_equal(evt_test_ticks, 4u); /* no clock read for the filtered event */
    evt_tx_trace_event_unfilter(EVT_TX_TRACE_QUEUE_EVENTS);
    evt_tx_trace_kernel_event(TXTB_EVENT_QUEUE_SEND, Q_0, 0x20004000u, 0xFFFFFFFFu, 0u);   /* slot 4 */
    set_ctx(TXTB_CTX_ISR, T_MAIN, 1u, 0u, 0x2000EE00u);
    evt_tx_trace_isr_enter_insert(7u);                                                     /* slot 5 */
    evt_tx_trace_isr_exit_insert(7u);                                                      /* slot 6 */
    set_ctx(T_MAIN, 0x80100010u, 0, 0, 0x2000FF00u);
    evt_tx_trace_interrupt_control(1u);                                 /* slot 7, then wrap */
    evt_tx_trace_object_unregister(P(Q_0));                             /* reg 1 available */
    evt_tx_trace_object_register(TXTB_OBJ_SEMAPHORE, P(SEM_0), "sem", 1u, 0u);  /* never-used reg 3 */
    evt_tx_trace_object_register(TXTB_OBJ_EVENT_FLAGS, P(FLAGS_0), "flags", 0u, 0u); /* reuses reg 1 */
    assert_int_equal(evt_tx_trace_user_event_insert(0x12345u, 0xDEADBEEFu, 0u, 0u, 0xFFFFFFFFu),
                     EVT_TX_SUCCESS);                                   /* slot 0 */
    evt_tx_trace_kernel_event(TXTB_EVENT_THREAD_SUSPEND, T_MAIN, 4u, 0x2000FF00u, 0u); /* slot 1 */
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
}

/* Hand-checked facts of the golden buffer (threadx.md §1), independent of the .expect files. */
static void check_golden_fields(const uint8_t *b, int big)
{
    const uint8_t id_be[4] = {0x54, 0x58, 0x54, 0x42}, id_le[4] = {0x42, 0x54, 0x58, 0x54};
    assert_memory_equal(b, big ? id_be : id_le, 4);
    assert_int_equal(w32(b, 4, big), 0xFFFFFFFFu);          /* timer mask */
    assert_int_equal(w32(b, 8, big), G_BASE);               /* base */
    assert_int_equal(w32(b, 12, big), G_BASE + 48u);        /* registry start */
    assert_int_equal(evt_ld_u16(b + 16, big), 0u);          /* reserved1 */
    assert_int_equal(evt_ld_u16(b + 18, big), 32u);         /* name size */
    assert_int_equal(w32(b, 20, big), G_BASE + 48u + 192u); /* registry end */
    assert_int_equal(w32(b, 24, big), G_BASE + 240u);       /* event start */
    assert_int_equal(w32(b, 28, big), G_BASE + 240u + 256u);/* event end */
    assert_int_equal(w32(b, 32, big), G_BASE + 240u + 96u); /* current = slot 3 (oldest) */
    assert_int_equal(w32(b, 36, big), 0xAAAAAAAAu);
    assert_int_equal(w32(b, 40, big), 0xBBBBBBBBu);
    assert_int_equal(w32(b, 44, big), 0xCCCCCCCCu);
    /* Registry 0: main_thread, priority bytes 0x80 | 16 >> 8, 16. */
    const uint8_t *e = b + 48;
    assert_int_equal(e[0], 0);
    assert_int_equal(e[1], TXTB_OBJ_THREAD);
    assert_int_equal(e[2], 0x80);
    assert_int_equal(e[3], 16);
    assert_int_equal(w32(e, 4, big), T_MAIN);
    assert_int_equal(w32(e, 8, big), 0x20002000u);
    assert_int_equal(w32(e, 12, big), 1024u);
    assert_string_equal((const char *)e + 16, "main_thread");
    assert_int_equal(e[16 + 12], 0x5A); /* bytes after the NUL untouched */
    /* Registry 1: event flags reusing the deleted queue's slot; old name tail after the NUL. */
    e = b + 48 + 48;
    assert_int_equal(e[0], 0);
    assert_int_equal(e[1], TXTB_OBJ_EVENT_FLAGS);
    assert_int_equal(w32(e, 4, big), FLAGS_0);
    assert_memory_equal(e + 16, "flags\0" "0\0", 8);
    /* Registry 2: 31-character name + NUL, priority 300 = 0x12C -> 0x81, 0x2C. */
    e = b + 48 + 96;
    assert_int_equal(e[2], 0x81);
    assert_int_equal(e[3], 0x2C);
    assert_memory_equal(e + 16, k_long_name, 31);
    assert_int_equal(e[16 + 31], 0);
    /* Registry 3: the semaphore took the never-used slot. */
    e = b + 48 + 144;
    assert_int_equal(e[0], 0);
    assert_int_equal(e[1], TXTB_OBJ_SEMAPHORE);
    assert_int_equal(w32(e, 8, big), 1u);
    assert_string_equal((const char *)e + 16, "sem");
    /* Slots. */
    assert_slot(slot(b, G_R, 48, 0), big, T_MAIN, 0x80100010u, 0x12345u, 8, 0xDEADBEEFu, 0, 0, 0xFFFFFFFFu);
    assert_slot(slot(b, G_R, 48, 1), big, T_MAIN, 0x80100010u, TXTB_EVENT_THREAD_SUSPEND, 9, T_MAIN, 4, 0x2000FF00u, 0);
    /* Slot 2: disable's LOST record: no drop, 3 records overwritten by the wrap (the two RUNNING
     * records and THREAD_CREATE, whose slot this record took). */
    assert_slot(slot(b, G_R, 48, 2), big, T_MAIN, 0x80100010u, TXTB_EVTRACE_LOST_ID, 10, 0, 0, TXTB_EVTRACE_LOST_MAGIC, 3);
    assert_slot(slot(b, G_R, 48, 5), big, TXTB_CTX_ISR, T_MAIN, TXTB_EVENT_ISR_ENTER, 5, 0x2000EE00u, 7, 1, 0);
    assert_slot(slot(b, G_R, 48, 7), big, T_MAIN, 0x80100010u, TXTB_EVENT_INTERRUPT_CONTROL, 7, 1, 0x2000FF00u, 0, 0);
    /* Slack untouched. */
    for (unsigned i = G_SIZE - G_SLACK; i < G_SIZE; i++) assert_int_equal(b[i], 0x5A);
}

static void golden_one(int big)
{
    static uint8_t buf[G_SIZE];
    golden_script(buf, big);
    assert_int_equal(g_full_calls, 1);
    assert_ptr_equal(g_full_arg, buf);
    check_golden_fields(buf, big);
    char path[512];
    snprintf(path, sizeof path, "%s/threadx/txtb_enc_%s.expect", EVT_TEST_DATA_DIR, big ? "be" : "le");
    if (getenv("EVT_TXTB_WRITE_GOLDEN")) assert_int_equal(evt_test_write_file(path, buf, G_SIZE), 0);
    size_t n = 0;
    uint8_t *exp = evt_test_read_file(path, &n);
    assert_int_equal(n, G_SIZE);
    assert_memory_equal(buf, exp, G_SIZE);
    free(exp);
}

static void test_golden_le(void **st) { (void)st; golden_one(0); }
static void test_golden_be(void **st) { (void)st; golden_one(1); }

/* The two orders hold the same words, byte-swapped (except names/bytes). */
static void test_golden_orders_agree(void **st)
{
    (void)st;
    static uint8_t le[G_SIZE], be[G_SIZE];
    golden_script(le, 0);
    golden_script(be, 1);
    for (unsigned off = 0; off < 240 + 32 * G_N; off += 4) {
        if (off == 16 || (off >= 48 && off < 240)) continue; /* 16-bit fields; registry */
        assert_int_equal(evt_ld_u32le(le + off), evt_ld_u32be(be + off));
    }
    assert_int_equal(evt_ld_u16le(le + 18), evt_ld_u16be(be + 18));
    for (unsigned i = 0; i < G_R; i++) {
        const uint8_t *a = le + 48 + 48 * i, *b = be + 48 + 48 * i;
        assert_memory_equal(a, b, 4);                        /* byte fields */
        for (unsigned k = 4; k < 16; k += 4) assert_int_equal(evt_ld_u32le(a + k), evt_ld_u32be(b + k));
        assert_memory_equal(a + 16, b + 16, 32);             /* name bytes */
    }
}

/* ---- enable / disable --------------------------------------------------------------------------- */

static void test_enable_errors(void **st)
{
    (void)st;
    static uint8_t buf[4096];
    evt_tx_options o = opts(0, 0);
    uint32_t min = 48 + 48 * 3 + 32;
    assert_int_equal(evt_tx_trace_enable_ex(buf, min - 1, 3, &o), EVT_TX_SIZE_ERROR);
    assert_int_equal(evt_tx_trace_user_event_insert(5000, 0, 0, 0, 0), EVT_TX_NOT_DONE); /* still off */
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_NOT_DONE);
    assert_int_equal(evt_tx_trace_enable_ex(buf, min, 3, &o), EVT_TX_SUCCESS);
    assert_int_equal(evt_tx_trace_enable_ex(buf, min, 3, &o), EVT_TX_NOT_DONE);
    assert_int_equal(evt_tx_trace_enable_ex(buf, min - 1, 3, &o), EVT_TX_SIZE_ERROR); /* size first */
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_NOT_DONE);
    assert_int_equal(evt_tx_trace_user_event_insert(5000, 0, 0, 0, 0), EVT_TX_NOT_DONE);
    /* A huge registry count must not overflow the size check. */
    assert_int_equal(evt_tx_trace_enable_ex(buf, sizeof buf, 0xFFFFFFFFu, &o), EVT_TX_SIZE_ERROR);
    /* R = 0 is allowed; one slot is the minimum. */
    assert_int_equal(evt_tx_trace_enable_ex(buf, 48 + 32, 0, &o), EVT_TX_SUCCESS);
    assert_int_equal(w32(buf, 12, 0), w32(buf, 20, 0));
    assert_int_equal(w32(buf, 28, 0) - w32(buf, 24, 0), 32);
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
    /* Default API (no options): host order, port clock/context, buffer address as base. */
    assert_int_equal(evt_tx_trace_enable(buf, sizeof buf, 2), EVT_TX_SUCCESS);
    assert_int_equal(w32(buf, 8, 0), evt_tx_addr(buf));
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
    /* No buffer: an error, tracing stays off (before: enable wrote through NULL and crashed). */
    assert_int_equal(evt_tx_trace_enable(NULL, sizeof buf, 2), EVT_TX_PTR_ERROR);
    assert_int_equal(evt_tx_trace_enable_ex(NULL, 48 + 32, 0, &o), EVT_TX_PTR_ERROR);
    assert_int_equal(evt_tx_trace_enable(NULL, 10, 0), EVT_TX_SIZE_ERROR); /* size first */
    assert_int_equal(evt_tx_trace_user_event_insert(5000, 0, 0, 0, 0), EVT_TX_NOT_DONE);
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_NOT_DONE);
}

/* Enable touches only what ThreadX touches; the filter is reset; disable leaves a decodable buffer. */
static void test_enable_init(void **st)
{
    (void)st;
    enum { R = 3, N = 6, SIZE = 48 + 48 * R + 32 * N + 7 };
    static uint8_t buf[SIZE];
    memset(buf, 0xA5, sizeof buf);
    evt_tx_trace_event_filter(0xFFFFFFFFu);                 /* everything off before enable */
    evt_tx_options o = opts(0, 0x1000);
    assert_int_equal(evt_tx_trace_enable_ex(buf, SIZE, R, &o), EVT_TX_SUCCESS);
    for (unsigned i = 0; i < R; i++) {
        const uint8_t *e = buf + 48 + 48 * i;
        assert_int_equal(e[0], 1);
        assert_int_equal(e[1], 0);
        assert_int_equal(e[2], 0);
        assert_int_equal(e[3], 0);
        assert_int_equal(w32(e, 4, 0), 0);
        for (unsigned k = 8; k < 48; k++) assert_int_equal(e[k], 0xA5); /* params, name kept */
    }
    const uint8_t *s0 = slot(buf, R, 48, 0);
    /* Two RUNNING events (filter was reset to all-on), in the caller's (init) context. */
    assert_slot(s0, 0, TXTB_CTX_INIT, 0, TXTB_EVENT_RUNNING, 0, 0, 0, 0, 0);
    assert_slot(s0 + 32, 0, TXTB_CTX_INIT, 0, TXTB_EVENT_RUNNING, 1, 0, 0, 0, 0);
    for (unsigned i = 2; i < N; i++) {
        const uint8_t *s = slot(buf, R, 48, i);
        assert_int_equal(w32(s, 0, 0), 0);
        for (unsigned k = 4; k < 32; k++) assert_int_equal(s[k], 0xA5); /* words 1..7 untouched */
    }
    for (unsigned i = SIZE - 7; i < SIZE; i++) assert_int_equal(buf[i], 0xA5);
    assert_int_equal(w32(buf, 32, 0), 0x1000 + 48 + 48 * R + 64);
    /* Everything filtered while on (the gate word is 0, as while off): SUCCESS, not NOT_DONE, and
     * nothing recorded, no clock read. */
    uint64_t ticks = evt_test_ticks;
    evt_tx_trace_event_filter(0xFFFFFFFFu);
    assert_int_equal(evt_tx_trace_user_event_insert(5000, 0, 0, 0, 0), EVT_TX_SUCCESS);
    assert_int_equal(evt_test_ticks, ticks);
    assert_int_equal(w32(buf, 32, 0), 0x1000 + 48 + 48 * R + 64);
    evt_tx_trace_event_unfilter(0xFFFFFFFFu);
    assert_int_equal(evt_tx_trace_user_event_insert(5000, 0, 0, 0, 0), EVT_TX_SUCCESS);
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
    assert_int_equal(w32(buf, 32, 0), 0x1000 + 48 + 48 * R + 96); /* header kept after disable */
    /* While off: nothing recorded, no clock read, registry frozen. */
    uint32_t clk = evt_test_ticks;
    evt_tx_trace_kernel_event(TXTB_EVENT_THREAD_CREATE, 1, 2, 3, 4);
    evt_tx_trace_object_register(TXTB_OBJ_QUEUE, P(0x1234), "q", 0, 0);
    assert_int_equal(evt_test_ticks, clk);
    assert_int_equal(buf[48 + 1], 0);
    assert_int_equal(w32(slot(buf, R, 48, 3), 0, 0), 0);
}

/* ---- registry ---------------------------------------------------------------------------------- */

static uint8_t g_rbuf[48 + 48 * 8 + 32 * 4];

static void reg_enable(uint32_t R)
{
    evt_tx_options o = opts(0, 0);
    memset(g_rbuf, 0, sizeof g_rbuf);
    assert_int_equal(evt_tx_trace_enable_ex(g_rbuf, 48 + 48 * R + 32 * 4, R, &o), EVT_TX_SUCCESS);
}
static const uint8_t *reg_entry(unsigned i) { return g_rbuf + 48 + 48 * i; }

static void test_registry_full_drops(void **st)
{
    (void)st;
    reg_enable(3);
    evt_tx_trace_object_register(TXTB_OBJ_QUEUE, P(0x100), "q1", 1, 2);
    evt_tx_trace_object_register(TXTB_OBJ_QUEUE, P(0x200), "q2", 1, 2);
    evt_tx_trace_object_register(TXTB_OBJ_QUEUE, P(0x300), "q3", 1, 2);
    uint8_t before[48 * 3];
    memcpy(before, reg_entry(0), sizeof before);
    evt_tx_trace_object_register(TXTB_OBJ_QUEUE, P(0x400), "q4", 1, 2); /* full: silently dropped */
    assert_memory_equal(before, reg_entry(0), sizeof before);
    /* Even the same pointer is not re-registered while the registry is full (available count 0). */
    evt_tx_trace_object_register(TXTB_OBJ_MUTEX, P(0x200), "again", 0, 0);
    assert_memory_equal(before, reg_entry(0), sizeof before);
    /* Events about the dropped object are still recorded. */
    evt_tx_trace_kernel_event(TXTB_EVENT_QUEUE_SEND, 0x400, 0, 0, 0);
    assert_int_equal(w32(slot(g_rbuf, 3, 48, 2), 16, 0), 0x400);
    evt_tx_trace_disable();
}

static void test_registry_delete_keeps(void **st)
{
    (void)st;
    reg_enable(3);
    evt_tx_trace_object_register(TXTB_OBJ_SEMAPHORE, P(0x100), "sem_a", 7, 0);
    evt_tx_trace_object_unregister(P(0x100));
    const uint8_t *e = reg_entry(0);
    assert_int_equal(e[0], 1);
    assert_int_equal(e[1], TXTB_OBJ_SEMAPHORE);
    assert_int_equal(w32(e, 4, 0), 0x100);
    assert_int_equal(w32(e, 8, 0), 7);
    assert_string_equal((const char *)e + 16, "sem_a");
    evt_tx_trace_object_unregister(NULL); /* ignored */
    evt_tx_trace_object_unregister(P(0x999)); /* unknown: nothing */
    assert_int_equal(reg_entry(1)[0], 1);
    assert_int_equal(reg_entry(1)[1], 0);
    evt_tx_trace_disable();
}

/* threadx.md §7 example: R = 8, all used, delete 2 then 6: search start 6, the scan meets 6 then 2
 * and takes 2 (the last available met). Then the next one takes 6. */
static void test_registry_reuse_order(void **st)
{
    (void)st;
    reg_enable(8);
    char nm[8];
    for (unsigned i = 0; i < 8; i++) {
        snprintf(nm, sizeof nm, "obj%u", i);
        evt_tx_trace_object_register(TXTB_OBJ_QUEUE, P(0x1000 + 0x100 * i), nm, i, 0);
        assert_int_equal(w32(reg_entry(i), 4, 0), 0x1000 + 0x100 * i);
    }
    evt_tx_trace_object_unregister(P(0x1200));
    evt_tx_trace_object_unregister(P(0x1600));
    evt_tx_trace_object_register(TXTB_OBJ_MUTEX, P(0x9000), "new_a", 0, 0);
    assert_int_equal(w32(reg_entry(2), 4, 0), 0x9000);
    assert_int_equal(reg_entry(2)[0], 0);
    assert_int_equal(reg_entry(2)[1], TXTB_OBJ_MUTEX);
    assert_memory_equal(reg_entry(2) + 16, "new_a", 6);
    assert_int_equal(w32(reg_entry(6), 4, 0), 0x1600);   /* still the deleted one */
    assert_int_equal(reg_entry(6)[0], 1);
    evt_tx_trace_object_register(TXTB_OBJ_MUTEX, P(0x9100), "new_b", 0, 0);
    assert_int_equal(w32(reg_entry(6), 4, 0), 0x9100);
    /* Same pointer wins at once even when another available slot comes first in the scan. */
    evt_tx_trace_object_unregister(P(0x1000));            /* slot 0, search start 0 */
    evt_tx_trace_object_unregister(P(0x1500));            /* slot 5, search start 5 */
    evt_tx_trace_object_register(TXTB_OBJ_QUEUE, P(0x1000), "back", 0, 0); /* scan 5,6,7,0 */
    assert_int_equal(w32(reg_entry(0), 4, 0), 0x1000);
    assert_int_equal(reg_entry(0)[0], 0);
    assert_int_equal(reg_entry(5)[0], 1);
    assert_memory_equal(reg_entry(0) + 16, "back\0", 5);
    evt_tx_trace_disable();
}

static void test_registry_names(void **st)
{
    (void)st;
    reg_enable(2);
    evt_tx_trace_object_register(TXTB_OBJ_QUEUE, P(0x100), k_long_name, 0, 0);
    const uint8_t *e = reg_entry(0);
    assert_memory_equal(e + 16, k_long_name, 31);
    assert_int_equal(e[47], 0);
    evt_tx_trace_object_unregister(P(0x100));
    evt_tx_trace_object_register(TXTB_OBJ_QUEUE, P(0x200), NULL, 0, 0); /* takes never-used slot 1 */
    assert_int_equal(reg_entry(1)[16], 0);
    evt_tx_trace_object_register(TXTB_OBJ_QUEUE, P(0x300), "short", 0, 0); /* reuses slot 0 */
    assert_memory_equal(e + 16, "short\0", 6);
    assert_memory_equal(e + 22, k_long_name + 6, 25); /* old tail left */
    evt_tx_trace_disable();
    /* Configurable name size: 16 -> entries of 32 bytes, 15 characters kept. */
    static uint8_t b[48 + 32 * 2 + 32 * 2];
    memset(b, 0xEE, sizeof b);
    evt_tx_options o = opts(1, 0);
    o.name_size = 16;
    assert_int_equal(evt_tx_trace_enable_ex(b, sizeof b, 2, &o), EVT_TX_SUCCESS);
    assert_int_equal(evt_ld_u16be(b + 18), 16);
    assert_int_equal(evt_ld_u32be(b + 20) - evt_ld_u32be(b + 12), 64);
    evt_tx_trace_thread_register(P(0x400), k_long_name, 1, 2, 5);
    assert_memory_equal(b + 48 + 16, k_long_name, 15);
    assert_int_equal(b[48 + 31], 0);
    assert_int_equal(b[48 + 32], 1);     /* entry 1 untouched by the name copy */
    assert_int_equal(b[48 + 2], 0x80);
    assert_int_equal(b[48 + 3], 5);
    evt_tx_trace_disable();
}

/* ---- filters, clock reads, kernel-event bits --------------------------------------------------- */

static void test_filters(void **st)
{
    (void)st;
    enum { R = 1, N = 64, SIZE = 48 + 48 * R + 32 * N };
    static uint8_t buf[SIZE];
    evt_tx_options o = opts(0, 0);
    assert_int_equal(evt_tx_trace_enable_ex(buf, SIZE, R, &o), EVT_TX_SUCCESS);
    evt_tx_stats s0, s1;
    evt_tx_trace_get_stats(&s0);
    evt_tx_trace_event_filter(EVT_TX_TRACE_ALL_EVENTS);
    uint32_t clk = evt_test_ticks;
    evt_tx_trace_kernel_event(TXTB_EVENT_THREAD_RESUME, 1, 0, 0, 0);
    evt_tx_trace_isr_enter_insert(1);
    evt_tx_trace_interrupt_control(0);
    evt_tx_trace_kernel_event(TXTB_EVENT_TIMER_CREATE, 1, 0, 0, 0);
    assert_int_equal(evt_test_ticks, clk); /* nothing recorded, no clock read */
    /* ALL_EVENTS does not contain USER. */
    assert_int_equal(evt_tx_trace_user_event_insert(4100, 1, 2, 3, 4), EVT_TX_SUCCESS);
    assert_int_equal(evt_test_ticks, clk + 1);
    evt_tx_trace_event_filter(EVT_TX_TRACE_USER_EVENTS);
    assert_int_equal(evt_tx_trace_user_event_insert(4101, 1, 2, 3, 4), EVT_TX_SUCCESS); /* filtered */
    evt_tx_trace_kernel_event(5000, 0, 0, 0, 0);    /* user range via kernel_event: USER bit */
    assert_int_equal(evt_test_ticks, clk + 1);
    /* FileX/NetX/USBX ids use their product's bits. */
    evt_tx_trace_kernel_event(210, 0, 0, 0, 0);
    evt_tx_trace_kernel_event(400, 0, 0, 0, 0);
    evt_tx_trace_kernel_event(700, 0, 0, 0, 0);
    assert_int_equal(evt_test_ticks, clk + 4);
    evt_tx_trace_event_filter(0x7FFFFFFFu);
    evt_tx_trace_kernel_event(210, 0, 0, 0, 0);
    evt_tx_trace_insert(9999, 0, 0, 0, 0, 0x00001000u);
    assert_int_equal(evt_test_ticks, clk + 4);
    /* Unfilter one class at a time: each event hangs on exactly its table bit. */
    evt_tx_trace_event_unfilter(EVT_TX_TRACE_THREAD_EVENTS);
    evt_tx_trace_kernel_event(TXTB_EVENT_THREAD_CREATE, 0, 0, 0, 0);  /* THREAD: recorded */
    evt_tx_trace_kernel_event(TXTB_EVENT_THREAD_RESUME, 0, 0, 0, 0);  /* INTERNAL: not */
    evt_tx_trace_kernel_event(TXTB_EVENT_TIME_GET, 0, 0, 0, 0);       /* TIME: not */
    evt_tx_trace_kernel_event(150 /* unknown id < 200: INTERNAL */, 0, 0, 0, 0);
    assert_int_equal(evt_test_ticks, clk + 5);
    evt_tx_trace_event_unfilter(EVT_TX_TRACE_INTERRUPT_CONTROL_EVENT);
    evt_tx_trace_interrupt_control(3);
    evt_tx_trace_isr_exit_insert(3);                                  /* INTERNAL: not */
    assert_int_equal(evt_test_ticks, clk + 6);
    evt_tx_trace_kernel_event(TXTB_EVTRACE_LOST_ID, 0, 0, 0, 0);       /* never via kernel_event */
    evt_tx_trace_event_unfilter(0xFFFFFFFFu);
    evt_tx_trace_kernel_event(TXTB_EVTRACE_LOST_ID, 0, 0, 0, 0);
    assert_int_equal(evt_test_ticks, clk + 6);
    evt_tx_trace_get_stats(&s1);
    assert_int_equal(s1.written - s0.written, 6);
    assert_int_equal(s1.dropped - s0.dropped, 0);
    /* Filters survive disable and are reset by enable. */
    evt_tx_trace_event_filter(EVT_TX_TRACE_USER_EVENTS);
    evt_tx_trace_disable();
    assert_int_equal(evt_tx_trace_enable_ex(buf, SIZE, R, &o), EVT_TX_SUCCESS);
    clk = evt_test_ticks;
    assert_int_equal(evt_tx_trace_user_event_insert(4100, 1, 2, 3, 4), EVT_TX_SUCCESS);
    assert_int_equal(evt_test_ticks, clk + 1);
    evt_tx_trace_disable();
}

/* A filtered event never changes another entry (no back-patching), also in a wrapped buffer. */
static void test_filtered_changes_nothing(void **st)
{
    (void)st;
    enum { N = 4, SIZE = 48 + 48 + 32 * N };
    static uint8_t buf[SIZE], copy[SIZE];
    evt_tx_options o = opts(0, 0);
    assert_int_equal(evt_tx_trace_enable_ex(buf, SIZE, 1, &o), EVT_TX_SUCCESS);
    for (int i = 0; i < 9; i++) evt_tx_trace_user_event_insert(4096 + i, i, 0, 0, 0);
    memcpy(copy, buf, SIZE);
    evt_tx_trace_event_filter(EVT_TX_TRACE_BLOCK_POOL_EVENTS | EVT_TX_TRACE_BYTE_POOL_EVENTS |
                              EVT_TX_TRACE_INTERNAL_EVENTS);
    evt_tx_trace_kernel_event(TXTB_EVENT_BLOCK_ALLOCATE, 0x100, 0, 0, 0);
    evt_tx_trace_kernel_event(TXTB_EVENT_BYTE_ALLOCATE, 0x100, 0, 0, 0);
    evt_tx_trace_kernel_event(TXTB_EVENT_THREAD_SUSPEND, 0x100, 0, 0, 0);
    assert_memory_equal(buf, copy, SIZE);
    evt_tx_trace_disable();
}

/* ---- buffer-full callback, nested inserts, LOST record ------------------------------------------ */

/* A nested insert that cannot be stashed (I9): a record of NESTED_K slots is more than a half of
 * the nested stash holds (EVT_TX_NEST_STASH_WORDS / 2 words, txtb_stash.h; 4 + 5 per slot), so it
 * is dropped and counted, NESTED_K drops (a slot is a record in the account). */
#define NESTED_K (EVT_TX_NEST_STASH_WORDS / 2u / 5u + 1u) /* 4 + 5 * NESTED_K > a half */
static uint32_t g_big[4u * NESTED_K];
static unsigned g_nested_rc;
static void on_full_nested(void *buf)
{
    g_full_calls++;
    g_full_arg = buf;
    g_nested_rc = evt_tx_trace_user_words_insert(7777, 0xFC00u, g_big, 4u * NESTED_K); /* too big: dropped */
}

static void test_full_callback_each_wrap(void **st)
{
    (void)st;
    enum { N = 5, SIZE = 48 + 32 * N };
    static uint8_t buf[SIZE];
    evt_tx_options o = opts(0, 0);
    evt_tx_trace_buffer_full_notify(on_full);
    assert_int_equal(evt_tx_trace_enable_ex(buf, SIZE, 0, &o), EVT_TX_SUCCESS); /* 2 RUNNING */
    evt_tx_stats s0, s1;
    evt_tx_trace_get_stats(&s0);
    for (int i = 0; i < 3; i++) evt_tx_trace_user_event_insert(4096, i, 0, 0, 0);
    assert_int_equal(g_full_calls, 1);          /* 5th record wrapped */
    assert_ptr_equal(g_full_arg, buf);
    for (int i = 0; i < 5 * 7; i++) evt_tx_trace_user_event_insert(4096, i, 0, 0, 0);
    assert_int_equal(g_full_calls, 8);
    evt_tx_trace_get_stats(&s1);
    assert_int_equal(s1.wraps - s0.wraps, 8);
    /* Disable, enable: the callback survives. NULL removes it. */
    evt_tx_trace_disable();
    assert_int_equal(evt_tx_trace_enable_ex(buf, SIZE, 0, &o), EVT_TX_SUCCESS);
    for (int i = 0; i < 3; i++) evt_tx_trace_user_event_insert(4096, i, 0, 0, 0);
    assert_int_equal(g_full_calls, 9);
    evt_tx_trace_buffer_full_notify(NULL);
    for (int i = 0; i < 5; i++) evt_tx_trace_user_event_insert(4096, i, 0, 0, 0);
    assert_int_equal(g_full_calls, 9);
    evt_tx_trace_disable();
}

static void test_nested_drop_and_lost_record(void **st)
{
    (void)st;
    enum { N = 4, SIZE = 48 + 32 * N };
    static uint8_t buf[SIZE];
    evt_tx_options o = opts(0, 0);
    evt_tx_trace_buffer_full_notify(on_full_nested);
    assert_int_equal(evt_tx_trace_enable_ex(buf, SIZE, 0, &o), EVT_TX_SUCCESS); /* slots 0,1 */
    evt_tx_stats s0, s1;
    evt_tx_trace_get_stats(&s0);
    set_ctx(0x3000, 0x80000005u, 0, 0, 0);
    evt_tx_trace_user_event_insert(5000, 1, 0, 0, 0);   /* slot 2, ts 2 */
    evt_tx_trace_user_event_insert(5001, 2, 0, 0, 0);   /* slot 3, ts 3, wraps -> nested dropped */
    assert_int_equal(g_full_calls, 1);
    assert_int_equal(g_nested_rc, 0);
    evt_tx_trace_get_stats(&s1);
    assert_int_equal(s1.dropped - s0.dropped, NESTED_K);
    assert_int_equal(s1.written - s0.written, 2);
    /* Next insert: LOST first (same ts), then the event. */
    evt_tx_trace_user_event_insert(5002, 3, 0, 0, 0);
    assert_slot(slot(buf, 0, 48, 0), 0, 0x3000, 0x80000005u, TXTB_EVTRACE_LOST_ID, 4, NESTED_K, NESTED_K,
                TXTB_EVTRACE_LOST_MAGIC, 0);
    assert_slot(slot(buf, 0, 48, 1), 0, 0x3000, 0x80000005u, 5002, 4, 3, 0, 0, 0);
    assert_int_equal(evt_test_ticks, 5);
    evt_tx_trace_get_stats(&s1);
    assert_int_equal(s1.lost_records - s0.lost_records, 1);
    /* Another wrap: one more drop, and the new LOST record overwrites the first one, whose count is
     * carried again: it carries 2 * NESTED_K (the LOST records in the buffer add up to every drop)
     * and its running total is 3 * NESTED_K. */
    evt_tx_trace_user_event_insert(5003, 4, 0, 0, 0);   /* slot 2 */
    evt_tx_trace_user_event_insert(5004, 5, 0, 0, 0);   /* slot 3, wrap, drop */
    evt_tx_trace_user_event_insert(5005, 6, 0, 0, 0);   /* LOST slot 0, event slot 1 */
    assert_slot(slot(buf, 0, 48, 0), 0, 0x3000, 0x80000005u, TXTB_EVTRACE_LOST_ID, 7, 2 * NESTED_K, 3 * NESTED_K,
                TXTB_EVTRACE_LOST_MAGIC, 0);
    assert_int_equal(g_full_calls, 2);
    evt_tx_trace_get_stats(&s1);
    assert_int_equal(s1.dropped - s0.dropped, 2 * NESTED_K);
    assert_int_equal(s1.written - s0.written, 6);
    evt_tx_trace_disable();
}

/* A user insert that would read back as evtrace's LOST record (id 190, info3 "evtr") is refused
 * (EVT_TX_LOST_GUARD): NOT_DONE, counted as dropped, so the buffer's data records plus its LOST
 * counts still equal the inserts issued; with user events filtered it is a filtered call (SUCCESS,
 * nothing counted); id 190 with another info3 is an ordinary record. Before 2 Dec 2026 two such
 * inserts were written and read back as 1,564 lost (their info1 + info4). */
static void test_lost_lookalike_refused(void **st)
{
    (void)st;
    enum { N = 8, SIZE = 48 + 32 * N };
    static uint8_t buf[SIZE];
    evt_tx_options o = opts(0, 0);
    evt_tx_trace_buffer_full_notify(NULL);
    assert_int_equal(evt_tx_trace_enable_ex(buf, SIZE, 0, &o), EVT_TX_SUCCESS); /* 2 RUNNING */
    evt_tx_stats s0, s1;
    evt_tx_trace_get_stats(&s0);
    set_ctx(0x3000, 0x80000005u, 0, 0, 0);
    assert_int_equal(evt_tx_trace_user_event_insert(TXTB_EVTRACE_LOST_ID, 777, 0, TXTB_EVTRACE_LOST_MAGIC, 5), EVT_TX_NOT_DONE);
    volatile uint32_t id = TXTB_EVTRACE_LOST_ID; /* not a constant at the call */
    assert_int_equal(evt_tx_trace_user_event_insert(id, 777, 0, TXTB_EVTRACE_LOST_MAGIC, 5), EVT_TX_NOT_DONE);
    assert_int_equal(evt_tx_trace_user_event_insert(TXTB_EVTRACE_LOST_ID, 1, 2, 3, 4), EVT_TX_SUCCESS);
    evt_tx_trace_get_stats(&s1);
    assert_int_equal(s1.dropped - s0.dropped, 2);
    assert_int_equal(evt_tx_trace_event_filter(EVT_TX_TRACE_USER_EVENTS), EVT_TX_SUCCESS);
    assert_int_equal(evt_tx_trace_user_event_insert(TXTB_EVTRACE_LOST_ID, 777, 0, TXTB_EVTRACE_LOST_MAGIC, 5), EVT_TX_SUCCESS);
    evt_tx_trace_get_stats(&s1);
    assert_int_equal(s1.dropped - s0.dropped, 2);
    assert_int_equal(evt_tx_trace_event_unfilter(EVT_TX_TRACE_USER_EVENTS), EVT_TX_SUCCESS);
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
    uint64_t data = 0, lost = 0;
    for (uint32_t k = 0; k < N; k++) {
        const uint8_t *e = slot(buf, 0, 48, k);
        if (evt_ld_u32le(e) == 0) continue; /* never written */
        if (evt_ld_u32le(e + 8) == TXTB_EVTRACE_LOST_ID && evt_ld_u32le(e + 24) == TXTB_EVTRACE_LOST_MAGIC)
            lost += (uint64_t)evt_ld_u32le(e + 16) + evt_ld_u32le(e + 28);
        else
            data++;
    }
    assert_int_equal(data, 3);  /* 2 RUNNING + the id-190 record with info3 3 */
    assert_int_equal(lost, 2);  /* the two refused: the stop's LOST record */
}

/* The common-case commit (port context, port clock, host byte order: no callback) keeps the same
 * account as the general one: drops from the buffer-full callback become LOST records, wraps over
 * LOST records carry their counts again, and after disable the data records in the buffer plus
 * the LOST counts (info1 + info4) equal every insert issued. */
static void test_plain_path_accounting(void **st)
{
    (void)st;
    enum { N = 5, SIZE = 48 + 32 * N, INSERTS = 23 };
    static uint8_t buf[SIZE];
    evt_tx_options o;
    memset(&o, 0, sizeof o);
    o.big_endian = -1; /* host order, port clock, port context */
    evt_tx_trace_buffer_full_notify(on_full_nested);
    assert_int_equal(evt_tx_trace_enable_ex(buf, SIZE, 0, &o), EVT_TX_SUCCESS); /* 2 RUNNING */
    evt_tx_stats s0, s;
    evt_tx_trace_get_stats(&s0); /* since program start: the figures below are differences */
    uint32_t self = (uint32_t)evt_port_context_id();
    for (uint32_t i = 0; i < INSERTS; i++)
        assert_int_equal(evt_tx_trace_user_event_insert(5000 + i, i, 0, 0, 0), EVT_TX_SUCCESS);
    /* Slot written last: the last insert, in host order, with this thread's context. */
    uint32_t cur = evt_ld_u32le(buf + TXTB_HDR_CURRENT) - evt_tx_addr(buf);
    const uint8_t *last = buf + (cur == 48 ? SIZE - 32 : cur - 32);
    assert_int_equal(evt_ld_u32le(last + 0), self);
    assert_int_equal(evt_ld_u32le(last + 4), TXTB_PRIO_CURRENT_BIT);
    assert_int_equal(evt_ld_u32le(last + 8), 5000 + INSERTS - 1);
    evt_tx_trace_get_stats(&s);
    uint32_t wraps = (uint32_t)(s.wraps - s0.wraps);
    assert_true(wraps >= 4);
    assert_int_equal(g_full_calls, wraps);
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
    uint64_t data = 0, lost = 0, lost_records = 0;
    for (uint32_t k = 0; k < N; k++) {
        const uint8_t *e = slot(buf, 0, 48, k);
        assert_int_not_equal(evt_ld_u32le(e), 0);
        if (evt_ld_u32le(e + 8) == TXTB_EVTRACE_LOST_ID && evt_ld_u32le(e + 24) == TXTB_EVTRACE_LOST_MAGIC) {
            lost += (uint64_t)evt_ld_u32le(e + 16) + evt_ld_u32le(e + 28);
            lost_records++;
        } else {
            data++;
        }
    }
    assert_true(lost_records >= 1);
    /* issued: 2 RUNNING + the inserts + one nested insert of NESTED_K slots per wrap (all dropped) */
    assert_int_equal(data + lost, 2u + INSERTS + (uint64_t)NESTED_K * wraps);
    evt_tx_trace_get_stats(&s);
    assert_int_equal(s.dropped - s0.dropped, (uint64_t)NESTED_K * wraps);
}

/* I9: a record nested in a record of its own context (here the buffer-full callback's, below a
 * signal handler's) is stashed and written right after the record it interrupted, with its own
 * context and the next timestamp: nothing dropped. */
static unsigned g_stashed_rc;
static void on_full_stashed(void *buf)
{
    g_full_calls++;
    g_full_arg = buf;
    set_ctx(0x4000, 0x80000007u, 0, 0, 0); /* the nested record's own context */
    g_stashed_rc = evt_tx_trace_user_event_insert(7777, 9, 8, 7, 6);
    set_ctx(0x3000, 0x80000005u, 0, 0, 0);
}
static void test_nested_record_stashed(void **st)
{
    (void)st;
    enum { N = 6, SIZE = 48 + 32 * N };
    static uint8_t buf[SIZE];
    evt_tx_options o = opts(0, 0);
    evt_tx_trace_buffer_full_notify(on_full_stashed);
    assert_int_equal(evt_tx_trace_enable_ex(buf, SIZE, 0, &o), EVT_TX_SUCCESS); /* slots 0,1: ts 0,1 */
    evt_tx_stats s0, s1;
    evt_tx_trace_get_stats(&s0);
    set_ctx(0x3000, 0x80000005u, 0, 0, 0);
    for (uint32_t i = 0; i < 4; i++) evt_tx_trace_user_event_insert(5000 + i, i, 0, 0, 0); /* slots 2..5 */
    assert_int_equal(g_full_calls, 1); /* slot 5 wrapped */
    assert_int_equal(g_stashed_rc, EVT_TX_SUCCESS);
    assert_slot(slot(buf, 0, 48, 5), 0, 0x3000, 0x80000005u, 5003, 5, 3, 0, 0, 0);
    assert_slot(slot(buf, 0, 48, 0), 0, 0x4000, 0x80000007u, 7777, 6, 9, 8, 7, 6); /* right after, own ctx */
    evt_tx_trace_get_stats(&s1);
    assert_int_equal(s1.dropped - s0.dropped, 0);
    assert_int_equal(s1.written - s0.written, 5);
    evt_tx_trace_buffer_full_notify(NULL);
    evt_tx_trace_disable();
}

/* "Stop when full": the callback may disable; the oldest slot is then never overwritten. */
static void on_full_stop(void *buf) { (void)buf; g_full_calls++; evt_tx_trace_disable(); }
static void test_stop_when_full(void **st)
{
    (void)st;
    enum { N = 4, SIZE = 48 + 32 * N };
    static uint8_t buf[SIZE];
    evt_tx_options o = opts(0, 0);
    evt_tx_trace_buffer_full_notify(on_full_stop);
    assert_int_equal(evt_tx_trace_enable_ex(buf, SIZE, 0, &o), EVT_TX_SUCCESS);
    assert_int_equal(evt_tx_trace_user_event_insert(5000, 0, 0, 0, 0), EVT_TX_SUCCESS);
    assert_int_equal(evt_tx_trace_user_event_insert(5001, 0, 0, 0, 0), EVT_TX_SUCCESS); /* wraps */
    assert_int_equal(evt_tx_trace_user_event_insert(5002, 0, 0, 0, 0), EVT_TX_NOT_DONE);
    assert_int_equal(g_full_calls, 1);
    assert_int_equal(w32(slot(buf, 0, 48, 0), 8, 0), TXTB_EVENT_RUNNING);
    assert_int_equal(w32(buf, 32, 0), w32(buf, 24, 0));
    /* One slot only: both RUNNING events wrap; the first wrap's callback stops the second. */
    static uint8_t one[48 + 32];
    g_full_calls = 0;
    assert_int_equal(evt_tx_trace_enable_ex(one, sizeof one, 0, &o), EVT_TX_SUCCESS);
    assert_int_equal(g_full_calls, 1);
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_NOT_DONE);
}

/* ---- contexts ----------------------------------------------------------------------------------- */

static void test_port_default_context(void **st)
{
    (void)st;
    enum { N = 8, SIZE = 48 + 32 * N };
    static uint8_t buf[SIZE];
    evt_tx_options o = opts(0, 0);
    o.context = NULL;
    assert_int_equal(evt_tx_trace_enable_ex(buf, SIZE, 0, &o), EVT_TX_SUCCESS);
    evt_tx_trace_user_event_insert(5000, 1, 2, 3, 4);
    uint32_t self = (uint32_t)evt_port_context_id();
    assert_int_equal(self, evt_tx_addr((const void *)(uintptr_t)pthread_self()));
    assert_slot(slot(buf, 0, 48, 2), 0, self, 0x80000000u, 5000, 2, 1, 2, 3, 4);
    evt_posix_in_isr = 1;
    evt_tx_trace_isr_enter_insert(9);
    evt_posix_in_isr = 0;
    const uint8_t *s = slot(buf, 0, 48, 3);
    assert_int_equal(w32(s, 0, 0), TXTB_CTX_ISR);
    assert_int_equal(w32(s, 4, 0), 0);
    assert_int_equal(w32(s, 8, 0), TXTB_EVENT_ISR_ENTER);
    assert_int_not_equal(w32(s, 16, 0), 0);          /* a stack sample */
    assert_int_equal(w32(s, 20, 0), 9);
    assert_int_equal(w32(s, 24, 0), 1);              /* system state of an ISR */
    assert_int_equal(w32(s, 28, 0), 0);
    evt_tx_trace_disable();
    /* A callback reporting context 0 (would mean "never written") is recorded as initialisation. */
    o.context = fixed_context;
    set_ctx(0, 0x1234, 0, 0, 0);
    assert_int_equal(evt_tx_trace_enable_ex(buf, SIZE, 0, &o), EVT_TX_SUCCESS);
    assert_slot(slot(buf, 0, 48, 0), 0, TXTB_CTX_INIT, 0, TXTB_EVENT_RUNNING, w32(slot(buf, 0, 48, 0), 12, 0), 0, 0, 0, 0);
    evt_tx_trace_isr_enter_insert(2);
    assert_int_equal(w32(slot(buf, 0, 48, 2), 24, 0), TXTB_CTX_INIT); /* system state in init */
    evt_tx_trace_disable();
}

/* Every id of TXTB_EVENT_TABLE is recorded under exactly its table bit. */
static void test_kernel_event_bits_from_table(void **st)
{
    (void)st;
    static const struct { uint32_t id, filt; } tab[] = {
#define T_(id, name, filt, kind) {id, filt},
        TXTB_EVENT_TABLE(T_)
#undef T_
    };
    static uint8_t buf[48 + 32 * 16];
    evt_tx_options o = opts(0, 0);
    assert_int_equal(evt_tx_trace_enable_ex(buf, sizeof buf, 0, &o), EVT_TX_SUCCESS);
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
        uint32_t clk = evt_test_ticks;
        evt_tx_trace_event_filter(0xFFFFFFFFu);
        evt_tx_trace_event_unfilter(tab[i].filt);
        evt_tx_trace_kernel_event(tab[i].id, 1, 2, 3, 4);
        assert_int_equal(evt_test_ticks, clk + (tab[i].filt != 0)); /* recorded iff its bit is on */
        evt_tx_trace_event_unfilter(0xFFFFFFFFu);
        evt_tx_trace_event_filter(tab[i].filt);
        evt_tx_trace_kernel_event(tab[i].id, 1, 2, 3, 4);
        assert_int_equal(evt_test_ticks, clk + (tab[i].filt != 0)); /* its bit off: not recorded */
    }
    /* Every other id of ThreadX's range 1..199 is recorded under the internal bit alone. */
    for (uint32_t id = 1; id < 200; id++) {
        int in_table = 0;
        for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) in_table |= tab[i].id == id;
        if (in_table) continue;
        uint32_t clk = evt_test_ticks;
        evt_tx_trace_event_unfilter(0xFFFFFFFFu);
        evt_tx_trace_event_filter(EVT_TX_TRACE_INTERNAL_EVENTS);
        evt_tx_trace_kernel_event(id, 1, 2, 3, 4);
        assert_int_equal(evt_test_ticks, clk);
        evt_tx_trace_event_filter(0xFFFFFFFFu);
        evt_tx_trace_event_unfilter(EVT_TX_TRACE_INTERNAL_EVENTS);
        evt_tx_trace_kernel_event(id, 1, 2, 3, 4);
        assert_int_equal(evt_test_ticks, clk + 1);
    }
    evt_tx_trace_disable();
}

/* A signal handler that records while the same thread is inside the recorder's critical section:
 * the nested record is stashed (I9) and written right after the interrupted one, with the next
 * timestamp (a time-source clock is read when it is written): nothing dropped. */
static volatile sig_atomic_t g_sig_rc = -1;
static void on_sigusr1(int sig)
{
    (void)sig;
    g_sig_rc = (sig_atomic_t)evt_tx_trace_user_event_insert(6000, 0, 0, 0, 0);
}
static uint32_t clock_raising(void)
{
    if (evt_test_ticks == 3) raise(SIGUSR1); /* interrupt arrives in the middle of record #3 */
    return evt_test_ticks++;
}
static void test_signal_inside_section(void **st)
{
    (void)st;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigusr1;
    sigemptyset(&sa.sa_mask);
    assert_int_equal(sigaction(SIGUSR1, &sa, &old), 0);
    static uint8_t buf[48 + 32 * 16];
    evt_tx_options o = opts(0, 0);
    o.time_source = clock_raising;
    assert_int_equal(evt_tx_trace_enable_ex(buf, sizeof buf, 0, &o), EVT_TX_SUCCESS); /* ts 0, 1 */
    evt_tx_stats s0, s1;
    evt_tx_trace_get_stats(&s0);
    evt_tx_trace_user_event_insert(5000, 0, 0, 0, 0);   /* ts 2 */
    evt_tx_trace_user_event_insert(5001, 0, 0, 0, 0);   /* ts 3: the handler's record is stashed */
    assert_int_equal(g_sig_rc, EVT_TX_SUCCESS);
    evt_tx_trace_user_event_insert(5002, 0, 0, 0, 0);   /* ts 5 */
    evt_tx_trace_get_stats(&s1);
    assert_int_equal(s1.dropped - s0.dropped, 0);
    assert_int_equal(s1.written - s0.written, 4);
    /* The handler ran during record #3's clock read: its record follows #3, timestamp 4. */
    assert_slot(slot(buf, 0, 48, 3), 0, TXTB_CTX_INIT, 0, 5001, 3, 0, 0, 0, 0);
    assert_slot(slot(buf, 0, 48, 4), 0, TXTB_CTX_INIT, 0, 6000, 4, 0, 0, 0, 0);
    assert_slot(slot(buf, 0, 48, 5), 0, TXTB_CTX_INIT, 0, 5002, 5, 0, 0, 0, 0);
    evt_tx_trace_disable();
    sigaction(SIGUSR1, &old, NULL);
}

/* The same interrupt installed through the port (evt_posix_isr_install): it is held off while the
 * recorder's section runs and records right after it, as a masked interrupt would: nothing dropped. */
static volatile int g_port_isr_runs;
static void port_isr(int sig)
{
    (void)sig;
    g_port_isr_runs++;
    g_sig_rc = (sig_atomic_t)evt_tx_trace_user_event_insert(6001, 0, 0, 0, 0);
}
static uint32_t clock_raising_usr2(void)
{
    if (evt_test_ticks == 3) raise(SIGUSR2);
    return evt_test_ticks++;
}
static void test_port_isr_held_off(void **st)
{
    (void)st;
    assert_int_equal(evt_posix_isr_install(SIGUSR2, port_isr), 0);
    static uint8_t buf[48 + 32 * 16];
    evt_tx_options o = opts(0, 0);
    o.time_source = clock_raising_usr2;
    o.context = 0; /* the port's context: the handler's record is an ISR's */
    assert_int_equal(evt_tx_trace_enable_ex(buf, sizeof buf, 0, &o), EVT_TX_SUCCESS); /* ts 0, 1 */
    evt_rec_stats r0, r1;
    evt_tx_trace_get_rec_stats(&r0);
    g_port_isr_runs = 0;
    evt_tx_trace_user_event_insert(5000, 0, 0, 0, 0);   /* ts 2 */
    evt_tx_trace_user_event_insert(5001, 0, 0, 0, 0);   /* ts 3: the interrupt is raised here */
    assert_int_equal(g_port_isr_runs, 1);               /* ran after record #3's section */
    assert_int_equal(g_sig_rc, EVT_TX_SUCCESS);
    evt_tx_trace_get_rec_stats(&r1);
    assert_int_equal(r1.dropped - r0.dropped, 0);
    assert_int_equal(r1.written - r0.written, 3);
    assert_int_equal(w32(slot(buf, 0, 48, 3), 8, 0), 5001);  /* the interrupted record, whole */
    assert_int_equal(w32(slot(buf, 0, 48, 3), 12, 0), 3);
    assert_int_equal(w32(slot(buf, 0, 48, 4), 8, 0), 6001);  /* then the interrupt's */
    assert_int_equal(w32(slot(buf, 0, 48, 4), 0, 0), TXTB_CTX_ISR);
    assert_int_equal(w32(slot(buf, 0, 48, 4), 12, 0), 4);
    evt_tx_trace_disable();
    signal(SIGUSR2, SIG_DFL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_golden_le, reset),
        cmocka_unit_test_setup(test_golden_be, reset),
        cmocka_unit_test_setup(test_golden_orders_agree, reset),
        cmocka_unit_test_setup(test_enable_errors, reset),
        cmocka_unit_test_setup(test_enable_init, reset),
        cmocka_unit_test_setup(test_registry_full_drops, reset),
        cmocka_unit_test_setup(test_registry_delete_keeps, reset),
        cmocka_unit_test_setup(test_registry_reuse_order, reset),
        cmocka_unit_test_setup(test_registry_names, reset),
        cmocka_unit_test_setup(test_filters, reset),
        cmocka_unit_test_setup(test_filtered_changes_nothing, reset),
        cmocka_unit_test_setup(test_full_callback_each_wrap, reset),
        cmocka_unit_test_setup(test_nested_drop_and_lost_record, reset),
        cmocka_unit_test_setup(test_lost_lookalike_refused, reset),
        cmocka_unit_test_setup(test_nested_record_stashed, reset),
        cmocka_unit_test_setup(test_stop_when_full, reset),
        cmocka_unit_test_setup(test_plain_path_accounting, reset),
        cmocka_unit_test_setup(test_port_isr_held_off, reset),
        cmocka_unit_test_setup(test_port_default_context, reset),
        cmocka_unit_test_setup(test_kernel_event_bits_from_table, reset),
        cmocka_unit_test_setup(test_signal_inside_section, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
