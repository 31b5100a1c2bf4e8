/* The Chrome exporter keeps record prefixes (name, tid) in a cache matched by the name's content,
 * not its address (a reader's strings live only until its next event). Each synthetic trace is
 * exported twice: as read, and with every event's name, object name and string field values
 * copied into one buffer reused for every event (the same address, other contents, other
 * lengths); both outputs must be byte-identical. The traces: plain names, hostile ones (quotes,
 * control and non-UTF-8 bytes: the JSON writer's path), and a tick clock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
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
    const char **ps[2 + EVT_MAX_FIELDS];
    size_t n = 0;
    ps[n++] = &ev->name;
    ps[n++] = &ev->target_name;
    for (uint32_t i = 0; i < ev->nfields; i++)
        if (ev->fields[i].is_str) ps[n++] = &ev->fields[i].str;
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

/* Exports spec to out, relocating every event's strings when asked. */
static void export_spec(const char *spec, const char *out, int reuse)
{
    evt_reader *r;
    void *xs;
    const evt_exporter_desc *x = evt_test_export_begin("chrome", spec, out, &r, &xs);
    char err[256];
    evt_event ev;
    evt_status st;
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
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

static void same_output(const char *spec, const char *tag)
{
    char a[4096], b[4096];
    snprintf(a, sizeof a, "%s/%s.direct.json", evt_test_tmpdir(), tag);
    snprintf(b, sizeof b, "%s/%s.reused.json", evt_test_tmpdir(), tag);
    export_spec(spec, a, 0);
    export_spec(spec, b, 1);
    size_t na, nb;
    char *da = slurp(a, &na), *db = slurp(b, &nb);
    assert_true(strstr(da, "\"ph\":\"i\"") != NULL); /* instants (reader names) were written */
    assert_int_equal(na, nb);
    assert_memory_equal(da, db, na);
    free(da);
    free(db);
    remove(a);
    remove(b);
}

static void plain_names(void **st)
{
    (void)st;
    same_output("evtrace-synthetic 1\nevents 20000\nthreads 70\nhz 100000000\nlost_every 997\n", "plain");
}

static void hostile_names(void **st)
{
    (void)st;
    same_output("evtrace-synthetic 1\nevents 20000\nthreads 9\nhz 1000000\nweird 1\n", "weird");
}

static void tick_clock(void **st)
{
    (void)st;
    same_output("evtrace-synthetic 1\nevents 20000\nthreads 3\n", "ticks");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plain_names),
        cmocka_unit_test(hostile_names),
        cmocka_unit_test(tick_clock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
