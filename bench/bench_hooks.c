/* Cost of the generic kernel hooks on the TXTB backend: ns per service-call enter+leave pair
 * recorded, through the μT-Kernel DS adapter's hook routines (what a kernel calls) and through the
 * EVT_HOOK_* macros directly; also filtered (INTERNAL bit off), disabled (trace off), and a
 * thread switch out+in pair; beside bench_baseline_ns ("read TSC + store 32 bytes"). The μT-Kernel
 * filtered and trace-off pairs are also shown beyond the DS interface's own cost (two empty hook
 * routines of the same signatures, called the same way). One thread. */
#include <stdint.h>
#include <stdio.h>
#include "bench_util.h"
#include "evtrace/hooks.h"
#include "formats/threadx/txtb_hooks.h"
#include "kernel/utk/utk_adapter.h"

static uint8_t g_buf[1u << 20];   /* wraps many times: the steady state of a flight recorder */

static void pair_adapter(void *arg, uint64_t i)
{
    (void)arg;
    TD_CALINF ci = {0, 0};
    void *x = evt_utk_svc_enter(UTK_TFN_tk_wai_sem, &ci, (uintptr_t)1, (uintptr_t)1, (uintptr_t)i);
    evt_utk_svc_leave(UTK_TFN_tk_wai_sem, E_OK, x);
}

static void pair_generic(void *arg, uint64_t i)
{
    (void)arg;
    uintptr_t a[3] = {1, 1, (uintptr_t)i};
    EVT_HOOK_SVC_ENTER(UTK_TFN_tk_wai_sem, 3, a);
    EVT_HOOK_SVC_LEAVE(UTK_TFN_tk_wai_sem, 0, 1);
}

/* The μT-Kernel DS hook interface's own cost: a kernel calls its hook routines through TD_HSVC's
 * pointers, whatever they do, so a pair of empty routines of the same signatures (variadic enter)
 * is the floor under the adapter's filtered pair. */
#if defined(__GNUC__)
#define BENCH_NOINLINE __attribute__((noinline))
#else
#define BENCH_NOINLINE
#endif
BENCH_NOINLINE static void *empty_svc_enter(FN fncd, TD_CALINF *calinf, ...)
{
    __asm__ __volatile__("" : : "r"(fncd), "r"(calinf) : "memory");
    return (void *)1;
}
BENCH_NOINLINE static void empty_svc_leave(FN fncd, INT ret, void *exinf)
{
    __asm__ __volatile__("" : : "r"(fncd), "r"(ret), "r"(exinf) : "memory");
}
static void pair_empty_ds(void *arg, uint64_t i)
{
    (void)arg;
    TD_CALINF ci = {0, 0};
    void *x = empty_svc_enter(UTK_TFN_tk_wai_sem, &ci, (uintptr_t)1, (uintptr_t)1, (uintptr_t)i);
    empty_svc_leave(UTK_TFN_tk_wai_sem, E_OK, x);
}

/* The timing harness alone (an indirect call per iteration): the floor under every figure. */
static void empty_call(void *arg, uint64_t i)
{
    (void)arg;
    __asm__ __volatile__("" : : "r"(i) : "memory");
}

static void switch_pair(void *arg, uint64_t i)
{
    (void)arg;
    EVT_HOOK_THREAD_OUT(2 + (i & 1), EVT_HOOK_STATE_WAITING, 4);
    EVT_HOOK_THREAD_IN(3 - (i & 1), 5);
}

/* Best of 20 short runs (the machine is shared). */
static double best(void (*fn)(void *, uint64_t), uint64_t iters)
{
    double b = 1e30;
    for (int k = 0; k < 20; k++) {
        double ns = bench_ns_per_call(fn, NULL, iters / 20 ? iters / 20 : 1, 1);
        if (ns < b) b = ns;
    }
    return b;
}

int main(void)
{
    uint64_t iters = bench_iters(4000000);
    double base = 1e30;
    for (int k = 0; k < 20; k++) {
        double ns = bench_baseline_ns(iters / 20);
        if (ns < base) base = ns;
    }
    bench_report("hooks", "baseline (TSC + 32-byte store)", base, "ns");
    bench_report("hooks", "timing harness alone (indirect call)", best(empty_call, iters), "ns");
    double ds = best(pair_empty_ds, iters);
    bench_report("hooks", "utk DS interface alone (empty enter+leave routines)", ds, "ns");
    if (evt_txtb_hooks_enable(g_buf, sizeof g_buf, 16, NULL, EVT_HOOK_KERNEL_UTKERNEL) != EVT_TX_SUCCESS) {
        fprintf(stderr, "bench_hooks: cannot enable TXTB\n");
        return 1;
    }
    EVT_HOOK_THREAD_IN(1, 5);
    double utk = best(pair_adapter, iters), gen = best(pair_generic, iters), sw = best(switch_pair, iters);
    bench_report("hooks", "utk svc enter+leave pair, recorded (2 records)", utk, "ns");
    bench_report("hooks", "utk pair / two baseline records", utk / (2 * base), "x");
    bench_report("hooks", "generic svc enter+leave pair, recorded (2 records)", gen, "ns");
    bench_report("hooks", "generic pair / two baseline records", gen / (2 * base), "x");
    bench_report("hooks", "thread switch out+in, recorded (2 records)", sw, "ns");
    bench_report("hooks", "switch pair / two baseline records", sw / (2 * base), "x");
    bench_report("hooks", "core speed probe after these figures (bench_alu_probe_ns; bench_machine prints its fastest and spread)", bench_alu_probe_ns(), "ns");
    evt_tx_trace_event_filter(EVT_TX_TRACE_INTERNAL_EVENTS);
    double uf = best(pair_adapter, iters);
    bench_report("hooks", "utk svc enter+leave pair, filtered", uf, "ns");
    bench_report("hooks", "utk filtered pair beyond the DS interface's own calls", uf - ds, "ns");
    bench_report("hooks", "generic svc enter+leave pair, filtered", best(pair_generic, iters), "ns");
    evt_tx_trace_event_unfilter(EVT_TX_TRACE_INTERNAL_EVENTS);
    evt_tx_trace_disable();
    double uo = best(pair_adapter, iters);
    bench_report("hooks", "utk svc enter+leave pair, trace off", uo, "ns");
    bench_report("hooks", "utk trace-off pair beyond the DS interface's own calls", uo - ds, "ns");
    bench_report("hooks", "generic svc enter+leave pair, trace off", best(pair_generic, iters), "ns");
    return 0;
}
