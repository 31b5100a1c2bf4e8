/* Exporter throughput and memory: converts two traces with `evtrace` into each exporter, plus
 * `stats` and `report`, each in its own child process: a synthetic one (the "synthetic" reader,
 * default 20,000,000 events, a size where start-up costs nothing; EVT_BENCH_EXPORT_EVENTS=N for
 * another, e.g. 50000000, 0 for none; lines "export_<kind>") and one the TXTB recorder wrote (bench_write_txtb,
 * default 10,000,000 events, EVT_BENCH_EXPORT_TXTB_EVENTS=N, 0 for none; lines
 * "export_txtb_<kind>"): real objects, waits and ISRs, where the timeline's work on kernel objects
 * shows (a take that scanned the taker's own gives cost `stats` 17x on it until 3 Dec 2026, and the
 * synthetic trace, which has no such objects, never showed it). Prints events/s, peak
 * RSS of that child (wait4 rusage) and output size. EVT_BENCH_EXPORTERS="perfetto sqlite" picks
 * a subset. Besides the wall-clock rate it prints the rate per CPU second of the child (user +
 * system), which a loaded machine does not distort, and per user CPU second (the kernel's part of
 * writing the output moves with the pages it hands out: compare builds by this one).
 * EVT_BENCH_EXPORT_BASELINE=/path/to/evtrace
 * (e.g. a build of an earlier commit) runs each kind with that binary too, right after, and prints
 * it as "<kind>_baseline": the previous code path measured in the same run. For CTF it also
 * prints the output's bytes per event (metadata and packet headers included), and times
 * `babeltrace2 -o dummy` reading that output (decode only) in the same run. Every output is also
 * read once with read() + memchr (the physical floor of a pass over those bytes) and the ratio
 * printed, and as many bytes are written and fsynced beside it (the write floor: the disk's
 * limit on an export of that size). Outputs go to $TMPDIR and are removed. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench_util.h"
#include "evtrace/out.h"

/* Apparent size in bytes of a file or a directory tree (sum of st_size, as `du -sb` counts),
 * without following symbolic links. */
static uint64_t du_bytes(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return 0;
    if (!S_ISDIR(st.st_mode)) return (uint64_t)st.st_size;
    uint64_t sum = 0;
    DIR *d = opendir(path);
    if (!d) return 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char sub[4600];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        sum += du_bytes(sub);
    }
    closedir(d);
    return sum;
}


/* What every run shares: this build's evtrace, the baseline binary (or NULL), the kinds picked
 * (EVT_BENCH_EXPORTERS, or NULL for all), the scratch directory. */
typedef struct bench_ctx {
    char *bin;
    char *base;
    const char *sel;
    const char *dir;
} bench_ctx;

static const char *const k_kinds[] = {"chrome", "perfetto", "ctf", "sqlite", "stats", "report"};

/* Each kind on the trace at path (events events), lines "export_<prefix><kind>". */
static void run_source(const bench_ctx *bc, const char *prefix, const char *path, unsigned long long events)
{
    char *base = bc->base, *trace = (char *)path; /* (argv strings) */
    for (size_t run = 0; run < 2 * (sizeof k_kinds / sizeof k_kinds[0]); run++) {
        size_t i = run / 2;
        int baseline = (int)(run % 2); /* each kind: this build, then the baseline binary if given */
        if (baseline && !base) continue;
        if (bc->sel && !strstr(bc->sel, k_kinds[i])) continue;
        char out[4300], subject[64];
        snprintf(out, sizeof out, "%s/out.%s", bc->dir, k_kinds[i]);
        char *args[10];
        int k = 0;
        args[k++] = baseline ? base : bc->bin;
        if (strcmp(k_kinds[i], "stats") == 0) { args[k++] = "stats"; args[k++] = "--json"; args[k++] = trace; }
        else if (strcmp(k_kinds[i], "report") == 0) {
            args[k++] = "report"; args[k++] = "-q"; args[k++] = trace; args[k++] = "-o"; args[k++] = out;
        } else {
            args[k++] = "convert"; args[k++] = "-q"; args[k++] = trace; args[k++] = "-o"; args[k++] = out;
            args[k++] = "--to"; args[k++] = (char *)k_kinds[i];
        }
        args[k] = NULL;
        uint64_t ns = 0, cpu_ns = 0, user_ns = 0;
        int saved = dup(1);
        if (strcmp(k_kinds[i], "stats") == 0) { FILE *nul = freopen("/dev/null", "w", stdout); (void)nul; }
        long rss = bench_run_child_user(args, 0, &ns, &cpu_ns, &user_ns);
        if (strcmp(k_kinds[i], "stats") == 0) { fflush(stdout); dup2(saved, 1); }
        close(saved);
        snprintf(subject, sizeof subject, "export_%s%s%s", prefix, k_kinds[i], baseline ? "_baseline" : "");
        if (rss < 0) { printf("bench: %s: FAILED\n", subject); continue; }
        bench_report(subject, "events/s", (double)events * 1e9 / (double)ns, "ev/s");
        if (cpu_ns) bench_report(subject, "events/s per CPU s", (double)events * 1e9 / (double)cpu_ns, "ev/s");
        /* user time alone: the kernel's part (the copy into the page cache, the write-back) moves
         * with the pages it hands out (on a VM, memory the guest never touched costs several times
         * more), so this is the figure to compare between two builds of one run */
        if (user_ns) bench_report(subject, "events/s per user CPU s", (double)events * 1e9 / (double)user_ns, "ev/s");
        bench_report(subject, "peak RSS", (double)rss / 1024.0, "MB");
        bench_report(subject, "core speed probe after the run (bench_alu_probe_ns; bench_machine prints its fastest)",
                     bench_alu_probe_ns(), "ns");
        uint64_t bytes = du_bytes(out);
        bench_report(subject, "output", (double)bytes / 1e6, "MB");
        if (bytes) {
            bench_report(subject, "output MB/s", (double)bytes * 1e3 / (double)ns, "MB/s");
            /* the floor: a read() + memchr pass over the bytes written, in the same run (the
             * files are in the page cache) */
            uint64_t fb = 0, fns = bench_floor_ns(out, 1, &fb);
            if (fns) {
                bench_report(subject, "read()+memchr over the output (floor)", (double)fb * 1e3 / (double)fns, "MB/s");
                bench_report(subject, "export time / floor time", (double)ns / (double)fns, "x");
            }
            /* the write floor: as many bytes written and fsynced beside it (the output's own
             * last step), same run: what the disk allows, which no exporter can beat */
            char wpath[4400];
            snprintf(wpath, sizeof wpath, "%s/write-floor", bc->dir);
            uint64_t wns = bench_write_floor_ns(wpath, bytes);
            if (wns) {
                bench_report(subject, "write()+fsync of as many bytes (write floor)", (double)bytes * 1e3 / (double)wns, "MB/s");
                bench_report(subject, "events/s at the write floor", (double)events * 1e9 / (double)wns, "ev/s");
                bench_report(subject, "export time / write floor time", (double)ns / (double)wns, "x");
            }
        }
        char ctf_subj[64];
        snprintf(ctf_subj, sizeof ctf_subj, "export_%sctf", prefix);
        /* CTF: babeltrace2 reading the same output (the dummy sink: decode only, no text), same run */
        if (strcmp(k_kinds[i], "ctf") == 0 && !baseline && access("/usr/bin/babeltrace2", X_OK) == 0) {
            char *bt[] = {"/usr/bin/babeltrace2", "-o", "dummy", out, NULL};
            uint64_t bns = 0, bcpu = 0;
            int saved2 = dup(1);
            FILE *nul = freopen("/dev/null", "w", stdout);
            (void)nul;
            long brss = bench_run_child(bt, 0, &bns, &bcpu);
            fflush(stdout);
            dup2(saved2, 1);
            close(saved2);
            if (brss < 0) printf("bench: %s: babeltrace2 -o dummy: FAILED\n", ctf_subj);
            else {
                bench_report(ctf_subj, "babeltrace2 -o dummy on the output: events/s", (double)events * 1e9 / (double)bns, "ev/s");
                bench_report(ctf_subj, "babeltrace2 -o dummy on the output: MB/s", (double)bytes * 1e3 / (double)bns, "MB/s");
                bench_report(ctf_subj, "babeltrace2 -o dummy on the output: peak RSS", (double)brss / 1024.0, "MB");
                bench_report(ctf_subj, "babeltrace2 read time / evtrace convert time", (double)bns / (double)ns, "x");
            }
        }
        /* CTF: bytes per event (issue 11 item 7 bounds it at 32 for the common records) */
        if (strcmp(k_kinds[i], "ctf") == 0) bench_report(subject, "bytes/event", (double)bytes / (double)events, "B");
        if (evt_out_remove_tree(out) != 0 && errno != ENOENT) fprintf(stderr, "cannot remove %s\n", out); /* stats: none */
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    char bin[4096];
    ssize_t n = readlink("/proc/self/exe", bin, sizeof bin - 32);
    if (n <= 0) return 1;
    bin[n] = '\0';
    char *slash = strrchr(bin, '/');
    strcpy(slash + 1, "evtrace");
    if (access(bin, X_OK) != 0) { fprintf(stderr, "%s: no evtrace beside it (%s)\n", argv[0], bin); return 1; }
    const char *ev = getenv("EVT_BENCH_EXPORT_EVENTS");
    unsigned long long events = ev ? strtoull(ev, NULL, 10) : 20000000ull;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/evtrace-bench-XXXXXX", bench_tmpdir());
    if (!mkdtemp(dir)) return 1;
    char spec[4200];
    snprintf(spec, sizeof spec, "%s/trace.syn", dir);
    if (bench_write_synthetic(spec, events) != 0) return 1;
    const char *sel = getenv("EVT_BENCH_EXPORTERS");
    const char *base = getenv("EVT_BENCH_EXPORT_BASELINE");
    if (base && access(base, X_OK) != 0) { fprintf(stderr, "%s: baseline %s is not executable\n", argv[0], base); return 1; }
    bench_ctx bc = {bin, (char *)base, sel, dir};
    if (events) {
        printf("bench_export: %llu synthetic events per run\n", events);
        run_source(&bc, "", spec, events);
    }
    /* the recorded TXTB trace, written by a child (the recorder's buffer stays out of this process) */
    const char *tv = getenv("EVT_BENCH_EXPORT_TXTB_EVENTS");
    unsigned long long tx_events = tv ? strtoull(tv, NULL, 10) : 10000000ull;
    if (tx_events) {
        char trx[4200];
        snprintf(trx, sizeof trx, "%s/trace.trx", dir);
        pid_t gp = fork();
        if (gp == 0) _exit(bench_write_txtb(trx, tx_events) == 0 ? 0 : 1);
        int gst = 0;
        if (gp < 0 || waitpid(gp, &gst, 0) < 0 || !WIFEXITED(gst) || WEXITSTATUS(gst) != 0) {
            printf("bench: export_txtb: cannot write %s\n", trx);
        } else {
            printf("bench_export: a TXTB trace of %llu recorded events per run\n", tx_events);
            run_source(&bc, "txtb_", trx, tx_events);
        }
        (void)unlink(trx);
    }
    fflush(stdout);
    return evt_out_remove_tree(dir) == 0 ? 0 : 1;
}
