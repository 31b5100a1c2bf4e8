/* Helpers of the user-event tests: decode a TXTB buffer and collect its user events (text,
 * channel, meaning) and diagnostics. */
#ifndef USER_TEST_UTIL_H
#define USER_TEST_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "evt_reader_test.h"
#include "evtrace/model.h"
#include "evtrace/reader.h"

typedef struct ut_ev {
    char name[64];
    char text[512];
    evt_kind kind;
    unsigned has;
    int64_t value;
    uint64_t interval_id;
    int interval_end;
    char state[64];
    uint64_t ctx, ts;
    char text_field[512];
} ut_ev;

typedef struct ut_trace {
    ut_ev *ev;
    unsigned n, cap;
    unsigned sites, anchors;
    evt_test_diags diags;
    uint64_t errors, lost;
} ut_trace;

/* Decode buf with the named reader (opts may be NULL) into t (user, marker and lost events kept). Returns
 * the reader's final status (EVT_END when whole). */
static inline evt_status ut_decode(const void *buf, size_t len, const char *fmt, const evt_open_opts *opts,
                                   ut_trace *t)
{
    memset(t, 0, sizeof *t);
    evt_reader *r = NULL;
    char err[256];
    evt_status st = evt_reader_open_mem(buf, len, fmt, opts, evt_test_diag_collect, &t->diags, &r, err, sizeof err);
    if (st != EVT_OK) return st;
    evt_event ev;
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        if (ev.kind == EVT_KIND_LOST) t->lost += ev.count;
        if (ev.name && strcmp(ev.name, "USER_SITE") == 0) t->sites++;
        if (ev.name && strcmp(ev.name, "USER_ANCHOR") == 0) t->anchors++;
        if (ev.kind != EVT_KIND_USER) continue;
        if (t->n == t->cap) {
            t->cap = t->cap ? 2 * t->cap : 64;
            t->ev = realloc(t->ev, t->cap * sizeof *t->ev);
        }
        ut_ev *u = &t->ev[t->n++];
        memset(u, 0, sizeof *u);
        snprintf(u->name, sizeof u->name, "%s", ev.name ? ev.name : "");
        u->kind = ev.kind;
        u->has = ev.m.has;
        u->ctx = ev.ctx;
        u->ts = ev.ts;
        if (ev.m.has & EVT_M_TEXT) snprintf(u->text, sizeof u->text, "%s", ev.m.text);
        if (ev.data && ev.data_is_text)
            snprintf(u->text_field, sizeof u->text_field, "%.*s", (int)ev.data_len, (const char *)ev.data);
        u->value = ev.m.value;
        u->interval_id = ev.m.interval_id;
        u->interval_end = ev.m.interval_end;
        if ((ev.m.has & EVT_M_SM_STATE) && ev.m.sm_state) snprintf(u->state, sizeof u->state, "%s", ev.m.sm_state);
    }
    t->errors = r->errors;
    evt_reader_close(r);
    return st;
}

#endif
