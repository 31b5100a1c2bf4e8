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
 * trusted, any other is compared with the interned copy (readers may reuse their buffers). */
static uint64_t iid_slow_(pf_w *w, evt_strtab *t, evt_pb *list, uint32_t field, const char *str, pf_iid_slot *slot);
static inline uint64_t iid_(pf_w *w, evt_strtab *t, evt_pb *list, uint32_t field, const char *str, int stable)
{
    pf_iid_slot *slot = &w->cache[field - 1][((uintptr_t)str >> 3) % PF_IID_CACHE];
    if (slot->p == str && (stable || strcmp(slot->own, str) == 0)) return slot->id;
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
    slot->own = evt_strtab_str(t, id);
    slot->id = id;
    return id;
}

/* Writes v as a varint at p; returns the byte after it. */
static inline uint8_t *vput_(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) { *p++ = (uint8_t)(v | 0x80); v >>= 7; }
    *p++ = (uint8_t)v;
    return p;
}

/* Timestamps as varints: a varint of v >= 2^21 is the low three 7-bit groups (each with its
 * continuation bit) followed by the varint of v >> 21, and consecutive timestamps share that high
 * part (it changes every 2 ms of ns), so it is kept encoded and copied. */
#define TS_LO_BITS 21

static uint8_t *ts_put_slow_(pf_w *w, uint8_t *p, uint64_t v)
{
    uint64_t hi = v >> TS_LO_BITS;
    if (hi) { /* at most 43 bits: a 7-byte varint */
        w->ts_hi = hi;
        w->ts_hi_len = (uint8_t)(vput_(w->ts_hi_b, hi) - w->ts_hi_b);
    }
    return vput_(p, v);
}

/* Writes ts as a varint at p (room for 3 + 8 bytes); returns the byte after it. */
static inline uint8_t *ts_put_(pf_w *w, uint8_t *p, uint64_t v)
{
    uint64_t hi = v >> TS_LO_BITS;
    if (!hi || hi != w->ts_hi) return ts_put_slow_(w, p, v);
    p[0] = (uint8_t)(v | 0x80);
    p[1] = (uint8_t)((v >> 7) | 0x80);
    p[2] = (uint8_t)((v >> 14) | 0x80);
    memcpy(p + 3, w->ts_hi_b, sizeof w->ts_hi_b);
    return p + 3 + w->ts_hi_len;
}

/* The head of a TrackEvent of this type (1..127) on this track, encoded once per cache slot. */
static inline const pf_te_head *te_head_(pf_w *w, int type, uint64_t track)
{
    uint64_t k = (track << 2 | (uint64_t)(type & 3)) * 0x9E3779B97F4A7C15ull;
    pf_te_head *h = &w->heads[k >> 57]; /* 7 bits: PF_HEAD_CACHE slots */
    if (h->track == track && h->type == (uint8_t)type) return h;
    uint8_t *p = h->b;
    *p++ = (uint8_t)(F_PKT_SEQ_ID << 3);
    *p++ = SEQ_TRACK;
    *p++ = (uint8_t)(F_PKT_SEQ_FLAGS << 3);
    *p++ = SEQ_NEEDS;
    *p++ = (uint8_t)(F_PKT_TRACK_EVENT << 3 | 2);
    *p++ = 0; /* the TrackEvent's length: pf_te_emit */
    *p++ = (uint8_t)(F_TE_TYPE << 3);
    *p++ = (uint8_t)type;
    *p++ = (uint8_t)(F_TE_TRACK << 3);
    p = vput_(p, track);
    h->len = (uint8_t)(p - h->b);
    h->track = track;
    h->type = (uint8_t)type;
    return h;
}
#define TE_HEAD_AT 6 /* the TrackEvent's first byte in a head */
_Static_assert(PF_HEAD_CACHE == 128, "te_head_ takes 7 bits of the hash");

/* Bytes pf_te_begin writes at most: packet tag + length + timestamp tag, the timestamp (with the
 * copied high part), the whole head. */
#define TE_HEAD_MAX (3 + 3 + 8 + sizeof(((pf_te_head *)0)->b))

void pf_te_begin(pf_w *w, int type, uint64_t track, uint64_t ts)
{
    /* The TracePacket and its TrackEvent are written in place into the output buffer. The
     * interned lists are empty here: pf_te_emit clears what it writes. */
    evt_pb *b = &w->obuf;
    if (b->cap - b->n >= TE_HEAD_MAX && type > 0 && type < 0x80) { /* one pass, the same bytes */
        const pf_te_head *h = te_head_(w, type, track);
        uint8_t *p = b->p + b->n;
        p[0] = (uint8_t)(F_TRACE_PACKET << 3 | 2);
        p[1] = 0; /* length: pf_te_emit */
        p[2] = (uint8_t)(F_PKT_TIMESTAMP << 3);
        w->pkt_at = b->n + 2;
        p = ts_put_(w, p + 3, ts);
        memcpy(p, h->b, sizeof h->b);
        w->te_at = (size_t)(p - b->p) + TE_HEAD_AT;
        b->n = (size_t)(p - b->p) + h->len;
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
    uint64_t cat = category ? iid_(w, &w->categories, &w->cats, F_ID_CATEGORIES, category, 1) : 0;
    uint64_t nm = iid_(w, &w->events, &w->names, F_ID_NAMES, name, name_stable);
    evt_pb *b = &w->obuf;
    if (b->cap - b->n < 2 * 11) { /* growth: the general path */
        if (category) evt_pb_uint(b, F_TE_CATEGORY_IIDS, cat);
        evt_pb_uint(b, F_TE_NAME_IID, nm);
        return;
    }
    uint8_t *p = b->p + b->n;
    if (category) {
        *p++ = (uint8_t)(F_TE_CATEGORY_IIDS << 3);
        p = vput_(p, cat);
    }
    *p++ = (uint8_t)(F_TE_NAME_IID << 3);
    p = vput_(p, nm);
    b->n = (size_t)(p - b->p);
}

/* The iid of an annotation key. */
static inline uint64_t key_iid_(pf_w *w, const char *key, int key_stable)
{
    return iid_(w, &w->dbgnames, &w->dnames, F_ID_DEBUG_NAMES, key, key_stable);
}

/* The iid of pf_ann_event's own key k (a literal), found once. */
static inline uint64_t kiid_(pf_w *w, unsigned k, const char *key)
{
    uint32_t id = w->kiid[k];
    if (!id) id = w->kiid[k] = (uint32_t)key_iid_(w, key, 1); /* 0 (out of memory): found again next time */
    return id;
}

/* A DebugAnnotation {name_iid, field = v}, written in place into the TrackEvent: its length (at
 * most 1 + 5 + 1 + 10 bytes) fits one byte, so the tag, the length and the fields go out in one
 * pass (the bytes of evt_pb_open / the fields / evt_pb_close). int64 is two's complement, the
 * same varint. */
static inline void ann_put_u_(pf_w *w, uint64_t iid, int is_signed, uint64_t v)
{
    evt_pb *b = &w->obuf;
    uint32_t field = is_signed ? F_DA_INT : F_DA_UINT;
    if (b->cap - b->n < 2 + 1 + 10 + 1 + 10) { /* growth: the general path */
        size_t at = evt_pb_open(b, F_TE_DEBUG);
        evt_pb_uint(b, F_DA_NAME_IID, iid);
        evt_pb_uint(b, field, v);
        evt_pb_close(b, at);
        return;
    }
    uint8_t *p = b->p + b->n, *q;
    p[0] = (uint8_t)(F_TE_DEBUG << 3 | 2);
    p[2] = (uint8_t)(F_DA_NAME_IID << 3);
    q = vput_(p + 3, iid);
    *q++ = (uint8_t)(field << 3);
    q = vput_(q, v);
    p[1] = (uint8_t)(q - p - 2);
    b->n = (size_t)(q - b->p);
}

/* A DebugAnnotation {name_iid, string_value = s[0..n)}; in one pass while its length fits one
 * byte (1 + 5 + 1 + 1 + n < 128). */
static inline void ann_put_s_(pf_w *w, uint64_t iid, const char *s, size_t n)
{
    evt_pb *b = &w->obuf;
    if (n >= 0x70 || b->cap - b->n < 2 + 1 + 5 + 2 + n) {
        size_t at = evt_pb_open(b, F_TE_DEBUG);
        evt_pb_uint(b, F_DA_NAME_IID, iid);
        evt_pb_bytes(b, F_DA_STRING, s, n);
        evt_pb_close(b, at);
        return;
    }
    uint8_t *p = b->p + b->n, *q;
    p[0] = (uint8_t)(F_TE_DEBUG << 3 | 2);
    p[2] = (uint8_t)(F_DA_NAME_IID << 3);
    q = vput_(p + 3, iid);
    q[0] = (uint8_t)(F_DA_STRING << 3 | 2);
    q[1] = (uint8_t)n;
    if (n) memcpy(q + 2, s, n);
    q += 2 + n;
    p[1] = (uint8_t)(q - p - 2);
    b->n = (size_t)(q - b->p);
}

void pf_ann_u(pf_w *w, const char *key, uint64_t v, int is_signed) { ann_put_u_(w, key_iid_(w, key, 1), is_signed, v); }

void pf_ann_s(pf_w *w, const char *key, const char *s, size_t n) { ann_put_s_(w, key_iid_(w, key, 1), s, n); }

void pf_ann_event(pf_w *w, const evt_event *ev)
{
    static const char *const argk[EVT_MAX_ARGS] = {"arg0", "arg1", "arg2", "arg3", "arg4", "arg5", "arg6", "arg7",
                                                   "arg8", "arg9", "arg10", "arg11", "arg12", "arg13", "arg14", "arg15"};
    ann_put_u_(w, kiid_(w, PF_K_ID, "id"), 0, ev->id);
    uint32_t na = ev->nargs < EVT_MAX_ARGS ? ev->nargs : EVT_MAX_ARGS;
    for (uint32_t i = 0; i < na; i++) ann_put_u_(w, kiid_(w, PF_K_ARG0 + i, argk[i]), 0, ev->args[i]);
    if (ev->flags & EVT_HAS_TARGET) {
        ann_put_u_(w, kiid_(w, PF_K_TARGET, "target"), 0, ev->target);
        if (ev->target_name)
            ann_put_s_(w, kiid_(w, PF_K_OBJECT, "object"), ev->target_name, strlen(ev->target_name));
    }
    if (ev->flags & EVT_HAS_COUNT) ann_put_u_(w, kiid_(w, PF_K_COUNT, "count"), 0, ev->count);
    for (uint32_t i = 0; i < ev->nfields; i++) {
        const evt_field *f = &ev->fields[i];
        if (!f->key) continue;
        uint64_t iid = key_iid_(w, f->key, 0); /* the reader's key: checked against its interned copy */
        if (f->is_str) ann_put_s_(w, iid, f->str ? f->str : "", f->str ? strlen(f->str) : 0);
        else ann_put_u_(w, iid, f->is_signed, f->num);
    }
    if (ev->data && ev->data_is_text)
        ann_put_s_(w, kiid_(w, PF_K_TEXT, "text"), (const char *)ev->data, ev->data_len);
}

void pf_te_counter(pf_w *w, int64_t v) { evt_pb_int(&w->obuf, F_TE_COUNTER_VALUE, v); }

void pf_te_counter_double(pf_w *w, double v) { evt_pb_double(&w->obuf, F_TE_DOUBLE_COUNTER_VALUE, v); }

void pf_te_flow(pf_w *w, uint64_t id, int terminating)
{
    evt_pb_fixed64(&w->obuf, terminating ? F_TE_TERMINATING_FLOW_IDS : F_TE_FLOW_IDS, id);
}

/* The InternedData of the packet being emitted: the new entries of each list, already encoded
 * as repeated fields; the lists are cleared for the next packet. */
static void interned_(pf_w *w)
{
    size_t ia = evt_pb_open(&w->obuf, F_PKT_INTERNED);
    evt_pb_append(&w->obuf, &w->cats);
    evt_pb_append(&w->obuf, &w->names);
    evt_pb_append(&w->obuf, &w->dnames);
    evt_pb_close(&w->obuf, ia);
    if (w->names.oom || w->cats.oom || w->dnames.oom || w->sub2.oom) w->oom = 1;
    evt_pb_clear(&w->names);
    evt_pb_clear(&w->cats);
    evt_pb_clear(&w->dnames);
}

void pf_te_emit(pf_w *w)
{
    evt_pb_close(&w->obuf, w->te_at);
    if (w->names.n | w->cats.n | w->dnames.n) interned_(w);
    evt_pb_close(&w->obuf, w->pkt_at);
    if (w->obuf.oom) { w->oom = 1; return; }
    if (w->obuf.n >= PF_OUT_CAP) pf_w_flush(w);
}

/* Bytes of v as a varint. */
static inline size_t vlen_(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) { v >>= 7; n++; }
    return n;
}

void pf_ft_flush(pf_w *w)
{
    if (!w->ft.n) return;
    /* TracePacket {sequence id, ftrace {cpu, the events}}: the heads go straight into the output
     * buffer (their lengths are known), the events follow in one copy. */
    size_t bundle = 1 + vlen_(w->ft_cpu) + w->ft.n;
    size_t pkt = 2 + 1 + vlen_(bundle) + bundle;
    evt_pb_key_(&w->obuf, (uint64_t)F_TRACE_PACKET << 3 | 2, pkt);
    evt_pb_uint(&w->obuf, F_PKT_SEQ_ID, SEQ_KERNEL);
    evt_pb_key_(&w->obuf, (uint64_t)F_PKT_FTRACE << 3 | 2, bundle);
    evt_pb_uint(&w->obuf, F_FB_CPU, w->ft_cpu);
    evt_pb_append(&w->obuf, &w->ft);
    evt_pb_clear(&w->ft);
    if (w->obuf.oom) { w->oom = 1; return; }
    if (w->obuf.n >= PF_OUT_CAP) pf_w_flush(w);
}

/* FtraceEvents are written in place into cpu's bundle in one pass: ft_begin_ makes room for the
 * event (writing the bundle first when the CPU changes or it is full) and writes its head; the
 * caller writes the payload's fields; ft_end_ sets the two lengths (the bytes of evt_pb_msg). */
typedef struct ft_ev {
    size_t at_ev, at_pl;     /* first byte of the FtraceEvent and of its payload in w->ft */
} ft_ev;

static inline uint8_t *put_int_(uint8_t *p, uint32_t field, int64_t v) /* field < 16 */
{
    *p++ = (uint8_t)(field << 3);
    return vput_(p, (uint64_t)v); /* int32/int64: two's complement */
}

static inline uint8_t *put_str_(uint8_t *p, uint32_t field, const char *s, size_t n) /* field < 16 */
{
    *p++ = (uint8_t)(field << 3 | 2);
    p = vput_(p, n);
    if (n) memcpy(p, s, n);
    return p + n;
}

/* NULL when out of memory. `payload`: the payload's size at most. */
static uint8_t *ft_begin_(pf_w *w, uint32_t cpu, uint64_t ts, uint32_t pid, uint32_t field, size_t payload, ft_ev *e)
{
    if (w->ft.n && (w->ft_cpu != cpu || w->ft.n >= FT_BUNDLE_MAX)) pf_ft_flush(w);
    w->ft_cpu = cpu;
    if (!evt_pb_reserve(&w->ft, 2 + 11 + 11 + 3 + payload)) { w->oom = 1; return NULL; }
    uint8_t *p = w->ft.p + w->ft.n;
    *p++ = (uint8_t)(F_FB_EVENT << 3 | 2);
    *p++ = 0;
    e->at_ev = (size_t)(p - w->ft.p);
    p = put_int_(p, F_FE_TIMESTAMP, (int64_t)ts);
    p = put_int_(p, F_FE_PID, (int64_t)pid);
    p = vput_(p, (uint64_t)field << 3 | 2);
    *p++ = 0;
    e->at_pl = (size_t)(p - w->ft.p);
    return p;
}

static inline void ft_end_(pf_w *w, uint8_t *end, const ft_ev *e)
{
    w->ft.n = (size_t)(end - w->ft.p);
    evt_pb_close(&w->ft, e->at_pl); /* innermost first */
    evt_pb_close(&w->ft, e->at_ev);
    if (w->ft.oom) w->oom = 1;
}

void pf_ft_switch(pf_w *w, uint32_t cpu, uint64_t ts, const pf_task *prev, int64_t prev_state, const pf_task *next)
{
    size_t lp = strlen(prev->comm), ln = strlen(next->comm);
    ft_ev e;
    uint8_t *p = ft_begin_(w, cpu, ts, (uint32_t)prev->pid, F_FE_SCHED_SWITCH, 2 * 11 + lp + ln + 5 * 11, &e);
    if (!p) return;
    p = put_str_(p, F_SS_PREV_COMM, prev->comm, lp);
    p = put_int_(p, F_SS_PREV_PID, prev->pid);
    p = put_int_(p, F_SS_PREV_PRIO, prev->prio);
    p = put_int_(p, F_SS_PREV_STATE, prev_state);
    p = put_str_(p, F_SS_NEXT_COMM, next->comm, ln);
    p = put_int_(p, F_SS_NEXT_PID, next->pid);
    p = put_int_(p, F_SS_NEXT_PRIO, next->prio);
    ft_end_(w, p, &e);
}

void pf_ft_waking(pf_w *w, uint32_t cpu, uint64_t ts, int32_t waker_pid, const pf_task *target, int32_t target_cpu)
{
    size_t lt = strlen(target->comm);
    ft_ev e;
    uint8_t *p = ft_begin_(w, cpu, ts, (uint32_t)waker_pid, F_FE_SCHED_WAKING, 11 + lt + 4 * 11, &e);
    if (!p) return;
    p = put_str_(p, F_SW_COMM, target->comm, lt);
    p = put_int_(p, F_SW_PID, target->pid);
    p = put_int_(p, F_SW_PRIO, target->prio);
    p = put_int_(p, F_SW_SUCCESS, 1);
    p = put_int_(p, F_SW_TARGET_CPU, target_cpu);
    ft_end_(w, p, &e);
}
