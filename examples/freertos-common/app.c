/* The application of both evtrace FreeRTOS examples (app.h): its tasks and objects, FreeRTOS's own
 * counters kept in the kernel's trace hooks, and the JSON line that reports them. Freestanding
 * (no libc: the Cortex-M3 build has none), FreeRTOS's API only. */
#include "FreeRTOS.h"
#include "event_groups.h"
#include "queue.h"
#include "semphr.h"
#include "stream_buffer.h"
#include "message_buffer.h"
#include "task.h"
#include "timers.h"

#include "app.h"
#include "evtrace/freertos.h"

/* The run-time counter's type: configRUN_TIME_COUNTER_TYPE from V10.4.5 on, uint32_t before (where
 * a GHz counter, the POSIX example's, wraps a task's total after about 1.6 s of its CPU time). */
#if tskKERNEL_VERSION_MAJOR == 10 && tskKERNEL_VERSION_MINOR == 4 && tskKERNEL_VERSION_BUILD < 5
typedef uint32_t run_time_t;
#else
typedef configRUN_TIME_COUNTER_TYPE run_time_t;
#endif

/* ---- FreeRTOS's counters, kept in its trace hooks ----------------------------------------------- */

#define MAX_TASKS 20
typedef struct {
    void *tcb;
    uint32_t switch_ins, ready;
    uint64_t held; /* clock ticks of its switches held up over 10 us (app_switched_in) */
} task_count;
static task_count g_tasks[MAX_TASKS];
static void *g_last_in; /* the running task as the switch-ins saw it; NULL before the scheduler */
static uint32_t g_inherits;
static uint64_t g_rt_base;
static uint64_t g_rt_read; /* the clock at FreeRTOS's latest run-time read */
static int g_rt_started;

/* The slot of tcb (a free one at its first sight), or NULL when all are taken. */
static task_count *slot(void *tcb)
{
    for (int i = 0; i < MAX_TASKS; i++)
        if (g_tasks[i].tcb == tcb) return &g_tasks[i];
    for (int i = 0; i < MAX_TASKS; i++) {
        if (!g_tasks[i].tcb) {
            g_tasks[i].tcb = tcb;
            return &g_tasks[i];
        }
    }
    return 0;
}

/* A deleted task's counts end with it: a task created later at its address counts from zero, as
 * FreeRTOS's own run-time counter of the new TCB does. */
void app_task_deleted(void *tcb)
{
    for (int i = 0; i < MAX_TASKS; i++) {
        if (g_tasks[i].tcb == tcb) {
            g_tasks[i].tcb = 0;
            g_tasks[i].switch_ins = g_tasks[i].ready = 0;
            g_tasks[i].held = 0;
        }
    }
}

uint64_t app_run_time(void)
{
    uint64_t now = app_clock();
    g_rt_read = now;
    /* Truncated to the counter's type: a 32-bit clock's difference survives its wrap. */
    return g_rt_started ? (run_time_t)(now - g_rt_base) : 0u;
}

/* FreeRTOS reads its run-time counter before it picks the next task, the trace records the switch
 * after; both count the time between, but give it to different tasks of the switch. That window is
 * normally well under a microsecond; a thread preempted inside it (the POSIX port on a loaded
 * machine) makes it long, so each task keeps the windows over 10 us of its switches (held), which
 * the counters' check allows beside FreeRTOS's run time. */
void app_switched_in(void *tcb)
{
    uint64_t now = app_clock(); /* after the trace's record (evtFREERTOS_APP_SWITCHED_IN) */
    if (tcb == g_last_in) return;
    if (!g_rt_started) { /* the run-time counter starts with the first task */
        g_rt_base = now;
        g_rt_started = 1;
    }
    task_count *c = slot(tcb);
    if (c) c->switch_ins++;
    static uint64_t held_min; /* 10 us in clock ticks (the rate read once) */
    if (!held_min) held_min = app_clock_hz() / 100000u + 1u;
    uint64_t w = g_rt_read && now > g_rt_read ? now - g_rt_read : 0u;
    if (w >= held_min) {
        task_count *o = g_last_in ? slot(g_last_in) : 0;
        if (c) c->held += w;
        if (o) o->held += w;
    }
    g_last_in = tcb;
}

void app_moved_to_ready(void *tcb)
{
    task_count *c = tcb != g_last_in ? slot(tcb) : 0;
    if (c) c->ready++;
}

void app_inherited(void *tcb)
{
    (void)tcb;
    g_inherits++;
}

/* ---- the application ------------------------------------------------------------------------- */

static QueueHandle_t g_queue;
static SemaphoreHandle_t g_mutex, g_isr_sem;
static EventGroupHandle_t g_events;
static StreamBufferHandle_t g_stream_buf;
static TaskHandle_t g_notified;
static volatile uint32_t g_sent, g_received, g_sem_given, g_sem_taken, g_timer_fired;
static volatile uint32_t g_ev_set, g_ev_waited, g_sb_sent, g_sb_received, g_notes_given, g_notes_taken;
static volatile uint32_t g_rec_takes, g_rec_gives, g_set_selected, g_set_sent, g_mb_sent;
static QueueHandle_t g_set_q, g_rec_mx;
static QueueSetHandle_t g_set;
static MessageBufferHandle_t g_msg_buf;
static volatile int g_stop;
static uint32_t g_run_ms;

int app_stopping(void) { return g_stop; }

static void spin_us(uint32_t us)
{
    uint64_t t0 = app_clock(), n = app_clock_hz() / 1000000u * us;
    while (app_clock() - t0 < n) {
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
/* Creates a semaphore once, running; then takes a recursive mutex three deep (FreeRTOS makes a queue
 * record for the outermost take and the last give only), then sends into a queue that is a member of a queue set and a message buffer. */
static void rec_task(void *p)
{
    (void)p;
    /* an object created while the scheduler runs (the stream writes its name record here) */
    SemaphoreHandle_t late = xSemaphoreCreateBinary();
    vQueueAddToRegistry(late, "late_sem");
    for (uint32_t i = 0; !g_stop; i++) {
        for (int d = 0; d < 3; d++)
            if (xSemaphoreTakeRecursive(g_rec_mx, portMAX_DELAY) == pdPASS) g_rec_takes++;
        for (int d = 0; d < 3; d++)
            if (xSemaphoreGiveRecursive(g_rec_mx) == pdPASS) g_rec_gives++;
        if (xQueueSend(g_set_q, &i, 0) == pdPASS) g_set_sent++;
        if (xMessageBufferSend(g_msg_buf, &i, sizeof i, 0) == sizeof i) g_mb_sent++;
        vTaskDelay(2);
    }
    vTaskSuspend(NULL);
}
/* Waits on the queue set, then reads the member it names and the message buffer. */
static void set_task(void *p)
{
    (void)p;
    uint32_t v;
    while (!g_stop) {
        QueueSetMemberHandle_t m = xQueueSelectFromSet(g_set, pdMS_TO_TICKS(10));
        if (m) {
            g_set_selected++;
            (void)xQueueReceive(m, &v, 0);
            (void)xMessageBufferReceive(g_msg_buf, &v, sizeof v, 0);
        }
    }
    vTaskSuspend(NULL);
}
/* Tasks deleted and created again: "churn" runs a few rounds and deletes itself (FreeRTOS frees its
 * TCB later, in the idle task), "victim" runs until the spawner deletes it (freed at once); the
 * spawner creates each again, and the heap hands freed TCBs back (g_reused counts the creates that
 * got the address of a task deleted before: g_dead keeps the last few). The ones alive at the end
 * are in the counters. */
static volatile int g_churn_done;
static volatile uint32_t g_reused;
static TaskHandle_t g_dead[8]; /* the spawner's only: addresses of deleted churn and victim tasks */
static unsigned g_ndead;
static void churn(void *p)
{
    (void)p;
    for (int k = 0; k < 3 && !g_stop; k++) {
        spin_us(40);
        vTaskDelay(1);
    }
    if (!g_stop) {
        g_churn_done = 1;
        vTaskDelete(NULL); /* its last records (the switch out) come after the delete's */
    }
    vTaskSuspend(NULL);
}
static void victim(void *p)
{
    (void)p;
    while (!g_stop) {
        spin_us(30);
        vTaskDelay(1);
    }
    vTaskSuspend(NULL);
}
static void note_dead(TaskHandle_t h)
{
    if (h) g_dead[g_ndead++ % (sizeof g_dead / sizeof g_dead[0])] = h;
}
static TaskHandle_t create_again(TaskFunction_t fn, const char *name, UBaseType_t prio)
{
    TaskHandle_t h = NULL;
    if (xTaskCreate(fn, name, configMINIMAL_STACK_SIZE, NULL, prio, &h) != pdPASS) return NULL;
    for (unsigned k = 0; k < sizeof g_dead / sizeof g_dead[0]; k++) {
        if (g_dead[k] == h) {
            g_reused++;
            break;
        }
    }
    return h;
}
static void spawner(void *p)
{
    (void)p;
    TaskHandle_t c = create_again(churn, "churn", 3), v = NULL;
    while (!g_stop) {
        v = create_again(victim, "victim", 2);
        vTaskDelay(4);
        if (g_stop) break;
        vTaskDelete(v);
        note_dead(v);
        if (g_churn_done) {
            g_churn_done = 0;
            note_dead(c); /* deleted itself: freed by the idle task, maybe not yet */
            c = create_again(churn, "churn", 3);
        }
    }
    vTaskSuspend(NULL);
}

static void timer_cb(TimerHandle_t t)
{
    (void)t;
    g_timer_fired++;
}

int app_tick_due(void)
{
    static uint32_t n;
    return g_isr_sem && !g_stop && ++n % 10u == 0u;
}

long app_isr_give(uint32_t irq)
{
    BaseType_t woken = pdFALSE;
    evt_freertos_isr_enter(irq);
    if (xSemaphoreGiveFromISR(g_isr_sem, &woken) == pdPASS) g_sem_given++;
    evt_freertos_isr_exit(irq);
    return (long)woken;
}

static void control(void *p)
{
    (void)p;
    vTaskDelay(pdMS_TO_TICKS(g_run_ms));
    g_stop = 1;
    /* Let every task finish its round (each suspends itself after it) so that no operation is
     * recorded and not yet counted by the application; then the counters and the trace end at the
     * same point. */
    vTaskDelay(pdMS_TO_TICKS(100));
    vTaskSuspendAll();
    evt_freertos_stop();
    app_finished();
    for (;;) {
    }
}

void app_create_control(uint32_t run_ms)
{
    g_run_ms = run_ms;
    xTaskCreate(control, "ctl", configMINIMAL_STACK_SIZE * 2, NULL, configMAX_PRIORITIES - 1, NULL);
}

void app_create_demo(void)
{
    g_queue = xQueueCreate(8, sizeof(uint32_t));
    vQueueAddToRegistry(g_queue, "work_q");
    g_mutex = xSemaphoreCreateMutex();
    vQueueAddToRegistry(g_mutex, "shared_mx");
    g_isr_sem = xSemaphoreCreateBinary();
    vQueueAddToRegistry(g_isr_sem, "isr_sem");
    g_events = xEventGroupCreate();
    g_stream_buf = xStreamBufferCreate(64, 1);
    g_rec_mx = xSemaphoreCreateRecursiveMutex();
    vQueueAddToRegistry(g_rec_mx, "rec_mx");
    g_set_q = xQueueCreate(4, sizeof(uint32_t));
    vQueueAddToRegistry(g_set_q, "set_q");
    g_set = xQueueCreateSet(4);
    vQueueAddToRegistry(g_set, "set");
    xQueueAddToSet(g_set_q, g_set);
    g_msg_buf = xMessageBufferCreate(64);
    xTaskCreate(rec_task, "rec", configMINIMAL_STACK_SIZE, NULL, 2, NULL);
    xTaskCreate(set_task, "set_rx", configMINIMAL_STACK_SIZE, NULL, 3, NULL);
    TimerHandle_t t = xTimerCreate("tick5", pdMS_TO_TICKS(5), pdTRUE, NULL, timer_cb);
    xTaskCreate(producer, "producer", configMINIMAL_STACK_SIZE, NULL, 3, NULL);
    xTaskCreate(consumer, "consumer", configMINIMAL_STACK_SIZE, NULL, 2, NULL);
    xTaskCreate(low_task, "low", configMINIMAL_STACK_SIZE, NULL, 1, NULL);
    xTaskCreate(mid_task, "mid", configMINIMAL_STACK_SIZE, NULL, 4, NULL);
    xTaskCreate(high_task, "high", configMINIMAL_STACK_SIZE, NULL, 5, NULL);
    xTaskCreate(isr_waiter, "isr_waiter", configMINIMAL_STACK_SIZE, NULL, 6, NULL);
    xTaskCreate(observer, "observer", configMINIMAL_STACK_SIZE, NULL, 4, &g_notified);
    xTaskCreate(spawner, "spawner", configMINIMAL_STACK_SIZE, NULL, 4, NULL);
    xTimerStart(t, 0);
}

/* ---- the counters line --------------------------------------------------------------------- */

static char g_line[4096];
static uint32_t g_len;
static void put_s(const char *s)
{
    while (*s && g_len + 1u < sizeof g_line) g_line[g_len++] = *s++;
}
static void put_u(uint64_t v)
{
    char d[20];
    unsigned i = 0;
    do d[i++] = (char)('0' + v % 10u); while ((v /= 10u) != 0u);
    while (i && g_len + 1u < sizeof g_line) g_line[g_len++] = d[--i];
}
static void put_kv(const char *key, uint64_t v) /* ,"key":v */
{
    put_s(",\"");
    put_s(key);
    put_s("\":");
    put_u(v);
}

const char *app_counters_line(void)
{
    static TaskStatus_t st[MAX_TASKS];
    run_time_t total;
    UBaseType_t n = uxTaskGetSystemState(st, MAX_TASKS, &total);
    g_len = 0;
    put_s("{\"kernel\":\"" tskKERNEL_VERSION_NUMBER "\"");
    put_kv("clock_hz", app_clock_hz());
    put_s(",\"tasks\":[");
    for (UBaseType_t i = 0, k = 0; i < n; i++) {
        if (st[i].eCurrentState == eDeleted) continue; /* deleted, its TCB not yet freed */
        put_s(k++ ? ",{\"name\":\"" : "{\"name\":\"");
        put_s(st[i].pcTaskName);
        put_s("\"");
        put_kv("run_time", st[i].ulRunTimeCounter);
        const task_count *c = slot(st[i].xHandle);
        put_kv("switch_ins", c ? c->switch_ins : 0u);
        put_kv("ready", c ? c->ready : 0u);
        put_kv("priority", st[i].uxBasePriority);
        put_kv("held", c ? c->held : 0u);
        put_s("}");
    }
    put_s("],\"queues\":[{\"name\":\"work_q\"");
    put_kv("sends", g_sent);
    put_kv("receives", g_received);
    put_s("},{\"name\":\"isr_sem\"");
    put_kv("sends", g_sem_given);
    put_kv("receives", g_sem_taken);
    put_s("}],\"mutexes\":[{\"name\":\"shared_mx\"");
    put_kv("inheritances", g_inherits);
    put_s("}]");
    put_kv("timer_fired", g_timer_fired);
    put_s(",\"event_group\":{\"set\":");
    put_u(g_ev_set);
    put_kv("waited", g_ev_waited);
    put_s("},\"stream_buffer\":{\"sends\":");
    put_u(g_sb_sent);
    put_kv("receives", g_sb_received);
    put_s("},\"recursive_mutex\":{\"name\":\"rec_mx\"");
    put_kv("takes", g_rec_takes);
    put_kv("gives", g_rec_gives);
    put_s("},\"queue_set\":{\"name\":\"set\"");
    put_kv("selected", g_set_selected);
    put_kv("member_sends", g_set_sent);
    put_s("},\"message_buffer\":{\"sends\":");
    put_u(g_mb_sent);
    put_s("},\"notifications\":{\"given\":");
    put_u(g_notes_given);
    put_kv("taken", g_notes_taken);
    put_s("}");
    put_kv("reused_tcbs", g_reused);
    put_s("}\n");
    g_line[g_len] = '\0';
    return g_line;
}
