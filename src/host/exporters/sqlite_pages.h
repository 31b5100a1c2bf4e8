/* Append-only table b-trees written straight in SQLite's database file format
 * (https://www.sqlite.org/fileformat2.html, "B-tree Pages", "Record Format"), for the SQLite
 * export's bulk tables. SQLite creates the database, its tables (empty) and whatever else the
 * schema holds, and closes it; this writer then appends each table's leaf pages to the file as
 * they fill (rows encoded as SQLite's OP_MakeRecord encodes them), and at finish builds the
 * interior pages bottom-up, writes each table's root into the page SQLite gave it and sets the
 * header's page count. SQLite can then open the file again (indexes, small tables). The database
 * holds the same rows, rowids and stored types as the INSERT statements gave, without SQLite's
 * interpreter and per-value binding.
 *
 * What the result is, for `PRAGMA integrity_check`:
 *   - every leaf at the same depth; each interior cell's key is the largest rowid of its child;
 *     no interior page with fewer than two children; cells packed at the end of each page (no
 *     free blocks, no fragments);
 *   - records: serial types as SQLite picks them (the fewest integer bytes; 0 and 1 as types 8
 *     and 9 when the schema format is 4; a REAL as type 7, or as an integer when it is one
 *     within 48 bits, as OP_MakeRecord stores it in a REAL column; a NaN double as NULL, as
 *     sqlite3_bind_double stores it); an INTEGER PRIMARY KEY column is stored as NULL, its value
 *     being the rowid;
 *   - payloads above the leaf's local maximum spill into overflow pages with SQLite's own split
 *     between the cell and the overflow chain;
 *   - page numbers go on from SQLite's last page and skip the lock-byte page (the page holding
 *     byte `pending_byte` of the file);
 *   - the header's database size (offset 28) is the new page count (the change counter and
 *     version-valid-for fields, equal after SQLite's commit, are kept).
 * A table's last leaf stays in memory until finish, so a table of one leaf is written whole into
 * its root page. Memory: one page per table and 12 bytes per leaf written.
 *
 * A row is refused (0, sq_pages_error) when a NOT NULL column holds NULL, when an INTEGER
 * PRIMARY KEY is not larger than the previous one, or when its payload exceeds SQLite's default
 * length limit: what the INSERT would have refused. Write errors keep errno. Every write is
 * counted by the output seam (evt_out_write_allowed_), as SQLite's own are. */
#ifndef EVT_EXPORTERS_SQLITE_PAGES_H
#define EVT_EXPORTERS_SQLITE_PAGES_H

#include <stddef.h>
#include <stdint.h>
#include "host/timeline/tl_rows.h"

/* The lock-byte offset SQLite uses unless a test moves it (SQLITE_TESTCTRL_PENDING_BYTE). */
#define SQ_PAGES_PENDING_BYTE 0x40000000u
/* Columns a table may have (sq_pages_table refuses more). */
#define SQ_PAGES_MAX_COLS 64

typedef struct sq_pages sq_pages;

/* A writer for the database at db_path, which SQLite has written and closed (no autovacuum,
 * UTF-8). NULL: not such a database, cannot be opened, or out of memory; the reason in err. */
sq_pages *sq_pages_open(const char *db_path, uint32_t pending_byte, char *err, size_t errlen);
/* A table whose root page (sqlite_schema.rootpage) is `root` and which SQLite holds empty;
 * ipk: column 0 is its INTEGER PRIMARY KEY (a strictly increasing I64), else rowids count from 1.
 * Returns its handle (>= 0), or -1 when out of memory or with more than SQ_PAGES_MAX_COLS
 * columns. cols must outlive the writer. */
int sq_pages_table(sq_pages *p, uint32_t root, const evt_tl_column *cols, uint32_t ncols, int ipk);
/* An index of `table` on its integer columns cols[0..ncols) (1 or 2, in key order; not an
 * INTEGER PRIMARY KEY) whose root page is `root` and which SQLite holds empty (CREATE INDEX on
 * the empty table): each row's entry is collected as it is added, sorted in bounded memory
 * (sqlite_sort.h: a scratch file beside the database), and the index b-tree is written at finish,
 * each entry once, in SQLite's order (NULL first, then by value, then the rowid). Returns 0 when
 * out of memory or the columns are not such. */
int sq_pages_index(sq_pages *p, int table, uint32_t root, const uint32_t *cols, uint32_t ncols);
/* Test hook: entries per sort run of the indexes registered after it (0: the default). */
void sq_pages_set_sort_run_(sq_pages *p, size_t entries);
/* Append a row (ncols values). Returns 0 on a refused row or a write error. */
int sq_pages_add(sq_pages *p, int table, const evt_tl_val *v);
/* Write every table's last pages and roots and the page count, and close the file. Returns 0 on
 * an error (the file is then not a valid database). */
int sq_pages_finish(sq_pages *p);
/* What went wrong ("" when nothing did). */
const char *sq_pages_error(const sq_pages *p);
void sq_pages_free(sq_pages *p);

#endif
