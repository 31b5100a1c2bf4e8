/* μT-Kernel demo: runs the scripted scenario (examples/utk_kernel/utk_scenario.c) on evtrace's host
 * μT-Kernel with the DS hooks attached, records it in a TXTB buffer through the generic hooks, and
 * writes the buffer to OUT.trx. With ACCT.json it also writes the kernel's own accounting of the
 * run (what `evtrace stats` must find in the trace; tests/kernel/utk/check_utk_demo.py).
 * Usage: utk_demo OUT.trx [ACCT.json] */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "evtrace/hooks_backends.h"
#include "formats/threadx/txtb_hooks_dec.h"
#include "utk_kernel.h"
#include "utk_scenario.h"

#define REGISTRY_ENTRIES 32u
#define EVENT_SLOTS 2048u

static uint8_t g_buf[48u + REGISTRY_ENTRIES * 48u + EVENT_SLOTS * 32u];

/* The accounting as JSON: tasks (net cpu = exec->stop minus ISRs inside), ISRs, services. */
static int write_acct(const char *path, const utk_acct *a)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "{\"clock_hz\":%u,\"end\":%" PRIu64 ",\"isr_count\":%" PRIu64 ",\"isr_time\":%" PRIu64
               ",\"idle_time\":%" PRIu64 ",\n\"tasks\":[",
            UTK_CLOCK_HZ, a->end, a->isr_count, a->isr_time, a->idle_time);
    int first = 1;
    for (int i = 1; i <= UTK_MAX_TSK; i++) {
        if (!a->task_runs[i]) continue;
        fprintf(f, "%s\n {\"id\":%d,\"name\":\"%s\",\"cpu\":%" PRIu64 ",\"isr_inside\":%" PRIu64 ",\"runs\":%" PRIu64 "}",
                first ? "" : ",", i, a->task_name[i], a->task_cpu[i], a->task_isr[i], a->task_runs[i]);
        first = 0;
    }
    fprintf(f, "],\n\"services\":[");
    first = 1;
    for (int i = 1; i <= UTK_FN_INDEX_MAX; i++) {
        const utk_acct_svc *s = &a->svc[i];
        if (!s->count) continue;
        fprintf(f, "%s\n {\"name\":\"%s\",\"count\":%" PRIu64 ",\"min\":%" PRIu64 ",\"max\":%" PRIu64 ",\"sum\":%" PRIu64 "}",
                first ? "" : ",", txtb_hooks_utk_fn_name(s->fncd), s->count, s->min, s->max, s->total);
        first = 0;
    }
    fprintf(f, "]}\n");
    return fclose(f) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: utk_demo OUT.trx [ACCT.json]\n");
        return 2;
    }
    evt_tx_options o = {0};
    o.time_source = utk_now32;
    o.base_address = 0x20000000u;
    if (evt_txtb_hooks_enable(g_buf, sizeof g_buf, REGISTRY_ENTRIES, &o, EVT_HOOK_KERNEL_UTKERNEL) != EVT_TX_SUCCESS) {
        fprintf(stderr, "utk_demo: cannot enable the TXTB recorder\n");
        return 1;
    }
    utk_scenario scn = UTK_SCENARIO_DEFAULT;
    utk_config cfg = {0};
    if (utk_boot(&cfg, utk_scenario_main, 1, &scn) != 0) {
        fprintf(stderr, "utk_demo: kernel did not start\n");
        return 1;
    }
    evt_tx_trace_disable();
    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(g_buf, 1, sizeof g_buf, f) != sizeof g_buf || fclose(f) != 0) {
        fprintf(stderr, "utk_demo: cannot write %s\n", argv[1]);
        return 1;
    }
    const utk_acct *a = utk_accounting();
    if (argc == 3 && write_acct(argv[2], a) != 0) {
        fprintf(stderr, "utk_demo: cannot write %s\n", argv[2]);
        return 1;
    }
    printf("utk_demo: %s written (virtual clock, 1 tick = 1 us; run ended at %" PRIu64 ")\n", argv[1], a->end);
    for (int i = 1; i <= UTK_MAX_TSK; i++)
        if (a->task_runs[i])
            printf("  task %-8s cpu %6" PRIu64 " us (of which ISRs %3" PRIu64 ") in %" PRIu64 " runs\n", a->task_name[i],
                   a->task_cpu[i], a->task_isr[i], a->task_runs[i]);
    printf("  interrupts: %" PRIu64 " handler runs, %" PRIu64 " us; idle %" PRIu64 " us\n", a->isr_count, a->isr_time,
           a->idle_time);
    return 0;
}
