/* Unit test of the SQLite export's batched INSERT (sqlite_batch.h): rows keep their order and
 * values across full batches, the flush of a partial one and a row larger than a batch's bytes
 * (written at once after the pending ones); an empty text stays '' (not NULL), NULL stays NULL. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host/exporters/sqlite_batch.h"

static const evt_tl_column k_cols[2] = {{"a", EVT_TL_I64, 0, ""}, {"b", EVT_TL_TEXT, 1, ""}};

static char *fill(unsigned i, size_t n)
{
    char *b = malloc(n + 1);
    for (size_t k = 0; k < n; k++) b[k] = (char)('a' + (i + k) % 26);
    return b;
}

static void batch_order_big_rows_and_empty_text(void **st)
{
    (void)st;
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "CREATE TABLE t(a INTEGER, b TEXT)", NULL, NULL, NULL), SQLITE_OK);
    sq_batch b;
    assert_int_equal(sq_batch_open(&b, db, "t", k_cols, 2), 1);
    enum { N = 3 * SQ_BATCH_ROWS + 5 };
    for (unsigned i = 0; i < N; i++) {
        evt_tl_val v[2] = {{0}};
        v[0].i = i;
        size_t n = i == 40 ? SQ_BATCH_BYTES + 10 : i % 5 == 0 ? 0 : i * 100;
        char *t = fill(i, n);
        v[1].s = t;
        v[1].n = n;
        if (i % 11 == 3) v[1].is_null = 1;
        assert_int_equal(sq_batch_add(&b, v), 1);
        free(t);
    }
    assert_int_equal(sq_batch_flush(&b), 1);
    sq_batch_close(&b);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT a, b FROM t ORDER BY rowid", -1, &q, NULL), SQLITE_OK);
    unsigned i = 0;
    for (; sqlite3_step(q) == SQLITE_ROW; i++) {
        assert_int_equal(sqlite3_column_int64(q, 0), i);
        if (i % 11 == 3) { assert_int_equal(sqlite3_column_type(q, 1), SQLITE_NULL); continue; }
        size_t n = i == 40 ? SQ_BATCH_BYTES + 10 : i % 5 == 0 ? 0 : i * 100;
        assert_int_equal(sqlite3_column_type(q, 1), SQLITE_TEXT); /* '' is not NULL */
        assert_int_equal((size_t)sqlite3_column_bytes(q, 1), n);
        char *t = fill(i, n);
        assert_memory_equal(sqlite3_column_text(q, 1), t, n);
        free(t);
    }
    assert_int_equal(i, N);
    sqlite3_finalize(q);
    sqlite3_close(db);
}

/* An INTEGER PRIMARY KEY in column 0 (sq_batch_ipk): consecutive keys (bound as NULL), a gap, a
 * key below the largest and a first key other than 1 all keep the key given. */
static void batch_ipk_keeps_every_key(void **st)
{
    (void)st;
    static const evt_tl_column cols[2] = {{"k", EVT_TL_I64, 0, ""}, {"b", EVT_TL_I64, 0, ""}};
    static const int64_t keys[] = {0, 1, 2, 3, 10, 11, 5, 12, 13, 100, 101, 102};
    enum { NK = sizeof keys / sizeof keys[0], N = 3 * SQ_BATCH_ROWS };
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "CREATE TABLE t(k INTEGER PRIMARY KEY, b INTEGER NOT NULL)", NULL, NULL, NULL),
                     SQLITE_OK);
    sq_batch b;
    assert_int_equal(sq_batch_open(&b, db, "t", cols, 2), 1);
    sq_batch_ipk(&b);
    for (unsigned i = 0; i < N; i++) {
        evt_tl_val v[2] = {{0}};
        v[0].i = i < NK ? keys[i] : 1000 + (int64_t)i;
        v[1].i = i;
        assert_int_equal(sq_batch_add(&b, v), 1);
    }
    assert_int_equal(sq_batch_flush(&b), 1);
    sq_batch_close(&b);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT k FROM t ORDER BY b", -1, &q, NULL), SQLITE_OK);
    unsigned i = 0;
    for (; sqlite3_step(q) == SQLITE_ROW; i++)
        assert_int_equal(sqlite3_column_int64(q, 0), i < NK ? keys[i] : 1000 + (int64_t)i);
    assert_int_equal(i, N);
    sqlite3_finalize(q);
    sqlite3_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(batch_order_big_rows_and_empty_text),
        cmocka_unit_test(batch_ipk_keeps_every_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
