/* `evtrace query` cannot write (src/cli/query_guard.c): VACUUM INTO, ATTACH, CREATE, INSERT,
 * DELETE, UPDATE, pragma writes, transactions and extension loading each fail with "not
 * authorized" and a non-zero exit, on a database and on a trace (temporary database); no file is
 * created and the database is unchanged. Reads (SELECT, recursive CTE, read pragmas) still work. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "evt_test.h"
#include "evtrace/out.h"

#define SAMPLE EVT_TEST_DATA_DIR "/threadx_real/nowrap_m32le.trx"

static int query_(const char *file, const char *sql, char **out, char **err)
{
    const char *argv[] = {evt_test_bin(), "query", "-q", file, sql, NULL};
    return evt_test_runv(argv, out, NULL, err);
}

static size_t count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t n = 0;
    while (readdir(d)) n++;
    closedir(d);
    return n;
}

static void writes_are_refused(void **st)
{
    (void)st;
    char db[4200], target[4200];
    snprintf(db, sizeof db, "%s/t.sqlite", evt_test_tmpdir());
    snprintf(target, sizeof target, "%s/written.db", evt_test_tmpdir());
    const char *conv[] = {evt_test_bin(), "convert", "-q", SAMPLE, "-o", db, NULL};
    assert_int_equal(evt_test_runv(conv, NULL, NULL, NULL), 0);
    size_t before_len;
    uint8_t *before = evt_test_read_file(db, &before_len);
    size_t entries = count_entries(evt_test_tmpdir());
    char attach[4400], vacuum[4400], attach_only[4400];
    snprintf(vacuum, sizeof vacuum, "VACUUM INTO '%s'", target);
    snprintf(attach, sizeof attach, "ATTACH '%s' AS x; CREATE TABLE x.t(a)", target);
    snprintf(attach_only, sizeof attach_only, "ATTACH '%s' AS x", target);
    const char *const bad[] = {
        vacuum, attach, attach_only, "VACUUM", "CREATE TABLE t(a)", "CREATE TEMP TABLE t(a)",
        "CREATE VIEW v AS SELECT 1", "INSERT INTO meta VALUES('k', 1)", "DELETE FROM events",
        "UPDATE events SET name = 'x'", "DROP TABLE events", "PRAGMA user_version = 5",
        "PRAGMA journal_mode = WAL", "PRAGMA writable_schema = 1", "BEGIN", "ANALYZE",
        "SELECT load_extension('/tmp/x')", "SELECT 1; DELETE FROM events",
    };
    const char *const inputs[] = {db, SAMPLE};
    for (size_t in = 0; in < 2; in++) {
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            char *err = NULL;
            int rc = query_(inputs[in], bad[i], NULL, &err);
            if (rc == 0 || !strstr(err, "not authorized"))
                fail_msg("query %s \"%s\": exit %d, stderr: %s", inputs[in], bad[i], rc, err);
            free(err);
            struct stat sb;
            if (stat(target, &sb) == 0) fail_msg("query \"%s\" created %s", bad[i], target);
        }
    }
    assert_int_equal(count_entries(evt_test_tmpdir()), entries); /* nothing created beside it */
    size_t after_len;
    uint8_t *after = evt_test_read_file(db, &after_len);
    assert_int_equal(after_len, before_len);
    assert_memory_equal(after, before, before_len); /* the database is byte for byte the same */
    free(before);
    free(after);
}

static void reads_still_work(void **st)
{
    (void)st;
    const char *const good[] = {
        "SELECT count(*) FROM events", "PRAGMA table_info(events)", "PRAGMA user_version",
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3) SELECT sum(x) FROM c",
        "SELECT name, count(*) FROM events GROUP BY 1 ORDER BY 2 DESC LIMIT 3",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        char *out = NULL, *err = NULL;
        int rc = query_(SAMPLE, good[i], &out, &err);
        if (rc != 0) fail_msg("query \"%s\": exit %d: %s", good[i], rc, err);
        assert_true(strlen(out) > 2);
        free(out);
        free(err);
    }
    char *out = NULL;
    assert_int_equal(query_(SAMPLE, "SELECT count(*) AS n FROM events", &out, NULL), 0);
    assert_string_equal(out, "n\n445\n");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(writes_are_refused),
        cmocka_unit_test(reads_still_work),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    evt_out_remove_tree(evt_test_tmpdir());
    return rc;
}
