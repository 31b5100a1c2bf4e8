/* Unit tests of the readers' vouching helpers (formats/common/text_ok.h): which text may be vouched
 * for, that only a string the event still holds gets its bit, and that inline appends mark their
 * fields while the model's appenders leave theirs to the per-event check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "formats/common/text_ok.h"

static void test_vouchable_text(void **st)
{
    (void)st;
    assert_true(evt_text_ok("THREAD_RESUME"));
    assert_true(evt_text_ok(""));
    assert_true(evt_text_ok("caf\xc3\xa9 \xe2\x82\xac")); /* valid UTF-8 */
    assert_false(evt_text_ok(NULL));
    assert_false(evt_text_ok("a\x1b[2Jb"));           /* a control byte */
    assert_false(evt_text_ok("tab\there"));
    assert_false(evt_text_ok("bad \xc3("));           /* invalid UTF-8 */
    assert_false(evt_text_ok("x\xe2\x80\xaey"));      /* U+202E, a bidi override */
    assert_false(evt_text_ok("del\x7f"));
}

static void test_vouch_only_what_the_event_holds(void **st)
{
    (void)st;
    static evt_event ev;
    evt_event_reset(&ev);
    const char *table_name = "QUEUE_SEND";
    char scratch[8] = "rx";
    ev.name = table_name;
    ev.ctx_name = scratch;
    ev.m.label = table_name;
    evt_vouch(&ev, EVT_TEXT_OK_NAME, ev.name, table_name);
    evt_vouch(&ev, EVT_TEXT_OK_CTX_NAME, ev.ctx_name, table_name); /* another string: no bit */
    evt_vouch(&ev, EVT_TEXT_OK_TARGET_NAME, ev.target_name, table_name); /* NULL: no bit */
    assert_int_equal(ev.text_ok, EVT_TEXT_OK_NAME);

    const char *list[2] = {table_name, "other"};
    evt_vouch_list(&ev, list, 2);
    assert_int_equal(ev.text_ok, EVT_TEXT_OK_NAME | EVT_TEXT_OK_LABEL);
    evt_event_reset(&ev); /* clears the bits */
    assert_int_equal(ev.text_ok, 0);
    assert_int_equal(ev.fields_ok, 0);
}

static void test_field_appends(void **st)
{
    (void)st;
    static evt_event ev;
    evt_event_reset(&ev);
    evt_put_u(&ev, "priority", 7);
    evt_event_add_field_s(&ev, "state", "from a file"); /* not vouched */
    evt_put_s(&ev, "unit", "bytes");
    evt_put_i(&ev, "delta", -3);
    assert_int_equal(ev.nfields, 4);
    assert_int_equal(ev.fields_ok, 0x1u | 0x4u | 0x8u);
    assert_string_equal(ev.fields[0].key, "priority");
    assert_int_equal(ev.fields[0].is_str, 0);
    assert_int_equal(ev.fields[0].num, 7);
    assert_true(ev.fields[2].is_str && ev.fields[2].str && ev.fields[2].num == 0);
    assert_true(ev.fields[3].is_signed && (int64_t)ev.fields[3].num == -3);
    /* an index reused by the model's appender loses a stale bit */
    ev.nfields = 0;
    evt_event_add_field_u(&ev, "x", 1);
    assert_int_equal(ev.fields_ok & 1u, 0);
    /* past the limit: dropped, as the model's appenders do */
    evt_event_reset(&ev);
    for (unsigned i = 0; i < EVT_MAX_FIELDS + 3; i++) evt_put_u(&ev, "k", i);
    assert_int_equal(ev.nfields, EVT_MAX_FIELDS);
    assert_int_equal(ev.fields_ok, (1u << EVT_MAX_FIELDS) - 1u);
    for (unsigned i = 0; i < EVT_MAX_ARGS + 2; i++) evt_put_arg(&ev, i);
    assert_int_equal(ev.nargs, EVT_MAX_ARGS);
    assert_int_equal(ev.args[EVT_MAX_ARGS - 1], EVT_MAX_ARGS - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vouchable_text),
        cmocka_unit_test(test_vouch_only_what_the_event_holds),
        cmocka_unit_test(test_field_appends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
