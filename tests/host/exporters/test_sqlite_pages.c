/* Unit test of the SQLite page writer (sqlite_pages.h) against SQLite itself: the same rows go
 * into one database through INSERT statements and into another through the writer; both must
 * pass `PRAGMA integrity_check` and hold the same rows (rowid, every value and its stored type).
 * Rows are random over every column type, NULLs, NaN, every integer width, texts and blobs from
 * empty to several pages long (overflow chains, and payloads on each side of the local-size
 * limits), in tables that end empty, of one row, of one leaf and of three levels; pages of 512,
 * 4096 and 65536 bytes, with bytes reserved at the end of each page; with the lock-byte page
 * moved (SQLITE_TESTCTRL_PENDING_BYTE, set before any database opens) to where the writer's
 * pages cross it. A table that fits one leaf gets the very bytes SQLite writes for it. Indexes
 * (one and two columns, NULLs, tables empty to three levels; entries sorted in memory, or in many
 * runs merged): SQLite's integrity_check checks every entry against its row, and a scan through
 * each index gives the reference's sequence.
 * Refused rows: NULL in a NOT NULL column, a key out of order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evt_test.h"
#include "host/exporters/sqlite_pages.h"

#define PENDING 0x30000u /* the lock-byte offset for this process: page 385 of 512-byte pages */

static const evt_tl_column k_cols[] = {
    {"k", EVT_TL_I64, 0, ""},  {"i", EVT_TL_I64, 1, ""},  {"f", EVT_TL_F64, 1, ""},
    {"s", EVT_TL_TEXT, 1, ""}, {"b", EVT_TL_BLOB, 1, ""}, {"n", EVT_TL_I64, 0, ""},
};
#define NCOLS 6
static const char *const k_sql_type[] = {"INTEGER", "REAL", "TEXT", "BLOB"};

typedef struct table_plan { const char *name; int ipk; int rows; } table_plan;
static const table_plan k_tables[] = {
    {"big_ipk", 1, 3000}, {"big", 0, 2500}, {"empty", 0, 0}, {"one", 1, 1}, {"few", 0, 3},
};
#define NTABLES (sizeof k_tables / sizeof k_tables[0])

/* Indexes on integer columns (k_cols numbers), created empty with the tables: SQLite keeps the
 * reference database's up to date, the writer sorts and writes its own. */
typedef struct index_plan { const char *name; size_t table; uint32_t cols[2], ncols; } index_plan;
static const index_plan k_indexes[] = {
    {"big_i_n", 1, {1, 5}, 2}, {"big_n", 1, {5, 0}, 1}, {"big_k", 1, {0, 0}, 1}, /* narrow keys: full pages */
    {"big_ipk_i", 0, {1, 0}, 1},
    {"empty_i", 2, {1, 0}, 1}, {"one_n_i", 3, {5, 1}, 2}, {"few_i", 4, {1, 0}, 1},
};
#define NINDEXES (sizeof k_indexes / sizeof k_indexes[0])

static uint64_t g_rng;
static uint64_t rnd(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return g_rng;
}

/* A random integer of a random width, with 0, 1, the extremes and each width's edges often. */
static int64_t rnd_int(void)
{
    static const int64_t edges[] = {0, 1, -1, 127, 128, -128, -129, 32767, 32768, -32768, 8388607, 8388608,
                                    2147483647, 2147483648LL, -2147483648LL, 140737488355327LL,
                                    140737488355328LL, INT64_MAX, INT64_MIN};
    if (rnd() % 3 == 0) return edges[rnd() % (sizeof edges / sizeof edges[0])];
    unsigned bits = (unsigned)(rnd() % 64);
    int64_t v = (int64_t)(rnd() >> (63 - bits));
    return rnd() & 1 ? -v : v;
}

/* Bytes of length n for a TEXT (printable ASCII) or BLOB column; page 0: short ones only. */
static size_t rnd_len(uint32_t page)
{
    switch (page ? rnd() % 8 : 7) {
    case 0: return 0;
    case 1: return (size_t)(rnd() % (3 * page)); /* several overflow pages */
    case 2: return page - 60 + (size_t)(rnd() % 40); /* around the local maximum */
    default: return (size_t)(rnd() % 40);
    }
}

typedef struct row { evt_tl_val v[NCOLS]; char *mem[2]; } row;

static void make_row(row *r, int ipk, int64_t *key, uint32_t page)
{
    memset(r, 0, sizeof *r);
    *key += ipk ? 1 + (int64_t)(rnd() % 3) : 1;
    r->v[0].i = *key;
    r->v[1].is_null = rnd() % 5 == 0;
    r->v[1].i = rnd_int();
    r->v[2].is_null = rnd() % 5 == 0;
    static const double fedges[] = {0.0, -0.0, 1.0, -1.0, 0.5, 140737488355327.0, 140737488355328.0,
                                    -140737488355328.0, -140737488355329.0, 9.2233720368547758e18, 1e300, -1e-300};
    static unsigned fcycle; /* every other row takes the next edge, so each one is met */
    uint64_t how = ++fcycle & 1 ? 1 : rnd() % 8;
    r->v[2].is_null &= how != 1;
    r->v[2].f = how == 0 ? NAN
                : how < 3 ? fedges[(fcycle / 2) % (sizeof fedges / sizeof fedges[0])]
                : how < 5 ? (double)(rnd() % 1000) /* a REAL that SQLite stores as an integer */
                          : (double)rnd_int() / 3.0;
    for (int c = 3; c <= 4; c++) {
        r->v[c].is_null = rnd() % 6 == 0;
        size_t n = rnd_len(page);
        char *m = malloc(n + 1);
        for (size_t k = 0; k < n; k++) m[k] = c == 3 ? (char)(' ' + rnd() % 95) : (char)rnd();
        r->mem[c - 3] = m;
        r->v[c].s = m;
        r->v[c].n = n;
    }
    r->v[5].i = rnd_int();
}

/* A database with the tables and indexes empty, page size and reserved bytes set; the root of
 * each table, then of each index. */
static void create_db(const char *path, uint32_t page, int reserved, uint32_t *roots)
{
    remove(path);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    char sql[512];
    snprintf(sql, sizeof sql, "PRAGMA page_size=%u; PRAGMA auto_vacuum=NONE; PRAGMA journal_mode=OFF;", page);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    if (reserved) /* bytes at the end of each page (what an encryption extension keeps) */
        assert_int_equal(sqlite3_file_control(db, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserved), SQLITE_OK);
    for (size_t t = 0; t < NTABLES; t++) {
        size_t n = (size_t)snprintf(sql, sizeof sql, "CREATE TABLE %s(", k_tables[t].name);
        for (int c = 0; c < NCOLS; c++)
            n += (size_t)snprintf(sql + n, sizeof sql - n, "%s%s %s%s", c ? ", " : "", k_cols[c].name,
                                  c == 0 && k_tables[t].ipk ? "INTEGER PRIMARY KEY" : k_sql_type[k_cols[c].type],
                                  k_cols[c].nullable ? "" : " NOT NULL");
        snprintf(sql + n, sizeof sql - n, ")");
        assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    }
    for (size_t i = 0; i < NINDEXES; i++) {
        const index_plan *x = &k_indexes[i];
        snprintf(sql, sizeof sql, "CREATE INDEX %s ON %s(%s%s%s)", x->name, k_tables[x->table].name,
                 k_cols[x->cols[0]].name, x->ncols > 1 ? ", " : "", x->ncols > 1 ? k_cols[x->cols[1]].name : "");
        assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    }
    for (size_t t = 0; t < NTABLES + NINDEXES; t++) { /* the tables' roots, then the indexes' */
        sqlite3_stmt *q;
        assert_int_equal(sqlite3_prepare_v2(db, "SELECT rootpage FROM sqlite_schema WHERE name=?1", -1, &q, NULL),
                         SQLITE_OK);
        sqlite3_bind_text(q, 1, t < NTABLES ? k_tables[t].name : k_indexes[t - NTABLES].name, -1, SQLITE_STATIC);
        assert_int_equal(sqlite3_step(q), SQLITE_ROW);
        roots[t] = (uint32_t)sqlite3_column_int64(q, 0);
        sqlite3_finalize(q);
    }
    assert_int_equal(sqlite3_close(db), SQLITE_OK);
}

static void insert_ref(sqlite3 *db, size_t t, const row *r)
{
    char sql[128];
    snprintf(sql, sizeof sql, "INSERT INTO %s VALUES(?,?,?,?,?,?)", k_tables[t].name);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
    for (int c = 0; c < NCOLS; c++) {
        const evt_tl_val *x = &r->v[c];
        if (x->is_null) continue; /* unbound: NULL */
        if (k_cols[c].type == EVT_TL_I64) sqlite3_bind_int64(q, c + 1, x->i);
        else if (k_cols[c].type == EVT_TL_F64) sqlite3_bind_double(q, c + 1, x->f);
        else if (k_cols[c].type == EVT_TL_TEXT) sqlite3_bind_text(q, c + 1, x->n ? x->s : "", (int)x->n, SQLITE_STATIC);
        else sqlite3_bind_blob(q, c + 1, x->n ? x->s : "", (int)x->n, SQLITE_STATIC);
    }
    assert_int_equal(sqlite3_step(q), SQLITE_DONE);
    sqlite3_finalize(q);
}

static void assert_integrity(sqlite3 *db)
{
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    const char *msg = (const char *)sqlite3_column_text(q, 0);
    if (strcmp(msg, "ok") != 0) fail_msg("integrity_check: %s", msg);
    sqlite3_finalize(q);
}

/* Every row of table t equal in both databases: rowid, values, stored types. */
static void assert_same_rows(sqlite3 *a, sqlite3 *b, size_t t, int expect_rows)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT rowid, k, i, f, s, b, n, typeof(i), typeof(f), typeof(s), typeof(b) FROM %s ORDER BY rowid",
             k_tables[t].name);
    sqlite3_stmt *qa, *qb;
    assert_int_equal(sqlite3_prepare_v2(a, sql, -1, &qa, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(b, sql, -1, &qb, NULL), SQLITE_OK);
    int rows = 0, ra, rb;
    while ((ra = sqlite3_step(qa)) == SQLITE_ROW) {
        rb = sqlite3_step(qb);
        assert_int_equal(rb, SQLITE_ROW);
        for (int c = 0; c < 11; c++) {
            assert_int_equal(sqlite3_column_type(qa, c), sqlite3_column_type(qb, c));
            int n = sqlite3_column_bytes(qa, c);
            assert_int_equal(n, sqlite3_column_bytes(qb, c));
            const void *x = sqlite3_column_blob(qa, c), *y = sqlite3_column_blob(qb, c);
            if (n && memcmp(x, y, (size_t)n) != 0) fail_msg("%s row %d column %d differs", k_tables[t].name, rows, c);
        }
        rows++;
    }
    assert_int_equal(ra, SQLITE_DONE);
    assert_int_equal(sqlite3_step(qb), SQLITE_DONE);
    assert_int_equal(rows, expect_rows);
    sqlite3_finalize(qa);
    sqlite3_finalize(qb);
}

/* Every entry of index i in the same order in both databases (a scan through the index). */
static void assert_same_index(sqlite3 *a, sqlite3 *b, size_t i)
{
    const index_plan *x = &k_indexes[i];
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT %s, %s, rowid FROM %s INDEXED BY %s ORDER BY %s%s%s", k_cols[x->cols[0]].name,
             k_cols[x->cols[x->ncols - 1]].name, k_tables[x->table].name, x->name, k_cols[x->cols[0]].name,
             x->ncols > 1 ? ", " : "", x->ncols > 1 ? k_cols[x->cols[1]].name : "");
    sqlite3_stmt *qa, *qb;
    assert_int_equal(sqlite3_prepare_v2(a, sql, -1, &qa, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(b, sql, -1, &qb, NULL), SQLITE_OK);
    int ra;
    while ((ra = sqlite3_step(qa)) == SQLITE_ROW) {
        assert_int_equal(sqlite3_step(qb), SQLITE_ROW);
        for (int c = 0; c < 3; c++) {
            assert_int_equal(sqlite3_column_type(qa, c), sqlite3_column_type(qb, c));
            assert_true(sqlite3_column_int64(qa, c) == sqlite3_column_int64(qb, c));
        }
    }
    assert_int_equal(ra, SQLITE_DONE);
    assert_int_equal(sqlite3_step(qb), SQLITE_DONE);
    sqlite3_finalize(qa);
    sqlite3_finalize(qb);
}

/* Both databases from the same random rows; compared. Returns the writer's page count. */
static long same_as_sqlite(uint32_t page, int reserved, uint64_t seed, size_t sort_run)
{
    char *ref = evt_test_tmp_path("ref.db"), *out = evt_test_tmp_path("pages.db");
    uint32_t roots[NTABLES + NINDEXES], roots_ref[NTABLES + NINDEXES];
    create_db(ref, page, reserved, roots_ref);
    create_db(out, page, reserved, roots);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(ref, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA journal_mode=OFF; BEGIN", NULL, NULL, NULL), SQLITE_OK);
    char err[256] = "";
    sq_pages *p = sq_pages_open(out, PENDING, err, sizeof err);
    if (!p) fail_msg("sq_pages_open: %s", err);
    sq_pages_set_sort_run_(p, sort_run);
    int h[NTABLES];
    for (size_t t = 0; t < NTABLES; t++) assert_true((h[t] = sq_pages_table(p, roots[t], k_cols, NCOLS, k_tables[t].ipk)) >= 0);
    for (size_t i = 0; i < NINDEXES; i++)
        assert_int_equal(sq_pages_index(p, h[k_indexes[i].table], roots[NTABLES + i], k_indexes[i].cols, k_indexes[i].ncols), 1);
    g_rng = seed;
    int64_t key[NTABLES];
    int left[NTABLES];
    for (size_t t = 0; t < NTABLES; t++) {
        key[t] = k_tables[t].ipk ? -3 : 0; /* keys from -2 on: negative rowids take 9 varint bytes */
        left[t] = k_tables[t].rows;
    }
    for (int any = 1; any;) { /* the tables' rows interleaved, as the exporter's are */
        any = 0;
        for (size_t t = 0; t < NTABLES; t++) {
            if (!left[t] || (rnd() & 1)) { any |= left[t] > 0; continue; }
            row r;
            make_row(&r, k_tables[t].ipk, &key[t], page);
            insert_ref(db, t, &r);
            if (!sq_pages_add(p, h[t], r.v)) fail_msg("sq_pages_add: %s", sq_pages_error(p));
            free(r.mem[0]);
            free(r.mem[1]);
            left[t]--;
            any = 1;
        }
    }
    assert_int_equal(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sq_pages_finish(p), 1);
    assert_string_equal(sq_pages_error(p), "");
    sq_pages_free(p);
    sqlite3 *dbo;
    assert_int_equal(sqlite3_open(out, &dbo), SQLITE_OK);
    assert_integrity(dbo);
    assert_integrity(db);
    for (size_t t = 0; t < NTABLES; t++) assert_same_rows(db, dbo, t, k_tables[t].rows);
    for (size_t i = 0; i < NINDEXES; i++) assert_same_index(db, dbo, i);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(dbo, "PRAGMA page_count", -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    long pages = (long)sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    /* SQLite can go on writing the database: an index over the written pages, more rows (into the
     * written indexes too) */
    assert_int_equal(sqlite3_exec(dbo, "CREATE INDEX big_k_more ON big(k); INSERT INTO big(k, i, n) VALUES(1, NULL, 2), (2, 5, -7);", NULL, NULL, NULL),
                     SQLITE_OK);
    assert_integrity(dbo);
    sqlite3_close(dbo);
    sqlite3_close(db);
    remove(ref);
    remove(out);
    return pages;
}

static void pages_512(void **st)
{
    (void)st;
    long pages = same_as_sqlite(512, 0, 0x9E3779B97F4A7C15u, 0);
    assert_true(pages > (long)(PENDING / 512) + 1); /* the writer's pages crossed the lock-byte page */
}
static void pages_512_reserved(void **st) { (void)st; same_as_sqlite(512, 32, 77, 0); }
static void pages_4096_sort_runs(void **st) { (void)st; same_as_sqlite(4096, 0, 12345, 97); } /* indexes merged from many runs */
static void pages_65536(void **st) { (void)st; same_as_sqlite(65536, 8, 99, 1); }

/* Tables of one leaf, no overflow: the root page the writer fills is the one SQLite fills, byte
 * for byte (record headers and serial types included: 0 and 1 as types 8 and 9, the fewest
 * integer bytes, cells packed from the end). */
static void one_leaf_bytes_as_sqlite(void **st)
{
    (void)st;
    char *ref = evt_test_tmp_path("ref1.db"), *out = evt_test_tmp_path("pages1.db");
    uint32_t roots[NTABLES + NINDEXES], roots_ref[NTABLES + NINDEXES];
    create_db(ref, 4096, 0, roots_ref);
    create_db(out, 4096, 0, roots);
    assert_memory_equal(roots, roots_ref, sizeof roots);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(ref, &db), SQLITE_OK);
    char err[256];
    sq_pages *p = sq_pages_open(out, PENDING, err, sizeof err);
    assert_non_null(p);
    g_rng = 4242;
    int hs[NTABLES];
    for (size_t t = 0; t < NTABLES; t++) hs[t] = sq_pages_table(p, roots[t], k_cols, NCOLS, k_tables[t].ipk);
    for (size_t i = 0; i < NINDEXES; i++)
        assert_int_equal(sq_pages_index(p, hs[k_indexes[i].table], roots[NTABLES + i], k_indexes[i].cols, k_indexes[i].ncols), 1);
    for (size_t t = 0; t < NTABLES; t++) {
        int h = hs[t];
        int64_t key = k_tables[t].ipk ? -3 : 0;
        for (int i = 0; i < 12; i++) {
            row r;
            make_row(&r, k_tables[t].ipk, &key, 0);
            insert_ref(db, t, &r);
            assert_int_equal(sq_pages_add(p, h, r.v), 1);
            free(r.mem[0]);
            free(r.mem[1]);
        }
    }
    assert_int_equal(sqlite3_close(db), SQLITE_OK);
    assert_int_equal(sq_pages_finish(p), 1);
    sq_pages_free(p);
    sqlite3 *dbo;
    assert_int_equal(sqlite3_open(out, &dbo), SQLITE_OK);
    assert_integrity(dbo);
    sqlite3_close(dbo);
    size_t na, nb;
    uint8_t *a = evt_test_read_file(ref, &na), *b = evt_test_read_file(out, &nb);
    assert_int_equal(na, nb); /* no page more or less */
    for (size_t t = 0; t < NTABLES; t++) {
        size_t off = (size_t)(roots[t] - 1) * 4096;
        assert_true(off + 4096 <= na);
        if (memcmp(a + off, b + off, 4096) != 0) fail_msg("table %s: root page differs from SQLite's", k_tables[t].name);
    }
    free(a);
    free(b);
    remove(ref);
    remove(out);
}

/* What an INSERT would refuse, the writer refuses too, and says why. */
static void refused_rows(void **st)
{
    (void)st;
    char *out = evt_test_tmp_path("refused.db");
    uint32_t roots[NTABLES + NINDEXES];
    create_db(out, 4096, 0, roots);
    char err[256];
    sq_pages *p = sq_pages_open(out, PENDING, err, sizeof err);
    assert_non_null(p);
    int ipk = sq_pages_table(p, roots[0], k_cols, NCOLS, 1), plain = sq_pages_table(p, roots[1], k_cols, NCOLS, 0);
    evt_tl_val v[NCOLS] = {{.i = 5}, {.is_null = 1}, {.is_null = 1}, {.is_null = 1}, {.is_null = 1}, {.i = 1}};
    assert_int_equal(sq_pages_add(p, ipk, v), 1);
    assert_int_equal(sq_pages_add(p, ipk, v), 0); /* the same key again */
    assert_non_null(strstr(sq_pages_error(p), "out of order"));
    v[5].is_null = 1;
    assert_int_equal(sq_pages_add(p, plain, v), 0);
    assert_non_null(strstr(sq_pages_error(p), "NOT NULL constraint failed: n"));
    assert_int_equal(sq_pages_table(p, roots[2], k_cols, SQ_PAGES_MAX_COLS + 1, 0), -1);
    uint32_t text_col = 3, no_col = NCOLS, ipk_col = 0;
    assert_int_equal(sq_pages_index(p, plain, roots[NTABLES], &text_col, 1), 0); /* integer columns only */
    assert_int_equal(sq_pages_index(p, plain, roots[NTABLES], &no_col, 1), 0);
    assert_int_equal(sq_pages_index(p, ipk, roots[NTABLES], &ipk_col, 1), 0); /* the rowid itself */
    sq_pages_free(p);
    /* not a database: said, no writer */
    char *bad = evt_test_tmp_path("bad.db");
    assert_int_equal(evt_test_write_file(bad, "not sqlite", 10), 0);
    assert_null(sq_pages_open(bad, PENDING, err, sizeof err));
    assert_non_null(strstr(err, "bad.db"));
    remove(out);
    remove(bad);
}

int main(void)
{
    /* before any database is opened (SQLite reads it when a pager opens) */
    sqlite3_test_control(SQLITE_TESTCTRL_PENDING_BYTE, PENDING);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pages_512), cmocka_unit_test(pages_512_reserved), cmocka_unit_test(pages_4096_sort_runs),
        cmocka_unit_test(pages_65536), cmocka_unit_test(one_leaf_bytes_as_sqlite), cmocka_unit_test(refused_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
