/* Test helpers for the FreeRTOS kernel applications (see evt_freertos_test.h). */
#include "evt_freertos_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evtrace/freertos.h"
#include "evtrace/port.h"
#include "evtrace/txtb.h"

void evt_freertos_test_assert(const char *file, int line)
{
    fprintf(stderr, "configASSERT failed: %s:%d\n", file, line);
    abort();
}

void evt_freertos_test_spin_us(unsigned us)
{
    uint64_t t0 = evt_port_timestamp(), n = evt_port_timestamp_hz() / 1000000u * us;
    while (evt_port_timestamp() - t0 < n) {
    }
}

/* ---- FreeRTOS's counters ------------------------------------------------------------------------------ */

#define MAX_TASKS 48
static evt_freertos_test_task g_tasks[MAX_TASKS];
static void *g_last_in;
static uint64_t (*g_clock)(void) = evt_port_timestamp;
static uint64_t g_held_min; /* EVT_FREERTOS_TEST_HELD_US in g_clock's ticks (0: not worked out yet) */
static uint64_t g_rt_base;
static uint64_t g_rt_read; /* the clock at the latest run-time read */
static int g_rt_started;

void evt_freertos_test_set_clock(uint64_t (*clock)(void), uint64_t hz)
{
    g_clock = clock ? clock : evt_port_timestamp;
    g_held_min = (clock ? hz : evt_port_timestamp_hz()) / 1000000u * EVT_FREERTOS_TEST_HELD_US;
}

uint64_t evt_freertos_test_run_time(void)
{
    uint64_t now = g_clock();
    g_rt_read = now;
    return g_rt_started ? now - g_rt_base : 0u;
}

evt_freertos_test_task *evt_freertos_test_task_of(void *tcb)
{
    for (int i = 0; i < MAX_TASKS; i++)
        if (g_tasks[i].tcb == tcb) return &g_tasks[i];
    for (int i = 0; i < MAX_TASKS; i++)
        if (!g_tasks[i].tcb) {
            g_tasks[i].tcb = tcb;
            return &g_tasks[i];
        }
    return NULL;
}

void evt_freertos_test_switched_in(void *tcb)
{
    uint64_t now = g_clock(); /* after the trace's record (evtFREERTOS_APP_SWITCHED_IN) */
    if (tcb == g_last_in) return;
    if (!g_rt_started) {
        g_rt_base = now;
        g_rt_started = 1;
    }
    evt_freertos_test_task *c = evt_freertos_test_task_of(tcb);
    if (c) c->switch_ins++;
    /* the switch's window, from FreeRTOS's run-time read to here: held up, both tasks' slices
       may differ by it (evt_freertos_test_task.held) */
    if (!g_held_min) g_held_min = evt_port_timestamp_hz() / 1000000u * EVT_FREERTOS_TEST_HELD_US;
    uint64_t w = g_rt_read && now > g_rt_read ? now - g_rt_read : 0u;
    if (w > g_held_min) {
        evt_freertos_test_task *o = g_last_in ? evt_freertos_test_task_of(g_last_in) : NULL;
        if (c) c->held += w;
        if (o) o->held += w;
    }
    g_last_in = tcb;
}

void evt_freertos_test_ready(void *tcb)
{
    evt_freertos_test_task *c = tcb != g_last_in ? evt_freertos_test_task_of(tcb) : NULL;
    if (c) c->ready++;
}

void evt_freertos_test_inherited(void *tcb)
{
    evt_freertos_test_task *c = evt_freertos_test_task_of(tcb);
    if (c) c->inherits++;
}

void evt_freertos_test_disinherited(void *tcb)
{
    evt_freertos_test_task *c = evt_freertos_test_task_of(tcb);
    if (c) c->disinherits++;
}

void evt_freertos_test_deleted(void *tcb)
{
    for (int i = 0; i < MAX_TASKS; i++)
        if (g_tasks[i].tcb == tcb) memset(&g_tasks[i], 0, sizeof g_tasks[i]);
}

volatile unsigned evt_freertos_test_count[EVT_FREERTOS_TEST_NCOUNTS];

/* ---- the recording ---------------------------------------------------------------------------------- */

static const char *g_out;
static uint8_t *g_buf;
static uint32_t g_size;
static FILE *g_stream;
static evt_rkh_recorder g_rkh;
static uint8_t g_ring[256 * 1024]; /* the stream drains to its sink after every record */

static void sink(void *user, const uint8_t *p, uint32_t n)
{
    (void)user;
    if (g_stream) fwrite(p, 1, n, g_stream);
}

static uint32_t port_clock32(void) { return (uint32_t)evt_port_timestamp(); }

int evt_freertos_test_start(const char *mode, const char *out, uint32_t size, uint32_t registry,
                            uint32_t (*clock)(void))
{
    g_out = out;
    if (strcmp(mode, "stream") == 0) {
        g_stream = fopen(out, "wb");
        if (!g_stream) return -1;
        evt_rkh_config cfg;
        evt_rkh_config_default(&cfg);
        evt_rkh_init(&g_rkh, &cfg, g_ring, sizeof g_ring, clock, 0);
        evt_rkh_set_sink(&g_rkh, sink, NULL);
        return evt_freertos_start_stream(&g_rkh);
    }
    g_size = size;
    g_buf = calloc(1, g_size);
    return g_buf ? evt_freertos_start_snapshot(g_buf, g_size, registry) : -1;
}

int evt_freertos_test_begin(int argc, char **argv, unsigned *ms)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s snapshot|stream OUT MS [BUF_KIB [REGISTRY]]\n", argv[0]);
        return 2;
    }
    uint32_t size = 32u << 20, registry = 64;
    *ms = (unsigned)atoi(argv[3]);
    if (argc > 4) size = (uint32_t)atoi(argv[4]) * 1024u;
    if (argc > 5) registry = (uint32_t)atoi(argv[5]);
    if (evt_freertos_test_start(argv[1], argv[2], size, registry, port_clock32) != 0) {
        fprintf(stderr, "%s: could not start the %s transport\n", argv[0], argv[1]);
        return 1;
    }
    return 0;
}

_Noreturn void evt_freertos_test_end(void (*report)(void))
{
    evt_freertos_stop();
    report();
    int rc;
    if (g_stream) rc = fclose(g_stream) != 0;
    else {
        FILE *f = fopen(g_out, "wb");
        rc = !f || fwrite(g_buf, 1, g_size, f) != g_size || fclose(f) != 0;
    }
    exit(rc);
}

void evt_freertos_test_report_end(const char *const *keys, int n)
{
    for (int i = 0; i < n; i++) printf("%s\"%s\":%u", i ? "," : "", keys[i], evt_freertos_test_count[i]);
    printf("}");
    if (!g_stream) {
        evt_tx_stats x;
        evt_tx_trace_get_stats(&x);
        printf(",\"txtb\":{\"written\":%llu,\"dropped\":%llu}", (unsigned long long)x.written,
               (unsigned long long)x.dropped);
    }
    printf("}\n");
    fflush(stdout);
}
