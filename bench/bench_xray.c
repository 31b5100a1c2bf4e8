/* XRay benchmarks: (1) the recorder core alone (rdtsc + one 8-byte record per event, no XRay
 * trampoline), (2) ns per instrumented call (entry + exit) in one helper process built with clang
 * -fxray-instrument (examples/xray/xray_bench_prog): sleds unpatched, patched with an empty
 * handler, evtrace's handler, compiler-rt's FDR mode (threshold 0), (3) the explicit API and the
 * -finstrument-functions hooks: recording (one and two threads, per-thread buffers) and stopped
 * (inline gate, no clock read; the cyg hooks also in a plain loop beside two empty out-of-line
 * calls, their floor), each beside the same-run baseline as a ratio, and (4) the
 * reader's decode speed on the file the helper's evtrace run wrote. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <fcntl.h>
#include "bench_util.h"
#include "evtrace/out.h"
#include "evtrace/reader.h"
#include "evtrace/xray.h"

static evt_xray_pool g_pool;
static evt_xray_writer g_w;

static inline uint64_t tsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __builtin_ia32_rdtsc();
#else
    return bench_now_ns();
#endif
}

/* One instrumented call's worth: an entry and an exit event. */
static void core_pair(void *arg, uint64_t i)
{
    (void)arg;
    (void)evt_xray_fn_fast(&g_w, &g_pool, 0, (uint32_t)(i & 1023) + 1, tsc(), 0);
    (void)evt_xray_fn_fast(&g_w, &g_pool, 1, (uint32_t)(i & 1023) + 1, tsc(), 0);
}

/* The explicit API: an entry and an exit (the recorder's own thread buffer, nesting guard, TSC). */
static void api_pair(void *arg, uint64_t i)
{
    (void)arg;
    evt_xray_enter((uint32_t)(i & 1023) + 1);
    evt_xray_exit((uint32_t)(i & 1023) + 1);
}
/* One explicit-API record (two-thread comparison with the one-record baseline). */
static void api_one(void *arg, uint64_t i)
{
    (void)arg;
    if (i & 1) evt_xray_exit((uint32_t)(i & 1023) + 1);
    else evt_xray_enter((uint32_t)(i & 1023) + 1);
}
/* The -finstrument-functions hooks as an instrumented function calls them. */
void __cyg_profile_func_enter(void *fn, void *site);
void __cyg_profile_func_exit(void *fn, void *site);
static void cyg_pair(void *arg, uint64_t i)
{
    (void)i;
    __cyg_profile_func_enter(arg, arg);
    __cyg_profile_func_exit(arg, arg);
}

/* The floor of any hook the compiler calls: two empty out-of-line functions with the hooks'
 * signature (what -finstrument-functions costs with hooks that do nothing). */
static __attribute__((noinline, no_instrument_function)) void empty_hook(void *fn, void *site)
{
    __asm__ __volatile__("" ::"r"(fn), "r"(site));
}
static void empty_pair(void *arg, uint64_t i)
{
    (void)i;
    empty_hook(arg, arg);
    empty_hook(arg, arg);
}

/* ns per pair of fn(fn-address, site) calls in a plain loop (no harness call), best of short
 * rounds: cyg = 1 runs the cyg hooks, 0 the empty ones. */
static double plain_pairs(int cyg, uint64_t iters)
{
    double best = 1e30;
    uint64_t n = iters / 100;
    void *f = (void *)plain_pairs;
    for (int k = 0; k < 20; k++) {
        uint64_t t0 = bench_now_ns();
        if (cyg)
            for (uint64_t i = 0; i < n; i++) {
                __cyg_profile_func_enter(f, f);
                __cyg_profile_func_exit(f, f);
            }
        else
            for (uint64_t i = 0; i < n; i++) {
                empty_hook(f, f);
                empty_hook(f, f);
            }
        double ns = (double)(bench_now_ns() - t0) / (double)n;
        if (ns < best) best = ns;
    }
    return best;
}

/* Start the helper in dir with the FDR environment; its stdout is read from *out. Returns its
 * pid, or -1. No shell: fork + execv with argv. */
static pid_t spawn_helper(const char *prog, const char *dir, const char *trace, FILE **out)
{
    int p[2];
    if (pipe(p) != 0) return -1;
    char opts[4200], iters[32];
    snprintf(opts, sizeof opts, "xray_mode=xray-fdr xray_logfile_base=%s/fdr-", dir);
    snprintf(iters, sizeof iters, "%llu", (unsigned long long)bench_iters(2000000));
    pid_t pid = fork();
    if (pid < 0) { close(p[0]); close(p[1]); return -1; }
    if (pid == 0) {
        int nul = open("/dev/null", O_WRONLY);
        if (chdir(dir) != 0 || nul < 0 || dup2(nul, 2) < 0 || dup2(p[1], 1) < 0) _exit(127);
        close(p[0]);
        setenv("EVT_XRAY_BENCH_FILE", trace, 1);
        setenv("XRAY_OPTIONS", opts, 1);
        char *const argv[] = {(char *)prog, iters, NULL};
        execv(prog, argv);
        _exit(127);
    }
    close(p[1]);
    *out = fdopen(p[0], "r");
    if (!*out) close(p[0]);
    return pid;
}

static void run_helper(const char *trace)
{
    char exe[4096], prog[4200];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 64);
    if (n <= 0) { printf("bench: xray: cannot locate the helper (readlink)\n"); return; }
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) *slash = 0;
    snprintf(prog, sizeof prog, "%s/examples/xray/xray_bench_prog", exe);
    /* compiler-rt's FDR mode opens its log file (header only: never flushed) at init: keep it in
     * a scratch directory, removed afterwards. */
    char dir[] = "/tmp/evt-bench-xray-XXXXXX";
    if (!mkdtemp(dir)) { printf("bench: xray: mkdtemp failed\n"); return; }
    FILE *p = NULL;
    pid_t pid = spawn_helper(prog, dir, trace, &p);
    if (pid < 0 || !p) {
        printf("bench: xray: cannot run %s\n", prog);
        if (pid > 0) waitpid(pid, NULL, 0);
        evt_out_remove_tree(dir);
        return;
    }
    char line[256];
    int got = 0;
    double empty = 0, evt = 0, fdr = 0;
    while (fgets(line, sizeof line, p)) {
        char name[64];
        double best, med;
        if (sscanf(line, "%63s %lf %lf", name, &best, &med) != 3) continue;
        got++;
        if (strcmp(name, "evtrace_lost_buffers") == 0) {
            bench_report("xray", "evtrace handler: buffers overwritten during the runs (flight recorder)", best, "buffers");
            continue;
        }
        char what[160];
        snprintf(what, sizeof what, "instrumented call (entry+exit), %s, best of 7", name);
        bench_report("xray", what, best, "ns/call");
        snprintf(what, sizeof what, "instrumented call (entry+exit), %s, median of 7", name);
        bench_report("xray", what, med, "ns/call");
        if (strcmp(name, "empty_handler") == 0) empty = best;
        if (strcmp(name, "evtrace") == 0) evt = best;
        if (strcmp(name, "compiler_rt_fdr") == 0) fdr = best;
    }
    fclose(p);
    int st = -1;
    if (waitpid(pid, &st, 0) < 0) st = -1;
    evt_out_remove_tree(dir);
    if (!got || st != 0) printf("bench: xray: helper %s/examples/xray/xray_bench_prog failed or missing (built only with clang)\n", exe);
    if (empty > 0 && evt > 0) bench_report("xray", "evtrace handler / empty handler", evt / empty, "x");
    if (evt > 0 && fdr > 0) bench_report("xray", "compiler-rt FDR / evtrace handler", fdr / evt, "x");
}

static void decode(const char *trace)
{
    double best = 0;
    uint64_t events = 0, size = 0;
    for (int r = 0; r < 3; r++) {
        evt_reader *rd = NULL;
        char err[256];
        if (evt_reader_open_file(trace, "xray", NULL, NULL, NULL, &rd, err, sizeof err) != EVT_OK) {
            printf("bench: xray: decode: %s\n", err);
            return;
        }
        uint64_t t0 = bench_now_ns();
        evt_event ev;
        events = 0;
        while (evt_reader_next(rd, &ev) == EVT_OK) events++;
        uint64_t t1 = bench_now_ns();
        size = rd->src.size;
        evt_reader_close(rd);
        double mbs = (double)size / 1e6 / ((double)(t1 - t0) / 1e9);
        if (mbs > best) best = mbs;
    }
    bench_report("xray", "reader decode (FDR v5, events pulled after open)", best, "MB/s");
    bench_report("xray", "reader decode: events in the file", (double)events, "events");
}

int main(void)
{
    uint64_t iters = bench_iters(2000000);
    static uint8_t mem[100 * 16384];
    static evt_xray_buf bufs[100];
    if (evt_xray_pool_init(&g_pool, mem, sizeof mem, bufs, 100, (uint32_t)getpid(), NULL) != 0) return 1;
    memset(mem, 0, sizeof mem);
    g_w.tid = (uint32_t)getpid();
    /* Each recording figure: 20 short rounds interleaved with the baseline, best of each (a round
     * slowed by another job on this shared machine slows both sides). */
    double base, core;
    bench_interleaved(core_pair, NULL, iters / 20u, 20, &base, &core);
    bench_report("xray", "baseline: read TSC + store 32 bytes", base, "ns");
    bench_report("xray", "recorder core: entry+exit records incl. 2 rdtsc, no trampoline", core, "ns/call");
    bench_report("xray", "recorder core pair / two baselines", core / (2 * base), "x");
    bench_report("xray", "core speed probe after these figures (bench_alu_probe_ns; bench_machine prints its fastest and spread)", bench_alu_probe_ns(), "ns");
    /* The explicit API and the cyg hooks through the runtime (per-thread buffers, flight rotation). */
    evt_xray_config cfg = {16384, 64, 1};
    if (evt_xray_start(&cfg) == 0) {
        double base_a, api;
        bench_interleaved(api_pair, NULL, iters / 20u, 20, &base_a, &api);
        bench_report("xray", "explicit API enter+exit, recording", api, "ns/call");
        bench_report("xray", "explicit API pair / two baselines", api / (2 * base_a), "x");
        /* The two-thread rows' call (one record per call) on one thread: what the second thread adds. */
        double base_1, one;
        bench_interleaved(api_one, NULL, iters / 20u, 20, &base_1, &one);
        bench_report("xray", "explicit API, one record per call / baseline", one / base_1, "x");
        /* 20 short interleaved rounds (baseline, subject), best of each: two threads on a shared
         * 2-core machine are at the mercy of every other job; a slowed round slows both sides. */
        double base2, t2;
        void *const args[2] = {NULL, NULL};
        double med = bench_2t_interleaved(api_one, args, iters / 10u, 20, &base2, &t2);
        bench_report("xray", "two-thread baseline (own rings)", base2, "ns/record per thread");
        bench_report("xray", "two threads, explicit API (per-thread buffers)", t2, "ns/record per thread");
        bench_report("xray", "two threads / two-thread baseline", t2 / base2, "x");
        bench_report("xray", "two threads / two-thread baseline, median of 20 rounds", med, "x");
        evt_xray_stop();
    }
    bench_report("xray", "explicit API enter+exit, stopped (inline gate, no clock read)", bench_ns_per_call(api_pair, NULL, iters, 5), "ns/call");
    bench_report("xray", "-finstrument-functions hooks enter+exit, stopped", bench_ns_per_call(cyg_pair, (void *)main, iters, 5), "ns/call");
    /* The same in a plain loop beside two empty out-of-line calls (the compiler's two calls per
     * instrumented function are the floor of any hook), interleaved rounds, best of each. */
    {
        double cyg = 1e30, empty = 1e30, harness_empty = 1e30;
        for (int k = 0; k < 3; k++) {
            double e = plain_pairs(0, iters), c = plain_pairs(1, iters);
            if (e < empty) empty = e;
            if (c < cyg) cyg = c;
            double h = bench_ns_per_call(empty_pair, (void *)main, iters / 10, 5);
            if (h < harness_empty) harness_empty = h;
        }
        bench_report("xray", "empty hook pair through the harness call (floor of the line above)", harness_empty, "ns/call");
        bench_report("xray", "cyg hooks stopped, plain loop: enter+exit", cyg, "ns/pair");
        bench_report("xray", "cyg hooks stopped, plain loop: per hook call", cyg / 2, "ns/call");
        bench_report("xray", "empty out-of-line hook pair, plain loop (floor)", empty, "ns/pair");
        bench_report("xray", "cyg hooks stopped / empty hook pair", cyg / empty, "x");
    }
    char trace[256];
    snprintf(trace, sizeof trace, "/tmp/evt-bench-xray-%d.xray", (int)getpid());
    run_helper(trace);
    if (access(trace, R_OK) == 0) {
        decode(trace);
        unlink(trace);
    }
    bench_report("xray", "peak RSS", (double)bench_peak_rss_kb(), "kB");
    return 0;
}
