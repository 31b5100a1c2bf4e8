/* Unit tests of the row producer (tl_rows.h): the column descriptors are the X-macros of
 * tl_tables.def and docs/sqlite.md lists every table and column with its type and nullability;
 * a hand-built event sequence gives the rows computed by hand (events, ISR, slice, running
 * interval, loss, objects created / deleted / created again / only mentioned, contexts with ISR
 * time subtracted, the traces row); a sink that stops and memory that runs out stop the producer
 * with 0, never a crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "evt_meaning_test.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evt_test.h"
#include "evtrace/alloc.h"
#include "host/timeline/tl_rows.h"

/* ---- a sink keeping every row as text: "v|v|...", NULL for null ------------------------------ */
#define MAX_ROWS 256
typedef struct rows_seen {
    char *rows[EVT_TL_T_COUNT_][MAX_ROWS];
    unsigned n[EVT_TL_T_COUNT_];
    unsigned stop_after; /* 0: never stop */
    unsigned total;
} rows_seen;

static int keep_row(void *user, evt_tl_table t, const evt_tl_val *v)
{
    rows_seen *rs = user;
    if (rs->stop_after && rs->total >= rs->stop_after) return 0;
    rs->total++;
    const evt_tl_table_desc *d = evt_tl_table_at(t);
    char buf[2048];
    size_t n = 0;
    for (uint32_t i = 0; i < d->ncols && n < sizeof buf - 64; i++) {
        if (i) buf[n++] = '|';
        if (v[i].is_null) { n += (size_t)snprintf(buf + n, sizeof buf - n, "NULL"); continue; }
        switch (d->cols[i].type) {
        case EVT_TL_I64: n += (size_t)snprintf(buf + n, sizeof buf - n, "%" PRId64, v[i].i); break;
        case EVT_TL_F64: n += (size_t)snprintf(buf + n, sizeof buf - n, "%.3f", v[i].f); break;
        case EVT_TL_TEXT:
        case EVT_TL_BLOB:
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%.*s", (int)v[i].n, v[i].s);
            break;
        }
    }
    buf[n] = '\0';
    if (rs->n[t] < MAX_ROWS) rs->rows[t][rs->n[t]++] = strdup(buf);
    return 1;
}

static void seen_free(rows_seen *rs)
{
    for (int t = 0; t < EVT_TL_T_COUNT_; t++)
        for (unsigned i = 0; i < rs->n[t]; i++) free(rs->rows[t][i]);
}

static void assert_row(const rows_seen *rs, evt_tl_table t, const char *want)
{
    for (unsigned i = 0; i < rs->n[t]; i++)
        if (strcmp(rs->rows[t][i], want) == 0) return;
    for (unsigned i = 0; i < rs->n[t]; i++) print_message("  %s row: %s\n", evt_tl_table_at(t)->name, rs->rows[t][i]);
    fail_msg("no %s row %s", evt_tl_table_at(t)->name, want);
}

/* ---- descriptors ------------------------------------------------------------------------------ */
/* The test's own expansion of the X-macros: name, type and nullability of every column. */
#define T_COL_(cname, ctype, cnull, cdoc) {#cname, EVT_TL_##ctype, cnull, cdoc},
#define T_TABLE_(tname, tdoc) static const evt_tl_column want_##tname[] = {EVT_TL_COLS_##tname(T_COL_)};
EVT_TL_TABLES(T_TABLE_)
#define T_REF_(tname, tdoc) {#tname, tdoc, want_##tname, sizeof want_##tname / sizeof want_##tname[0]},
static const evt_tl_table_desc want_tables[] = {EVT_TL_TABLES(T_REF_)};

static void descriptors_are_the_def(void **st)
{
    (void)st;
    assert_int_equal(sizeof want_tables / sizeof want_tables[0], EVT_TL_T_COUNT_);
    assert_null(evt_tl_table_at(EVT_TL_T_COUNT_));
    for (int t = 0; t < EVT_TL_T_COUNT_; t++) {
        const evt_tl_table_desc *d = evt_tl_table_at((evt_tl_table)t);
        assert_string_equal(d->name, want_tables[t].name);
        assert_string_equal(d->doc, want_tables[t].doc);
        assert_int_equal(d->ncols, want_tables[t].ncols);
        for (uint32_t i = 0; i < d->ncols; i++) {
            assert_string_equal(d->cols[i].name, want_tables[t].cols[i].name);
            assert_int_equal(d->cols[i].type, want_tables[t].cols[i].type);
            assert_int_equal(d->cols[i].nullable, want_tables[t].cols[i].nullable);
        }
    }
}

/* docs/sqlite.md: a "### `table`" section per table whose rows list its columns, in order, as
 * "| `col` | TYPE | yes/no |". */
static void docs_list_every_column(void **st)
{
    (void)st;
    static const char *const sql_type[] = {"INTEGER", "REAL", "TEXT", "BLOB"};
    size_t len;
    char *doc = (char *)evt_test_read_file(EVT_SOURCE_DIR "/docs/sqlite.md", &len);
    char *z = malloc(len + 1);
    memcpy(z, doc, len);
    z[len] = '\0';
    for (int t = 0; t < EVT_TL_T_COUNT_; t++) {
        const evt_tl_table_desc *d = evt_tl_table_at((evt_tl_table)t);
        char head[128];
        snprintf(head, sizeof head, "\n### `%s`\n", d->name);
        const char *sec = strstr(z, head);
        if (!sec) fail_msg("docs/sqlite.md has no section %s", head + 1);
        sec += strlen(head);
        const char *end = strstr(sec, "\n### ");
        if (!end) end = z + len;
        const char *at = sec;
        for (uint32_t i = 0; i < d->ncols; i++) {
            char row[160];
            snprintf(row, sizeof row, "\n| `%s` | %s | %s |", d->cols[i].name, sql_type[d->cols[i].type],
                     d->cols[i].nullable ? "yes" : "no");
            const char *hit = strstr(at, row);
            if (!hit || hit > end) fail_msg("docs/sqlite.md, table %s: no row %s after the previous column", d->name, row + 1);
            at = hit + strlen(row);
        }
        /* no column documented that the def does not have */
        unsigned rows = 0;
        for (const char *p = sec; (p = strstr(p, "\n| `")) != NULL && p < end; p++) rows++;
        assert_int_equal(rows, d->ncols);
    }
    free(z);
    free(doc);
}

/* ---- rows of a small trace -------------------------------------------------------------------- */
enum { A = 0x10, B = 0x20, ISR = 0xFFFFFFFF, Q = 0x100, O = 0x200 };

typedef struct evb {
    evt_event e;
} evb;

static evt_event *ev_(evb *b, evt_kind k, const char *name, uint64_t ts, uint64_t ctx, evt_ctx_class cls)
{
    evt_event *e = &b->e;
    evt_event_reset(e);
    e->fmt = "test";
    e->kind = k;
    e->name = name;
    e->ts = ts;
    e->offset = ts * 2;
    if (cls != EVT_CTX_NONE) {
        e->flags |= EVT_HAS_CTX;
        e->ctx = ctx;
        e->ctx_class = cls;
        e->ctx_name = ctx == A ? "A" : ctx == B ? "B" : "ISR";
    }
    return e;
}

static void target_(evt_event *e, uint64_t target, const char *name)
{
    e->flags |= EVT_HAS_TARGET;
    e->target = target;
    e->target_name = name;
}

/* Feeds the sequence; returns 0 as soon as the producer refuses (sink stopped, out of memory). */
static int feed_(evt_tl_rows *r)
{
    evb b;
    evt_event *e;
    e = ev_(&b, EVT_KIND_THREAD_RUN, "RUN", 100, A, EVT_CTX_THREAD); /* A runs from 100 */
    target_(e, A, "A");
    if (!evt_tl_rows_add(r, e)) return 0;
    e = ev_(&b, EVT_KIND_SVC_ENTER, "QS", 110, A, EVT_CTX_THREAD);
    target_(e, Q, "q");
    evt_event_add_arg(e, 7);
    evt_event_add_field_s(e, "note", "say \"hi\"\n");
    if (!evt_tl_rows_add(r, e)) return 0;
    e = ev_(&b, EVT_KIND_SVC_EXIT, "QS", 120, A, EVT_CTX_THREAD);
    if (!evt_tl_rows_add(r, e)) return 0;
    e = ev_(&b, EVT_KIND_ISR_ENTER, "IN", 130, ISR, EVT_CTX_ISR); /* ISR 130..150 interrupts A */
    tm_irq(e, 3);
    if (!evt_tl_rows_add(r, e)) return 0;
    e = ev_(&b, EVT_KIND_ISR_EXIT, "OUT", 150, ISR, EVT_CTX_ISR);
    tm_irq(e, 3);
    if (!evt_tl_rows_add(r, e)) return 0;
    e = ev_(&b, EVT_KIND_OBJ_CREATE, "MK", 160, A, EVT_CTX_THREAD);
    target_(e, O, "sem");
    e->m.has |= EVT_M_OBJ_TYPE; /* the type is the meaning's, not the record's name */
    e->m.obj_type = EVT_HOOK_OBJ_SEMAPHORE;
    if (!evt_tl_rows_add(r, e)) return 0;
    e = ev_(&b, EVT_KIND_OBJ_DELETE, "RM", 170, A, EVT_CTX_THREAD);
    target_(e, O, "sem");
    if (!evt_tl_rows_add(r, e)) return 0;
    e = ev_(&b, EVT_KIND_OBJ_CREATE, "MK", 180, A, EVT_CTX_THREAD); /* the same address again */
    e->m.has |= EVT_M_OBJ_TYPE;
    e->m.obj_type = EVT_HOOK_OBJ_SEMAPHORE;
    target_(e, O, "sem");
    if (!evt_tl_rows_add(r, e)) return 0;
    e = ev_(&b, EVT_KIND_USER, "U", 200, B, EVT_CTX_THREAD); /* B from 200: A preempted */
    static const uint8_t txt[] = "hello";
    e->data = txt;
    e->data_len = 5;
    e->data_is_text = 1;
    if (!evt_tl_rows_add(r, e)) return 0;
    e = ev_(&b, EVT_KIND_LOST, "LOST", 210, 0, EVT_CTX_NONE);
    e->flags |= EVT_HAS_COUNT;
    e->count = 5;
    if (!evt_tl_rows_add(r, e)) return 0;
    e = ev_(&b, EVT_KIND_USER, "U", 220, B, EVT_CTX_THREAD);
    return evt_tl_rows_add(r, e);
}

/* A producer of a ticks trace "t.bin" whose rows go to rs (cleared). */
static evt_tl_rows *rows_into_(rows_seen *rs)
{
    memset(rs, 0, sizeof *rs);
    evt_tl_trace_info info = {"test", "t.bin", 0, "unknown", 0};
    evt_tl_row_sink sink = {rs, keep_row};
    evt_tl_rows *r = evt_tl_rows_new(&info, &sink);
    assert_non_null(r);
    return r;
}

static void rows_of_a_small_trace(void **st)
{
    (void)st;
    rows_seen rs;
    evt_tl_rows *r = rows_into_(&rs);
    assert_int_equal(feed_(r), 1);
    assert_int_equal(evt_tl_rows_finish(r, 2), 1);
    /* events: seq|ts|t_ns|id|name|kind|ctx|cpu|prio|seq_no|count|target|target_name|offset|args|fields|data|text|t */
    assert_int_equal(rs.n[EVT_TL_T_events], 11);
    assert_row(&rs, EVT_TL_T_events,
               "1|110|NULL|0|QS|svc_enter|16|NULL|NULL|NULL|NULL|256|q|220|[7]|"
               "{\"target\":256,\"target_name\":\"q\",\"note\":\"say \\\"hi\\\"\\u000a\"}|NULL|NULL|110");
    assert_row(&rs, EVT_TL_T_events, "8|200|NULL|0|U|user|32|NULL|NULL|NULL|NULL|NULL|NULL|400|[]|NULL|hello|hello|200");
    assert_row(&rs, EVT_TL_T_events, "9|210|NULL|0|LOST|lost|NULL|NULL|NULL|NULL|5|NULL|NULL|420|[]|NULL|NULL|NULL|210");
    /* isrs: cpu|irq|name|t0|t1|dur|depth|interrupted|truncated|isr_ctx */
    assert_int_equal(rs.n[EVT_TL_T_isrs], 1);
    assert_row(&rs, EVT_TL_T_isrs, "0|3|IN #3|130|150|20|0|16|0|4294967295");
    /* slices: ctx|cat|name|t0|t1|dur|depth|object|truncated */
    assert_row(&rs, EVT_TL_T_slices, "16|svc|QS|110|120|10|0|256|0");
    /* thread_states: ctx|state|cpu|t0|t1|dur|object|service|open_end: A ran 100..200 */
    assert_row(&rs, EVT_TL_T_thread_states, "16|running|0|100|200|100|NULL|NULL|0");
    /* losses: cpu|t0|t1|count */
    assert_int_equal(rs.n[EVT_TL_T_losses], 1);
    assert_row(&rs, EVT_TL_T_losses, "0|200|210|5");
    /* objects: target|name|created_ts|created_seq|deleted_ts|deleted_seq|ctx|type|created_t|deleted_t */
    /* (type: from the creating event's name) created, deleted, created again; q only mentioned */
    assert_int_equal(rs.n[EVT_TL_T_objects], 3);
    assert_row(&rs, EVT_TL_T_objects, "512|sem|160|5|170|6|16|semaphore|160|170");
    assert_row(&rs, EVT_TL_T_objects, "512|sem|180|7|NULL|NULL|16|semaphore|180|NULL");
    assert_row(&rs, EVT_TL_T_objects, "256|q|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL");
    /* contexts: A ran 100..200 less the ISR's 20, switched in once; no wait causes, preemptions or
     * time slices said */
    char want[256];
    snprintf(want, sizeof want, "16|A|thread|6|100|180|80|%.3f|NULL|100|180|1|NULL|NULL|NULL|NULL|NULL|NULL", 80 * 100.0 / 120);
    assert_row(&rs, EVT_TL_T_contexts, want);
    /* traces: format|source|clock_hz|clock_source|time_unit|start_t|end_t|events|lost|errors */
    assert_int_equal(rs.n[EVT_TL_T_traces], 1);
    assert_row(&rs, EVT_TL_T_traces, "test|t.bin|NULL|unknown|ticks|100|220|11|5|2");
    for (int t = 0; t < EVT_TL_T_COUNT_; t++) assert_int_equal(evt_tl_rows_count(r, (evt_tl_table)t), rs.n[t]);
    evt_tl_rows_free(r);
    seen_free(&rs);
}

/* A sink that refuses a row stops the producer: every later call returns 0. */
static void sink_stop(void **st)
{
    (void)st;
    for (unsigned stop = 1; stop < 12; stop++) {
        rows_seen rs;
        memset(&rs, 0, sizeof rs);
        rs.stop_after = stop;
        evt_tl_trace_info info = {"test", NULL, 1000000000, "format", 0};
        evt_tl_row_sink sink = {&rs, keep_row};
        evt_tl_rows *r = evt_tl_rows_new(&info, &sink);
        assert_non_null(r);
        int ok = feed_(r);
        if (ok) ok = evt_tl_rows_finish(r, 0);
        assert_int_equal(ok, 0);
        assert_int_equal(rs.total, stop);
        evt_tl_rows_free(r);
        seen_free(&rs);
    }
}

/* The fields text of strings of every length 0..40 (the 8-byte steps, their overlapping last
 * word, the 4-byte and 1..3-byte paths), each clean and with one byte to escape at every position
 * ('"', '\\', control bytes, DEL), and with UTF-8 (bytes >= 0x80: copied as they are), in the key
 * and in the value: the JSON text equals a byte-by-byte escaping done here. Every such string sits
 * in one buffer rewritten for the next (a cache of quoted strings that trusted a writable address
 * would repeat an earlier text); the other key and value are literals (the cached path). */
static void json_quote_ref_(char *o, const char *s)
{
    *o++ = '"';
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\') { *o++ = '\\'; *o++ = (char)*c; }
        else if (*c < 0x20 || *c == 0x7f) o += sprintf(o, "\\u%04x", *c);
        else *o++ = (char)*c;
    }
    *o++ = '"';
    *o = '\0';
}

static void json_text_of_every_length(void **st)
{
    (void)st;
    static const unsigned char special[] = {'"', '\\', 0x01, 0x0a, 0x1f, 0x7f, 0xc3};
    rows_seen rs;
    evt_tl_rows *r = rows_into_(&rs);
    unsigned checked = 0;
    for (size_t n = 0; n <= 40; n++) {
        for (size_t at = 0; at <= n; at++) { /* at == n: no special byte */
            for (size_t k = 0; k < sizeof special; k++) {
                if (at == n && k) break;
                char str[48];
                for (size_t i = 0; i < n; i++) str[i] = (char)('a' + i % 26);
                str[n] = '\0';
                if (at < n) {
                    str[at] = (char)special[k];
                    if (special[k] == 0xc3) { /* a whole two-byte UTF-8 character (é) when it fits */
                        if (at + 1 < n) str[at + 1] = (char)0xa9;
                        else str[at] = (char)0x7e;
                    }
                }
                for (int where = 0; where < 2; where++) { /* the string as the key, then as the value */
                    evb b;
                    evt_event *e = ev_(&b, EVT_KIND_USER, "U", 100 + checked, A, EVT_CTX_THREAD);
                    evt_event_add_field_s(e, where ? "k" : str, where ? str : "v");
                    assert_int_equal(evt_tl_rows_add(r, e), 1);
                    char q[300], want[400];
                    json_quote_ref_(q, str);
                    if (where) snprintf(want, sizeof want, "{\"k\":%s}", q);
                    else snprintf(want, sizeof want, "{%s:\"v\"}", q);
                    /* the last events row: ...|args|fields|data|text|t */
                    const char *row = rs.rows[EVT_TL_T_events][rs.n[EVT_TL_T_events] - 1];
                    if (!strstr(row, want)) fail_msg("length %zu, byte %zu = 0x%02x: row %s, want %s", n, at,
                                                     at < n ? special[k] : 0, row, want);
                    free(rs.rows[EVT_TL_T_events][--rs.n[EVT_TL_T_events]]);
                    checked++;
                }
            }
        }
    }
    assert_true(checked > 5000);
    evt_tl_rows_free(r);
    seen_free(&rs);
}

/* Out of memory at every allocation in turn: 0 from the producer, no crash, no leak (ASan). */
static void out_of_memory(void **st)
{
    (void)st;
    for (unsigned long n = 1;; n++) {
        rows_seen rs;
        memset(&rs, 0, sizeof rs);
        evt_tl_trace_info info = {"test", "x", 0, NULL, 0};
        evt_tl_row_sink sink = {&rs, keep_row};
        evt_alloc_fail_after(n, 1);
        evt_tl_rows *r = evt_tl_rows_new(&info, &sink);
        int ok = r && feed_(r) && evt_tl_rows_finish(r, 0);
        evt_alloc_fail_after(0, 0);
        evt_tl_rows_free(r);
        seen_free(&rs);
        if (ok) break;
        assert_true(n < 10000);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(descriptors_are_the_def),
        cmocka_unit_test(docs_list_every_column),
        cmocka_unit_test(rows_of_a_small_trace),
        cmocka_unit_test(sink_stop),
        cmocka_unit_test(json_text_of_every_length),
        cmocka_unit_test(out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
