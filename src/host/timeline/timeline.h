/* The one timeline: per-context scheduling states, ISR intervals, service/function slices,
 * counters, flows and lost ranges, computed once from the canonical event stream and consumed by
 * every exporter, `stats` and `report`. No consumer pairs events on its own.
 *
 * Streaming: feed events in trace order with evt_tl_add(); the timeline calls the sink as soon as
 * something is known (a context seen, a switch, a wake-up) and when an interval closes (state,
 * ISR, slice). Memory grows with contexts, objects, open spans and pending flows (each bounded),
 * never with events. evt_tl_finish() closes everything still open at the last timestamp (the
 * record says so: `open_end`).
 *
 * Time: every time here is in the timeline's unit, fixed at init: ns when the clock is known (the
 * event's t_ns, which the reader registry sets), else raw ticks (`clock_hz` 0, consumers say
 * "ticks"). Per CPU, a time earlier than the previous one on that CPU is taken as the previous
 * one (per-thread buffers merged out of order), so intervals never have negative length.
 *
 * Scheduling model (per CPU: the event's cpu when given, else CPU 0):
 * - The running context of a CPU is the context of its latest thread/init/unclassified event
 *   (the code that recorded an event was running). Events without a context id run in their
 *   class's "(no context)" entry (RKH's records outside any thread): code ran, we do not know
 *   which, and it is shown as such rather than as idle. A different context recording an event is a
 *   switch: the previous one goes to `ready` (preempted) unless it already stopped; initialisation
 *   code (class init) goes to `unknown` instead (it is not waiting for the CPU).
 * - thread_run with a target other than the recording context (a resume, a semaphore put waking
 *   a waiter) makes the target ready: a `waking` record, and a flow from the waker to the
 *   target's next running. thread_run of the recording context itself (dispatch hooks) or with
 *   the meaning bit EVT_M_RUNS_NOW makes the target running.
 * - EVT_M_WAKE on any event makes its target (ev->target, else the recording context) ready as
 *   thread_run by another context does (never a dispatch); the `waking` record names the waker
 *   and the object the woken context was blocked on.
 * - EVT_M_PRIO_SET changes the priority of its target (ev->target, else the recording context):
 *   a `prio` record (new, old, why: set / inherit (m.op inherit) / disinherit). A context's
 *   base_prio is its priority without inheritance: raised by inherit it keeps the old one until
 *   disinherit or a set, and the priority words of its events while inherited do not change it.
 * - EVT_M_INHERIT (an inheritance the reader inferred: ThreadX's mutex get that will wait) raises
 *   m.inherit_ctx the same way (an inherit record). No disinherit is recorded: the first priority
 *   word of that context back at its base priority ends it (a disinherit record), another one
 *   moves it (an inherit record).
 * - thread_stop of a target puts it into the state its meaning block names (m.stop_state, the
 *   generic states of evtrace/hooks_defs.h, decided by the reader from its kernel profile):
 *   ready -> ready; waiting -> blocked; suspended, wait_suspended -> suspended; dormant,
 *   deleted -> terminated; no stop state -> blocked; EVT_M_KEEP_STATE (a priority change
 *   re-queueing the thread) -> no change. If it was running, its CPU switches to the successor
 *   the event names (EVT_M_NEXT: m.next_ctx, 0 = idle), else to idle: dispatcher hooks report no
 *   current task between a stop and the next dispatch, so that gap is idle and a dispatch is two
 *   switches (task -> idle -> task).
 *   Inside an ISR the switch is made at the outermost ISR exit. A blocked state carries the
 *   object the stop names (EVT_M_BLOCKED_ON: m.obj, or m.op wait_start on a context's stop of
 *   itself: the hooks readers' wait in an open call), else the object of the context's latest wait
 *   start (m.op wait_start), else the object of its latest service call (a kernel records the
 *   call before the suspension), and the service of its latest service call.
 * - EVT_M_NEXT on a thread_run (a resume naming the thread the kernel runs next) or on any other
 *   event (ThreadX's relinquish and time slice): the CPU goes to that successor, the running
 *   context to ready; from an ISR at its outermost exit, where a stop the ISR recorded before
 *   keeps its state; naming the running context (or idle) changes nothing, and from an ISR it
 *   cancels the switch decided before. Not during initialisation.
 * - m.op wait_start by a context (not on a stop): it waits on m.obj from now (an already blocked
 *   context gets the object on its blocked state); m.op wait_end: its wait is over (the pending
 *   object cleared).
 * - An outermost isr_enter naming the thread it interrupted (EVT_M_INTERRUPTED, not 0) makes that
 *   thread the running one from the entry if it was not (the previous one to ready): a dispatch
 *   no record showed, or a "next thread" the kernel wrote wrong (a ThreadX build that writes 0,
 *   idle, after choosing a thread: docs/threadx.md). Naming none (idle) changes nothing.
 * - Other ISR-class events never change the running context. A thread/init event of another context
 *   while an ISR is open means its exit was lost: the open ISRs close there (truncated) before
 *   the switch, so an ISR's time lies within the running of the context it interrupted. isr_enter/isr_exit nest per CPU; an exit
 *   closes the innermost ISR. The ISR id is m.irq (EVT_M_IRQ), its label m.label.
 * - A trace whose reader declares no scheduling (evt_tl.caps without EVT_CAP_SCHED: XRay, RKH
 *   without hooks, ETW) gets no states and no switches: the recording context is not taken to
 *   be running, contexts show only their slices and, at finish, one `active` interval each from
 *   its first to its last event (activity, not CPU time). The first scheduling event
 *   (thread_run/thread_stop) turns scheduling on (an RKH stream whose hooks appear).
 * - EVT_M_IDLE_TASK names the kernel's idle task (m.idle_ctx; FreeRTOS's IDLE, which runs when no
 *   other task is ready): it stays a context with its states and its own cpu time, and that cpu
 *   time (running less the ISRs that interrupted it) is idle time too: evt_tl_finish adds it to
 *   idle_time (idle_task_time), the load analysis charges it to its idle windows, not as busy.
 * - A record without a time of its own (EVT_M_UNTIMED: RKH's TCFG) before the first timed one
 *   is counted and otherwise ignored: the trace's time range starts at its first timed record.
 * - A lost event drops every open ISR and slice (closed at the loss, `truncated`), makes every
 *   running context's state unknown until its next event, and emits a lost range from the
 *   previous event's time to the loss's.
 * Slices: svc_enter/svc_exit and func_enter/func_exit on a per-context stack, paired by the rules
 * of spans.h; a service recorded as one instant (kind svc) is a zero-length slice.
 * Counters: the meaning block's levels (EVT_M_LEVEL: queue depth, semaphore count, available,
 * event flags, waiters), sampled on the event's target object (values as the kernel recorded
 * them: before the call).
 * Flows: waker -> woken (signal -> wake); per object, an operation that puts something in
 * (m.op send, give, set, release) by one context -> the next that takes it out (receive, take,
 * wait, acquire) by another (FIFO, bounded: EVT_TL_MAX_PENDING per object, older ones dropped and
 * counted). Object types come from m.obj_type. */
#ifndef EVT_ANALYSIS_TIMELINE_H
#define EVT_ANALYSIS_TIMELINE_H

#include <stdint.h>
#include "evtrace/model.h"
#include "host/timeline/spans.h"
#include "host/strtab.h"
#include "host/u64map.h"

#define EVT_TL_MAX_CPUS 64       /* CPU numbers >= this share the last slot */
#define EVT_TL_ISR_DEPTH 64      /* ISR nesting tracked per CPU; deeper is counted in overflow */
#define EVT_TL_MAX_PENDING 4096  /* pending flow sources per object (a queue's depth) */
#define EVT_TL_NONE UINT32_MAX   /* "no context" index */

/* Thread states. X(enum, name, Linux prev_state letter as Perfetto shows it, its value) */
#define EVT_TL_STATE_TABLE(X)                                          \
    X(EVT_TL_RUNNING,    "running",    "R", 0)                          \
    X(EVT_TL_READY,      "ready",      "R", 0)  /* runnable or preempted */ \
    X(EVT_TL_BLOCKED,    "blocked",    "S", 1)  /* waiting on an object or time */ \
    X(EVT_TL_SUSPENDED,  "suspended",  "T", 4)  /* stopped by someone */ \
    X(EVT_TL_TERMINATED, "terminated", "X", 16) /* completed, deleted */ \
    X(EVT_TL_UNKNOWN,    "unknown",    "?", 0)  /* before its first event, after a loss */ \
    X(EVT_TL_ACTIVE,     "active",     "?", 0)  /* no scheduling recorded: first to last event */

typedef enum evt_tl_state {
#define EVT_TL_STATE_ENUM_(e, n, l, v) e,
    EVT_TL_STATE_TABLE(EVT_TL_STATE_ENUM_)
#undef EVT_TL_STATE_ENUM_
    EVT_TL_STATE_COUNT_
} evt_tl_state;

const char *evt_tl_state_name(evt_tl_state s);
/* Linux TASK_* value for a sched_switch prev_state (0 R, 1 S, 4 T, 16 X). */
int evt_tl_state_linux(evt_tl_state s);

/* One context (thread, task, ISR, init, or the "no context" of a class). `index` is dense, in
 * order of first appearance, and is what every record below refers to. */
typedef struct evt_tl_ctx {
    uint32_t index;
    uint64_t id;           /* context id (valid when has_id) */
    int has_id;
    evt_ctx_class cls;     /* class from its first event */
    const char *name;      /* NULL until known; owned by the timeline (stable) */
    uint64_t prio;         /* latest priority seen (valid when has_prio) */
    int has_prio;
    uint64_t first, last;  /* time of its first and latest event */
    uint64_t events;       /* events recorded in it */
    uint64_t run_time;     /* sum of its closed running intervals */
    uint64_t isr_time;     /* outermost ISR time while it was the running context (interrupted) */
    uint64_t switches_in;  /* times it became running (sched_switch with next = it) */
    uint64_t timeouts;     /* its waits that ended by their timeout (EVT_M_WAKE_CAUSE timeout) */
    uint64_t wait_aborts;  /* its waits or sleeps another context aborted (wake cause abort) */
    uint64_t preemptions;  /* times another context was made to run in its place, it staying
                            * ready (EVT_M_PREEMPT naming it) */
    uint64_t isr_preemptions; /* of those, the ones an interrupt made (the event in an ISR) */
    uint64_t yields;       /* times it gave the CPU to another ready context (EVT_M_YIELD) */
    uint64_t time_slices;  /* its time slices that ended with another ready context of its
                            * priority running in its place (EVT_M_TIME_SLICE naming it) */
    uint64_t time_slices_unknown; /* its time slices' ends of which that is not known
                            * (EVT_M_SLICE_UNKNOWN naming it) */
    /* cpu time = run_time - isr_time (what stats and contexts.cpu_time report) */
    /* scheduling (private to the timeline) */
    evt_tl_state state;
    uint64_t state_since;
    uint32_t state_obj;    /* object index of a blocked state, EVT_TL_NONE */
    uint32_t state_svc;    /* strtab id of its service, 0 */
    uint32_t cpu;
    uint32_t last_svc, last_obj; /* latest service call (strtab id) and its object index */
    evt_span_stack stack;  /* open slices */
    uint64_t *stack_t0;    /* their begin times (parallel to stack) */
    uint32_t t0cap;        /* capacity of stack_t0 */
    uint32_t wake_from;    /* context that woke it (pending flow), EVT_TL_NONE */
    uint64_t wake_t;
    uint32_t wake_obj;     /* object the wake-up went through (its blocked object) */
    int state_known;       /* it has had a state other than the initial unknown */
    int running_on;        /* 1: cpu's run is this context */
    /* priority without inheritance (valid when has_base_prio): what it was given, not what it
     * borrowed; prio above is the latest effective one */
    uint64_t base_prio;
    int has_base_prio;
    int inherited;         /* its priority is raised by inheritance (m.op inherit, not yet given back);
                            * 2: by an inheritance the reader inferred (EVT_M_INHERIT), whose end
                            * its own priority words show (no disinherit record comes) */
    uint32_t wait_obj;     /* object of its latest wait start (m.op wait_start), EVT_TL_NONE */
    int idle_task;         /* the kernel's idle task (EVT_M_IDLE_TASK): its cpu time is idle time */
} evt_tl_ctx;

/* One kernel object (queue, semaphore, mutex, ...) seen as an event's target. */
typedef struct evt_tl_obj {
    uint32_t index;
    uint64_t id;
    const char *name;      /* NULL until known; owned by the timeline */
    const char *type;      /* "queue", "semaphore", ... from the creating event's name, or NULL */
    uint64_t created, deleted; /* times, valid when has_created / has_deleted */
    int has_created, has_deleted;
    /* pending flow sources: a ring that grows to EVT_TL_MAX_PENDING (pend_cap a power of two) */
    uint32_t *pend_ctx;
    uint64_t *pend_t;
    uint32_t pend_head, pend_n, pend_cap;
    uint32_t pend_only;    /* the context every pending source is from, EVT_TL_NONE: not known to
                              be one (a take by that context then finds none at once) */
} evt_tl_obj;

/* A closed state interval of a context. */
typedef struct evt_tl_state_iv {
    uint32_t ctx;          /* context index */
    evt_tl_state state;
    uint32_t cpu;          /* CPU it ran on (running), or last ran on */
    uint64_t t0, t1;
    uint32_t obj;          /* blocked on this object index, EVT_TL_NONE */
    const char *service;   /* the service call that blocked it, NULL */
    int open_end;          /* still in this state at the end of the trace */
} evt_tl_state_iv;

/* A context switch on a CPU (Perfetto's sched_switch). prev/next EVT_TL_NONE = idle. */
typedef struct evt_tl_switch {
    uint32_t cpu;
    uint64_t t;
    uint32_t prev, next;
    evt_tl_state prev_state; /* what prev went to */
    uint64_t prev_prio, next_prio; /* latest priorities (0 when unknown) */
} evt_tl_switch;

/* A context made ready by another (Perfetto's sched_waking). */
typedef struct evt_tl_waking {
    uint32_t cpu;          /* CPU of the waker */
    uint64_t t;
    uint32_t target;       /* woken context */
    uint32_t waker;        /* waking context (EVT_TL_NONE: unknown / ISR without context) */
    int from_isr;          /* recorded inside an ISR */
    uint32_t obj;          /* the object it was blocked on (what woke it), EVT_TL_NONE */
    uint8_t cause;         /* why its wait ended (evt_wake_cause, EVT_M_WAKE_CAUSE of the waking
                            * event); EVT_WAKE_UNKNOWN when the format does not say */
} evt_tl_waking;

/* Why a priority changed (evt_tl_prio.why). X(enum, name) */
#define EVT_TL_PRIO_WHY_TABLE(X)                                   \
    X(EVT_TL_PRIO_SET,        "set")        /* given a new priority */ \
    X(EVT_TL_PRIO_INHERIT,    "inherit")    /* raised by inheritance */ \
    X(EVT_TL_PRIO_DISINHERIT, "disinherit") /* the inherited priority given back */

typedef enum evt_tl_prio_why {
#define EVT_TL_PRIO_WHY_ENUM_(e, n) e,
    EVT_TL_PRIO_WHY_TABLE(EVT_TL_PRIO_WHY_ENUM_)
#undef EVT_TL_PRIO_WHY_ENUM_
    EVT_TL_PRIO_WHY_COUNT_
} evt_tl_prio_why;

const char *evt_tl_prio_why_name(evt_tl_prio_why w);

/* A context's priority changed (m EVT_M_PRIO_SET). */
typedef struct evt_tl_prio {
    uint64_t t;
    uint32_t ctx;          /* whose priority */
    uint64_t prio;         /* the new priority (the kernel's numbers) */
    uint64_t old_prio;     /* the one before (valid when has_old) */
    int has_old;
    evt_tl_prio_why why;
    uint32_t by;           /* context that recorded the change, EVT_TL_NONE */
} evt_tl_prio;

/* A closed ISR interval. */
typedef struct evt_tl_isr {
    uint32_t cpu;
    uint64_t t0, t1;
    uint32_t depth;        /* 0 = outermost */
    uint64_t irq;          /* interrupt id (valid when has_irq) */
    int has_irq;
    const char *name;      /* label (spans.h rules): "ISR_ENTER #3", "int5", ... */
    uint32_t ctx;          /* the ISR's context index (its class is isr), EVT_TL_NONE */
    uint32_t interrupted;  /* context running when it entered, EVT_TL_NONE = idle */
    int truncated;         /* closed by a loss, not by its exit */
    int open_end;
} evt_tl_isr;

/* A closed service-call or function slice. */
typedef struct evt_tl_slice {
    uint32_t ctx;
    evt_span_cat cat;      /* EVT_SPAN_SVC or EVT_SPAN_FUNC */
    const char *name;      /* label (spans.h rules) */
    uint64_t t0, t1;       /* t0 == t1 for a service recorded as one instant */
    uint32_t depth;        /* 0 = outermost on its context */
    uint32_t obj;          /* object the call is about, EVT_TL_NONE */
    int truncated;         /* closed by a loss or by an outer exit (tail call), not its own */
    int open_end;
} evt_tl_slice;

/* A counter sample. */
typedef struct evt_tl_counter {
    uint64_t t;
    uint32_t obj;          /* object index, EVT_TL_NONE for a global counter */
    const char *name;      /* "queue depth", "semaphore count", ... */
    uint64_t value;
} evt_tl_counter;

/* A flow (arrow) from one context's event to another's. */
typedef struct evt_tl_flow {
    uint64_t id;           /* unique within the trace, from 1 */
    const char *kind;      /* "wake", "message", "signal" */
    uint32_t from_ctx, to_ctx;
    uint64_t t0, t1;
    uint32_t obj;          /* object it went through, EVT_TL_NONE */
} evt_tl_flow;

/* Data lost: between t0 (previous event) and t1 (the loss record). */
typedef struct evt_tl_lost {
    uint32_t cpu;
    uint64_t t0, t1;
    uint64_t count;        /* records lost; 0 when the format does not say */
    int has_count;
} evt_tl_lost;

/* Where the timeline reports. Every callback may be NULL. Pointers are valid during the call. */
typedef struct evt_tl_sink {
    void *user;
    void (*ctx_new)(void *user, const evt_tl_ctx *c);   /* first event of a context (named if it says) */
    void (*ctx_name)(void *user, const evt_tl_ctx *c);  /* its name became known or changed */
    void (*obj_new)(void *user, const evt_tl_obj *o);   /* first mention of an object */
    void (*obj_name)(void *user, const evt_tl_obj *o);
    void (*state)(void *user, const evt_tl_state_iv *iv);
    void (*sched_switch)(void *user, const evt_tl_switch *sw);
    void (*waking)(void *user, const evt_tl_waking *w);
    void (*isr_begin)(void *user, const evt_tl_isr *iv); /* t1, truncated, open_end not yet set */
    void (*isr)(void *user, const evt_tl_isr *iv);
    void (*slice_begin)(void *user, const evt_tl_slice *sl); /* t1 not yet set */
    void (*slice)(void *user, const evt_tl_slice *sl);
    void (*counter)(void *user, const evt_tl_counter *c);
    void (*flow)(void *user, const evt_tl_flow *f);
    void (*lost)(void *user, const evt_tl_lost *l);
    void (*prio)(void *user, const evt_tl_prio *p);     /* a priority change */
} evt_tl_sink;

typedef struct evt_tl_cpu {
    int seen;
    uint64_t prev_t;
    uint32_t run;          /* running context index, EVT_TL_NONE = idle/unknown */
    int unknown;           /* no running context because data was lost (not idle) */
    uint64_t idle_since;   /* when run became idle */
    uint64_t isr_idle;     /* outermost ISR time inside the current idle stretch */
    uint32_t isr_n;        /* open ISRs (may exceed EVT_TL_ISR_DEPTH: the excess is not tracked) */
    evt_tl_isr isr[EVT_TL_ISR_DEPTH];
    /* a switch decided inside an ISR, made at the outermost ISR exit */
    int pend_isr;
    uint32_t pend_isr_next;       /* EVT_TL_NONE: idle */
    evt_tl_state pend_isr_state;  /* what the running context goes to (ready: preempted) */
    uint32_t pend_isr_obj, pend_isr_svc;
} evt_tl_cpu;

typedef struct evt_tl {
    uint64_t clock_hz;     /* 0: the unit is ticks */
    evt_tl_sink sink;
    evt_strtab strs;       /* names, labels, services */
    evt_tl_ctx **ctxs;     /* by index (stable pointers) */
    uint32_t nctx, ctxcap;
    evt_u64map ctxmap;     /* context id -> index */
    uint32_t noctx[4];     /* per class: index of its "no context id" entry, EVT_TL_NONE */
    evt_tl_obj **objs;
    uint32_t nobj, objcap;
    evt_u64map objmap;     /* object id -> index */
    evt_tl_cpu *cpus;      /* EVT_TL_MAX_CPUS */
    uint32_t ncpus;        /* highest CPU slot used + 1 */
    uint64_t first, last;  /* min and max time seen */
    int have_t;
    uint64_t events;
    uint64_t idle_time;    /* time with no running context, summed over CPUs, and (from
                            * evt_tl_finish) the cpu time of the kernel's idle tasks */
    uint64_t idle_task_time; /* the part of idle_time the idle tasks ran (set by evt_tl_finish) */
    uint64_t isr_time;     /* time in outermost ISRs, summed over CPUs */
    uint64_t next_flow;
    /* what could not be tracked (counted, never silent) */
    uint64_t isr_overflow, span_overflow, flows_dropped, unmatched_exits, lost_count, lost_events;
    int oom;
    /* the event being added (valid inside sink callbacks made by evt_tl_add) */
    const evt_event *cur;
    uint64_t cur_t;        /* its time as evt_tl_time gives it (before the per-CPU ordering clamp):
                            * set by evt_tl_add, so that a sink need not convert it again */
    uint32_t cur_ctx;      /* its context index */
    /* what the trace holds (evtrace/model.h EVT_CAP_*): every kind until evt_tl_set_caps says
     * otherwise; sched is 0 while the trace has shown no scheduling (no states, no switches,
     * no idle time: views show activity only) */
    unsigned caps;
    int sched;
    int wake_causes;       /* some event said why a wait ended (EVT_M_WAKE_CAUSE): the contexts'
                            * timeouts and wait_aborts are counted */
    int preempt_counts;    /* some event said what it preempted (EVT_M_PREEMPT), or the reader
                            * says the trace gives every one (EVT_COUNTS_PREEMPTIONS, read by
                            * evt_tl_finish): the contexts' preemptions are counted */
    int yield_counts;      /* the same for yields (EVT_M_YIELD, EVT_COUNTS_YIELDS): a trace may
                            * show its yields and not its preemptions (ThreadX's older kernels) */
    int slice_counts;      /* some event said how a time slice ended (EVT_M_TIME_SLICE,
                            * EVT_M_SLICE_UNKNOWN, EVT_M_SLICE_KEPT), or the reader says the trace
                            * gives every one (EVT_COUNTS_TIME_SLICES, evt_tl_finish): the
                            * contexts' time slices are counted */
    int higher_prio_wins;  /* the trace's priority order (its kernel profile or --priority-order) */
    /* evt_tl_set_reader: the reader, asked again when its kernel profile changes (a stream names
     * its kernel in a record after its first ones) */
    const struct evt_reader *reader;
    int reader_kernel;
    /* hot-path caches (private to the timeline; each only saves a look-up, never decides one):
     * the two context ids met last and their indexes, most recent first (an event's context is
     * nearly always the running task or the ISR interrupting it; an id keeps its index for the
     * timeline's life, so an entry never goes stale; index EVT_TL_NONE = empty) */
    uint64_t mru_id[2];
    uint32_t mru_ix[2];
    /* the label of the latest ISR entry built from its name and irq ("<name> #<irq>"): the
     * name's length and irq it was built from and its strtab id (0 = none) */
    uint32_t isr_lbl_id, isr_lbl_len, isr_lbl_irq;
    int isr_lbl_has_irq;
} evt_tl;

/* Start with a zeroed evt_tl. clock_hz: the reader's clock (0 unknown) fixes the unit. Returns 0
 * when out of memory. */
int evt_tl_init(evt_tl *tl, uint64_t clock_hz, const evt_tl_sink *sink);
/* What the trace holds (the reader's caps, EVT_CAP_*; known 0: the reader declares nothing and
 * every kind is assumed) and its priority order. Call after evt_tl_init, before the first event. */
void evt_tl_set_trace(evt_tl *tl, unsigned caps, int known, int higher_prio_wins);
/* The same from an open reader (its caps, kernel profile and the user's overrides); the priority
 * order follows the reader's profile when the trace names its kernel later (r must stay open
 * while events are added). */
struct evt_reader;
void evt_tl_set_reader(evt_tl *tl, const struct evt_reader *r);
/* Time of an event in the timeline's unit. */
uint64_t evt_tl_time(const evt_tl *tl, const evt_event *ev);
/* Feed one event. Returns its context index; EVT_TL_NONE for a lost event (it has none) and on
 * out of memory (then tl->oom is set: check that, not the return value). */
uint32_t evt_tl_add(evt_tl *tl, const evt_event *ev);
/* After the last event: close every open state, ISR and slice at the last time (open_end). */
void evt_tl_finish(evt_tl *tl);
void evt_tl_free(evt_tl *tl);

/* Lookups (NULL for EVT_TL_NONE or out of range). */
const evt_tl_ctx *evt_tl_ctx_at(const evt_tl *tl, uint32_t index);
const evt_tl_obj *evt_tl_obj_at(const evt_tl *tl, uint32_t index);
/* Display name of a context: its name, else "ctx 0x<id>", else "(no context: <class>)". */
const char *evt_tl_ctx_label(const evt_tl_ctx *c, char *buf, size_t len);
/* Class name: "thread", "isr", "init", "none". */
const char *evt_tl_class_name(evt_ctx_class c);

#endif
