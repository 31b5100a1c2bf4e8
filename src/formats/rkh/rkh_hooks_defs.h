/* The records of the RKH-stream hooks backend (rkh_hooks.h), shared by the recorder
 * (rkh_hooks_enc.c) and the reader (rkh_hooks_dec.c): user event number, name (written as its
 * FWK_TUSR symbol) and field layout of each hook. No dependencies: host and target include it. */
#ifndef EVT_RKH_HOOKS_DEFS_H
#define EVT_RKH_HOOKS_DEFS_H

/* The FWK_TUSR symbol of each hook record is this prefix + its table name ("hook.thread_in"); a
 * reader names the record by the table name alone. */
#define RKH_HOOKS_PREFIX "hook."

/* X(user event n, NAME, table name)                         fields */
#define RKH_HOOKS_TABLE(X)                                                                       \
    X(0, KERNEL_INFO, "kernel_info")      /* UI32 kernel, UI32 version */                         \
    X(1, THREAD_IN,   "thread_in")        /* OBJ thread, UI32 prio */                             \
    X(2, THREAD_OUT,  "thread_out")       /* OBJ thread, UI8 state (evt_hook_state), UI32 native */ \
    X(3, ISR_ENTER,   "isr_enter")        /* UI32 irq */                                          \
    X(4, ISR_EXIT,    "isr_exit")         /* UI32 irq */                                          \
    X(5, SVC_ENTER,   "svc_enter")        /* I32 code, X32 args[0..nargs-1] */                    \
    X(6, SVC_LEAVE,   "svc_leave")        /* I32 code, I32 ret, UI8 paired */                     \
    X(7, OBJ_CREATE,  "obj_create")       /* UI8 type (evt_hook_obj), OBJ obj, UI32 param */      \
    X(8, OBJ_DELETE,  "obj_delete")       /* UI8 type, OBJ obj */                                 \
    X(9, USER,        "user")             /* UI32 id, UI32 a1..a4 */                              \
    X(20, THREAD_SWITCH, "thread_switch")      /* OBJ from, UI8 state, UI32 native, OBJ blocked_on, OBJ to, UI32 prio */ \
    X(21, THREAD_READY, "thread_ready")        /* OBJ thread */                                     \
    X(22, PRIO_SET,     "prio_set")            /* OBJ thread, UI32 prio, UI8 why (evt_hook_prio_why) */ \
    X(23, OBJ_NAME,     "obj_name")            /* UI8 type, OBJ obj (named by the FWK_OBJ before it) */ \
    X(24, OBJ_OP,       "obj_op")              /* I32 code, OBJ obj, I32 ret */                   \
    X(25, CLOCK,        "clock")               /* UI32 magic, UI32 kernel, UI32 hz low, UI32 hz high */ \
    X(26, IDLE_TASK,    "idle_task")           /* OBJ thread: the kernel's idle task (its running is idle) */

/* hook.clock (rkh_clock_enc.c): the stream's timestamp rate and kernel profile, which TCFG cannot
 * carry (its rate field is 16 bits: 1 MHz arrives as 16960). Its first field is this magic ("evhz",
 * as TXTB's clock entry) so a reader finds the record in the stream's first bytes before it decodes
 * any (rkh_clock_dec.c): every output then has the right time base from the first event. */
#define RKH_HOOKS_CLOCK_MAGIC 0x6576687Au

enum rkh_hook_uevt {
#define RKH_HOOK_ENUM_(n, name, s) RKH_HOOK_##name = n,
    RKH_HOOKS_TABLE(RKH_HOOK_ENUM_)
#undef RKH_HOOK_ENUM_
};

#endif
