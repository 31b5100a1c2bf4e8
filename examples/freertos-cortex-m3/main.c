/* evtrace's FreeRTOS example on a Cortex-M3 (QEMU mps2-an385, FreeRTOS's ARM_CM3 port): the same
 * application as examples/freertos-posix -- a producer and a consumer around a queue, a mutex with
 * priority inheritance between a low and a high task with a middle one between, a software timer, a
 * semaphore given from an interrupt (IRQ 0, pended every 10th tick) -- recorded as a snapshot (TXTB
 * buffer `trace_buf`, dumped by GDB at app_trace_done) or streamed on UART0 (RKH, EVT_CFG_STREAM=1).
 * At the end it prints FreeRTOS's own counters as one JSON line on the semihosting console. */
#include <stdint.h>

#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"
#include "timers.h"

#include "board.h"
#include "evtrace/freertos.h"

#ifndef EVT_CFG_STREAM
#define EVT_CFG_STREAM 0
#endif
#define RUN_MS 300u

/* ---- the hooks FreeRTOSConfig.h names ---------------------------------------------------------- */

static uint32_t g_rt_base;
static int g_rt_started;
uint32_t app_run_time(void) { return g_rt_started ? board_timestamp() - g_rt_base : 0u; }

void app_assert_failed(int line)
{
    (void)line;
    board_puts("freertos-cm3: configASSERT failed\n");
    board_exit(1);
}

#define MAX_TASKS 12
static struct { void *tcb; uint32_t switch_ins; } g_sw[MAX_TASKS];
static void *g_last_in;
static uint32_t g_inherits;

void app_switched_in(void *tcb)
{
    if (tcb == g_last_in) return;
    if (!g_last_in) { /* the run-time counter starts with the first task */
        g_rt_base = board_timestamp();
        g_rt_started = 1;
    }
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

/* ---- the application ------------------------------------------------------------------------- */

static QueueHandle_t g_queue;
static SemaphoreHandle_t g_mutex, g_isr_sem;
static volatile uint32_t g_sent, g_received, g_sem_given, g_sem_taken, g_timer_fired;
static volatile int g_stop;

static void spin_us(uint32_t us)
{
    uint32_t t0 = board_timestamp();
    while (board_timestamp() - t0 < us * (BOARD_CPU_HZ / 1000000u)) {
    }
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
    while (!g_stop)
        if (xQueueReceive(g_queue, &v, pdMS_TO_TICKS(5)) == pdPASS) {
            g_received++;
            spin_us(50);
        }
    vTaskSuspend(NULL);
}
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
        if (xSemaphoreTake(g_isr_sem, pdMS_TO_TICKS(50)) == pdPASS) g_sem_taken++;
    vTaskSuspend(NULL);
}
static void timer_cb(TimerHandle_t t)
{
    (void)t;
    g_timer_fired++;
}

void vApplicationTickHook(void);
void vApplicationTickHook(void)
{
    static uint32_t n;
    if (g_isr_sem && !g_stop && ++n % 10u == 0u) board_pend_irq0();
}

/* IRQ 0: gives the semaphore, as a device's interrupt would. */
void app_irq0_handler(void);
void app_irq0_handler(void)
{
    BaseType_t woken = pdFALSE;
    evt_freertos_isr_enter(16); /* exception number of IRQ 0 */
    if (xSemaphoreGiveFromISR(g_isr_sem, &woken) == pdPASS) g_sem_given++;
    evt_freertos_isr_exit(16);
    portYIELD_FROM_ISR(woken);
}

/* ---- the trace and the counters line -------------------------------------------------------- */

#if EVT_CFG_STREAM
static evt_rkh_recorder g_rkh;
static uint8_t g_ring[4096];
static void uart_sink(void *user, const uint8_t *p, uint32_t n)
{
    (void)user;
    board_uart_write(p, n);
}
#else
uint8_t trace_buf[2048 * 1024]; /* the snapshot: dumped by GDB (scripts/evtrace-gdb-dump --symbol trace_buf) */
#endif

/* Where the run's trace is complete: a breakpoint for the GDB dump. */
void app_trace_done(void) __attribute__((noinline));
void app_trace_done(void) { __asm__ volatile("" ::: "memory"); }

static char g_line[1536];
static uint32_t g_len;
static void put_s(const char *s)
{
    while (*s && g_len + 1u < sizeof g_line) g_line[g_len++] = *s++;
}
static void put_u(uint32_t v)
{
    char d[11];
    unsigned i = 0;
    do d[i++] = (char)('0' + v % 10u); while ((v /= 10u) != 0u);
    while (i && g_len + 1u < sizeof g_line) g_line[g_len++] = d[--i];
}
static uint32_t switch_ins_of(void *tcb)
{
    for (int i = 0; i < MAX_TASKS; i++)
        if (g_sw[i].tcb == tcb) return g_sw[i].switch_ins;
    return 0;
}

static void control(void *p)
{
    (void)p;
    vTaskDelay(pdMS_TO_TICKS(RUN_MS));
    g_stop = 1;
    vTaskDelay(pdMS_TO_TICKS(100)); /* every task ends its round and suspends itself */
    vTaskSuspendAll();
    evt_freertos_stop();
    app_trace_done();
    static TaskStatus_t st[MAX_TASKS];
    uint32_t total;
    UBaseType_t n = uxTaskGetSystemState(st, MAX_TASKS, &total);
    put_s("{\"kernel\":\"" tskKERNEL_VERSION_NUMBER "\",\"clock_hz\":");
    put_u(BOARD_CPU_HZ);
    put_s(",\"tasks\":[");
    for (UBaseType_t i = 0; i < n; i++) {
        put_s(i ? ",{\"name\":\"" : "{\"name\":\"");
        put_s(st[i].pcTaskName);
        put_s("\",\"run_time\":");
        put_u(st[i].ulRunTimeCounter);
        put_s(",\"switch_ins\":");
        put_u(switch_ins_of(st[i].xHandle));
        put_s(",\"priority\":");
        put_u((uint32_t)st[i].uxBasePriority);
        put_s("}");
    }
    put_s("],\"queues\":[{\"name\":\"work_q\",\"sends\":");
    put_u(g_sent);
    put_s(",\"receives\":");
    put_u(g_received);
    put_s("},{\"name\":\"isr_sem\",\"sends\":");
    put_u(g_sem_given);
    put_s(",\"receives\":");
    put_u(g_sem_taken);
    put_s("}],\"mutexes\":[{\"name\":\"shared_mx\",\"inheritances\":");
    put_u(g_inherits);
    put_s("}],\"timer_fired\":");
    put_u(g_timer_fired);
    put_s("}\n");
    g_line[g_len] = '\0';
    board_puts(g_line);
    board_exit(0);
}

int main(void)
{
    board_init();
    evt_freertos_set_clock(board_timestamp, BOARD_CPU_HZ);
#if EVT_CFG_STREAM
    evt_rkh_config cfg;
    evt_rkh_config_default(&cfg);
    evt_rkh_init(&g_rkh, &cfg, g_ring, sizeof g_ring, board_timestamp, BOARD_CPU_HZ);
    evt_rkh_set_sink(&g_rkh, uart_sink, 0);
    if (evt_freertos_start_stream(&g_rkh) != 0) return 1;
#else
    if (evt_freertos_start_snapshot(trace_buf, sizeof trace_buf, 32) != 0) return 1;
#endif
    g_queue = xQueueCreate(8, sizeof(uint32_t));
    vQueueAddToRegistry(g_queue, "work_q");
    g_mutex = xSemaphoreCreateMutex();
    vQueueAddToRegistry(g_mutex, "shared_mx");
    g_isr_sem = xSemaphoreCreateBinary();
    vQueueAddToRegistry(g_isr_sem, "isr_sem");
    TimerHandle_t t = xTimerCreate("tick5", pdMS_TO_TICKS(5), pdTRUE, 0, timer_cb);
    xTaskCreate(control, "ctl", configMINIMAL_STACK_SIZE * 2, 0, configMAX_PRIORITIES - 1, 0);
    xTaskCreate(producer, "producer", configMINIMAL_STACK_SIZE, 0, 3, 0);
    xTaskCreate(consumer, "consumer", configMINIMAL_STACK_SIZE, 0, 2, 0);
    xTaskCreate(low_task, "low", configMINIMAL_STACK_SIZE, 0, 1, 0);
    xTaskCreate(mid_task, "mid", configMINIMAL_STACK_SIZE, 0, 4, 0);
    xTaskCreate(high_task, "high", configMINIMAL_STACK_SIZE, 0, 5, 0);
    xTaskCreate(isr_waiter, "isr_waiter", configMINIMAL_STACK_SIZE, 0, 6, 0);
    xTimerStart(t, 0);
    vTaskStartScheduler();
    return 1;
}
