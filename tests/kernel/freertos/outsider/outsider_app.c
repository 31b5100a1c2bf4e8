/* An outsider's FreeRTOS application (POSIX port), written apart from evtrace's examples to check
 * evtrace's FreeRTOS integration against FreeRTOS's own counters (check_freertos.py outsider): event
 * groups (wait with timeouts, sync, set/clear from the tick ISR), task notifications (every eAction,
 * indexed, refused ones, from the ISR and a timer callback), stream and message buffers (partial
 * reads, timeouts, sends from the ISR), software timers (auto-reload, one-shot, period changes,
 * pended calls), vTaskSuspend/Resume/ResumeFromISR, vTaskSuspendAll, vTaskPrioritySet on blocked and
 * on inheriting tasks, xTaskAbortDelay, xTaskDelayUntil, a counting semaphore given from the ISR,
 * mutexes with inheritance and disinheritance after a timeout, queue overwrite/peek, tasks deleted
 * by others and by themselves, the idle hook; any configUSE_PREEMPTION / TIME_SLICING.
 *
 *   outsider_app snapshot|stream OUT MS [BUF_KIB [REGISTRY]]
 * At the end it prints one JSON line: per task FreeRTOS's run time (uxTaskGetSystemState), the
 * switch-ins, moves to ready, inheritances and disinheritances counted in its trace hooks; the
 * objects' addresses; the application's count of every call by result; for the snapshot, the
 * recorder's own accounting (written, dropped). The effective priorities of three tasks are sampled
 * into the trace (user event 8: TCB, uxTaskPriorityGet) for the priority view. */
#include <stdio.h>

#include "FreeRTOS.h"
#include "event_groups.h"
#include "message_buffer.h"
#include "queue.h"
#include "semphr.h"
#include "stream_buffer.h"
#include "task.h"
#include "timers.h"

#include "evt_freertos_test.h"
#include "evtrace/freertos.h"
#include "evtrace/port.h"

/* ---- FreeRTOS's counters: the trace hooks' (FreeRTOSConfig.h), the idle hook's ----------------- */

#define MAX_TASKS 48 /* the counters line's room */
static volatile unsigned g_idle_hooks;

void vApplicationIdleHook(void);
void vApplicationIdleHook(void) { g_idle_hooks++; }

/* ---- the application's counts: X(NAME, "json key") ---------------------------------------------- */

#define OUTSIDER_COUNTS(X)                                                                            \
    X(EG_SET, "eg_set") X(EG_CLEAR, "eg_clear") X(EG_WAIT_OK, "eg_wait_ok") X(EG_WAIT_TO, "eg_wait_timeout") \
    X(SYNC_OK, "sync_ok") X(SYNC_TO, "sync_timeout") X(EG3_ISR_OK, "eg3_isr_ok") X(EG3_ISR_FAIL, "eg3_isr_fail") \
    X(EG3_WAIT_OK, "eg3_wait_ok") X(EG3_WAIT_TO, "eg3_wait_timeout")                                  \
    X(NWAIT_OK, "nwait_ok") X(NWAIT_TO, "nwait_timeout") X(NTAKE_OK, "ntake_ok") X(NTAKE_TO, "ntake_timeout") \
    X(NOTIFY_RX_OK, "notify_rx_ok") X(NOTIFY_RX_FAIL, "notify_rx_fail") X(NOTIFY_NTK, "notify_ntk")   \
    X(NOTIFY_ISR_NTK, "notify_isr_ntk") X(NOTIFY_GIVE_ISR_NTK, "notify_give_isr_ntk")                 \
    X(SB_SEND_OK, "sb_send_ok") X(SB_SEND_FAIL, "sb_send_fail") X(SB_RECV_OK, "sb_recv_ok") X(SB_RECV_FAIL, "sb_recv_fail") \
    X(SB2_ISR_OK, "sb2_isr_ok") X(SB2_ISR_FAIL, "sb2_isr_fail") X(SB2_RECV_OK, "sb2_recv_ok") X(SB2_RECV_TO, "sb2_recv_timeout") \
    X(MB_SEND_OK, "mb_send_ok") X(MB_SEND_FAIL, "mb_send_fail") X(MB_RECV_OK, "mb_recv_ok") X(MB_RECV_FAIL, "mb_recv_fail") \
    X(TAUTO_CB, "tauto_cb") X(TONE_CB, "tone_cb") X(PENDED, "pended") X(TMR_CMD_OK, "timer_cmd_ok")   \
    X(TMR_CMD_FAIL, "timer_cmd_fail") X(SUSPEND, "suspend") X(RESUME, "resume") X(RESUME_NOOP, "resume_noop") \
    X(RESUME_ISR, "resume_from_isr") X(PRIOSET, "prioset") X(ABORT_OK, "abort_ok") X(ABORT_FAIL, "abort_fail") \
    X(DELAY_UNTIL, "delay_until") X(CS_GIVE_OK, "cs_give_ok") X(CS_GIVE_FAIL, "cs_give_fail")         \
    X(CS_ISR_GIVE_OK, "cs_isr_give_ok") X(CS_ISR_GIVE_FAIL, "cs_isr_give_fail") X(CS_TAKE_OK, "cs_take_ok") \
    X(CS_TAKE_TO, "cs_take_timeout") X(M1_TAKE_OK, "m1_take_ok") X(M1_TAKE_TO, "m1_take_timeout")     \
    X(M1_GIVE, "m1_give") X(M2_TAKE_OK, "m2_take_ok") X(M2_TAKE_TO, "m2_take_timeout") X(M2_GIVE, "m2_give") \
    X(PQ_SEND_OK, "pq_send_ok") X(PQ_SEND_FAIL, "pq_send_fail") X(PQ_RECV_OK, "pq_recv_ok")          \
    X(IQ_ISR_OK, "iq_isr_ok") X(IQ_ISR_FAIL, "iq_isr_fail") X(IQ_OVR, "iq_overwrite") X(IQ_PEEK_OK, "iq_peek_ok") \
    X(IQ_PEEK_TO, "iq_peek_timeout") X(IQ_RECV_OK, "iq_recv_ok") X(IQ_RECV_TO, "iq_recv_timeout")     \
    X(DELETED_OTHER, "deleted_other") X(CREATED, "created")

enum { OUTSIDER_COUNTS(EVT_FREERTOS_TEST_ENUM) C_N };
static const char *const k_count_names[C_N] = {OUTSIDER_COUNTS(EVT_FREERTOS_TEST_KEY)};
_Static_assert(C_N <= EVT_FREERTOS_TEST_NCOUNTS, "more counts than evt_freertos_test holds");

/* ---- objects and tasks --------------------------------------------------------------------------- */

static EventGroupHandle_t eg, eg2, eg3;
static StreamBufferHandle_t sb, sb2;
static MessageBufferHandle_t mb;
static TimerHandle_t tauto, tone;
static SemaphoreHandle_t cs, m1, m2;
static QueueHandle_t pq, iq;
static TaskHandle_t h_nrx, h_ntk, h_sus, h_prt, h_abd, h_mL, h_mM, h_rsi, h_vic;
static volatile int g_stop, g_isr_on, g_rsi_suspended;
static unsigned g_ms;

/* A task at the end of its loop: suspended for good (its counts are final). */
static void park(void)
{
    vTaskSuspend(NULL);
    for (;;) vTaskDelay(1000);
}

/* Busy for n ticks (yielding without preemption, so that the others run). */
static void spin_ticks(TickType_t n)
{
    TickType_t t0 = xTaskGetTickCount();
    while (xTaskGetTickCount() - t0 < n)
        if (!OUTSIDER_PREEMPTION) taskYIELD();
}

/* Event groups: egw waits for both bits that egs sets (one each third round); syA/syB/syC meet,
 * syC late now and then; eg3w waits for the bit the tick ISR sets. */
static void egw(void *p)
{
    (void)p;
    while (!g_stop) CNT_IF((xEventGroupWaitBits(eg, 3, pdTRUE, pdTRUE, 4) & 3) == 3, C_EG_WAIT_OK, C_EG_WAIT_TO);
    park();
}

static void egs(void *p)
{
    (void)p;
    for (unsigned i = 1; !g_stop; i++) {
        xEventGroupSetBits(eg, 1);
        CNT(C_EG_SET);
        if (i % 3 == 0) {
            xEventGroupSetBits(eg, 2);
            CNT(C_EG_SET);
        }
        if (i % 5 == 0) {
            xEventGroupClearBits(eg, 1);
            CNT(C_EG_CLEAR);
        }
        vTaskDelay(1 + i % 3);
    }
    park();
}

static void syn(void *p)
{
    unsigned bit = (unsigned)(uintptr_t)p;
    for (unsigned i = 0; !g_stop; i++) {
        CNT(C_EG_SET); /* xEventGroupSync sets its bit with xEventGroupSetBits */
        CNT_IF((xEventGroupSync(eg2, bit, 7, 6) & 7) == 7, C_SYNC_OK, C_SYNC_TO);
        vTaskDelay(bit == 4 ? 2 + i % 9 : 1);
    }
    park();
}

static void eg3w(void *p)
{
    (void)p;
    while (!g_stop) CNT_IF(xEventGroupWaitBits(eg3, 1, pdTRUE, pdFALSE, 7) & 1, C_EG3_WAIT_OK, C_EG3_WAIT_TO);
    park();
}

/* Notifications: nrx waits on index 0 for every eAction from ntx (some refused); ntk takes index 1,
 * given by ntx, the auto-reload timer's callback and the tick ISR. */
static void nrx(void *p)
{
    (void)p;
    uint32_t v;
    while (!g_stop) CNT_IF(xTaskNotifyWaitIndexed(0, 0, 0xFFFFFFFFu, &v, 3) == pdTRUE, C_NWAIT_OK, C_NWAIT_TO);
    park();
}

static void ntk(void *p)
{
    (void)p;
    for (unsigned i = 0; !g_stop; i++) CNT_IF(ulTaskNotifyTakeIndexed(1, i & 1 ? pdTRUE : pdFALSE, 5) != 0, C_NTAKE_OK, C_NTAKE_TO);
    park();
}

static void notify_rx(uint32_t v, eNotifyAction a) { CNT_IF(xTaskNotifyIndexed(h_nrx, 0, v, a) == pdPASS, C_NOTIFY_RX_OK, C_NOTIFY_RX_FAIL); }

static void ntx(void *p)
{
    (void)p;
    static const eNotifyAction acts[5] = {eSetBits, eIncrement, eSetValueWithOverwrite, eSetValueWithoutOverwrite, eNoAction};
    for (unsigned i = 0; !g_stop; i++) {
        notify_rx(i, acts[i % 5]);
        if (i % 4 == 0) {
            xTaskNotifyGiveIndexed(h_ntk, 1);
            CNT(C_NOTIFY_NTK);
        }
        if (i % 9 == 0) { /* two without overwrite while nrx cannot run: the second is refused */
            vTaskSuspendAll();
            notify_rx(5, eSetValueWithoutOverwrite);
            notify_rx(5, eSetValueWithoutOverwrite);
            (void)xTaskResumeAll();
        }
        if (i % 2) vTaskDelay(1);
    }
    park();
}

/* Stream buffer sb (32 B, trigger 4): 10-byte sends, 7-byte reads (partial). sb2 (16 B): written by
 * the tick ISR only. Message buffer mb (40 B): messages of 4-11 bytes, sends without waiting. */
static void sbtx(void *p)
{
    (void)p;
    uint8_t b[10] = {0};
    while (!g_stop) CNT_IF(xStreamBufferSend(sb, b, sizeof b, 1) > 0, C_SB_SEND_OK, C_SB_SEND_FAIL);
    park();
}

static void sbrx(void *p)
{
    (void)p;
    uint8_t b[7];
    for (unsigned i = 0; !g_stop; i++) {
        CNT_IF(xStreamBufferReceive(sb, b, sizeof b, 2) > 0, C_SB_RECV_OK, C_SB_RECV_FAIL);
        if (i % 3 == 0) vTaskDelay(1);
    }
    park();
}

static void sb2r(void *p)
{
    (void)p;
    uint8_t b[3];
    while (!g_stop) CNT_IF(xStreamBufferReceive(sb2, b, sizeof b, 4) > 0, C_SB2_RECV_OK, C_SB2_RECV_TO);
    park();
}

static void mbtx(void *p)
{
    (void)p;
    uint8_t b[12] = {0};
    for (unsigned i = 0; !g_stop; i++) {
        CNT_IF(xMessageBufferSend(mb, b, 4 + i % 8, 0) > 0, C_MB_SEND_OK, C_MB_SEND_FAIL);
        if (i % 2) vTaskDelay(1);
    }
    park();
}

static void mbrx(void *p)
{
    (void)p;
    uint8_t b[12];
    for (unsigned i = 0; !g_stop; i++) {
        CNT_IF(xMessageBufferReceive(mb, b, sizeof b, 3) > 0, C_MB_RECV_OK, C_MB_RECV_FAIL);
        if (i % 4 == 0) vTaskDelay(4);
    }
    park();
}

/* Timers: tauto (auto-reload) notifies ntk; tone (one-shot) is started and re-periodised by ctl. */
static void cb_auto(TimerHandle_t t)
{
    (void)t;
    CNT(C_TAUTO_CB);
    if (!g_stop) {
        xTaskNotifyGiveIndexed(h_ntk, 1);
        CNT(C_NOTIFY_NTK);
    }
}

static void cb_one(TimerHandle_t t)
{
    (void)t;
    CNT(C_TONE_CB);
    evt_freertos_test_spin_us(20);
}

static void pended(void *a, uint32_t b)
{
    (void)a;
    (void)b;
    CNT(C_PENDED);
}

/* Suspension: sus is suspended and resumed by ctl, rsi suspends itself and the ISR resumes it;
 * prt blocks on pq for ever while ctl changes its priority; abd sleeps 1000 ticks until aborted;
 * per runs every 2 ticks (xTaskDelayUntil). */
static void sus(void *p)
{
    (void)p;
    while (!g_stop) {
        vTaskDelay(1);
        evt_freertos_test_spin_us(30);
    }
    park();
}

static void rsi(void *p)
{
    (void)p;
    while (!g_stop) {
        g_rsi_suspended = 1;
        vTaskSuspend(NULL);
        evt_freertos_test_spin_us(10);
    }
    park();
}

static void prt(void *p)
{
    (void)p;
    uint32_t v;
    while (!g_stop)
        if (xQueueReceive(pq, &v, portMAX_DELAY) == pdPASS) CNT(C_PQ_RECV_OK);
    park();
}

static void abd(void *p)
{
    (void)p;
    while (!g_stop) vTaskDelay(1000);
    park();
}

static void per(void *p)
{
    (void)p;
    TickType_t last = xTaskGetTickCount();
    while (!g_stop) {
        xTaskDelayUntil(&last, 2);
        CNT(C_DELAY_UNTIL);
        evt_freertos_test_spin_us(40);
    }
    park();
}

/* Semaphores: cst takes cs (given by ctl and the ISR); mL holds m1 for 4 ticks, mM m2 for 2, mH
 * (priority 4) takes one or the other with a 2-tick timeout: inheritance, and disinheritance after
 * its timeout; iqt overwrites, peeks and receives iq (length 1), which the ISR sends to. */
static void cst(void *p)
{
    (void)p;
    while (!g_stop) CNT_IF(xSemaphoreTake(cs, 2) == pdPASS, C_CS_TAKE_OK, C_CS_TAKE_TO);
    park();
}

static void mL(void *p)
{
    (void)p;
    while (!g_stop) {
        if (xSemaphoreTake(m1, portMAX_DELAY) == pdPASS) {
            CNT(C_M1_TAKE_OK);
            spin_ticks(4);
            xSemaphoreGive(m1);
            CNT(C_M1_GIVE);
        }
        vTaskDelay(2);
    }
    park();
}

static void mM(void *p)
{
    (void)p;
    while (!g_stop) {
        if (xSemaphoreTake(m2, 10) == pdPASS) {
            CNT(C_M2_TAKE_OK);
            spin_ticks(2);
            xSemaphoreGive(m2);
            CNT(C_M2_GIVE);
        } else {
            CNT(C_M2_TAKE_TO);
        }
        vTaskDelay(3);
    }
    park();
}

static void mH(void *p)
{
    (void)p;
    for (unsigned i = 0; !g_stop; i++) {
        vTaskDelay(1);
        int one = !(i & 1);
        if (xSemaphoreTake(one ? m1 : m2, 2) == pdPASS) {
            CNT(one ? C_M1_TAKE_OK : C_M2_TAKE_OK);
            evt_freertos_test_spin_us(50);
            xSemaphoreGive(one ? m1 : m2);
            CNT(one ? C_M1_GIVE : C_M2_GIVE);
        } else {
            CNT(one ? C_M1_TAKE_TO : C_M2_TAKE_TO);
        }
    }
    park();
}

static void iqt(void *p)
{
    (void)p;
    uint32_t v = 0;
    for (unsigned i = 0; !g_stop; i++) {
        if (i % 3 == 0) {
            xQueueOverwrite(iq, &i);
            CNT(C_IQ_OVR);
        }
        CNT_IF(xQueuePeek(iq, &v, 1) == pdPASS, C_IQ_PEEK_OK, C_IQ_PEEK_TO);
        CNT_IF(xQueueReceive(iq, &v, 2) == pdPASS, C_IQ_RECV_OK, C_IQ_RECV_TO);
    }
    park();
}

/* Two busy tasks of equal priority (time slicing). */
static void spin(void *p)
{
    (void)p;
    while (!g_stop) {
        evt_freertos_test_spin_us(200);
        if (!OUTSIDER_PREEMPTION) taskYIELD();
    }
    park();
}

/* Deleted by ctl while it waits; and one that deletes itself. */
static void vic(void *p)
{
    (void)p;
    for (;;) ulTaskNotifyTake(pdTRUE, portMAX_DELAY);
}

static void selfdel(void *p)
{
    (void)p;
    evt_freertos_test_spin_us(30);
    vTaskDelay(1);
    vTaskDelete(NULL);
}

/* ---- the tick interrupt (SIGALRM): bracketed as docs/freertos.md says, then portYIELD_FROM_ISR ---- */

static void isr_work(unsigned n, BaseType_t *w)
{
    if (n % 3 == 0) CNT_IF(xSemaphoreGiveFromISR(cs, w) == pdPASS, C_CS_ISR_GIVE_OK, C_CS_ISR_GIVE_FAIL);
    if (n % 7 == 0) {
        vTaskNotifyGiveIndexedFromISR(h_ntk, 1, w);
        CNT(C_NOTIFY_GIVE_ISR_NTK);
    }
    if (n % 11 == 0) {
        xTaskNotifyIndexedFromISR(h_ntk, 1, 0, eIncrement, w);
        CNT(C_NOTIFY_ISR_NTK);
    }
    if (n % 13 == 0) /* the second is refused */
        for (int k = 0; k < 2; k++)
            CNT_IF(xTaskNotifyIndexedFromISR(h_nrx, 0, 9, eSetValueWithoutOverwrite, w) == pdPASS, C_NOTIFY_RX_OK, C_NOTIFY_RX_FAIL);
    if (n % 5 == 0) CNT_IF(xEventGroupSetBitsFromISR(eg3, 1, w) == pdPASS, C_EG3_ISR_OK, C_EG3_ISR_FAIL);
    if (n % 2 == 0) {
        uint8_t b[5] = {0};
        CNT_IF(xStreamBufferSendFromISR(sb2, b, sizeof b, w) > 0, C_SB2_ISR_OK, C_SB2_ISR_FAIL);
    }
    if (n % 4 == 0) CNT_IF(xQueueSendFromISR(iq, &n, w) == pdPASS, C_IQ_ISR_OK, C_IQ_ISR_FAIL);
    if (n % 6 == 0 && g_rsi_suspended && eTaskGetState(h_rsi) == eSuspended) {
        g_rsi_suspended = 0;
        CNT(C_RESUME_ISR);
        if (xTaskResumeFromISR(h_rsi) == pdTRUE) *w = pdTRUE;
    }
}

void vApplicationTickHook(void);
void vApplicationTickHook(void)
{
    static unsigned n;
    if (!g_isr_on) return;
    BaseType_t w = pdFALSE;
    evt_freertos_isr_enter(14);
    isr_work(++n, &w);
    evt_freertos_isr_exit(14);
    portYIELD_FROM_ISR(w);
}

/* ---- control --------------------------------------------------------------------------------------- */

static void timer_cmd(BaseType_t r) { CNT_IF(r == pdPASS, C_TMR_CMD_OK, C_TMR_CMD_FAIL); }

/* Priority sample: user event 8 with the task's TCB and its priority as FreeRTOS has it now. */
static void sample(TaskHandle_t h)
{
    if (h) evt_freertos_user(8, (uint32_t)(uintptr_t)h, (uint32_t)uxTaskPriorityGet(h), 0, 0);
}

static void prio_set(TaskHandle_t h, UBaseType_t p)
{
    vTaskPrioritySet(h, p);
    CNT(C_PRIOSET);
    sample(h);
}

/* Tick i of the control loop: the calls on the other tasks and objects. */
static void control_step(unsigned i)
{
    sample(h_mL);
    sample(h_mM);
    sample(h_prt);
    if (i % 2 == 0) CNT_IF(xSemaphoreGive(cs) == pdPASS, C_CS_GIVE_OK, C_CS_GIVE_FAIL);
    if (i % 7 == 0) {
        vTaskSuspend(h_sus);
        CNT(C_SUSPEND);
    }
    if (i % 7 == 3) {
        CNT(eTaskGetState(h_sus) == eSuspended ? C_RESUME : C_RESUME_NOOP);
        vTaskResume(h_sus);
    }
    if (i % 5 == 0) prio_set(h_prt, 4);
    if (i % 5 == 2) prio_set(h_prt, 1);
    if (i % 13 == 0) prio_set(h_mL, 3); /* maybe while it inherits */
    if (i % 13 == 6) prio_set(h_mL, 1);
    if (i % 10 == 4) {
        uint32_t v = i;
        vTaskSuspendAll();
        CNT_IF(xQueueSend(pq, &v, 0) == pdPASS, C_PQ_SEND_OK, C_PQ_SEND_FAIL);
        (void)xTaskResumeAll();
    }
    if (i % 9 == 0) CNT_IF(xTaskAbortDelay(h_abd) == pdPASS, C_ABORT_OK, C_ABORT_FAIL);
    if (i % 10 == 0) timer_cmd(xTimerStart(tone, 0));
    if (i % 50 == 0) timer_cmd(xTimerChangePeriod(tauto, 2 + (i / 50) % 4, 0));
    if (i % 17 == 0) timer_cmd(xTimerChangePeriod(tone, 1 + i % 3, 0));
    if (i % 20 == 0) timer_cmd(xTimerPendFunctionCall(pended, NULL, i, 0));
    if (i % 15 == 0 && !h_vic && xTaskCreate(vic, "vic", configMINIMAL_STACK_SIZE, NULL, 1, &h_vic) == pdPASS) CNT(C_CREATED);
    if (i % 15 == 5 && h_vic) {
        vTaskDelete(h_vic);
        h_vic = NULL;
        CNT(C_DELETED_OTHER);
    }
    if (i % 23 == 0 && xTaskCreate(selfdel, "selfdel", configMINIMAL_STACK_SIZE, NULL, 2, NULL) == pdPASS) CNT(C_CREATED);
}

/* The counters line. */
static void report(void)
{
    static TaskStatus_t st[MAX_TASKS];
    configRUN_TIME_COUNTER_TYPE total;
    UBaseType_t n = uxTaskGetSystemState(st, MAX_TASKS, &total);
    printf("{\"kernel\":\"%s\",\"clock_hz\":%llu,\"idle_hooks\":%u,\"tasks\":[", tskKERNEL_VERSION_NUMBER,
           (unsigned long long)evt_port_timestamp_hz(), g_idle_hooks);
    for (UBaseType_t i = 0, k = 0; i < n; i++) {
        if (st[i].eCurrentState == eDeleted) continue;
        evt_freertos_test_task *c = evt_freertos_test_task_of(st[i].xHandle);
        printf("%s{\"name\":\"%s\",\"run_time\":%llu,\"switch_ins\":%u,\"ready\":%u,\"inherits\":%u,\"disinherits\":%u,"
               "\"prio\":%u,\"base\":%u,\"state\":%d,\"held\":%llu}",
               k++ ? "," : "", st[i].pcTaskName, (unsigned long long)st[i].ulRunTimeCounter, c->switch_ins, c->ready,
               c->inherits, c->disinherits, (unsigned)st[i].uxCurrentPriority, (unsigned)st[i].uxBasePriority,
               (int)st[i].eCurrentState, (unsigned long long)c->held);
    }
    printf("],\"objects\":{\"eg\":%llu,\"eg2\":%llu,\"eg3\":%llu,\"sb\":%llu,\"sb2\":%llu},\"counts\":{",
           (unsigned long long)(uintptr_t)eg, (unsigned long long)(uintptr_t)eg2, (unsigned long long)(uintptr_t)eg3,
           (unsigned long long)(uintptr_t)sb, (unsigned long long)(uintptr_t)sb2);
    evt_freertos_test_report_end(k_count_names, C_N);
}

/* Every task parks at its loop's top, the trace stops, the counters, the file. */
static void finish(void)
{
    g_isr_on = 0;
    g_stop = 1;
    timer_cmd(xTimerStop(tauto, 0));
    timer_cmd(xTimerStop(tone, 0));
    CNT_IF(xTaskAbortDelay(h_abd) == pdPASS, C_ABORT_OK, C_ABORT_FAIL);
    if (eTaskGetState(h_sus) == eSuspended) {
        vTaskResume(h_sus);
        CNT(C_RESUME);
    }
    if (eTaskGetState(h_rsi) == eSuspended) {
        vTaskResume(h_rsi);
        CNT(C_RESUME);
    }
    vTaskDelay(40);
    evt_freertos_test_end(report);
}

static void ctl(void *p)
{
    (void)p;
    TickType_t end = xTaskGetTickCount() + pdMS_TO_TICKS(g_ms);
    g_isr_on = 1;
    for (unsigned i = 1; xTaskGetTickCount() < end; i++) {
        vTaskDelay(1);
        control_step(i);
    }
    finish();
}

static void create_objects(void)
{
    eg = xEventGroupCreate();
    eg2 = xEventGroupCreate();
    eg3 = xEventGroupCreate();
    sb = xStreamBufferCreate(32, 4);
    sb2 = xStreamBufferCreate(16, 1);
    mb = xMessageBufferCreate(40);
    cs = xSemaphoreCreateCounting(5, 0);
    m1 = xSemaphoreCreateMutex();
    m2 = xSemaphoreCreateMutex();
    pq = xQueueCreate(4, sizeof(uint32_t));
    iq = xQueueCreate(1, sizeof(uint32_t));
    vQueueAddToRegistry(cs, "cs");
    vQueueAddToRegistry(m1, "m1");
    vQueueAddToRegistry(m2, "m2");
    vQueueAddToRegistry(pq, "pq");
    vQueueAddToRegistry(iq, "iq");
    tauto = xTimerCreate("tauto", 3, pdTRUE, NULL, cb_auto);
    tone = xTimerCreate("tone", 2, pdFALSE, NULL, cb_one);
    timer_cmd(xTimerStart(tauto, 0));
}

static void create_tasks(void)
{
    static const struct {
        TaskFunction_t fn;
        const char *name;
        void *arg;
        UBaseType_t prio;
        TaskHandle_t *h;
    } k[] = {
        {ctl, "ctl", NULL, 5, NULL},        {egw, "egw", NULL, 3, NULL},         {egs, "egs", NULL, 2, NULL},
        {syn, "syA", (void *)1, 2, NULL},   {syn, "syB", (void *)2, 3, NULL},    {syn, "syC", (void *)4, 1, NULL},
        {eg3w, "eg3w", NULL, 3, NULL},      {nrx, "nrx", NULL, 4, &h_nrx},       {ntk, "ntk", NULL, 3, &h_ntk},
        {ntx, "ntx", NULL, 1, NULL},        {sbtx, "sbtx", NULL, 2, NULL},       {sbrx, "sbrx", NULL, 2, NULL},
        {sb2r, "sb2r", NULL, 3, NULL},      {mbtx, "mbtx", NULL, 2, NULL},       {mbrx, "mbrx", NULL, 3, NULL},
        {sus, "sus", NULL, 2, &h_sus},      {rsi, "rsi", NULL, 4, &h_rsi},       {prt, "prt", NULL, 1, &h_prt},
        {abd, "abd", NULL, 3, &h_abd},      {per, "per", NULL, 4, NULL},         {cst, "cst", NULL, 2, NULL},
        {mL, "mL", NULL, 1, &h_mL},         {mM, "mM", NULL, 2, &h_mM},          {mH, "mH", NULL, 4, NULL},
        {iqt, "iqt", NULL, 2, NULL},        {spin, "spinA", NULL, 1, NULL},      {spin, "spinB", NULL, 1, NULL},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        xTaskCreate(k[i].fn, k[i].name, configMINIMAL_STACK_SIZE * (k[i].fn == ctl ? 2 : 1), k[i].arg, k[i].prio, k[i].h);
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
