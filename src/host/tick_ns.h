/* Ticks to nanoseconds at a fixed clock rate without a division per event: floor(ts * 1e9 / hz),
 * exactly as evt_ticks_to_ns (reader.h) computes it with a 128-bit division, saturating at
 * UINT64_MAX. Readers convert every event's time; a 64-bit `div` costs 14-46 cycles on current
 * x86-64 CPUs and the 128-bit one a libgcc call, while this costs four multiplications.
 *
 * How: with recip = floor(2^64 / hz), mulhi(x, recip) is floor(x / hz) or one less (the
 * reciprocal is short of 2^64 / hz by less than 1, so the estimate is short by less than
 * x / 2^64 < 1), and one compare of the remainder fixes it. ts = q * hz + r gives
 * ns = q * 1e9 + floor(r * 1e9 / hz), and r * 1e9 < hz * 1e9 fits in 64 bits while
 * hz < EVT_TICK_NS_FAST_MAX_HZ; faster clocks, and hz 1, take the 128-bit path.
 *
 * A rate that divides 1e9 (1 kHz, 1/10/100 MHz, 125 MHz, 1 GHz, ...) needs no division at all:
 * ts * 1e9 / hz is exactly ts * (1e9 / hz), one multiplication and one compare for the
 * saturation (ts <= mul_max: the product fits). */
#ifndef EVT_HOST_TICK_NS_H
#define EVT_HOST_TICK_NS_H

#include <stdint.h>

#define EVT_TICK_NS_FAST_MAX_HZ 18000000000ull /* 1.8e10 * 1e9 < 2^64 */

typedef struct evt_tick_ns {
    uint64_t hz;    /* ticks per second; 0: no clock (evt_tick_ns_conv must not be called) */
    uint64_t recip; /* floor(2^64 / hz) when the fast path applies, else 0 (also at 1 GHz: ts is ns) */
    uint64_t mul;   /* 1e9 / hz when hz divides 1e9 (then ns = ts * mul exactly), else 0 */
    uint64_t mul_max; /* floor(UINT64_MAX / mul): the largest ts whose product fits (mul != 0) */
} evt_tick_ns;

static inline void evt_tick_ns_init(evt_tick_ns *c, uint64_t hz)
{
    c->hz = hz;
    c->recip = (hz >= 2 && hz < EVT_TICK_NS_FAST_MAX_HZ && hz != 1000000000u)
                   ? (uint64_t)(((unsigned __int128)1 << 64) / hz)
                   : 0;
    c->mul = hz && 1000000000u % hz == 0 ? 1000000000u / hz : 0;
    c->mul_max = c->mul ? UINT64_MAX / c->mul : 0;
}

/* floor(x / hz) and x % hz through the reciprocal (c->recip != 0). */
static inline uint64_t evt_tick_ns_div_(const evt_tick_ns *c, uint64_t x, uint64_t *rem)
{
    uint64_t q = (uint64_t)(((unsigned __int128)x * c->recip) >> 64);
    uint64_t r = x - q * c->hz;
    if (r >= c->hz) { q++; r -= c->hz; } /* the estimate is short by at most one */
    *rem = r;
    return q;
}

/* Seconds below which q * 1e9 + frac (frac < 1e9) always fits: floor(UINT64_MAX / 1e9). */
#define EVT_TICK_NS_SAFE_S 18446744073ull

/* evt_tick_ns_conv without the reciprocal: 1 GHz, or the 128-bit division (out of line: keeps
 * the usual path small enough to inline). */
static __attribute__((noinline, unused)) uint64_t evt_tick_ns_conv_slow_(const evt_tick_ns *c, uint64_t ts)
{
    if (c->hz == 1000000000u) return ts;
    unsigned __int128 ns = (unsigned __int128)ts * 1000000000u / c->hz;
    return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

/* ts * mul saturated at UINT64_MAX (mul = 1e9 / hz, mul_max = floor(UINT64_MAX / mul): the
 * conversion of a rate that divides 1e9; the reader's inline path calls it with its copies). */
static inline uint64_t evt_tick_ns_mul_conv(uint64_t mul, uint64_t mul_max, uint64_t ts)
{
    return ts <= mul_max ? ts * mul : UINT64_MAX;
}

/* floor(ts * 1e9 / c->hz), UINT64_MAX when that does not fit (c->hz != 0). */
static inline uint64_t evt_tick_ns_conv(const evt_tick_ns *c, uint64_t ts)
{
    if (c->mul) return evt_tick_ns_mul_conv(c->mul, c->mul_max, ts);
    if (!c->recip) return evt_tick_ns_conv_slow_(c, ts);
    uint64_t r, r2;
    uint64_t q = evt_tick_ns_div_(c, ts, &r);
    uint64_t frac = evt_tick_ns_div_(c, r * 1000000000u, &r2); /* < 1e9 */
    /* q < EVT_TICK_NS_SAFE_S: q * 1e9 + frac < (q + 1) * 1e9 <= UINT64_MAX, no check needed */
    if (q >= EVT_TICK_NS_SAFE_S && q > (UINT64_MAX - frac) / 1000000000u) return UINT64_MAX;
    return q * 1000000000u + frac;
}

/* A cached second: t_ns of a tick inside [ts0, ts0 + hz) without a division, for a reader whose
 * events come in time order (XRay's function records). floor(ts * 1e9 / hz) = ns0 + floor(x * 1e9
 * / hz) for x = ts - ts0 < hz, and with M = ceil(2^64 * 1e9 / hz) = frac_a * 2^64 + frac_m,
 * floor(x * M / 2^64) = x * frac_a + mulhi(x, frac_m) is that floor exactly while hz <= 2^32: M /
 * 2^64 overshoots 1e9 / hz by less than 2^-64, so x * M / 2^64 overshoots x * 1e9 / hz by less
 * than hz / 2^64 <= 1 / hz, and x * 1e9 / hz is short of the next integer by at least 1 / hz.
 * Zero-initialised it caches nothing (span 0: every tick takes the caller's full conversion). */
typedef struct evt_tick_ns_sec {
    uint64_t ts0, ns0, span; /* the cached second: ticks [ts0, ts0 + span) from ns0 (span 0: none) */
    uint64_t frac_a, frac_m; /* ceil(2^64 * 1e9 / hz) in two words */
    uint64_t hz;             /* 0 when the form does not apply (no clock, or hz > 2^32) */
} evt_tick_ns_sec;

static inline void evt_tick_ns_sec_init(evt_tick_ns_sec *c, uint64_t hz)
{
    *c = (evt_tick_ns_sec){0, 0, 0, 0, 0, 0};
    if (hz == 0 || hz > (1ull << 32)) return;
    unsigned __int128 m = (((unsigned __int128)1000000000u << 64) + hz - 1) / hz;
    c->frac_a = (uint64_t)(m >> 64);
    c->frac_m = (uint64_t)m;
    c->hz = hz;
}

/* Cache the second of ts when the form applies to it (ns0 + 1e9 fits); a division, once per second. */
static inline void evt_tick_ns_sec_cache(evt_tick_ns_sec *c, uint64_t ts)
{
    if (!c->hz) return;
    uint64_t q = ts / c->hz;
    if (q >= EVT_TICK_NS_SAFE_S) return;
    c->ts0 = q * c->hz;
    c->ns0 = q * 1000000000u;
    c->span = c->hz;
}

/* t_ns of the tick ts0 + x, x < span. */
static inline uint64_t evt_tick_ns_sec_at(const evt_tick_ns_sec *c, uint64_t x)
{
    return c->ns0 + x * c->frac_a + (uint64_t)(((unsigned __int128)x * c->frac_m) >> 64);
}

#endif
