/* Reader helpers shared by the decoder tests (evt_reader_test.h). */
#define _GNU_SOURCE
#include "evt_reader_test.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "evtrace/exporter.h"
#include "evtrace/json.h"

char *evt_test_info_json(evt_reader *rd)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f) {
        fprintf(stderr, "evt_test_info_json: open_memstream failed\n");
        abort();
    }
    evt_json j;
    evt_json_init(&j, f, 0);
    evt_json_obj_begin(&j);
    if (rd->desc->info) rd->desc->info(rd->state, &j);
    evt_json_obj_end(&j);
    fclose(f);
    return out;
}

void evt_test_diag_collect(void *user, uint64_t off, const char *msg)
{
    evt_test_diags *d = user;
    if (d->n < EVT_TEST_DIAG_MAX) {
        d->off[d->n] = off;
        snprintf(d->msg[d->n], sizeof d->msg[0], "%s", msg);
    }
    d->n++;
}

int evt_test_diag_has(const evt_test_diags *d, uint64_t off, const char *word)
{
    for (unsigned i = 0; i < d->n && i < EVT_TEST_DIAG_MAX; i++)
        if (d->off[i] == off && strstr(d->msg[i], word)) return 1;
    return 0;
}

void evt_test_count_file(const char *path, const char *format, uint64_t *data, uint64_t *lost, uint64_t *errors)
{
    evt_reader *r = NULL;
    char err[256];
    if (evt_reader_open_file(path, format, NULL, NULL, NULL, &r, err, sizeof err) != EVT_OK) fail_msg("%s: %s", path, err);
    evt_event ev;
    evt_status st;
    *data = 0;
    while ((st = evt_reader_next(r, &ev)) == EVT_OK)
        if (ev.kind != EVT_KIND_LOST) (*data)++;
    assert_int_equal(st, EVT_END);
    *errors = r->errors;
    *lost = r->lost;
    evt_reader_close(r);
}

const evt_exporter_desc *evt_test_export_begin(const char *kind, const char *spec, const char *out, evt_reader **r,
                                               void **xs)
{
    const evt_exporter_desc *x = evt_exporter_find(kind);
    assert_non_null(x);
    char err[256];
    *r = NULL;
    assert_int_equal(evt_reader_open_mem(spec, strlen(spec), "synthetic", NULL, NULL, NULL, r, err, sizeof err),
                     EVT_OK);
    *xs = NULL;
    assert_int_equal(x->begin(out, *r, xs, err, sizeof err), EVT_OK);
    return x;
}
