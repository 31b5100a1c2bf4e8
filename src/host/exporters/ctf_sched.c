/* The CTF export's scheduling records: the one timeline (src/host/timeline/timeline.h) fed with
 * every event, its sink callbacks written as LTTng's kernel events so Trace Compass and
 * babeltrace2 show threads, CPUs and interrupts as they do for a Linux trace (ctf.h):
 *
 *   sched_switch       {prev_comm, prev_tid, prev_prio, prev_state, next_comm, next_tid, next_prio}
 *   sched_waking       {comm, tid, prio, target_cpu}
 *   irq_handler_entry  {irq, name}
 *   irq_handler_exit   {irq, ret = 1 (IRQ_HANDLED)}
 *
 * tid = timeline context index + 1 (stable, small); a CPU running nothing runs tid 0 "swapper",
 * prio 0 (Linux's idle task is tid 0, "swapper/N"; the Perfetto export names it "swapper" too).
 * comm = the context's name when the record is written (its label "ctx 0x<id>" until it has
 * one). prev_state = the Linux TASK_* value of the state the previous
 * context goes to (evt_tl_state_linux: 0, 1, 4 or 16). prio = the context's latest priority (0
 * unknown), written as int32 (every format's priorities fit). irq = the ISR's interrupt id, -1
 * when the trace names none; name = the timeline's ISR label. target_cpu = the CPU the woken
 * context last ran on (the waker's CPU before it ever ran).
 *
 * An ISR closed by a loss or by the end of the trace (no isr_exit recorded) gets no exit record:
 * entries and exits stay the trace's isr_enter / matched isr_exit events. The timeline's state
 * intervals, slices, counters and flows are not written (LTTng has no kernel event for them; the
 * reader's events carry them). */
#include <stdio.h>
#include <string.h>
#include "host/exporters/ctf.h"

static int32_t tid_(uint32_t index) { return index == EVT_TL_NONE ? 0 : (int32_t)(index + 1); }

/* The stream of a record on timeline CPU slot cpu: the slot is the CPU number except the last,
 * which every CPU from EVT_TL_MAX_CPUS - 1 up shares; that slot's records all go to the stream of
 * the first of those CPUs seen (k->cpu), a real CPU's stream, and one stream for the whole slot:
 * its sched_switch records chain (prev_tid = the previous next_tid) even when a context moves
 * between two of those CPUs or to another CPU (the recording event's own CPU split them). */
static uint32_t cpu_of_(const ctf_sched *k, uint32_t cpu)
{
    return cpu == EVT_TL_MAX_CPUS - 1 && k->cpu ? k->cpu : cpu;
}

static void put_(ctf_sched *k, uint32_t cpu, uint64_t t, ctf_builtin bi, const uint64_t *u, const ctf_bytes *b)
{
    if (k->st != EVT_OK) return;
    int clamped = 0;
    k->st = ctf_put_builtin(k->out, cpu_of_(k, cpu), t, bi, u, b, &clamped);
    k->records++;
    k->clamped += (uint64_t)clamped;
}

static uint64_t int_(int64_t x) { return (uint64_t)x; } /* a signed field's u */

static ctf_bytes text_(const char *s)
{
    ctf_bytes b = {s, strlen(s)};
    return b;
}

/* comm of a context (idle: "swapper") into buf, which must outlive the record's write. */
static ctf_bytes comm_(const ctf_sched *k, uint32_t index, char *buf, size_t len)
{
    const evt_tl_ctx *c = evt_tl_ctx_at(&k->tl, index);
    return text_(c ? evt_tl_ctx_label(c, buf, len) : "swapper");
}

static const ctf_bytes none_ = {NULL, 0}; /* the bytes of an integer field */

static void on_switch_(void *user, const evt_tl_switch *sw)
{
    ctf_sched *k = user;
    char pb[96], nb[96];
    uint64_t u[7] = {
        0, int_(tid_(sw->prev)), int_((int32_t)sw->prev_prio),
        int_(sw->prev == EVT_TL_NONE ? 0 : evt_tl_state_linux(sw->prev_state)),
        0, int_(tid_(sw->next)), int_((int32_t)sw->next_prio),
    };
    ctf_bytes b[7] = {comm_(k, sw->prev, pb, sizeof pb), none_, none_, none_,
                      comm_(k, sw->next, nb, sizeof nb), none_, none_};
    put_(k, sw->cpu, sw->t, CTF_B_SCHED_SWITCH, u, b);
}

static void on_waking_(void *user, const evt_tl_waking *w)
{
    ctf_sched *k = user;
    const evt_tl_ctx *c = evt_tl_ctx_at(&k->tl, w->target);
    if (!c) return;
    char buf[96];
    uint32_t target_cpu = c->switches_in ? cpu_of_(k, c->cpu) : cpu_of_(k, w->cpu);
    uint64_t u[4] = {0, int_(tid_(w->target)), int_(c->has_prio ? (int32_t)c->prio : 0), int_((int32_t)target_cpu)};
    ctf_bytes b[4] = {comm_(k, w->target, buf, sizeof buf), none_, none_, none_};
    put_(k, w->cpu, w->t, CTF_B_SCHED_WAKING, u, b);
}

static int64_t irq_(const evt_tl_isr *iv) { return iv->has_irq ? (int32_t)iv->irq : -1; }

static void on_isr_begin_(void *user, const evt_tl_isr *iv)
{
    uint64_t u[2] = {int_(irq_(iv)), 0};
    ctf_bytes b[2] = {none_, text_(iv->name ? iv->name : "ISR")};
    put_(user, iv->cpu, iv->t0, CTF_B_IRQ_ENTRY, u, b);
}

static void on_isr_(void *user, const evt_tl_isr *iv)
{
    if (iv->truncated || iv->open_end) return; /* no exit was recorded */
    uint64_t u[2] = {int_(irq_(iv)), 1};
    ctf_bytes b[2] = {none_, none_};
    put_(user, iv->cpu, iv->t1, CTF_B_IRQ_EXIT, u, b);
}

int ctf_sched_init(ctf_sched *k, ctf_state *out, uint64_t hz)
{
    memset(k, 0, sizeof *k);
    k->out = out;
    k->st = EVT_OK;
    evt_tl_sink sink = {0};
    sink.user = k;
    sink.sched_switch = on_switch_;
    sink.waking = on_waking_;
    sink.isr_begin = on_isr_begin_;
    sink.isr = on_isr_;
    return evt_tl_init(&k->tl, hz, &sink);
}

void ctf_sched_free(ctf_sched *k) { evt_tl_free(&k->tl); }
