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
    assert_string_equal(s, "{\"a\":\"x\\\"y\\n\\u0001\\u00ff\",\"b\":[18446744073709551615,-5,null,{}],\"c\":true}");
    free(s);
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
        cmocka_unit_test(test_event_contract_keys),
        cmocka_unit_test(test_event_null_ctx_and_lost),
        cmocka_unit_test(test_kind_names_roundtrip),
        cmocka_unit_test(test_limits_drop_extra),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
