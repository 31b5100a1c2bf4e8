/* Unit test of the SQLite export's index-entry sorter (sqlite_sort.h) against qsort with a
 * comparison written here from the header's order (NULL first, then by signed value, column by
 * column, then the rowid). Entries are random with one and two key columns: NULLs, keys from a
 * few values (many ties, decided by a later column or the rowid) and of every magnitude, signed,
 * INT64_MIN and INT64_MAX, negative rowids; garbage in the slots the sorter must clear (a NULL's
 * value, columns past ncols). Sizes on both sides of the radix sort's threshold, one run in memory
 * and many runs merged from the scratch file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "evt_test.h"
#include "host/exporters/sqlite_sort.h"

static uint32_t g_ncols; /* of the entries ref_cmp compares */

/* The header's order over the columns in use, from the entries as given (a NULL's value and the
 * columns past ncols are not looked at). */
static int ref_cmp(const void *pa, const void *pb)
{
    const sq_ent *a = pa, *b = pb;
    for (uint32_t c = 0; c < g_ncols; c++) {
        int na = a->nulls >> c & 1, nb = b->nulls >> c & 1;
        if (na != nb) return na ? -1 : 1;
        if (!na && a->k[c] != b->k[c]) return a->k[c] < b->k[c] ? -1 : 1;
    }
    return a->rowid < b->rowid ? -1 : a->rowid > b->rowid;
}

static int64_t rand_key(uint64_t *st, int small)
{
    uint64_t r = evt_test_rand(st);
    switch (r % 8) {
    case 0: return INT64_MIN;
    case 1: return INT64_MAX;
    default: break;
    }
    if (small) return (int64_t)(evt_test_rand(st) % 5) - 2; /* ties */
    int64_t v = (int64_t)evt_test_rand_mag(st);
    return r >> 8 & 1 ? -v : v;
}

/* n entries with ncols columns through a sorter with runs of `run` entries; checks the sequence
 * against qsort of the same entries. */
static void sort_case(uint64_t seed, size_t n, uint32_t ncols, size_t run, int small_keys, int nulls)
{
    uint64_t st = seed;
    sq_ent *want = malloc((n ? n : 1) * sizeof *want);
    assert_non_null(want);
    sq_sort *s = sq_sort_new(evt_test_tmp_path("sort"), ncols, run);
    assert_non_null(s);
    for (size_t i = 0; i < n; i++) {
        sq_ent e;
        memset(&e, 0, sizeof e);
        /* unique rowids, in a shuffled order, some negative */
        e.rowid = (int64_t)((i * 2654435761u) % (n + 1)) - (int64_t)(n / 3);
        for (uint32_t c = 0; c < SQ_SORT_MAX_COLS; c++) {
            e.k[c] = rand_key(&st, small_keys || c == 0);
            if (nulls && evt_test_rand(&st) % 4 == 0) e.nulls |= 1u << c;
        }
        e.nulls |= (uint32_t)(evt_test_rand(&st) & 0xF0u); /* bits past the columns: ignored */
        e.pad_ = (uint32_t)evt_test_rand(&st);
        assert_int_equal(sq_sort_add(s, &e), 1);
        want[i] = e;
    }
    g_ncols = ncols;
    qsort(want, n, sizeof *want, ref_cmp);
    assert_int_equal(sq_sort_count(s), n);
    assert_int_equal(sq_sort_done(s), 1);
    for (size_t i = 0; i < n; i++) {
        sq_ent got;
        assert_int_equal(sq_sort_next(s, &got), 1);
        assert_int_equal(got.rowid, want[i].rowid);
        for (uint32_t c = 0; c < ncols; c++) {
            int null = want[i].nulls >> c & 1;
            assert_int_equal(got.nulls >> c & 1, null);
            if (!null) assert_int_equal(got.k[c], want[i].k[c]);
        }
    }
    sq_ent end;
    assert_int_equal(sq_sort_next(s, &end), 0);
    sq_sort_free(s);
    free(want);
}

static void sorted_like_qsort(void **state)
{
    (void)state;
    static const size_t sizes[] = {0, 1, 2, 3, 100, 255, 256, 257, 1000, 4099, 30000};
    uint64_t seed = 0x5EED5EEDu;
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (uint32_t ncols = 1; ncols <= SQ_SORT_MAX_COLS; ncols++)
            for (int small = 0; small <= 1; small++)
                for (int nulls = 0; nulls <= 1; nulls++) {
                    sort_case(seed, sizes[z], ncols, 0, small, nulls); /* one run, in memory */
                    seed += 0x9E3779B9u;
                }
}

static void sorted_across_runs(void **state)
{
    (void)state;
    uint64_t seed = 0xC0FFEEu;
    /* runs below and above the radix threshold, the last one short */
    static const size_t runs[] = {100, 256, 300, 4096};
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++)
        for (uint32_t ncols = 1; ncols <= SQ_SORT_MAX_COLS; ncols++) {
            sort_case(seed, 10007, ncols, runs[r], 0, 1);
            sort_case(seed + 1, 10007, ncols, runs[r], 1, 1);
            seed += 0x9E3779B9u;
        }
}

/* Keys that differ only in their highest byte, or only in their sign: the passes the radix sort
 * skips (bytes where every key agrees) must not drop the one that decides. */
static void sorted_by_high_bytes_and_signs(void **state)
{
    (void)state;
    sq_sort *s = sq_sort_new(evt_test_tmp_path("sort-hi"), 2, 0);
    assert_non_null(s);
    const size_t n = 1000;
    for (size_t i = 0; i < n; i++) {
        sq_ent e = {.rowid = (int64_t)(n - i)};
        e.k[0] = (int64_t)((uint64_t)(i % 7) << 56) * ((i & 1) ? -1 : 1);
        e.k[1] = (i % 3 == 0) ? -1 : 1;
        assert_int_equal(sq_sort_add(s, &e), 1);
    }
    assert_int_equal(sq_sort_done(s), 1);
    sq_ent prev, cur;
    assert_int_equal(sq_sort_next(s, &prev), 1);
    for (size_t i = 1; i < n; i++) {
        assert_int_equal(sq_sort_next(s, &cur), 1);
        g_ncols = 2;
        assert_true(ref_cmp(&prev, &cur) < 0);
        prev = cur;
    }
    sq_sort_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sorted_like_qsort),
        cmocka_unit_test(sorted_across_runs),
        cmocka_unit_test(sorted_by_high_bytes_and_signs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
