/* evtrace's FreeRTOS example on FreeRTOS's POSIX port: a producer and a consumer around a queue,
 * two tasks sharing a priority-inheriting mutex with a third in between, a software timer, an event
 * group, a stream buffer and task notifications (an observer task), and a semaphore given from the
 * tick interrupt (the tick hook runs in the port's SIGALRM handler, the
 * POSIX port's interrupt). Recorded by evtrace's FreeRTOS integration as a snapshot (TXTB file)
 * or a stream (RKH bytes through a sink into a file); at the end it prints FreeRTOS's own counters
 * as one JSON line (per-task run time and switch-ins, per-queue sends and receives, the mutex's
 * inheritances) for comparison with `evtrace stats --json`.
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
#include "event_groups.h"
#include "queue.h"
#include "semphr.h"
#include "stream_buffer.h"
#include "task.h"
#include "timers.h"

#include "evtrace/freertos.h"
#include "evtrace/port.h"

/* ---- the hooks FreeRTOSConfig.h names ---------------------------------------------------------- */

static uint64_t g_rt_base;
void app_run_time_start(void) { g_rt_base = evt_port_timestamp(); }
uint64_t app_run_time(void) { return evt_port_timestamp() - g_rt_base; }

void app_assert_failed(const char *file, int line)
{
    fprintf(stderr, "configASSERT failed: %s:%d\n", file, line);
    abort();
}

#define MAX_TASKS 16
static struct { void *tcb; unsigned long switch_ins; } g_sw[MAX_TASKS];
static void *g_last_in;
static unsigned long g_inherits;

/* traceTASK_SWITCHED_IN (interrupts masked): count a task's switch-ins, not a re-selection. */
void app_switched_in(void *tcb)
{
    if (tcb == g_last_in) return;
    if (!g_last_in) app_run_time_start(); /* the run-time counter starts with the first task */
    g_last_in = tcb;
    for (int i = 0; i < MAX_TASKS; i++) {
        if (g_sw[i].tcb == tcb || !g_sw[i].tcb) {
            g_sw[i].tcb = tcb;
            g_sw[i].switch_ins++;
            return;
        }
    }
}
void app_inherited(void *tcb)
{
    (void)tcb;
    g_inherits++;
}
static unsigned long switch_ins_of(void *tcb)
{
    for (int i = 0; i < MAX_TASKS; i++)
        if (g_sw[i].tcb == tcb) return g_sw[i].switch_ins;
    return 0;
}

/* ---- the application ------------------------------------------------------------------------- */

static QueueHandle_t g_queue;
static SemaphoreHandle_t g_mutex, g_isr_sem;
static EventGroupHandle_t g_events;
static StreamBufferHandle_t g_stream_buf;
static TaskHandle_t g_notified;
static unsigned long g_sent, g_received, g_sem_given, g_sem_taken, g_timer_fired;
static unsigned long g_ev_set, g_ev_waited, g_sb_sent, g_sb_received, g_notes_given, g_notes_taken;
static volatile int g_stop;

static void spin_us(unsigned us)
{
    uint64_t end = evt_port_timestamp() + evt_port_timestamp_hz() / 1000000u * us;
    while (evt_port_timestamp() < end) { }
}

static void producer(void *p)
{
    (void)p;
    for (uint32_t i = 0; !g_stop; i++) {
        if (xQueueSend(g_queue, &i, pdMS_TO_TICKS(10)) == pdPASS) g_sent++;
        vTaskDelay(1);
    }
    vTaskSuspend(NULL);
}

static void consumer(void *p)
{
    (void)p;
    uint32_t v;
    while (!g_stop) {
        if (xQueueReceive(g_queue, &v, pdMS_TO_TICKS(5)) == pdPASS) {
            g_received++;
            spin_us(50);
            if (v % 4u == 0u) { /* every 4th item: an event bit and 4 bytes for the observer */
                xEventGroupSetBits(g_events, 1u);
                g_ev_set++;
                if (xStreamBufferSend(g_stream_buf, &v, sizeof v, 0) == sizeof v) g_sb_sent++;
            }
        }
    }
    vTaskSuspend(NULL);
}

/* Low takes the mutex and works; high wants it meanwhile (inheritance); mid runs between them. */
static void low_task(void *p)
{
    (void)p;
    while (!g_stop) {
        xSemaphoreTake(g_mutex, portMAX_DELAY);
        spin_us(300);
        xSemaphoreGive(g_mutex);
        vTaskDelay(2);
    }
    vTaskSuspend(NULL);
}
static void mid_task(void *p)
{
    (void)p;
    while (!g_stop) {
        spin_us(200);
        vTaskDelay(3);
    }
    vTaskSuspend(NULL);
}
static void high_task(void *p)
{
    (void)p;
    while (!g_stop) {
        vTaskDelay(1);
        xSemaphoreTake(g_mutex, portMAX_DELAY);
        spin_us(20);
        xSemaphoreGive(g_mutex);
    }
    vTaskSuspend(NULL);
}
static void isr_waiter(void *p)
{
    (void)p;
    while (!g_stop)
        if (xSemaphoreTake(g_isr_sem, pdMS_TO_TICKS(50)) == pdPASS) {
            g_sem_taken++;
            xTaskNotifyGive(g_notified);
            g_notes_given++;
        }
    vTaskSuspend(NULL);
}
/* Waits for the consumer's event bit, reads its bytes, and takes the ISR waiter's notifications. */
static void observer(void *p)
{
    (void)p;
    uint32_t v;
    while (!g_stop) {
        if (xEventGroupWaitBits(g_events, 1u, pdTRUE, pdFALSE, pdMS_TO_TICKS(20)) & 1u) g_ev_waited++;
        if (xStreamBufferReceive(g_stream_buf, &v, sizeof v, 0) == sizeof v) g_sb_received++;
        g_notes_taken += ulTaskNotifyTake(pdTRUE, 0);
    }
    vTaskSuspend(NULL);
}
static void timer_cb(TimerHandle_t t)
{
    (void)t;
    g_timer_fired++;
}

/* The tick interrupt (SIGALRM on this port): every 10th gives the semaphore, as an ISR would. */
void vApplicationTickHook(void);
void vApplicationTickHook(void)
{
    static unsigned n;
    if (!g_isr_sem || g_stop || ++n % 10u) return;
    BaseType_t woken = pdFALSE;
    evt_freertos_isr_enter(14); /* SIGALRM, the simulated interrupt's number */
    if (xSemaphoreGiveFromISR(g_isr_sem, &woken) == pdPASS) g_sem_given++;
    evt_freertos_isr_exit(14);
}

/* ---- stress: equal-priority tasks recording in a tight loop --------------------------------- */

static unsigned long g_stress_records[MAX_TASKS];
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

static void print_counters(void)
{
    TaskStatus_t st[MAX_TASKS];
    configRUN_TIME_COUNTER_TYPE total = 0;
    UBaseType_t n = uxTaskGetSystemState(st, MAX_TASKS, &total);
    printf("{\"kernel\":\"%s\",\"clock_hz\":%llu,\"tasks\":[", tskKERNEL_VERSION_NUMBER,
           (unsigned long long)evt_port_timestamp_hz());
    for (UBaseType_t i = 0; i < n; i++)
        printf("%s{\"name\":\"%s\",\"run_time\":%llu,\"switch_ins\":%lu,\"priority\":%u}", i ? "," : "",
               st[i].pcTaskName, (unsigned long long)st[i].ulRunTimeCounter, switch_ins_of(st[i].xHandle),
               (unsigned)st[i].uxBasePriority);
    printf("],\"queues\":[{\"name\":\"work_q\",\"sends\":%lu,\"receives\":%lu},"
           "{\"name\":\"isr_sem\",\"sends\":%lu,\"receives\":%lu}],"
           "\"mutexes\":[{\"name\":\"shared_mx\",\"inheritances\":%lu}],\"timer_fired\":%lu,"
           "\"event_group\":{\"set\":%lu,\"waited\":%lu},\"stream_buffer\":{\"sends\":%lu,\"receives\":%lu},"
           "\"notifications\":{\"given\":%lu,\"taken\":%lu}}\n",
           g_sent, g_received, g_sem_given, g_sem_taken, g_inherits, g_timer_fired, g_ev_set, g_ev_waited, g_sb_sent,
           g_sb_received, g_notes_given, g_notes_taken);
    fflush(stdout);
}

static int write_snapshot(void)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", g_out);
    FILE *f = fopen(tmp, "wb");
    if (!f || fwrite(g_buf, 1, g_buf_size, f) != g_buf_size || fclose(f) != 0) return -1;
    return rename(tmp, g_out);
}

static void control(void *p)
{
    (void)p;
    vTaskDelay(pdMS_TO_TICKS(g_ms));
    g_stop = 1;
    /* Let every task finish its round (each suspends itself after it) so that no operation is
     * recorded and not yet counted by the application; then the counters and the trace end at the
     * same point. */
    vTaskDelay(pdMS_TO_TICKS(100));
    vTaskSuspendAll();
    evt_freertos_stop();
    if (strcmp(g_mode, "stress") != 0) print_counters();
    else {
        unsigned long sum = 0;
        for (unsigned i = 0; i < g_stress_tasks; i++) sum += g_stress_records[i];
        printf("{\"stress_tasks\":%u,\"records\":%lu}\n", g_stress_tasks, sum);
        fflush(stdout);
    }
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
    if (g_stress_tasks < 1 || g_stress_tasks > MAX_TASKS - 4) g_stress_tasks = 3;

    if (strcmp(g_mode, "stream") == 0) {
        g_stream = fopen(g_out, "wb");
        if (!g_stream) { perror(g_out); return 1; }
        evt_rkh_config cfg;
        evt_rkh_config_default(&cfg);
        evt_rkh_init(&g_rkh, &cfg, g_ring, sizeof g_ring, rkh_ts, (uint32_t)evt_port_timestamp_hz());
        evt_rkh_set_sink(&g_rkh, stream_sink, NULL);
        if (evt_freertos_start_stream(&g_rkh) != 0) return 1;
    } else {
        g_buf = calloc(1, g_buf_size);
        if (!g_buf || evt_freertos_start_snapshot(g_buf, g_buf_size, 64) != 0) { fprintf(stderr, "start failed\n"); return 1; }
    }

    xTaskCreate(control, "ctl", configMINIMAL_STACK_SIZE, NULL, configMAX_PRIORITIES - 1, NULL);
    if (strcmp(g_mode, "stress") == 0) {
        for (unsigned i = 0; i < g_stress_tasks; i++) {
            char name[16];
            snprintf(name, sizeof name, "rec%u", i);
            xTaskCreate(stress_task, name, configMINIMAL_STACK_SIZE, &g_stress_records[i], 2, NULL);
        }
    } else {
        g_queue = xQueueCreate(8, sizeof(uint32_t));
        vQueueAddToRegistry(g_queue, "work_q");
        g_mutex = xSemaphoreCreateMutex();
        vQueueAddToRegistry(g_mutex, "shared_mx");
        g_isr_sem = xSemaphoreCreateBinary();
        vQueueAddToRegistry(g_isr_sem, "isr_sem");
        g_events = xEventGroupCreate();
        g_stream_buf = xStreamBufferCreate(64, 1);
        TimerHandle_t t = xTimerCreate("tick5", pdMS_TO_TICKS(5), pdTRUE, NULL, timer_cb);
        xTaskCreate(producer, "producer", configMINIMAL_STACK_SIZE, NULL, 3, NULL);
        xTaskCreate(consumer, "consumer", configMINIMAL_STACK_SIZE, NULL, 2, NULL);
        xTaskCreate(low_task, "low", configMINIMAL_STACK_SIZE, NULL, 1, NULL);
        xTaskCreate(mid_task, "mid", configMINIMAL_STACK_SIZE, NULL, 4, NULL);
        xTaskCreate(high_task, "high", configMINIMAL_STACK_SIZE, NULL, 5, NULL);
        xTaskCreate(isr_waiter, "isr_waiter", configMINIMAL_STACK_SIZE, NULL, 6, NULL);
        xTaskCreate(observer, "observer", configMINIMAL_STACK_SIZE, NULL, 4, &g_notified);
        xTimerStart(t, 0);
    }
    vTaskStartScheduler();
    return 1;
}
