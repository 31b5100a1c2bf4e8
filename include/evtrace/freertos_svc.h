/* The FreeRTOS service codes of evtrace's FreeRTOS integration: ONE table, shared by the target side
 * (include/evtrace/freertos_trace.h, src/kernel/freertos/) that writes a code with every kernel
 * operation (obj_op hook: code, object, result) and the host's FreeRTOS kernel profile
 * (src/host/kernels/freertos.c) that turns a code back into the FreeRTOS function's name, the
 * object operation and the outcome. No code; freestanding and host alike.
 *
 * Queue-based objects: FreeRTOS reports queue, semaphore and mutex operations through the same
 * trace macros (traceQUEUE_SEND ...); the code is EVT_FREERTOS_QCODE(event, queue type), queue type
 * = FreeRTOS's ucQueueType (queueQUEUE_TYPE_BASE 0, MUTEX 1, COUNTING_SEMAPHORE 2,
 * BINARY_SEMAPHORE 3, RECURSIVE_MUTEX 4, SET 5: queue.h), so one event gives six codes with their
 * own names. A queue set is a queue of member handles: xQueueSelectFromSet is xQueueReceive on it,
 * and a member's send writes into it through traceQUEUE_SET_SEND, FreeRTOS's default for which is
 * traceQUEUE_SEND (of the set). */
#ifndef EVTRACE_FREERTOS_SVC_H
#define EVTRACE_FREERTOS_SVC_H

/* Queue events. X(index, NAME, queue label, semaphore label, queue-set label, queue op, semaphore op,
 * mutex op, result). The FreeRTOS trace macro is trace<NAME>, but for the _REFUSED rows (since 3 Dec
 * 2026): traceQUEUE_SEND/RECEIVE/PEEK_FAILED of a call that did not wait (no block time, the
 * object not ready: FreeRTOS's first pass through the call, xEntryTimeSet still pdFALSE) is
 * <NAME>_REFUSED, result would_block; _FAILED (timeout) is a wait that ran out. Before, both were
 * _FAILED: an xSemaphoreGive of a full semaphore (it never waits) said timeout. */
#define EVT_FREERTOS_QEVENT_TABLE(X)                                                                              \
    X(0,  QUEUE_SEND,                 "xQueueSend",           "xSemaphoreGive",        "queue set send",             SEND,    GIVE, RELEASE, SUCCESS)     \
    X(1,  QUEUE_SEND_FAILED,          "xQueueSend",           "xSemaphoreGive",        "queue set send",             SEND,    GIVE, RELEASE, TIMEOUT)     \
    X(2,  QUEUE_RECEIVE,              "xQueueReceive",        "xSemaphoreTake",        "xQueueSelectFromSet",        RECEIVE, TAKE, ACQUIRE, SUCCESS)     \
    X(3,  QUEUE_RECEIVE_FAILED,       "xQueueReceive",        "xSemaphoreTake",        "xQueueSelectFromSet",        RECEIVE, TAKE, ACQUIRE, TIMEOUT)     \
    X(4,  QUEUE_PEEK,                 "xQueuePeek",           "xQueuePeek",            "xQueuePeek",                 NONE,    NONE, NONE,    SUCCESS)     \
    X(5,  QUEUE_PEEK_FAILED,          "xQueuePeek",           "xQueuePeek",            "xQueuePeek",                 NONE,    NONE, NONE,    TIMEOUT)     \
    X(6,  QUEUE_SEND_FROM_ISR,        "xQueueSendFromISR",    "xSemaphoreGiveFromISR", "queue set send from ISR",    SEND,    GIVE, RELEASE, SUCCESS)     \
    X(7,  QUEUE_SEND_FROM_ISR_FAILED, "xQueueSendFromISR",    "xSemaphoreGiveFromISR", "queue set send from ISR",    SEND,    GIVE, RELEASE, WOULD_BLOCK) \
    X(8,  QUEUE_RECEIVE_FROM_ISR,     "xQueueReceiveFromISR", "xSemaphoreTakeFromISR", "xQueueSelectFromSetFromISR", RECEIVE, TAKE, ACQUIRE, SUCCESS)     \
    X(9,  QUEUE_RECEIVE_FROM_ISR_FAILED, "xQueueReceiveFromISR", "xSemaphoreTakeFromISR", "xQueueSelectFromSetFromISR", RECEIVE, TAKE, ACQUIRE, WOULD_BLOCK) \
    X(10, QUEUE_PEEK_FROM_ISR,        "xQueuePeekFromISR",    "xQueuePeekFromISR",     "xQueuePeekFromISR",          NONE,    NONE, NONE,    SUCCESS)     \
    X(11, QUEUE_PEEK_FROM_ISR_FAILED, "xQueuePeekFromISR",    "xQueuePeekFromISR",     "xQueuePeekFromISR",          NONE,    NONE, NONE,    WOULD_BLOCK) \
    X(12, QUEUE_SEND_REFUSED,         "xQueueSend",           "xSemaphoreGive",        "queue set send",             SEND,    GIVE, RELEASE, WOULD_BLOCK) \
    X(13, QUEUE_RECEIVE_REFUSED,      "xQueueReceive",        "xSemaphoreTake",        "xQueueSelectFromSet",        RECEIVE, TAKE, ACQUIRE, WOULD_BLOCK) \
    X(14, QUEUE_PEEK_REFUSED,         "xQueuePeek",           "xQueuePeek",            "xQueuePeek",                 NONE,    NONE, NONE,    WOULD_BLOCK)

/* FreeRTOS queue types (ucQueueType). X(type, NAME, generic object type EVT_HOOK_OBJ_*) */
#define EVT_FREERTOS_QTYPE_TABLE(X, E)          \
    X(E, 0, QUEUE,           QUEUE)             \
    X(E, 1, MUTEX,           MUTEX)             \
    X(E, 2, COUNTING_SEM,    SEMAPHORE)         \
    X(E, 3, BINARY_SEM,      SEMAPHORE)         \
    X(E, 4, RECURSIVE_MUTEX, MUTEX)             \
    X(E, 5, QUEUE_SET,       QUEUE_SET)
#define EVT_FREERTOS_QTYPE_N 6u /* types 0..5 used */
#define EVT_FREERTOS_QTYPES 8u /* codes per queue event */
#define EVT_FREERTOS_QCODE(event, qtype) (0x100u + (unsigned)(event) * EVT_FREERTOS_QTYPES + ((unsigned)(qtype) & 7u))
/* Every other operation. X(code, NAME, label, op, generic object type, result); codes increase.
 * xEventGroupSetBitsFromISR / ClearBitsFromISR only send the request to the timer daemon
 * (xTimerPendFunctionCallFromISR), which then calls xEventGroupSetBits / ClearBits, recorded as the
 * set or clear itself: their op is send, so that each change of the bits counts once (before, set
 * from an ISR counted twice: 400 sets for an application's 200).
 * result DEPENDS: the return value decides (> 0 or pdPASS success, else would_block/timeout; for
 * the queue-set add/remove, pdPASS success, else error). The recursive-mutex rows are the takes and
 * gives that make no queue record: a nested take (the holder takes again) and a give that leaves
 * the mutex held; the outermost take and the last give are QUEUE_RECEIVE/QUEUE_SEND of the mutex
 * (queue.c: xQueueTakeMutexRecursive, xQueueGiveMutexRecursive; freertos_trace.h). A notification
 * that could not be written (eSetValueWithoutOverwrite on a task with one pending: pdFAIL) is
 * TASK_NOTIFY_FAILED / TASK_NOTIFY_FROM_ISR_FAILED, the same call with result error (before them
 * every notification was recorded as TASK_NOTIFY, a success). The _REFUSED rows (3 Dec 2026) are a
 * wait for bits or a notification with no block time (xTicksToWait 0, FreeRTOS's argument, which
 * these calls do not change) that found nothing: would_block, where _TIMEOUT (or a take or wait
 * returning 0) is a wait that ran out. TICK: a tick (the task it interrupted,
 * the tick count), recorded only as the trace clock's keep-alive (evt_freertos_tick). */
#define EVT_FREERTOS_SVC_TABLE(X)                                                                      \
    X(0x400, EVENT_GROUP_SET_BITS,          "xEventGroupSetBits",          SET,     EVENT_FLAGS, SUCCESS) \
    X(0x401, EVENT_GROUP_SET_BITS_FROM_ISR, "xEventGroupSetBitsFromISR",   SEND,    EVENT_FLAGS, SUCCESS) \
    X(0x402, EVENT_GROUP_CLEAR_BITS,        "xEventGroupClearBits",        CLEAR,   EVENT_FLAGS, SUCCESS) \
    X(0x403, EVENT_GROUP_CLEAR_BITS_FROM_ISR, "xEventGroupClearBitsFromISR", SEND,  EVENT_FLAGS, SUCCESS) \
    X(0x404, EVENT_GROUP_WAIT_BITS_END,     "xEventGroupWaitBits",         WAIT,    EVENT_FLAGS, SUCCESS) \
    X(0x405, EVENT_GROUP_WAIT_BITS_TIMEOUT, "xEventGroupWaitBits",         WAIT,    EVENT_FLAGS, TIMEOUT) \
    X(0x406, EVENT_GROUP_SYNC_END,          "xEventGroupSync",             WAIT,    EVENT_FLAGS, SUCCESS) \
    X(0x407, EVENT_GROUP_SYNC_TIMEOUT,      "xEventGroupSync",             WAIT,    EVENT_FLAGS, TIMEOUT) \
    X(0x408, EVENT_GROUP_WAIT_BITS_REFUSED, "xEventGroupWaitBits",         WAIT,    EVENT_FLAGS, WOULD_BLOCK) \
    X(0x409, EVENT_GROUP_SYNC_REFUSED,      "xEventGroupSync",             WAIT,    EVENT_FLAGS, WOULD_BLOCK) \
    X(0x410, STREAM_BUFFER_SEND,            "xStreamBufferSend",           SEND,    MSGBUF,      SUCCESS) \
    X(0x411, STREAM_BUFFER_SEND_FAILED,     "xStreamBufferSend",           SEND,    MSGBUF,      TIMEOUT) \
    X(0x412, STREAM_BUFFER_SEND_FROM_ISR,   "xStreamBufferSendFromISR",    SEND,    MSGBUF,      DEPENDS) \
    X(0x413, STREAM_BUFFER_RECEIVE,         "xStreamBufferReceive",        RECEIVE, MSGBUF,      SUCCESS) \
    X(0x414, STREAM_BUFFER_RECEIVE_FAILED,  "xStreamBufferReceive",        RECEIVE, MSGBUF,      TIMEOUT) \
    X(0x415, STREAM_BUFFER_RECEIVE_FROM_ISR, "xStreamBufferReceiveFromISR", RECEIVE, MSGBUF,     DEPENDS) \
    X(0x416, STREAM_BUFFER_RESET,           "xStreamBufferReset",          CLEAR,   MSGBUF,      SUCCESS) \
    X(0x418, TAKE_MUTEX_RECURSIVE,          "xSemaphoreTakeRecursive",     ACQUIRE, MUTEX,       SUCCESS) \
    X(0x419, GIVE_MUTEX_RECURSIVE,          "xSemaphoreGiveRecursive",     RELEASE, MUTEX,       SUCCESS) \
    X(0x41A, GIVE_MUTEX_RECURSIVE_FAILED,   "xSemaphoreGiveRecursive",     RELEASE, MUTEX,       ERROR)   \
    X(0x41C, QUEUE_SET_ADD,                 "xQueueAddToSet",              ADD,     QUEUE_SET,   DEPENDS) \
    X(0x41D, QUEUE_SET_REMOVE,              "xQueueRemoveFromSet",         REMOVE,  QUEUE_SET,   DEPENDS) \
    X(0x420, TASK_NOTIFY,                   "xTaskNotify",                 SET,     THREAD,      SUCCESS) \
    X(0x421, TASK_NOTIFY_FROM_ISR,          "xTaskNotifyFromISR",          SET,     THREAD,      SUCCESS) \
    X(0x422, TASK_NOTIFY_GIVE_FROM_ISR,     "vTaskNotifyGiveFromISR",      GIVE,    THREAD,      SUCCESS) \
    X(0x423, TASK_NOTIFY_TAKE,              "ulTaskNotifyTake",            TAKE,    THREAD,      DEPENDS) \
    X(0x424, TASK_NOTIFY_WAIT,              "xTaskNotifyWait",             WAIT,    THREAD,      DEPENDS) \
    X(0x425, TASK_NOTIFY_FAILED,            "xTaskNotify",                 SET,     THREAD,      ERROR)   \
    X(0x426, TASK_NOTIFY_FROM_ISR_FAILED,   "xTaskNotifyFromISR",          SET,     THREAD,      ERROR)   \
    X(0x427, TASK_NOTIFY_TAKE_REFUSED,      "ulTaskNotifyTake",            TAKE,    THREAD,      WOULD_BLOCK) \
    X(0x428, TASK_NOTIFY_WAIT_REFUSED,      "xTaskNotifyWait",             WAIT,    THREAD,      WOULD_BLOCK) \
    X(0x430, TASK_DELAY,                    "vTaskDelay",                  NONE,    THREAD,      SUCCESS) \
    X(0x431, TASK_DELAY_UNTIL,              "xTaskDelayUntil",             NONE,    THREAD,      SUCCESS) \
    X(0x432, TASK_SUSPEND,                  "vTaskSuspend",                NONE,    THREAD,      SUCCESS) \
    X(0x433, TASK_RESUME,                   "vTaskResume",                 NONE,    THREAD,      SUCCESS) \
    X(0x434, TASK_RESUME_FROM_ISR,          "xTaskResumeFromISR",          NONE,    THREAD,      SUCCESS) \
    X(0x440, TIMER_COMMAND_SEND,            "xTimerGenericCommand",        SEND,    TIMER,       DEPENDS) \
    X(0x441, TIMER_EXPIRED,                 "timer callback",              NONE,    TIMER,       SUCCESS) \
    X(0x442, TIMER_COMMAND_RECEIVED,        "timer command",               RECEIVE, TIMER,       SUCCESS) \
    X(0x450, TICK,                          "xTaskIncrementTick",          NONE,    THREAD,      SUCCESS)

/* The V11 API calls recorded as service spans (traceENTER_<fn> -> svc_enter, traceRETURN_<fn> ->
 * svc_leave with the return value): the calls that may block. X(code, function). Their operation is
 * the obj_op record inside them (above): these rows have no operation of their own. */
#define EVT_FREERTOS_API_TABLE(X)           \
    X(0x800, xQueueGenericSend)             \
    X(0x801, xQueueReceive)                 \
    X(0x802, xQueueSemaphoreTake)           \
    X(0x803, xQueuePeek)                    \
    X(0x804, xQueueTakeMutexRecursive)      \
    X(0x805, xQueueGiveMutexRecursive)      \
    X(0x806, vTaskDelay)                    \
    X(0x807, xTaskDelayUntil)               \
    X(0x808, xEventGroupWaitBits)           \
    X(0x809, xEventGroupSync)               \
    X(0x80A, ulTaskGenericNotifyTake)       \
    X(0x80B, xTaskGenericNotifyWait)        \
    X(0x80C, xStreamBufferSend)             \
    X(0x80D, xStreamBufferReceive)

enum evt_freertos_svc {
#define EVT_FREERTOS_API_ENUM_(code, fn) EVT_FREERTOS_API_##fn = code,
    EVT_FREERTOS_API_TABLE(EVT_FREERTOS_API_ENUM_)
#undef EVT_FREERTOS_API_ENUM_
#define EVT_FREERTOS_SVC_ENUM_(code, name, label, op, obj, res) EVT_FREERTOS_##name = code,
    EVT_FREERTOS_SVC_TABLE(EVT_FREERTOS_SVC_ENUM_)
#undef EVT_FREERTOS_SVC_ENUM_
#define EVT_FREERTOS_QEV_ENUM_(ix, name, ql, sl, setl, qop, sop, mop, res) EVT_FREERTOS_QEV_##name = ix,
    EVT_FREERTOS_QEVENT_TABLE(EVT_FREERTOS_QEV_ENUM_)
#undef EVT_FREERTOS_QEV_ENUM_
    EVT_FREERTOS_SVC_END_
};

/* FreeRTOS task states (eTaskState): the native state a switch records. X(value, name, generic) */
#define EVT_FREERTOS_STATE_TABLE(X)        \
    X(0, eRunning,   READY)                \
    X(1, eReady,     READY)                \
    X(2, eBlocked,   WAITING)              \
    X(3, eSuspended, SUSPENDED)            \
    X(4, eDeleted,   DELETED)

#endif
