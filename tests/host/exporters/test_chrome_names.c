/* The Chrome exporter keeps record prefixes (name, tid) in a cache matched by the name's content,
 * and field keys and string values quoted by address only when they lie in the program's
 * read-only image (a reader's strings live only until its next event). Each synthetic trace is
 * exported twice: as read (the reader's literals), and with every event's name, object name, field
 * keys and string field values copied into one buffer reused for every event (the same address,
 * other contents, other lengths: "value" and "function" are keys at one address); both outputs
 * must be byte-identical. The traces: plain names, hostile ones (quotes,
 * control and non-UTF-8 bytes: the JSON writer's path), and a tick clock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evt_reader_test.h"
#include "evt_test.h"
#include "evtrace/exporter.h"
#include "evtrace/reader.h"

/* One buffer for every string of an event, reused from event to event. */
static char g_strings[4096];

/* ev's strings moved into g_strings (one after another), so that the next event's sit at the
 * same addresses with other contents. */
static void relocate(evt_event *ev)
{
    size_t k = 0;
    const char **ps[2 + 2 * EVT_MAX_FIELDS];
    size_t n = 0;
    ps[n++] = &ev->name;
    ps[n++] = &ev->target_name;
    for (uint32_t i = 0; i < ev->nfields; i++) {
        ps[n++] = &ev->fields[i].key;
        if (ev->fields[i].is_str) ps[n++] = &ev->fields[i].str;
    }
    for (size_t i = 0; i < n; i++) {
        const char *p = *ps[i];
        if (!p) continue;
        size_t len = strlen(p);
        assert_true(k + len + 1 <= sizeof g_strings);
        memmove(g_strings + k, p, len + 1);
        *ps[i] = g_strings + k;
        k += len + 1;
    }
}

/* Exports spec to out, each event given more fields (more, unless NULL), then relocating every
 * event's strings when asked. */
static void export_spec(const char *spec, const char *out, void (*more)(evt_event *), int reuse)
{
    evt_reader *r;
    void *xs;
    const evt_exporter_desc *x = evt_test_export_begin("chrome", spec, out, &r, &xs);
    char err[256];
    evt_event ev;
    evt_status st;
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        if (more) more(&ev);
        if (reuse) relocate(&ev);
        assert_int_equal(x->event(xs, &ev), EVT_OK);
    }
    assert_int_equal(st, EVT_END);
    assert_int_equal(x->end(xs, r, err, sizeof err), EVT_OK);
    evt_reader_close(r);
}

/* The whole file at path (NUL-terminated), its size in *len. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    assert_true(n > 0);
    rewind(f);
    char *b = malloc((size_t)n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    b[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* spec exported direct and reused (see export_spec); returns the direct output (caller frees). */
static char *same_output(const char *spec, const char *tag, void (*more)(evt_event *))
{
    char a[4096], b[4096];
    snprintf(a, sizeof a, "%s/%s.direct.json", evt_test_tmpdir(), tag);
    snprintf(b, sizeof b, "%s/%s.reused.json", evt_test_tmpdir(), tag);
    export_spec(spec, a, more, 0);
    export_spec(spec, b, more, 1);
    size_t na, nb;
    char *da = slurp(a, &na), *db = slurp(b, &nb);
    assert_true(strstr(da, "\"ph\":\"i\"") != NULL); /* instants (reader names) were written */
    assert_int_equal(na, nb);
    assert_memory_equal(da, db, na);
    free(db);
    remove(a);
    remove(b);
    return da;
}

static void plain_names(void **st)
{
    (void)st;
    free(same_output("evtrace-synthetic 1\nevents 20000\nthreads 70\nhz 100000000\nlost_every 997\n", "plain", NULL));
}

static void hostile_names(void **st)
{
    (void)st;
    free(same_output("evtrace-synthetic 1\nevents 20000\nthreads 9\nhz 1000000\nweird 1\n", "weird", NULL));
}

static void tick_clock(void **st)
{
    (void)st;
    free(same_output("evtrace-synthetic 1\nevents 20000\nthreads 3\n", "ticks", NULL));
}

/* Fields whose strings are the program's literals but not kept by address (keys and values that
 * need escaping, are not UTF-8, or are longer than a kept one), and numbers at the edges of the
 * integer formatter's digit groups and memo (9 digits and more). */
static const uint64_t k_edges[] = {0, 9, 10, 99, 100, 9999, 10000, 99999999, 100000000, 4294967295u,
                                   9999999999999999u, 10000000000000000u, UINT64_MAX};
enum { N_EDGES = sizeof k_edges / sizeof k_edges[0] };
static void hostile_fields(evt_event *ev)
{
    evt_event_add_field_s(ev, "key \"quoted\" \\ </script>", "tab\there \x01");
    evt_event_add_field_s(ev, "a key longer than the thirty bytes of a kept one", "\xff\xfe not UTF-8");
    evt_event_add_field_s(ev, "state", "a value longer than the thirty bytes of a kept one");
    evt_event_add_field_u(ev, "edge", k_edges[ev->offset % N_EDGES]);
    evt_event_add_field_i(ev, "neg", ev->offset % 2 ? INT64_MIN : -(int64_t)ev->offset);
}

static void hostile_fields_by_text(void **st)
{
    (void)st;
    char *out = same_output("evtrace-synthetic 1\nevents 5000\nthreads 3\nhz 1000000\n", "fields", hostile_fields);
    assert_non_null(strstr(out, ",\"key \\\"quoted\\\" \\\\ </script>\":\"tab\\there \\u0001\","));
    for (unsigned i = 0; i < N_EDGES; i++) { /* every edge exactly as printf writes it */
        char want[64];
        snprintf(want, sizeof want, "\"edge\":%" PRIu64 ",\"neg\":", k_edges[i]);
        assert_non_null(strstr(out, want));
    }
    assert_non_null(strstr(out, "\"neg\":-9223372036854775808}"));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plain_names),
        cmocka_unit_test(hostile_names),
        cmocka_unit_test(tick_clock),
        cmocka_unit_test(hostile_fields_by_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
