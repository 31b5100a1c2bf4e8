/* evtrace's FreeRTOS integration, recorder side: the functions the trace macros of
 * evtrace/freertos_trace.h call, turned into generic kernel hooks (evtrace/hooks.h) on the transport
 * started with evtrace/freertos.h: the TXTB backend (snapshot) or the RKH backend (stream), chosen
 * at start. A switch is one thread_switch record (switched-out state and blocking object kept from
 * traceTASK_SWITCHED_OUT and the traceBLOCKING_ON_* before it). Single core (FreeRTOS's switch
 * macros run with interrupts masked, so the per-switch state needs no lock). Freestanding: no libc,
 * no FreeRTOS header (the macros pass plain values). */
#include "evtrace/freertos.h"
#include "evtrace/freertos_calls.h"
#include "evtrace/freertos_svc.h"

#include "evtrace/hooks.h"
#include "evtrace/user.h"
#include "formats/rkh/rkh_hooks.h"
#include "formats/threadx/txtb_hooks.h"
#include "formats/threadx/txtb_switches.h"

EVT_HOOK_DECLARE_BACKEND(txtb)
EVT_HOOK_DECLARE_BACKEND(rkh)

#include "evtrace/port.h"
#ifdef EVT_PORT_POSIX
#define FR_POSIX_ 1 /* the POSIX port: its evt_posix_mask_signals (evt_port_impl.h S1) */
#else
#define FR_POSIX_ 0
#endif

enum { FR_OFF = 0, FR_SNAPSHOT = 1, FR_STREAM = 2 };
volatile uint8_t evt_freertos_on;

/* The started backend's hook `what`. */
#define FR_HOOK_(what, ...)                                                     \
    do {                                                                        \
        if (evt_freertos_on == FR_SNAPSHOT) evt_txtb_hook_##what(__VA_ARGS__);  \
        else if (evt_freertos_on == FR_STREAM) evt_rkh_hook_##what(__VA_ARGS__); \
    } while (0)

/* The switch in progress (between traceTASK_SWITCHED_OUT and _IN), and what the running task
 * said it blocks on since its last switch. */
static const void *g_from;
static uint32_t g_from_state; /* eTaskState */
static const void *g_block;
static uint8_t g_block_buffer; /* g_block is a stream/message buffer, waited for by a notification */
/* A buffer's wait is two hooks apart (traceBLOCKING_ON_STREAM_BUFFER_*, then the notification
 * wait's block in xTaskNotifyWait), and FreeRTOS runs the code between them preemptible: a tick may
 * switch the task out there (ready, not waiting), which clears g_block. Such a task's buffer is
 * kept here until it runs again, when it is g_block again (as if it had not been switched out). One
 * entry per task; a full table forgets its oldest (that task's wait is then "on itself", as before). */
#ifndef EVT_FREERTOS_BUFFER_WAITS
#define EVT_FREERTOS_BUFFER_WAITS 8
#endif
static struct {
    const void *tcb, *buf;
} g_buf_wait[EVT_FREERTOS_BUFFER_WAITS];
static uint32_t g_buf_wait_old; /* the entry a full table replaces next */
static uint32_t g_buf_waits;    /* entries in use: 0 in all but a rare switch, which then scans nothing */
static const void *buf_wait_take(const void *tcb);
static const void *g_idle_last; /* the idle task recorded last (evt_freertos_idle_task): once each */
static const void *g_idle_known; /* the idle task the kernel named, recording or not: a recording
                                    started after the scheduler names it at its start */

/* A recording started after the scheduler (the idle task known at its start: from a task) met tasks
 * created before it, whose create records it never saw: each is named at its first switch in this
 * session (an obj_name record after the switch), up to EVT_FREERTOS_LATE_NAMES tasks; before, they
 * were all "ctx 0x..." (docs/freertos.md "Start"). The table holds the tasks named (or created) in
 * the session; it is searched at a switch only in such a session. */
#ifndef EVT_FREERTOS_LATE_NAMES
#define EVT_FREERTOS_LATE_NAMES 64
#endif
static uint8_t g_late;
static const void *const volatile *g_kernel_current; /* &pxCurrentTCB (evt_freertos_kernel_current) */
static uint32_t g_name_offset;                       /* offsetof(TCB_t, pcTaskName) */
static uint32_t g_late_n;
static const void *g_late_named[EVT_FREERTOS_LATE_NAMES];
static const char *g_from_name; /* the outgoing task's name (switched_out_named) */

/* Remember tcb as named in this session; 1 if it was not yet (and there was room). */
static int late_first(const void *tcb)
{
    for (uint32_t i = 0; i < g_late_n; i++)
        if (g_late_named[i] == tcb) return 0;
    if (g_late_n >= (uint32_t)EVT_FREERTOS_LATE_NAMES) return 0;
    g_late_named[g_late_n++] = tcb;
    return 1;
}

static void late_name(const void *tcb, const char *name)
{
    if (tcb && name && late_first(tcb)) FR_HOOK_(obj_name, EVT_HOOK_OBJ_THREAD, (uintptr_t)tcb, name);
}

void evt_freertos_kernel_current(const volatile void *current, uint32_t name_offset)
{
    g_kernel_current = (const void *const volatile *)current;
    g_name_offset = name_offset;
}

/* A session started after the scheduler begins in the task running at its start (the caller): a
 * switch into it, as the scheduler's first one (no task before it, priority unknown), then its name. Before, what it did until then was in "Initialization" (snapshot: 17.6 ms of a
 * task's 33 ms in one run) or in no context (stream). */
static void late_start(void)
{
    const void *cur = g_late && g_kernel_current ? *g_kernel_current : 0;
    if (!cur) return;
    FR_HOOK_(thread_switch, 0u, EVT_HOOK_STATE_READY, 0u, 0u, (uintptr_t)cur, EVT_HOOK_PRIO_UNKNOWN);
    late_name(cur, (const char *)cur + g_name_offset);
}

/* The switch's timestamp: the counter read in traceTASK_SWITCHED_OUT, right after FreeRTOS read its
 * run-time counter for the outgoing task, rather than after the scheduler chose the next one; the
 * snapshot's time source returns it once (for the switch record), else the counter. 0: none. */
static uint64_t g_switch_ts;

/* Interrupts entered and not yet left (nesting depth), and the numbers of the innermost
 * FR_ISR_NEST_. FreeRTOS's ports call traceISR_EXIT (or _EXIT_TO_SCHEDULER) in portYIELD_FROM_ISR /
 * portEND_SWITCHING_ISR of every handler, the application's too, while only the ports' own tick
 * handler calls traceISR_ENTER (ARM_CM3/CM4F SysTick; the POSIX port none): an exit with no
 * interrupt open is no interrupt's end and is not recorded (before, the POSIX port's tick hook
 * calling portYIELD_FROM_ISR wrote one unmatched exit per tick: 1000 a second). A handler that
 * brackets itself (evt_freertos_isr_enter/_exit) and also calls portYIELD_FROM_ISR gets one enter
 * and one exit, whichever comes first ends it. Single core: a nested interrupt's enter and exit
 * leave the depth as they found it. */
#define FR_ISR_NEST_ 8u
static volatile uint32_t g_isr_depth;
static uint32_t g_isr_irq[FR_ISR_NEST_];
static uint32_t (*volatile g_clock)(void); /* evt_freertos_set_clock, or NULL: the port's counter */
static uint64_t g_clock_hz;                 /* its rate */
static uint64_t now(void) { return g_clock ? g_clock() : evt_port_timestamp(); }
static uint32_t snapshot_time(void)
{
    uint64_t t = g_switch_ts;
    g_switch_ts = 0;
    return (uint32_t)(t ? t : now());
}

/* The stream's switch timestamp, the same way: the attached RKH recorder's timestamp source (the ts
 * of evt_rkh_init) is wrapped while the stream runs, and the wrapper returns the value read in
 * traceTASK_SWITCHED_OUT once, for the switch record. Without it the record was stamped after the
 * scheduler chose the next task and the recorder's lock was taken (a signal-mask system call on the
 * POSIX port): a host descheduling the simulator in that window moved its length from the next task
 * to the previous one (1 run in 13 of an outside application: 4.6 ms, CPU times 6-60 % off). */
static evt_rkh_recorder *g_stream_rec; /* the recorder whose source is wrapped, or NULL */
static evt_rkh_ts_fn g_stream_ts;      /* its own source */
static uint32_t g_stream_sw_ts;        /* read at the switch-out ... */
static uint8_t g_stream_stamp;         /* ... and not yet used */
static uint32_t stream_time(void)
{
    if (g_stream_stamp) {
        g_stream_stamp = 0;
        return g_stream_sw_ts;
    }
    return g_stream_ts();
}

/* Wrap r's timestamp source (r NULL: give the wrapped one its own back). */
static void stream_clock(evt_rkh_recorder *r)
{
    g_stream_stamp = 0;
    if (g_stream_rec) {
        evt_rkh_set_ts(g_stream_rec, g_stream_ts);
        g_stream_rec = 0;
    }
    if (r && r->ts && r->ts != stream_time) {
        g_stream_ts = r->ts;
        g_stream_rec = r;
        evt_rkh_set_ts(r, stream_time);
    }
}

/* The clock keep-alive (evt_freertos_tick): the trace clock at the last TICK record, or at start. */
static uint32_t g_keep_last;
static uint32_t trace_clock(void) { return evt_freertos_on == FR_SNAPSHOT ? (uint32_t)now() : g_stream_rec ? g_stream_ts() : 0u; }

void evt_freertos_set_clock(uint32_t (*fn)(void), uint64_t hz)
{
    g_clock = fn;
    g_clock_hz = fn ? hz : 0u;
}

static const uint8_t k_generic[] = {
#define FR_GEN_(v, name, gen) [v] = EVT_HOOK_STATE_##gen,
    EVT_FREERTOS_STATE_TABLE(FR_GEN_)
#undef FR_GEN_
};
static const uint8_t k_qobj[EVT_FREERTOS_QTYPE_N] = {
#define FR_QOBJ_(e, t, name, obj) [t] = EVT_HOOK_OBJ_##obj,
    EVT_FREERTOS_QTYPE_TABLE(FR_QOBJ_, 0)
#undef FR_QOBJ_
};

static evt_hook_obj qobj(uint32_t qtype) { return (evt_hook_obj)(qtype < EVT_FREERTOS_QTYPE_N ? k_qobj[qtype] : EVT_HOOK_OBJ_OTHER); }

/* The name of an object FreeRTOS names later or never (queues before vQueueAddToRegistry, event
 * groups, stream buffers): its kind, never an empty name. */
static const char *const k_qname[EVT_FREERTOS_QTYPE_N] = {
#define FR_QNAME_(e, t, name, obj) [t] = #name,
    EVT_FREERTOS_QTYPE_TABLE(FR_QNAME_, 0)
#undef FR_QNAME_
};
static const char *obj_default_name(uint32_t type)
{
    return type == EVT_HOOK_OBJ_EVENT_FLAGS ? "EVENT_GROUP" : type == EVT_HOOK_OBJ_MSGBUF ? "STREAM_BUFFER" : "OBJECT";
}

static void started(void)
{
    g_late = g_idle_known != 0; /* the scheduler created its idle task: it runs */
    g_late_n = 0;
    g_from_name = 0;
    g_from = 0;
    g_idle_last = 0;
    g_block = 0;
    g_block_buffer = 0;
    for (uint32_t i = 0; i < EVT_FREERTOS_BUFFER_WAITS; i++) g_buf_wait[i].tcb = 0;
    g_buf_waits = 0;
    g_isr_depth = 0;
#if FR_POSIX_
    evt_posix_mask_signals(1);
#endif
}

/* printf-style user events (evtrace/user.h) in the snapshot ring: every site registers again at its
 * first call after a wrap, so the calls of the oldest records left find their site in a SITE record
 * further on (the reader reads those first: txtb_dec.c user_sites_first). */
#if EVT_TX_FULL_NOTIFY
static void snapshot_full(void *hdr)
{
    (void)hdr;
    evt_user_resend();
}
#endif

/* What both starts do once recording is on: the clock keep-alive's origin, the idle task when the
 * scheduler runs already, and a session started from a task begins in it (late_start). 0. */
static int recording(void)
{
    g_keep_last = trace_clock();
    evt_freertos_idle_task(g_idle_known); /* the scheduler runs already: its idle task */
    late_start();
    return 0;
}

int evt_freertos_start_snapshot(void *buf, uint32_t size, uint32_t registry_entries)
{
    if (evt_freertos_on != FR_OFF) return -1;
    /* evtrace's own three entries (kernel profile, clock, idle task) always fit: the profile is the
     * first, and without it the FreeRTOS trace was read as ThreadX's (0 entries). */
    if (registry_entries < 3u) registry_entries = 3u;
    started();
    evt_txtb_hooks_reset();
    evt_tx_options o; /* member by member: no memset in a freestanding build */
    o.big_endian = -1;
    o.name_size = 0;
    o.time_source = snapshot_time;
    o.time_mask = 0;
    o.context = 0; /* evt_txtb_hooks_enable sets its own */
    o.base_address = 0;
    if (evt_txtb_hooks_enable(buf, size, registry_entries, &o, EVT_HOOK_KERNEL_FREERTOS) != EVT_TX_SUCCESS)
        return -1;
    evt_txtb_hooks_clock(g_clock ? g_clock_hz : evt_port_timestamp_hz());
    evt_user_resend(); /* a new session of user-event sites: this buffer's */
#if EVT_TX_FULL_NOTIFY
    (void)evt_tx_trace_buffer_full_notify(snapshot_full);
#endif
    if (!g_idle_known) evt_txtb_hooks_idle_task(0u, 0u); /* its entry kept now, filled in at the scheduler's start */
    evt_freertos_on = FR_SNAPSHOT;
    return recording();
}

int evt_freertos_start_stream(evt_rkh_recorder *r)
{
    if (evt_freertos_on != FR_OFF || !r) return -1;
    started();
    stream_clock(r);
    evt_rkh_hooks_attach(r);
    evt_rkh_hook_kernel_info(EVT_HOOK_KERNEL_FREERTOS, 1u);
    evt_rkh_hooks_clock(EVT_HOOK_KERNEL_FREERTOS, g_clock ? g_clock_hz : evt_port_timestamp_hz());
    evt_freertos_on = FR_STREAM;
    return recording();
}

void evt_freertos_stop(void)
{
    uint8_t m = evt_freertos_on;
    evt_freertos_on = FR_OFF;
    if (m == FR_SNAPSHOT) {
        (void)evt_tx_trace_disable();
#if EVT_TX_FULL_NOTIFY
        (void)evt_tx_trace_buffer_full_notify((void (*)(void *))0);
#endif
    }
    else if (m == FR_STREAM) {
        evt_rkh_hooks_attach((evt_rkh_recorder *)0);
        stream_clock((evt_rkh_recorder *)0);
    }
}

void evt_freertos_user(uint32_t id, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4)
{
    FR_HOOK_(user, id, a1, a2, a3, a4);
}

void evt_freertos_task_create(const void *tcb, const char *name, uint32_t prio)
{
    if (g_late) (void)late_first(tcb); /* named by this record */
    FR_HOOK_(obj_create, EVT_HOOK_OBJ_THREAD, (uintptr_t)tcb, name, prio); /* ready: its own macro */
}

/* The kernel's idle task: recorded once per handle, so the host counts its running as idle time
 * (SystemView's rule for FreeRTOS: the idle task running is the CPU idle). Snapshot: a registry
 * entry (kept when the ring wraps); stream: a hook.idle_task record. Called while recording is off
 * too (the kernel names it once, when the scheduler starts): remembered, and recorded by a
 * recording started later (evt_freertos_start_*, from a task). */
void evt_freertos_idle_task(const void *tcb)
{
    if (!tcb) return;
    g_idle_known = tcb;
    if (!evt_freertos_on || tcb == g_idle_last) return;
    g_idle_last = tcb;
    if (evt_freertos_on == FR_SNAPSHOT) evt_txtb_hooks_idle_task(0u, (uintptr_t)tcb);
    else if (evt_freertos_on == FR_STREAM) evt_rkh_hooks_idle_task((uintptr_t)tcb);
}

/* 1 when the task name `name` (a TCB's pcTaskName, at most max - 1 characters kept) is the kernel's
 * idle task name `idle` (configIDLE_TASK_NAME, which FreeRTOS truncates the same way). */
static int idle_name(const char *name, const char *idle, uint32_t max)
{
    uint32_t i = 0;
    for (; i + 1u < max && idle[i]; i++)
        if (name[i] != idle[i]) return 0;
    return i + 1u >= max || name[i] == '\0';
}

void evt_freertos_idle_if_named(const void *tcb, const char *name, const char *idle, uint32_t max)
{
    if (name && idle && max && idle_name(name, idle, max)) evt_freertos_idle_task(tcb);
}

void evt_freertos_task_delete(const void *tcb)
{
    (void)buf_wait_take(tcb); /* its TCB may come back as another task's */
    FR_HOOK_(obj_delete, EVT_HOOK_OBJ_THREAD, (uintptr_t)tcb);
}

void evt_freertos_switched_out_named(const void *tcb, uint32_t native_state, const char *name)
{
    evt_freertos_switched_out(tcb, native_state);
    g_from_name = name;
}

void evt_freertos_switched_in_named(const void *tcb, uint32_t prio, const char *name)
{
    const void *from = g_from;
    const char *from_name = g_from_name;
    g_from_name = 0;
    evt_freertos_switched_in(tcb, prio);
    if (g_late && from != tcb) { /* after the switch record, which takes the switch's stamp */
        late_name(from, from_name);
        late_name(tcb, name);
    }
}

void evt_freertos_switched_out(const void *tcb, uint32_t native_state)
{
    if (evt_freertos_on == FR_SNAPSHOT) g_switch_ts = now();
    else if (g_stream_rec) {
        g_stream_sw_ts = g_stream_ts();
        g_stream_stamp = 1;
    }
    g_from = tcb;
    g_from_state = native_state;
}

/* A task switched out ready between a buffer's block and its notification wait (g_block_buffer
 * set): its buffer is kept for it (g_buf_wait). */
static void buf_wait_keep(const void *tcb, const void *buf)
{
    uint32_t k = EVT_FREERTOS_BUFFER_WAITS;
    for (uint32_t i = 0; i < EVT_FREERTOS_BUFFER_WAITS; i++) {
        if (g_buf_wait[i].tcb == tcb) {
            k = i;
            break;
        }
        if (!g_buf_wait[i].tcb && k == EVT_FREERTOS_BUFFER_WAITS) k = i;
    }
    if (k == EVT_FREERTOS_BUFFER_WAITS) {
        k = g_buf_wait_old;
        g_buf_wait_old = (g_buf_wait_old + 1u) % EVT_FREERTOS_BUFFER_WAITS;
    } else if (!g_buf_wait[k].tcb) {
        g_buf_waits++;
    }
    g_buf_wait[k].tcb = tcb;
    g_buf_wait[k].buf = buf;
}

/* Take tcb's entry out of the table: its buffer, or NULL when it has none. */
static const void *buf_wait_take(const void *tcb)
{
    if (!g_buf_waits) return 0;
    for (uint32_t i = 0; i < EVT_FREERTOS_BUFFER_WAITS; i++)
        if (g_buf_wait[i].tcb == tcb) {
            g_buf_wait[i].tcb = 0;
            g_buf_waits--;
            return g_buf_wait[i].buf;
        }
    return 0;
}

void evt_freertos_switched_in(const void *tcb, uint32_t prio)
{
    const void *from = g_from;
    g_from = 0;
    if (from == tcb) { /* the same task again: no switch */
        g_switch_ts = 0;
        g_stream_stamp = 0;
        return;
    }
    uint32_t st = g_from_state < sizeof k_generic ? g_from_state : 1u;
    evt_hook_state gen = from ? (evt_hook_state)k_generic[st] : EVT_HOOK_STATE_READY;
    const void *on = gen == EVT_HOOK_STATE_WAITING ? g_block : 0;
    if (g_block_buffer && from && gen == EVT_HOOK_STATE_READY) buf_wait_keep(from, g_block);
    g_block = buf_wait_take(tcb); /* tcb runs again: a buffer kept for it is its pending block */
    g_block_buffer = g_block != 0;
    FR_HOOK_(thread_switch, (uintptr_t)from, gen, from ? st : 0u, (uintptr_t)on, (uintptr_t)tcb, prio);
}

void evt_freertos_ready(const void *tcb) { FR_HOOK_(thread_ready, (uintptr_t)tcb); }

void evt_freertos_prio(const void *tcb, uint32_t prio, uint32_t why)
{
    FR_HOOK_(prio_set, (uintptr_t)tcb, prio, why <= EVT_HOOK_PRIO_DISINHERIT ? (evt_hook_prio_why)why : EVT_HOOK_PRIO_SET);
}

void evt_freertos_block(const void *obj)
{
    g_block = obj;
    g_block_buffer = 0;
}

void evt_freertos_block_buffer(const void *buf)
{
    g_block = buf;
    g_block_buffer = 1;
}

/* The notification wait right after a buffer's block is the buffer's: the buffer stays. */
void evt_freertos_block_notify(const void *tcb)
{
    if (!g_block_buffer) g_block = tcb;
    g_block_buffer = 0;
}

void evt_freertos_op(uint32_t code, const void *obj, int32_t ret)
{
    FR_HOOK_(obj_op, (int32_t)code, (uintptr_t)obj, ret);
}

void evt_freertos_obj_create(uint32_t type, const void *obj, const char *name)
{
    FR_HOOK_(obj_create, (evt_hook_obj)type, (uintptr_t)obj, name && name[0] ? name : obj_default_name(type), 0u);
}

void evt_freertos_obj_delete(uint32_t type, const void *obj) { FR_HOOK_(obj_delete, (evt_hook_obj)type, (uintptr_t)obj); }

void evt_freertos_obj_name(uint32_t type, const void *obj, const char *name)
{
    FR_HOOK_(obj_name, (evt_hook_obj)type, (uintptr_t)obj, name);
}

void evt_freertos_qobj_create(const void *q, uint32_t qtype)
{
    FR_HOOK_(obj_create, qobj(qtype), (uintptr_t)q, qtype < EVT_FREERTOS_QTYPE_N ? k_qname[qtype] : "OBJECT", 0u);
}
void evt_freertos_qobj_delete(const void *q, uint32_t qtype) { FR_HOOK_(obj_delete, qobj(qtype), (uintptr_t)q); }
void evt_freertos_qobj_name(const void *q, uint32_t qtype, const char *name)
{
    FR_HOOK_(obj_name, qobj(qtype), (uintptr_t)q, name);
}

void evt_freertos_api_enter(uint32_t code, const void *obj)
{
    uintptr_t arg = (uintptr_t)obj;
    FR_HOOK_(svc_enter, (int32_t)code, 1u, &arg);
}

void evt_freertos_api_return(uint32_t code, int32_t ret) { FR_HOOK_(svc_leave, (int32_t)code, ret, 1); }

/* A TICK record once a quarter of the timestamp's range passed since the last one: the reader
 * unwraps the 32-bit (TXTB; RKH: sz_ts bytes) timestamp one wrap at a time, so no two records may be
 * a whole range apart, which a system whose tasks all wait (the idle task records nothing) reached
 * silently (freertos_trace.h, traceTASK_INCREMENT_TICK). Not while a switch's stamp waits for its
 * record (switched_out .. switched_in); a stream whose recorder has no timestamp source: nothing. */
void evt_freertos_tick(const void *tcb, uint32_t tick)
{
    uint32_t span;
    if (g_switch_ts || g_stream_stamp) return;
    if (evt_freertos_on == FR_SNAPSHOT) span = 1u << 30;
    else if (evt_freertos_on == FR_STREAM && g_stream_rec)
        span = g_stream_rec->cfg.sz_ts >= 4u ? 1u << 30 : g_stream_rec->cfg.sz_ts == 2u ? 1u << 14 : 1u << 6;
    else return;
    uint32_t t = trace_clock();
    if (t - g_keep_last < span) return;
    g_keep_last = t;
    FR_HOOK_(obj_op, (int32_t)EVT_FREERTOS_TICK, (uintptr_t)tcb, (int32_t)tick);
}

void evt_freertos_isr_enter(uint32_t irq)
{
    if (!evt_freertos_on) return;
    uint32_t d = g_isr_depth;
    if (d < FR_ISR_NEST_) g_isr_irq[d] = irq;
    g_isr_depth = d + 1u;
    FR_HOOK_(isr_enter, irq);
}

/* The end of the innermost open interrupt, recorded with the number its enter had; nothing when
 * none is open (see g_isr_depth). An exit that names its handler (irq != 0: IPSR on Cortex-M, never
 * 0 in a handler) ends only an interrupt entered with that number: another handler's
 * portYIELD_FROM_ISR, nested in the open one without an enter of its own, ends nothing (it would
 * have cut the open interrupt short, and that one's own exit would then have found none open).
 * An exit that says 0 (the POSIX port, evtFREERTOS_IRQ() elsewhere) cannot tell: it ends the
 * innermost. */
void evt_freertos_isr_exit(uint32_t irq)
{
    uint32_t d = g_isr_depth;
    if (!evt_freertos_on || d == 0u) return;
    uint32_t open = d <= FR_ISR_NEST_ ? g_isr_irq[d - 1u] : irq;
    if (irq != 0u && irq != open) return;
    g_isr_depth = d - 1u;
    FR_HOOK_(isr_exit, open);
}
