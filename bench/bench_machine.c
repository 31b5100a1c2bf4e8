/* What the same-run ratios of the other benchmarks rest on, measured on this machine: the cost of
 * the timestamp-counter read alone, of the baseline's 32-byte store alone, and how much of the
 * counter read the CPU hides behind other work. Every recorder's enabled record reads the counter
 * once, like the baseline; the ratio record / baseline is about 1 + (the record's other work) /
 * baseline only where the read hides none of that work. A CPU that runs independent work while
 * it reads the counter (hidden share near 1) gives ratios near 1 for the same record; one that
 * stalls (hidden share near 0) adds every instruction of the record to the baseline. The
 * instruction counts of bench/instr.sh do not depend on this; the ratios do. The last figure says
 * whether the two vCPUs slow each other on execution-bound work (a hypervisor that runs them on
 * the two hardware threads of one core, or a busy neighbour): ALU-bound work on two
 * threads against one thread, 20 interleaved rounds. Well above 1.00, every two-thread
 * ratio of a recorder whose record is execution-bound rises with it (the rdtsc-bound baseline
 * does not), whatever the recorder shares. The least an exact record does (min_record), alone and
 * with 64 more instructions, gives the room a target ratio leaves a record's format work on this
 * CPU, and the counter read beside 256 instructions of short chains what the read costs that no
 * order of a record's work hides. Last, the core's speed over 4 s (bench_alu_probe_ns): a
 * host that slows this vCPU in phases (29 Nov, this EPYC VM: the probe and every record's own work
 * ~25 % slower for seconds at a time, the TSC baseline unchanged, so the RKH ratio read 1.59x in a
 * fast phase and 2.2-2.7x in a slow one) shows as probes well above the fastest; each recorder
 * benchmark prints the probe beside its ratios, so a figure can be told to come from a slow phase.
 * And the probe pinned to each CPU in turn: a host may give one vCPU less of its core than the
 * other (6 Dec 2026, this Zen 5 VM: 9.40 ns on CPU 0, 6.18 ns on CPU 1, the TSC baseline 11 ns on
 * both), and every two-thread figure runs one thread on each, so a record with work of its own
 * then reads up to that much slower on two threads with nothing shared (ETW's two thread-owned
 * sessions: 1.5-1.6x, a record that costs 1.02x on CPU 1 and 1.5x on CPU 0). */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "bench_util.h"

static volatile uint32_t g_ring[1024][8];
static volatile uint64_t g_sink;

/* The counter read alone (its value kept, so it is not optimised out). */
static void tsc_only(void *arg, uint64_t i)
{
    (void)arg;
    (void)i;
    g_sink = bench_read_tsc();
}

/* The baseline's store without its counter read. */
static void store_only(void *arg, uint64_t i)
{
    (void)arg;
    volatile uint32_t *s = g_ring[i & 1023];
    s[0] = 1; s[1] = 2; s[2] = (uint32_t)i; s[3] = (uint32_t)i; s[4] = 5; s[5] = 6; s[6] = 7; s[7] = 8;
}

/* Work that does not depend on the counter: ten dependent multiplies (a fixed latency). */
static uint64_t g_chain = 3;
static inline uint64_t chain(uint64_t x)
{
    for (int k = 0; k < 10; k++) {
        x *= x | 1u;
        __asm__ __volatile__("" : "+r"(x)); /* kept as ten multiplies */
    }
    return x;
}
static void chain_only(void *arg, uint64_t i)
{
    (void)arg;
    (void)i;
    g_chain = chain(g_chain);
}
/* Each thread's ALU lanes on their own cache lines (two threads share nothing). */
static bench_alu_lanes g_alu[2] = {{{1, 2, 3, 4, 5, 6, 7, 8}}, {{9, 10, 11, 12, 13, 14, 15, 16}}};

/* The least an exact record does besides the baseline's read and store, as one function: the
 * owner word taken and released by plain stores (the POSIX lock's fast path without its
 * bookkeeping), the nesting guard (C3), the clamp of the counter (C6), the ring cursor with its wrap
 * and the written count (C4). Not a recorder (one thread only); a yardstick for what the format
 * work of a real record may add on this CPU. extra > 0 appends that many rounds of four register
 * operations (what further instructions of a record cost here). */
static struct {
    volatile uint32_t(*in)[8];
    uint64_t written, dropped;
    volatile uintptr_t owner;
    volatile uint8_t nest;
    uint32_t last;
} g_min = {g_ring, 0, 0, 0, 0, 0};
static inline void min_record(uint64_t i, int extra)
{
    if (g_min.owner != 0u || g_min.nest) {
        g_min.dropped++;
        return;
    }
    g_min.owner = 1u;
    g_min.nest = 1u;
    __asm__ __volatile__("" ::: "memory");
    uint32_t t = (uint32_t)bench_read_tsc();
    if (g_min.last - t - 1u < 0xFFFFu) t = g_min.last;
    g_min.last = t;
    volatile uint32_t *s = *g_min.in;
    uint32_t a = (uint32_t)i, b = a ^ 5u, c = a + 7u, d = a << 3;
    for (int k = 0; k < extra; k++) {
        a += b; b ^= c; c -= d; d |= a;
        __asm__ __volatile__("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d)); /* kept as written */
    }
    s[0] = 1; s[1] = 2; s[2] = a; s[3] = t; s[4] = b; s[5] = c; s[6] = d; s[7] = 8;
    g_min.in = g_min.in + 1 == g_ring + 1024 ? g_ring : g_min.in + 1;
    g_min.written++;
    __asm__ __volatile__("" ::: "memory");
    g_min.nest = 0u;
    g_min.owner = 0u;
}
static void min_exact(void *arg, uint64_t i)
{
    (void)arg;
    min_record(i, 0);
}
static void min_exact_more(void *arg, uint64_t i)
{
    (void)arg;
    min_record(i, 16);
}

/* Many instructions in short chains, as a record's format work is, where the chain above is few
 * instructions on one long chain: 32 rounds of eight register operations over eight lanes (256
 * instructions, 23 ns on the Zen 4 VM). What the counter read adds beside it is what no order of
 * a record's work hides: a record whose own work takes W costs about (W + that) / baseline. Zen 4
 * VM, 6 Dec 2026: 4.7-5.0 ns here, and 3.8-4.8 ns in a scratch sweep from 64 to 256 such
 * instructions, while the ten multiplies hide the whole read. */
static uint64_t g_lane[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static inline void lanes(void)
{
    uint64_t a0 = g_lane[0], a1 = g_lane[1], a2 = g_lane[2], a3 = g_lane[3];
    uint64_t a4 = g_lane[4], a5 = g_lane[5], a6 = g_lane[6], a7 = g_lane[7];
    for (int k = 0; k < 32; k++) {
        a0 += a1; a1 ^= a2; a2 += a3; a3 ^= a4; a4 += a5; a5 ^= a6; a6 += a7; a7 ^= a0 + (uint64_t)k;
        __asm__ __volatile__("" : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3), "+r"(a4), "+r"(a5), "+r"(a6), "+r"(a7));
    }
    g_lane[0] = a0; g_lane[1] = a1; g_lane[2] = a2; g_lane[3] = a3;
    g_lane[4] = a4; g_lane[5] = a5; g_lane[6] = a6; g_lane[7] = a7;
}
static void lanes_only(void *arg, uint64_t i)
{
    (void)arg;
    (void)i;
    lanes();
}
static void lanes_tsc(void *arg, uint64_t i)
{
    (void)arg;
    (void)i;
    uint64_t t = bench_read_tsc();
    lanes();
    g_sink = t;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void chain_tsc(void *arg, uint64_t i)
{
    (void)arg;
    (void)i;
    uint64_t t = bench_read_tsc();
    g_chain = chain(g_chain);
    g_sink = t;
}

int main(void)
{
    uint64_t iters = bench_iters(2000000);
    double base = bench_best_of(NULL, NULL, iters);
    double tsc = bench_best_of(tsc_only, NULL, iters);
    double store = bench_best_of(store_only, NULL, iters);
    double work = bench_best_of(chain_only, NULL, iters);
    double both = bench_best_of(chain_tsc, NULL, iters);
    double min0 = bench_best_of(min_exact, NULL, iters), min64 = bench_best_of(min_exact_more, NULL, iters);
    double busy = bench_best_of(lanes_only, NULL, iters), busy_tsc = bench_best_of(lanes_tsc, NULL, iters);
    /* 1: the read costs nothing beside the chain (both = the longer of the two); 0: it adds its
     * whole cost (both = chain + read). */
    /* execution-bound work on two threads against one: 20 interleaved rounds, the best of each */
    void *const own[2] = {&g_alu[0], &g_alu[1]};
    double one_t = 1e30, two_t = 1e30, r2[20];
    for (int k = 0; k < 20; k++) {
        double one = bench_ns_per_call(bench_alu_work, own[0], iters / 20u, 1);
        double two = bench_2t_ns_per_call(bench_alu_work, own, iters / 20u, 1);
        if (one < one_t) one_t = one;
        if (two < two_t) two_t = two;
        r2[k] = two / one;
    }
    qsort(r2, 20, sizeof r2[0], cmp_d);
    /* The core's speed over 4 s of busy work (as a benchmark runs; a sleep between probes would
     * measure the core waking up): 40 probes 100 ms apart. */
    double probe[40];
    for (int k = 0; k < 40; k++) {
        probe[k] = bench_alu_probe_ns();
        for (uint64_t t0 = bench_now_ns(), i = 0; bench_now_ns() - t0 < 100000000u; i++)
            bench_alu_work(&g_alu[0], i);
    }
    qsort(probe, 40, sizeof probe[0], cmp_d);
    /* The probe pinned to each CPU this process may run on (fastest of 10 each), then the
     * affinity restored. */
    double cpu_probe[8];
    int cpu_id[8], ncpu = 0;
    cpu_set_t all;
    if (sched_getaffinity(0, sizeof all, &all) == 0) {
        for (int c = 0; c < CPU_SETSIZE && ncpu < 8; c++) {
            if (!CPU_ISSET(c, &all)) continue;
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(c, &one);
            if (sched_setaffinity(0, sizeof one, &one) != 0) continue;
            double best = 1e30;
            for (int k = 0; k < 10; k++) {
                double p = bench_alu_probe_ns();
                if (p < best) best = p;
            }
            cpu_id[ncpu] = c;
            cpu_probe[ncpu++] = best;
        }
        (void)sched_setaffinity(0, sizeof all, &all);
    }
    int slow = 0;
    for (int k = 0; k < 40; k++) slow += probe[k] >= probe[0] * 1.10;
    double shorter = tsc < work ? tsc : work;
    double hidden = shorter > 0 ? (work + tsc - both) / shorter : 0;
    if (hidden < 0) hidden = 0;
    if (hidden > 1) hidden = 1;
    bench_report("machine", "baseline (TSC + 32-byte store)", base, "ns");
    bench_report("machine", "TSC read alone", tsc, "ns");
    bench_report("machine", "32-byte store alone (the baseline without its TSC read)", store, "ns");
    bench_report("machine", "TSC read / baseline", tsc / base, "x");
    bench_report("machine", "10 dependent multiplies (work that does not use the TSC)", work, "ns");
    bench_report("machine", "the same with one TSC read", both, "ns");
    bench_report("machine", "TSC read hidden behind that work (1: all, 0: none)", hidden, "share");
    bench_report("machine", "256 register instructions in 8 lanes (many short chains, as a record's work)", busy, "ns");
    bench_report("machine", "the same with one TSC read", busy_tsc, "ns");
    bench_report("machine", "... what the TSC read adds beside such work (no order of a record's work hides it; "
                 "a record of own work W costs about (W + this) / baseline)", busy_tsc - busy, "ns");
    bench_report("machine", "the least an exact record does (owner word, nesting guard, clamp, cursor, count; "
                 "bench_machine.c min_record) / baseline", min0 / base, "x");
    bench_report("machine", "... with 64 more register instructions (16 rounds of four) / baseline", min64 / base, "x");
    bench_report("machine", "... so each further instruction of a record adds", (min64 - min0) / 64.0, "ns");
    bench_report("machine", "ALU-bound work (8 lanes), one thread", one_t, "ns");
    bench_report("machine", "ALU-bound work, two threads / one thread, best of 20 rounds each (1.00: the vCPUs do "
                 "not slow each other)", two_t / one_t, "x");
    bench_report("machine", "... median of the rounds' ratios", r2[10], "x");
    bench_report("machine", "core speed probe (bench_alu_probe_ns), fastest of 40 over 4 s", probe[0], "ns");
    bench_report("machine", "... median", probe[20], "ns");
    bench_report("machine", "... slowest", probe[39], "ns");
    bench_report("machine", "... probes at least 1.10x the fastest (a host slowing this vCPU in phases: "
                 "every ratio whose record has work of its own rises then; compare each benchmark's probe)",
                 (double)slow, "of 40");
    double pmin = 1e30, pmax = 0;
    for (int k = 0; k < ncpu; k++) {
        char what[96];
        snprintf(what, sizeof what, "core speed probe pinned to CPU %d (fastest of 10)", cpu_id[k]);
        bench_report("machine", what, cpu_probe[k], "ns");
        if (cpu_probe[k] < pmin) pmin = cpu_probe[k];
        if (cpu_probe[k] > pmax) pmax = cpu_probe[k];
    }
    if (ncpu > 1)
        bench_report("machine", "... slowest CPU / fastest CPU (well above 1.00: every two-thread figure has a "
                     "thread on the slow one, and a record with work of its own reads slower there)",
                     pmax / pmin, "x");
    return 0;
}
