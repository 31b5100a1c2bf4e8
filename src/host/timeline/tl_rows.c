/* Rows of the query tables (tl_tables.def) from the canonical event stream, through the one
 * timeline (timeline.h): column descriptors generated from the X-macros, one events row per event
 * at once, interval rows (thread_states, slices, isrs, counters, flows, losses) from the timeline's
 * callbacks as they close, and the contexts, objects and traces rows at finish.
 *
 * Objects: one row per creation (closed by the next deletion of the same id, which fills the
 * deleted_* columns), one row per deletion with no open creation, and at finish one row per object
 * only mentioned (no creation, no deletion): the rows exist as soon as they are final, so memory
 * holds one open creation per object, never rows. */
#include <string.h>
#include "evtrace/alloc.h"
#include "host/json_fast.h"
#include "host/ro_image.h"
#include "host/timeline/tl_rows.h"
#include "host/timeline/user_tracks.h"

/* ---- the column descriptors, generated from tl_tables.def ------------------------------------ */
#define TL_COL_DESC_(cname, ctype, cnull, cdoc) {#cname, EVT_TL_##ctype, cnull, cdoc},
#define TL_TABLE_COLS_(tname, tdoc) static const evt_tl_column k_cols_##tname[] = {EVT_TL_COLS_##tname(TL_COL_DESC_)};
EVT_TL_TABLES(TL_TABLE_COLS_)
#define TL_TABLE_DESC_(tname, tdoc) \
    {#tname, tdoc, k_cols_##tname, (uint32_t)(sizeof k_cols_##tname / sizeof k_cols_##tname[0])},
static const evt_tl_table_desc k_tables[EVT_TL_T_COUNT_] = {EVT_TL_TABLES(TL_TABLE_DESC_)};

const evt_tl_table_desc *evt_tl_table_at(evt_tl_table t)
{
    return (unsigned)t < EVT_TL_T_COUNT_ ? &k_tables[t] : NULL;
}

/* Column positions per table, from the same X-macros (a renamed column fails to compile here). */
#define TR_(n, t, nl, d) TR_##n,
#define CX_(n, t, nl, d) CX_##n,
#define OB_(n, t, nl, d) OB_##n,
#define EV_(n, t, nl, d) EV_##n,
#define TS_(n, t, nl, d) TS_##n,
#define SL_(n, t, nl, d) SL_##n,
#define IS_(n, t, nl, d) IS_##n,
#define CN_(n, t, nl, d) CN_##n,
#define FL_(n, t, nl, d) FL_##n,
#define LS_(n, t, nl, d) LS_##n,
enum { EVT_TL_COLS_traces(TR_) TR_N_ };
enum { EVT_TL_COLS_contexts(CX_) CX_N_ };
enum { EVT_TL_COLS_objects(OB_) OB_N_ };
enum { EVT_TL_COLS_events(EV_) EV_N_ };
enum { EVT_TL_COLS_thread_states(TS_) TS_N_ };
enum { EVT_TL_COLS_slices(SL_) SL_N_ };
enum { EVT_TL_COLS_isrs(IS_) IS_N_ };
enum { EVT_TL_COLS_counters(CN_) CN_N_ };
enum { EVT_TL_COLS_flows(FL_) FL_N_ };
enum { EVT_TL_COLS_losses(LS_) LS_N_ };
#define UE_(n, t, nl, d) UE_##n,
#define UV_(n, t, nl, d) UV_##n,
#define UI_(n, t, nl, d) UI_##n,
#define SM_(n, t, nl, d) SM_##n,
#define WK_(n, t, nl, d) WK_##n,
#define PR_(n, t, nl, d) PR_##n,
enum { EVT_TL_COLS_user_events(UE_) UE_N_ };
enum { EVT_TL_COLS_user_values(UV_) UV_N_ };
enum { EVT_TL_COLS_user_intervals(UI_) UI_N_ };
enum { EVT_TL_COLS_sm_states(SM_) SM_N_ };
enum { EVT_TL_COLS_wakeups(WK_) WK_N_ };
enum { EVT_TL_COLS_priorities(PR_) PR_N_ };

#define TL_MAX_COLS 32 /* every table's columns fit in one row buffer */
_Static_assert(TR_N_ <= TL_MAX_COLS && CX_N_ <= TL_MAX_COLS && OB_N_ <= TL_MAX_COLS && EV_N_ <= TL_MAX_COLS &&
                   TS_N_ <= TL_MAX_COLS && SL_N_ <= TL_MAX_COLS && IS_N_ <= TL_MAX_COLS && CN_N_ <= TL_MAX_COLS &&
                   FL_N_ <= TL_MAX_COLS && LS_N_ <= TL_MAX_COLS && UE_N_ <= TL_MAX_COLS && UV_N_ <= TL_MAX_COLS &&
                   UI_N_ <= TL_MAX_COLS && SM_N_ <= TL_MAX_COLS && WK_N_ <= TL_MAX_COLS && PR_N_ <= TL_MAX_COLS,
               "a table of tl_tables.def has more than TL_MAX_COLS columns");

/* Per context index: its raw first/last timestamps (the timeline keeps times in its unit). */
typedef struct rows_ctx {
    uint64_t first_ts, last_ts;
    int seen;
} rows_ctx;

/* Per object index: the creation waiting for its deletion, and whether any row was written. */
typedef struct rows_obj {
    int open;                       /* a creation not deleted yet */
    uint64_t created_ts, created_seq, created_t;
    uint64_t ctx;
    int has_ctx;
    int rows;                       /* rows written for this object */
} rows_obj;

/* A string of the program's read-only image (a reader's table literal: a key, a state name) as
 * jstr_ quotes it, kept by its address (jlit_). */
#define JLIT_BITS 6
#define JLIT_TXT 48 /* the longest quoted text kept */
typedef struct jlit {
    const char *p; /* NULL: empty */
    uint32_t len;
    char txt[JLIT_TXT];
} jlit;

struct evt_tl_rows {
    evt_tl tl;
    evt_tl_row_sink sink;
    char *format, *source, *clock_source;
    uint64_t clock_hz;
    uint64_t counts[EVT_TL_T_COUNT_];
    int stopped, oom;
    uint64_t seq;                   /* next event's seq */
    uint64_t lost;                  /* sum of the loss records' counts */
    rows_ctx *ctxs;
    uint32_t ctxcap;
    rows_obj *objs;
    uint32_t objcap;
    char *js;                       /* JSON scratch for args and fields */
    size_t jn, jcap;
    evt_tl_val v[TL_MAX_COLS];
    evt_ro_image ro;                /* the program's read-only image (jlit_) */
    jlit jlits[1u << JLIT_BITS];    /* quoted read-only strings by address (jlit_) */
    evt_ut ut;                      /* user tracks: user_events, user_values, user_intervals, sm_states */
    uint64_t ev_seq;                /* seq of the event being added (user-track rows) */
    size_t args_len;                /* its args JSON in js[0..args_len) */
};

/* ---- values ----------------------------------------------------------------------------------- */
static void row_start_(evt_tl_rows *r, evt_tl_table t)
{
    for (uint32_t i = 0; i < k_tables[t].ncols; i++) r->v[i].is_null = 1;
}
static void set_i_(evt_tl_rows *r, int col, uint64_t x) /* uint64 reinterpreted, as SQLite stores it */
{
    r->v[col].is_null = 0;
    r->v[col].i = (int64_t)x;
}
static void set_f_(evt_tl_rows *r, int col, double x)
{
    r->v[col].is_null = 0;
    r->v[col].f = x;
}
static void set_sn_(evt_tl_rows *r, int col, const char *s, size_t n)
{
    r->v[col].is_null = 0;
    r->v[col].s = s;
    r->v[col].n = n;
}
static void set_s_(evt_tl_rows *r, int col, const char *s) /* NULL stays NULL */
{
    if (s) set_sn_(r, col, s, strlen(s));
}
static void set_ctx_(evt_tl_rows *r, int col, uint32_t index)
{
    const evt_tl_ctx *c = evt_tl_ctx_at(&r->tl, index);
    if (c && c->has_id) set_i_(r, col, c->id);
}
static void set_obj_(evt_tl_rows *r, int col, uint32_t index)
{
    const evt_tl_obj *o = evt_tl_obj_at(&r->tl, index);
    if (o) set_i_(r, col, o->id);
}

static void emit_(evt_tl_rows *r, evt_tl_table t)
{
    if (r->stopped) return;
    if (!r->sink.row(r->sink.user, t, r->v)) { r->stopped = 1; return; }
    r->counts[t]++;
}

/* ---- JSON text of args and fields (as `dump --json` writes them) ------------------------------
 * Speed (the SQLite export of a recorded TXTB trace spent 1,100 instructions per event here until
 * 4 Dec 2026): room is made once per piece (jroom_, its growth out of line), a string is checked
 * while it is copied, 8 bytes per step, and goes through the escaping loop only when a byte needs
 * it, and numbers are written two digits per step (host/json_fast.h). */
static __attribute__((noinline)) int jgrow_(evt_tl_rows *r, size_t n)
{
    size_t nc = r->jcap ? r->jcap * 2 : 512;
    while (nc < r->jn + n + 1) nc *= 2;
    char *np = evt_realloc(r->js, nc);
    if (!np) { r->oom = 1; return 0; }
    r->js = np;
    r->jcap = nc;
    return 1;
}
/* Room for n more bytes (and the terminator's); 0 when out of memory. */
static inline int jroom_(evt_tl_rows *r, size_t n) { return r->jn + n + 1 <= r->jcap || jgrow_(r, n); }
static inline void jput_(evt_tl_rows *r, const char *p, size_t n)
{
    if (!jroom_(r, n)) return;
    memcpy(r->js + r->jn, p, n);
    r->jn += n;
}
/* jstr_ for a string with bytes to escape: runs between them copied, each escaped. */
static __attribute__((noinline)) void jstr_escaped_(evt_tl_rows *r, const char *str)
{
    static const char hex[] = "0123456789abcdef";
    jput_(r, "\"", 1);
    const char *run = str;
    for (const unsigned char *c = (const unsigned char *)str; *c; c++) {
        if (*c != '"' && *c != '\\' && *c >= 0x20 && *c != 0x7f) continue;
        jput_(r, run, (size_t)((const char *)c - run));
        if (*c == '"' || *c == '\\') { char b[2] = {'\\', (char)*c}; jput_(r, b, 2); }
        else { char b[6] = {'\\', 'u', '0', '0', hex[*c >> 4], hex[*c & 15]}; jput_(r, b, 6); }
        run = (const char *)c + 1;
    }
    jput_(r, run, strlen(run));
    jput_(r, "\"", 1);
}
/* A string, quoted: bytes >= 0x80 are copied as they are (the reader made every string valid
 * UTF-8), '"', '\\', control bytes and DEL escaped. */
static void jstr_(evt_tl_rows *r, const char *str)
{
    size_t n = strlen(str);
    if (!jroom_(r, n + 2)) return;
    size_t w = evt_jf_put_plain_(r->js + r->jn, str, n, 0);
    if (!w) { jstr_escaped_(r, str); return; }
    r->jn += w;
}
/* jlit_ when str is not in its slot: quoted by jstr_, and kept there when it is read-only and
 * short (the slot's previous string is dropped). */
static __attribute__((noinline)) void jlit_miss_(evt_tl_rows *r, jlit *k, const char *str)
{
    size_t at = r->jn;
    jstr_(r, str);
    size_t n = r->jn - at;
    if (r->oom || n > JLIT_TXT || !evt_ro_image_has(&r->ro, str)) return;
    memcpy(k->txt, r->js + at, n);
    k->len = (uint32_t)n;
    k->p = str;
}
/* A string, quoted as jstr_ does: a string of the program's read-only image, whose bytes never
 * change, is quoted once and then copied whole from its slot (found by its address alone); any
 * other (a reader's buffer, which may hold other text at the same address later) is quoted every
 * time. */
static inline void jlit_(evt_tl_rows *r, const char *str)
{
    jlit *k = &r->jlits[((uintptr_t)str * 0x9E3779B97F4A7C15ull) >> (64 - JLIT_BITS)];
    if (k->p == str && jroom_(r, JLIT_TXT)) {
        memcpy(r->js + r->jn, k->txt, JLIT_TXT); /* fixed-size copy: the bytes past len are overwritten next */
        r->jn += k->len;
        return;
    }
    jlit_miss_(r, k, str);
}
static inline void jnum_(evt_tl_rows *r, uint64_t v, int is_signed)
{
    if (!jroom_(r, 21)) return; /* '-' and 20 digits */
    char *o = r->js + r->jn;
    if (is_signed && (int64_t)v < 0) { *o++ = '-'; v = 0 - v; }
    o += evt_jf_u64_(o, v);
    r->jn = (size_t)(o - r->js);
}

/* args (JSON array) in js[0..*args_len), fields (JSON object) after it when there are any. */
static void json_(evt_tl_rows *r, const evt_event *ev, size_t *args_len)
{
    r->jn = 0;
    jput_(r, "[", 1);
    for (uint32_t i = 0; i < ev->nargs; i++) {
        if (i) jput_(r, ",", 1);
        jnum_(r, ev->args[i], 0);
    }
    jput_(r, "]", 1);
    *args_len = r->jn;
    if (!ev->nfields && !(ev->flags & EVT_HAS_TARGET)) return;
    jput_(r, "{", 1);
    int first = 1;
    if (ev->flags & EVT_HAS_TARGET) {
        jput_(r, "\"target\":", 9);
        jnum_(r, ev->target, 0);
        if (ev->target_name) { jput_(r, ",\"target_name\":", 15); jstr_(r, ev->target_name); }
        first = 0;
    }
    for (uint32_t i = 0; i < ev->nfields; i++) {
        const evt_field *f = &ev->fields[i];
        if (!first) jput_(r, ",", 1);
        first = 0;
        jlit_(r, f->key ? f->key : "");
        jput_(r, ":", 1);
        if (f->is_str) jlit_(r, f->str ? f->str : "");
        else jnum_(r, f->num, f->is_signed);
    }
    jput_(r, "}", 1);
}

/* ---- timeline callbacks -> interval rows ------------------------------------------------------ */
static void on_state_(void *user, const evt_tl_state_iv *iv)
{
    evt_tl_rows *r = user;
    row_start_(r, EVT_TL_T_thread_states);
    set_ctx_(r, TS_ctx, iv->ctx);
    set_s_(r, TS_state, evt_tl_state_name(iv->state));
    set_i_(r, TS_cpu, iv->cpu);
    set_i_(r, TS_t0, iv->t0);
    set_i_(r, TS_t1, iv->t1);
    set_i_(r, TS_dur, iv->t1 - iv->t0);
    set_obj_(r, TS_object, iv->obj);
    set_s_(r, TS_service, iv->service);
    set_i_(r, TS_open_end, iv->open_end != 0);
    emit_(r, EVT_TL_T_thread_states);
}

static void on_slice_(void *user, const evt_tl_slice *sl)
{
    evt_tl_rows *r = user;
    row_start_(r, EVT_TL_T_slices);
    set_ctx_(r, SL_ctx, sl->ctx);
    set_s_(r, SL_cat, evt_span_cat_name(sl->cat));
    set_s_(r, SL_name, sl->name ? sl->name : "");
    set_i_(r, SL_t0, sl->t0);
    set_i_(r, SL_t1, sl->t1);
    set_i_(r, SL_dur, sl->t1 - sl->t0);
    set_i_(r, SL_depth, sl->depth);
    set_obj_(r, SL_object, sl->obj);
    set_i_(r, SL_truncated, sl->truncated || sl->open_end);
    emit_(r, EVT_TL_T_slices);
}

static void on_isr_(void *user, const evt_tl_isr *iv)
{
    evt_tl_rows *r = user;
    row_start_(r, EVT_TL_T_isrs);
    set_i_(r, IS_cpu, iv->cpu);
    if (iv->has_irq) set_i_(r, IS_irq, iv->irq);
    set_s_(r, IS_name, iv->name ? iv->name : "");
    set_i_(r, IS_t0, iv->t0);
    set_i_(r, IS_t1, iv->t1);
    set_i_(r, IS_dur, iv->t1 - iv->t0);
    set_i_(r, IS_depth, iv->depth);
    set_ctx_(r, IS_interrupted, iv->interrupted);
    set_i_(r, IS_truncated, iv->truncated || iv->open_end);
    set_ctx_(r, IS_isr_ctx, iv->ctx);
    emit_(r, EVT_TL_T_isrs);
}

static void on_counter_(void *user, const evt_tl_counter *c)
{
    evt_tl_rows *r = user;
    row_start_(r, EVT_TL_T_counters);
    set_i_(r, CN_t, c->t);
    set_obj_(r, CN_object, c->obj);
    set_s_(r, CN_name, c->name ? c->name : "");
    set_i_(r, CN_value, c->value);
    emit_(r, EVT_TL_T_counters);
}

static void on_flow_(void *user, const evt_tl_flow *f)
{
    evt_tl_rows *r = user;
    row_start_(r, EVT_TL_T_flows);
    set_i_(r, FL_id, f->id);
    set_s_(r, FL_kind, f->kind ? f->kind : "");
    set_ctx_(r, FL_from_ctx, f->from_ctx);
    set_ctx_(r, FL_to_ctx, f->to_ctx);
    set_i_(r, FL_t0, f->t0);
    set_i_(r, FL_t1, f->t1);
    set_obj_(r, FL_object, f->obj);
    emit_(r, EVT_TL_T_flows);
}

static void on_waking_(void *user, const evt_tl_waking *w)
{
    evt_tl_rows *r = user;
    row_start_(r, EVT_TL_T_wakeups);
    set_i_(r, WK_t, w->t);
    set_ctx_(r, WK_ctx, w->target);
    set_ctx_(r, WK_waker, w->waker);
    set_i_(r, WK_cpu, w->cpu);
    set_i_(r, WK_from_isr, (uint64_t)w->from_isr);
    set_obj_(r, WK_object, w->obj);
    if (w->cause != EVT_WAKE_UNKNOWN) set_s_(r, WK_cause, evt_wake_cause_name((evt_wake_cause)w->cause));
    emit_(r, EVT_TL_T_wakeups);
}

static void on_prio_(void *user, const evt_tl_prio *p)
{
    evt_tl_rows *r = user;
    row_start_(r, EVT_TL_T_priorities);
    set_i_(r, PR_t, p->t);
    set_ctx_(r, PR_ctx, p->ctx);
    set_i_(r, PR_prio, p->prio);
    if (p->has_old) set_i_(r, PR_old_prio, p->old_prio);
    set_s_(r, PR_reason, evt_tl_prio_why_name(p->why));
    set_ctx_(r, PR_by_ctx, p->by);
    emit_(r, EVT_TL_T_priorities);
}

static void on_lost_(void *user, const evt_tl_lost *l)
{
    evt_tl_rows *r = user;
    row_start_(r, EVT_TL_T_losses);
    set_i_(r, LS_cpu, l->cpu);
    set_i_(r, LS_t0, l->t0);
    set_i_(r, LS_t1, l->t1);
    if (l->has_count) set_i_(r, LS_count, l->count);
    emit_(r, EVT_TL_T_losses);
}

/* ---- per-index side tables -------------------------------------------------------------------- */
static int grow_(void **v, uint32_t *cap, uint32_t need, size_t size)
{
    if (need < *cap) return 1;
    uint32_t nc = *cap ? *cap : 64;
    while (nc <= need) nc *= 2;
    char *nv = evt_realloc(*v, (size_t)nc * size);
    if (!nv) return 0;
    memset(nv + (size_t)*cap * size, 0, (size_t)(nc - *cap) * size);
    *v = nv;
    *cap = nc;
    return 1;
}

static void obj_row_(evt_tl_rows *r, uint32_t oi, const rows_obj *ro, const evt_event *del, uint64_t del_seq)
{
    const evt_tl_obj *o = evt_tl_obj_at(&r->tl, oi);
    row_start_(r, EVT_TL_T_objects);
    set_i_(r, OB_target, o->id);
    set_s_(r, OB_name, del && del->target_name ? del->target_name : o->name);
    if (ro && ro->open) {
        set_i_(r, OB_created_ts, ro->created_ts);
        set_i_(r, OB_created_seq, ro->created_seq);
        set_i_(r, OB_created_t, ro->created_t);
        if (ro->has_ctx) set_i_(r, OB_ctx, ro->ctx);
    }
    if (del) {
        set_i_(r, OB_deleted_ts, del->ts);
        set_i_(r, OB_deleted_seq, del_seq);
        set_i_(r, OB_deleted_t, evt_tl_time(&r->tl, del));
        if (r->v[OB_ctx].is_null && (del->flags & EVT_HAS_CTX)) set_i_(r, OB_ctx, del->ctx);
    }
    set_s_(r, OB_type, o->type);
    emit_(r, EVT_TL_T_objects);
}

/* An obj_create opens a row of its object, an obj_delete closes it (or is a row of its own). */
static int objects_(evt_tl_rows *r, const evt_event *ev, uint64_t seq)
{
    uint32_t oi;
    if (!evt_u64map_get(&r->tl.objmap, ev->target, &oi)) return 1; /* not an object of the timeline */
    if (!grow_((void **)&r->objs, &r->objcap, oi, sizeof *r->objs)) return 0;
    rows_obj *ro = &r->objs[oi];
    if (ev->kind == EVT_KIND_OBJ_CREATE) {
        if (ro->open) { obj_row_(r, oi, ro, NULL, 0); ro->rows++; } /* created again, never deleted */
        ro->open = 1;
        ro->created_ts = ev->ts;
        ro->created_seq = seq;
        ro->created_t = evt_tl_time(&r->tl, ev);
        ro->has_ctx = (ev->flags & EVT_HAS_CTX) != 0;
        ro->ctx = ev->ctx;
    } else {
        obj_row_(r, oi, ro, ev, seq);
        ro->open = 0;
        ro->rows++;
    }
    return 1;
}

/* ---- user tracks (user_tracks.h) ------------------------------------------------------------- */
static void u_mark_(void *user, uint32_t ch, uint64_t t, const char *text, const evt_event *ev)
{
    evt_tl_rows *r = user;
    row_start_(r, EVT_TL_T_user_events);
    set_i_(r, UE_ts, ev->ts);
    if (ev->flags & EVT_HAS_CTX) set_i_(r, UE_ctx, ev->ctx);
    set_s_(r, UE_channel, evt_strtab_str(&r->ut.names, ch));
    if (text) set_s_(r, UE_text, text);
    set_sn_(r, UE_args, r->js, r->args_len);
    set_i_(r, UE_t, t);
    set_i_(r, UE_seq, r->ev_seq);
    emit_(r, EVT_TL_T_user_events);
}

static void u_value_(void *user, uint32_t ch, uint64_t t, int64_t v, const evt_event *ev)
{
    evt_tl_rows *r = user;
    row_start_(r, EVT_TL_T_user_values);
    set_i_(r, UV_ts, ev->ts);
    if (ev->flags & EVT_HAS_CTX) set_i_(r, UV_ctx, ev->ctx);
    set_s_(r, UV_channel, evt_strtab_str(&r->ut.names, ch));
    set_i_(r, UV_value, (uint64_t)v);
    set_i_(r, UV_t, t);
    emit_(r, EVT_TL_T_user_values);
}

static void u_interval_(void *user, uint32_t ch, uint64_t id, uint64_t t0, uint64_t t1, int open_end)
{
    evt_tl_rows *r = user;
    row_start_(r, EVT_TL_T_user_intervals);
    set_s_(r, UI_channel, evt_strtab_str(&r->ut.names, ch));
    set_i_(r, UI_id, id);
    set_i_(r, UI_t0, t0);
    set_i_(r, UI_t1, t1);
    set_i_(r, UI_dur, t1 - t0);
    set_i_(r, UI_open_end, (uint64_t)open_end);
    emit_(r, EVT_TL_T_user_intervals);
}

static void u_state_(void *user, uint32_t sm, uint64_t obj, uint32_t st, uint64_t st_id, uint64_t t0, uint64_t t1,
                     int open_end)
{
    evt_tl_rows *r = user;
    row_start_(r, EVT_TL_T_sm_states);
    if (sm) set_s_(r, SM_machine, evt_strtab_str(&r->ut.names, sm));
    set_i_(r, SM_object, obj);
    if (st) set_s_(r, SM_state, evt_strtab_str(&r->ut.names, st));
    set_i_(r, SM_state_id, st_id);
    set_i_(r, SM_t0, t0);
    set_i_(r, SM_t1, t1);
    set_i_(r, SM_dur, t1 - t0);
    set_i_(r, SM_open_end, (uint64_t)open_end);
    emit_(r, EVT_TL_T_sm_states);
}

/* ---- API -------------------------------------------------------------------------------------- */
/* The trace's facts for the timeline (always succeeds: 1). */
static int tl_facts_(evt_tl_rows *r, const evt_tl_trace_info *info)
{
    if (info->reader) evt_tl_set_reader(&r->tl, info->reader);
    return 1;
}

evt_tl_rows *evt_tl_rows_new(const evt_tl_trace_info *info, const evt_tl_row_sink *sink)
{
    evt_tl_rows *r = evt_calloc(1, sizeof *r);
    if (!r) return NULL;
    evt_ro_image_init(&r->ro);
    r->sink = *sink;
    r->clock_hz = info->clock_hz;
    r->format = evt_strdup(info->format ? info->format : "");
    r->source = info->source ? evt_strdup(info->source) : NULL;
    r->clock_source = info->clock_source ? evt_strdup(info->clock_source) : NULL;
    evt_tl_sink ts = {0};
    ts.user = r;
    ts.state = on_state_;
    ts.slice = on_slice_;
    ts.isr = on_isr_;
    ts.counter = on_counter_;
    ts.flow = on_flow_;
    ts.lost = on_lost_;
    ts.waking = on_waking_;
    ts.prio = on_prio_;
    evt_ut_sink us = {r, u_mark_, u_value_, u_interval_, u_state_};
    evt_ut_init(&r->ut, &us);
    if (!r->format || (info->source && !r->source) || (info->clock_source && !r->clock_source) ||
        !evt_tl_init(&r->tl, info->clock_hz, &ts) || !tl_facts_(r, info)) {
        evt_tl_rows_free(r);
        return NULL;
    }
    return r;
}

int evt_tl_rows_add(evt_tl_rows *r, const evt_event *ev)
{
    if (r->stopped || r->oom) return 0;
    uint64_t seq = r->seq++;
    uint32_t ci = evt_tl_add(&r->tl, ev);
    if (r->tl.oom) { r->oom = 1; return 0; }
    if (ci != EVT_TL_NONE) { /* none: a loss record (no context) */
        if (!grow_((void **)&r->ctxs, &r->ctxcap, ci, sizeof *r->ctxs)) { r->oom = 1; return 0; }
        rows_ctx *rc = &r->ctxs[ci];
        if (!rc->seen) { rc->seen = 1; rc->first_ts = ev->ts; }
        if (ev->ts > rc->last_ts) rc->last_ts = ev->ts;
    }
    if (ev->kind == EVT_KIND_LOST && (ev->flags & EVT_HAS_COUNT)) r->lost += ev->count;
    if ((ev->kind == EVT_KIND_OBJ_CREATE || ev->kind == EVT_KIND_OBJ_DELETE) && (ev->flags & EVT_HAS_TARGET) &&
        !objects_(r, ev, seq)) { r->oom = 1; return 0; }

    size_t args_len;
    json_(r, ev, &args_len);
    if (r->oom) return 0;
    row_start_(r, EVT_TL_T_events);
    set_i_(r, EV_seq, seq);
    set_i_(r, EV_ts, ev->ts);
    if (ev->flags & EVT_HAS_TNS) set_i_(r, EV_t_ns, ev->t_ns);
    set_i_(r, EV_id, ev->id);
    set_s_(r, EV_name, ev->name ? ev->name : "");
    set_s_(r, EV_kind, evt_kind_name(ev->kind));
    if (ev->flags & EVT_HAS_CTX) set_i_(r, EV_ctx, ev->ctx);
    if (ev->flags & EVT_HAS_CPU) set_i_(r, EV_cpu, ev->cpu);
    if (ev->flags & EVT_HAS_PRIO) set_i_(r, EV_prio, ev->prio);
    if (ev->flags & EVT_HAS_SEQ) set_i_(r, EV_seq_no, ev->seq);
    if (ev->flags & EVT_HAS_COUNT) set_i_(r, EV_count, ev->count);
    if (ev->flags & EVT_HAS_TARGET) set_i_(r, EV_target, ev->target);
    set_s_(r, EV_target_name, ev->target_name);
    set_i_(r, EV_offset, ev->offset);
    set_sn_(r, EV_args, r->js, args_len);
    if (r->jn > args_len) set_sn_(r, EV_fields, r->js + args_len, r->jn - args_len);
    if (ev->data) {
        set_sn_(r, EV_data, (const char *)ev->data, ev->data_len);
        if (ev->data_is_text) set_sn_(r, EV_text, (const char *)ev->data, ev->data_len);
    }
    set_i_(r, EV_t, evt_tl_time(&r->tl, ev));
    emit_(r, EVT_TL_T_events);
    if (evt_ut_relevant(ev) && !r->stopped) {
        r->ev_seq = seq;
        r->args_len = args_len;
        if (!evt_ut_event(&r->ut, ev, evt_tl_time(&r->tl, ev))) { r->oom = 1; return 0; }
    }
    return !r->stopped;
}

static void contexts_(evt_tl_rows *r)
{
    const evt_tl *tl = &r->tl;
    uint64_t dur = tl->have_t ? tl->last - tl->first : 0;
    char nb[96];
    for (uint32_t i = 0; i < tl->nctx && !r->stopped; i++) {
        const evt_tl_ctx *c = evt_tl_ctx_at(tl, i);
        const rows_ctx *rc = i < r->ctxcap ? &r->ctxs[i] : NULL;
        uint64_t cpu = c->run_time >= c->isr_time ? c->run_time - c->isr_time : 0;
        row_start_(r, EVT_TL_T_contexts);
        if (c->has_id) set_i_(r, CX_ctx, c->id);
        set_s_(r, CX_name, evt_tl_ctx_label(c, nb, sizeof nb));
        set_s_(r, CX_class, evt_tl_class_name(c->cls));
        set_i_(r, CX_events, c->events);
        if (rc && rc->seen) { set_i_(r, CX_first_ts, rc->first_ts); set_i_(r, CX_last_ts, rc->last_ts); }
        set_i_(r, CX_cpu_time, cpu);
        set_f_(r, CX_load_pct, dur ? (double)cpu * 100.0 / (double)dur : 0.0);
        if (c->has_prio) set_i_(r, CX_prio, c->prio);
        if (c->events) { set_i_(r, CX_first_t, c->first); set_i_(r, CX_last_t, c->last); }
        set_i_(r, CX_switches, c->switches_in);
        if (tl->wake_causes) { set_i_(r, CX_timeouts, c->timeouts); set_i_(r, CX_wait_aborts, c->wait_aborts); }
        if (tl->preempt_counts) {
            set_i_(r, CX_preemptions, c->preemptions);
            set_i_(r, CX_isr_preemptions, c->isr_preemptions);
        }
        if (tl->yield_counts) set_i_(r, CX_yields, c->yields);
        if (tl->slice_counts && !c->time_slices_unknown) set_i_(r, CX_time_slices, c->time_slices);
        emit_(r, EVT_TL_T_contexts);
    }
}

static int objects_finish_(evt_tl_rows *r)
{
    if (r->tl.nobj && !grow_((void **)&r->objs, &r->objcap, r->tl.nobj - 1, sizeof *r->objs)) return 0;
    for (uint32_t i = 0; i < r->tl.nobj && !r->stopped; i++)
        if (r->objs[i].open || !r->objs[i].rows) obj_row_(r, i, &r->objs[i], NULL, 0);
    return 1;
}

static void trace_row_(evt_tl_rows *r, uint64_t errors)
{
    const evt_tl *tl = &r->tl;
    row_start_(r, EVT_TL_T_traces);
    set_s_(r, TR_format, r->format);
    set_s_(r, TR_source, r->source);
    if (r->clock_hz) set_i_(r, TR_clock_hz, r->clock_hz);
    set_s_(r, TR_clock_source, r->clock_source);
    set_s_(r, TR_time_unit, tl->clock_hz ? "ns" : "ticks");
    if (tl->have_t) { set_i_(r, TR_start_t, tl->first); set_i_(r, TR_end_t, tl->last); }
    set_i_(r, TR_events, r->seq);
    set_i_(r, TR_lost, r->lost);
    set_i_(r, TR_errors, errors);
    emit_(r, EVT_TL_T_traces);
}

int evt_tl_rows_finish(evt_tl_rows *r, uint64_t errors)
{
    if (r->stopped || r->oom) return 0;
    evt_tl_finish(&r->tl);
    if (r->tl.oom) { r->oom = 1; return 0; }
    evt_ut_finish(&r->ut, r->tl.have_t ? r->tl.last : 0);
    if (r->ut.oom) { r->oom = 1; return 0; }
    contexts_(r);
    if (!objects_finish_(r)) { r->oom = 1; return 0; }
    trace_row_(r, errors);
    return !r->stopped;
}

uint64_t evt_tl_rows_count(const evt_tl_rows *r, evt_tl_table t)
{
    return (unsigned)t < EVT_TL_T_COUNT_ ? r->counts[t] : 0;
}

const evt_tl *evt_tl_rows_timeline(const evt_tl_rows *r) { return &r->tl; }

void evt_tl_rows_free(evt_tl_rows *r)
{
    if (!r) return;
    evt_tl_free(&r->tl);
    evt_ut_free(&r->ut);
    evt_free(r->ctxs);
    evt_free(r->objs);
    evt_free(r->js);
    evt_free(r->format);
    evt_free(r->source);
    evt_free(r->clock_source);
    evt_free(r);
}
