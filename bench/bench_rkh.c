/* RKH benchmarks: ns per 2-argument record (SM_STATE: ao, state) with sequence number, 32-bit
 * timestamp and checksum, recorded into a ring drained by a sink, beside the "read TSC + store 32
 * bytes" baseline; the same record filtered out; and decoder MB/s on a large recorded stream. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_util.h"
#include "evtrace/port.h"
#include "evtrace/reader.h"
#include "evtrace/rkh.h"

static evt_rkh_recorder g_rec;
static uint8_t g_ring[4096];
static uint8_t *g_out;
static size_t g_outn, g_outcap;
static int g_keep;

static uint32_t ts32(void) { return (uint32_t)evt_port_timestamp(); }

static void sink(void *user, const uint8_t *p, uint32_t n)
{
    (void)user;
    if (!g_keep) return;
    if (g_outn + n > g_outcap) return;
    memcpy(g_out + g_outn, p, n);
    g_outn += n;
}

static void rec_state(void *arg, uint64_t i)
{
    (void)arg;
    if (evt_rkh_begin_ao(&g_rec, 0x63, 1)) {
        evt_rkh_sym(&g_rec, 0x20001000u);
        evt_rkh_sym(&g_rec, 0x20002000u + (uint32_t)(i & 0xFFu));
        evt_rkh_end(&g_rec);
    }
}

int main(void)
{
    uint64_t iters = bench_iters(2000000);
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    evt_rkh_init(&g_rec, &c, g_ring, sizeof g_ring, ts32, 1000000u);
    evt_rkh_filter_all(&g_rec, 1);
    evt_rkh_set_sink(&g_rec, sink, NULL);
    double base = bench_baseline_ns(iters);
    double on = bench_ns_per_call(rec_state, NULL, iters, 5);
    evt_rkh_set_sink(&g_rec, NULL, NULL); /* ring only; drained in bulk outside the timed record */
    double ring_only = bench_ns_per_call(rec_state, NULL, iters, 5);
    evt_rkh_filter_on_event(&g_rec, 0x63);
    double off = bench_ns_per_call(rec_state, NULL, iters, 5);
    bench_report("rkh", "baseline (TSC + 32-byte store)", base, "ns/event");
    bench_report("rkh", "2-arg record, seq + ts32 + checksum, streamed to a sink", on, "ns/event");
    bench_report("rkh", "recorded / baseline", on / base, "x");
    bench_report("rkh", "2-arg record, seq + ts32 + checksum, into the ring (overwriting)", ring_only, "ns/event");
    bench_report("rkh", "2-arg record, filtered", off, "ns/event");

    /* decoder throughput on a ~32 MB stream */
    g_outcap = 32u << 20;
    g_out = malloc(g_outcap);
    if (!g_out) return 1;
    g_keep = 1;
    g_outn = 0;
    evt_rkh_init(&g_rec, &c, g_ring, sizeof g_ring, ts32, 1000000u);
    evt_rkh_filter_all(&g_rec, 1);
    evt_rkh_set_sink(&g_rec, sink, NULL);
    while (g_outn + 64 < g_outcap) rec_state(NULL, g_outn);
    char err[256];
    evt_reader *r;
    uint64_t t0 = bench_now_ns();
    if (evt_reader_open_mem(g_out, g_outn, "rkh", NULL, NULL, NULL, &r, err, sizeof err) != EVT_OK) return 1;
    evt_event ev;
    uint64_t n = 0;
    while (evt_reader_next(r, &ev) == EVT_OK) n++;
    uint64_t t1 = bench_now_ns();
    bench_report("rkh", "decoder input", (double)g_outn / 1e6, "MB");
    bench_report("rkh", "decoder events", (double)n, "events");
    bench_report("rkh", "decoder throughput", (double)g_outn / 1e6 / ((double)(t1 - t0) / 1e9), "MB/s");
    evt_reader_close(r);
    free(g_out);
    return 0;
}
