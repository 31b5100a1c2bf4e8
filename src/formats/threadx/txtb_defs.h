/* ThreadX event trace (TXTB, TraceX .trx): the one source of truth for layouts, event ids, filter
 * bits and object types, shared by the recorder (txtb_enc.c) and the reader (txtb_dec.c).
 * Facts: shared/formats/threadx.md. Freestanding: no libc.
 *
 * Buffer: [control header 48][registry entry 0..R-1, 16+NAME each][event slot 0..N-1, 32 each][slack]
 * Every field is a 32-bit word (two 16-bit) in the target's byte order; "TXTB" id tells which.
 *
 * Control header (48 bytes)                     Registry entry (16 + name size bytes)
 *  0 trace id 0x54585442                          0 u8 available (1 = free/deleted)
 *  4 timer valid mask                             1 u8 object type (0 = never used)
 *  8 trace base address (= header address)       2 u8 reserved1: threads 0x80 | prio >> 8
 * 12 registry start address                      3 u8 reserved2: threads prio & 0xFF
 * 16 u16 reserved1     18 u16 object name size  4 object pointer
 * 20 registry end address                        8 param 1
 * 24 event buffer start address                 12 param 2
 * 28 event buffer end address                   16 name[name size], NUL-terminated
 * 32 current pointer (next slot; oldest after a wrap)
 * 36 0xAAAAAAAA  40 0xBBBBBBBB  44 0xCCCCCCCC
 * reserved1: 0 from ThreadX; evtrace's recorder counts there the registrations it could not write
 * (registry full), low byte first in either byte order, saturating at 0xFFFF: objects and threads
 * whose names the registry lacks.
 *
 * Event slot (32 bytes)
 *  0 context: thread address | 0xFFFFFFFF ISR | 0xF0F0F0F0 init | 0 never written
 *  4 priority word: thread 0x80000000 | threshold << 16 | priority; ISR: interrupted thread; init 0
 *  8 event id       12 timestamp (raw, unmasked)      16..28 info 1..4
 */
#ifndef EVT_TXTB_DEFS_H
#define EVT_TXTB_DEFS_H

#include <stdint.h>

#define TXTB_ID                 0x54585442u
#define TXTB_HEADER_SIZE        48u
#define TXTB_REG_FIXED_SIZE     16u        /* registry entry size without the name */
#define TXTB_DEFAULT_NAME_SIZE  32u
#define TXTB_EVENT_SIZE         32u
#define TXTB_RESERVED2          0xAAAAAAAAu
#define TXTB_RESERVED3          0xBBBBBBBBu
#define TXTB_RESERVED4          0xCCCCCCCCu

/* Control header field offsets. */
#define TXTB_HDR_ID             0u
#define TXTB_HDR_TIMER_MASK     4u
#define TXTB_HDR_BASE           8u
#define TXTB_HDR_REG_START      12u
#define TXTB_HDR_RESERVED1      16u
#define TXTB_HDR_NAME_SIZE      18u
#define TXTB_HDR_REG_END        20u
#define TXTB_HDR_BUF_START      24u
#define TXTB_HDR_BUF_END        28u
#define TXTB_HDR_CURRENT        32u
#define TXTB_HDR_RESERVED2      36u
#define TXTB_HDR_RESERVED3      40u
#define TXTB_HDR_RESERVED4      44u

/* Registry entry field offsets. */
#define TXTB_REG_AVAILABLE      0u
#define TXTB_REG_TYPE           1u
#define TXTB_REG_RESERVED1      2u
#define TXTB_REG_RESERVED2      3u
#define TXTB_REG_POINTER        4u
#define TXTB_REG_PARAM1         8u
#define TXTB_REG_PARAM2         12u
#define TXTB_REG_NAME           16u
#define TXTB_REG_PRIO_PRESENT   0x80u      /* reserved1 bit 7: priority bytes present */

/* Event slot field offsets. */
#define TXTB_EV_CONTEXT         0u
#define TXTB_EV_PRIORITY        4u
#define TXTB_EV_ID              8u
#define TXTB_EV_TIMESTAMP       12u
#define TXTB_EV_INFO1           16u
#define TXTB_EV_INFO2           20u
#define TXTB_EV_INFO3           24u
#define TXTB_EV_INFO4           28u

/* Context words. */
#define TXTB_CTX_NONE           0x00000000u /* slot never written */
#define TXTB_CTX_ISR            0xFFFFFFFFu
#define TXTB_CTX_INIT           0xF0F0F0F0u
#define TXTB_PRIO_CURRENT_BIT   0x80000000u /* priority word of current ThreadX (thread context) */

/* tx_api.h option values the reader reads in records and registry entries. */
#define TXTB_TX_INHERIT         1u /* a mutex's registry param1: priority inheritance */
#define TXTB_TX_AUTO_ACTIVATE   1u /* TIMER_CREATE's info4: the timer starts at once */

/* Filter bits (tx_trace_event_filter / unfilter masks). X(name, value) */
#define TXTB_FILTER_TABLE(X)                          \
    X(INTERNAL_EVENTS,          0x00000001u)          \
    X(BLOCK_POOL_EVENTS,        0x00000002u)          \
    X(BYTE_POOL_EVENTS,         0x00000004u)          \
    X(EVENT_FLAGS_EVENTS,       0x00000008u)          \
    X(INTERRUPT_CONTROL_EVENT,  0x00000010u)          \
    X(MUTEX_EVENTS,             0x00000020u)          \
    X(QUEUE_EVENTS,             0x00000040u)          \
    X(SEMAPHORE_EVENTS,         0x00000080u)          \
    X(THREAD_EVENTS,            0x00000100u)          \
    X(TIME_EVENTS,              0x00000200u)          \
    X(TIMER_EVENTS,             0x00000400u)          \
    X(USER_EVENTS,              0x80000000u)
#define TXTB_FILTER_ALL_EVENTS  0x000007FFu  /* TX_TRACE_ALL_EVENTS: excludes USER_EVENTS */
#define TXTB_FX_ALL_EVENTS      0x00007800u
#define TXTB_NX_ALL_EVENTS      0x00FF8000u
#define TXTB_UX_ALL_EVENTS      0x7F000000u

/* Short filter-bit names used in the event table below. */
#define TXTB_F_INTERNAL   0x00000001u
#define TXTB_F_BLOCK      0x00000002u
#define TXTB_F_BYTE       0x00000004u
#define TXTB_F_FLAGS      0x00000008u
#define TXTB_F_INTCTL     0x00000010u
#define TXTB_F_MUTEX      0x00000020u
#define TXTB_F_QUEUE      0x00000040u
#define TXTB_F_SEM        0x00000080u
#define TXTB_F_THREAD     0x00000100u
#define TXTB_F_TIME       0x00000200u
#define TXTB_F_TIMER      0x00000400u
#define TXTB_F_USER       0x80000000u

/* Event kinds for the canonical model (host side maps these to evt_kind). */
#define TXTB_K_OTHER  0
#define TXTB_K_RUN    1  /* thread made ready/resumed: info1 = thread */
#define TXTB_K_STOP   2  /* thread suspended: info1 = thread */
#define TXTB_K_ISR_IN 3
#define TXTB_K_ISR_OUT 4
#define TXTB_K_SVC    5  /* a service call, recorded once */
#define TXTB_K_CREATE 6  /* object created: info1 = object */
#define TXTB_K_DELETE 7  /* object deleted: info1 = object */
#define TXTB_K_MARKER 8
#define TXTB_K_LOST   9
#define TXTB_K_SVC_ENTER 10 /* generic-hooks service call entry (EVTRACE_SVC_ENTER) */
#define TXTB_K_SVC_EXIT  11 /* generic-hooks service call return (EVTRACE_SVC_EXIT) */

/* ThreadX event ids. X(id, NAME without TX_TRACE_, filter bit, kind) */
#define TXTB_EVENT_TABLE(X)                                                        \
    X(1,   THREAD_RESUME,                          TXTB_F_INTERNAL, TXTB_K_RUN)     \
    X(2,   THREAD_SUSPEND,                         TXTB_F_INTERNAL, TXTB_K_STOP)    \
    X(3,   ISR_ENTER,                              TXTB_F_INTERNAL, TXTB_K_ISR_IN)  \
    X(4,   ISR_EXIT,                               TXTB_F_INTERNAL, TXTB_K_ISR_OUT) \
    X(5,   TIME_SLICE,                             TXTB_F_INTERNAL, TXTB_K_OTHER)   \
    X(6,   RUNNING,                                TXTB_F_INTERNAL, TXTB_K_MARKER)  \
    X(10,  BLOCK_ALLOCATE,                         TXTB_F_BLOCK,    TXTB_K_SVC)     \
    X(11,  BLOCK_POOL_CREATE,                      TXTB_F_BLOCK,    TXTB_K_CREATE)  \
    X(12,  BLOCK_POOL_DELETE,                      TXTB_F_BLOCK,    TXTB_K_DELETE)  \
    X(13,  BLOCK_POOL_INFO_GET,                    TXTB_F_BLOCK,    TXTB_K_SVC)     \
    X(14,  BLOCK_POOL_PERFORMANCE_INFO_GET,        TXTB_F_BLOCK,    TXTB_K_SVC)     \
    X(15,  BLOCK_POOL__PERFORMANCE_SYSTEM_INFO_GET, TXTB_F_BLOCK,   TXTB_K_SVC)     \
    X(16,  BLOCK_POOL_PRIORITIZE,                  TXTB_F_BLOCK,    TXTB_K_SVC)     \
    X(17,  BLOCK_RELEASE,                          TXTB_F_BLOCK,    TXTB_K_SVC)     \
    X(20,  BYTE_ALLOCATE,                          TXTB_F_BYTE,     TXTB_K_SVC)     \
    X(21,  BYTE_POOL_CREATE,                       TXTB_F_BYTE,     TXTB_K_CREATE)  \
    X(22,  BYTE_POOL_DELETE,                       TXTB_F_BYTE,     TXTB_K_DELETE)  \
    X(23,  BYTE_POOL_INFO_GET,                     TXTB_F_BYTE,     TXTB_K_SVC)     \
    X(24,  BYTE_POOL_PERFORMANCE_INFO_GET,         TXTB_F_BYTE,     TXTB_K_SVC)     \
    X(25,  BYTE_POOL__PERFORMANCE_SYSTEM_INFO_GET, TXTB_F_BYTE,     TXTB_K_SVC)     \
    X(26,  BYTE_POOL_PRIORITIZE,                   TXTB_F_BYTE,     TXTB_K_SVC)     \
    X(27,  BYTE_RELEASE,                           TXTB_F_BYTE,     TXTB_K_SVC)     \
    X(30,  EVENT_FLAGS_CREATE,                     TXTB_F_FLAGS,    TXTB_K_CREATE)  \
    X(31,  EVENT_FLAGS_DELETE,                     TXTB_F_FLAGS,    TXTB_K_DELETE)  \
    X(32,  EVENT_FLAGS_GET,                        TXTB_F_FLAGS,    TXTB_K_SVC)     \
    X(33,  EVENT_FLAGS_INFO_GET,                   TXTB_F_FLAGS,    TXTB_K_SVC)     \
    X(34,  EVENT_FLAGS_PERFORMANCE_INFO_GET,       TXTB_F_FLAGS,    TXTB_K_SVC)     \
    X(35,  EVENT_FLAGS__PERFORMANCE_SYSTEM_INFO_GET, TXTB_F_FLAGS,  TXTB_K_SVC)     \
    X(36,  EVENT_FLAGS_SET,                        TXTB_F_FLAGS,    TXTB_K_SVC)     \
    X(37,  EVENT_FLAGS_SET_NOTIFY,                 TXTB_F_FLAGS,    TXTB_K_SVC)     \
    X(40,  INTERRUPT_CONTROL,                      TXTB_F_INTCTL,   TXTB_K_SVC)     \
    X(50,  MUTEX_CREATE,                           TXTB_F_MUTEX,    TXTB_K_CREATE)  \
    X(51,  MUTEX_DELETE,                           TXTB_F_MUTEX,    TXTB_K_DELETE)  \
    X(52,  MUTEX_GET,                              TXTB_F_MUTEX,    TXTB_K_SVC)     \
    X(53,  MUTEX_INFO_GET,                         TXTB_F_MUTEX,    TXTB_K_SVC)     \
    X(54,  MUTEX_PERFORMANCE_INFO_GET,             TXTB_F_MUTEX,    TXTB_K_SVC)     \
    X(55,  MUTEX_PERFORMANCE_SYSTEM_INFO_GET,      TXTB_F_MUTEX,    TXTB_K_SVC)     \
    X(56,  MUTEX_PRIORITIZE,                       TXTB_F_MUTEX,    TXTB_K_SVC)     \
    X(57,  MUTEX_PUT,                              TXTB_F_MUTEX,    TXTB_K_SVC)     \
    X(60,  QUEUE_CREATE,                           TXTB_F_QUEUE,    TXTB_K_CREATE)  \
    X(61,  QUEUE_DELETE,                           TXTB_F_QUEUE,    TXTB_K_DELETE)  \
    X(62,  QUEUE_FLUSH,                            TXTB_F_QUEUE,    TXTB_K_SVC)     \
    X(63,  QUEUE_FRONT_SEND,                       TXTB_F_QUEUE,    TXTB_K_SVC)     \
    X(64,  QUEUE_INFO_GET,                         TXTB_F_QUEUE,    TXTB_K_SVC)     \
    X(65,  QUEUE_PERFORMANCE_INFO_GET,             TXTB_F_QUEUE,    TXTB_K_SVC)     \
    X(66,  QUEUE_PERFORMANCE_SYSTEM_INFO_GET,      TXTB_F_QUEUE,    TXTB_K_SVC)     \
    X(67,  QUEUE_PRIORITIZE,                       TXTB_F_QUEUE,    TXTB_K_SVC)     \
    X(68,  QUEUE_RECEIVE,                          TXTB_F_QUEUE,    TXTB_K_SVC)     \
    X(69,  QUEUE_SEND,                             TXTB_F_QUEUE,    TXTB_K_SVC)     \
    X(70,  QUEUE_SEND_NOTIFY,                      TXTB_F_QUEUE,    TXTB_K_SVC)     \
    X(80,  SEMAPHORE_CEILING_PUT,                  TXTB_F_SEM,      TXTB_K_SVC)     \
    X(81,  SEMAPHORE_CREATE,                       TXTB_F_SEM,      TXTB_K_CREATE)  \
    X(82,  SEMAPHORE_DELETE,                       TXTB_F_SEM,      TXTB_K_DELETE)  \
    X(83,  SEMAPHORE_GET,                          TXTB_F_SEM,      TXTB_K_SVC)     \
    X(84,  SEMAPHORE_INFO_GET,                     TXTB_F_SEM,      TXTB_K_SVC)     \
    X(85,  SEMAPHORE_PERFORMANCE_INFO_GET,         TXTB_F_SEM,      TXTB_K_SVC)     \
    X(86,  SEMAPHORE__PERFORMANCE_SYSTEM_INFO_GET, TXTB_F_SEM,      TXTB_K_SVC)     \
    X(87,  SEMAPHORE_PRIORITIZE,                   TXTB_F_SEM,      TXTB_K_SVC)     \
    X(88,  SEMAPHORE_PUT,                          TXTB_F_SEM,      TXTB_K_SVC)     \
    X(89,  SEMAPHORE_PUT_NOTIFY,                   TXTB_F_SEM,      TXTB_K_SVC)     \
    X(100, THREAD_CREATE,                          TXTB_F_THREAD,   TXTB_K_CREATE)  \
    X(101, THREAD_DELETE,                          TXTB_F_THREAD,   TXTB_K_DELETE)  \
    X(102, THREAD_ENTRY_EXIT_NOTIFY,               TXTB_F_THREAD,   TXTB_K_SVC)     \
    X(103, THREAD_IDENTIFY,                        TXTB_F_THREAD,   TXTB_K_SVC)     \
    X(104, THREAD_INFO_GET,                        TXTB_F_THREAD,   TXTB_K_SVC)     \
    X(105, THREAD_PERFORMANCE_INFO_GET,            TXTB_F_THREAD,   TXTB_K_SVC)     \
    X(106, THREAD_PERFORMANCE_SYSTEM_INFO_GET,     TXTB_F_THREAD,   TXTB_K_SVC)     \
    X(107, THREAD_PREEMPTION_CHANGE,               TXTB_F_THREAD,   TXTB_K_SVC)     \
    X(108, THREAD_PRIORITY_CHANGE,                 TXTB_F_THREAD,   TXTB_K_SVC)     \
    X(109, THREAD_RELINQUISH,                      TXTB_F_THREAD,   TXTB_K_SVC)     \
    X(110, THREAD_RESET,                           TXTB_F_THREAD,   TXTB_K_SVC)     \
    X(111, THREAD_RESUME_API,                      TXTB_F_THREAD,   TXTB_K_SVC)     \
    X(112, THREAD_SLEEP,                           TXTB_F_THREAD,   TXTB_K_SVC)     \
    X(113, THREAD_STACK_ERROR_NOTIFY,              TXTB_F_THREAD,   TXTB_K_SVC)     \
    X(114, THREAD_SUSPEND_API,                     TXTB_F_THREAD,   TXTB_K_SVC)     \
    X(115, THREAD_TERMINATE,                       TXTB_F_THREAD,   TXTB_K_SVC)     \
    X(116, THREAD_TIME_SLICE_CHANGE,               TXTB_F_THREAD,   TXTB_K_SVC)     \
    X(117, THREAD_WAIT_ABORT,                      TXTB_F_THREAD,   TXTB_K_SVC)     \
    X(120, TIME_GET,                               TXTB_F_TIME,     TXTB_K_SVC)     \
    X(121, TIME_SET,                               TXTB_F_TIME,     TXTB_K_SVC)     \
    X(122, TIMER_ACTIVATE,                         TXTB_F_TIMER,    TXTB_K_SVC)     \
    X(123, TIMER_CHANGE,                           TXTB_F_TIMER,    TXTB_K_SVC)     \
    X(124, TIMER_CREATE,                           TXTB_F_TIMER,    TXTB_K_CREATE)  \
    X(125, TIMER_DEACTIVATE,                       TXTB_F_TIMER,    TXTB_K_SVC)     \
    X(126, TIMER_DELETE,                           TXTB_F_TIMER,    TXTB_K_DELETE)  \
    X(127, TIMER_INFO_GET,                         TXTB_F_TIMER,    TXTB_K_SVC)     \
    X(128, TIMER_PERFORMANCE_INFO_GET,             TXTB_F_TIMER,    TXTB_K_SVC)     \
    X(129, TIMER_PERFORMANCE_SYSTEM_INFO_GET,      TXTB_F_TIMER,    TXTB_K_SVC)     \
    X(190, EVTRACE_LOST,                           0,               TXTB_K_LOST)     \
    X(191, EVTRACE_SVC_ENTER,                      TXTB_F_INTERNAL, TXTB_K_SVC_ENTER) \
    X(192, EVTRACE_SVC_EXIT,                       TXTB_F_INTERNAL, TXTB_K_SVC_EXIT) \
    X(195, EVTRACE_SWITCH,                         TXTB_F_INTERNAL, TXTB_K_OTHER)   \
    X(196, EVTRACE_READY,                          TXTB_F_INTERNAL, TXTB_K_OTHER)   \
    X(197, EVTRACE_PRIO,                           TXTB_F_INTERNAL, TXTB_K_OTHER)   \
    X(198, EVTRACE_OBJ_OP,                         TXTB_F_INTERNAL, TXTB_K_OTHER)

/* evtrace's own record (not ThreadX's): id 190 lies in ThreadX's reserved range 1-199 but is
 * unused by ThreadX. It is written before the next record after records were dropped, and once at
 * disable when records were dropped or overwritten by a wrap since the last one (never in a
 * loss-free run that did not wrap): info1 = records dropped since the previous EVTRACE_LOST (plus
 * the counts of LOST records a wrap overwrote, carried again), info2 = total of info1 since
 * enable, info3 = 0x65767472 ("evtr" marker), info4 = records overwritten by wraps since the
 * previous LOST record that carried them (0 except at disable). Records lost = info1 + info4.
 * TraceX shows it as an unknown event. */
#define TXTB_EVTRACE_LOST_ID     190u
#define TXTB_EVTRACE_LOST_MAGIC  0x65767472u

/* evtrace generic kernel hooks (include/evtrace/hooks.h, backend txtb_hooks_enc.c, docs/hooks.md):
 * 191 EVTRACE_SVC_ENTER info1 = service code (e.g. a μT-Kernel fncd), info2..4 = its first three args
 * 192 EVTRACE_SVC_EXIT  info1 = service code, info2 = return value, info3 = 1 if the matching enter
 *                       was seen (0: leave without enter), info4 = 0
 * A registry entry of type EVTRACE_HOOKS (object pointer TXTB_HOOKS_MAGIC, param1 = kernel profile,
 * param2 = hooks layout version, name = profile name) marks a buffer written by the hooks backend:
 * then THREAD_RESUME/SUSPEND info3 = generic state << 16 | the kernel's native state, and an entry of
 * type EVTRACE_HOOKS with pointer TXTB_HOOKS_IRQ_BASE | n names interrupt n. */
/* The RTOS hooks (hooks.h: thread_switch, thread_ready, prio_set, obj_op), same context word rules:
 * 195 EVTRACE_SWITCH  context = the stopping thread (or init when none), info1 = the thread switched
 *                     in, info2 = its priority, info3 = generic state << 16 | native (16 bits),
 *                     info4 = the object the stopping thread blocks on (0: none)
 * 196 EVTRACE_READY   info1 = the thread made ready
 * 197 EVTRACE_PRIO    info1 = thread, info2 = its new priority, info3 = why (evt_hook_prio_why)
 * 198 EVTRACE_OBJ_OP  info1 = service code, info2 = object, info3 = return value
 * obj_name re-registers the object (the registry keeps one entry per pointer: the last name). */
#define TXTB_EVTRACE_SWITCH_ID    195u
#define TXTB_EVTRACE_READY_ID     196u
#define TXTB_EVTRACE_PRIO_ID      197u
#define TXTB_EVTRACE_OBJ_OP_ID    198u
#define TXTB_EVTRACE_SVC_ENTER_ID 191u
#define TXTB_EVTRACE_SVC_EXIT_ID  192u
#define TXTB_HOOKS_MAGIC          0x65766B68u  /* "evkh" */
#define TXTB_HOOKS_VERSION        1u
#define TXTB_HOOKS_IRQ_BASE       0x69720000u  /* registry pointer of interrupt n: base | n ("ir") */
/* A registry entry of type EVTRACE_HOOKS with pointer TXTB_HOOKS_CLOCK_MAGIC carries the rate of
 * the buffer's timestamps: param1 = Hz low 32 bits, param2 = high 32 bits, name "clock_hz". */
#define TXTB_HOOKS_CLOCK_MAGIC    0x6576687Au  /* "evhz" */
/* A registry entry of type EVTRACE_HOOKS with pointer TXTB_HOOKS_IDLE_BASE | n (n < 256: the core)
 * says that a thread is the kernel's idle task, which the kernel runs when no other thread is
 * ready (FreeRTOS's IDLE): param1 = its handle as TXTB records name threads (32 bits), param2 = 0, name
 * "idle_task". The reader counts that thread's running as idle time (docs/freertos.md "Idle"). */
#define TXTB_HOOKS_IDLE_BASE      0x65766900u  /* "evi" */
/* A hooks buffer's <TYPE>_CREATE or _DELETE record whose id names another type than the object's
 * (a message buffer or a queue set created as a QUEUE_CREATE: txtb_hooks_objmap.h) has info4 = this
 * tag | the generic object type (evt_hook_obj, low 8 bits); other create and delete records keep
 * info4 0 (deletes did until 7 Dec 2026: such a delete then says queue). */
#define TXTB_HOOKS_OBJTYPE_TAG    0x65740000u  /* "et" */
#define TXTB_HOOKS_OBJTYPE_MASK   0xFFFFFF00u

/* What an info word of a ThreadX event is, where the host names it as a numeric field (threadx.md
 * §3 table: counts and states are the values before the call). X(role, field name) */
#define TXTB_ROLE_TABLE(X)                                                        \
    X(NONE,            0)                                                         \
    X(STK,             "stk")             /* stack-pointer sample of the recording context */ \
    X(ENQUEUED,        "enqueued")        /* messages in the queue */              \
    X(SEM_COUNT,       "sem_count")       /* semaphore count */                    \
    X(AVAILABLE,       "available")       /* free blocks / bytes of a pool */      \
    X(FLAGS,           "flags")           /* current event flags of the group */   \
    X(SUSPENDED,       "suspended")       /* threads suspended on the object */    \
    X(OWNER,           "owner")           /* mutex owner (0 = free) */             \
    X(OWNERSHIP_COUNT, "ownership_count") /* mutex ownership count */              \
    X(STACK_START,     "stack_start")     /* created thread's stack start */       \
    X(STACK_SIZE,      "stack_size")      /* created thread's stack size */          \
    X(NEXT,            "next_thread")     /* _tx_thread_execute_ptr: the thread to run next */ \
    X(NEW_PRIO,        "new_priority")    /* the thread's priority from now on (tx_thread_priority_change) */ \
    X(OLD_PRIO,        "old_priority")    /* its priority before the call */

enum txtb_info_role {
#define TXTB_ROLE_ENUM_(r, name) TXTB_R_##r,
    TXTB_ROLE_TABLE(TXTB_ROLE_ENUM_)
#undef TXTB_ROLE_ENUM_
    TXTB_R_COUNT_
};

/* Roles of info 1..4 per ThreadX event (events not listed: none). X(NAME, info1, info2, info3, info4) */
#define TXTB_INFO_ROLE_TABLE(X)                                                   \
    X(THREAD_RESUME,           NONE, NONE,      STK,       NONE)                  \
    X(THREAD_SUSPEND,          NONE, NONE,      STK,       NONE)                  \
    X(ISR_ENTER,               STK,  NONE,      NONE,      NONE)                  \
    X(ISR_EXIT,                STK,  NONE,      NONE,      NONE)                  \
    X(TIME_SLICE,              NEXT, NONE,      NONE,      STK)                   \
    X(BLOCK_ALLOCATE,          NONE, NONE,      NONE,      AVAILABLE)             \
    X(BLOCK_POOL_DELETE,       NONE, STK,       NONE,      NONE)                  \
    X(BLOCK_POOL_PRIORITIZE,   NONE, SUSPENDED, STK,       NONE)                  \
    X(BLOCK_RELEASE,           NONE, NONE,      SUSPENDED, STK)                   \
    X(BYTE_POOL_CREATE,        NONE, NONE,      NONE,      STK)                   \
    X(BYTE_POOL_DELETE,        NONE, STK,       NONE,      NONE)                  \
    X(BYTE_POOL_PRIORITIZE,    NONE, SUSPENDED, STK,       NONE)                  \
    X(BYTE_RELEASE,            NONE, NONE,      SUSPENDED, AVAILABLE)             \
    X(EVENT_FLAGS_CREATE,      NONE, STK,       NONE,      NONE)                  \
    X(EVENT_FLAGS_DELETE,      NONE, STK,       NONE,      NONE)                  \
    X(EVENT_FLAGS_GET,         NONE, NONE,      FLAGS,     NONE)                  \
    X(EVENT_FLAGS_SET,         NONE, NONE,      NONE,      SUSPENDED)             \
    X(INTERRUPT_CONTROL,       NONE, STK,       NONE,      NONE)                  \
    X(MUTEX_CREATE,            NONE, NONE,      STK,       NONE)                  \
    X(MUTEX_DELETE,            NONE, STK,       NONE,      NONE)                  \
    X(MUTEX_GET,               NONE, NONE,      OWNER,     OWNERSHIP_COUNT)       \
    X(MUTEX_PRIORITIZE,        NONE, SUSPENDED, STK,       NONE)                  \
    X(MUTEX_PUT,               NONE, OWNER,     OWNERSHIP_COUNT, STK)             \
    X(QUEUE_DELETE,            NONE, STK,       NONE,      NONE)                  \
    X(QUEUE_FLUSH,             NONE, STK,       NONE,      NONE)                  \
    X(QUEUE_FRONT_SEND,        NONE, NONE,      NONE,      ENQUEUED)              \
    X(QUEUE_PRIORITIZE,        NONE, SUSPENDED, STK,       NONE)                  \
    X(QUEUE_RECEIVE,           NONE, NONE,      NONE,      ENQUEUED)              \
    X(QUEUE_SEND,              NONE, NONE,      NONE,      ENQUEUED)              \
    X(SEMAPHORE_CEILING_PUT,   NONE, SEM_COUNT, SUSPENDED, NONE)                  \
    X(SEMAPHORE_CREATE,        NONE, NONE,      STK,       NONE)                  \
    X(SEMAPHORE_DELETE,        NONE, STK,       NONE,      NONE)                  \
    X(SEMAPHORE_GET,           NONE, NONE,      SEM_COUNT, STK)                   \
    X(SEMAPHORE_PRIORITIZE,    NONE, SUSPENDED, STK,       NONE)                  \
    X(SEMAPHORE_PUT,           NONE, SEM_COUNT, SUSPENDED, STK)                   \
    X(THREAD_CREATE,           NONE, NONE,      STACK_START, STACK_SIZE)          \
    X(THREAD_DELETE,           NONE, STK,       NONE,      NONE)                  \
    X(THREAD_PRIORITY_CHANGE,  NONE, NEW_PRIO,  OLD_PRIO,  NONE)                  \
    X(THREAD_RELINQUISH,       STK,  NEXT,      NONE,      NONE)                  \
    X(THREAD_RESUME_API,       NONE, NONE,      STK,       NONE)                  \
    X(THREAD_SLEEP,            NONE, NONE,      STK,       NONE)                  \
    X(THREAD_SUSPEND_API,      NONE, NONE,      STK,       NONE)                  \
    X(THREAD_TERMINATE,        NONE, NONE,      STK,       NONE)                  \
    X(TIME_GET,                NONE, STK,       NONE,      NONE)                  \
    X(TIMER_DEACTIVATE,        NONE, STK,       NONE,      NONE)                  \
    X(TIMER_INFO_GET,          NONE, STK,       NONE,      NONE)

/* ThreadX thread states (tx_api.h TX_READY..TX_PRIORITY_CHANGE): the state word of a THREAD_RESUME /
 * THREAD_SUSPEND record, and what it means as a generic stop state (evtrace/hooks_defs.h
 * EVT_HOOK_STATE_*; KEEP: a priority change re-queues the thread, no state change).
 * X(value, NAME without TX_, generic) */
#define TXTB_THREAD_STATE_TABLE(X)          \
    X(0,  READY,           READY)           \
    X(1,  COMPLETED,       DORMANT)         \
    X(2,  TERMINATED,      DORMANT)         \
    X(3,  SUSPENDED,       SUSPENDED)       \
    X(4,  SLEEP,           WAITING)         \
    X(5,  QUEUE_SUSP,      WAITING)         \
    X(6,  SEMAPHORE_SUSP,  WAITING)         \
    X(7,  EVENT_FLAG,      WAITING)         \
    X(8,  BLOCK_MEMORY,    WAITING)         \
    X(9,  BYTE_MEMORY,     WAITING)         \
    X(10, IO_DRIVER,       WAITING)         \
    X(11, FILE,            WAITING)         \
    X(12, TCP_IP,          WAITING)         \
    X(13, MUTEX_SUSP,      WAITING)         \
    X(14, PRIORITY_CHANGE, KEEP)

enum txtb_thread_state {
#define TXTB_TS_ENUM_(v, name, gen) TXTB_STATE_##name = v,
    TXTB_THREAD_STATE_TABLE(TXTB_TS_ENUM_)
#undef TXTB_TS_ENUM_
};

enum txtb_event_id {
#define TXTB_EV_ENUM_(id, name, filt, kind) TXTB_EVENT_##name = id,
    TXTB_EVENT_TABLE(TXTB_EV_ENUM_)
#undef TXTB_EV_ENUM_
};

#define TXTB_USER_EVENT_START   4096u
#define TXTB_USER_EVENT_END     65535u

/* Object types of the registry. X(value, NAME, json type_name) */
#define TXTB_OBJTYPE_TABLE(X)                              \
    X(0,  NONE,                   "not_valid")                  \
    X(1,  THREAD,                 "thread")                \
    X(2,  TIMER,                  "timer")                 \
    X(3,  QUEUE,                  "queue")                 \
    X(4,  SEMAPHORE,              "semaphore")             \
    X(5,  MUTEX,                  "mutex")                 \
    X(6,  EVENT_FLAGS,            "event_flags")           \
    X(7,  BLOCK_POOL,             "block_pool")            \
    X(8,  BYTE_POOL,              "byte_pool")             \
    X(9,  FX_MEDIA,               "fx_media")                 \
    X(10, FX_FILE,                "fx_file")                  \
    X(11, NX_IP,                  "nx_ip")                    \
    X(12, NX_PACKET_POOL,         "nx_packet_pool")           \
    X(13, NX_TCP_SOCKET,          "nx_tcp_socket")            \
    X(14, NX_UDP_SOCKET,          "nx_udp_socket")            \
    X(21, UX_HOST_DEVICE,         "ux_host_device")           \
    X(22, UX_HOST_INTERFACE,      "ux_host_interface")        \
    X(23, UX_HOST_ENDPOINT,       "ux_host_endpoint")         \
    X(24, UX_HOST_CLASS_INSTANCE, "ux_host_class_instance")   \
    X(25, UX_DEVICE_DEVICE,       "ux_device_device")                \
    X(26, UX_DEVICE_INTERFACE,    "ux_device_interface")      \
    X(27, UX_DEVICE_ENDPOINT,     "ux_device_endpoint")       \
    X(28, UX_DEVICE_CLASS_INSTANCE, "ux_device_class_instance") \
    X(127, EVTRACE_HOOKS,         "evtrace_hooks")   /* evtrace: hooks profile marker */

enum txtb_object_type {
#define TXTB_OT_ENUM_(v, name, s) TXTB_OBJ_##name = v,
    TXTB_OBJTYPE_TABLE(TXTB_OT_ENUM_)
#undef TXTB_OT_ENUM_
};

#endif
