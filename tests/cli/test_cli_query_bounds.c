/* `evtrace query` is bounded (issue 31, item 4): --timeout stops a runaway statement (a recursive
 * CTE without end) with a message and exit 1; --max-rows caps the rows printed (exit 1, message);
 * and a WAL database is read without any file appearing beside it (opened immutable). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "evt_test.h"

#define SAMPLE EVT_TEST_DATA_DIR "/threadx_real/nowrap_m32le.trx"

static double now_(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void timeout_stops_a_runaway_query(void **st)
{
    (void)st;
    const char *argv[] = {evt_test_bin(), "query", "-q", "--timeout", "0.3", SAMPLE,
                          "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c", NULL};
    char *out = NULL, *err = NULL;
    double t0 = now_();
    int rc = evt_test_runv(argv, &out, NULL, &err);
    double el = now_() - t0;
    assert_int_equal(rc, 1);
    assert_non_null(strstr(err, "stopped after 0.3 s (--timeout 0.3)"));
    assert_true(el < 20.0); /* the bound, with room for a loaded machine: without it the CTE never ends */
    free(out);
    free(err);
}

static void max_rows_caps_the_output(void **st)
{
    (void)st;
    const char *argv[] = {evt_test_bin(), "query", "-q", "--max-rows", "3", SAMPLE, "SELECT seq FROM events", NULL};
    char *out = NULL, *err = NULL;
    int rc = evt_test_runv(argv, &out, NULL, &err);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(err, "stopped after 3 rows (--max-rows 3)"));
    int lines = 0;
    for (const char *p = out; *p; p++) lines += *p == '\n';
    assert_int_equal(lines, 4); /* the header and 3 rows */
    free(out);
    free(err);
    const char *all[] = {evt_test_bin(), "query", "-q", "--max-rows", "0", SAMPLE, "SELECT count(*) FROM events", NULL};
    assert_int_equal(evt_test_runv(all, NULL, NULL, NULL), 0);
    const char *bad[] = {evt_test_bin(), "query", "--timeout", "0", SAMPLE, "SELECT 1", NULL};
    assert_int_equal(evt_test_runv(bad, NULL, NULL, NULL), 2);
}

static void wal_database_gets_no_files_beside_it(void **st)
{
    (void)st;
    char db[4200], wal[4300], shm[4300];
    snprintf(db, sizeof db, "%s/w%%a?l#.sqlite", evt_test_tmpdir()); /* URI characters in the name */
    snprintf(wal, sizeof wal, "%s-wal", db);
    snprintf(shm, sizeof shm, "%s-shm", db);
    const char *conv[] = {evt_test_bin(), "convert", "-q", SAMPLE, "-o", db, NULL};
    assert_int_equal(evt_test_runv(conv, NULL, NULL, NULL), 0);
    sqlite3 *h = NULL;
    assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
    assert_int_equal(sqlite3_exec(h, "PRAGMA journal_mode=WAL", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
    assert_false(evt_test_exists(wal));
    assert_false(evt_test_exists(shm));
    const char *q[] = {evt_test_bin(), "query", db, "SELECT count(*) FROM events", NULL};
    char *out = NULL;
    assert_int_equal(evt_test_runv(q, &out, NULL, NULL), 0);
    assert_non_null(strstr(out, "count(*)\n"));
    free(out);
    assert_false(evt_test_exists(wal));
    assert_false(evt_test_exists(shm));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(timeout_stops_a_runaway_query),
        cmocka_unit_test(max_rows_caps_the_output),
        cmocka_unit_test(wal_database_gets_no_files_beside_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
