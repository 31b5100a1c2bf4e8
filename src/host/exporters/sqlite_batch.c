/* Batched multi-row INSERT of the SQLite export (see sqlite_batch.h). */
#include <stdio.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "sqlite_batch.h"

static int prepare_(sqlite3 *db, const char *table, uint32_t ncols, uint32_t rows, sqlite3_stmt **st)
{
    size_t len = strlen(table) + 32 + (size_t)rows * (ncols * 2 + 4);
    char *sql = evt_malloc(len);
    if (!sql) return 0;
    size_t n = (size_t)snprintf(sql, len, "INSERT INTO \"%s\" VALUES", table);
    for (uint32_t r = 0; r < rows; r++) {
        sql[n++] = r ? ',' : ' ';
        sql[n++] = '(';
        for (uint32_t c = 0; c < ncols; c++) {
            if (c) sql[n++] = ',';
            sql[n++] = '?';
        }
        sql[n++] = ')';
    }
    sql[n] = '\0';
    int ok = sqlite3_prepare_v2(db, sql, (int)n, st, NULL) == SQLITE_OK;
    evt_free(sql);
    return ok;
}

int sq_batch_open(sq_batch *b, sqlite3 *db, const char *table, const evt_tl_column *cols, uint32_t ncols)
{
    memset(b, 0, sizeof *b);
    b->cols = cols;
    b->ncols = ncols;
    b->v = evt_calloc((size_t)SQ_BATCH_ROWS * ncols, sizeof *b->v);
    b->bytes = evt_malloc(SQ_BATCH_BYTES);
    return b->v && b->bytes && prepare_(db, table, ncols, SQ_BATCH_ROWS, &b->many) &&
           prepare_(db, table, ncols, 1, &b->one);
}

/* Bind `rows` rows of values v (TEXT/BLOB at base + i when base is set, else at s) to st from
 * parameter 1 on; step; reset. */
static int write_(sq_batch *b, sqlite3_stmt *st, const evt_tl_val *v, const char *base, uint32_t rows)
{
    int p = 1;
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t c = 0; c < b->ncols; c++, p++) {
            const evt_tl_val *x = v++;
            if (x->is_null) { sqlite3_bind_null(st, p); continue; }
            evt_tl_coltype type = b->cols[c].type;
            if (type == EVT_TL_I64) { sqlite3_bind_int64(st, p, x->i); continue; }
            if (type == EVT_TL_F64) { sqlite3_bind_double(st, p, x->f); continue; }
            /* never a NULL pointer: SQLite would store NULL for an empty value */
            const char *bytes = !x->n ? "" : base ? base + x->i : x->s;
            if (type == EVT_TL_TEXT) sqlite3_bind_text(st, p, bytes, (int)x->n, SQLITE_STATIC);
            else sqlite3_bind_blob(st, p, bytes, (int)x->n, SQLITE_STATIC);
        }
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE;
}

static int is_bytes_(const sq_batch *b, uint32_t c)
{
    return b->cols[c].type == EVT_TL_TEXT || b->cols[c].type == EVT_TL_BLOB;
}

int sq_batch_add(sq_batch *b, const evt_tl_val *v)
{
    size_t need = 0;
    for (uint32_t c = 0; c < b->ncols; c++)
        if (!v[c].is_null && is_bytes_(b, c)) need += v[c].n;
    if (b->nbytes + need > SQ_BATCH_BYTES) {
        if (!sq_batch_flush(b)) return 0;
        if (need > SQ_BATCH_BYTES) return write_(b, b->one, v, NULL, 1); /* a big row: bound in place */
    }
    evt_tl_val *d = &b->v[(size_t)b->n * b->ncols];
    for (uint32_t c = 0; c < b->ncols; c++) {
        d[c] = v[c];
        if (v[c].is_null || !is_bytes_(b, c)) continue;
        if (v[c].n) memcpy(b->bytes + b->nbytes, v[c].s, v[c].n);
        d[c].s = NULL; /* an offset into bytes */
        d[c].i = (int64_t)b->nbytes;
        b->nbytes += v[c].n;
    }
    if (++b->n < SQ_BATCH_ROWS) return 1;
    int ok = write_(b, b->many, b->v, b->bytes, SQ_BATCH_ROWS);
    b->n = 0;
    b->nbytes = 0;
    return ok;
}

int sq_batch_flush(sq_batch *b)
{
    int ok = 1;
    for (uint32_t r = 0; ok && r < b->n; r++) ok = write_(b, b->one, &b->v[(size_t)r * b->ncols], b->bytes, 1);
    b->n = 0;
    b->nbytes = 0;
    return ok;
}

void sq_batch_close(sq_batch *b)
{
    sqlite3_finalize(b->many);
    sqlite3_finalize(b->one);
    evt_free(b->v);
    evt_free(b->bytes);
    memset(b, 0, sizeof *b);
}
