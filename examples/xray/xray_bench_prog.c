/* XRay cost per instrumented call (one entry + one exit event), all configurations in one process:
 * sleds not patched, patched with an empty handler, patched with evtrace's handler (flight
 * recorder: buffers rotate), and compiler-rt's FDR mode (threshold 0, so every call is kept).
 * Built with clang -fxray-instrument by examples/xray/CMakeLists.txt; run by bench/bench_xray.
 * Prints "<config> <best ns> <median ns>" lines. Usage: xray_bench_prog [ITERS]. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "evtrace/xray.h"

/* compiler-rt XRay runtime (C++ headers; declared here). */
int __xray_set_handler(void (*)(int32_t, int));
int __xray_remove_handler(void);
int __xray_patch(void);
int __xray_unpatch(void);
int __xray_log_init_mode(const char *mode, const char *config);
int __xray_log_finalize(void);
int __xray_log_flushLog(void);

#define REPS 7

__attribute__((xray_always_instrument, noinline)) static int target(int x)
{
    __asm__ volatile("" : "+r"(x));
    return x;
}

__attribute__((xray_never_instrument)) static void empty_handler(int32_t id, int type)
{
    (void)id;
    (void)type;
}

__attribute__((xray_never_instrument)) static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

__attribute__((xray_never_instrument)) static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

__attribute__((xray_never_instrument)) static void measure(const char *name, uint64_t iters)
{
    double v[REPS];
    for (int r = 0; r < REPS; r++) {
        uint64_t t0 = now_ns();
        int acc = 0;
        for (uint64_t i = 0; i < iters; i++) acc += target((int)i);
        uint64_t t1 = now_ns();
        __asm__ volatile("" : : "r"(acc));
        v[r] = (double)(t1 - t0) / (double)iters;
    }
    qsort(v, REPS, sizeof v[0], cmp_d);
    printf("%s %.2f %.2f\n", name, v[0], v[REPS / 2]);
    fflush(stdout);
}

__attribute__((xray_never_instrument)) int main(int argc, char **argv)
{
    uint64_t iters = argc > 1 ? strtoull(argv[1], NULL, 10) : 2000000;
    __xray_unpatch();
    measure("unpatched", iters);
    if (__xray_set_handler(empty_handler) != 1 || __xray_patch() != 1) { fprintf(stderr, "xray patch failed\n"); return 1; }
    measure("empty_handler", iters);
    __xray_remove_handler();
    if (evt_xray_start(NULL) != 0) { fprintf(stderr, "evt_xray_start failed\n"); return 1; }
    measure("evtrace", iters);
    evt_xray_stop();
    printf("evtrace_lost_buffers %llu 0\n", (unsigned long long)evt_xray_buffers_lost());
    const char *out = getenv("EVT_XRAY_BENCH_FILE");
    if (out && evt_xray_write_file(out) != 0) fprintf(stderr, "writing %s failed\n", out);
    int st = __xray_log_init_mode("xray-fdr", "func_duration_threshold_us=0");
    if (st != 2) {
        fprintf(stderr, "init_mode: %d\n", st);
        fprintf(stderr, "compiler-rt FDR mode unavailable\n");
        return 0;
    }
    __xray_patch();
    measure("compiler_rt_fdr", iters);
    __xray_log_finalize();
    return 0;
}
