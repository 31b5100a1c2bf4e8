/* User events (evtrace/user.h) on the TXTB recorder against a plain 4-argument user event in the
 * same run: evt_printf with 3 integer arguments (site + 3 words: one slot), evt_value (one slot),
 * an evt_interval_begin/end pair; then the same calls with user events filtered and with the
 * recorder off. Each figure is the best of 40 rounds taken in turn (plain, printf, value, pair),
 * so a round slowed by another job on a shared machine slows all of them; the ratios are to the
 * plain event of the same rounds (best against best, and the median of each round's own ratio).
 * Beside them, two reads of the same timestamp counter with nothing stored: the least any
 * begin+end pair can cost, since each end of an interval needs its own time.
 *
 *   bench_user SUBJECT   runs one loop of N calls, for instruction counts (load-independent):
 *                        bash bench/instr.sh BUILD user-plain user-printf3 user-value user-ibegin
 *                        user-iend user-ipair (per call; user-ipair: per begin+end pair) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_util.h"
#include "evtrace/user.h"

#define SUBJ "user"
#define ROUNDS 40

static void plain(void *arg, uint64_t i)
{
    (void)arg;
    (void)evt_tx_trace_user_event_insert(4096u, (uint32_t)i, 2u, 3u, 4u);
}
static void printf3(void *arg, uint64_t i)
{
    (void)arg;
    evt_printf("bench", "i=%d j=%d k=%d", (int)i, 2, 3);
}
static void value(void *arg, uint64_t i)
{
    (void)arg;
    evt_value("bench value", (int64_t)i);
}
static void ipair(void *arg, uint64_t i)
{
    (void)arg;
    evt_interval_begin("bench interval", (uint32_t)i);
    evt_interval_end("bench interval", (uint32_t)i);
}

static volatile uint64_t g_sink;
static void clock2(void *arg, uint64_t i)
{
    (void)arg;
    (void)i;
    g_sink = bench_read_tsc();
    g_sink = bench_read_tsc();
}

static void (*const k_fns[])(void *, uint64_t) = {plain, printf3, value, ipair, clock2};
static const char *const k_names[] = {"plain user event (4 args)", "evt_printf, 3 int args", "evt_value",
                                      "evt_interval_begin + end (pair)",
                                      "two clock reads, nothing stored (the floor of any pair)"};
#define NF (sizeof k_fns / sizeof k_fns[0])

/* Best ns per call of each function over ROUNDS rounds taken in turn, and the median over the
 * rounds of each function's ratio to the plain event of the same round (med[0] unused). */
static double g_ratio[NF][ROUNDS];
static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static void rounds(uint64_t iters, double best[NF], double med[NF])
{
    for (unsigned f = 0; f < NF; f++) best[f] = 1e30;
    for (int r = 0; r < ROUNDS; r++) {
        double ns[NF];
        for (unsigned f = 0; f < NF; f++) {
            ns[f] = bench_ns_per_call(k_fns[f], NULL, iters, 1);
            if (ns[f] < best[f]) best[f] = ns[f];
        }
        for (unsigned f = 0; f < NF; f++) g_ratio[f][r] = ns[f] / ns[0];
    }
    for (unsigned f = 0; f < NF; f++) {
        qsort(g_ratio[f], ROUNDS, sizeof g_ratio[f][0], cmp_d);
        med[f] = (g_ratio[f][ROUNDS / 2 - 1] + g_ratio[f][ROUNDS / 2]) / 2.0;
    }
}

static void report(const char *state, const double best[NF], const double med[NF])
{
    char what[160];
    for (unsigned f = 0; f < NF; f++) {
        snprintf(what, sizeof what, "%s, %s", k_names[f], state);
        bench_report(SUBJ, what, best[f], "ns/call");
        if (f) {
            snprintf(what, sizeof what, "%s / plain, %s", k_names[f], state);
            bench_report(SUBJ, what, best[f] / best[0], "x");
            snprintf(what, sizeof what, "%s / plain, median of same-round ratios, %s", k_names[f], state);
            bench_report(SUBJ, what, med[f], "x");
        }
        if (k_fns[f] == ipair) { /* two records: per record against the plain one */
            snprintf(what, sizeof what, "interval record (half a pair) / plain, %s", state);
            bench_report(SUBJ, what, best[f] / 2.0 / best[0], "x");
            snprintf(what, sizeof what, "interval record (half a pair) / plain, median of same-round ratios, %s", state);
            bench_report(SUBJ, what, med[f] / 2.0, "x");
        }
    }
}

/* ---- instruction-count loops (bench/instr.sh user-*: callgrind --toggle-collect) ------------- */
#define N_INSTR 100000u /* calls per loop: bench/instr.sh divides by it */
#define NOINLINE __attribute__((noinline))
#define INSTR_LOOP(name, body)                                         \
    NOINLINE void instr_loop_user_##name(void);                        \
    NOINLINE void instr_loop_user_##name(void)                         \
    {                                                                  \
        for (uint64_t i = 0; i < N_INSTR; i++) body;                   \
    }
INSTR_LOOP(plain, plain(NULL, i))
INSTR_LOOP(printf3, printf3(NULL, i))
INSTR_LOOP(value, value(NULL, i))
INSTR_LOOP(ibegin, evt_interval_begin("bench interval", (uint32_t)i))
INSTR_LOOP(iend, evt_interval_end("bench interval", (uint32_t)i))
INSTR_LOOP(ipair, ipair(NULL, i))

static int instr(const char *m)
{
    static const struct { const char *name; void (*fn)(void); } k[] = {
        {"user-plain", instr_loop_user_plain}, {"user-printf3", instr_loop_user_printf3},
        {"user-value", instr_loop_user_value}, {"user-ibegin", instr_loop_user_ibegin},
        {"user-iend", instr_loop_user_iend},   {"user-ipair", instr_loop_user_ipair},
    };
    static uint8_t ring[48u + 16u * 48u + 1024u * 32u];
    for (unsigned j = 0; j < sizeof k / sizeof k[0]; j++) {
        if (strcmp(m, k[j].name) != 0) continue;
        if (evt_tx_trace_enable(ring, sizeof ring, 16) != EVT_TX_SUCCESS) return 1;
        evt_user_resend();
        plain(NULL, 0); /* the sites' SITE records: outside the counted loop */
        printf3(NULL, 0);
        value(NULL, 0);
        ipair(NULL, 0);
        evt_interval_begin("bench interval", 0u);
        evt_interval_end("bench interval", 0u);
        k[j].fn();
        evt_tx_trace_disable();
        return 0;
    }
    fprintf(stderr, "bench_user: unknown subject '%s'\n", m);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc > 1) return instr(argv[1]);
    uint64_t iters = bench_iters(5000000) / ROUNDS;
    if (!iters) iters = 1;
    static uint8_t ring[48u + 16u * 48u + 1024u * 32u]; /* 1024 slots, as bench_txtb */
    double best[NF], med[NF];
    if (evt_tx_trace_enable(ring, sizeof ring, 16) != EVT_TX_SUCCESS) return 1;
    evt_user_resend();
    rounds(iters, best, med);
    report("enabled", best, med);
    evt_tx_trace_event_filter(EVT_TX_TRACE_USER_EVENTS);
    rounds(iters, best, med);
    report("filtered", best, med);
    evt_tx_trace_event_unfilter(EVT_TX_TRACE_USER_EVENTS);
    evt_tx_trace_disable();
    rounds(iters, best, med);
    report("disabled", best, med);
    evt_tx_stats s;
    evt_tx_trace_get_stats(&s);
    bench_report(SUBJ, "records dropped during the run", (double)s.dropped, "records");
    return 0;
}
