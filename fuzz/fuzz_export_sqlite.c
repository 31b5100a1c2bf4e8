/* libFuzzer target of the sqlite exporter fed from a reader decoding the input (fuzz_export.h).
 * The database goes to the tmpfs scratch path (its tables' pages are written by evtrace itself,
 * sqlite_pages.h, into a file), and every database written is read back: SQLite's
 * integrity_check must find it sound, or the target aborts. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_export.h"

static void check_db(const char *path)
{
    sqlite3 *db;
    sqlite3_stmt *q;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &q, NULL) != SQLITE_OK) {
        fprintf(stderr, "fuzz_export_sqlite: cannot read the database back: %s\n", sqlite3_errmsg(db));
        abort();
    }
    if (sqlite3_step(q) != SQLITE_ROW || strcmp((const char *)sqlite3_column_text(q, 0), "ok") != 0) {
        fprintf(stderr, "fuzz_export_sqlite: integrity_check: %s\n", (const char *)sqlite3_column_text(q, 0));
        abort();
    }
    sqlite3_finalize(q);
    sqlite3_close(db);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_export(data, size, "sqlite", NULL, check_db);
    return 0;
}
