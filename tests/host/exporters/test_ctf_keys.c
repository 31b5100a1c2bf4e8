/* The CTF exporter remembers, per (kind, id) hint slot, the event name and the field keys found
 * equal to its class's, when they lie in the program's read-only image (their text never
 * changes; ctf.c ctf_fast). A reader's other strings live only until its next event: names and
 * keys rewritten in one heap buffer must give byte for byte the trace that a fresh copy per event
 * gives (a memo that trusted the address would write the "beta" and "gamma" events with the class
 * of "alpha"), and literal keys, which are remembered, the same trace again. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evt_reader_test.h"
#include "evt_test.h"
#include "evtrace/alloc.h"
#include "evtrace/exporter.h"
#include "evtrace/out.h"
#include "evtrace/reader.h"

static const char *const texts_[] = {"alpha", "beta", "alpha", "gamma", "beta", "alpha"};
enum { ROUNDS = sizeof texts_ / sizeof texts_[0], REPEATS = 3 };
enum { FRESH, REUSED, LITERAL };

/* Exports the events of the rounds to out: round r's events (REPEATS of them, so that the hint
 * slot's fast path runs) are named "u_" texts_[r] and have one field keyed texts_[r], both from a
 * heap copy per round (FRESH), one heap buffer rewritten every round (REUSED) or literals. */
static void export_rounds(const char *out, int how)
{
    static const char *const names_[] = {"u_alpha", "u_beta", "u_alpha", "u_gamma", "u_beta", "u_alpha"};
    static const char spec[] = "evtrace-synthetic 1\nevents 1\nthreads 1\nhz 1000000\n";
    evt_reader *r;
    void *xs;
    const evt_exporter_desc *x = evt_test_export_begin("ctf", spec, out, &r, &xs);
    char *name[ROUNDS], *key[ROUNDS];
    for (unsigned k = 0; k < ROUNDS; k++) {
        if (how == LITERAL) {
            name[k] = (char *)(uintptr_t)names_[k];
            key[k] = (char *)(uintptr_t)texts_[k];
            continue;
        }
        int fresh = how == FRESH || k == 0;
        name[k] = fresh ? evt_malloc(16) : name[0];
        key[k] = fresh ? evt_malloc(16) : key[0];
        assert_non_null(name[k]);
        assert_non_null(key[k]);
    }
    uint64_t t = 1000;
    for (unsigned k = 0; k < ROUNDS; k++) {
        if (how != LITERAL) {
            strcpy(name[k], names_[k]);
            strcpy(key[k], texts_[k]);
        }
        for (unsigned rep = 0; rep < REPEATS; rep++) {
            evt_event ev;
            evt_event_reset(&ev);
            ev.fmt = "test";
            ev.kind = EVT_KIND_USER;
            ev.id = 7;
            ev.name = name[k];
            ev.ts = t++;
            evt_event_add_field_u(&ev, key[k], 100 * k + rep);
            assert_int_equal(x->event(xs, &ev), EVT_OK);
        }
    }
    char err[256];
    assert_int_equal(x->end(xs, r, err, sizeof err), EVT_OK);
    evt_reader_close(r);
    if (how != LITERAL)
        for (unsigned k = 0; k < ROUNDS; k++)
            if (how == FRESH || k == 0) {
                evt_free(name[k]);
                evt_free(key[k]);
            }
}

/* The whole file dir/name, its size in *len (caller frees). */
static uint8_t *slurp(const char *dir, const char *name, size_t *len)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return evt_test_read_file(path, len);
}

/* Every file of directory a is in b with the same bytes, and b has no other. */
static void same_tree(const char *a, const char *b)
{
    unsigned na = 0, nb = 0;
    DIR *d = opendir(a);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        size_t la, lb;
        uint8_t *fa = slurp(a, e->d_name, &la), *fb = slurp(b, e->d_name, &lb);
        assert_int_equal(la, lb);
        assert_memory_equal(fa, fb, la);
        free(fa);
        free(fb);
        na++;
    }
    closedir(d);
    d = opendir(b);
    assert_non_null(d);
    while ((e = readdir(d)) != NULL) nb += e->d_name[0] != '.';
    closedir(d);
    assert_int_equal(na, nb);
    assert_true(na >= 2); /* metadata and a stream */
}

static void keys_named_by_text(void **st)
{
    (void)st;
    char dir[3][4096];
    static const char *const tag[3] = {"fresh", "reused", "literal"};
    for (int how = FRESH; how <= LITERAL; how++) {
        snprintf(dir[how], sizeof dir[how], "%s/ctf_keys.%s", evt_test_tmpdir(), tag[how]);
        export_rounds(dir[how], how);
    }
    size_t n;
    uint8_t *m = slurp(dir[FRESH], "metadata", &n);
    char *meta = malloc(n + 1);
    assert_non_null(meta);
    memcpy(meta, m, n);
    meta[n] = '\0';
    free(m);
    assert_non_null(strstr(meta, "beta")); /* every key got its class */
    assert_non_null(strstr(meta, "gamma"));
    free(meta);
    same_tree(dir[FRESH], dir[REUSED]);
    same_tree(dir[FRESH], dir[LITERAL]);
    for (int how = FRESH; how <= LITERAL; how++) assert_int_equal(evt_out_remove_tree(dir[how]), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keys_named_by_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
