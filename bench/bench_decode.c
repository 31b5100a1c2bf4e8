/* Decode throughput of every reader beside the physical floor, in one run: writes a TXTB, RKH, ETW
 * and XRay file with the recorders (EVT_BENCH_DECODE_EVENTS events each, default 10,000,000; a
 * mix of each format's record kinds), then per file times `evtrace info --json FILE` in a child
 * (wall and CPU seconds, peak RSS), a `cat`-style read() pass and a memchr pass over the same bytes
 * (the floor: the file is in the page cache after the first pass), and for XRay `llvm-xray
 * convert` on the same file (when installed). Prints events/s and MB/s of each and the ratios.
 * EVT_BENCH_DECODE_ROUNDS (default 3) rounds, median shown. EVT_BENCH_DECODE_KEEP=DIR writes the
 * files into DIR and keeps them (for callgrind), EVT_BENCH_DECODE_FORMATS="txtb rkh" picks some.
 * Files go to $TMPDIR and are removed. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench_util.h"
#include "evtrace/etw.h"
#include "evtrace/out.h"
#include "evtrace/rkh.h"
#include "evtrace/rkh_stream.h"
#include "evtrace/xray.h"

/* ---- generators ---------------------------------------------------------------------------- */

static int write_all(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t w = fwrite(p, 1, n, f);
    return (fclose(f) == 0 && w == n) ? 0 : -1;
}

static uint8_t *g_out;
static size_t g_outn, g_outcap;

static int grow(size_t need)
{
    if (g_outn + need <= g_outcap) return 0;
    size_t nc = g_outcap ? g_outcap : 1u << 20;
    while (nc < g_outn + need) nc *= 2;
    uint8_t *q = realloc(g_out, nc);
    if (!q) return -1;
    g_out = q;
    g_outcap = nc;
    return 0;
}

static void rkh_sink(void *user, const uint8_t *p, uint32_t n)
{
    (void)user;
    if (grow(n) != 0) return;
    memcpy(g_out + g_outn, p, n);
    g_outn += n;
}

static uint32_t g_ts;
static uint32_t rkh_ts(void) { return g_ts += 7; }

/* RKH: the template configuration streamed; symbols for 4 AOs and 4 states, then state changes
 * (SM_STATE), dispatches (SM_DCH: AO + signal), queue and user records in turn. */
static int gen_rkh(const char *path, uint64_t n)
{
    static evt_rkh_recorder r;
    static uint8_t ring[4096];
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    evt_rkh_init(&r, &c, ring, sizeof ring, rkh_ts, 1000000u);
    evt_rkh_filter_all(&r, 1);
    evt_rkh_set_sink(&r, rkh_sink, NULL);
    g_outn = 0;
    rkh_sink(NULL, (const uint8_t *)"\x7e", 1); /* a capture starts at a frame boundary (RKH_FLG) */
    static const char *const ao_names[4] = {"blinky", "server", "client", "logger"};
    for (uint32_t k = 0; k < 4; k++) {
        evt_rkh_sym_ao(&r, 0x20001000u + 0x100u * k, ao_names[k]);
        evt_rkh_sym_state(&r, 0x20001000u + 0x100u * k, 0x08001000u + k, "on");
    }
    evt_rkh_sym_sig(&r, 0, "TIMEOUT");
    evt_rkh_sym_sig(&r, 1, "PING");
    for (uint64_t i = 0; i < n; i++) {
        uint32_t k = (uint32_t)i & 3u, ao = 0x20001000u + 0x100u * k;
        switch ((i >> 2) & 3u) {
        case 0:
            if (evt_rkh_begin_ao(&r, 0x63, (int)k)) { evt_rkh_sym(&r, ao); evt_rkh_sym(&r, 0x08001000u + k); evt_rkh_end(&r); }
            break;
        case 1:
            if (evt_rkh_begin_ao_sig(&r, 0x83, (int)k, 1)) { evt_rkh_sym(&r, ao); evt_rkh_sig(&r, 1); evt_rkh_sym(&r, ao); evt_rkh_end(&r); }
            break;
        case 2:
            if (evt_rkh_begin(&r, 0xC0u /* RKH_TE_USER */)) { evt_rkh_usr_int(&r, EVT_RKH_USR_UI32, 0, (uint32_t)i); evt_rkh_end(&r); }
            break;
        default:
            if (evt_rkh_begin_ao(&r, 0x63, (int)k)) { evt_rkh_sym(&r, ao); evt_rkh_sym(&r, 0x08001000u + ((k + 1) & 3u)); evt_rkh_end(&r); }
            break;
        }
    }
    evt_rkh_flush(&r);
    return write_all(path, g_out, g_outn);
}

static int etw_sink(void *user, uint64_t off, const void *p, uint32_t n)
{
    (void)user;
    if (off + n > g_outcap) {
        size_t save = g_outn;
        g_outn = (size_t)off;
        if (grow(n) != 0) return -1;
        g_outn = save;
    }
    memcpy(g_out + off, p, n);
    if (off + n > g_outn) g_outn = (size_t)(off + n);
    return 0;
}

static const evt_etw_guid k_guid = {0x9b79ee91u, 0xb5fd, 0x41c0, {0xa2, 0x43, 0x42, 0x48, 0xe2, 0x66, 0xe9, 0xd0}};
static uint32_t g_tid;
static uint32_t etw_tid(void) { return g_tid; }

/* ETW: one session, 4 per-thread streams of 64 KiB buffers; TraceEvent with 2 MOF fields, 4 event
 * types in turn. */
static int gen_etw(const char *path, uint64_t n)
{
    static evt_etw_session s;
    static evt_etw_provider prov;
    static uint8_t mem[4 * 64 * 1024];
    evt_etw_session_config c;
    memset(&c, 0, sizeof c);
    c.buffer_size = 64 * 1024;
    c.buffers = 4;
    c.per_thread = 1;
    c.log_file_mode = ETW_FILE_MODE_SEQUENTIAL;
    c.write = etw_sink;
    c.thread_id = etw_tid;
    c.process_id = evt_etw_posix_process_id;
    c.filetime = evt_etw_posix_filetime;
    g_outn = 0;
    if (evt_etw_session_start(&s, &c, mem, sizeof mem) != 0) return -1;
    evt_etw_register(&prov, &k_guid, NULL, NULL);
    evt_etw_enable(&s, &prov, ETW_CONTROL_ENABLE_PROVIDER, ETW_LEVEL_INFORMATION, 0, 0);
    for (uint64_t i = 0; i < n; i++) {
        g_tid = 100u + (uint32_t)(i & 3u);
        uint32_t a = (uint32_t)i;
        uint64_t b = i * 3;
        evt_etw_mof_field mof[2] = {{&a, 4, 0}, {&b, 8, 0}};
        evt_etw_trace_header h;
        memset(&h, 0, sizeof h);
        h.size = 48 + 2 * 16;
        h.type = (uint8_t)(10u + ((i >> 2) & 3u));
        h.level = 4;
        h.guid = k_guid;
        h.flags = ETW_WNODE_FLAG_TRACED_GUID | ETW_WNODE_FLAG_USE_MOF_PTR;
        evt_etw_write(&prov, 0, &h, mof);
    }
    evt_etw_session_stop(&s);
    return write_all(path, g_out, g_outn);
}

/* XRay: the explicit API, 1024 functions entered and exited in nested pairs; one thread. */
static int gen_xray(const char *path, uint64_t n)
{
    evt_xray_config cfg = {16384, (uint32_t)(n * 16 / 16384 + 64), 1};
    if (evt_xray_start(&cfg) != 0) return -1;
    for (uint64_t i = 0; i < n / 4; i++) {
        uint32_t f = (uint32_t)(i & 1023u) + 1u;
        evt_xray_enter(f);
        evt_xray_enter(f + 1024u);
        evt_xray_exit(f + 1024u);
        evt_xray_exit(f);
    }
    evt_xray_stop();
    return evt_xray_write_file(path) == 0 ? 0 : -1;
}

/* ---- timing --------------------------------------------------------------------------------- */


static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}
#define MAXR 15
static uint64_t median(uint64_t *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_u64);
    return v[n / 2];
}

static void report_rate(const char *subj, const char *what, uint64_t events, uint64_t bytes, uint64_t ns)
{
    char s[160];
    snprintf(s, sizeof s, "%s: %s", subj, what);
    bench_report(s, "events/s", (double)events * 1e9 / (double)ns, "ev/s");
    bench_report(s, "MB/s", (double)bytes * 1e3 / (double)ns, "MB/s");
}

/* `evtrace info --json` reports the events it decoded; read them from a run with stdout kept. */
static uint64_t count_events(const char *bin, const char *path)
{
    int pfd[2];
    if (pipe(pfd) != 0) return 0;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(pfd[1], 1);
        close(pfd[0]);
        execl(bin, bin, "info", "--json", path, (char *)NULL);
        _exit(127);
    }
    close(pfd[1]);
    char buf[8192];
    size_t n = 0;
    ssize_t k;
    while (n < sizeof buf - 1 && (k = read(pfd[0], buf + n, sizeof buf - 1 - n)) > 0) n += (size_t)k;
    buf[n] = '\0';
    close(pfd[0]);
    waitpid(pid, NULL, 0);
    const char *e = strstr(buf, "\"events\":");
    return e ? strtoull(e + 9, NULL, 10) : 0;
}

int main(void)
{
    char bin[4096];
    ssize_t bn = readlink("/proc/self/exe", bin, sizeof bin - 32);
    if (bn <= 0) return 1;
    bin[bn] = '\0';
    strcpy(strrchr(bin, '/') + 1, "evtrace");
    if (access(bin, X_OK) != 0) { fprintf(stderr, "bench_decode: no evtrace beside it (%s)\n", bin); return 1; }
    const char *ev = getenv("EVT_BENCH_DECODE_EVENTS");
    uint64_t n = ev ? strtoull(ev, NULL, 10) : 10000000ull;
    const char *rv = getenv("EVT_BENCH_DECODE_ROUNDS");
    int rounds = rv ? atoi(rv) : 3;
    if (rounds < 1) rounds = 1;
    if (rounds > MAXR) rounds = MAXR;
    const char *keep = getenv("EVT_BENCH_DECODE_KEEP");
    const char *sel = getenv("EVT_BENCH_DECODE_FORMATS");
    char dir[4096];
    if (keep) snprintf(dir, sizeof dir, "%s", keep);
    else {
        snprintf(dir, sizeof dir, "%s/evtrace-bench-XXXXXX", bench_tmpdir());
        if (!mkdtemp(dir)) return 1;
    }
    static const struct { const char *name, *ext; int (*gen)(const char *, uint64_t); } k_fmt[] = {
        {"txtb", "trx", bench_write_txtb}, {"rkh", "rkh", gen_rkh}, {"etw", "etl", gen_etw}, {"xray", "xray", gen_xray},
    };
    int have_llvm_xray = access("/usr/bin/llvm-xray", X_OK) == 0;
    printf("bench_decode: %llu events written per format, %d rounds (median), `evtrace info --json`\n",
           (unsigned long long)n, rounds);
    int failed = 0;
    for (size_t f = 0; f < sizeof k_fmt / sizeof k_fmt[0]; f++) {
        if (sel && !strstr(sel, k_fmt[f].name)) continue;
        char path[4200];
        snprintf(path, sizeof path, "%s/trace.%s", dir, k_fmt[f].ext);
        /* written by a child: the memory the recorder needed is not in the children forked below
         * (a forked child's peak RSS counts the pages it shared with its parent) */
        pid_t gp = fork();
        if (gp == 0) _exit(k_fmt[f].gen(path, n) == 0 ? 0 : 1);
        int gst = 0;
        if (gp < 0 || waitpid(gp, &gst, 0) < 0 || !WIFEXITED(gst) || WEXITSTATUS(gst) != 0) {
            printf("bench: decode_%s: cannot write %s\n", k_fmt[f].name, path);
            failed = 1;
            continue;
        }
        struct stat st;
        if (stat(path, &st) != 0) { failed = 1; continue; }
        uint64_t bytes = (uint64_t)st.st_size, sink = 0;
        uint64_t events = count_events(bin, path); /* also brings the file into the page cache */
        int bad = 0;
        uint64_t w[MAXR], c[MAXR], cat[MAXR], mc[MAXR], lx[MAXR];
        double probe = 1e30; /* the core's speed right after each round's `info`, the fastest */
        long rss = 0;
        int lx_ok = have_llvm_xray && strcmp(k_fmt[f].name, "xray") == 0;
        for (int k = 0; k < rounds; k++) {
            cat[k] = bench_floor_ns(path, 0, &sink);
            mc[k] = bench_floor_ns(path, 1, &sink);
            char *argv[] = {bin, "info", "--json", path, NULL};
            long r = bench_run_child(argv, 1, &w[k], &c[k]);
            if (r < 0) { bad = 1; break; }
            if (r > rss) rss = r;
            double pr = bench_alu_probe_ns();
            if (pr < probe) probe = pr;
            if (lx_ok) {
                uint64_t lc = 0;
                char *la[] = {"/usr/bin/llvm-xray", "convert", "-f", "yaml", "-o", "/dev/null", path, NULL};
                if (bench_run_child(la, 1, &lx[k], &lc) < 0) lx_ok = 0;
            }
        }
        if (bad) { printf("bench: decode_%s: FAILED\n", k_fmt[f].name); failed = 1; continue; }
        char subj[64];
        snprintf(subj, sizeof subj, "decode_%s", k_fmt[f].name);
        printf("bench: %s: file %.1f MB, %llu events, %.1f bytes/event\n", subj, (double)bytes / 1e6,
               (unsigned long long)events, events ? (double)bytes / (double)events : 0.0);
        uint64_t mw = median(w, rounds), mcpu = median(c, rounds), mcat = median(cat, rounds), mmc = median(mc, rounds);
        report_rate(subj, "evtrace info (wall)", events, bytes, mw);
        report_rate(subj, "evtrace info (per CPU second)", events, bytes, mcpu);
        bench_report(subj, "evtrace info peak RSS", (double)rss / 1024.0, "MB");
        bench_report(subj, "core speed probe after the rounds, fastest (bench_alu_probe_ns; bench_machine prints its fastest)",
                     probe, "ns");
        report_rate(subj, "cat-style read() (floor)", events, bytes, mcat);
        report_rate(subj, "read() + memchr (floor)", events, bytes, mmc);
        bench_report(subj, "evtrace info time / read()+memchr time", (double)mw / (double)mmc, "x");
        if (lx_ok) {
            uint64_t ml = median(lx, rounds);
            report_rate(subj, "llvm-xray convert -f yaml (wall)", events, bytes, ml);
            bench_report(subj, "llvm-xray convert time / evtrace info time", (double)ml / (double)mw, "x");
        }
        if (!keep) unlink(path);
    }
    fflush(stdout);
    if (!keep && rmdir(dir) != 0) return 1;
    return failed;
}
