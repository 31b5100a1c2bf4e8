/* Ticks to ns without a division (src/host/tick_ns.h) against the 128-bit division it replaces
 * (evt_ticks_to_ns): the rates real traces carry (32768 Hz, 1 MHz, odd TSC rates, 1 GHz, 10 MHz
 * QPC, 5 GHz; the divisors of 1e9 that take the multiply path: 1 kHz ... 500 MHz), every rate edge (2, 3, hz just below and at the fast path's limit, hz beyond
 * it, UINT64_MAX), and times at every multiple-of-hz boundary, near the saturation point and at
 * UINT64_MAX, plus a million random pairs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include "evt_test.h"
#include "evtrace/reader.h"
#include "host/tick_ns.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) /* xorshift64* */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

static void check(uint64_t hz, uint64_t ts)
{
    evt_tick_ns c;
    evt_tick_ns_init(&c, hz);
    uint64_t want = evt_ticks_to_ns(ts, hz), got = evt_tick_ns_conv(&c, ts);
    if (want != got) fail_msg("hz %llu ts %llu: %llu, want %llu", (unsigned long long)hz, (unsigned long long)ts,
                              (unsigned long long)got, (unsigned long long)want);
}

static const uint64_t k_rates[] = {
    1, 2, 3, 7, 1000, 32768, 1000000, 10000000, 16000000, 100000000, 125000000, 500000000, 48000000, 168000000, 999999999, 1000000000,
    1000000001, 2596159892ull, 2596134000ull, 3000000000ull, 5000000000ull, 17999999999ull,
    18000000000ull, 18000000001ull, 1ull << 40, UINT64_MAX / 3, UINT64_MAX,
};
#define N_RATES (sizeof k_rates / sizeof k_rates[0])

static void rate_edges_and_boundaries(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_RATES; i++) {
        uint64_t hz = k_rates[i];
        for (uint64_t ts = 0; ts < 70; ts++) check(hz, ts);
        for (uint64_t k = 1; k < 5000; k++) { /* both sides of each whole second */
            unsigned __int128 t = (unsigned __int128)k * hz;
            if (t > UINT64_MAX) break;
            check(hz, (uint64_t)t - 1);
            check(hz, (uint64_t)t);
            if ((uint64_t)t < UINT64_MAX) check(hz, (uint64_t)t + 1);
        }
        /* where ts * 1e9 / hz stops fitting in 64 bits: saturates exactly there */
        unsigned __int128 sat = ((unsigned __int128)UINT64_MAX + 1) * hz / 1000000000u;
        if (sat <= UINT64_MAX) {
            for (int d = -3; d <= 3; d++) check(hz, (uint64_t)sat + (uint64_t)(int64_t)d);
        }
        for (int d = 0; d < 8; d++) check(hz, UINT64_MAX - (uint64_t)d);
    }
}

static void random_pairs(void **state)
{
    (void)state;
    for (int i = 0; i < 1000000; i++) {
        uint64_t hz = k_rates[rnd() % N_RATES];
        if (i & 1) hz = (rnd() >> (rnd() % 64)) | 1u; /* any rate at all */
        uint64_t ts = rnd() >> (rnd() % 64);
        check(hz, ts);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rate_edges_and_boundaries),
        cmocka_unit_test(random_pairs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
