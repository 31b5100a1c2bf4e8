/* Unit tests of the streaming JSON writer and the stable JSON form of an event; strings of every
 * length to past the writer's 2 KiB assembly buffer against a reference escaper, with a byte to
 * escape, a UTF-8 sequence or an invalid byte at the start, middle and end, each value followed by
 * a marker written to the same FILE directly (nothing is kept between calls); numbers at their
 * limits; indentation past the deepest level. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evtrace/json.h"
#include "evtrace/model.h"
#include "host/utf8.h"

/* fn's JSON text (pretty: 1 with newlines and indentation). */
static char *render_as(void (*fn)(evt_json *), int pretty)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    evt_json j;
    evt_json_init(&j, f, pretty);
    fn(&j);
    fclose(f);
    return buf;
}
static char *render(void (*fn)(evt_json *)) { return render_as(fn, 0); }

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


/* The escaping rules written plainly (json.c's contract): valid UTF-8 as it is, an invalid
 * sequence's maximal subpart as U+FFFD, '"' '\\' \n \r \t as two characters, other bytes below
 * 0x20 and DEL as \u00xx. */
static void ref_escape_(FILE *o, const unsigned char *s, size_t n)
{
    fputc('"', o);
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        if (c >= 0x80) {
            size_t bad, k = evt_utf8_seq(s + i, n - i, &bad);
            if (k) fwrite(s + i, 1, k, o);
            else fputs("\xEF\xBF\xBD", o);
            i += k ? k : bad;
            continue;
        }
        if (c == '"') fputs("\\\"", o);
        else if (c == '\\') fputs("\\\\", o);
        else if (c == '\n') fputs("\\n", o);
        else if (c == '\r') fputs("\\r", o);
        else if (c == '\t') fputs("\\t", o);
        else if (c < 0x20 || c == 0x7F) fprintf(o, "\\u%04x", c);
        else fputc(c, o);
        i++;
    }
    fputc('"', o);
}

static void test_strings_every_length(void **st)
{
    (void)st;
    static const char *const ins[] = {"", "\"", "\x01", "\x7f", "\xc3\xa9", "\xff", "\xe2\x82", "\\", "\t"};
    static unsigned char s[2200];
    char *got = NULL, *want = NULL;
    size_t glen = 0, wlen = 0;
    FILE *g = open_memstream(&got, &glen), *w = open_memstream(&want, &wlen);
    evt_json j;
    evt_json_init(&j, g, 0);
    evt_json_arr_begin(&j);
    fputc('[', w);
    int first = 1;
    for (size_t n = 0; n <= 2100; n += n < 80 ? 1 : (n > 1000 && n < 1060) || n > 2030 ? 1 : 13) {
        for (size_t c = 0; c < sizeof ins / sizeof ins[0]; c++) {
            for (int at = 0; at < 3; at++) {
                size_t m = strlen(ins[c]);
                if (n < m) continue;
                for (size_t i = 0; i < n; i++) s[i] = (unsigned char)('a' + i % 26);
                size_t pos = at == 0 ? 0 : at == 1 ? (n - m) / 2 : n - m;
                memcpy(s + pos, ins[c], m);
                evt_json_strn(&j, (const char *)s, n);
                fputs("|", g); /* written between two calls: lands right after the value */
                if (!first) fputc(',', w);
                first = 0;
                ref_escape_(w, s, n);
                fputs("|", w);
            }
        }
    }
    evt_json_arr_end(&j);
    fputc(']', w);
    fclose(g);
    fclose(w);
    assert_int_equal(glen, wlen);
    assert_memory_equal(got, want, wlen);
    free(got);
    free(want);
}

static void limits_and_depth(evt_json *j)
{
    evt_json_obj_begin(j);
    evt_json_ki64(j, "min", INT64_MIN);
    evt_json_ki64(j, "max", INT64_MAX);
    evt_json_ki64(j, "minus", -1);
    evt_json_ku64(j, "u", 10000000000000000000ull);
    evt_json_ku64(j, "zero", 0);
    evt_json_key(j, "deep");
    for (int i = 0; i < 35; i++) evt_json_arr_begin(j);
    evt_json_u64(j, 7);
    for (int i = 0; i < 35; i++) evt_json_arr_end(j);
    evt_json_obj_end(j);
}

static void test_numbers_and_depth(void **st)
{
    (void)st;
    char *a = render(limits_and_depth);
    assert_non_null(strstr(a, "{\"min\":-9223372036854775808,\"max\":9223372036854775807,\"minus\":-1,"
                              "\"u\":10000000000000000000,\"zero\":0,\"deep\":[[[["));
    assert_non_null(strstr(a, "[[[7]]]"));
    free(a);
    char *p = render_as(limits_and_depth, 1);
    /* the deepest level's indentation: 31 levels of two spaces (EVT_JSON_MAX_DEPTH - 1) */
    char want[80] = "\n";
    for (int i = 0; i < 31; i++) strcat(want, "  ");
    strcat(want, "7");
    assert_non_null(strstr(p, want));
    assert_non_null(strstr(p, "\n  \"min\": -9223372036854775808,"));
    free(p);
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
        cmocka_unit_test(test_strings_every_length),
        cmocka_unit_test(test_numbers_and_depth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
