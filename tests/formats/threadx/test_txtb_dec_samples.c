/* The TXTB reader through the library API (no CLI) on all 5 real buffers, against their answer keys:
 * header/layout figures of <name>.key.json (read with a minimal purpose-built extractor) compared
 * with the reader's info JSON, and every row of <name>.entries.csv (slot, context, priority word,
 * id, info1..4, timestamp step in the counting direction) compared with the events in order.
 * The CLI side (registry objects, per-id counts, dump --json) is tests/formats/threadx/check_sample_key.py. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evt_reader_test.h"
#include "evt_test.h"
#include "evtrace/reader.h"

/* Value of the first "<key>": in a JSON text: an integer, a "0x.." hex string, or true/false.
 * Fails the test if the key is absent (every key used here occurs once in the files). */
static unsigned long long json_num(const char *text, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    const char *p = strstr(text, pat);
    if (!p) fail_msg("key %s missing", key);
    p += strlen(pat);
    while (*p == ' ' || *p == ':' || *p == '\n') p++;
    if (strncmp(p, "true", 4) == 0) return 1;
    if (strncmp(p, "false", 5) == 0) return 0;
    if (*p == '"') return strtoull(p + 1, NULL, 16);
    return strtoull(p, NULL, 10);
}

typedef struct row { unsigned long slot, ctx, prio, id, ts, info[4]; } row;

/* Parses <name>.entries.csv: seq,index,context,priority,event_id,event,timestamp,info1..4. */
static row *read_rows(const char *path, size_t *n)
{
    size_t len;
    char *text = (char *)evt_test_read_file(path, &len);
    size_t cap = 1024, k = 0;
    row *rows = malloc(cap * sizeof *rows);
    assert_non_null(rows);
    char *save = NULL;
    char *line = strtok_r(text, "\n", &save); /* header line */
    assert_non_null(line);
    assert_true(strncmp(line, "seq,index,context,priority,event_id,event,timestamp,info1", 57) == 0);
    while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
        if (k == cap) { cap *= 2; rows = realloc(rows, cap * sizeof *rows); assert_non_null(rows); }
        row *r = &rows[k++];
        char *f = line, *end;
        strtoul(f, &end, 10);                       /* seq */
        r->slot = strtoul(end + 1, &end, 10);
        r->ctx = strtoul(end + 1, &end, 16);
        r->prio = strtoul(end + 1, &end, 16);
        r->id = strtoul(end + 1, &end, 10);
        end = strchr(end + 1, ',');                 /* event name */
        assert_non_null(end);
        r->ts = strtoul(end + 1, &end, 10);
        for (int i = 0; i < 4; i++) r->info[i] = strtoul(end + 1, &end, 16);
    }
    free(text);
    *n = k;
    return rows;
}

static void check_sample(const char *base)
{
    char path[512];
    size_t klen, nrows;
    snprintf(path, sizeof path, "%s/%s.key.json", EVT_TEST_DATA_DIR, base);
    char *key = (char *)evt_test_read_file(path, &klen);
    snprintf(path, sizeof path, "%s/%s.entries.csv", EVT_TEST_DATA_DIR, base);
    row *rows = read_rows(path, &nrows);
    snprintf(path, sizeof path, "%s/%s.trx", EVT_TEST_DATA_DIR, base);

    evt_reader *r = NULL;
    char err[256] = "";
    if (evt_reader_open_file(path, NULL, NULL, NULL, NULL, &r, err, sizeof err) != EVT_OK)
        fail_msg("%s: %s", path, err);
    assert_string_equal(r->desc->name, "threadx"); /* auto-detected */

    unsigned long long area = json_num(key, "event_area_offset");
    unsigned long long mask = json_num(key, "timer_valid_mask");
    unsigned long long mod = 1;
    while (mod <= mask) mod <<= 1;
    int down = json_num(key, "timestamp_decreases") > nrows / 2;
    size_t k = 0;
    unsigned long long prev_ts = 0, prev_raw = 0;
    evt_event ev;
    evt_status st;
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        assert_true(k < nrows);
        const row *w = &rows[k];
        assert_int_equal(ev.offset, area + w->slot * 32u);
        assert_int_equal(ev.ctx, w->ctx);
        assert_int_equal(ev.prio, w->prio);
        assert_int_equal(ev.id, w->id);
        assert_int_equal(ev.nargs, 4);
        for (int i = 0; i < 4; i++) assert_int_equal(ev.args[i], w->info[i]);
        unsigned long long raw = w->ts & mask;
        if (k > 0) {
            unsigned long long step = (down ? prev_raw + mod - raw : raw + mod - prev_raw) % mod;
            assert_true(ev.ts >= prev_ts);
            assert_int_equal(ev.ts - prev_ts, step);
        }
        prev_ts = ev.ts;
        prev_raw = raw;
        k++;
    }
    assert_int_equal(st, EVT_END);
    assert_int_equal(k, nrows);
    assert_int_equal(r->errors, 0);
    assert_int_equal(r->lost, 0);

    /* the reader's info JSON against the key's header and layout figures */
    char *info = evt_test_info_json(r);
    assert_int_equal(json_num(info, "valid_entries"), json_num(key, "valid_entries"));
    assert_int_equal(json_num(info, "valid_entries"), nrows);
    assert_int_equal(json_num(info, "capacity"), json_num(key, "event_capacity"));
    assert_int_equal(json_num(info, "registry_entries"), json_num(key, "registry_entries"));
    assert_int_equal(json_num(info, "event_area_offset"), area);
    assert_int_equal(json_num(info, "wrapped"), json_num(key, "wrapped"));
    assert_int_equal(json_num(info, "oldest_index"), json_num(key, "oldest_index"));
    assert_int_equal(json_num(info, "first_timestamp"), json_num(key, "first_timestamp"));
    assert_int_equal(json_num(info, "last_timestamp"), json_num(key, "last_timestamp"));
    assert_int_equal(json_num(info, "timer_mask"), mask);
    assert_true(strstr(info, down ? "\"timer_direction\":\"down\"" : "\"timer_direction\":\"up\"") != NULL);
    free(info);
    evt_reader_close(r);
    free(rows);
    free(key);
}

static void test_nowrap_m32le(void **st) { (void)st; check_sample("threadx_real/nowrap_m32le"); }
static void test_demo_threadx(void **st) { (void)st; check_sample("threadx_tracex/demo_threadx"); }
static void test_demo_filex(void **st) { (void)st; check_sample("threadx_tracex/demo_filex"); }
static void test_demo_netx_tcp(void **st) { (void)st; check_sample("threadx_tracex/demo_netx_tcp"); }
static void test_demo_netx_udp(void **st) { (void)st; check_sample("threadx_tracex/demo_netx_udp"); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nowrap_m32le),  cmocka_unit_test(test_demo_threadx),
        cmocka_unit_test(test_demo_filex),    cmocka_unit_test(test_demo_netx_tcp),
        cmocka_unit_test(test_demo_netx_udp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
