/* Shared helpers of the benchmark programs: a cycle/ns clock, a timing loop, the common
 * "read the timestamp counter + store 32 bytes" baseline, one output line format, and the recorded
 * TXTB trace bench_decode and bench_export read. */
#ifndef EVT_BENCH_UTIL_H
#define EVT_BENCH_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Monotonic nanoseconds. */
uint64_t bench_now_ns(void);
/* Iterations from $EVT_BENCH_ITERS or the default. */
uint64_t bench_iters(uint64_t dflt);
/* The directory benchmarks write their files in: $TMPDIR, or /tmp when it is unset or empty. */
const char *bench_tmpdir(void);
/* Time fn(arg, i) for i in [0, iters): best ns per call over `reps` repetitions. */
double bench_ns_per_call(void (*fn)(void *arg, uint64_t i), void *arg, uint64_t iters, int reps);
/* The baseline: read the CPU timestamp counter and store 32 bytes into a ring slot. */
double bench_baseline_ns(uint64_t iters);
/* Best of 40 short runs of fn(arg, i) (iters calls in all; fn NULL: the baseline), ns per call:
 * robust against other processes sharing the CPUs. */
double bench_best_of(void (*fn)(void *arg, uint64_t i), void *arg, uint64_t iters);
/* The CPU timestamp counter (rdtsc on x86; monotonic ns elsewhere): what the baseline reads. */
static inline uint64_t bench_read_tsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
#else
    return bench_now_ns();
#endif
}

/* The two-thread baseline: two threads, each reading the timestamp counter and storing 32 bytes
 * into its own ring (own cache lines); per-thread ns per record, best of `reps` runs. */
double bench_baseline_2t_ns(uint64_t iters, int reps);
/* Run fn(arg_k, i) for i in [0, iters) on two threads at once (arg_k = args[k]); per-thread ns per
 * call (the slower thread), best of `reps` runs. */
double bench_2t_ns_per_call(void (*fn)(void *arg, uint64_t i), void *const args[2], uint64_t iters, int reps);
/* One-thread figure against bench_baseline_ns the same way: `rounds` rounds of (baseline,
 * fn) with `iters` calls each, best of each side (*base, *subj: ns per call). */
void bench_interleaved(void (*fn)(void *arg, uint64_t i), void *arg, uint64_t iters, int rounds, double *base,
                       double *subj);
/* Two-thread figure against the two-thread baseline, stable on a shared machine: `rounds` short
 * rounds, each timing the baseline and then fn (bench_baseline_2t_ns / bench_2t_ns_per_call, one
 * run of `iters` calls each), taken in turn so that a round slowed by another job slows both.
 * Gives the best of each side (*base, *subj: per-thread ns) and the median of the per-round
 * ratios (returned). */
double bench_2t_interleaved(void (*fn)(void *arg, uint64_t i), void *const args[2], uint64_t iters, int rounds,
                            double *base, double *subj);
/* Execution-bound work (the kind a record is): eight independent lanes of shifts, xors and adds,
 * no memory beyond the caller's lanes (arg: a bench_alu_lanes, one per thread). */
typedef struct bench_alu_lanes {
    _Alignas(128) uint64_t x[8];
} bench_alu_lanes;
void bench_alu_work(void *arg, uint64_t i);
/* How fast the core runs right now: bench_alu_work's ns per call, best of 5 runs of 20,000 calls
 * (~0.7 ms). A host that slows this vCPU in phases (frequency, or another guest on the same core)
 * raises it, while the rdtsc-bound baseline does not move: every recorder's ratio then rises by
 * its own work's share. The benchmarks print it beside their ratios, bench_machine its spread. */
double bench_alu_probe_ns(void);
/* Print "bench: <subject>: <what>: <value> <unit>" (one parseable line). */
void bench_report(const char *subject, const char *what, double value, const char *unit);
/* The physical floor of a pass over a file (or every file of a directory, one level): read() in
 * 1 MiB chunks as `cat` does, and with memchr_scan also memchr over every byte read. Returns the
 * ns it took (0 on error); *bytes receives the bytes read. */
uint64_t bench_floor_ns(const char *path, int memchr_scan, uint64_t *bytes);
/* The physical floor of writing an output: write() `bytes` bytes in 1 MiB chunks into a new file
 * at path, fsync it (as evtrace's -o does before its rename), and remove it. Returns the ns it
 * took, or 0 on error. */
uint64_t bench_write_floor_ns(const char *path, uint64_t bytes);
/* Run argv (a path, or a name looked up in PATH) in a child, its stdout and stderr to /dev/null
 * when quiet; returns its peak RSS in kB, or -1 when it could not run or did not exit 0; wall ns
 * in *ns, user + system CPU ns in *cpu_ns. */
long bench_run_child(char *const argv[], int quiet, uint64_t *ns, uint64_t *cpu_ns);
/* The same, and the child's user CPU ns alone in *user_ns (NULL: not wanted). */
long bench_run_child_user(char *const argv[], int quiet, uint64_t *ns, uint64_t *cpu_ns, uint64_t *user_ns);
/* Peak resident set size of this process in kB (from getrusage). */
long bench_peak_rss_kb(void);

/* Record n events with the TXTB recorder (evt_tx_*: its global state; call it in a child process)
 * and write the buffer to path: 8 registered threads and a queue, semaphore and mutex; per 8 events
 * a switch pair (THREAD_SUSPEND, THREAD_RESUME), queue send and receive, semaphore get and put (each
 * thread gives and takes the semaphore itself, as a lock), an ISR pair in every other group, user
 * events otherwise. 0, or -1 on failure. */
int bench_write_txtb(const char *path, uint64_t n);

/* Write the spec of a synthetic trace of `events` events (the "synthetic" reader: 8 threads, 100
 * MHz, a loss every million) to path. 0, or -1 on failure. */
int bench_write_synthetic(const char *path, unsigned long long events);

#endif
