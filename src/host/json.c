/* Streaming JSON writer and the stable JSON form of one event (DESIGN.md §5). */
#include "evtrace/json.h"
#include "evtrace/hooks_defs.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "evtrace/model.h"
#include "host/fbuf.h"
#include "host/json_fast.h"
#include "utf8.h"

/* Each call assembles its bytes in an evt_fbuf (a buffer on the stack, host/fbuf.h) and writes
 * them with one fwrite when it returns (an event: one fwrite for the whole object), so nothing is
 * kept between calls: the caller may write to the same FILE between them. */
void evt_json_init(evt_json *j, FILE *out, int pretty)
{
    j->out = out;
    j->depth = 0;
    j->need_comma[0] = 0;
    j->after_key = 0;
    j->pretty = pretty;
}

static void indent(evt_json *j, evt_fbuf *b)
{
    if (!j->pretty) return;
    char *o = evt_fbuf_room(b, 1 + 2 * EVT_JSON_MAX_DEPTH);
    *o++ = '\n';
    for (int i = 0; i < j->depth; i++, o += 2) memcpy(o, "  ", 2);
    b->n = (size_t)(o - b->p);
}

/* Separator before a value (or a key) at the current level. */
static inline void pre_value(evt_json *j, evt_fbuf *b)
{
    if (j->after_key) { j->after_key = 0; return; }
    if (j->need_comma[j->depth]) evt_fbuf_c(b, ',');
    if (j->depth > 0) indent(j, b);
    j->need_comma[j->depth] = 1;
}

static void open_(evt_json *j, evt_fbuf *b, char c)
{
    pre_value(j, b);
    evt_fbuf_c(b, c);
    if (j->depth < EVT_JSON_MAX_DEPTH - 1) j->depth++;
    j->need_comma[j->depth] = 0;
}

static void close_(evt_json *j, evt_fbuf *b, char c)
{
    int had = j->need_comma[j->depth];
    if (j->depth > 0) j->depth--;
    if (had) indent(j, b);
    evt_fbuf_c(b, c);
}

/* A JSON string of the bytes s[0..n): valid UTF-8 passes through unchanged; every invalid or
 * truncated sequence (maximal subpart) becomes U+FFFD; '"', '\\' and control characters are
 * escaped. The usual string (printable ASCII, nothing to escape) is checked 8 bytes at a time
 * while it is copied (host/json_fast.h); any other is scanned 8 bytes at a time up to the next byte
 * that needs attention, runs of bytes that need nothing copied whole. */
static void put_escaped(evt_fbuf *b, const char *str, size_t n)
{
    if (n <= EVT_FBUF_CAP / 2) {
        size_t k = evt_jf_put_plain_(evt_fbuf_room(b, n + 2), str, n, EVT_JF_HIGH_);
        if (k) { b->n += k; return; }
    }
    const unsigned char *s = (const unsigned char *)str;
    size_t run = 0; /* start of the pending run of bytes written as they are */
    evt_fbuf_c(b, '"');
    for (size_t i = 0; i < n;) {
        if (i + 8 <= n) {
            uint64_t w8;
            memcpy(&w8, s + i, 8);
            uint64_t m8 = evt_jf_unsafe8_(w8, EVT_JF_HIGH_);
            if (!m8) {
                i += 8; /* eight bytes that need nothing: part of the run */
                continue;
            }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            /* the lowest flag is the first byte that needs attention (the check's false flags
               only follow a true one): the bytes before it need nothing */
            i += (size_t)__builtin_ctzll(m8) >> 3;
#endif
        }
        unsigned char c = s[i];
        if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') { i++; continue; }
        if (c >= 0x80) {
            size_t bad, k = evt_utf8_seq(s + i, n - i, &bad);
            if (k) { i += k; continue; } /* valid: part of the run */
            if (i > run) evt_fbuf_put(b, s + run, i - run);
            EVT_FBUF_LIT(b, "\xEF\xBF\xBD"); /* U+FFFD for the maximal subpart */
            i += bad;
            run = i;
            continue;
        }
        if (i > run) evt_fbuf_put(b, s + run, i - run);
        switch (c) {
        case '"': EVT_FBUF_LIT(b, "\\\""); break;
        case '\\': EVT_FBUF_LIT(b, "\\\\"); break;
        case '\n': EVT_FBUF_LIT(b, "\\n"); break;
        case '\r': EVT_FBUF_LIT(b, "\\r"); break;
        case '\t': EVT_FBUF_LIT(b, "\\t"); break;
        default: { /* other control characters, DEL: \u00XX */
            static const char hexd[] = "0123456789abcdef";
            char u[6] = {'\\', 'u', '0', '0', hexd[c >> 4], hexd[c & 15]};
            evt_fbuf_put(b, u, sizeof u);
        }
        }
        i++;
        run = i;
    }
    if (n > run) evt_fbuf_put(b, s + run, n - run);
    evt_fbuf_c(b, '"');
}

static void key_(evt_json *j, evt_fbuf *b, const char *k)
{
    pre_value(j, b);
    put_escaped(b, k, strlen(k));
    if (j->pretty) EVT_FBUF_LIT(b, ": ");
    else evt_fbuf_c(b, ':');
    j->after_key = 1;
}
static void strn_(evt_json *j, evt_fbuf *b, const char *s, size_t n)
{
    pre_value(j, b);
    put_escaped(b, s, n);
}
static void null_(evt_json *j, evt_fbuf *b)
{
    pre_value(j, b);
    EVT_FBUF_LIT(b, "null");
}
static void str_(evt_json *j, evt_fbuf *b, const char *s)
{
    if (s) strn_(j, b, s, strlen(s));
    else null_(j, b);
}
static void u64_(evt_json *j, evt_fbuf *b, uint64_t v)
{
    pre_value(j, b);
    b->n += evt_jf_u64_(evt_fbuf_room(b, 20), v);
}
static void i64_(evt_json *j, evt_fbuf *b, int64_t v)
{
    pre_value(j, b);
    char *o = evt_fbuf_room(b, 21);
    size_t k = 0;
    if (v < 0) o[k++] = '-';
    b->n += k + evt_jf_u64_(o + k, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
}
static void bool_(evt_json *j, evt_fbuf *b, int v)
{
    pre_value(j, b);
    if (v) EVT_FBUF_LIT(b, "true");
    else EVT_FBUF_LIT(b, "false");
}
static void hex_(evt_json *j, evt_fbuf *b, const uint8_t *p, size_t n)
{
    static const char hexd[] = "0123456789abcdef";
    pre_value(j, b);
    evt_fbuf_c(b, '"');
    for (size_t i = 0; i < n; i++) {
        char *o = evt_fbuf_room(b, 2);
        o[0] = hexd[p[i] >> 4];
        o[1] = hexd[p[i] & 15];
        b->n += 2;
    }
    evt_fbuf_c(b, '"');
}

/* A key given as a string literal that needs no escaping (evt_json_event's, evt_json_meaning's):
 * its quoted text is the literal's, copied whole. */
static void lkey_(evt_json *j, evt_fbuf *b, const char *quoted, size_t n)
{
    pre_value(j, b);
    evt_fbuf_put(b, quoted, n);
    if (j->pretty) EVT_FBUF_LIT(b, ": ");
    else evt_fbuf_c(b, ':');
    j->after_key = 1;
}
#define LKEY_(j, b, lit) lkey_((j), (b), "\"" lit "\"", sizeof(lit) + 1)
#define LKSTR_(j, b, lit, s) (LKEY_(j, b, lit), str_((j), (b), (s)))
#define LKU64_(j, b, lit, v) (LKEY_(j, b, lit), u64_((j), (b), (v)))
#define LKBOOL_(j, b, lit, v) (LKEY_(j, b, lit), bool_((j), (b), (v)))
static void kstr_(evt_json *j, evt_fbuf *b, const char *k, const char *s) { key_(j, b, k); str_(j, b, s); }
static void ku64_(evt_json *j, evt_fbuf *b, const char *k, uint64_t v) { key_(j, b, k); u64_(j, b, v); }
static void kbool_(evt_json *j, evt_fbuf *b, const char *k, int v) { key_(j, b, k); bool_(j, b, v); }

/* The public calls: one evt_fbuf each, written when the call returns. */
#define JB_CALL(j, body)                                                                           \
    do {                                                                                           \
        evt_fbuf b_;                                                                               \
        evt_fbuf_init(&b_, (j)->out);                                                              \
        evt_fbuf *b = &b_;                                                                         \
        body;                                                                                      \
        evt_fbuf_flush(b);                                                                         \
    } while (0)

void evt_json_obj_begin(evt_json *j) { JB_CALL(j, open_(j, b, '{')); }
void evt_json_obj_end(evt_json *j) { JB_CALL(j, close_(j, b, '}')); }
void evt_json_arr_begin(evt_json *j) { JB_CALL(j, open_(j, b, '[')); }
void evt_json_arr_end(evt_json *j) { JB_CALL(j, close_(j, b, ']')); }
void evt_json_key(evt_json *j, const char *k) { JB_CALL(j, key_(j, b, k)); }
void evt_json_str(evt_json *j, const char *s) { JB_CALL(j, str_(j, b, s)); }
void evt_json_strn(evt_json *j, const char *s, size_t n) { JB_CALL(j, strn_(j, b, s, n)); }
void evt_json_u64(evt_json *j, uint64_t v) { JB_CALL(j, u64_(j, b, v)); }
void evt_json_i64(evt_json *j, int64_t v) { JB_CALL(j, i64_(j, b, v)); }
void evt_json_f64(evt_json *j, double v)
{
    JB_CALL(j, {
        pre_value(j, b);
        if (isfinite(v)) {
            char d[40];
            int k = snprintf(d, sizeof d, "%.17g", v);
            evt_fbuf_put(b, d, k > 0 ? (size_t)k : 0);
        } else {
            EVT_FBUF_LIT(b, "null");
        }
    });
}
void evt_json_bool(evt_json *j, int v) { JB_CALL(j, bool_(j, b, v)); }
void evt_json_null(evt_json *j) { JB_CALL(j, null_(j, b)); }
void evt_json_hex(evt_json *j, const uint8_t *p, size_t n) { JB_CALL(j, hex_(j, b, p, n)); }

void evt_json_kstr(evt_json *j, const char *k, const char *s) { JB_CALL(j, kstr_(j, b, k, s)); }
void evt_json_ku64(evt_json *j, const char *k, uint64_t v) { JB_CALL(j, ku64_(j, b, k, v)); }
void evt_json_ki64(evt_json *j, const char *k, int64_t v) { JB_CALL(j, { key_(j, b, k); i64_(j, b, v); }); }
void evt_json_kbool(evt_json *j, const char *k, int v) { JB_CALL(j, kbool_(j, b, k, v)); }

static const char *hook_state_name_(unsigned st)
{
    switch (st) {
#define JSON_HS_(n, v, s) case v: return s;
        EVT_HOOK_STATE_TABLE(JSON_HS_)
#undef JSON_HS_
    default: return "unknown";
    }
}

static const char *hook_obj_name_(unsigned t)
{
    switch (t) {
#define JSON_HO_(n, v, s) case v: return s;
        EVT_HOOK_OBJ_TABLE(JSON_HO_)
#undef JSON_HO_
    default: return "unknown";
    }
}

static void meaning_(evt_json *j, evt_fbuf *b, const evt_meaning *m)
{
    open_(j, b, '{');
    if (m->has & EVT_M_LABEL) LKSTR_(j, b, "label", m->label);
    if (m->has & EVT_M_IRQ) LKU64_(j, b, "irq", m->irq);
    if (m->has & EVT_M_STOP_STATE) LKSTR_(j, b, "stop_state", hook_state_name_(m->stop_state));
    if (m->has & EVT_M_KEEP_STATE) LKBOOL_(j, b, "keep_state", 1);
    if (m->has & EVT_M_RUNS_NOW) LKBOOL_(j, b, "runs_now", 1);
    if (m->has & EVT_M_NEXT) {
        LKU64_(j, b, "next", m->next_ctx);
        if (m->next_name) LKSTR_(j, b, "next_name", m->next_name);
        if (m->next_prio != EVT_HOOK_PRIO_UNKNOWN) LKU64_(j, b, "next_prio", m->next_prio);
    }
    if (m->has & EVT_M_SM_STATE) {
        LKU64_(j, b, "sm", m->obj);
        LKU64_(j, b, "sm_state_id", m->sm_state_id);
        if (m->sm_state) LKSTR_(j, b, "sm_state", m->sm_state);
    }
    if (m->has & EVT_M_OP) {
        LKSTR_(j, b, "op", evt_obj_op_name((evt_obj_op)m->op));
        LKSTR_(j, b, "result", evt_op_result_name((evt_op_result)m->op_result));
    }
    if (m->has & (EVT_M_OP | EVT_M_BLOCKED_ON)) {
        LKU64_(j, b, "obj", m->obj);
        if (m->obj_name) LKSTR_(j, b, "obj_name", m->obj_name);
    }
    if (m->has & EVT_M_BLOCKED_ON) LKBOOL_(j, b, "blocked_on", 1);
    if (m->has & EVT_M_OBJ_TYPE) LKSTR_(j, b, "obj_type", hook_obj_name_(m->obj_type));
    if (m->has & EVT_M_PRIO_SET) LKU64_(j, b, "new_prio", m->new_prio);
    if ((m->has & (EVT_M_PRIO_SET | EVT_M_PRIO_KEPT)) == (EVT_M_PRIO_SET | EVT_M_PRIO_KEPT))
        LKU64_(j, b, "kept_prio", m->inherit_prio);
    if (m->has & EVT_M_WAKE) LKBOOL_(j, b, "wake", 1);
    if (m->has & EVT_M_WAKE_CAUSE) LKSTR_(j, b, "wake_cause", evt_wake_cause_name((evt_wake_cause)m->wake_cause));
    if (m->has & EVT_M_PREEMPT) LKU64_(j, b, "preempted", m->preempted_ctx);
    if (m->has & EVT_M_YIELD) LKBOOL_(j, b, "yield", 1);
    if (m->has & EVT_M_TIME_SLICE) LKU64_(j, b, "time_slice", m->sliced_ctx);
    if (m->has & EVT_M_SLICE_UNKNOWN) LKU64_(j, b, "time_slice_unknown", m->sliced_ctx);
    if (m->has & EVT_M_SLICE_KEPT) LKU64_(j, b, "time_slice_kept", m->sliced_ctx);
    if (m->has & EVT_M_CTX_PRIO) LKU64_(j, b, "ctx_prio", m->ctx_prio);
    if (m->has & EVT_M_LEVEL) {
        LKEY_(j, b, "levels");
        open_(j, b, '{');
        for (uint32_t i = 0; i < m->nlevels && i < EVT_M_MAX_LEVELS; i++)
            ku64_(j, b, evt_level_name((evt_level_kind)m->level_kind[i]), m->level[i]);
        close_(j, b, '}');
    }
    if (m->has & EVT_M_UNTIMED) LKBOOL_(j, b, "untimed", 1);
    if (m->has & EVT_M_IDLE_TASK) LKU64_(j, b, "idle_task", m->idle_ctx);
    if (m->has & EVT_M_INTERRUPTED) LKU64_(j, b, "interrupted", m->interrupted_ctx);
    if (m->has & EVT_M_INHERIT) {
        LKU64_(j, b, "inherit", m->inherit_ctx);
        LKU64_(j, b, "inherit_prio", m->inherit_prio);
    }
    if (m->has & EVT_M_OWNER) {
        LKU64_(j, b, "owner", m->owner);
        LKU64_(j, b, "owner_count", m->owner_count);
    }
    close_(j, b, '}');
}

static void event_(evt_json *j, evt_fbuf *b, const evt_event *ev)
{
    open_(j, b, '{');
    LKSTR_(j, b, "fmt", ev->fmt);
    LKU64_(j, b, "id", ev->id);
    LKSTR_(j, b, "name", ev->name ? ev->name : "");
    LKSTR_(j, b, "kind", evt_kind_name(ev->kind));
    LKU64_(j, b, "ts", ev->ts);
    if (ev->flags & EVT_HAS_TNS) LKU64_(j, b, "t_ns", ev->t_ns);
    LKEY_(j, b, "ctx");
    if (ev->flags & EVT_HAS_CTX) u64_(j, b, ev->ctx); else null_(j, b);
    if (ev->ctx_name) LKSTR_(j, b, "ctx_name", ev->ctx_name);
    if (ev->flags & EVT_HAS_CPU) LKU64_(j, b, "cpu", ev->cpu);
    if (ev->flags & EVT_HAS_PRIO) LKU64_(j, b, "prio", ev->prio);
    if (ev->flags & EVT_HAS_SEQ) LKU64_(j, b, "seq", ev->seq);
    if (ev->flags & EVT_HAS_COUNT) LKU64_(j, b, "count", ev->count);
    LKU64_(j, b, "offset", ev->offset);
    LKEY_(j, b, "args");
    open_(j, b, '[');
    for (uint32_t i = 0; i < ev->nargs; i++) u64_(j, b, ev->args[i]);
    close_(j, b, ']');
    if (ev->nfields || (ev->flags & EVT_HAS_TARGET)) {
        LKEY_(j, b, "fields");
        open_(j, b, '{');
        if (ev->flags & EVT_HAS_TARGET) {
            LKU64_(j, b, "target", ev->target);
            if (ev->target_name) LKSTR_(j, b, "target_name", ev->target_name);
        }
        for (uint32_t i = 0; i < ev->nfields; i++) {
            const evt_field *f = &ev->fields[i];
            key_(j, b, f->key);
            if (f->is_str) str_(j, b, f->str);
            else if (f->is_signed) i64_(j, b, (int64_t)f->num);
            else u64_(j, b, f->num);
        }
        close_(j, b, '}');
    }
    if (ev->m.has) {
        LKEY_(j, b, "meaning");
        meaning_(j, b, &ev->m);
    }
    if (ev->data) {
        LKEY_(j, b, "data");
        hex_(j, b, ev->data, ev->data_len);
        if (ev->data_is_text) {
            LKEY_(j, b, "text");
            strn_(j, b, (const char *)ev->data, ev->data_len);
        }
    }
    close_(j, b, '}');
}

void evt_json_meaning(evt_json *j, const evt_meaning *m) { JB_CALL(j, meaning_(j, b, m)); }
void evt_json_event(evt_json *j, const evt_event *ev) { JB_CALL(j, event_(j, b, ev)); }
