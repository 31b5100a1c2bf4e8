/* Index entries of the SQLite export sorted in bounded memory (sqlite_pages.h builds the index
 * b-trees from them): fixed-size entries (integer key columns, each possibly NULL, then the
 * rowid) collected in a run buffer; a full run is sorted and written to a scratch file beside the
 * database (unlinked as soon as it is created); at the end the runs are merged (a heap of run
 * cursors, each reading through a small buffer), or the one run left in memory is sorted and
 * read in place. Order: SQLite's for integer and NULL columns (NULL first, then by value), column
 * by column, then the rowid. A run is sorted by a radix sort on the bytes where its keys differ
 * (qsort for a few entries). Memory: the run buffer while adding, and a second one of its size
 * while a run is sorted; at the merge, read buffers of SQ_SORT_MERGE_BYTES in all (64 entries a
 * run at least: 2 KB per 65,536 entries sorted). */
#ifndef EVT_EXPORTERS_SQLITE_SORT_H
#define EVT_EXPORTERS_SQLITE_SORT_H

#include <stddef.h>
#include <stdint.h>

#define SQ_SORT_MAX_COLS 2      /* key columns of an entry */
#define SQ_SORT_RUN 65536       /* entries of a run (2 MB) unless sq_sort_new is told otherwise */
#define SQ_SORT_READ 1024       /* entries read at a time from each run while merging, at most */
#define SQ_SORT_MERGE_BYTES (4u << 20) /* the merge's read buffers together, while runs are few
                                        * enough for 64 entries each */

typedef struct sq_ent {
    int64_t k[SQ_SORT_MAX_COLS];
    int64_t rowid;
    uint32_t nulls;             /* bit c: column c is NULL (k[c] then 0) */
    uint32_t pad_;
} sq_ent;

typedef struct sq_sort sq_sort;

/* A sorter of entries with ncols key columns (1 .. SQ_SORT_MAX_COLS); its scratch file goes
 * beside near_path. run: entries per run (0: SQ_SORT_RUN). NULL: out of memory. */
sq_sort *sq_sort_new(const char *near_path, uint32_t ncols, size_t run);
/* One entry. Returns 0 on an error (errno: the scratch file's, or ENOMEM). */
int sq_sort_add(sq_sort *s, const sq_ent *e);
/* Entries added. */
uint64_t sq_sort_count(const sq_sort *s);
/* No more entries: get ready to give them in order. Returns 0 on an error (errno). */
int sq_sort_done(sq_sort *s);
/* The next entry in order: 1, or 0 at the end, or -1 on an error (errno). */
int sq_sort_next(sq_sort *s, sq_ent *e);
void sq_sort_free(sq_sort *s);

#endif
