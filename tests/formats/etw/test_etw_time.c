/* .etl reader's raw-clock to ns conversion (etw_text_dec.c, etw_dec.h): the multiplication path
 * (etw_ticks_to_ns, etw_set_time's fast case) gives exactly the floor of delta * 1e9 / hz that the
 * 128-bit division gives, for clocks of every common rate and odd ones, deltas at the limits of the
 * fast path and random ones; etw_set_time matches the checked slow form before the header record,
 * at the overflow edge and with no clock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "evt_test.h"
#include "formats/etw/etw_dec.h"

static const uint64_t k_hz[] = {1, 3, 1000, 3117777, 10000000, 14318180, 1000000000, 2600000000ull, 3000000007ull,
                                999999999999ull, 0xFFFFFFFFFFFFull, UINT64_MAX / 3, UINT64_MAX};

static uint64_t rng(uint64_t *x)
{
    *x ^= *x << 13; /* xorshift64 */
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void set_clock(etw_state *s, uint64_t hz, uint64_t start_time, uint64_t t0)
{
    memset(s, 0, sizeof *s);
    s->hz = hz;
    s->start_time = start_time;
    s->t0 = t0;
    etw_time_init(s);
}

static void test_ticks_exact(void **st)
{
    (void)st;
    uint64_t x = 0x9E3779B97F4A7C15ull;
    static etw_state s;
    for (size_t h = 0; h < sizeof k_hz / sizeof k_hz[0]; h++) {
        set_clock(&s, k_hz[h], ETW_FILETIME_UNIX_EPOCH + 1, 0);
        uint64_t edge = s.ns_fast_max;
        const uint64_t fixed[] = {0, 1, 2, k_hz[h] - 1, k_hz[h], k_hz[h] + 1, edge - 1, edge, edge + 1, UINT64_MAX};
        for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
            assert_int_equal(etw_ticks_to_ns(&s, fixed[i]), etw_ticks_to_ns_div(fixed[i], k_hz[h]));
        for (int i = 0; i < 20000; i++) {
            uint64_t d = rng(&x) >> (rng(&x) & 63); /* every magnitude */
            assert_int_equal(etw_ticks_to_ns(&s, d), etw_ticks_to_ns_div(d, k_hz[h]));
        }
    }
}

/* etw_set_time as it read before the fast case: the reference. */
static void set_time_ref(const etw_state *s, evt_event *ev, uint64_t ts)
{
    ev->ts = ts;
    if (!s->hz || s->start_time < ETW_FILETIME_UNIX_EPOCH) return;
    uint64_t start_ns = (s->start_time - ETW_FILETIME_UNIX_EPOCH) * 100u, d;
    if (ts >= s->t0) {
        d = etw_ticks_to_ns_div(ts - s->t0, s->hz);
        if (d > UINT64_MAX - start_ns) return;
        ev->t_ns = start_ns + d;
    } else {
        d = etw_ticks_to_ns_div(s->t0 - ts, s->hz);
        if (d > start_ns) return;
        ev->t_ns = start_ns - d;
    }
    ev->flags |= EVT_HAS_TNS;
}

static void check_same(const etw_state *s, uint64_t ts)
{
    evt_event a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    etw_set_time(s, &a, ts);
    set_time_ref(s, &b, ts);
    assert_int_equal(a.ts, b.ts);
    assert_int_equal(a.flags, b.flags);
    assert_int_equal(a.t_ns, b.t_ns);
}

static void test_set_time_same(void **st)
{
    (void)st;
    uint64_t x = 12345;
    static etw_state s;
    const uint64_t starts[] = {0, ETW_FILETIME_UNIX_EPOCH - 1, ETW_FILETIME_UNIX_EPOCH, 131159502220379266ull,
                               ETW_FILETIME_UNIX_EPOCH + UINT64_MAX / 100 - 5, UINT64_MAX};
    const uint64_t t0s[] = {0, 1, 185227195741ull, 1ull << 63, UINT64_MAX - 1, UINT64_MAX};
    for (size_t h = 0; h < sizeof k_hz / sizeof k_hz[0]; h++)
        for (size_t a = 0; a < sizeof starts / sizeof starts[0]; a++)
            for (size_t b = 0; b < sizeof t0s / sizeof t0s[0]; b++) {
                set_clock(&s, k_hz[h], starts[a], t0s[b]);
                uint64_t t0 = t0s[b], lim = s.ns_fast_lim;
                const uint64_t ts[] = {t0, t0 - 1, t0 + 1, t0 + lim - 1, t0 + lim, t0 + lim + 1, 0, UINT64_MAX};
                for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) check_same(&s, ts[i]);
                for (int i = 0; i < 300; i++) check_same(&s, t0 + (rng(&x) >> (rng(&x) & 63)));
            }
    set_clock(&s, 0, 131159502220379266ull, 5); /* no clock: raw time only */
    check_same(&s, 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ticks_exact),
        cmocka_unit_test(test_set_time_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
