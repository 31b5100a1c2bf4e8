/* Perfetto packet writer (see perfetto_pkt.h): messages are encoded bottom-up into reused
 * buffers and each TracePacket is written as one `Trace.packet` field. */
#include "perfetto_pkt.h"

#include <stdint.h>
#include <string.h>

/* Field numbers (perfetto/protos/perfetto/trace/...). */
enum {
    F_TRACE_PACKET = 1,
    /* TracePacket */
    F_PKT_FTRACE = 1, F_PKT_PROCESS_TREE = 2, F_PKT_TIMESTAMP = 8, F_PKT_SEQ_ID = 10, F_PKT_TRACK_EVENT = 11,
    F_PKT_INTERNED = 12, F_PKT_SEQ_FLAGS = 13, F_PKT_TRACK_DESC = 60,
    /* TrackDescriptor, ProcessDescriptor, ThreadDescriptor */
    F_TD_UUID = 1, F_TD_NAME = 2, F_TD_PROCESS = 3, F_TD_THREAD = 4, F_TD_PARENT = 5, F_TD_COUNTER = 8,
    F_PD_PID = 1, F_PD_NAME = 6,
    F_THD_PID = 1, F_THD_TID = 2, F_THD_NAME = 5,
    /* ProcessTree, .Process, .Thread */
    F_PT_PROCESSES = 1, F_PT_THREADS = 2,
    F_PTP_PID = 1, F_PTP_PPID = 2, F_PTP_CMDLINE = 3,
    F_PTT_TID = 1, F_PTT_NAME = 2, F_PTT_TGID = 3,
    /* TrackEvent, InternedData, DebugAnnotation */
    F_TE_CATEGORY_IIDS = 3, F_TE_DEBUG = 4, F_TE_TYPE = 9, F_TE_NAME_IID = 10, F_TE_TRACK = 11,
    F_TE_COUNTER_VALUE = 30, F_TE_DOUBLE_COUNTER_VALUE = 44, F_TE_FLOW_IDS = 47, F_TE_TERMINATING_FLOW_IDS = 48,
    F_ID_CATEGORIES = 1, F_ID_NAMES = 2, F_ID_DEBUG_NAMES = 3,
    F_INT_IID = 1, F_INT_NAME = 2,
    F_DA_NAME_IID = 1, F_DA_UINT = 3, F_DA_INT = 4, F_DA_STRING = 6,
    /* FtraceEventBundle, FtraceEvent, SchedSwitchFtraceEvent, SchedWakingFtraceEvent */
    F_FB_CPU = 1, F_FB_EVENT = 2,
    F_FE_TIMESTAMP = 1, F_FE_PID = 2, F_FE_SCHED_SWITCH = 4, F_FE_SCHED_WAKING = 20,
    F_SS_PREV_COMM = 1, F_SS_PREV_PID = 2, F_SS_PREV_PRIO = 3, F_SS_PREV_STATE = 4, F_SS_NEXT_COMM = 5,
    F_SS_NEXT_PID = 6, F_SS_NEXT_PRIO = 7,
    F_SW_COMM = 1, F_SW_PID = 2, F_SW_PRIO = 3, F_SW_SUCCESS = 4, F_SW_TARGET_CPU = 5,
};
enum { SEQ_CLEARED = 1, SEQ_NEEDS = 2 };
#define SEQ_TRACK 1   /* TrackEvents, descriptors: interning state lives here */
#define SEQ_KERNEL 2  /* ftrace bundles and the process tree (what traced_probes would write) */
#define FT_BUNDLE_MAX 32768 /* bytes of events per bundle before it is written */

void pf_w_init(pf_w *w, FILE *out)
{
    memset(w, 0, sizeof *w);
    w->out = out;
}

void pf_w_free(pf_w *w)
{
    evt_pb *bufs[] = {&w->pkt, &w->td, &w->sub, &w->sub2, &w->interned, &w->names,
                      &w->cats, &w->dnames, &w->da, &w->ft, &w->obuf};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) evt_pb_free(bufs[i]);
    evt_strtab_free(&w->events);
    evt_strtab_free(&w->categories);
    evt_strtab_free(&w->dbgnames);
}

void pf_w_flush(pf_w *w)
{
    if (w->obuf.n && fwrite(w->obuf.p, 1, w->obuf.n, w->out) != w->obuf.n) w->io = 1;
    evt_pb_clear(&w->obuf);
}

/* Frame the packet in w->pkt as one Trace.packet into the output buffer and clear it. */
static void flush_packet_(pf_w *w)
{
    evt_pb_msg(&w->obuf, F_TRACE_PACKET, &w->pkt);
    evt_pb_clear(&w->pkt);
    if (w->obuf.oom) { w->oom = 1; return; }
    if (w->obuf.n >= PF_OUT_CAP) pf_w_flush(w);
}

static void desc_packet_(pf_w *w, int flags)
{
    evt_pb_clear(&w->pkt);
    evt_pb_uint(&w->pkt, F_PKT_SEQ_ID, SEQ_TRACK);
    if (flags) evt_pb_uint(&w->pkt, F_PKT_SEQ_FLAGS, (uint64_t)flags);
    evt_pb_msg(&w->pkt, F_PKT_TRACK_DESC, &w->td);
    flush_packet_(w);
}

void pf_process(pf_w *w, uint64_t uuid, int32_t pid, const char *name)
{
    evt_pb_clear(&w->td);
    evt_pb_uint(&w->td, F_TD_UUID, uuid);
    evt_pb_clear(&w->sub);
    evt_pb_int(&w->sub, F_PD_PID, pid);
    evt_pb_str(&w->sub, F_PD_NAME, name);
    evt_pb_msg(&w->td, F_TD_PROCESS, &w->sub);
    desc_packet_(w, SEQ_CLEARED);
}

void pf_track(pf_w *w, uint64_t uuid, uint64_t parent, const char *name, int is_counter)
{
    evt_pb_clear(&w->td);
    evt_pb_uint(&w->td, F_TD_UUID, uuid);
    if (parent) evt_pb_uint(&w->td, F_TD_PARENT, parent);
    evt_pb_str(&w->td, F_TD_NAME, name);
    if (is_counter) {
        evt_pb_clear(&w->sub);
        evt_pb_msg(&w->td, F_TD_COUNTER, &w->sub);
    }
    desc_packet_(w, 0);
}

void pf_thread_track(pf_w *w, uint64_t uuid, uint64_t parent, int32_t pid, int32_t tid, const char *name)
{
    evt_pb_clear(&w->td);
    evt_pb_uint(&w->td, F_TD_UUID, uuid);
    if (parent) evt_pb_uint(&w->td, F_TD_PARENT, parent);
    evt_pb_str(&w->td, F_TD_NAME, name);
    evt_pb_clear(&w->sub);
    evt_pb_int(&w->sub, F_THD_PID, pid);
    evt_pb_int(&w->sub, F_THD_TID, tid);
    evt_pb_str(&w->sub, F_THD_NAME, name);
    evt_pb_msg(&w->td, F_TD_THREAD, &w->sub);
    desc_packet_(w, 0);
}

void pf_process_tree(pf_w *w, uint64_t ts, int32_t pid, const char *cmdline, int with_process, int32_t tid,
                     const char *thread_name)
{
    evt_pb_clear(&w->td);
    if (with_process) {
        evt_pb_clear(&w->sub);
        evt_pb_int(&w->sub, F_PTP_PID, pid);
        evt_pb_int(&w->sub, F_PTP_PPID, 0);
        evt_pb_str(&w->sub, F_PTP_CMDLINE, cmdline);
        evt_pb_msg(&w->td, F_PT_PROCESSES, &w->sub);
    }
    if (tid) {
        evt_pb_clear(&w->sub);
        evt_pb_int(&w->sub, F_PTT_TID, tid);
        evt_pb_str(&w->sub, F_PTT_NAME, thread_name);
        evt_pb_int(&w->sub, F_PTT_TGID, pid);
        evt_pb_msg(&w->td, F_PT_THREADS, &w->sub);
    }
    evt_pb_clear(&w->pkt);
    evt_pb_uint(&w->pkt, F_PKT_TIMESTAMP, ts);
    evt_pb_uint(&w->pkt, F_PKT_SEQ_ID, SEQ_KERNEL);
    evt_pb_msg(&w->pkt, F_PKT_PROCESS_TREE, &w->td);
    flush_packet_(w);
}

/* Interned id of str in table t; appends the InternedData entry to `list` (field `field`: 1..3)
 * when new: the packet that first uses an iid carries its definition. A pointer cache skips the
 * hash lookup for strings seen before (the same names and keys recur in every event); a hit on a
 * `stable` string (a literal, a kind name, a timeline label: never rewritten while we run) is
 * trusted, any other is compared (readers may reuse their buffers). */
static uint64_t iid_slow_(pf_w *w, evt_strtab *t, evt_pb *list, uint32_t field, const char *str, pf_iid_slot *slot);
static inline uint64_t iid_(pf_w *w, evt_strtab *t, evt_pb *list, uint32_t field, const char *str, int stable)
{
    pf_iid_slot *slot = &w->cache[field - 1][((uintptr_t)str >> 3) % PF_IID_CACHE];
    if (slot->p == str && (stable || strcmp(evt_strtab_str(t, slot->id), str) == 0)) return slot->id;
    return iid_slow_(w, t, list, field, str, slot);
}

/* iid_ when the pointer cache has no (valid) entry: the hash look-up, the definition if new. */
static uint64_t iid_slow_(pf_w *w, evt_strtab *t, evt_pb *list, uint32_t field, const char *str, pf_iid_slot *slot)
{
    int added;
    uint32_t id = evt_strtab_intern(t, str, strlen(str), &added);
    if (!id) { w->oom = 1; return 0; }
    if (added) {
        evt_pb_clear(&w->sub2);
        evt_pb_uint(&w->sub2, F_INT_IID, id);
        evt_pb_str(&w->sub2, F_INT_NAME, str);
        evt_pb_msg(list, field, &w->sub2);
    }
    slot->p = str;
    slot->id = id;
    return id;
}

/* Bytes of v as a varint. */
static inline uint32_t vlen_(uint64_t v)
{
    uint32_t n = 1;
    while (v >= 0x80) { v >>= 7; n++; }
    return n;
}

static inline uint8_t *vput_(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) { *p++ = (uint8_t)(v | 0x80); v >>= 7; }
    *p++ = (uint8_t)v;
    return p;
}

void pf_te_begin(pf_w *w, int type, uint64_t track, uint64_t ts)
{
    /* the TracePacket and its TrackEvent are written in place into the output buffer */
    evt_pb_clear(&w->names);
    evt_pb_clear(&w->cats);
    evt_pb_clear(&w->dnames);
    evt_pb *b = &w->obuf;
    if (b->cap - b->n >= 2 + 11 + 4 + 2 + 11 + 11) { /* room for all of it: one pass, the same bytes */
        uint8_t *p = b->p + b->n;
        *p++ = (uint8_t)(F_TRACE_PACKET << 3 | 2);
        *p++ = 0; /* length: pf_te_emit */
        w->pkt_at = (size_t)(p - b->p);
        *p++ = (uint8_t)(F_PKT_TIMESTAMP << 3);
        p = vput_(p, ts);
        *p++ = (uint8_t)(F_PKT_SEQ_ID << 3);
        *p++ = SEQ_TRACK;
        *p++ = (uint8_t)(F_PKT_SEQ_FLAGS << 3);
        *p++ = SEQ_NEEDS;
        *p++ = (uint8_t)(F_PKT_TRACK_EVENT << 3 | 2);
        *p++ = 0;
        w->te_at = (size_t)(p - b->p);
        *p++ = (uint8_t)(F_TE_TYPE << 3);
        p = vput_(p, (uint64_t)type);
        *p++ = (uint8_t)(F_TE_TRACK << 3);
        p = vput_(p, track);
        b->n = (size_t)(p - b->p);
        return;
    }
    w->pkt_at = evt_pb_open(&w->obuf, F_TRACE_PACKET);
    evt_pb_uint(&w->obuf, F_PKT_TIMESTAMP, ts);
    evt_pb_uint(&w->obuf, F_PKT_SEQ_ID, SEQ_TRACK);
    evt_pb_uint(&w->obuf, F_PKT_SEQ_FLAGS, SEQ_NEEDS);
    w->te_at = evt_pb_open(&w->obuf, F_PKT_TRACK_EVENT);
    evt_pb_uint(&w->obuf, F_TE_TYPE, (uint64_t)type);
    evt_pb_uint(&w->obuf, F_TE_TRACK, track);
}

void pf_te_name(pf_w *w, const char *name, int name_stable, const char *category)
{
    if (category)
        evt_pb_uint(&w->obuf, F_TE_CATEGORY_IIDS, iid_(w, &w->categories, &w->cats, F_ID_CATEGORIES, category, 1));
    evt_pb_uint(&w->obuf, F_TE_NAME_IID, iid_(w, &w->events, &w->names, F_ID_NAMES, name, name_stable));
}

/* A DebugAnnotation, written in place into the TrackEvent: its length (at most 1 + 5 + 1 + 10
 * bytes) is known before its fields, so the tag, the length and the fields go out in one pass
 * (the bytes of evt_pb_open / the fields / evt_pb_close). */
static void ann_u_(pf_w *w, const char *key, int key_stable, uint64_t v, int is_signed)
{
    uint64_t iid = iid_(w, &w->dbgnames, &w->dnames, F_ID_DEBUG_NAMES, key, key_stable);
    evt_pb *b = &w->obuf;
    uint32_t field = is_signed ? F_DA_INT : F_DA_UINT; /* int64: two's complement, the same varint */
    if (b->cap - b->n < 2 + 17) { /* growth: the general path */
        size_t at = evt_pb_open(b, F_TE_DEBUG);
        evt_pb_uint(b, F_DA_NAME_IID, iid);
        evt_pb_uint(b, field, v);
        evt_pb_close(b, at);
        return;
    }
    uint8_t *p = b->p + b->n;
    *p++ = (uint8_t)(F_TE_DEBUG << 3 | 2);
    *p++ = (uint8_t)(2 + vlen_(iid) + vlen_(v));
    *p++ = (uint8_t)(F_DA_NAME_IID << 3);
    p = vput_(p, iid);
    *p++ = (uint8_t)(field << 3);
    p = vput_(p, v);
    b->n = (size_t)(p - b->p);
}

static void ann_s_(pf_w *w, const char *key, int key_stable, const char *s, size_t n)
{
    uint64_t iid = iid_(w, &w->dbgnames, &w->dnames, F_ID_DEBUG_NAMES, key, key_stable);
    size_t at = evt_pb_open(&w->obuf, F_TE_DEBUG);
    evt_pb_uint(&w->obuf, F_DA_NAME_IID, iid);
    evt_pb_bytes(&w->obuf, F_DA_STRING, s, n);
    evt_pb_close(&w->obuf, at);
}

void pf_ann_u(pf_w *w, const char *key, uint64_t v, int is_signed) { ann_u_(w, key, 1, v, is_signed); }

void pf_ann_s(pf_w *w, const char *key, const char *s, size_t n) { ann_s_(w, key, 1, s, n); }

void pf_ann_event(pf_w *w, const evt_event *ev)
{
    static const char *const argk[EVT_MAX_ARGS] = {"arg0", "arg1", "arg2", "arg3", "arg4", "arg5", "arg6", "arg7",
                                                   "arg8", "arg9", "arg10", "arg11", "arg12", "arg13", "arg14", "arg15"};
    pf_ann_u(w, "id", ev->id, 0);
    for (uint32_t i = 0; i < ev->nargs && i < EVT_MAX_ARGS; i++) pf_ann_u(w, argk[i], ev->args[i], 0);
    if (ev->flags & EVT_HAS_TARGET) {
        pf_ann_u(w, "target", ev->target, 0);
        if (ev->target_name) pf_ann_s(w, "object", ev->target_name, strlen(ev->target_name));
    }
    if (ev->flags & EVT_HAS_COUNT) pf_ann_u(w, "count", ev->count, 0);
    for (uint32_t i = 0; i < ev->nfields; i++) {
        const evt_field *f = &ev->fields[i];
        if (!f->key) continue;
        if (f->is_str) ann_s_(w, f->key, 0, f->str ? f->str : "", f->str ? strlen(f->str) : 0);
        else ann_u_(w, f->key, 0, f->num, f->is_signed);
    }
    if (ev->data && ev->data_is_text) pf_ann_s(w, "text", (const char *)ev->data, ev->data_len);
}

void pf_te_counter(pf_w *w, int64_t v) { evt_pb_int(&w->obuf, F_TE_COUNTER_VALUE, v); }

void pf_te_counter_double(pf_w *w, double v) { evt_pb_double(&w->obuf, F_TE_DOUBLE_COUNTER_VALUE, v); }

void pf_te_flow(pf_w *w, uint64_t id, int terminating)
{
    evt_pb_fixed64(&w->obuf, terminating ? F_TE_TERMINATING_FLOW_IDS : F_TE_FLOW_IDS, id);
}

void pf_te_emit(pf_w *w)
{
    evt_pb_close(&w->obuf, w->te_at);
    if (w->names.n || w->cats.n || w->dnames.n) {
        /* InternedData: the new entries of each list, already encoded as repeated fields. */
        size_t ia = evt_pb_open(&w->obuf, F_PKT_INTERNED);
        evt_pb_append(&w->obuf, &w->cats);
        evt_pb_append(&w->obuf, &w->names);
        evt_pb_append(&w->obuf, &w->dnames);
        evt_pb_close(&w->obuf, ia);
        if (w->names.oom || w->cats.oom || w->dnames.oom || w->sub2.oom) w->oom = 1;
    }
    evt_pb_close(&w->obuf, w->pkt_at);
    if (w->obuf.oom) { w->oom = 1; return; }
    if (w->obuf.n >= PF_OUT_CAP) pf_w_flush(w);
}

void pf_ft_flush(pf_w *w)
{
    if (!w->ft.n) return;
    evt_pb_clear(&w->sub);
    evt_pb_uint(&w->sub, F_FB_CPU, w->ft_cpu);
    evt_pb_append(&w->sub, &w->ft);
    evt_pb_clear(&w->ft);
    evt_pb_clear(&w->pkt);
    evt_pb_uint(&w->pkt, F_PKT_SEQ_ID, SEQ_KERNEL);
    evt_pb_msg(&w->pkt, F_PKT_FTRACE, &w->sub);
    if (w->sub.oom) w->oom = 1;
    flush_packet_(w);
}

/* Add the FtraceEvent in w->td (its payload already in w->sub2 under `field`) to cpu's bundle. */
static void ft_add_(pf_w *w, uint32_t cpu, uint64_t ts, uint32_t pid, uint32_t field)
{
    if (w->ft.n && (w->ft_cpu != cpu || w->ft.n >= FT_BUNDLE_MAX)) pf_ft_flush(w);
    w->ft_cpu = cpu;
    evt_pb_clear(&w->td);
    evt_pb_uint(&w->td, F_FE_TIMESTAMP, ts);
    evt_pb_uint(&w->td, F_FE_PID, pid);
    evt_pb_msg(&w->td, field, &w->sub2);
    evt_pb_msg(&w->ft, F_FB_EVENT, &w->td);
    if (w->td.oom || w->ft.oom) w->oom = 1;
}

void pf_ft_switch(pf_w *w, uint32_t cpu, uint64_t ts, const pf_task *prev, int64_t prev_state, const pf_task *next)
{
    evt_pb_clear(&w->sub2);
    evt_pb_str(&w->sub2, F_SS_PREV_COMM, prev->comm);
    evt_pb_int(&w->sub2, F_SS_PREV_PID, prev->pid);
    evt_pb_int(&w->sub2, F_SS_PREV_PRIO, prev->prio);
    evt_pb_int(&w->sub2, F_SS_PREV_STATE, prev_state);
    evt_pb_str(&w->sub2, F_SS_NEXT_COMM, next->comm);
    evt_pb_int(&w->sub2, F_SS_NEXT_PID, next->pid);
    evt_pb_int(&w->sub2, F_SS_NEXT_PRIO, next->prio);
    ft_add_(w, cpu, ts, (uint32_t)prev->pid, F_FE_SCHED_SWITCH);
}

void pf_ft_waking(pf_w *w, uint32_t cpu, uint64_t ts, int32_t waker_pid, const pf_task *target, int32_t target_cpu)
{
    evt_pb_clear(&w->sub2);
    evt_pb_str(&w->sub2, F_SW_COMM, target->comm);
    evt_pb_int(&w->sub2, F_SW_PID, target->pid);
    evt_pb_int(&w->sub2, F_SW_PRIO, target->prio);
    evt_pb_int(&w->sub2, F_SW_SUCCESS, 1);
    evt_pb_int(&w->sub2, F_SW_TARGET_CPU, target_cpu);
    ft_add_(w, cpu, ts, (uint32_t)waker_pid, F_FE_SCHED_WAKING);
}
