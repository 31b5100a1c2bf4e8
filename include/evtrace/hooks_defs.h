/* The generic kernel hooks' tables (evtrace/hooks.h): thread states, object types, kernel
 * profiles, shared by the recorder backends and the host readers that name them. No code. */
#ifndef EVTRACE_HOOKS_DEFS_H
#define EVTRACE_HOOKS_DEFS_H

#include <stdint.h>

/* Why a thread stopped running. X(NAME, value, text) */
#define EVT_HOOK_STATE_TABLE(X)                                              \
    X(READY,          0, "ready")          /* preempted, still ready to run */ \
    X(WAITING,        1, "waiting")        /* blocked: object, sleep, delay */ \
    X(SUSPENDED,      2, "suspended")      /* forcibly suspended */           \
    X(WAIT_SUSPENDED, 3, "wait_suspended") /* both */                         \
    X(DORMANT,        4, "dormant")        /* exited, may be restarted */     \
    X(DELETED,        5, "deleted")        /* no longer exists */

typedef enum evt_hook_state {
#define EVT_HOOK_STATE_ENUM_(n, v, s) EVT_HOOK_STATE_##n = v,
    EVT_HOOK_STATE_TABLE(EVT_HOOK_STATE_ENUM_)
#undef EVT_HOOK_STATE_ENUM_
    EVT_HOOK_STATE_COUNT_
} evt_hook_state;

/* Kernel object types for create/delete. X(NAME, value, text) */
#define EVT_HOOK_OBJ_TABLE(X)                          \
    X(THREAD,        1,  "thread")                     \
    X(SEMAPHORE,     2,  "semaphore")                  \
    X(MUTEX,         3,  "mutex")                      \
    X(EVENT_FLAGS,   4,  "event_flags")                \
    X(MAILBOX,       5,  "mailbox")                    \
    X(MSGBUF,        6,  "message_buffer")             \
    X(TIMER,         7,  "timer")   /* cyclic/alarm handler, software timer */ \
    X(MEMPOOL_FIXED, 8,  "mempool_fixed")              \
    X(MEMPOOL_VAR,   9,  "mempool_var")                \
    X(OTHER,         10, "other")                      \
    X(INTERRUPT,     11, "interrupt") /* handle = the irq number; names an interrupt */ \
    X(QUEUE,         12, "queue")     /* message queue (ThreadX, FreeRTOS) */ \
    X(QUEUE_SET,     13, "queue_set") /* a set of queues/semaphores waited on together (FreeRTOS) */

typedef enum evt_hook_obj {
#define EVT_HOOK_OBJ_ENUM_(n, v, s) EVT_HOOK_OBJ_##n = v,
    EVT_HOOK_OBJ_TABLE(EVT_HOOK_OBJ_ENUM_)
#undef EVT_HOOK_OBJ_ENUM_
    EVT_HOOK_OBJ_COUNT_
} evt_hook_obj;

/* Kernel profiles: tell a reader how to name native service codes and thread states.
 * X(NAME, value, text) */
#define EVT_HOOK_KERNEL_TABLE(X)                 \
    X(GENERIC,  0, "generic")                    \
    X(UTKERNEL, 1, "utkernel") /* codes = μT-Kernel fncd, native state = TTS_* */ \
    X(THREADX,  2, "threadx")  /* ThreadX service ids, TX_* states; lower priority number wins */ \
    X(FREERTOS, 3, "freertos") /* FreeRTOS trace-macro codes, eRunning..eDeleted; higher wins */ \
    X(RKH,      4, "rkh")      /* RKH active objects and state machines */ \
    X(ZEPHYR,   5, "zephyr")   /* lower priority number wins (Zephyr docs; the issue text said higher) */ \
    X(EMBOS,    6, "embos")    /* higher wins */ \
    X(WINDOWS,  7, "windows")  /* ETW traces: a larger priority number is more urgent */

typedef enum evt_hook_kernel {
#define EVT_HOOK_KERNEL_ENUM_(n, v, s) EVT_HOOK_KERNEL_##n = v,
    EVT_HOOK_KERNEL_TABLE(EVT_HOOK_KERNEL_ENUM_)
#undef EVT_HOOK_KERNEL_ENUM_
    EVT_HOOK_KERNEL_COUNT_
} evt_hook_kernel;

/* Why a thread's priority changes (prio_set hook). X(NAME, value, text) */
#define EVT_HOOK_PRIO_WHY_TABLE(X)                                                      \
    X(SET,        0, "set")        /* the application set it (vTaskPrioritySet) */       \
    X(INHERIT,    1, "inherit")    /* raised: it holds a mutex a more urgent thread wants */ \
    X(DISINHERIT, 2, "disinherit") /* the inherited priority was given back */

typedef enum evt_hook_prio_why {
#define EVT_HOOK_PRIO_WHY_ENUM_(n, v, s) EVT_HOOK_PRIO_##n = v,
    EVT_HOOK_PRIO_WHY_TABLE(EVT_HOOK_PRIO_WHY_ENUM_)
#undef EVT_HOOK_PRIO_WHY_ENUM_
    EVT_HOOK_PRIO_WHY_COUNT_
} evt_hook_prio_why;

#define EVT_HOOK_PRIO_UNKNOWN 0xFFFFFFFFu /* thread_in without a known priority */
#define EVT_HOOK_SVC_MAX_ARGS 5          /* arguments a backend may see per service call */

#endif
