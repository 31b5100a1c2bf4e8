/* evtrace's FreeRTOS example on FreeRTOS's POSIX port: the application both FreeRTOS examples run
 * (../freertos-common/app.c: queue, priority-inheriting mutex, timer, event group, stream buffer,
 * notifications, a semaphore given from the tick interrupt -- the tick hook runs in the port's
 * SIGALRM handler, the POSIX port's interrupt), recorded by evtrace's FreeRTOS integration as a
 * snapshot (TXTB file) or a stream (RKH bytes through a sink into a file); at the end it prints
 * FreeRTOS's own counters as one JSON line for comparison with `evtrace stats --json`.
 *
 *   freertos_posix_demo snapshot|stream OUT [SECONDS [BUF_KIB]]  the example (default 2 s, fractions
 *                                                        allowed; snapshot buffer 4096 KiB)
 *   freertos_posix_demo stress OUT SECONDS [TASKS]     equal-priority tasks recording in a tight
 *                                                        loop with the tick on (the simulator hang
 *                                                        of docs/freertos.md); must end */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "FreeRTOS.h"
#include "task.h"

#include "evtrace/freertos.h"
#include "evtrace/port.h"

/* ---- what the shared application asks of this target (app.h) ---------------------------------- */

uint64_t app_clock(void) { return evt_port_timestamp(); }
uint64_t app_clock_hz(void) { return evt_port_timestamp_hz(); }

void app_assert_failed(const char *file, int line)
{
    fprintf(stderr, "configASSERT failed: %s:%d\n", file, line);
    abort();
}

/* The tick interrupt (SIGALRM on this port): every 10th gives the semaphore, as an ISR would. */
void vApplicationTickHook(void);
void vApplicationTickHook(void)
{
    if (app_tick_due()) (void)app_isr_give(14); /* SIGALRM, the simulated interrupt's number */
}

/* ---- stress: equal-priority tasks recording in a tight loop --------------------------------- */

#define MAX_STRESS 12
static unsigned long g_stress_records[MAX_STRESS];
static void stress_task(void *p)
{
    unsigned long *n = p;
    for (;;) {
        evt_freertos_user(1, (uint32_t)(n - g_stress_records), (uint32_t)*n, 0, 0);
        ++*n;
    }
}

/* ---- control ---------------------------------------------------------------------------------- */

static const char *g_mode, *g_out;
static unsigned g_ms = 2000, g_stress_tasks = 3;
static uint8_t *g_buf;
static uint32_t g_buf_size = 4u << 20; /* 2 s of this example without a wrap */
static evt_rkh_recorder g_rkh;
static uint8_t g_ring[64 * 1024];
static FILE *g_stream;

static void stream_sink(void *user, const uint8_t *p, uint32_t n)
{
    (void)user;
    if (g_stream) fwrite(p, 1, n, g_stream);
}
static uint32_t rkh_ts(void) { return (uint32_t)evt_port_timestamp(); }

static int write_snapshot(void)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", g_out);
    FILE *f = fopen(tmp, "wb");
    if (!f || fwrite(g_buf, 1, g_buf_size, f) != g_buf_size || fclose(f) != 0) return -1;
    return rename(tmp, g_out);
}

/* The control task is done: the counters line (or the stress count), then the trace's file. */
void app_finished(void)
{
    if (strcmp(g_mode, "stress") != 0) fputs(app_counters_line(), stdout);
    else {
        unsigned long sum = 0;
        for (unsigned i = 0; i < g_stress_tasks; i++) sum += g_stress_records[i];
        printf("{\"stress_tasks\":%u,\"records\":%lu}\n", g_stress_tasks, sum);
    }
    fflush(stdout);
    int rc = 0;
    if (g_stream) rc = fclose(g_stream) != 0;
    else rc = write_snapshot() != 0;
    exit(rc ? 1 : 0);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s snapshot|stream OUT [SECONDS [BUF_KIB]] | stress OUT SECONDS [TASKS]\n", argv[0]);
        return 2;
    }
    g_mode = argv[1];
    g_out = argv[2];
    if (argc > 3) g_ms = (unsigned)(atof(argv[3]) * 1000.0);
    if (argc > 4 && strcmp(g_mode, "stress") == 0) g_stress_tasks = (unsigned)atoi(argv[4]);
    else if (argc > 4) g_buf_size = (uint32_t)atoi(argv[4]) * 1024u;
    if (g_stress_tasks < 1 || g_stress_tasks > MAX_STRESS) g_stress_tasks = 3;

    if (strcmp(g_mode, "stream") == 0) {
        g_stream = fopen(g_out, "wb");
        if (!g_stream) { perror(g_out); return 1; }
        evt_rkh_config cfg;
        evt_rkh_config_default(&cfg);
        /* RKH's TCFG has 16 bits for the rate: a faster clock (the TSC) is written as 0, unknown,
         * rather than truncated to a wrong rate (`--clock-hz` gives it on the host). */
        uint64_t hz = evt_port_timestamp_hz();
        evt_rkh_init(&g_rkh, &cfg, g_ring, sizeof g_ring, rkh_ts, hz <= 0xFFFFu ? (uint32_t)hz : 0u);
        evt_rkh_set_sink(&g_rkh, stream_sink, NULL);
        if (evt_freertos_start_stream(&g_rkh) != 0) return 1;
    } else {
        g_buf = calloc(1, g_buf_size);
        if (!g_buf || evt_freertos_start_snapshot(g_buf, g_buf_size, 64) != 0) { fprintf(stderr, "start failed\n"); return 1; }
    }

    app_create_control(g_ms);
    if (strcmp(g_mode, "stress") == 0) {
        for (unsigned i = 0; i < g_stress_tasks; i++) {
            char name[16];
            snprintf(name, sizeof name, "rec%u", i);
            xTaskCreate(stress_task, name, configMINIMAL_STACK_SIZE, &g_stress_records[i], 2, NULL);
        }
    } else {
        app_create_demo();
    }
    vTaskStartScheduler();
    return 1;
}
