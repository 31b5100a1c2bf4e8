/* Unit tests of the latency histogram: exact percentiles for small samples (llvm-xray's rank
 * convention), the documented relative error bound once bucketed, min/max/sum exactness. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdlib.h>
#include "host/analyses/hist.h"

static void exact_small(void **st)
{
    (void)st;
    evt_hist h;
    evt_hist_init(&h);
    assert_int_equal(evt_hist_pct(&h, 0.5), 0);
    /* do_work in fdr-v5-small.account.txt: 2 samples, med = the larger (rank floor(0.5 * 2) = 1) */
    evt_hist_add(&h, 19);
    evt_hist_add(&h, 10);
    assert_int_equal(evt_hist_pct(&h, 0.5), 19);
    assert_int_equal(evt_hist_pct(&h, 0.0), 10);
    evt_hist_free(&h);
    evt_hist_init(&h);
    for (uint64_t v = 100; v >= 1; v--) evt_hist_add(&h, v * 1000); /* 1000..100000, reversed */
    assert_true(evt_hist_is_exact(&h));
    assert_int_equal(evt_hist_pct(&h, 0.5), 51000);  /* rank 50 (0-based) */
    assert_int_equal(evt_hist_pct(&h, 0.9), 91000);
    assert_int_equal(evt_hist_pct(&h, 0.99), 100000);
    assert_int_equal(evt_hist_pct(&h, 1.0), 100000);
    assert_int_equal(h.min, 1000);
    assert_int_equal(h.max, 100000);
    assert_int_equal(h.sum, 5050000);
    assert_int_equal(h.count, 100);
    evt_hist_free(&h);
}

static int cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void bucketed_error_bound(void **st)
{
    (void)st;
    enum { N = 100000 };
    uint64_t *v = malloc(N * sizeof *v);
    evt_hist h;
    evt_hist_init(&h);
    uint64_t x = 88172645463325252ull, sum = 0;
    for (int i = 0; i < N; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        v[i] = (x % 10000000) + (i % 7 == 0 ? 0 : 50); /* spread over 7 decades, some tiny values */
        if (i % 1000 == 0) v[i] = i / 1000;            /* exact small values too */
        sum += v[i];
        assert_int_equal(evt_hist_add(&h, v[i]), 1);
    }
    assert_false(evt_hist_is_exact(&h));
    qsort(v, N, sizeof *v, cmp);
    const double ps[] = {0.0, 0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
        uint64_t k = (uint64_t)(ps[i] * N);
        if (k >= N) k = N - 1;
        double want = (double)v[k], got = (double)evt_hist_pct(&h, ps[i]);
        double err = want ? (got > want ? got - want : want - got) / want : got;
        assert_true(err <= 1.0 / 128 + 1e-12);
    }
    assert_int_equal(h.min, v[0]);
    assert_int_equal(h.max, v[N - 1]);
    assert_int_equal(h.sum, sum);
    evt_hist_free(&h);
    free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exact_small),
        cmocka_unit_test(bucketed_error_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
