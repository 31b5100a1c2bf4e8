/* The read-only guard of `evtrace query` (query_guard.c). */
#ifndef EVT_CLI_QUERY_GUARD_H
#define EVT_CLI_QUERY_GUARD_H

#include <sqlite3.h>

/* Install the authorizer and limits on an open (read-only) connection; returns 1 on success. */
int query_guard(sqlite3 *db);
/* A prepared statement changes nothing (checked again after the authorizer let it through). */
int query_stmt_allowed(sqlite3_stmt *q);

#endif
