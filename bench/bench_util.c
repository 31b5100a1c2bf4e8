/* Implementation of the benchmark helpers. */
#define _DEFAULT_SOURCE
#include "bench_util.h"
#include "evtrace/txtb.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

uint64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

const char *bench_tmpdir(void)
{
    const char *d = getenv("TMPDIR");
    return d && *d ? d : "/tmp";
}

uint64_t bench_iters(uint64_t dflt)
{
    const char *e = getenv("EVT_BENCH_ITERS");
    return e ? strtoull(e, NULL, 10) : dflt;
}

double bench_ns_per_call(void (*fn)(void *arg, uint64_t i), void *arg, uint64_t iters, int reps)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        uint64_t t0 = bench_now_ns();
        for (uint64_t i = 0; i < iters; i++) fn(arg, i);
        uint64_t t1 = bench_now_ns();
        double ns = (double)(t1 - t0) / (double)iters;
        if (ns < best) best = ns;
    }
    return best;
}

/* 1024 slots of 32 bytes, as a small TXTB-like ring. */
static volatile uint32_t g_ring[1024][8];

static void baseline_one(void *arg, uint64_t i)
{
    (void)arg;
    uint32_t t = (uint32_t)bench_read_tsc();
    volatile uint32_t *s = g_ring[i & 1023];
    s[0] = 1; s[1] = 2; s[2] = (uint32_t)i; s[3] = t; s[4] = 5; s[5] = 6; s[6] = 7; s[7] = 8;
}

double bench_baseline_ns(uint64_t iters)
{
    return bench_ns_per_call(baseline_one, NULL, iters, 5);
}

double bench_best_of(void (*fn)(void *arg, uint64_t i), void *arg, uint64_t iters)
{
    double best = 1e30;
    uint64_t chunk = iters / 40 ? iters / 40 : 1;
    for (int k = 0; k < 40; k++) {
        double ns = fn ? bench_ns_per_call(fn, arg, chunk, 1) : bench_baseline_ns(chunk);
        if (ns < best) best = ns;
    }
    return best;
}

/* ---- two threads ---------------------------------------------------------------------------- */

typedef struct two_job {
    void (*fn)(void *arg, uint64_t i);
    void *arg;
    uint64_t iters;
    pthread_barrier_t *start;
    double ns;
} two_job;

static void *two_main(void *p)
{
    two_job *j = p;
    pthread_barrier_wait(j->start);
    uint64_t t0 = bench_now_ns();
    for (uint64_t i = 0; i < j->iters; i++) j->fn(j->arg, i);
    j->ns = (double)(bench_now_ns() - t0) / (double)j->iters;
    return NULL;
}

/* The second thread is created once and kept, like an application's threads: each thread
 * records into its recorder for its whole life, so what a recorder sets up once per thread (a
 * biased lock, a thread-owned slot) is set up once here too, not once per round. */
static pthread_t g_worker;
static int g_worker_up;
static pthread_barrier_t g_go, g_done;
static two_job *g_worker_job;

static void *worker_main(void *p)
{
    (void)p;
    for (;;) {
        pthread_barrier_wait(&g_go);
        two_main(g_worker_job);
        pthread_barrier_wait(&g_done);
    }
    return NULL;
}

double bench_2t_ns_per_call(void (*fn)(void *arg, uint64_t i), void *const args[2], uint64_t iters, int reps)
{
    if (!g_worker_up) {
        pthread_barrier_init(&g_go, NULL, 2);
        pthread_barrier_init(&g_done, NULL, 2);
        if (pthread_create(&g_worker, NULL, worker_main, NULL) != 0) return -1;
        pthread_detach(g_worker);
        g_worker_up = 1;
    }
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        pthread_barrier_t b;
        pthread_barrier_init(&b, NULL, 2);
        two_job j[2] = {{fn, args[0], iters, &b, 0}, {fn, args[1], iters, &b, 0}};
        g_worker_job = &j[1];
        pthread_barrier_wait(&g_go);
        two_main(&j[0]);
        pthread_barrier_wait(&g_done);
        pthread_barrier_destroy(&b);
        double ns = j[0].ns > j[1].ns ? j[0].ns : j[1].ns;
        if (ns < best) best = ns;
    }
    return best;
}

/* Each thread's own ring, on its own cache lines. */
static volatile uint32_t g_ring2[2][1024][8] __attribute__((aligned(64)));

static void baseline_own(void *arg, uint64_t i)
{
    volatile uint32_t(*ring)[8] = arg;
    uint32_t t = (uint32_t)bench_read_tsc();
    volatile uint32_t *s = ring[i & 1023];
    s[0] = 1; s[1] = 2; s[2] = (uint32_t)i; s[3] = t; s[4] = 5; s[5] = 6; s[6] = 7; s[7] = 8;
}

double bench_baseline_2t_ns(uint64_t iters, int reps)
{
    void *const args[2] = {(void *)g_ring2[0], (void *)g_ring2[1]};
    return bench_2t_ns_per_call(baseline_own, args, iters, reps);
}

void bench_alu_work(void *arg, uint64_t i)
{
    bench_alu_lanes *a = arg;
    uint64_t x[8];
    for (int k = 0; k < 8; k++) x[k] = a->x[k];
    for (int n = 0; n < 4; n++)
        for (int k = 0; k < 8; k++) {
            x[k] ^= x[k] << 13;
            x[k] += i;
            __asm__ __volatile__("" : "+r"(x[k])); /* kept as written */
        }
    for (int k = 0; k < 8; k++) a->x[k] = x[k];
}

double bench_alu_probe_ns(void)
{
    static bench_alu_lanes lanes = {{1, 2, 3, 4, 5, 6, 7, 8}};
    return bench_ns_per_call(bench_alu_work, &lanes, 20000, 5);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

void bench_interleaved(void (*fn)(void *arg, uint64_t i), void *arg, uint64_t iters, int rounds, double *base,
                       double *subj)
{
    *base = *subj = 1e30;
    for (int k = 0; k < rounds; k++) {
        double b = bench_ns_per_call(baseline_one, NULL, iters, 1), s = bench_ns_per_call(fn, arg, iters, 1);
        if (b < *base) *base = b;
        if (s < *subj) *subj = s;
    }
}

double bench_2t_interleaved(void (*fn)(void *arg, uint64_t i), void *const args[2], uint64_t iters, int rounds,
                            double *base, double *subj)
{
    double ratio[64];
    if (rounds > 64) rounds = 64;
    if (rounds < 1) rounds = 1;
    *base = *subj = 1e30;
    for (int k = 0; k < rounds; k++) {
        double b = bench_baseline_2t_ns(iters, 1), s = bench_2t_ns_per_call(fn, args, iters, 1);
        if (b < *base) *base = b;
        if (s < *subj) *subj = s;
        ratio[k] = s / b;
    }
    qsort(ratio, (size_t)rounds, sizeof ratio[0], cmp_double);
    return ratio[rounds / 2];
}

void bench_report(const char *subject, const char *what, double value, const char *unit)
{
    printf("bench: %s: %s: %.2f %s\n", subject, what, value, unit);
    fflush(stdout);
}

long bench_peak_rss_kb(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
}

static uint64_t floor_file_(const char *path, int scan, uint64_t *bytes, uint64_t *hits)
{
    static char buf[1 << 20];
    int fd = open(path, O_RDONLY);
    if (fd < 0) return 0;
    ssize_t k;
    while ((k = read(fd, buf, sizeof buf)) > 0) {
        if (scan) {
            const char *p = buf, *e = buf + k;
            while ((p = memchr(p, 0x5A, (size_t)(e - p))) != NULL) { (*hits)++; p++; }
        }
        *bytes += (uint64_t)k;
    }
    close(fd);
    return 1;
}

uint64_t bench_floor_ns(const char *path, int memchr_scan, uint64_t *bytes)
{
    static volatile uint64_t sink;
    uint64_t hits = 0;
    *bytes = 0;
    uint64_t t0 = bench_now_ns();
    struct stat st;
    if (stat(path, &st) != 0) return 0;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (!d) return 0;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            char sub[4600];
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            if (stat(sub, &st) == 0 && S_ISREG(st.st_mode)) floor_file_(sub, memchr_scan, bytes, &hits);
        }
        closedir(d);
    } else if (!floor_file_(path, memchr_scan, bytes, &hits)) {
        return 0;
    }
    sink = sink + hits; /* a read too: the scan must not be optimised away */
    return bench_now_ns() - t0;
}

uint64_t bench_write_floor_ns(const char *path, uint64_t bytes)
{
    static char chunk[1u << 20];
    memset(chunk, 'x', sizeof chunk); /* pages of its own, not the shared zero page */
    uint64_t t0 = bench_now_ns();
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return 0;
    int ok = 1;
    for (uint64_t left = bytes; ok && left;) {
        size_t n = left < sizeof chunk ? (size_t)left : sizeof chunk;
        ssize_t w = write(fd, chunk, n);
        if (w <= 0) ok = 0;
        else left -= (uint64_t)w;
    }
    if (fsync(fd) != 0) ok = 0;
    if (close(fd) != 0) ok = 0;
    uint64_t ns = bench_now_ns() - t0;
    unlink(path);
    return ok ? ns : 0;
}

long bench_run_child(char *const argv[], int quiet, uint64_t *ns, uint64_t *cpu_ns)
{
    return bench_run_child_user(argv, quiet, ns, cpu_ns, NULL);
}

long bench_run_child_user(char *const argv[], int quiet, uint64_t *ns, uint64_t *cpu_ns, uint64_t *user_ns)
{
    uint64_t t0 = bench_now_ns();
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        if (quiet) {
            int fd = open("/dev/null", O_WRONLY);
            if (fd >= 0) { dup2(fd, 1); dup2(fd, 2); }
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) return -1;
    *ns = bench_now_ns() - t0;
    *cpu_ns = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000u +
              (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000u;
    if (user_ns) *user_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000u + (uint64_t)ru.ru_utime.tv_usec * 1000u;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    return ru.ru_maxrss;
}

int bench_write_txtb(const char *path, uint64_t n)
{
    size_t size = (size_t)(n + 64) * 32u + 65536u;
    uint8_t *buf = malloc(size);
    if (!buf || evt_tx_trace_enable(buf, (uint32_t)size, 32) != EVT_TX_SUCCESS) { free(buf); return -1; }
    static char th[8], q, sem, mtx;
    static const char *const names[8] = {"main", "rx", "tx", "ui", "log", "net", "idle", "timer"};
    for (int i = 0; i < 8; i++) evt_tx_trace_thread_register(&th[i], names[i], 0x20000000u + 0x400u * (uint32_t)i, 1024, 4 + (uint32_t)i);
    evt_tx_trace_object_register(3, &q, "queue", 16, 4);
    evt_tx_trace_object_register(4, &sem, "sem", 1, 0);
    evt_tx_trace_object_register(5, &mtx, "mutex", 0, 0);
    for (uint64_t i = 0; i < n; i++) {
        uint32_t t = (uint32_t)(i >> 3) & 7u, a = (uint32_t)i;
        switch (i & 7u) {
        case 0: evt_tx_trace_kernel_event(2, evt_tx_addr(&th[t]), 4, a, evt_tx_addr(&th[(t + 1) & 7u])); break;
        case 1: evt_tx_trace_kernel_event(1, evt_tx_addr(&th[(t + 1) & 7u]), 3, a, 0); break;
        case 2: evt_tx_trace_kernel_event(69, evt_tx_addr(&q), a, 0, 3); break;       /* QUEUE_SEND */
        case 3: evt_tx_trace_kernel_event(68, evt_tx_addr(&q), a, 0, 2); break;       /* QUEUE_RECEIVE */
        case 4: evt_tx_trace_kernel_event(83, evt_tx_addr(&sem), 0, 0, 0); break;     /* SEMAPHORE_GET */
        case 5: evt_tx_trace_kernel_event(88, evt_tx_addr(&sem), 0, 0, 0); break;     /* SEMAPHORE_PUT */
        case 6:
            if (t & 1u) evt_tx_trace_isr_enter_insert(7);
            else (void)evt_tx_trace_user_event_insert(4096u + (a & 15u), a, 2, 3, 4);
            break;
        default:
            if (t & 1u) evt_tx_trace_isr_exit_insert(7);
            else (void)evt_tx_trace_user_event_insert(4100u, a, 5, 6, 7);
            break;
        }
    }
    evt_tx_trace_disable();
    FILE *f = fopen(path, "wb");
    size_t w = f ? fwrite(buf, 1, size, f) : 0;
    int rc = (f && fclose(f) == 0 && w == size) ? 0 : -1;
    free(buf);
    return rc;
}

int bench_write_synthetic(const char *path, unsigned long long events)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    int w = fprintf(f, "evtrace-synthetic 1\nevents %llu\nthreads 8\nhz 100000000\nlost_every 1000000\n", events);
    return (fclose(f) == 0 && w > 0) ? 0 : -1;
}
