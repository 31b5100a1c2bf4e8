/* RKH benchmarks, each figure beside the same-run "read TSC + store 32 bytes" baseline as a ratio:
 * the 2-argument record (SM_STATE: ao, state) with sequence number, 32-bit timestamp and checksum
 * streamed to a sink and written into a full, overwriting flight ring; the same record filtered
 * out (with the clock reads it made: none); two threads on two separate recorders against the
 * two-thread own-ring baseline; and decoder MB/s on a large recorded stream. Where the time goes:
 * the same records with a clock that reads nothing (the record's own work against a baseline that
 * is mostly its TSC read) and a flight ring 4x larger (fewer wraps). Built with EVT_RKH_OWNED=1
 * (bench_rkh_owned): the same rows (the locked ones pay the switch's tests), then the streamed,
 * flight and two-thread figures on thread-owned recorders (evt_rkh_own: no lock per record). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_util.h"
#include "evtrace/port.h"
#include "evtrace/reader.h"
#include "evtrace/rkh.h"

/* bench_rkh_owned (CMakeLists.txt) is this file built with EVT_RKH_OWNED=1: its rows say so. */
#if EVT_RKH_OWNED
#define SUBJECT "rkh (EVT_RKH_OWNED=1)"
#else
#define SUBJECT "rkh"
#endif

/* A recorder and its ring on their own cache lines (two threads share nothing). */
typedef struct bench_rig {
    _Alignas(128) evt_rkh_recorder rec;
    _Alignas(64) uint8_t ring[4096];
} bench_rig;

static bench_rig g_rig[2];
/* Two recorders side by side in an array, as an application declares them (evtrace/rkh.h pads
 * each to 128 bytes on 64-bit hosts), each with its own ring. */
static evt_rkh_recorder g_pair[2];
static _Alignas(64) uint8_t g_pair_ring[2][4096];
static uint8_t *g_out;
static size_t g_outn, g_outcap;
static int g_keep;
static uint64_t g_clock_reads;

static uint32_t ts32(void) { return (uint32_t)evt_port_timestamp(); }
/* A clock that reads nothing: the record's own cost, without the TSC read the baseline also pays. */
static uint32_t ts_const(void) { return 0x01020304u; }
static uint32_t ts32_counted(void)
{
    g_clock_reads++;
    return (uint32_t)evt_port_timestamp();
}

static void sink(void *user, const uint8_t *p, uint32_t n)
{
    (void)user;
    if (!g_keep) return;
    if (g_outn + n > g_outcap) return;
    memcpy(g_out + g_outn, p, n);
    g_outn += n;
}

/* noinline: called only through a pointer, as the baseline is; without it GCC's partial inlining
 * split it into the filter test and a tail function, so every enabled record paid two
 * prologues and epilogues (5 register saves each) that neither the baseline nor an
 * application's trace point pays (0.1x of the ratio on the EPYC VM). */
static inline void rec_body(evt_rkh_recorder *r, uint64_t i)
{
    if (evt_rkh_begin_ao(r, 0x63, 1)) {
        evt_rkh_sym(r, 0x20001000u);
        evt_rkh_sym(r, 0x20002000u + (uint32_t)(i & 0xFFu));
        evt_rkh_end(r);
    }
}
__attribute__((noinline)) static void rec_state(void *arg, uint64_t i) { rec_body(arg, i); }

/* The filtered record in a plain loop (the call site sees the inline filter decision, as
 * application code does), best of 40 runs. */
static double filtered_loop(evt_rkh_recorder *r, uint64_t iters)
{
    double best = 1e30;
    uint64_t chunk = iters / 40 ? iters / 40 : 1;
    for (int k = 0; k < 40; k++) {
        uint64_t t0 = bench_now_ns();
        for (uint64_t i = 0; i < chunk; i++) rec_body(r, i); /* inline: the trace point's own test */
        double ns = (double)(bench_now_ns() - t0) / (double)chunk;
        if (ns < best) best = ns;
    }
    return best;
}

/* The recorder on `ring`: RKH's template configuration, every record emitted, streamed to the
 * sink or (with_sink 0) a flight ring. */
static void rec_init(evt_rkh_recorder *r, uint8_t *ring, uint32_t size, evt_rkh_ts_fn ts, int with_sink)
{
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    evt_rkh_init(r, &c, ring, size, ts, 1000000u);
    evt_rkh_filter_all(r, 1);
    if (with_sink) evt_rkh_set_sink(r, sink, NULL);
}
static void rig_init(bench_rig *g, evt_rkh_ts_fn ts, int with_sink) { rec_init(&g->rec, g->ring, sizeof g->ring, ts, with_sink); }
#if EVT_RKH_OWNED
/* Makes arg the calling thread's own recorder (evt_rkh_own): run once on each thread of a
 * two-thread figure (bench_2t_ns_per_call gives thread k args[k] every time). */
static int g_owned;
static void own_rec(void *arg, uint64_t i)
{
    (void)i;
    g_owned += evt_rkh_own(arg);
}
#endif

int main(void)
{
    uint64_t iters = bench_iters(2000000);
    evt_rkh_recorder *r0 = &g_rig[0].rec;

    rig_init(&g_rig[0], ts32, 1);
    double base = bench_best_of(NULL, NULL, iters);
    double streamed = bench_best_of(rec_state, r0, iters);

    rig_init(&g_rig[0], ts32, 0); /* flight ring: full after the first ~240 records, then overwriting */
    for (int i = 0; i < 1000; i++) rec_state(r0, (uint64_t)i);
    double flight = bench_best_of(rec_state, r0, iters);
    double probe = bench_alu_probe_ns(); /* the core's speed while the two figures above ran */
    evt_rec_stats st;
    evt_rkh_get_stats(r0, &st);
    double base2 = bench_best_of(NULL, NULL, iters);
    if (base2 < base) base = base2; /* the best baseline of the run: the ratios are not flattered */

    /* Where the time goes: the same records with a clock that reads nothing (streamed, and in the
     * full flight ring), and the flight ring 4x larger (one wrap per 4x as many records; the same
     * eviction batches of 512 bytes). */
    rig_init(&g_rig[0], ts_const, 1);
    double own_streamed = bench_best_of(rec_state, r0, iters);
    rig_init(&g_rig[0], ts_const, 0);
    for (int i = 0; i < 1000; i++) rec_state(r0, (uint64_t)i);
    double own_flight = bench_best_of(rec_state, r0, iters);
    static _Alignas(64) uint8_t big_ring[16384];
    rec_init(r0, big_ring, sizeof big_ring, ts32, 0);
    for (int i = 0; i < 4000; i++) rec_state(r0, (uint64_t)i); /* full, then overwriting */
    double flight16 = bench_best_of(rec_state, r0, iters);

    rig_init(&g_rig[0], ts32_counted, 1);
    evt_rkh_filter_on_event(r0, 0x63);
    g_clock_reads = 0;
    double off = bench_best_of(rec_state, r0, iters);
    double off_loop = filtered_loop(r0, iters);
    uint64_t off_reads = g_clock_reads;

    rig_init(&g_rig[0], ts32, 1);
    rig_init(&g_rig[1], ts32, 1);
    void *const args[2] = {&g_rig[0].rec, &g_rig[1].rec};
    double base_2t, two; /* 20 interleaved rounds (baseline, subject), best of each */
    double two_med = bench_2t_interleaved(rec_state, args, iters / 20u, 20, &base_2t, &two);
    rec_init(&g_pair[0], g_pair_ring[0], sizeof g_pair_ring[0], ts32, 1);
    rec_init(&g_pair[1], g_pair_ring[1], sizeof g_pair_ring[1], ts32, 1);
    void *const pair[2] = {&g_pair[0], &g_pair[1]};
    double base_2a, two_a;
    double two_a_med = bench_2t_interleaved(rec_state, pair, iters / 20u, 20, &base_2a, &two_a);

#if EVT_RKH_OWNED
    /* The same records on thread-owned recorders (evt_rkh_own: the owner's flag, no lock;
     * rkh_enc.c O2): streamed, the full flight ring, two threads each owning its recorder. */
    rig_init(&g_rig[0], ts32, 1);
    own_rec(r0, 0);
    double o_streamed = bench_best_of(rec_state, r0, iters);
    rig_init(&g_rig[0], ts32, 0);
    own_rec(r0, 0);
    for (int i = 0; i < 1000; i++) rec_state(r0, (uint64_t)i);
    double o_flight = bench_best_of(rec_state, r0, iters);
    rig_init(&g_rig[0], ts32, 1);
    rig_init(&g_rig[1], ts32, 1);
    (void)bench_2t_ns_per_call(own_rec, args, 1, 1);
    double obase_2t, o_two;
    double o_two_med = bench_2t_interleaved(rec_state, args, iters / 20u, 20, &obase_2t, &o_two);
    int owned_all = g_owned == 4; /* 0 without membarrier(2) (valgrind): the rows are then locked */
#endif

    bench_report(SUBJECT, "baseline (TSC + 32-byte store)", base, "ns/event");
    bench_report(SUBJECT, "2-arg record, seq + ts32 + checksum, streamed to a sink", streamed, "ns/event");
    bench_report(SUBJECT, "streamed / baseline", streamed / base, "x");
    bench_report(SUBJECT, "2-arg record, seq + ts32 + checksum, full overwriting flight ring", flight, "ns/event");
    bench_report(SUBJECT, "flight ring / baseline", flight / base, "x");
    bench_report(SUBJECT, "flight ring: records overwritten", (double)st.overwritten, "records");
    bench_report(SUBJECT, "core speed probe after these figures (bench_alu_probe_ns; bench_machine prints its fastest and spread)", probe, "ns");
    bench_report(SUBJECT, "streamed, clock reads nothing (the record's own work, no TSC read)", own_streamed, "ns/event");
    bench_report(SUBJECT, "streamed, clock reads nothing / baseline", own_streamed / base, "x");
    bench_report(SUBJECT, "flight ring, clock reads nothing / baseline", own_flight / base, "x");
    bench_report(SUBJECT, "flight ring of 16 KiB (4 KiB above) / baseline", flight16 / base, "x");
    bench_report(SUBJECT, "2-arg record, filtered (through a function pointer, like the baseline)", off, "ns/event");
    bench_report(SUBJECT, "2-arg record, filtered, plain loop", off_loop, "ns/event");
    bench_report(SUBJECT, "filtered: clock reads", (double)off_reads, "reads");
    bench_report(SUBJECT, "two-thread baseline (own rings)", base_2t, "ns/event/thread");
    bench_report(SUBJECT, "2-arg record, two threads on two recorders", two, "ns/event/thread");
    bench_report(SUBJECT, "two threads / two-thread baseline", two / base_2t, "x");
    bench_report(SUBJECT, "two threads / two-thread baseline, median of 20 rounds", two_med, "x");
    bench_report(SUBJECT, "two threads on two recorders side by side in an array / two-thread baseline", two_a / base_2a, "x");
    bench_report(SUBJECT, "... median of 20 rounds", two_a_med, "x");
#if EVT_RKH_OWNED
    bench_report(SUBJECT, owned_all ? "thread-owned (evt_rkh_own): streamed / baseline"
                                  : "thread-owned NOT AVAILABLE (no membarrier): locked, streamed / baseline",
                 o_streamed / base, "x");
    bench_report(SUBJECT, "thread-owned: flight ring / baseline", o_flight / base, "x");
    bench_report(SUBJECT, "thread-owned: two threads on two owned recorders / two-thread baseline, median of 20 rounds",
                 o_two_med, "x");
#endif
    bench_report(SUBJECT, "recorder size (sizeof evt_rkh_recorder)", (double)sizeof(evt_rkh_recorder), "bytes");
    /* Scaling alone: each ratio against its own baseline, so 1.00 means nothing is shared. */
    bench_report(SUBJECT, "two-thread ratio / one-thread streamed ratio (1.00: nothing shared)",
                 (two / base_2t) / (streamed / base), "x");

    /* decoder throughput on a ~32 MB stream */
    g_outcap = 32u << 20;
    g_out = malloc(g_outcap);
    if (!g_out) return 1;
    g_keep = 1;
    g_outn = 0;
    rig_init(&g_rig[0], ts32, 1);
    while (g_outn + 64 < g_outcap) rec_state(r0, g_outn);
    char err[256];
    evt_reader *r;
    uint64_t t0 = bench_now_ns();
    if (evt_reader_open_mem(g_out, g_outn, "rkh", NULL, NULL, NULL, &r, err, sizeof err) != EVT_OK) return 1;
    evt_event ev;
    uint64_t n = 0;
    while (evt_reader_next(r, &ev) == EVT_OK) n++;
    uint64_t t1 = bench_now_ns();
    bench_report(SUBJECT, "decoder input", (double)g_outn / 1e6, "MB");
    bench_report(SUBJECT, "decoder events", (double)n, "events");
    bench_report(SUBJECT, "decoder throughput", (double)g_outn / 1e6 / ((double)(t1 - t0) / 1e9), "MB/s");
    evt_reader_close(r);
    free(g_out);
    return 0;
}
