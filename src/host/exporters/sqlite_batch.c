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

static int is_bytes_(const evt_tl_column *c) { return c->type == EVT_TL_TEXT || c->type == EVT_TL_BLOB; }

int sq_batch_open(sq_batch *b, sqlite3 *db, const char *table, const evt_tl_column *cols, uint32_t ncols)
{
    memset(b, 0, sizeof *b);
    b->cols = cols;
    b->ncols = ncols;
    b->v = evt_calloc((size_t)SQ_BATCH_ROWS * ncols, sizeof *b->v);
    b->bytes = evt_malloc(SQ_BATCH_BYTES);
    b->bcols = evt_calloc(ncols ? ncols : 1, sizeof *b->bcols);
    b->is_null = evt_malloc((size_t)(SQ_BATCH_ROWS + 1) * ncols + 1);
    if (!b->v || !b->bytes || !b->bcols || !b->is_null) return 0;
    for (uint32_t c = 0; c < ncols; c++)
        if (is_bytes_(&cols[c])) b->bcols[b->nb++] = c;
    memset(b->is_null, 1, (size_t)(SQ_BATCH_ROWS + 1) * ncols + 1); /* a new statement binds NULL */
    return prepare_(db, table, ncols, SQ_BATCH_ROWS, &b->many) && prepare_(db, table, ncols, 1, &b->one);
}

void sq_batch_ipk(sq_batch *b) { b->ipk = 1; }

/* Bind `rows` rows of values v (TEXT/BLOB at base + i when base is set, else at s) to st from
 * parameter 1 on (their NULL flags at is_null); step; reset. */
static int write_(sq_batch *b, sqlite3_stmt *st, uint8_t *is_null, const evt_tl_val *v, const char *base,
                  uint32_t rows)
{
    int p = 1;
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t c = 0; c < b->ncols; c++, p++) {
            const evt_tl_val *x = v++;
            uint8_t *nul = &is_null[p - 1];
            evt_tl_coltype type = b->cols[c].type;
            int null = x->is_null;
            if (!null && c == 0 && b->ipk && type == EVT_TL_I64) { /* the rowid SQLite would pick: NULL */
                null = b->has_max && b->ipk_max < INT64_MAX && x->i == b->ipk_max + 1;
                if (!b->has_max || x->i > b->ipk_max) b->ipk_max = x->i;
                b->has_max = 1;
            }
            if (null) {
                if (!*nul) { sqlite3_bind_null(st, p); *nul = 1; }
                continue;
            }
            *nul = 0;
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

static uint8_t *one_nulls_(sq_batch *b) { return b->is_null + (size_t)SQ_BATCH_ROWS * b->ncols; }

int sq_batch_add(sq_batch *b, const evt_tl_val *v)
{
    size_t need = 0;
    for (uint32_t k = 0; k < b->nb; k++) {
        const evt_tl_val *x = &v[b->bcols[k]];
        if (!x->is_null) need += x->n;
    }
    if (b->nbytes + need > SQ_BATCH_BYTES) {
        if (!sq_batch_flush(b)) return 0;
        if (need > SQ_BATCH_BYTES) return write_(b, b->one, one_nulls_(b), v, NULL, 1); /* a big row: bound in place */
    }
    evt_tl_val *d = &b->v[(size_t)b->n * b->ncols];
    memcpy(d, v, (size_t)b->ncols * sizeof *d);
    for (uint32_t k = 0; k < b->nb; k++) {
        evt_tl_val *x = &d[b->bcols[k]];
        if (x->is_null) continue;
        if (x->n) memcpy(b->bytes + b->nbytes, x->s, x->n);
        x->s = NULL; /* an offset into bytes */
        x->i = (int64_t)b->nbytes;
        b->nbytes += x->n;
    }
    if (++b->n < SQ_BATCH_ROWS) return 1;
    int ok = write_(b, b->many, b->is_null, b->v, b->bytes, SQ_BATCH_ROWS);
    b->n = 0;
    b->nbytes = 0;
    return ok;
}

int sq_batch_flush(sq_batch *b)
{
    int ok = 1;
    for (uint32_t r = 0; ok && r < b->n; r++)
        ok = write_(b, b->one, one_nulls_(b), &b->v[(size_t)r * b->ncols], b->bytes, 1);
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
    evt_free(b->bcols);
    evt_free(b->is_null);
    memset(b, 0, sizeof *b);
}
