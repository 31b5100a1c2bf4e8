/* The matrix application: a FreeRTOS POSIX-port program, written apart from evtrace's examples and
 * the outsider application, built in the kernel configurations those do not use (FreeRTOSConfig.h:
 * static allocation only, 40 priorities, one-letter task names, the tick count wrapping, indexed
 * notifications, cooperative scheduling) and checked against FreeRTOS's own counters
 * (check_freertos.py matrix): a queue set of two queues and a counting semaphore, a mutex with
 * inheritance, a recursive mutex nested and contended (and given by a non-holder), indexed
 * notifications (wait, take, refused sets), a task that waits for its notification for ever
 * (portMAX_DELAY: blocked, not suspended), vTaskSuspendAll storms that hold the tick back, a task
 * deleted and created again every few ticks (with static allocation: at the same TCB every time),
 * vTaskPrioritySet, xTaskAbortDelay, an auto-reload timer with the daemon at the top priority.
 *
 *   matrix_app snapshot|stream OUT MS [BUF_KIB [REGISTRY]]
 * At the end it prints one JSON line: per task FreeRTOS's run time (uxTaskGetSystemState), the
 * switch-ins, moves to ready and inheritances counted in its trace hooks, its priorities and TCB;
 * the application's count of every call by result; for the snapshot, the recorder's accounting. */
#include <stdio.h>

#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"
#include "timers.h"

#include "evt_freertos_test.h"
#include "evtrace/port.h"

#define MAX_TASKS 32 /* the counters line's room */

void vApplicationTickHook(void);
void vApplicationTickHook(void) {}

#define COUNTS(X)                                                                                     \
    X(Q1_SEND_OK, "q1_send_ok") X(Q1_SEND_FAIL, "q1_send_fail") X(Q2_SEND_OK, "q2_send_ok")           \
    X(Q2_SEND_FAIL, "q2_send_fail") X(CS_GIVE_OK, "cs_give_ok") X(CS_GIVE_FAIL, "cs_give_fail")       \
    X(SEL_OK, "sel_ok") X(SEL_TO, "sel_timeout") X(Q1_RECV, "q1_recv") X(Q2_RECV, "q2_recv")           \
    X(CS_TAKE, "cs_take") X(MX_TAKE_OK, "mx_take_ok") X(MX_TAKE_TO, "mx_take_timeout")                \
    X(MX_GIVE, "mx_give") X(RM_TAKE_OK, "rm_take_ok") X(RM_TAKE_TO, "rm_take_timeout")                \
    X(RM_GIVE_OK, "rm_give_ok") X(RM_GIVE_FAIL, "rm_give_fail") X(N1_OK, "n1_wait_ok")                \
    X(N1_TO, "n1_wait_timeout") X(N2_OK, "n2_take_ok") X(N2_TO, "n2_take_timeout")                    \
    X(NOTIFY_OK, "notify_ok") X(NOTIFY_FAIL, "notify_fail") X(TMR_CB, "timer_cb")                     \
    X(ABORT_OK, "abort_ok") X(ABORT_FAIL, "abort_fail") X(PRIOSET, "prioset") X(CREATED, "created")   \
    X(DELETED, "deleted") X(STORMS, "storms") X(SELFDEL, "selfdel")

enum { COUNTS(EVT_FREERTOS_TEST_ENUM) C_N };
static const char *const k_names[C_N] = {COUNTS(EVT_FREERTOS_TEST_KEY)};
_Static_assert(C_N <= EVT_FREERTOS_TEST_NCOUNTS, "more counts than evt_freertos_test holds");

#define PBASE (configMAX_PRIORITIES > 16 ? configMAX_PRIORITIES - 10 : 0)
#define PR(x) ((UBaseType_t)(PBASE + (x)))
#define NIDX (configTASK_NOTIFICATION_ARRAY_ENTRIES > 1 ? 1 : 0)
#define TIDX (configTASK_NOTIFICATION_ARRAY_ENTRIES > 2 ? 2 : 0)
#define SIDX (configTASK_NOTIFICATION_ARRAY_ENTRIES > 3 ? 3 : 0)

static QueueHandle_t q1, q2;
static SemaphoreHandle_t cs, mx, rm;
static QueueSetHandle_t set;
static TimerHandle_t tm;
static TaskHandle_t h_nix, h_slp, h_rot, h_eph, h_wf;
static volatile int g_stop;
static unsigned g_ms;

#if configSUPPORT_DYNAMIC_ALLOCATION == 0
#define NTASK 16
static StaticTask_t g_tcb[NTASK];
static StackType_t g_stack[NTASK][configMINIMAL_STACK_SIZE * 2];
static StaticTask_t g_eph_tcb;
static StackType_t g_eph_stack[configMINIMAL_STACK_SIZE];
static int g_ntask;
#endif

static TaskHandle_t make_task(TaskFunction_t fn, const char *name, UBaseType_t prio, int eph)
{
    TaskHandle_t h = NULL;
#if configSUPPORT_DYNAMIC_ALLOCATION == 0
    if (eph) h = xTaskCreateStatic(fn, name, configMINIMAL_STACK_SIZE, NULL, prio, g_eph_stack, &g_eph_tcb);
    else {
        h = xTaskCreateStatic(fn, name, configMINIMAL_STACK_SIZE * 2, NULL, prio, g_stack[g_ntask], &g_tcb[g_ntask]);
        g_ntask++;
    }
#else
    (void)eph;
    if (xTaskCreate(fn, name, configMINIMAL_STACK_SIZE * 2, NULL, prio, &h) != pdPASS) h = NULL;
#endif
    return h;
}

static void park(void)
{
    vTaskSuspend(NULL);
    for (;;) vTaskDelay(1000);
}

static void yield_coop(void)
{
    if (!configUSE_PREEMPTION) taskYIELD();
}

/* producers into the queue set's members */
static void prA(void *p)
{
    (void)p;
    for (uint32_t i = 0; !g_stop; i++) {
        CNT_IF(xQueueSend(q1, &i, 1) == pdPASS, C_Q1_SEND_OK, C_Q1_SEND_FAIL);
        vTaskDelay(1 + i % 2);
    }
    park();
}
static void prB(void *p)
{
    (void)p;
    for (uint32_t i = 0; !g_stop; i++) {
        if (i % 2) CNT_IF(xQueueSend(q2, &i, 0) == pdPASS, C_Q2_SEND_OK, C_Q2_SEND_FAIL);
        else CNT_IF(xSemaphoreGive(cs) == pdPASS, C_CS_GIVE_OK, C_CS_GIVE_FAIL);
        vTaskDelay(1 + i % 3);
    }
    park();
}
static void sel(void *p)
{
    (void)p;
    while (!g_stop) {
        QueueSetMemberHandle_t m = xQueueSelectFromSet(set, 3);
        uint32_t v;
        if (!m) {
            CNT(C_SEL_TO);
            continue;
        }
        CNT(C_SEL_OK);
        if (m == q1 && xQueueReceive(q1, &v, 0) == pdPASS) CNT(C_Q1_RECV);
        else if (m == q2 && xQueueReceive(q2, &v, 0) == pdPASS) CNT(C_Q2_RECV);
        else if (m == cs && xSemaphoreTake(cs, 0) == pdPASS) CNT(C_CS_TAKE);
    }
    park();
}

/* mutex inheritance: lo holds mx a while, hi wants it */
static void lo(void *p)
{
    (void)p;
    while (!g_stop) {
        if (xSemaphoreTake(mx, 5) == pdPASS) {
            CNT(C_MX_TAKE_OK);
            evt_freertos_test_spin_us(1500);
            yield_coop();
            xSemaphoreGive(mx);
            CNT(C_MX_GIVE);
        }
        else CNT(C_MX_TAKE_TO);
        vTaskDelay(1);
    }
    park();
}
static void hi(void *p)
{
    (void)p;
    for (unsigned i = 0; !g_stop; i++) {
        vTaskDelay(2);
        if (xSemaphoreTake(mx, 1) == pdPASS) {
            CNT(C_MX_TAKE_OK);
            xSemaphoreGive(mx);
            CNT(C_MX_GIVE);
        }
        else CNT(C_MX_TAKE_TO);
        /* recursive mutex, nested 3 deep */
        int depth = 0;
        for (int k = 0; k < 3; k++) {
            if (xSemaphoreTakeRecursive(rm, 2) == pdPASS) {
                CNT(C_RM_TAKE_OK);
                depth++;
            }
            else CNT(C_RM_TAKE_TO);
        }
        while (depth--) CNT_IF(xSemaphoreGiveRecursive(rm) == pdPASS, C_RM_GIVE_OK, C_RM_GIVE_FAIL);
        if (i % 5 == 0) CNT_IF(xSemaphoreGiveRecursive(rm) == pdPASS, C_RM_GIVE_OK, C_RM_GIVE_FAIL); /* not held */
    }
    park();
}
/* the recursive mutex from a lower task too (contention, inheritance) */
static void mid(void *p)
{
    (void)p;
    while (!g_stop) {
        if (xSemaphoreTakeRecursive(rm, 3) == pdPASS) {
            CNT(C_RM_TAKE_OK);
            if (xSemaphoreTakeRecursive(rm, 0) == pdPASS) CNT(C_RM_TAKE_OK);
            else CNT(C_RM_TAKE_TO);
            evt_freertos_test_spin_us(700);
            yield_coop();
            CNT_IF(xSemaphoreGiveRecursive(rm) == pdPASS, C_RM_GIVE_OK, C_RM_GIVE_FAIL);
            CNT_IF(xSemaphoreGiveRecursive(rm) == pdPASS, C_RM_GIVE_OK, C_RM_GIVE_FAIL);
        }
        else CNT(C_RM_TAKE_TO);
        vTaskDelay(3);
    }
    park();
}

/* indexed notifications */
static void nix(void *p)
{
    (void)p;
    for (unsigned i = 0; !g_stop; i++) {
        uint32_t v;
        if (i % 2) CNT_IF(xTaskNotifyWaitIndexed(NIDX, 0, ~0u, &v, 2) == pdPASS, C_N1_OK, C_N1_TO);
        else CNT_IF(ulTaskNotifyTakeIndexed(TIDX, pdTRUE, 2) != 0, C_N2_OK, C_N2_TO);
    }
    park();
}
static void tm_cb(TimerHandle_t t)
{
    (void)t;
    CNT(C_TMR_CB);
    xTaskNotifyGiveIndexed(h_nix, TIDX);
}

/* waits for ever on its notification */
static void wf(void *p)
{
    (void)p;
    for (;;) (void)ulTaskNotifyTakeIndexed(SIDX, pdTRUE, portMAX_DELAY);
}
/* delayed, aborted now and then */
static void slp(void *p)
{
    (void)p;
    while (!g_stop) vTaskDelay(20);
    park();
}
/* priority changed by ctl */
static void rot(void *p)
{
    (void)p;
    while (!g_stop) {
        evt_freertos_test_spin_us(300);
        yield_coop();
        vTaskDelay(1);
    }
    park();
}
/* suspend-all storm */
static void stm(void *p)
{
    (void)p;
    for (uint32_t i = 0; !g_stop; i++) {
        vTaskSuspendAll();
        evt_freertos_test_spin_us(2500); /* ticks pend */
        CNT_IF(xQueueSend(q1, &i, 0) == pdPASS, C_Q1_SEND_OK, C_Q1_SEND_FAIL);
        CNT_IF(xTaskNotifyIndexed(h_nix, NIDX, i, eSetValueWithoutOverwrite) == pdPASS, C_NOTIFY_OK, C_NOTIFY_FAIL);
        CNT(C_STORMS);
        (void)xTaskResumeAll();
        vTaskDelay(2);
    }
    park();
}
static void spn(void *p)
{
    (void)p;
    while (!g_stop) {
        evt_freertos_test_spin_us(200);
        yield_coop();
    }
    park();
}
static void eph(void *p)
{
    (void)p;
    evt_freertos_test_spin_us(100);
    vTaskDelay(1);
    if ((uintptr_t)p) {
        CNT(C_SELFDEL);
        vTaskDelete(NULL);
    }
    for (;;) vTaskDelay(100);
}

static void control_step(unsigned i)
{
    if (i % 4 == 0) {
        vTaskPrioritySet(h_rot, PR(1 + (i / 4) % 6));
        CNT(C_PRIOSET);
    }
    if (i % 5 == 0) xTaskNotifyGiveIndexed(h_wf, SIDX);
    if (i % 7 == 0) CNT_IF(xTaskAbortDelay(h_slp) == pdPASS, C_ABORT_OK, C_ABORT_FAIL);
    if (i % 3 == 0 && !h_eph) {
        h_eph = make_task(eph, "eph", PR(2), 1);
        if (h_eph) CNT(C_CREATED);
    }
    else if (i % 3 == 1 && h_eph) {
        vTaskDelete(h_eph);
        h_eph = NULL;
        CNT(C_DELETED);
    }
    if (i % 11 == 0) CNT_IF(xTaskNotifyIndexed(h_nix, NIDX, i, eSetValueWithoutOverwrite) == pdPASS, C_NOTIFY_OK, C_NOTIFY_FAIL);
}

static void report(void)
{
    static TaskStatus_t st[MAX_TASKS];
    configRUN_TIME_COUNTER_TYPE total;
    UBaseType_t n = uxTaskGetSystemState(st, MAX_TASKS, &total);
    printf("{\"kernel\":\"%s\",\"clock_hz\":%llu,\"tick\":%llu,\"tasks\":[", tskKERNEL_VERSION_NUMBER,
           (unsigned long long)evt_port_timestamp_hz(), (unsigned long long)xTaskGetTickCount());
    for (UBaseType_t i = 0, k = 0; i < n; i++) {
        if (st[i].eCurrentState == eDeleted) continue;
        evt_freertos_test_task *c = evt_freertos_test_task_of(st[i].xHandle);
        printf("%s{\"name\":\"%s\",\"run_time\":%llu,\"switch_ins\":%u,\"ready\":%u,\"inherits\":%u,"
               "\"prio\":%u,\"base\":%u,\"tcb\":%llu,\"held\":%llu}",
               k++ ? "," : "", st[i].pcTaskName, (unsigned long long)st[i].ulRunTimeCounter, c->switch_ins, c->ready,
               c->inherits, (unsigned)st[i].uxCurrentPriority, (unsigned)st[i].uxBasePriority,
               (unsigned long long)(uintptr_t)st[i].xHandle, (unsigned long long)c->held);
    }
    printf("],\"counts\":{");
    evt_freertos_test_report_end(k_names, C_N);
}

static void finish(void)
{
    g_stop = 1;
    xTimerStop(tm, 0);
    vTaskDelay(40);
    evt_freertos_test_end(report);
}

static void ctl(void *p)
{
    (void)p;
    TickType_t start = xTaskGetTickCount();
    for (unsigned i = 1; xTaskGetTickCount() - start < pdMS_TO_TICKS(g_ms); i++) {
        vTaskDelay(1);
        control_step(i);
    }
    finish();
}

static void create_objects(void)
{
#if configSUPPORT_DYNAMIC_ALLOCATION == 0
    static StaticQueue_t sq1, sq2, sset, scs, smx, srm;
    static uint8_t b1[4 * sizeof(uint32_t)], b2[2 * sizeof(uint32_t)], bset[8 * sizeof(void *)];
    static StaticTimer_t stm_;
    q1 = xQueueCreateStatic(4, sizeof(uint32_t), b1, &sq1);
    q2 = xQueueCreateStatic(2, sizeof(uint32_t), b2, &sq2);
    set = xQueueGenericCreateStatic(8, sizeof(void *), bset, &sset, queueQUEUE_TYPE_SET);
    cs = xSemaphoreCreateCountingStatic(2, 0, &scs);
    mx = xSemaphoreCreateMutexStatic(&smx);
    rm = xSemaphoreCreateRecursiveMutexStatic(&srm);
    tm = xTimerCreateStatic("tm", 3, pdTRUE, NULL, tm_cb, &stm_);
#else
    q1 = xQueueCreate(4, sizeof(uint32_t));
    q2 = xQueueCreate(2, sizeof(uint32_t));
    set = xQueueCreateSet(8);
    cs = xSemaphoreCreateCounting(2, 0);
    mx = xSemaphoreCreateMutex();
    rm = xSemaphoreCreateRecursiveMutex();
    tm = xTimerCreate("tm", 3, pdTRUE, NULL, tm_cb);
#endif
    xQueueAddToSet(q1, set);
    xQueueAddToSet(q2, set);
    xQueueAddToSet(cs, set);
    vQueueAddToRegistry(q1, "q1");
    vQueueAddToRegistry(q2, "q2");
    vQueueAddToRegistry(set, "set");
    vQueueAddToRegistry(cs, "cs");
    vQueueAddToRegistry(mx, "mx");
    vQueueAddToRegistry(rm, "rm");
    xTimerStart(tm, 0);
}

static void create_tasks(void)
{
    make_task(ctl, "ctl", PR(7), 0);
    make_task(hi, "hi", PR(5), 0);
    make_task(mid, "mid", PR(3), 0);
    make_task(lo, "lo", PR(1), 0);
    make_task(sel, "sel", PR(4), 0);
    make_task(prA, "a_pr", PR(2), 0);
    make_task(prB, "b_pr", PR(2), 0);
    h_nix = make_task(nix, "nix", PR(4), 0);
    h_slp = make_task(slp, "zz", PR(2), 0);
    h_rot = make_task(rot, "rot", PR(1), 0);
    make_task(stm, "tstorm", PR(2), 0);
    h_wf = make_task(wf, "wf", PR(3), 0);
    make_task(spn, "x_spin", PR(0), 0);
    make_task(spn, "y_spin", PR(0), 0);
}

int main(int argc, char **argv)
{
    int rc = evt_freertos_test_begin(argc, argv, &g_ms);
    if (rc) return rc;
    create_objects();
    create_tasks();
    vTaskStartScheduler();
    return 1;
}
