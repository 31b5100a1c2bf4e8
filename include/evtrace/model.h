/* The canonical event model: every reader produces evt_event, every exporter and analysis consumes it. */
#ifndef EVTRACE_MODEL_H
#define EVTRACE_MODEL_H

#include <stddef.h>
#include <stdint.h>

/* Normalised event kinds. The string is the public name used in JSON ("kind"). */
#define EVT_KIND_TABLE(X)                                                                     \
    X(EVT_KIND_OTHER,       "other")       /* format event with no normalised meaning */      \
    X(EVT_KIND_THREAD_RUN,  "thread_run")  /* target thread starts running / resumes */       \
    X(EVT_KIND_THREAD_STOP, "thread_stop") /* target thread stops running / suspends */       \
    X(EVT_KIND_ISR_ENTER,   "isr_enter")                                                      \
    X(EVT_KIND_ISR_EXIT,    "isr_exit")                                                       \
    X(EVT_KIND_SVC_ENTER,   "svc_enter")   /* service (system) call entry */                  \
    X(EVT_KIND_SVC_EXIT,    "svc_exit")                                                       \
    X(EVT_KIND_SVC,         "svc")         /* service call recorded as one instant */         \
    X(EVT_KIND_FUNC_ENTER,  "func_enter")                                                     \
    X(EVT_KIND_FUNC_EXIT,   "func_exit")                                                      \
    X(EVT_KIND_USER,        "user")                                                           \
    X(EVT_KIND_OBJ_CREATE,  "obj_create")                                                     \
    X(EVT_KIND_OBJ_DELETE,  "obj_delete")                                                     \
    X(EVT_KIND_MARKER,      "marker")      /* trace start/stop, configuration, symbols */     \
    X(EVT_KIND_LOST,        "lost")        /* data lost: count in evt_event.count */

typedef enum evt_kind {
#define EVT_KIND_ENUM_(e, s) e,
    EVT_KIND_TABLE(EVT_KIND_ENUM_)
#undef EVT_KIND_ENUM_
    EVT_KIND_COUNT_
} evt_kind;

/* Context class of the code that recorded an event. */
typedef enum evt_ctx_class {
    EVT_CTX_NONE = 0, /* unknown or not applicable */
    EVT_CTX_THREAD,
    EVT_CTX_ISR,
    EVT_CTX_INIT
} evt_ctx_class;

#define EVT_MAX_ARGS   16
#define EVT_MAX_FIELDS 24

/* One named extra field of an event ("fields" in JSON). */
typedef struct evt_field {
    const char *key;  /* static or owned by the reader until its next call */
    int is_str;       /* 1: str is the value; 0: num is the value */
    int is_signed;    /* for numbers: print num as int64 */
    uint64_t num;
    const char *str;
} evt_field;

/* Presence flags for the optional members of evt_event. */
enum {
    EVT_HAS_CTX    = 1u << 0,
    EVT_HAS_CPU    = 1u << 1,
    EVT_HAS_PRIO   = 1u << 2,
    EVT_HAS_SEQ    = 1u << 3,
    EVT_HAS_COUNT  = 1u << 4,
    EVT_HAS_TARGET = 1u << 5,
    EVT_HAS_TNS    = 1u << 6
};

/* ---- The typed meaning block (docs/model.md) -------------------------------------------------
 * Meaning is decided once, by the reader, from its format's tables and the trace's kernel profile
 * (src/host/kernels/). Everything downstream (timeline, analyses, report, exporters) reads these
 * typed members and never a field name or a kernel's word; fields[] is for display and JSON only.
 * A member is valid only when its EVT_M_* bit is set in evt_meaning.has. */

/* What an operation does to a kernel object. X(NAME, text): text is the public name (JSON "op"). */
#define EVT_OBJ_OP_TABLE(X)                                                              \
    X(NONE,       "none")                                                                \
    X(ACQUIRE,    "acquire")    /* mutex lock/get */                                     \
    X(RELEASE,    "release")    /* mutex unlock/put */                                   \
    X(SEND,       "send")       /* queue, mailbox, message buffer, stream buffer */      \
    X(RECEIVE,    "receive")                                                             \
    X(GIVE,       "give")       /* semaphore signal/post/put */                          \
    X(TAKE,       "take")       /* semaphore wait/get */                                 \
    X(SET,        "set")        /* event flags / event group set, task notify give */    \
    X(WAIT,       "wait")       /* event flags wait, task notify take */                 \
    X(CLEAR,      "clear")      /* event flags clear */                                  \
    X(WAIT_START, "wait_start") /* the context starts waiting on the object (blocks) */  \
    X(WAIT_END,   "wait_end")   /* its wait ended (result says how) */                   \
    X(INHERIT,    "inherit")    /* priority inheritance raised the holder (target) */    \
    X(DISINHERIT, "disinherit") /* the holder's inherited priority was given back */     \
    X(ADD,        "add")        /* a member joins a set (FreeRTOS xQueueAddToSet) */     \
    X(REMOVE,     "remove")     /* a member leaves a set (xQueueRemoveFromSet) */        \
    X(ACTIVATE,   "activate")   /* a timer starts (also a create's auto-activation) */   \
    X(DEACTIVATE, "deactivate") /* a timer stops */

typedef enum evt_obj_op {
#define EVT_OBJ_OP_ENUM_(n, s) EVT_OP_##n,
    EVT_OBJ_OP_TABLE(EVT_OBJ_OP_ENUM_)
#undef EVT_OBJ_OP_ENUM_
    EVT_OP_COUNT_
} evt_obj_op;

/* How an operation ended. X(NAME, text) */
#define EVT_OP_RESULT_TABLE(X)                                                           \
    X(UNKNOWN,     "unknown")     /* not recorded */                                     \
    X(SUCCESS,     "success")                                                            \
    X(TIMEOUT,     "timeout")     /* waited, gave up */                                  \
    X(WOULD_BLOCK, "would_block") /* no wait allowed and not available (poll, ISR) */    \
    X(ERROR,       "error")       /* any other failure */

typedef enum evt_op_result {
#define EVT_OP_RESULT_ENUM_(n, s) EVT_RES_##n,
    EVT_OP_RESULT_TABLE(EVT_OP_RESULT_ENUM_)
#undef EVT_OP_RESULT_ENUM_
    EVT_RES_COUNT_
} evt_op_result;

/* Presence bits of evt_meaning.has. */
enum {
    EVT_M_LABEL      = 1u << 0,  /* label: service, function, ISR or channel name */
    EVT_M_IRQ        = 1u << 1,  /* irq */
    EVT_M_STOP_STATE = 1u << 2,  /* stop_state (thread_stop, or the "from" half of a switch) */
    EVT_M_RUNS_NOW   = 1u << 3,  /* the event's context runs on its CPU from this event on */
    EVT_M_NEXT       = 1u << 4,  /* next_ctx: a one-record switch (this context out, next in) */
    EVT_M_SM_STATE   = 1u << 5,  /* sm_state: a state machine (obj) entered a state */
    EVT_M_OP         = 1u << 6,  /* op, op_result, obj: an object operation */
    EVT_M_OBJ_TYPE   = 1u << 7,  /* obj_type: what obj is (evt_hook_obj value) */
    EVT_M_PRIO_SET   = 1u << 8,  /* new_prio: target's priority changes (set, inherit, restore) */
    EVT_M_WAKE       = 1u << 9,  /* target becomes ready (woken, resumed, created ready) */
    EVT_M_BLOCKED_ON = 1u << 10, /* obj: the object a stopping context blocks on */
    EVT_M_KEEP_STATE = 1u << 11, /* a thread_stop that changes no state (ThreadX's priority change) */
    EVT_M_CTX_PRIO   = 1u << 12, /* ctx_prio: the recording context's current priority */
    EVT_M_LEVEL      = 1u << 13, /* level_kind, level: a counter of obj (queue depth, count) */
    EVT_M_OWNER      = 1u << 14, /* owner (0: free), owner_count: a mutex's holder as recorded */
    EVT_M_UNTIMED    = 1u << 15, /* the record has no time of its own (ts is the previous record's,
                                  * 0 before any): it does not open the trace's time range */
    EVT_M_SP         = 1u << 16, /* sp: a stack-pointer sample of the recording context */
    EVT_M_STACK      = 1u << 17, /* stack_start, stack_size: the stack of the thread the event is
                                  * about: for an obj_create the created thread (its target), else
                                  * the recording context (stacks grow down from start + size) */
    EVT_M_IDLE_TASK  = 1u << 18, /* idle_ctx: that context is the kernel's idle task (it runs when no
                                  * other task is ready): its running is idle time (FreeRTOS's IDLE) */
    EVT_M_INTERRUPTED = 1u << 19, /* interrupted_ctx: the thread an isr_enter interrupted, as the
                                   * kernel recorded it (ThreadX's _tx_thread_current_ptr) */
    /* User events (evtrace/user.h, docs/user-events.md); label = the channel. Bits from 20 up. */
    EVT_M_TEXT       = 1u << 20, /* text: the formatted text of a printf event */
    EVT_M_VALUE      = 1u << 21, /* value: a sample of the value channel (label) */
    EVT_M_INTERVAL   = 1u << 22, /* interval_id, interval_end: an interval of channel (label) */
    EVT_M_INHERIT    = 1u << 23, /* inherit_ctx, inherit_prio: this operation (a mutex acquire that
                                  * waits) raised that holder to that priority by inheritance, where
                                  * the kernel records no event of its own for it (ThreadX) */
    EVT_M_PRIO_KEPT  = 1u << 24, /* with EVT_M_PRIO_SET: new_prio is only the target's base priority;
                                  * it runs on at inherit_prio, a more urgent priority it inherited,
                                  * until that inheritance ends (ThreadX's tx_thread_priority_change
                                  * of a thread that holds one) */
    EVT_M_WAKE_CAUSE = 1u << 25, /* wake_cause: why the waiting target (ev->target) was made ready;
                                  * set where the reader knows (ThreadX's THREAD_RESUME) */
    EVT_M_PREEMPT    = 1u << 26, /* preempted_ctx: this event made its target the context to run
                                  * next in place of that one, which stays ready: a preemption of
                                  * it, by a thread's service (the event's context is a thread) or an
                                  * interrupt's (an ISR). Set where the kernel records what runs next
                                  * (ThreadX's execute pointer in THREAD_RESUME) */
    EVT_M_YIELD      = 1u << 27, /* the recording context gave the CPU to another ready context of
                                  * its own accord, staying ready (ThreadX's tx_thread_relinquish
                                  * that lets another thread run) */
    EVT_M_TIME_SLICE = 1u << 28, /* sliced_ctx's time slice ended here and another ready context of
                                  * its priority runs next in its place, which stays ready (ThreadX's
                                  * time-slice rotation, which it counts as the thread's time slice) */
    EVT_M_SLICE_UNKNOWN = 1u << 29, /* sliced_ctx's time slice ended here; whether another context
                                  * of its priority was ready to take its place is not known (the
                                  * reader does not know every thread's state and priority) */
    EVT_M_SLICE_KEPT = 1u << 30  /* sliced_ctx's time slice ended here and it runs on: no other
                                  * ready context of its priority took its place (none was ready,
                                  * or a preemption threshold overrides time slicing) */
};

/* Why a waiting context was made ready (evt_meaning.wake_cause). X(NAME, text) */
#define EVT_WAKE_CAUSE_TABLE(X)                                                          \
    X(UNKNOWN, "unknown")                                                                \
    X(GIVEN,   "given")   /* the object it waited for was given: a put, send, set, release */ \
    X(TIMEOUT, "timeout") /* its wait's timeout expired: it gave up (not a sleep's end) */ \
    X(ABORT,   "abort")   /* another context aborted its wait or sleep */             \
    X(DELETED, "deleted") /* the object it waited for was deleted */                  \
    X(DELAY,   "delay")   /* the sleep (delay) it chose ended */

typedef enum evt_wake_cause {
#define EVT_WAKE_CAUSE_ENUM_(n, s) EVT_WAKE_##n,
    EVT_WAKE_CAUSE_TABLE(EVT_WAKE_CAUSE_ENUM_)
#undef EVT_WAKE_CAUSE_ENUM_
    EVT_WAKE_COUNT_
} evt_wake_cause;

/* What evt_meaning.level counts. X(NAME, text): text is the counter's display name. */
#define EVT_LEVEL_TABLE(X)                          \
    X(NONE,      "")                                \
    X(DEPTH,     "queue depth")   /* messages queued */           \
    X(COUNT,     "semaphore count")                               \
    X(AVAILABLE, "available")     /* free blocks/bytes of a pool */ \
    X(FLAGS,     "event flags")                                   \
    X(WAITERS,   "waiters")       /* contexts waiting on obj */

typedef enum evt_level_kind {
#define EVT_LEVEL_ENUM_(n, s) EVT_LEVEL_##n,
    EVT_LEVEL_TABLE(EVT_LEVEL_ENUM_)
#undef EVT_LEVEL_ENUM_
    EVT_LEVEL_COUNT_
} evt_level_kind;

/* Counters an event can carry (a ThreadX record has up to two: count and waiters). */
#define EVT_M_MAX_LEVELS 2

/* The typed meaning of one event. Strings follow evt_event's ownership rule. */
typedef struct evt_meaning {
    unsigned has;             /* EVT_M_* */
    const char *label;        /* EVT_M_LABEL: "xQueueSend", "tx_mutex_get", "TIM2_IRQHandler" */
    uint32_t irq;             /* EVT_M_IRQ: the interrupt id */
    uint8_t stop_state;       /* EVT_M_STOP_STATE: evt_hook_state (evtrace/hooks_defs.h) */
    uint8_t op;               /* EVT_M_OP: evt_obj_op */
    uint8_t op_result;        /* EVT_M_OP: evt_op_result */
    uint8_t obj_type;         /* EVT_M_OBJ_TYPE: evt_hook_obj (0: unknown) */
    uint64_t next_ctx;        /* EVT_M_NEXT: the context switched in */
    const char *next_name;    /* its name, NULL if unknown */
    uint64_t next_prio;       /* its priority (EVT_HOOK_PRIO_UNKNOWN when not recorded) */
    uint64_t obj;             /* EVT_M_OP / EVT_M_SM_STATE / EVT_M_BLOCKED_ON: the object */
    const char *obj_name;     /* its name, NULL if unknown */
    uint64_t sm_state_id;     /* EVT_M_SM_STATE: the state's id */
    const char *sm_state;     /* its name, NULL if unknown */
    uint64_t new_prio;        /* EVT_M_PRIO_SET: target's new priority (ev->target, else ev->ctx) */
    uint64_t ctx_prio;        /* EVT_M_CTX_PRIO: the recording context's priority (its kernel's numbers) */
    uint8_t nlevels;          /* EVT_M_LEVEL: valid entries of level_kind/level */
    uint8_t level_kind[EVT_M_MAX_LEVELS]; /* evt_level_kind */
    uint64_t level[EVT_M_MAX_LEVELS];     /* the counter's value as recorded */
    uint64_t owner;           /* EVT_M_OWNER: the holding context (0: free) */
    uint64_t owner_count;     /* its ownership (nesting) count */
    /* user events (EVT_M_TEXT, EVT_M_VALUE, EVT_M_INTERVAL; a user state machine sets
     * EVT_M_SM_STATE with obj = its site, obj_name = its name) */
    const char *text;         /* EVT_M_TEXT: NUL-terminated, as C's printf would print it */
    int64_t value;            /* EVT_M_VALUE */
    uint64_t interval_id;     /* EVT_M_INTERVAL: pairs a begin with its end on the channel */
    uint8_t interval_end;     /* EVT_M_INTERVAL: 0 begin, 1 end */
    uint64_t sp;              /* EVT_M_SP */
    uint64_t stack_start;     /* EVT_M_STACK: lowest address of the stack */
    uint64_t stack_size;      /* EVT_M_STACK: its size in bytes */
    uint64_t idle_ctx;        /* EVT_M_IDLE_TASK: the kernel's idle task (a thread context id) */
    uint64_t interrupted_ctx; /* EVT_M_INTERRUPTED: the context running when the ISR entered */
    uint64_t inherit_ctx;     /* EVT_M_INHERIT: the holder whose priority inheritance raised */
    uint64_t inherit_prio;    /* EVT_M_INHERIT: its priority from now on (its kernel's numbers);
                               * EVT_M_PRIO_KEPT: the target's, inherited, from now on */
    uint8_t wake_cause;       /* EVT_M_WAKE_CAUSE: evt_wake_cause */
    uint64_t preempted_ctx;   /* EVT_M_PREEMPT: the context that was to run (running, or chosen
                               * and not yet dispatched) and now waits, ready */
    uint64_t sliced_ctx;      /* EVT_M_TIME_SLICE, EVT_M_SLICE_UNKNOWN, EVT_M_SLICE_KEPT: the
                               * context whose time slice ended (the one running) */
} evt_meaning;

/* What kinds of fact a trace holds (info "capabilities", the report header). A view shows only
 * these: a trace without EVT_CAP_SCHED gets no running/ready/blocked states anywhere. */
#define EVT_CAP_TABLE(X)                                                                  \
    X(SCHED,    "scheduling") /* context switches: who runs, ready, blocked */            \
    X(ISR,      "isr")        /* interrupt enter/exit */                                  \
    X(SERVICES, "services")   /* service / system calls */                                \
    X(OBJECTS,  "objects")    /* kernel object operations */                              \
    X(USER,     "user")       /* application events */                                    \
    X(FUNCS,    "functions")  /* function entry/exit (instrumentation) */

enum {
#define EVT_CAP_BIT_(n, s) EVT_CAP_BITNO_##n,
    EVT_CAP_TABLE(EVT_CAP_BIT_)
#undef EVT_CAP_BIT_
    EVT_CAP_COUNT_
};
#define EVT_CAP_(n) (1u << EVT_CAP_BITNO_##n)
#define EVT_CAP_SCHED    EVT_CAP_(SCHED)
#define EVT_CAP_ISR      EVT_CAP_(ISR)
#define EVT_CAP_SERVICES EVT_CAP_(SERVICES)
#define EVT_CAP_OBJECTS  EVT_CAP_(OBJECTS)
#define EVT_CAP_USER     EVT_CAP_(USER)
#define EVT_CAP_FUNCS    EVT_CAP_(FUNCS)

/* Kernel figures a trace gives whenever they happen (evt_reader.counts): where its reader sets a
 * bit, a context with no event marked so had none in the trace (a 0), not an unknown number.
 * Without the bit, a figure is known only once some event is marked (the views leave it out
 * before). A reader sets a bit when the records show the kernel writes every such event (ThreadX:
 * its internal scheduling records, whose trace category holds its time slices too), and may
 * clear it again when later records show it cannot tell; the views read it at the trace's end. */
#define EVT_COUNTS_TIME_SLICES  (1u << 0) /* EVT_M_TIME_SLICE, EVT_M_SLICE_KEPT, EVT_M_SLICE_UNKNOWN */
#define EVT_COUNTS_PREEMPTIONS  (1u << 1) /* EVT_M_PREEMPT */
#define EVT_COUNTS_YIELDS       (1u << 2) /* EVT_M_YIELD */

/* Strings of an event its reader vouches for (evt_event.text_ok, fields_ok): the text is what
 * evt_text_is_safe accepts (printable ASCII or valid UTF-8 without control or bidi characters) and
 * stays valid as evt_event's ownership rule says, so the reader framework skips its per-event
 * UTF-8 / terminal-safety check of it. A reader sets a bit only for its own static text or for a
 * string it checked once when it stored it (a name table); an unset bit costs one check. */
enum {
    EVT_TEXT_OK_NAME        = 1u << 0,
    EVT_TEXT_OK_CTX_NAME    = 1u << 1,
    EVT_TEXT_OK_TARGET_NAME = 1u << 2,
    EVT_TEXT_OK_LABEL       = 1u << 3, /* m.label */
    EVT_TEXT_OK_NEXT_NAME   = 1u << 4, /* m.next_name */
    EVT_TEXT_OK_OBJ_NAME    = 1u << 5, /* m.obj_name */
    EVT_TEXT_OK_SM_STATE    = 1u << 6, /* m.sm_state */
    EVT_TEXT_OK_TEXT        = 1u << 7, /* m.text */
    EVT_TEXT_OK_ALL         = 0xFFu,   /* all eight: a bit may be set for a string left NULL */
    /* More than all eight: every field (key and string value) is vouched for too and the event
     * has no text payload, so the framework checks nothing (one test). A reader sets it last, for
     * an event it wrote whole; adding an unvouched field or unvouching one clears it. */
    EVT_TEXT_OK_EVENT       = 1u << 8
};

/* One decoded event. Strings and pointers are owned by the reader and stay valid until its next
 * call to next() or close(). Readers fill it through evt_event_reset() + the setters below. */
typedef struct evt_event {
    const char *fmt;          /* reader name, e.g. "threadx" */
    uint32_t id;              /* the format's own event id */
    const char *name;         /* the format's event name */
    evt_kind kind;            /* normalised kind */
    uint64_t ts;              /* unwrapped timestamp in ticks (only grows within a context stream) */
    uint64_t t_ns;            /* ts converted to ns when the clock frequency is known (EVT_HAS_TNS) */
    uint64_t offset;          /* byte offset of the record in the source */
    unsigned flags;           /* EVT_HAS_* */
    uint64_t ctx;             /* context id (thread/task/ISR/...) when EVT_HAS_CTX */
    evt_ctx_class ctx_class;  /* what ctx is */
    const char *ctx_name;     /* name of the context, NULL if unknown */
    uint32_t cpu;             /* CPU number when EVT_HAS_CPU */
    uint64_t prio;            /* raw priority word when EVT_HAS_PRIO */
    uint64_t seq;             /* format's sequence number when EVT_HAS_SEQ */
    uint64_t count;           /* lost records/bytes when EVT_HAS_COUNT (kind lost) */
    uint64_t target;          /* object the event is about (thread resumed, object created) */
    const char *target_name;  /* its name, NULL if unknown */
    unsigned text_ok;         /* EVT_TEXT_OK_*: strings the reader vouches for (cleared by reset) */
    uint32_t fields_ok;       /* bit i: fields[i]'s key and string value are vouched for */
    uint32_t nargs;           /* number of valid args */
    uint64_t args[EVT_MAX_ARGS]; /* the format's raw argument/info fields, in order */
    uint32_t nfields;         /* number of valid fields */
    evt_field fields[EVT_MAX_FIELDS];
    const uint8_t *data;      /* optional payload (string, memory block, custom event) */
    size_t data_len;
    int data_is_text;         /* payload is text (printable) rather than bytes */
    evt_meaning m;            /* typed meaning, filled by the reader (cleared by evt_event_reset) */
} evt_event;

/* Clear an event for reuse (no allocation). */
void evt_event_reset(evt_event *ev);
/* Append helpers; extra args/fields beyond the limits are dropped (the limits are generous). */
void evt_event_add_arg(evt_event *ev, uint64_t v);
void evt_event_add_field_u(evt_event *ev, const char *key, uint64_t v);
void evt_event_add_field_i(evt_event *ev, const char *key, int64_t v);
void evt_event_add_field_s(evt_event *ev, const char *key, const char *s);
/* Public name of a kind ("thread_run"); "other" for out-of-range values. */
const char *evt_kind_name(evt_kind k);
/* Parse a kind name; returns EVT_KIND_COUNT_ if unknown. */
evt_kind evt_kind_parse(const char *s);
/* Public names of the meaning block's enums ("acquire", "timeout"); "none"/"unknown" if out of range. */
const char *evt_obj_op_name(evt_obj_op op);
const char *evt_op_result_name(evt_op_result r);
const char *evt_wake_cause_name(evt_wake_cause c);
/* Public name of one capability bit ("scheduling"), NULL if not exactly one known bit. */
const char *evt_cap_name(unsigned cap_bit);
/* Display name of a counter kind ("queue depth"); "" for none or out of range. */
const char *evt_level_name(evt_level_kind k);
/* Add a counter to the meaning block (ignored past EVT_M_MAX_LEVELS). */
void evt_meaning_add_level(evt_meaning *m, evt_level_kind k, uint64_t v);

/* Incarnations of a reused thread id (docs/model.md "Contexts"). A thread deleted and another created
 * later under the same id (a FreeRTOS TCB address, a μT-Kernel task id) are distinct contexts: the
 * reader framework gives the first incarnation in the trace the raw id and the n-th later one
 * (n >= 1) the id evt_ctx_make(raw, n): raw with n in bits 48-62, n wrapping from
 * EVT_CTX_INCARNATION_MAX to 1 (a raw id of 2^48 and up is never split). Every member naming a
 * context carries it: ctx, m.next_ctx, m.owner, and target / m.obj of a thread's operations. */
#define EVT_CTX_INCARNATION_SHIFT 48
#define EVT_CTX_INCARNATION_MAX   0x7FFFu
uint64_t evt_ctx_make(uint64_t raw, uint32_t incarnation);
/* The raw id of a context id (itself for a first incarnation). */
uint64_t evt_ctx_raw(uint64_t ctx);
/* Its incarnation: 0 the first in the trace (the raw id), n the n-th later one. */
uint32_t evt_ctx_incarnation(uint64_t ctx);

#endif
