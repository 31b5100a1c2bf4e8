/* User events through the TXTB recorder and reader: evt_printf (every argument kind, strings cut to
 * EVT_CFG_USER_STR_MAX, records over several slots), evt_value, intervals and a state machine come
 * back with their channel and the text snprintf gives; SITE records once per session; a record
 * whose site is unknown, whose arguments are cut short or whose format does not match its
 * arguments shows the raw arguments with a diagnostic at its byte offset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>
#include "evtrace/user.h"
#include "formats/threadx/txtb_defs.h"
#include "user_test_util.h"

#define BUF_SIZE (64u * 1024u)
static uint8_t g_buf[BUF_SIZE];

static void enable(void)
{
    assert_int_equal(evt_tx_trace_enable(g_buf, BUF_SIZE, 8), EVT_TX_SUCCESS);
    evt_user_resend();
}

static const ut_ev *find(const ut_trace *t, const char *name, unsigned k)
{
    for (unsigned i = 0; i < t->n; i++)
        if (strcmp(t->ev[i].name, name) == 0 && k-- == 0) return &t->ev[i];
    return NULL;
}

static void test_printf_kinds(void **st)
{
    (void)st;
    enable();
    char expect[512];
    const char *name = "hello";
    void *p = (void *)(uintptr_t)0x1234u;
    evt_printf("adc", "ch %u: %d mV (%s) %p %.3f %lld %hhx|%-6s%%", 3u, -42, name, p, 2.5, -5LL, 300, "ab");
    snprintf(expect, sizeof expect, "ch %u: %d mV (%s) %p %.3f %lld %hhx|%-6s%%", 3u, -42, name, p, 2.5, -5LL, 300,
             "ab");
    evt_printf("adc", "no arguments");
    unsigned long ul = 0xFFFFFFFFFFul;
    short sh = -3;
    float f = 1.25f;
    long double ld = 0.5L;
    evt_printf("mix", "%lu %hd %e %Lg %zu %#o %+5.2d", ul, sh, f, ld, (size_t)7, 8, 9);
    char expect2[256];
    snprintf(expect2, sizeof expect2, "%lu %hd %e %Lg %zu %#o %+5.2d", ul, sh, f, ld, (size_t)7, 8, 9);
    char longs[100];
    memset(longs, 'x', sizeof longs - 1);
    longs[sizeof longs - 1] = '\0';
    evt_printf("cut", "[%s]", longs);
    const char *volatile nul = NULL;
    evt_printf("nul", "[%.10s]", nul);
    evt_value("temp", -7);
    evt_value("temp", INT64_C(1) << 40);
    evt_interval_begin("dma", 5);
    evt_interval_end("dma", 5);
    EVT_STATE_MACHINE(motor, "motor", "idle, spin_up,run");
    evt_state(motor, 2);
    evt_state(motor, 7);
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);

    ut_trace t;
    assert_int_equal(ut_decode(g_buf, BUF_SIZE, "threadx", NULL, &t), EVT_END);
    const ut_ev *e = find(&t, "adc", 0);
    assert_non_null(e);
    assert_true(e->has & EVT_M_LABEL);
    assert_string_equal(e->text, expect);
    assert_string_equal(e->text_field, expect);
    assert_string_equal(find(&t, "adc", 1)->text, "no arguments");
    assert_string_equal(find(&t, "mix", 0)->text, expect2);
    char cut[64];
    snprintf(cut, sizeof cut, "[%.*s]", EVT_CFG_USER_STR_MAX, longs);
    assert_string_equal(find(&t, "cut", 0)->text, cut);
    char nulexp[32];
    const char *volatile vn = NULL;
    snprintf(nulexp, sizeof nulexp, "[%.10s]", vn);
    assert_string_equal(find(&t, "nul", 0)->text, nulexp);
    e = find(&t, "temp", 0);
    assert_true(e->has & EVT_M_VALUE);
    assert_int_equal(e->value, -7);
    assert_int_equal(find(&t, "temp", 1)->value, INT64_C(1) << 40);
    e = find(&t, "dma", 0);
    assert_true(e->has & EVT_M_INTERVAL);
    assert_int_equal(e->interval_id, 5);
    assert_int_equal(e->interval_end, 0);
    assert_int_equal(find(&t, "dma", 1)->interval_end, 1);
    e = find(&t, "motor", 0);
    assert_true(e->has & EVT_M_SM_STATE);
    assert_string_equal(e->state, "run");
    assert_string_equal(find(&t, "motor", 1)->state, ""); /* index past the names: none */
    /* one SITE record per call site (adc has two sites) */
    assert_int_equal(t.sites, 10);
    assert_int_equal(t.errors, 0);
    assert_int_equal(t.diags.n, 0);
    free(t.ev);
}

static void test_sites_once_per_session(void **st)
{
    (void)st;
    enable();
    for (int i = 0; i < 5; i++) evt_printf("loop", "i=%d", i);
    evt_user_resend();
    evt_printf("loop", "again");
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
    ut_trace t;
    assert_int_equal(ut_decode(g_buf, BUF_SIZE, "threadx", NULL, &t), EVT_END);
    assert_int_equal(t.sites, 2);
    assert_int_equal(t.n, 6);
    for (int i = 0; i < 5; i++) {
        char x[16];
        snprintf(x, sizeof x, "i=%d", i);
        assert_string_equal(t.ev[i].text, x);
        if (i) assert_true(t.ev[i].ts >= t.ev[i - 1].ts);
    }
    free(t.ev);
}

/* A hand-made site of another signature than its format wants. */
static const struct {
    evt_user_site_hdr h;
    char ch[4];
    char tx[8];
} k_bad = {{EVT_USER_SITE_MAGIC, EVT_USER_T_U32, 4, 8, EVT_USER_K_PRINTF, 0, {0, 0}}, "bad", "v=%s %d"};
static uint32_t k_bad_sent;

static void test_bad_records(void **st)
{
    (void)st;
    enable();
    evt_txtb_user_u32_(&k_bad.h, &k_bad_sent, 77u);             /* %s with an integer */
    uint32_t unknown[3] = {0xDEADBEE0u, 1u, 2u};
    assert_int_equal(evt_txtb_user_write(EVT_USER_R_CALL, unknown, 3), 1); /* no SITE record */
    evt_printf("short", "%d %d %d %d", 1, 2, 3, 4);               /* registers the site */
    /* a CALL of that site cut short: find the site word in the last record written */
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
    ut_trace t;
    assert_int_equal(ut_decode(g_buf, BUF_SIZE, "threadx", NULL, &t), EVT_END);
    const ut_ev *e = find(&t, "bad", 0);
    assert_non_null(e);
    assert_non_null(strstr(e->text, "<raw>"));
    assert_non_null(strstr(e->text, "77"));
    e = find(&t, "user", 0);
    assert_non_null(e);
    assert_non_null(strstr(e->text, "deadbee0"));
    assert_int_equal(t.errors, 2);
    assert_int_equal(t.diags.n, 2);
    assert_non_null(strstr(t.diags.msg[0], "needs a string"));
    assert_non_null(strstr(t.diags.msg[1], "no SITE record"));
    assert_true(t.diags.off[0] > TXTB_HEADER_SIZE);
    free(t.ev);
}

/* The words of the last CALL record of `channel`'s site, written again with fewer words. */
static void test_cut_short(void **st)
{
    (void)st;
    enable();
    evt_printf("cs", "%d %s", 5, "abcdefghij");
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
    /* find the CALL head slot and shorten its declared length by editing the id: n-1 words */
    uint32_t cur = 0;
    for (uint32_t off = TXTB_HEADER_SIZE + 8u * (16u + 32u); off + 32u <= BUF_SIZE; off += 32u) {
        uint32_t id, ctx;
        memcpy(&id, g_buf + off + TXTB_EV_ID, 4);
        memcpy(&ctx, g_buf + off + TXTB_EV_CONTEXT, 4);
        if (ctx == 0u) break; /* the written slots end (no wrap here) */
        if ((id & ~0x3FFu) == (EVT_USER_TXTB_BASE | EVT_USER_R_CALL << 10)) {
            cur = off;
            id = (id & ~0x3FFu) | 4u; /* site, int, str header, 1 word of 3 */
            memcpy(g_buf + off + TXTB_EV_ID, &id, 4);
        }
    }
    assert_true(cur != 0);
    ut_trace t;
    assert_int_equal(ut_decode(g_buf, BUF_SIZE, "threadx", NULL, &t), EVT_END);
    const ut_ev *e = find(&t, "cs", 0);
    assert_non_null(e);
    assert_non_null(strstr(e->text, "<raw>"));
    assert_true(t.diags.n >= 1);
    assert_non_null(strstr(t.diags.msg[0], "cut short"));
    assert_true(t.diags.off[0] >= cur && t.diags.off[0] < cur + 64u);
    free(t.ev);
}

static void test_off_costs_nothing(void **st)
{
    (void)st;
    int evaluated = 0;
    evt_printf("off", "%d", ++evaluated); /* recorder off: arguments not evaluated */
    evt_value("off", ++evaluated);
    assert_int_equal(evaluated, 0);
    enable();
    evt_tx_trace_event_filter(EVT_TX_TRACE_USER_EVENTS);
    evt_printf("off", "%d", ++evaluated);
    assert_int_equal(evaluated, 0);
    evt_tx_trace_event_unfilter(EVT_TX_TRACE_USER_EVENTS);
    evt_printf("on", "%d", ++evaluated);
    assert_int_equal(evaluated, 1);
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_printf_kinds),     cmocka_unit_test(test_sites_once_per_session),
        cmocka_unit_test(test_bad_records),      cmocka_unit_test(test_cut_short),
        cmocka_unit_test(test_off_costs_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
