/* ETW benchmarks: ns per TraceEvent (2 MOF fields) beside the common baseline measured in the same
 * run (ratio; the best of 20 short interleaved rounds of each), locked (per-CPU slot) and
 * THREAD_OWNED (no lock per event), the locked call with a clock that reads nothing (its own
 * work), the filtered, disabled and stopped paths (inline gate, no clock read), two threads on
 * two sessions (each its own lock and buffer) beside the two-thread own-ring baseline, two
 * threads sharing one session (per-thread buffers, one session lock), TraceEvent with POSIX CPU
 * times, a session opened with evt_etw_file_open's defaults (what users of the file API get; and
 * the same with its buffers written to memory, which leaves the file's system calls apart, and on
 * a real circular file in $TMPDIR, whose writes also copy into the page cache), and
 * the .etl reader's MB/s over a file made by the writer in memory (64 KiB buffers, 4 streams). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench_util.h"
#include "evtrace/etw.h"
#include "evtrace/reader.h"

static uint8_t *g_file;
static size_t g_cap, g_len;
static int g_keep; /* 1: keep written bytes (reader input), 0: discard (recorder timing) */

static int sink(void *user, uint64_t off, const void *p, uint32_t n)
{
    (void)user;
    if (!g_keep) return 0;
    if (off + n > g_cap) {
        size_t nc = g_cap ? g_cap : 1 << 20;
        while (nc < off + n) nc *= 2;
        uint8_t *q = realloc(g_file, nc);
        if (!q) return -1;
        g_file = q;
        g_cap = nc;
    }
    memcpy(g_file + off, p, n);
    if (off + n > g_len) g_len = off + n;
    return 0;
}

/* Short rounds of (baseline, subject) taken in turn, the best of each kept: on a machine shared with
 * other jobs a round that was preempted or slowed is discarded on both sides alike. */
#define ROUNDS 20
#define SHORT 100 /* a round runs iters / SHORT calls, 5 times */
static double min2(double a, double b) { return a < b ? a : b; }

static const evt_etw_guid k_guid = {0x9b79ee91u, 0xb5fd, 0x41c0, {0xa2, 0x43, 0x42, 0x48, 0xe2, 0x66, 0xe9, 0xd0}};
static evt_etw_provider g_prov;
static uint32_t g_cpu_rr;
static uint32_t rr_thread(void) { return g_cpu_rr; }

/* A system call that does nothing: what each of the file's system calls costs at least here. */
static void one_syscall(void *arg, uint64_t i)
{
    (void)arg;
    (void)i;
    (void)getppid();
}

static void one_event(void *arg, uint64_t i)
{
    evt_etw_provider *prov = arg ? (evt_etw_provider *)arg : &g_prov;
    uint32_t a = (uint32_t)i;
    uint64_t b = i * 3;
    evt_etw_mof_field mof[2] = {{&a, 4, 0}, {&b, 8, 0}};
    evt_etw_trace_header h;
    memset(&h, 0, sizeof h);
    h.size = 48 + 2 * 16;
    h.type = 10;
    h.level = 4;
    h.guid = k_guid;
    h.flags = ETW_WNODE_FLAG_TRACED_GUID | ETW_WNODE_FLAG_USE_MOF_PTR;
    evt_etw_write(prov, 0, &h, mof);
}

static void filtered_event(void *arg, uint64_t i)
{
    (void)arg;
    (void)i;
    evt_etw_trace_header h;
    memset(&h, 0, sizeof h);
    h.level = 5; /* session enabled at level 4: filtered */
    evt_etw_write(&g_prov, 0, &h, NULL);
}

/* The harness's floor: an empty function called through the same pointer (what every figure
 * taken with bench_ns_per_call includes). */
static __attribute__((noinline)) void empty_call(void *arg, uint64_t i)
{
    (void)arg;
    (void)i;
    __asm__ __volatile__("");
}

/* A filtered / disabled / stopped call in a plain loop (the gate inline at the call site, as an
 * instrumented program has it), best of short rounds; and the same through the harness. */
static void report_filtered(const char *what, uint64_t iters)
{
    double best = 1e30;
    uint64_t n = iters / SHORT;
    evt_etw_trace_header h;
    memset(&h, 0, sizeof h);
    h.level = 5; /* session enabled at level 4: filtered */
    for (int k = 0; k < ROUNDS; k++) {
        uint64_t t0 = bench_now_ns();
        for (uint64_t i = 0; i < n; i++) evt_etw_write(&g_prov, 0, &h, NULL);
        best = min2(best, (double)(bench_now_ns() - t0) / (double)n);
    }
    char line[160];
    snprintf(line, sizeof line, "%s, plain loop (no clock read)", what);
    bench_report("etw", line, best, "ns/event");
    snprintf(line, sizeof line, "%s, through the harness call", what);
    double h1 = 1e30;
    for (int k = 0; k < ROUNDS; k++) h1 = min2(h1, bench_ns_per_call(filtered_event, NULL, n, 5));
    bench_report("etw", line, h1, "ns/event");
}

/* A clock that reads nothing: the record's own work, without the TSC read the baseline also pays
 * (start_prov uses it while set). */
static uint64_t ts_const(void) { return 0x0102030405060708ull; }
static uint64_t (*g_clock)(void);

/* Start s on c and mem with p registered and enabled at level INFORMATION; on failure say what,
 * remove `made` (a file the session was to write, or NULL) and exit. */
static void start_on(evt_etw_session *s, evt_etw_provider *p, const evt_etw_session_config *c, void *mem,
                     uint32_t mem_size, const char *what, const char *made)
{
    if (evt_etw_session_start(s, c, mem, mem_size) != 0) {
        fprintf(stderr, "%s: start failed\n", what);
        if (made) (void)unlink(made);
        exit(1);
    }
    evt_etw_register(p, &k_guid, NULL, NULL);
    evt_etw_enable(s, p, ETW_CONTROL_ENABLE_PROVIDER, ETW_LEVEL_INFORMATION, 0, 0);
}

static void start_prov(evt_etw_session *s, evt_etw_provider *prov, uint8_t *mem, uint32_t nbuf, int per_thread, int cpu_times)
{
    evt_etw_session_config c;
    memset(&c, 0, sizeof c);
    c.buffer_size = 64 * 1024;
    c.buffers = nbuf;
    /* 0 per-CPU, 1-2 per-thread, 3 thread-owned, 4 the default (a zero per_thread: thread-owned
     * with a shared slot on POSIX) */
    c.per_thread = per_thread == 4   ? EVT_ETW_SLOTS_DEFAULT
                   : per_thread == 3 ? EVT_ETW_SLOTS_THREAD_OWNED
                   : per_thread      ? EVT_ETW_SLOTS_PER_THREAD
                                     : EVT_ETW_SLOTS_PER_CPU;
    c.log_file_mode = ETW_FILE_MODE_SEQUENTIAL;
    c.write = sink;
    c.thread_id = per_thread == 1 ? rr_thread : evt_etw_posix_thread_id; /* 2, 3: real thread ids */
    c.process_id = evt_etw_posix_process_id;
    c.filetime = evt_etw_posix_filetime;
    c.clock = g_clock;
    if (cpu_times) c.cpu_times = evt_etw_posix_cpu_times;
    start_on(s, prov, &c, mem, nbuf * c.buffer_size, "session", NULL);
}
static void start(evt_etw_session *s, uint8_t *mem, uint32_t nbuf, int per_thread, int cpu_times)
{
    start_prov(s, &g_prov, mem, nbuf, per_thread, cpu_times);
}


int main(void)
{
    static uint8_t mem[4 * 64 * 1024];
    uint64_t iters = bench_iters(2000000);
    evt_etw_session s;
    double base = 1e30, te = 1e30;

    g_keep = 0;
    start(&s, mem, 1, 0, 0);
    /* The same call into a THREAD_OWNED session (the thread's own slot, no lock per event). */
    static evt_etw_session s_own;
    static evt_etw_provider p_own;
    static uint8_t mem_own[64 * 1024];
    start_prov(&s_own, &p_own, mem_own, 1, 3, 0);
    /* Where the time goes: the locked call with a clock that reads nothing (the record's own
     * work; bench_machine says how much of the TSC read this CPU hides behind other work). */
    static evt_etw_session s_nc;
    static evt_etw_provider p_nc;
    static uint8_t mem_nc[64 * 1024];
    g_clock = ts_const;
    start_prov(&s_nc, &p_nc, mem_nc, 1, 0, 0);
    g_clock = NULL;
    /* What a user of the public file API gets: evt_etw_file_open's defaults (its clock, ids and
     * CPU-time hooks; the default slot mode), 2 buffers, the file /dev/null. */
    static evt_etw_session s_file;
    static evt_etw_provider p_file;
    static uint8_t mem_file[2 * 64 * 1024];
    evt_etw_session_config cf;
    memset(&cf, 0, sizeof cf);
    cf.buffer_size = 64 * 1024;
    cf.buffers = 2;
    cf.log_file_mode = ETW_FILE_MODE_SEQUENTIAL;
    struct evt_etw_file *ff = evt_etw_file_open("/dev/null", &cf);
    if (!ff) { fprintf(stderr, "file open failed\n"); exit(1); }
    start_on(&s_file, &p_file, &cf, mem_file, sizeof mem_file, "file session", NULL);
    /* Where its time goes: the same session with its buffers written to memory (the bench's sink)
     * instead of through the file's system call (pwrite; no signal mask is held around it: no
     * handler of this process records, etw_enc.c hold_begin). */
    static evt_etw_session s_fmem;
    static evt_etw_provider p_fmem;
    static uint8_t mem_fmem[2 * 64 * 1024];
    evt_etw_session_config cm = cf;
    cm.write = sink;
    cm.write_user = NULL;
    start_on(&s_fmem, &p_fmem, &cm, mem_fmem, sizeof mem_fmem, "file session in memory", NULL);
    /* The same on a real file: a circular .etl of 64 buffers (4 MiB) in $TMPDIR, so its pwrite also
     * copies each buffer into pages of the page cache, as a user's file session does (the pages are
     * reused once the file wrapped: no block allocation in the timed rounds). */
    static evt_etw_session s_real;
    static evt_etw_provider p_real;
    static _Alignas(8) uint8_t mem_real[2 * 64 * 1024 + 64 * 2 * sizeof(evt_rec_count)];
    char real_path[512];
    snprintf(real_path, sizeof real_path, "%s/bench_etw_%ld.etl", bench_tmpdir(), (long)getpid());
    evt_etw_session_config cr;
    memset(&cr, 0, sizeof cr);
    cr.buffer_size = cf.buffer_size;
    cr.buffers = cf.buffers;
    cr.log_file_mode = ETW_FILE_MODE_CIRCULAR;
    cr.max_file_buffers = 64;
    struct evt_etw_file *fr = evt_etw_file_open(real_path, &cr);
    if (!fr) { fprintf(stderr, "real file open failed (%s)\n", real_path); exit(1); }
    start_on(&s_real, &p_real, &cr, mem_real, sizeof mem_real, "real file session", real_path);
    double treal = 1e30;
    double tfmem = 1e30, tsys = 1e30;
    double town = 1e30, tnc = 1e30, tfile = 1e30, probe = 1e30;
    for (int k = 0; k < ROUNDS; k++) {
        probe = min2(probe, bench_alu_probe_ns());
        base = min2(base, bench_baseline_ns(iters / SHORT));
        te = min2(te, bench_ns_per_call(one_event, NULL, iters / SHORT, 5));
        town = min2(town, bench_ns_per_call(one_event, &p_own, iters / SHORT, 5));
        tnc = min2(tnc, bench_ns_per_call(one_event, &p_nc, iters / SHORT, 5));
        tfile = min2(tfile, bench_ns_per_call(one_event, &p_file, iters / SHORT, 5));
        tfmem = min2(tfmem, bench_ns_per_call(one_event, &p_fmem, iters / SHORT, 5));
        treal = min2(treal, bench_ns_per_call(one_event, &p_real, iters / SHORT, 5));
        tsys = min2(tsys, bench_ns_per_call(one_syscall, NULL, iters / SHORT / 50u, 5));
    }
    evt_etw_session_stop(&s_file);
    evt_etw_session_stop(&s_fmem);
    evt_etw_session_stop(&s_real);
    if (evt_etw_file_close(ff) != 0 || evt_etw_file_close(fr) != 0) { fprintf(stderr, "file close failed\n"); exit(1); }
    (void)unlink(real_path);
    evt_etw_session_stop(&s_own);
    evt_etw_session_stop(&s_nc);
    bench_report("etw", "baseline (TSC + 32-byte store)", base, "ns/event");
    bench_report("etw", "TraceEvent, 2 MOF fields (80-byte call, 64-byte record)", te, "ns/event");
    bench_report("etw", "TraceEvent, 2 MOF fields / baseline", te / base, "x");
    bench_report("etw", "TraceEvent, 2 MOF fields, thread-owned slot", town, "ns/event");
    bench_report("etw", "TraceEvent, 2 MOF fields, thread-owned slot / baseline", town / base, "x");
    bench_report("etw", "TraceEvent, 2 MOF fields, clock reads nothing (the record's own work)", tnc, "ns/event");
    bench_report("etw", "TraceEvent, clock reads nothing / baseline", tnc / base, "x");
    bench_report("etw", "file session (evt_etw_file_open defaults)", tfile, "ns/event");
    bench_report("etw", "file session (evt_etw_file_open defaults) / baseline", tfile / base, "x");
    bench_report("etw", "file session, its buffers written to memory instead (the record's own part) / baseline", tfmem / base, "x");
    /* the records of one 64 KiB buffer: its header, then records of 64 bytes (the 48-byte header
       and the two fields' 12 bytes, 8-aligned: MOF pointers are written as their data; the 80 of
       the call's Size counts the two 16-byte MOF_FIELDs) */
    double per_buf = (double)((64 * 1024 - ETW_BUFFER_HEADER_SIZE) / 64);
    bench_report("etw", "file session: time per 64 KiB buffer (1022 records) beyond writing it to memory (one pwrite)",
                 (tfile - tfmem) * per_buf / 1000.0, "us");
    bench_report("etw", "file session on a real file (circular, 4 MiB, in $TMPDIR) / baseline", treal / base, "x");
    bench_report("etw", "file session on a real file: time per 64 KiB buffer beyond writing it to memory (the pwrite copies it into the page cache)",
                 (treal - tfmem) * per_buf / 1000.0, "us");
    bench_report("etw", "a system call on this machine (getppid), for comparison", tsys, "ns");
    bench_report("etw", "core speed probe during these figures, best of the rounds (bench_alu_probe_ns; bench_machine prints its fastest and spread)", probe, "ns");
    double empty = 1e30;
    for (int k = 0; k < ROUNDS; k++) empty = min2(empty, bench_ns_per_call(empty_call, NULL, iters / SHORT, 5));
    bench_report("etw", "harness floor: empty function through the harness call", empty, "ns/call");
    report_filtered("filtered by level", iters);
    evt_etw_enable(&s, &g_prov, ETW_CONTROL_DISABLE_PROVIDER, 0, 0, 0);
    report_filtered("provider disabled", iters);
    evt_etw_enable(&s, &g_prov, ETW_CONTROL_ENABLE_PROVIDER, ETW_LEVEL_INFORMATION, 0, 0);
    evt_etw_session_stop(&s);
    report_filtered("session stopped", iters);

    /* Two threads: two sessions (own lock, own buffer each), then one session shared (per-thread
     * buffers under the one session lock). */
    {
        static uint8_t mem2[2][64 * 1024] __attribute__((aligned(64)));
        static evt_etw_session s2[2] __attribute__((aligned(64)));
        static evt_etw_provider p2[2] __attribute__((aligned(64)));
        double base2 = 1e30, t2 = 1e30;
        for (int k = 0; k < 2; k++) start_prov(&s2[k], &p2[k], mem2[k], 1, 0, 0);
        void *const args[2] = {&p2[0], &p2[1]};
        for (int k = 0; k < ROUNDS; k++) {
            base2 = min2(base2, bench_baseline_2t_ns(iters / SHORT * 4, 5));
            t2 = min2(t2, bench_2t_ns_per_call(one_event, args, iters / SHORT * 4, 5));
        }
        bench_report("etw", "two-thread baseline (own rings)", base2, "ns/event per thread");
        for (int k = 0; k < 2; k++) evt_etw_session_stop(&s2[k]);
        bench_report("etw", "two threads, two sessions: TraceEvent", t2, "ns/event per thread");
        bench_report("etw", "two threads, two sessions / two-thread baseline", t2 / base2, "x");
        bench_report("etw", "two-session ratio / one-session ratio (1.00: nothing shared)", (t2 / base2) / (te / base), "x");
        /* The same with THREAD_OWNED sessions, beside the same baseline, interleaved. The rounds
         * run on the calling thread and the one kept worker (bench_util.c), so each session needs
         * a slot per thread; the spare slots cover any other thread that records into it. */
        static uint8_t mem5[2][(ROUNDS + 4) * 64 * 1024] __attribute__((aligned(64)));
        for (int k = 0; k < 2; k++) start_prov(&s2[k], &p2[k], mem5[k], ROUNDS + 4, 3, 0);
        double b3, t3;
        double r3 = bench_2t_interleaved(one_event, args, iters / SHORT * 4, ROUNDS, &b3, &t3);
        evt_rec_stats rs3[2];
        for (int k = 0; k < 2; k++) {
            evt_etw_session_stop(&s2[k]);
            evt_etw_get_rec_stats(&s2[k], &rs3[k]);
        }
        bench_report("etw", "two threads, two thread-owned sessions: events dropped", (double)(rs3[0].dropped + rs3[1].dropped), "events");
        bench_report("etw", "two threads, two thread-owned sessions: TraceEvent", t3, "ns/event per thread");
        bench_report("etw", "two threads, two thread-owned sessions / two-thread baseline (median of rounds)", r3, "x");
        bench_report("etw", "two threads, two thread-owned sessions / two-thread baseline (best of each)", t3 / b3, "x");
        static uint8_t mem3[2 * 64 * 1024];
        start(&s, mem3, 2, 2, 0); /* per-thread buffers, real thread ids */
        void *const args1[2] = {&g_prov, &g_prov};
        double t1 = bench_2t_ns_per_call(one_event, args1, iters, 5);
        evt_etw_session_stop(&s);
        bench_report("etw", "two threads, one session (per-thread buffers, one lock): TraceEvent", t1, "ns/event per thread");
        bench_report("etw", "two threads, one session / two-thread baseline", t1 / base2, "x");
        /* thread-owned slots: the calling thread and the kept worker (bench_util.c) take a slot
         * each; a slot stays its thread id's unless given back (evt_etw_thread_detach) */
        /* Measured as the two-session rows (short rounds beside the baseline, median): one long
         * run of `iters` per thread, as before 29 Nov, gave 6-8x under load, where the threads are
         * descheduled within it; short rounds give the two-session figure (nothing shared). */
        static uint8_t mem4[16 * 64 * 1024];
        start(&s, mem4, 16, 3, 0);
        double b4, t4;
        double r4 = bench_2t_interleaved(one_event, args1, iters / SHORT * 4, ROUNDS, &b4, &t4);
        evt_etw_session_stop(&s);
        bench_report("etw", "two threads, one session (thread-owned slots): TraceEvent", t4, "ns/event per thread");
        bench_report("etw", "two threads, one session, thread-owned / two-thread baseline (median of rounds)", r4, "x");
        start(&s, mem4, 16, 4, 0); /* the default slot mode: thread-owned, one slot shared */
        double b5, t5;
        double r5 = bench_2t_interleaved(one_event, args1, iters / SHORT * 4, ROUNDS, &b5, &t5);
        evt_etw_session_stop(&s);
        bench_report("etw", "two threads, one session, default slot mode / two-thread baseline (median of rounds)", r5, "x");
    }
    start(&s, mem, 1, 0, 1);
    bench_report("etw", "TraceEvent, 2 MOF fields + getrusage CPU times", bench_ns_per_call(one_event, NULL, iters / 10, 3), "ns/event");
    evt_etw_session_stop(&s);

    /* Reader input: 4 per-thread streams interleaved, ~32 MiB. */
    g_keep = 1;
    start(&s, mem, 4, 1, 0);
    uint64_t n = 400000;
    for (uint64_t i = 0; i < n; i++) { g_cpu_rr = (uint32_t)(i & 3); one_event(NULL, i); }
    evt_etw_session_stop(&s);
    evt_reader *r = NULL;
    char err[256];
    double best = 1e30;
    uint64_t events = 0;
    for (int rep = 0; rep < 3; rep++) {
        uint64_t t0 = bench_now_ns();
        if (evt_reader_open_mem(g_file, g_len, "etw", NULL, NULL, NULL, &r, err, sizeof err) != EVT_OK) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        evt_event ev;
        events = 0;
        while (evt_reader_next(r, &ev) == EVT_OK) events++;
        evt_reader_close(r);
        double sec = (double)(bench_now_ns() - t0) / 1e9;
        if (sec < best) best = sec;
    }
    printf("bench: etw: reader input: %zu bytes, %llu events, 4 streams merged\n", g_len, (unsigned long long)events);
    bench_report("etw", "reader decode + 4-way merge", (double)g_len / 1e6 / best, "MB/s");
    bench_report("etw", "reader", best * 1e9 / (double)events, "ns/event");
    bench_report("etw", "peak RSS", (double)bench_peak_rss_kb(), "kB");
    free(g_file);
    return 0;
}
