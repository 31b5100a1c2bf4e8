/* `evtrace query` cannot write: the database is opened read-only and then guarded by an SQLite
 * authorizer that allows only reading (SELECT, reads of columns, safe functions, recursive CTEs,
 * read-only introspection pragmas), plus limits that make ATTACH (and so VACUUM INTO, which
 * attaches its target) impossible, defensive mode, no extension loading, and a final check that
 * every statement is read-only (sqlite3_stmt_readonly). Anything else fails at prepare time with
 * "not authorized". */
#include "query_guard.h"

#include <string.h>

/* Functions that reach outside the database or change state: denied even in a SELECT. */
static const char *const k_denied_functions[] = {
    "load_extension", "fts3_tokenizer", "readfile", "writefile", "edit", "sqlite_dbpage", NULL,
};

/* Pragmas that only read (a value in parentheses names a table or index to describe). */
static const char *const k_read_pragmas[] = {
    "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
    "foreign_key_list", "collation_list", "function_list", "module_list", "pragma_list",
    "compile_options", "database_list", NULL,
};
/* Pragmas that read without a value but would set something with one: allowed bare only. */
static const char *const k_bare_pragmas[] = {
    "page_size", "page_count", "schema_version", "user_version", "application_id", "encoding",
    "freelist_count", "data_version", NULL,
};

static int listed_(const char *const *list, const char *name)
{
    if (!name) return 0;
    for (; *list; list++)
        if (strcmp(*list, name) == 0) return 1;
    return 0;
}

static int authorize_(void *user, int action, const char *a1, const char *a2, const char *db, const char *trigger)
{
    (void)user;
    (void)db;
    (void)trigger;
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE: return SQLITE_OK;
    case SQLITE_FUNCTION: return listed_(k_denied_functions, a2) ? SQLITE_DENY : SQLITE_OK; /* a2: function name */
    case SQLITE_PRAGMA:
        if (listed_(k_read_pragmas, a1)) return SQLITE_OK;
        if (listed_(k_bare_pragmas, a1) && a2 == NULL) return SQLITE_OK;
        return SQLITE_DENY;
    default: return SQLITE_DENY; /* writes, schema changes, ATTACH/DETACH, transactions, ANALYZE, ... */
    }
}

int query_guard(sqlite3 *db)
{
    int ok = 1;
    ok &= sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0) == SQLITE_OK;
    ok &= sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)0) == SQLITE_OK;
    ok &= sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)0) == SQLITE_OK;
    ok &= sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, (int *)0) == SQLITE_OK;
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0); /* ATTACH, and VACUUM INTO (it attaches its target), fail */
    ok &= sqlite3_set_authorizer(db, authorize_, NULL) == SQLITE_OK;
    return ok;
}

int query_stmt_allowed(sqlite3_stmt *q) { return sqlite3_stmt_readonly(q) != 0; }
