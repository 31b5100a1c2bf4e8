/* Batched multi-row INSERT into one table of the SQLite export: rows are copied (values and
 * bytes) into a batch of SQ_BATCH_ROWS rows, written by one step of a prepared
 * "INSERT INTO t VALUES(...),(...),..."; a partial batch is written at flush by the one-row
 * statement. A step costs SQLite a cursor, a transaction check and a seek to the table's end
 * whatever the number of rows, so batching roughly halves its work per row. All memory is
 * allocated by sq_batch_open (the bytes of a batch: SQ_BATCH_BYTES; a row whose bytes do not fit
 * is written at once, after the pending ones), so adding a row never allocates.
 *
 * Per row, the copy is one block move of the values plus the bytes of the TEXT/BLOB columns
 * (listed at open), and a slot whose value stays NULL is not bound again (bindings outlive a
 * step). A table whose column 0 is its INTEGER PRIMARY KEY (sq_batch_ipk) gets a key one past
 * the largest before bound as NULL: SQLite assigns the very same rowid without the look-up an
 * explicit key costs. */
#ifndef EVT_EXPORTERS_SQLITE_BATCH_H
#define EVT_EXPORTERS_SQLITE_BATCH_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>
#include "host/timeline/tl_rows.h"

#define SQ_BATCH_ROWS 32
#define SQ_BATCH_BYTES 65536

typedef struct sq_batch {
    sqlite3_stmt *many, *one;
    const evt_tl_column *cols;
    uint32_t ncols;
    uint32_t n;        /* rows pending */
    evt_tl_val *v;     /* SQ_BATCH_ROWS * ncols; TEXT/BLOB values hold their offset in bytes (in i) */
    char *bytes;       /* the pending rows' TEXT and BLOB bytes (SQ_BATCH_BYTES) */
    size_t nbytes;
    uint32_t *bcols;   /* indexes of the TEXT/BLOB columns */
    uint32_t nb;
    uint8_t *is_null;  /* per parameter of `many`, then of `one`: bound to NULL now */
    int ipk;           /* column 0 is the INTEGER PRIMARY KEY (sq_batch_ipk) */
    int has_max;
    int64_t ipk_max;   /* largest key written (valid when has_max) */
} sq_batch;

/* Prepare both statements for `table` (columns in order). Returns 0 on an SQLite error or when
 * out of memory; sq_batch_close frees whatever was made. */
int sq_batch_open(sq_batch *b, sqlite3 *db, const char *table, const evt_tl_column *cols, uint32_t ncols);
/* Column 0 (an I64) is the table's INTEGER PRIMARY KEY and only this batch writes the table: a
 * key one past the largest written is bound as NULL (the same rowid, no look-up). Call before the
 * first row. */
void sq_batch_ipk(sq_batch *b);
/* One row (ncols values, copied or written at once). Returns 0 on an SQLite error. */
int sq_batch_add(sq_batch *b, const evt_tl_val *v);
/* Write the pending rows. Returns 0 on an SQLite error. */
int sq_batch_flush(sq_batch *b);
void sq_batch_close(sq_batch *b);

#endif
