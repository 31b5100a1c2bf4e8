/* Perfetto packet writer: TracePacket framing, track descriptors, the process tree, TrackEvents
 * with interned names / categories / annotation keys (packet sequence 1), and per-CPU ftrace
 * bundles of sched_switch / sched_waking (packet sequence 2). Field numbers are Perfetto's
 * (protos/perfetto/trace/...; tests/host/data/perfetto_subset.proto lists the ones used).
 * Every buffer is reused, so memory stays flat however long the trace. Errors are sticky: check
 * pf_w_failed() after a batch of calls. */
#ifndef EVT_EXPORTERS_PERFETTO_PKT_H
#define EVT_EXPORTERS_PERFETTO_PKT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "evtrace/model.h"
#include "host/ro_image.h"
#include "host/strtab.h"
#include "pb.h"

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
    F_TE_EXTRA_COUNTER_VALUES = 12, F_TE_EXTRA_COUNTER_TRACK_UUIDS = 31,
    F_ID_CATEGORIES = 1, F_ID_NAMES = 2, F_ID_DEBUG_NAMES = 3, F_ID_DA_STRINGS = 29,
    F_INT_IID = 1, F_INT_NAME = 2,
    F_DA_NAME_IID = 1, F_DA_UINT = 3, F_DA_INT = 4, F_DA_STRING = 6, F_DA_STRING_IID = 17,
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

enum { PF_SLICE_BEGIN = 1, PF_SLICE_END = 2, PF_INSTANT = 3, PF_COUNTER = 4 }; /* TrackEvent.Type */

#define PF_IID_CACHE 1024 /* slots per interning table of the pointer cache */
#define PF_IID_BITS 10    /* log2(PF_IID_CACHE) */
#define PF_OUT_CAP 65536  /* output buffer: packets are written in chunks of about this size */

/* A string pointer seen before, its iid and the interned copy (an unstable pointer is checked
 * against it: readers may reuse their buffers, unless it points into the program's read-only
 * image, where a string's bytes never change). */
typedef struct pf_iid_slot {
    const char *p;
    const char *own;         /* the string table's copy (owned there, never moves) */
    uint32_t id;
    uint8_t ro;              /* p is in the program's read-only image (pf_w.ro) */
    uint8_t head_len;        /* bytes of head: 4..8 (0: none) */
    uint8_t head[8];         /* a DebugAnnotation named id: its tag, its 1-byte length (that of
                                name_iid, a value tag and a 1-byte value), name_iid */
} pf_iid_slot;

/* Annotation keys pf_ann_event writes for every event: their slots, found once (head_len 0: not
 * yet). */
enum { PF_K_ID, PF_K_ARG0, PF_K_TARGET = PF_K_ARG0 + EVT_MAX_ARGS, PF_K_OBJECT, PF_K_COUNT, PF_K_TEXT, PF_K_N };

#define PF_FKEY_N 32 /* pf_w.fkey: a power of 2 at least EVT_MAX_FIELDS (indexed i % PF_FKEY_N) */
_Static_assert(PF_FKEY_N >= EVT_MAX_FIELDS && !(PF_FKEY_N & (PF_FKEY_N - 1)), "PF_FKEY_N");

#define PF_HEAD_CACHE 128 /* slots of the TrackEvent head cache */

/* The constant bytes of a TrackEvent packet after its timestamp, for one (type, track): sequence
 * id and flags, the TrackEvent tag and a 1-byte length, type, track uuid (pf_te_begin). */
typedef struct pf_te_head {
    uint64_t track;
    uint8_t type;            /* 0: empty slot (TrackEvent types are 1..4) */
    uint8_t len;             /* bytes of b used */
    uint8_t b[24];           /* 9 + a 10-byte varint at most; copied whole */
} pf_te_head;

typedef struct pf_w {
    FILE *out;
    evt_pb obuf;             /* framed packets not yet written */
    evt_pb pkt, td, sub, sub2, interned, names, cats, dnames, da; /* reusable buffers */
    size_t pkt_at, te_at;    /* the open TracePacket and TrackEvent in obuf (pf_te_begin) */
    evt_pb ft;               /* FtraceEvent entries of the open bundle (field 2 each) */
    uint32_t ft_cpu;         /* CPU of the open bundle (valid when ft.n) */
    evt_strtab events;       /* interned event names (iid = id) */
    evt_strtab categories;   /* interned categories */
    evt_strtab dbgnames;     /* interned annotation names */
    evt_strtab svals;        /* interned annotation string values (pf_ann_event: short ones) */
    evt_pb svlist;           /* their new entries (InternedData.debug_annotation_string_values) */
    pf_iid_slot vcache[PF_IID_CACHE]; /* their pointer cache */
    pf_iid_slot cache[3][PF_IID_CACHE]; /* categories, names, annotation names */
    pf_iid_slot kkey[PF_K_N]; /* pf_ann_event's own keys (head_len 0: not interned yet) */
    uint32_t nkargs;         /* kkey[PF_K_ARG0 + i] is interned for every i below it */
    const pf_iid_slot *fkey[PF_FKEY_N]; /* the slot of field i's last key (pf_ann_event; any slot:
                                trusted only while it holds that key, read-only) */
    evt_ro_image ro;         /* the program's read-only segments: literals (host/ro_image.h) */
    uint64_t pre_iid[4];     /* the open track event's annotations by pf_ann_u / pf_ann_s (the first
                                4): pf_ann_event writes no second one of those names */
    uint32_t npre;           /* how many (pf_te_emit clears it) */
    int fresh;               /* the interned lists (names, cats, dnames) hold entries for this packet */
    pf_te_head heads[PF_HEAD_CACHE]; /* by (type, track) */
    uint64_t ts_hi;          /* a timestamp's bits above the lowest 21 (0: none cached) ... */
    uint8_t ts_hi_b[8];      /* ... as a varint: the last bytes of that timestamp's varint */
    uint8_t ts_hi_len;
    uint64_t te_ts;          /* the open TrackEvent's timestamp and type (pf_te_begin) */
    int te_type;
    size_t x_end;            /* the last TrackEvent packet, while it still ends obuf, has one-byte
                                lengths and is not a TYPE_COUNTER (0: none): where it ends, ... */
    size_t x_te, x_pkt;      /* ... where its TrackEvent and its packet begin (pkt_at, te_at) ... */
    uint64_t x_ts;           /* ... its time ... */
    uint32_t x_n;            /* ... and the extra counter values it has: pf_te_extra_counter */
    int x_zero;              /* one of them is 0 */
    int oom, io;             /* sticky failures */
} pf_w;

/* A task as sched events name it. */
typedef struct pf_task {
    int32_t pid;             /* 0: idle ("swapper") */
    int32_t prio;
    const char *comm;
} pf_task;

void pf_w_init(pf_w *w, FILE *out);
/* Write what is buffered (pf_ft_flush first for the open ftrace bundle). */
void pf_w_flush(pf_w *w);
void pf_w_free(pf_w *w);
static inline int pf_w_failed(const pf_w *w) { return w->oom || w->io; }

/* The first packet: clears the sequence's incremental state and describes the process track. */
void pf_process(pf_w *w, uint64_t uuid, int32_t pid, const char *name);
/* A track (a counter track when is_counter) under parent (0: none). Written again with the same
 * uuid it renames the track. */
void pf_track(pf_w *w, uint64_t uuid, uint64_t parent, const char *name, int is_counter);
/* A thread track (ThreadDescriptor pid/tid/name) under the process. */
void pf_thread_track(pf_w *w, uint64_t uuid, uint64_t parent, int32_t pid, int32_t tid, const char *name);
/* ProcessTree at ts: the process (with_process) and/or one thread of it. tid 0: no thread. */
void pf_process_tree(pf_w *w, uint64_t ts, int32_t pid, const char *cmdline, int with_process, int32_t tid,
                     const char *thread_name);

/* TrackEvent at ts: begin, add name / annotations / counter value / flows, then emit. The
 * packet is written in place into the output buffer: nothing else is written between begin and
 * emit (no descriptor, no ftrace bundle). */
static inline void pf_te_begin(pf_w *w, int type, uint64_t track, uint64_t ts);
/* name_stable: the name's bytes never change while the writer runs (a literal, a timeline label),
 * not a reader's buffer. Categories and the keys of pf_ann_u / pf_ann_s must be stable. */
static inline void pf_te_name(pf_w *w, const char *name, int name_stable, const char *category);
void pf_ann_u(pf_w *w, const char *key, uint64_t v, int is_signed);
void pf_ann_s(pf_w *w, const char *key, const char *s, size_t n);
/* id, arg0.., target, object, count, the reader's fields, text; a count or field whose name a
 * pf_ann_u / pf_ann_s of this track event wrote is left out (a consumer that keys annotations by
 * name would see one of the two: before 3 Dec 2026 a lost instant had two "count", an ISR slice
 * two "irq"). */
void pf_ann_event(pf_w *w, const evt_event *ev);
/* inline: the key's varint is a constant */
static inline void pf_te_counter(pf_w *w, int64_t v) { evt_pb_int(&w->obuf, F_TE_COUNTER_VALUE, v); }
void pf_te_counter_double(pf_w *w, double v);
/* A counter track's new value at ts, added to the TrackEvent emitted last (extra_counter_track_uuids
 * and extra_counter_values: "attaching additional counter values to a TrackEvent of any type. All
 * values will share the same timestamp specified in the TracePacket", perfetto_trace.proto) when
 * that packet has time ts and nothing was written after it: about 5 bytes instead of a packet of
 * about 18. Returns 0 (nothing written) otherwise: the caller writes a TYPE_COUNTER packet. What
 * trace_processor reads of these fields bounds it (its importer, 2025): not on a TYPE_COUNTER
 * event (older versions return before reading them there); at most 8 on one event (its
 * kMaxNumExtraCounters: a ninth drops the whole event); none after a value of 0 (its sorter keeps
 * the values up to the first 0, so a value after it would read as 0). */
#define PF_EXTRA_COUNTERS_MAX 8
int pf_te_extra_counter(pf_w *w, uint64_t ts, uint64_t track, int64_t v);
/* A flow leaving (terminating 0) or arriving at (1) this event. */
void pf_te_flow(pf_w *w, uint64_t id, int terminating);
static inline void pf_te_emit(pf_w *w);

/* ftrace: events of one CPU collect in a bundle; another CPU or a full bundle writes it. */
void pf_ft_switch(pf_w *w, uint32_t cpu, uint64_t ts, const pf_task *prev, int64_t prev_state, const pf_task *next);
void pf_ft_waking(pf_w *w, uint32_t cpu, uint64_t ts, int32_t waker_pid, const pf_task *target, int32_t target_cpu);
void pf_ft_flush(pf_w *w);

/* ---- inline fast paths: the usual TrackEvent is a copy of its cached head, a timestamp and the
 * iids of names seen before; the out-of-line *_slow_ functions grow buffers and intern. -------- */

/* Writes v as a varint at p (room for 10 bytes); returns the byte after it. */
static inline uint8_t *pf_vput_(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) { *p++ = (uint8_t)(v | 0x80); v >>= 7; }
    *p++ = (uint8_t)v;
    return p;
}

/* memcpy for the short strings of annotations and sched events (names, comms: mostly under 16
 * bytes) without a library call: two fixed-size copies that overlap, never reading or writing
 * outside [0, n); longer ones go to memcpy. */
static inline void pf_copy_(uint8_t *d, const void *src, size_t n)
{
    const uint8_t *s = src;
    if (n >= 8 && n <= 16) {
        memcpy(d, s, 8);
        memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4 && n < 8) {
        memcpy(d, s, 4);
        memcpy(d + n - 4, s + n - 4, 4);
    } else if (n < 4) {
        for (size_t i = 0; i < n; i++) d[i] = s[i];
    } else {
        memcpy(d, s, n);
    }
}

/* Interned id of str in table t; appends the InternedData entry to `list` (field `field`: 1..3)
 * when new: the packet that first uses an iid carries its definition. A pointer cache skips the
 * hash lookup for strings seen before (the same names and keys recur in every event); a hit on a
 * `stable` string (a literal, a kind name, a timeline label: never rewritten while we run) or on
 * one in the program's read-only image is trusted, any other is compared with the interned copy
 * (readers may reuse their buffers). */
uint64_t pf_iid_slow_(pf_w *w, evt_strtab *t, evt_pb *list, uint32_t field, const char *str, pf_iid_slot *slot);
/* The cache slot of str in table field (1..3): a multiplicative hash of the pointer (its low bits
 * alone put a literal and a reader's heap copy a multiple of 8 KiB apart in one slot, and two
 * event names then missed at every other event). */
static inline pf_iid_slot *pf_iid_slot_(pf_w *w, uint32_t field, const char *str)
{
    return &w->cache[field - 1][((uintptr_t)str * 0x9E3779B97F4A7C15ull) >> (64 - PF_IID_BITS)];
}
_Static_assert(PF_IID_CACHE == 1 << PF_IID_BITS, "pf_iid_slot_ takes PF_IID_BITS bits of the hash");
/* 1 when s points into the program's read-only image (its bytes never change). */
static inline int pf_ro(const pf_w *w, const void *s) { return evt_ro_image_has(&w->ro, s); }
/* A pointer cache's entry (pointer p, the interned copy own) holds str: the same pointer and,
 * unless its text cannot have changed (trusted: stable, or in the read-only image), the same
 * text. Every pointer cache of the writer tests this way (names, keys, counter tracks). */
static inline int pf_cache_holds_(const char *p, const char *own, int trusted, const char *str)
{
    return p == str && (trusted || strcmp(own, str) == 0);
}
static inline uint64_t pf_iid_(pf_w *w, evt_strtab *t, evt_pb *list, uint32_t field, const char *str, int stable)
{
    pf_iid_slot *slot = pf_iid_slot_(w, field, str);
    if (pf_cache_holds_(slot->p, slot->own, stable || slot->ro, str)) return slot->id;
    return pf_iid_slow_(w, t, list, field, str, slot);
}

/* Timestamps as varints: a varint of v >= 2^21 is the low three 7-bit groups (each with its
 * continuation bit) followed by the varint of v >> 21, and consecutive timestamps share that high
 * part (it changes every 2 ms of ns), so it is kept encoded (w->ts_hi*) and copied. */
#define PF_TS_LO_BITS 21
uint8_t *pf_ts_put_slow_(pf_w *w, uint8_t *p, uint64_t v);
/* Writes ts as a varint at p (room for 3 + 8 bytes); returns the byte after it. */
static inline uint8_t *pf_ts_put_(pf_w *w, uint8_t *p, uint64_t v)
{
    uint64_t hi = v >> PF_TS_LO_BITS;
    if (!hi || hi != w->ts_hi) return pf_ts_put_slow_(w, p, v);
    p[0] = (uint8_t)(v | 0x80);
    p[1] = (uint8_t)((v >> 7) | 0x80);
    p[2] = (uint8_t)((v >> 14) | 0x80);
    memcpy(p + 3, w->ts_hi_b, sizeof w->ts_hi_b);
    return p + 3 + w->ts_hi_len;
}

/* The head of a TrackEvent of this type (1..127) on this track, encoded once per cache slot. */
const pf_te_head *pf_te_head_fill_(pf_te_head *h, int type, uint64_t track);
static inline const pf_te_head *pf_te_head_(pf_w *w, int type, uint64_t track)
{
    uint64_t k = (track << 2 | (uint64_t)(type & 3)) * 0x9E3779B97F4A7C15ull;
    pf_te_head *h = &w->heads[k >> 57]; /* 7 bits: PF_HEAD_CACHE slots */
    if (h->track == track && h->type == (uint8_t)type) return h;
    return pf_te_head_fill_(h, type, track);
}
#define PF_TE_HEAD_AT 6 /* the TrackEvent's first byte in a head */
_Static_assert(PF_HEAD_CACHE == 128, "pf_te_head_ takes 7 bits of the hash");
/* Bytes pf_te_begin writes at most: packet tag + length + timestamp tag, the timestamp (with the
 * copied high part), the whole head. */
#define PF_TE_BEGIN_MAX (3 + 3 + 8 + sizeof(((pf_te_head *)0)->b))

void pf_te_begin_slow_(pf_w *w, int type, uint64_t track, uint64_t ts);
static inline void pf_te_begin(pf_w *w, int type, uint64_t track, uint64_t ts)
{
    /* The TracePacket and its TrackEvent are written in place into the output buffer (lengths:
     * pf_te_emit). The interned lists are empty here: pf_te_emit clears what it writes. */
    evt_pb *b = &w->obuf;
    if (b->cap - b->n < PF_TE_BEGIN_MAX || type <= 0 || type >= 0x80) { pf_te_begin_slow_(w, type, track, ts); return; }
    const pf_te_head *h = pf_te_head_(w, type, track);
    w->te_ts = ts;
    w->te_type = type;
    uint8_t *p = b->p + b->n;
    p[0] = (uint8_t)(F_TRACE_PACKET << 3 | 2);
    p[1] = 0;
    p[2] = (uint8_t)(F_PKT_TIMESTAMP << 3);
    w->pkt_at = b->n + 2;
    p = pf_ts_put_(w, p + 3, ts);
    memcpy(p, h->b, sizeof h->b);
    w->te_at = (size_t)(p - b->p) + PF_TE_HEAD_AT;
    b->n = (size_t)(p - b->p) + h->len;
}

void pf_te_name_slow_(pf_w *w, uint64_t cat, int has_cat, uint64_t name_iid);
static inline void pf_te_name(pf_w *w, const char *name, int name_stable, const char *category)
{
    uint64_t cat = category ? pf_iid_(w, &w->categories, &w->cats, F_ID_CATEGORIES, category, 1) : 0;
    uint64_t nm = pf_iid_(w, &w->events, &w->names, F_ID_NAMES, name, name_stable);
    evt_pb *b = &w->obuf;
    if (b->cap - b->n < 2 * 11) { pf_te_name_slow_(w, cat, category != NULL, nm); return; }
    uint8_t *p = b->p + b->n;
    if (category) {
        *p++ = (uint8_t)(F_TE_CATEGORY_IIDS << 3);
        p = pf_vput_(p, cat);
    }
    *p++ = (uint8_t)(F_TE_NAME_IID << 3);
    p = pf_vput_(p, nm);
    b->n = (size_t)(p - b->p);
}

void pf_te_emit_slow_(pf_w *w);
static inline void pf_te_emit(pf_w *w)
{
    /* usual: both messages under 128 bytes (one-byte lengths), nothing newly interned, the
     * buffer not due to be written */
    evt_pb *b = &w->obuf;
    size_t pk = b->n - w->pkt_at;
    w->npre = 0;
    /* (an open that failed left te_at / pkt_at 0 and b->oom set) */
    if (w->fresh || b->oom || pk >= 0x80 || b->n >= PF_OUT_CAP) {
        pf_te_emit_slow_(w);
        return;
    }
    b->p[w->te_at - 1] = (uint8_t)(b->n - w->te_at);
    b->p[w->pkt_at - 1] = (uint8_t)pk;
    /* the TrackEvent ends the packet, which ends obuf: pf_te_extra_counter may add to it */
    w->x_end = w->te_type == PF_COUNTER ? 0 : b->n;
    w->x_te = w->te_at;
    w->x_pkt = w->pkt_at;
    w->x_ts = w->te_ts;
    w->x_n = 0;
    w->x_zero = 0;
}

#endif
