/* Unit tests of the streaming JSON writer and the stable JSON form of an event. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evtrace/json.h"
#include "evtrace/model.h"

static char *render(void (*fn)(evt_json *))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    evt_json j;
    evt_json_init(&j, f, 0);
    fn(&j);
    fclose(f);
    return buf;
}

static void nested(evt_json *j)
{
    evt_json_obj_begin(j);
    evt_json_kstr(j, "a", "x\"y\n\x01\xff");
    evt_json_key(j, "b");
    evt_json_arr_begin(j);
    evt_json_u64(j, 18446744073709551615ull);
    evt_json_i64(j, -5);
    evt_json_null(j);
    evt_json_obj_begin(j);
    evt_json_obj_end(j);
    evt_json_arr_end(j);
    evt_json_kbool(j, "c", 1);
    evt_json_obj_end(j);
}

static void test_nesting_and_escapes(void **st)
{
    (void)st;
    char *s = render(nested);
    /* 0xFF is never UTF-8: U+FFFD (EF BF BD), not the Latin-1 character U+00FF */
    assert_string_equal(s, "{\"a\":\"x\\\"y\\n\\u0001\xEF\xBF\xBD\",\"b\":[18446744073709551615,-5,null,{}],\"c\":true}");
    free(s);
}

/* UTF-8 in names passes through; each invalid or truncated sequence becomes one U+FFFD. */
static const struct { const char *in, *out; } k_utf8[] = {
    {"pr\xC3\xB6" "d\xC3\xBC" "cer", "pr\xC3\xB6" "d\xC3\xBC" "cer"},             /* prödücer */
    {"\xE2\x82\xAC \xF0\x9F\x98\x80", "\xE2\x82\xAC \xF0\x9F\x98\x80"},             /* € and an emoji */
    {"a\xC3", "a\xEF\xBF\xBD"},                                                   /* truncated at the end */
    {"\xC3(", "\xEF\xBF\xBD("},                                                   /* bad continuation */
    {"\xC0\xAF", "\xEF\xBF\xBD\xEF\xBF\xBD"},                                     /* overlong: two bytes bad */
    {"\xED\xA0\x80", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"},                     /* a surrogate */
    {"\xF4\x90\x80\x80", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"},     /* above U+10FFFF */
    {"\xE2\x82x", "\xEF\xBF\xBDx"},                                               /* maximal subpart E2 82 */
    {"\xF0\x9F\x98", "\xEF\xBF\xBD"},                                             /* truncated 4-byte */
    {"\x7F\x80\xFE", "\\u007f\xEF\xBF\xBD\xEF\xBF\xBD"},                          /* DEL, lone continuation, FE */
};
static size_t g_case;
static void one_string(evt_json *j) { evt_json_str(j, k_utf8[g_case].in); }

static void test_utf8(void **st)
{
    (void)st;
    for (g_case = 0; g_case < sizeof k_utf8 / sizeof k_utf8[0]; g_case++) {
        char *s = render(one_string);
        char want[64];
        snprintf(want, sizeof want, "\"%s\"", k_utf8[g_case].out);
        assert_string_equal(s, want);
        free(s);
    }
}

static void one_event(evt_json *j)
{
    evt_event ev;
    evt_event_reset(&ev);
    ev.fmt = "threadx";
    ev.id = 1;
    ev.name = "THREAD_RESUME";
    ev.kind = EVT_KIND_THREAD_RUN;
    ev.ts = 42;
    ev.offset = 1968;
    ev.flags = EVT_HAS_CTX | EVT_HAS_PRIO;
    ev.ctx = 0x565858c0;
    ev.ctx_name = "producer";
    ev.prio = 0x800a000a;
    evt_event_add_arg(&ev, 1);
    evt_event_add_arg(&ev, 2);
    evt_event_add_field_s(&ev, "state", "READY");
    evt_json_event(j, &ev);
}

static void test_event_contract_keys(void **st)
{
    (void)st;
    char *s = render(one_event);
    assert_string_equal(s, "{\"fmt\":\"threadx\",\"id\":1,\"name\":\"THREAD_RESUME\",\"kind\":\"thread_run\","
                           "\"ts\":42,\"ctx\":1448630464,\"ctx_name\":\"producer\",\"prio\":2148139018,"
                           "\"offset\":1968,\"args\":[1,2],\"fields\":{\"state\":\"READY\"}}");
    free(s);
}

static void no_ctx(evt_json *j)
{
    evt_event ev;
    evt_event_reset(&ev);
    ev.fmt = "x";
    ev.name = "lost";
    ev.kind = EVT_KIND_LOST;
    ev.flags = EVT_HAS_COUNT;
    ev.count = 7;
    evt_json_event(j, &ev);
}

static void test_event_null_ctx_and_lost(void **st)
{
    (void)st;
    char *s = render(no_ctx);
    assert_non_null(strstr(s, "\"ctx\":null"));
    assert_non_null(strstr(s, "\"kind\":\"lost\""));
    assert_non_null(strstr(s, "\"count\":7"));
    assert_non_null(strstr(s, "\"args\":[]"));
    free(s);
}

static void test_kind_names_roundtrip(void **st)
{
    (void)st;
    for (int k = 0; k < EVT_KIND_COUNT_; k++)
        assert_int_equal(evt_kind_parse(evt_kind_name((evt_kind)k)), k);
    assert_int_equal(evt_kind_parse("nope"), EVT_KIND_COUNT_);
    assert_string_equal(evt_kind_name(EVT_KIND_ISR_ENTER), "isr_enter");
}

static void test_limits_drop_extra(void **st)
{
    (void)st;
    evt_event ev;
    evt_event_reset(&ev);
    for (int i = 0; i < EVT_MAX_ARGS + 5; i++) evt_event_add_arg(&ev, (uint64_t)i);
    assert_int_equal(ev.nargs, EVT_MAX_ARGS);
    for (int i = 0; i < EVT_MAX_FIELDS + 5; i++) evt_event_add_field_u(&ev, "k", (uint64_t)i);
    assert_int_equal(ev.nfields, EVT_MAX_FIELDS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nesting_and_escapes),
        cmocka_unit_test(test_utf8),
        cmocka_unit_test(test_event_contract_keys),
        cmocka_unit_test(test_event_null_ctx_and_lost),
        cmocka_unit_test(test_kind_names_roundtrip),
        cmocka_unit_test(test_limits_drop_extra),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
