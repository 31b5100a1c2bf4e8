/* Perfetto packet writer (see perfetto_pkt.h): descriptors are encoded bottom-up into reused
 * buffers and each TracePacket is written as one `Trace.packet` field; TrackEvents and ftrace
 * events, the per-event packets, are written in place in one pass (the usual TrackEvent's inline
 * path is in the header; the growth and interning paths are here), byte for byte what the
 * bottom-up encoding gives. */
#include "perfetto_pkt.h"

#include <stdint.h>
#include <string.h>

#define FT_BUNDLE_MAX 32768 /* bytes of events per bundle before it is written */

void pf_w_init(pf_w *w, FILE *out)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    for (size_t i = 0; i < PF_FKEY_N; i++) w->fkey[i] = &w->cache[F_ID_DEBUG_NAMES - 1][0];
    evt_ro_image_init(&w->ro);
}

void pf_w_free(pf_w *w)
{
    evt_pb *bufs[] = {&w->pkt, &w->td, &w->sub, &w->sub2, &w->interned, &w->names,
                      &w->cats, &w->dnames, &w->da, &w->ft, &w->obuf, &w->svlist};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) evt_pb_free(bufs[i]);
    evt_strtab_free(&w->events);
    evt_strtab_free(&w->categories);
    evt_strtab_free(&w->dbgnames);
    evt_strtab_free(&w->svals);
}

void pf_w_flush(pf_w *w)
{
    if (w->obuf.n && fwrite(w->obuf.p, 1, w->obuf.n, w->out) != w->obuf.n) w->io = 1;
    evt_pb_clear(&w->obuf);
    w->x_end = 0; /* the last TrackEvent is written out: nothing to add to */
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

/* pf_iid_ when the pointer cache has no (valid) entry: the hash look-up, the definition if new.
 * Out of memory: 0, and the slot is emptied (iid 0, a pointer no string has). */
uint64_t pf_iid_slow_(pf_w *w, evt_strtab *t, evt_pb *list, uint32_t field, const char *str, pf_iid_slot *slot)
{
    int added;
    uint32_t id = evt_strtab_intern(t, str, strlen(str), &added);
    if (!id) w->oom = 1;
    else if (added) {
        evt_pb_clear(&w->sub2);
        evt_pb_uint(&w->sub2, F_INT_IID, id);
        evt_pb_str(&w->sub2, F_INT_NAME, str);
        evt_pb_msg(list, field, &w->sub2);
        w->fresh = 1;
    }
    slot->p = id ? str : NULL;
    slot->own = id ? evt_strtab_str(t, id) : "";
    slot->id = id;
    slot->ro = (uint8_t)pf_ro(w, str);
    uint8_t *h = slot->head;
    *h++ = (uint8_t)(F_TE_DEBUG << 3 | 2);
    *h++ = 0; /* the length: below */
    *h++ = (uint8_t)(F_DA_NAME_IID << 3);
    h = pf_vput_(h, id); /* 32 bits: 5 bytes at most */
    slot->head_len = (uint8_t)(h - slot->head);
    slot->head[1] = slot->head_len; /* name_iid, a tag and a 1-byte value: the usual number */
    return id;
}

uint8_t *pf_ts_put_slow_(pf_w *w, uint8_t *p, uint64_t v)
{
    uint64_t hi = v >> PF_TS_LO_BITS;
    if (hi) { /* at most 43 bits: a 7-byte varint */
        w->ts_hi = hi;
        w->ts_hi_len = (uint8_t)(pf_vput_(w->ts_hi_b, hi) - w->ts_hi_b);
    }
    return pf_vput_(p, v);
}

/* Fills the head cache slot h for (type, track) (pf_te_head_ when it holds another). */
const pf_te_head *pf_te_head_fill_(pf_te_head *h, int type, uint64_t track)
{
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
    p = pf_vput_(p, track);
    h->len = (uint8_t)(p - h->b);
    h->track = track;
    h->type = (uint8_t)type;
    return h;
}

void pf_te_begin_slow_(pf_w *w, int type, uint64_t track, uint64_t ts)
{
    w->te_ts = ts;
    w->te_type = type;
    w->pkt_at = evt_pb_open(&w->obuf, F_TRACE_PACKET);
    evt_pb_uint(&w->obuf, F_PKT_TIMESTAMP, ts);
    evt_pb_uint(&w->obuf, F_PKT_SEQ_ID, SEQ_TRACK);
    evt_pb_uint(&w->obuf, F_PKT_SEQ_FLAGS, SEQ_NEEDS);
    w->te_at = evt_pb_open(&w->obuf, F_PKT_TRACK_EVENT);
    evt_pb_uint(&w->obuf, F_TE_TYPE, (uint64_t)type);
    evt_pb_uint(&w->obuf, F_TE_TRACK, track);
}

void pf_te_name_slow_(pf_w *w, uint64_t cat, int has_cat, uint64_t name_iid)
{
    if (has_cat) evt_pb_uint(&w->obuf, F_TE_CATEGORY_IIDS, cat);
    evt_pb_uint(&w->obuf, F_TE_NAME_IID, name_iid);
}

/* The slot of an annotation key (its iid and annotation head); valid until the next interning. */
static inline const pf_iid_slot *key_(pf_w *w, const char *key, int key_stable)
{
    pf_iid_slot *slot = pf_iid_slot_(w, F_ID_DEBUG_NAMES, key);
    if (pf_cache_holds_(slot->p, slot->own, key_stable || slot->ro, key)) return slot;
    pf_iid_slow_(w, &w->dbgnames, &w->dnames, F_ID_DEBUG_NAMES, key, slot);
    return slot;
}

/* pf_ann_event's own key k (a literal), found once (kept unless out of memory: found again next
 * time). */
static const pf_iid_slot *kkey_slow_(pf_w *w, unsigned k, const char *key)
{
    const pf_iid_slot *slot = key_(w, key, 1);
    if (slot->id) w->kkey[k] = *slot;
    return slot;
}
static inline const pf_iid_slot *kkey_(pf_w *w, unsigned k, const char *key)
{
    return w->kkey[k].head_len ? &w->kkey[k] : kkey_slow_(w, k, key);
}

/* A DebugAnnotation {name_iid, field = v} at p (room for ANN_U_MAX bytes): its length (at most
 * 1 + 5 + 1 + 10 bytes) fits one byte, so the key's cached head (tag, the length of a 1-byte
 * value's annotation, name_iid: the 8 bytes are copied whole), the value and the length go out in
 * one pass (the bytes of evt_pb_open / the fields / evt_pb_close). Returns the byte after it. */
#define ANN_U_MAX (2 + 1 + 5 + 1 + 10)
static inline uint8_t *ann_u_at_(uint8_t *p, const pf_iid_slot *k, uint32_t field, uint64_t v)
{
    memcpy(p, k->head, sizeof k->head);
    uint8_t *q = p + k->head_len;
    *q++ = (uint8_t)(field << 3);
    if (v < 0x80) { /* the usual: the head's length is right */
        *q = (uint8_t)v;
        return q + 1;
    }
    if (v - (1u << 28) < (1ull << 35) - (1u << 28)) { /* 5 bytes (an address, a 32-bit word): no loop */
        q[0] = (uint8_t)(v | 0x80);
        q[1] = (uint8_t)(v >> 7 | 0x80);
        q[2] = (uint8_t)(v >> 14 | 0x80);
        q[3] = (uint8_t)(v >> 21 | 0x80);
        q[4] = (uint8_t)(v >> 28);
        p[1] = (uint8_t)(k->head_len + 4);
        return q + 5;
    }
    q = pf_vput_(q, v);
    p[1] = (uint8_t)(q - p - 2);
    return q;
}

/* ann_u_at_ into the TrackEvent being written. int64 is two's complement, the same varint. */
static inline void ann_put_u_(pf_w *w, const pf_iid_slot *k, int is_signed, uint64_t v)
{
    evt_pb *b = &w->obuf;
    if (!evt_pb_reserve(b, ANN_U_MAX)) return; /* out of memory: sticky, pf_te_emit reports it */
    b->n = (size_t)(ann_u_at_(b->p + b->n, k, is_signed ? F_DA_INT : F_DA_UINT, v) - b->p);
}

/* A DebugAnnotation {name_iid, string_value = s[0..n)} at p (room for ANN_S_ROOM + n bytes) when
 * its length fits one byte (1 + 5 + 1 + 1 + n < 128: n < ANN_S_ONE). Returns the byte after it. */
#define ANN_S_ROOM (2 + 1 + 5 + 2)
#define ANN_S_ONE 0x70
static inline uint8_t *ann_s_at_(uint8_t *p, const pf_iid_slot *k, const char *s, size_t n)
{
    memcpy(p, k->head, sizeof k->head);
    uint8_t *q = p + k->head_len;
    q[0] = (uint8_t)(F_DA_STRING << 3 | 2);
    q[1] = (uint8_t)n;
    pf_copy_(q + 2, s, n);
    q += 2 + n;
    p[1] = (uint8_t)(q - p - 2);
    return q;
}

/* Short string values are interned (DebugAnnotation.string_value_iid, InternedData's
 * debug_annotation_string_values): an object's name, a state's, repeated at every event, then
 * take 2-3 bytes instead of their text. Bounded as CTF's labels are: values of 1 to PF_SVAL_LEN
 * bytes, at most PF_SVAL_N distinct (a reader's free text, past that, is written whole). */
#define PF_SVAL_LEN 64
#define PF_SVAL_N 4096
static uint64_t sval_slow_(pf_w *w, const char *s, size_t n, pf_iid_slot *slot)
{
    if (w->svals.n >= PF_SVAL_N && !evt_strtab_find(&w->svals, s, n)) return 0;
    return pf_iid_slow_(w, &w->svals, &w->svlist, F_ID_DA_STRINGS, s, slot);
}
/* The iid of the string value s (NUL-terminated, n = strlen(s)), 0: written whole. */
static inline uint64_t sval_iid_(pf_w *w, const char *s, size_t n)
{
    if (n - 1 >= PF_SVAL_LEN) return 0; /* empty or long */
    pf_iid_slot *slot = &w->vcache[((uintptr_t)s * 0x9E3779B97F4A7C15ull) >> (64 - PF_IID_BITS)];
    if (pf_cache_holds_(slot->p, slot->own, slot->ro, s)) return slot->id;
    return sval_slow_(w, s, n, slot);
}

/* A DebugAnnotation {name_iid, string_value_iid = iid} at p (room for ANN_U_MAX bytes): the
 * value's tag takes two bytes. Returns the byte after it. */
static inline uint8_t *ann_sv_at_(uint8_t *p, const pf_iid_slot *k, uint64_t iid)
{
    memcpy(p, k->head, sizeof k->head);
    uint8_t *q = p + k->head_len;
    *q++ = (uint8_t)(F_DA_STRING_IID << 3 | 0x80);
    *q++ = (uint8_t)(F_DA_STRING_IID >> 4);
    q = pf_vput_(q, iid);
    p[1] = (uint8_t)(q - p - 2);
    return q;
}

/* ann_s_at_ into the TrackEvent being written, or the general encoder when it must grow or the
 * length needs more bytes. */
static inline void ann_put_s_(pf_w *w, const pf_iid_slot *k, const char *s, size_t n)
{
    evt_pb *b = &w->obuf;
    if (n >= ANN_S_ONE || b->cap - b->n < ANN_S_ROOM + n) {
        size_t at = evt_pb_open(b, F_TE_DEBUG);
        evt_pb_uint(b, F_DA_NAME_IID, k->id);
        evt_pb_bytes(b, F_DA_STRING, s, n);
        evt_pb_close(b, at);
        return;
    }
    b->n = (size_t)(ann_s_at_(b->p + b->n, k, s, n) - b->p);
}

/* The slot of an exporter's own annotation key, its iid kept for pf_ann_event (pf_w.pre_iid). */
static const pf_iid_slot *pre_key_(pf_w *w, const char *key)
{
    const pf_iid_slot *k = key_(w, key, 1);
    if (w->npre < sizeof w->pre_iid / sizeof w->pre_iid[0]) w->pre_iid[w->npre++] = k->id;
    return k;
}
static int pre_has_(const pf_w *w, uint64_t iid)
{
    for (uint32_t i = 0; i < w->npre; i++)
        if (w->pre_iid[i] == iid) return 1;
    return 0;
}

void pf_ann_u(pf_w *w, const char *key, uint64_t v, int is_signed) { ann_put_u_(w, pre_key_(w, key), is_signed, v); }

void pf_ann_s(pf_w *w, const char *key, const char *s, size_t n) { ann_put_s_(w, pre_key_(w, key), s, n); }

/* Interns the keys of args nkargs..na-1 (in order: the bytes give iids at first use); 0 when out
 * of memory (sticky). */
static int kargs_slow_(pf_w *w, uint32_t na)
{
    static const char *const argk[EVT_MAX_ARGS] = {"arg0", "arg1", "arg2", "arg3", "arg4", "arg5", "arg6", "arg7",
                                                   "arg8", "arg9", "arg10", "arg11", "arg12", "arg13", "arg14", "arg15"};
    for (; w->nkargs < na; w->nkargs++)
        if (!kkey_slow_(w, PF_K_ARG0 + w->nkargs, argk[w->nkargs])->id) return 0;
    return 1;
}

/* A string annotation among pf_ann_event's numeric ones: the bytes before p are kept (b->n), the
 * string goes through ann_put_s_ (its own room check), then room is made again for `more` numeric
 * ones. Returns where they go, NULL when out of memory (sticky). */
static inline uint8_t *ann_s_among_(pf_w *w, uint8_t *p, const pf_iid_slot *k, const char *s, size_t n, size_t more)
{
    evt_pb *b = &w->obuf;
    b->n = (size_t)(p - b->p);
    ann_put_s_(w, k, s, n);
    return evt_pb_reserve(b, more * ANN_U_MAX) ? b->p + b->n : NULL;
}

void pf_ann_event(pf_w *w, const evt_event *ev)
{
    /* One room check for every numeric annotation (id, the args, target, count, the fields) and
     * the object's name, written at p: interning writes other buffers, never obuf; a string field
     * makes room again for those after it (ann_s_among_). */
    evt_pb *b = &w->obuf;
    uint32_t na = ev->nargs < EVT_MAX_ARGS ? ev->nargs : EVT_MAX_ARGS, nf = ev->nfields;
    const char *obj = ev->flags & EVT_HAS_TARGET ? ev->target_name : NULL;
    size_t nobj = obj ? strlen(obj) : 0;
    /* (the object's name: ANN_S_ROOM + nobj bytes whole, ANN_U_MAX interned) */
    if (!evt_pb_reserve(b, (size_t)(na + 4 + nf) * ANN_U_MAX + ANN_S_ROOM + nobj)) return; /* out of memory: sticky */
    uint8_t *p = ann_u_at_(b->p + b->n, kkey_(w, PF_K_ID, "id"), F_DA_UINT, ev->id);
    if (na > w->nkargs && !kargs_slow_(w, na)) return;
    for (uint32_t i = 0; i < na; i++) p = ann_u_at_(p, &w->kkey[PF_K_ARG0 + i], F_DA_UINT, ev->args[i]);
    if (ev->flags & EVT_HAS_TARGET) {
        p = ann_u_at_(p, kkey_(w, PF_K_TARGET, "target"), F_DA_UINT, ev->target);
        if (obj) {
            const pf_iid_slot *k = kkey_(w, PF_K_OBJECT, "object");
            uint64_t iid = sval_iid_(w, obj, nobj);
            if (iid) p = ann_sv_at_(p, k, iid);
            else if (nobj < ANN_S_ONE) p = ann_s_at_(p, k, obj, nobj);
            else if (!(p = ann_s_among_(w, p, k, obj, nobj, 1 + (size_t)nf))) return;
        }
    }
    if (ev->flags & EVT_HAS_COUNT) {
        const pf_iid_slot *k = kkey_(w, PF_K_COUNT, "count");
        if (!w->npre || !pre_has_(w, k->id)) p = ann_u_at_(p, k, F_DA_UINT, ev->count);
    }
    for (uint32_t i = 0; i < nf; i++) {
        const evt_field *f = &ev->fields[i];
        if (!f->key) continue;
        /* the reader's key: the slot of this field's last key while it holds it, read-only (a
         * reader's layout repeats), else the pointer cache (checked against its interned copy) */
        const pf_iid_slot *k = w->fkey[i % PF_FKEY_N];
        if (k->p != f->key || !k->ro) w->fkey[i % PF_FKEY_N] = k = key_(w, f->key, 0);
        if (w->npre && pre_has_(w, k->id)) continue; /* the exporter wrote that name (pf_ann_u, _s) */
        if (!f->is_str) {
            p = ann_u_at_(p, k, f->is_signed ? F_DA_INT : F_DA_UINT, f->num);
        } else {
            size_t n = f->str ? strlen(f->str) : 0;
            uint64_t iid = f->str ? sval_iid_(w, f->str, n) : 0;
            if (iid) p = ann_sv_at_(p, k, iid);
            else if (!(p = ann_s_among_(w, p, k, f->str ? f->str : "", n, nf - i))) return;
        }
    }
    b->n = (size_t)(p - b->p);
    if (ev->data && ev->data_is_text)
        ann_put_s_(w, kkey_(w, PF_K_TEXT, "text"), (const char *)ev->data, ev->data_len);
}

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
    evt_pb_append(&w->obuf, &w->svlist);
    evt_pb_close(&w->obuf, ia);
    if (w->names.oom || w->cats.oom || w->dnames.oom || w->svlist.oom || w->sub2.oom) w->oom = 1;
    evt_pb_clear(&w->names);
    evt_pb_clear(&w->cats);
    evt_pb_clear(&w->dnames);
    evt_pb_clear(&w->svlist);
    w->fresh = 0;
}

int pf_te_extra_counter(pf_w *w, uint64_t ts, uint64_t track, int64_t v)
{
    evt_pb *b = &w->obuf;
    if (!w->x_end || w->x_end != b->n || w->x_ts != ts || w->x_n >= PF_EXTRA_COUNTERS_MAX || w->x_zero ||
        !evt_pb_reserve(b, 2 + 10 + 1 + 10))
        return 0;
    uint8_t *p0 = b->p + b->n, *p = p0;
    *p++ = (uint8_t)(F_TE_EXTRA_COUNTER_TRACK_UUIDS << 3 | 0x80); /* field 31: a two-byte tag */
    *p++ = (uint8_t)(F_TE_EXTRA_COUNTER_TRACK_UUIDS >> 4);
    p = pf_vput_(p, track);
    *p++ = (uint8_t)(F_TE_EXTRA_COUNTER_VALUES << 3);
    p = pf_vput_(p, (uint64_t)v); /* int64: two's complement, as protobuf encodes it */
    size_t end = b->n + (size_t)(p - p0);
    if (end - w->x_pkt >= 0x80) return 0; /* the one-byte lengths would not hold it: not written */
    b->p[w->x_te - 1] = (uint8_t)(end - w->x_te);
    b->p[w->x_pkt - 1] = (uint8_t)(end - w->x_pkt);
    b->n = w->x_end = end;
    w->x_n++;
    w->x_zero = v == 0;
    return 1;
}

void pf_te_emit_slow_(pf_w *w)
{
    w->x_end = 0; /* interned data may follow the TrackEvent, or a length takes two bytes */
    evt_pb_close(&w->obuf, w->te_at);
    if (w->fresh && (w->names.n | w->cats.n | w->dnames.n | w->svlist.n)) interned_(w);
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
    return pf_vput_(p, (uint64_t)v); /* int32/int64: two's complement */
}

static inline uint8_t *put_str_(uint8_t *p, uint32_t field, const char *s, size_t n) /* field < 16 */
{
    *p++ = (uint8_t)(field << 3 | 2);
    p = pf_vput_(p, n);
    pf_copy_(p, s, n);
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
    *p++ = (uint8_t)(F_FE_TIMESTAMP << 3);
    p = pf_ts_put_(w, p, ts); /* the same clock as TrackEvents: its high bytes are usually cached */
    p = put_int_(p, F_FE_PID, (int64_t)pid);
    p = pf_vput_(p, (uint64_t)field << 3 | 2);
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
