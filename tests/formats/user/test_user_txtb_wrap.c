/* User events in a TXTB ring that wraps (a FreeRTOS snapshot, any flight ring): a site's SITE record
 * is written at its first call of a session, so once the ring has wrapped, the oldest records left
 * may be calls whose SITE record was overwritten. With evt_user_resend() in the buffer-full callback
 * (docs/user-events.md) every site registers again at its first call after each wrap, and the
 * reader takes a site it has not met yet from a SITE record further on in the buffer (a TXTB buffer
 * is one session: one build, one address per site). Every printf and value then decodes with its
 * text, no error. A site called only before the last wrap, never after, cannot be known: its calls
 * left keep their raw words, without a data error (the SITE record's loss is the wrap's, counted). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>
#include "evtrace/json.h"
#include "evtrace/user.h"
#include "formats/threadx/txtb_defs.h"
#include "user_test_util.h"

#define SLOTS 96u
#define BUF_SIZE (48u + 48u * 4u + 32u * SLOTS)
static uint8_t g_buf[BUF_SIZE];

static void on_full(void *hdr)
{
    (void)hdr;
    evt_user_resend();
}

static void record(unsigned rounds, int lonely)
{
    assert_int_equal(evt_tx_trace_enable(g_buf, BUF_SIZE, 4), EVT_TX_SUCCESS);
    assert_int_equal(evt_tx_trace_buffer_full_notify(on_full), EVT_TX_SUCCESS);
    evt_user_resend();
    if (lonely) evt_printf("lonely", "called once, first of all (%d)", 1);
    for (unsigned i = 0; i < rounds; i++) {
        evt_printf("a", "i=%u", i);
        evt_value("v", (int64_t)i * 3);
        evt_printf("b", "%u and %s", i, "words");
    }
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
    evt_tx_trace_buffer_full_notify(NULL);
}

static void test_wrapped_sites(void **st)
{
    (void)st;
    record(200, 0); /* 600 calls, a few wraps of a 96-slot ring */
    ut_trace t;
    assert_int_equal(ut_decode(g_buf, BUF_SIZE, "threadx", NULL, &t), EVT_END);
    assert_int_equal(t.errors, 0);
    unsigned a = 0, b = 0, v = 0;
    for (unsigned i = 0; i < t.n; i++) {
        const ut_ev *e = &t.ev[i];
        char want[64];
        unsigned k;
        if (!strcmp(e->name, "a")) {
            assert_int_equal(sscanf(e->text, "i=%u", &k), 1);
            a++;
        } else if (!strcmp(e->name, "b")) {
            assert_int_equal(sscanf(e->text, "%u and", &k), 1);
            snprintf(want, sizeof want, "%u and %s", k, "words");
            assert_string_equal(e->text, want);
            b++;
        } else if (!strcmp(e->name, "v")) {
            assert_int_equal(e->value % 3, 0);
            v++;
        } else {
            fail_msg("event %s (%s): not a known site", e->name, e->text);
        }
    }
    assert_true(a > 10 && b > 10 && v > 10);
    free(t.ev);
}

static void test_site_gone(void **st)
{
    (void)st;
    record(200, 1);
    /* "lonely" registered and called once at the start, long overwritten: nothing of it is left,
     * and nothing else errs */
    ut_trace t;
    assert_int_equal(ut_decode(g_buf, BUF_SIZE, "threadx", NULL, &t), EVT_END);
    assert_int_equal(t.errors, 0);
    for (unsigned i = 0; i < t.n; i++) assert_string_not_equal(t.ev[i].name, "lonely");
    free(t.ev);
}

/* A site called twice in one lap, not after the wrap that overwrote its SITE record: its second
 * call is left, its site unknown anywhere in the buffer. The SITE record went with the wrap (counted
 * lost there), so the call shows its raw words without a data error. Slots: SITE records of these
 * two sites take 2 slots, calls 1 (96-slot ring): rare's SITE and first call 0-2, a's SITE 3-4 and
 * 40 calls 5-44, rare's second call 45, a's calls 46-95, the wrap, a's SITE 0-1 and 8 calls 2-9:
 * slots 10-95 (rare's second call among them) are the oldest left. */
static void test_site_overwritten(void **st)
{
    (void)st;
    assert_int_equal(evt_tx_trace_enable(g_buf, BUF_SIZE, 4), EVT_TX_SUCCESS);
    assert_int_equal(evt_tx_trace_buffer_full_notify(on_full), EVT_TX_SUCCESS);
    evt_user_resend();
    for (unsigned i = 0; i < 2; i++) {
        evt_printf("rare", "r %u", i);
        for (unsigned k = 0; k < (i == 0 ? 40u : 58u); k++) evt_printf("a", "i=%u", k);
    }
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
    evt_tx_trace_buffer_full_notify(NULL);
    ut_trace t;
    assert_int_equal(ut_decode(g_buf, BUF_SIZE, "threadx", NULL, &t), EVT_END);
    assert_int_equal(t.errors, 0);
    unsigned raw = 0, a = 0;
    for (unsigned i = 0; i < t.n; i++) {
        assert_string_not_equal(t.ev[i].name, "rare");
        if (!strncmp(t.ev[i].text, "<site 0x", 8)) raw++;
        else if (!strcmp(t.ev[i].name, "a")) a++;
    }
    assert_int_equal(raw, 1); /* rare's second call */
    assert_true(a > 50);
    free(t.ev);
}

/* The reader's torn_user_slots (info --json) for the buffer, once it has read every event. */
static unsigned long torn_slots(void)
{
    evt_reader *r = NULL;
    char err[256], *text = NULL;
    size_t len = 0;
    assert_int_equal(evt_reader_open_mem(g_buf, BUF_SIZE, "threadx", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    while (evt_reader_next(r, &ev) == EVT_OK) {
    }
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    evt_json j;
    evt_json_init(&j, f, 0);
    evt_json_obj_begin(&j);
    r->desc->info(r->state, &j);
    evt_json_obj_end(&j);
    fclose(f);
    evt_reader_close(r);
    const char *at = strstr(text, "\"torn_user_slots\":");
    assert_non_null(at);
    unsigned long n = strtoul(at + strlen("\"torn_user_slots\":"), NULL, 10);
    free(text);
    return n;
}

/* A record of several slots cut by the wrap: its first slot overwritten (the recorder counts that
 * slot), its continuation slots left as the buffer's oldest. They are not shown: before, they
 * decoded as plain ThreadX user events USER_64513.. whose info words were pieces of the text. The
 * reader counts them (torn_user_slots); every event shown is a whole call. Records of 3 slots
 * (site, number, a 26-byte string) and of 1 in the 96-slot ring, wrapped once, after 0-3 records
 * of another site that shift the first lap against the second (whose SITE records come again at
 * its start, evt_user_resend): the wrap falls inside a 3-slot record in some of them. */
static void test_torn_record(void **st)
{
    (void)st;
    unsigned torn_runs = 0;
    for (unsigned run = 0; run < 8; run++) {
        unsigned pre = run % 4u, calls = 40u + run / 4u;
        assert_int_equal(evt_tx_trace_enable(g_buf, BUF_SIZE, 4), EVT_TX_SUCCESS);
        assert_int_equal(evt_tx_trace_buffer_full_notify(on_full), EVT_TX_SUCCESS);
        evt_user_resend();
        for (unsigned i = 0; i < pre; i++) evt_printf("pre", "%u", i); /* the first lap's records shifted */
        for (unsigned i = 0; i < calls; i++) {
            evt_printf("long", "%u: %s", i, "abcdefghijklmnopqrstuvwxyz");
            evt_printf("s", "%u", i);
        }
        assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
        evt_tx_trace_buffer_full_notify(NULL);
        ut_trace t;
        assert_int_equal(ut_decode(g_buf, BUF_SIZE, "threadx", NULL, &t), EVT_END);
        assert_int_equal(t.errors, 0);
        assert_true(t.n > 10);
        for (unsigned i = 0; i < t.n; i++) {
            unsigned k;
            if (!strcmp(t.ev[i].name, "s") || !strcmp(t.ev[i].name, "pre")) continue;
            if (strcmp(t.ev[i].name, "long") != 0) fail_msg("event %s (%s): a piece of a torn record", t.ev[i].name, t.ev[i].text);
            assert_int_equal(sscanf(t.ev[i].text, "%u: ", &k), 1);
            char want[64];
            snprintf(want, sizeof want, "%u: %s", k, "abcdefghijklmnopqrstuvwxyz");
            assert_string_equal(t.ev[i].text, want);
        }
        unsigned long torn = torn_slots();
        assert_true(torn <= 2u); /* at most a record's continuation slots */
        torn_runs += torn != 0;
        free(t.ev);
    }
    assert_true(torn_runs > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_wrapped_sites), cmocka_unit_test(test_site_gone),
                                       cmocka_unit_test(test_site_overwritten), cmocka_unit_test(test_torn_record)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
