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
#include "evtrace/model.h"
#include "host/strtab.h"
#include "pb.h"

enum { PF_SLICE_BEGIN = 1, PF_SLICE_END = 2, PF_INSTANT = 3, PF_COUNTER = 4 }; /* TrackEvent.Type */

#define PF_IID_CACHE 1024 /* slots per interning table of the pointer cache */
#define PF_OUT_CAP 65536  /* output buffer: packets are written in chunks of about this size */

/* A string pointer seen before, its iid and the interned copy (an unstable pointer is checked
 * against it: readers may reuse their buffers). */
typedef struct pf_iid_slot {
    const char *p;
    const char *own;         /* the string table's copy (owned there, never moves) */
    uint32_t id;
} pf_iid_slot;

/* Annotation keys pf_ann_event writes for every event: their iids, found once (0: not yet). */
enum { PF_K_ID, PF_K_ARG0, PF_K_TARGET = PF_K_ARG0 + EVT_MAX_ARGS, PF_K_OBJECT, PF_K_COUNT, PF_K_TEXT, PF_K_N };

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
    pf_iid_slot cache[3][PF_IID_CACHE]; /* categories, names, annotation names */
    uint32_t kiid[PF_K_N];   /* iids of pf_ann_event's own keys (0: not interned yet) */
    pf_te_head heads[PF_HEAD_CACHE]; /* by (type, track) */
    uint64_t ts_hi;          /* a timestamp's bits above the lowest 21 (0: none cached) ... */
    uint8_t ts_hi_b[8];      /* ... as a varint: the last bytes of that timestamp's varint */
    uint8_t ts_hi_len;
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
void pf_te_begin(pf_w *w, int type, uint64_t track, uint64_t ts);
/* name_stable: the name's bytes never change while the writer runs (a literal, a timeline label),
 * not a reader's buffer. Categories and the keys of pf_ann_u / pf_ann_s must be stable. */
void pf_te_name(pf_w *w, const char *name, int name_stable, const char *category);
void pf_ann_u(pf_w *w, const char *key, uint64_t v, int is_signed);
void pf_ann_s(pf_w *w, const char *key, const char *s, size_t n);
/* id, arg0.., target, object, count, the reader's fields, text. */
void pf_ann_event(pf_w *w, const evt_event *ev);
void pf_te_counter(pf_w *w, int64_t v);
void pf_te_counter_double(pf_w *w, double v);
/* A flow leaving (terminating 0) or arriving at (1) this event. */
void pf_te_flow(pf_w *w, uint64_t id, int terminating);
void pf_te_emit(pf_w *w);

/* ftrace: events of one CPU collect in a bundle; another CPU or a full bundle writes it. */
void pf_ft_switch(pf_w *w, uint32_t cpu, uint64_t ts, const pf_task *prev, int64_t prev_state, const pf_task *next);
void pf_ft_waking(pf_w *w, uint32_t cpu, uint64_t ts, int32_t waker_pid, const pf_task *target, int32_t target_cpu);
void pf_ft_flush(pf_w *w);

#endif
