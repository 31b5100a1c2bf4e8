/* Streaming JSON writer and the stable JSON form of one event (DESIGN.md §5). */
#include "evtrace/json.h"
#include "evtrace/hooks_defs.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "evtrace/model.h"
#include "utf8.h"

void evt_json_init(evt_json *j, FILE *out, int pretty)
{
    j->out = out;
    j->depth = 0;
    j->need_comma[0] = 0;
    j->after_key = 0;
    j->pretty = pretty;
}

static void indent(evt_json *j)
{
    if (!j->pretty) return;
    fputc('\n', j->out);
    for (int i = 0; i < j->depth; i++) fputs("  ", j->out);
}

/* Separator before a value (or a key) at the current level. */
static void pre_value(evt_json *j)
{
    if (j->after_key) { j->after_key = 0; return; }
    if (j->need_comma[j->depth]) fputc(',', j->out);
    if (j->depth > 0) indent(j);
    j->need_comma[j->depth] = 1;
}

static void open_(evt_json *j, char c)
{
    pre_value(j);
    fputc(c, j->out);
    if (j->depth < EVT_JSON_MAX_DEPTH - 1) j->depth++;
    j->need_comma[j->depth] = 0;
}

static void close_(evt_json *j, char c)
{
    int had = j->need_comma[j->depth];
    if (j->depth > 0) j->depth--;
    if (had) indent(j);
    fputc(c, j->out);
}

void evt_json_obj_begin(evt_json *j) { open_(j, '{'); }
void evt_json_obj_end(evt_json *j) { close_(j, '}'); }
void evt_json_arr_begin(evt_json *j) { open_(j, '['); }
void evt_json_arr_end(evt_json *j) { close_(j, ']'); }

/* A JSON string of the bytes s[0..n): valid UTF-8 passes through unchanged; every invalid or
 * truncated sequence (maximal subpart) becomes U+FFFD; '"', '\\' and control characters are
 * escaped. Runs of bytes that need nothing are written with one fwrite. */
static void put_escaped(FILE *o, const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t run = 0; /* start of the pending run of bytes written as they are */
    fputc('"', o);
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') { i++; continue; }
        if (c >= 0x80) {
            size_t bad, k = evt_utf8_seq(s + i, n - i, &bad);
            if (k) { i += k; continue; } /* valid: part of the run */
            if (i > run) fwrite(s + run, 1, i - run, o);
            fputs("\xEF\xBF\xBD", o); /* U+FFFD for the maximal subpart */
            i += bad;
            run = i;
            continue;
        }
        if (i > run) fwrite(s + run, 1, i - run, o);
        switch (c) {
        case '"': fputs("\\\"", o); break;
        case '\\': fputs("\\\\", o); break;
        case '\n': fputs("\\n", o); break;
        case '\r': fputs("\\r", o); break;
        case '\t': fputs("\\t", o); break;
        default: fprintf(o, "\\u%04x", c); /* other control characters, DEL */
        }
        i++;
        run = i;
    }
    if (n > run) fwrite(s + run, 1, n - run, o);
    fputc('"', o);
}

void evt_json_key(evt_json *j, const char *k)
{
    pre_value(j);
    put_escaped(j->out, k, strlen(k));
    fputs(j->pretty ? ": " : ":", j->out);
    j->after_key = 1;
}

void evt_json_str(evt_json *j, const char *s)
{
    if (!s) { evt_json_null(j); return; }
    evt_json_strn(j, s, strlen(s));
}

void evt_json_strn(evt_json *j, const char *s, size_t n)
{
    pre_value(j);
    put_escaped(j->out, s, n);
}

void evt_json_u64(evt_json *j, uint64_t v) { pre_value(j); fprintf(j->out, "%" PRIu64, v); }
void evt_json_i64(evt_json *j, int64_t v) { pre_value(j); fprintf(j->out, "%" PRId64, v); }
void evt_json_f64(evt_json *j, double v)
{
    pre_value(j);
    if (isfinite(v)) fprintf(j->out, "%.17g", v);
    else fputs("null", j->out);
}
void evt_json_bool(evt_json *j, int v) { pre_value(j); fputs(v ? "true" : "false", j->out); }
void evt_json_null(evt_json *j) { pre_value(j); fputs("null", j->out); }

void evt_json_hex(evt_json *j, const uint8_t *p, size_t n)
{
    static const char hexd[] = "0123456789abcdef";
    pre_value(j);
    fputc('"', j->out);
    for (size_t i = 0; i < n; i++) {
        fputc(hexd[p[i] >> 4], j->out);
        fputc(hexd[p[i] & 15], j->out);
    }
    fputc('"', j->out);
}

void evt_json_kstr(evt_json *j, const char *k, const char *s) { evt_json_key(j, k); evt_json_str(j, s); }
void evt_json_ku64(evt_json *j, const char *k, uint64_t v) { evt_json_key(j, k); evt_json_u64(j, v); }
void evt_json_ki64(evt_json *j, const char *k, int64_t v) { evt_json_key(j, k); evt_json_i64(j, v); }
void evt_json_kbool(evt_json *j, const char *k, int v) { evt_json_key(j, k); evt_json_bool(j, v); }

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

void evt_json_meaning(evt_json *j, const evt_meaning *m)
{
    evt_json_obj_begin(j);
    if (m->has & EVT_M_LABEL) evt_json_kstr(j, "label", m->label);
    if (m->has & EVT_M_IRQ) evt_json_ku64(j, "irq", m->irq);
    if (m->has & EVT_M_STOP_STATE) evt_json_kstr(j, "stop_state", hook_state_name_(m->stop_state));
    if (m->has & EVT_M_KEEP_STATE) evt_json_kbool(j, "keep_state", 1);
    if (m->has & EVT_M_RUNS_NOW) evt_json_kbool(j, "runs_now", 1);
    if (m->has & EVT_M_NEXT) {
        evt_json_ku64(j, "next", m->next_ctx);
        if (m->next_name) evt_json_kstr(j, "next_name", m->next_name);
        if (m->next_prio != EVT_HOOK_PRIO_UNKNOWN) evt_json_ku64(j, "next_prio", m->next_prio);
    }
    if (m->has & EVT_M_SM_STATE) {
        evt_json_ku64(j, "sm", m->obj);
        evt_json_ku64(j, "sm_state_id", m->sm_state_id);
        if (m->sm_state) evt_json_kstr(j, "sm_state", m->sm_state);
    }
    if (m->has & EVT_M_OP) {
        evt_json_kstr(j, "op", evt_obj_op_name((evt_obj_op)m->op));
        evt_json_kstr(j, "result", evt_op_result_name((evt_op_result)m->op_result));
    }
    if (m->has & (EVT_M_OP | EVT_M_BLOCKED_ON)) {
        evt_json_ku64(j, "obj", m->obj);
        if (m->obj_name) evt_json_kstr(j, "obj_name", m->obj_name);
    }
    if (m->has & EVT_M_BLOCKED_ON) evt_json_kbool(j, "blocked_on", 1);
    if (m->has & EVT_M_OBJ_TYPE) evt_json_kstr(j, "obj_type", hook_obj_name_(m->obj_type));
    if (m->has & EVT_M_PRIO_SET) evt_json_ku64(j, "new_prio", m->new_prio);
    if (m->has & EVT_M_WAKE) evt_json_kbool(j, "wake", 1);
    if (m->has & EVT_M_CTX_PRIO) evt_json_ku64(j, "ctx_prio", m->ctx_prio);
    if (m->has & EVT_M_LEVEL) {
        evt_json_key(j, "levels");
        evt_json_obj_begin(j);
        for (uint32_t i = 0; i < m->nlevels && i < EVT_M_MAX_LEVELS; i++)
            evt_json_ku64(j, evt_level_name((evt_level_kind)m->level_kind[i]), m->level[i]);
        evt_json_obj_end(j);
    }
    if (m->has & EVT_M_UNTIMED) evt_json_kbool(j, "untimed", 1);
    if (m->has & EVT_M_IDLE_TASK) evt_json_ku64(j, "idle_task", m->idle_ctx);
    if (m->has & EVT_M_OWNER) {
        evt_json_ku64(j, "owner", m->owner);
        evt_json_ku64(j, "owner_count", m->owner_count);
    }
    evt_json_obj_end(j);
}

void evt_json_event(evt_json *j, const evt_event *ev)
{
    evt_json_obj_begin(j);
    evt_json_kstr(j, "fmt", ev->fmt);
    evt_json_ku64(j, "id", ev->id);
    evt_json_kstr(j, "name", ev->name ? ev->name : "");
    evt_json_kstr(j, "kind", evt_kind_name(ev->kind));
    evt_json_ku64(j, "ts", ev->ts);
    if (ev->flags & EVT_HAS_TNS) evt_json_ku64(j, "t_ns", ev->t_ns);
    evt_json_key(j, "ctx");
    if (ev->flags & EVT_HAS_CTX) evt_json_u64(j, ev->ctx); else evt_json_null(j);
    if (ev->ctx_name) evt_json_kstr(j, "ctx_name", ev->ctx_name);
    if (ev->flags & EVT_HAS_CPU) evt_json_ku64(j, "cpu", ev->cpu);
    if (ev->flags & EVT_HAS_PRIO) evt_json_ku64(j, "prio", ev->prio);
    if (ev->flags & EVT_HAS_SEQ) evt_json_ku64(j, "seq", ev->seq);
    if (ev->flags & EVT_HAS_COUNT) evt_json_ku64(j, "count", ev->count);
    evt_json_ku64(j, "offset", ev->offset);
    evt_json_key(j, "args");
    evt_json_arr_begin(j);
    for (uint32_t i = 0; i < ev->nargs; i++) evt_json_u64(j, ev->args[i]);
    evt_json_arr_end(j);
    if (ev->nfields || (ev->flags & EVT_HAS_TARGET)) {
        evt_json_key(j, "fields");
        evt_json_obj_begin(j);
        if (ev->flags & EVT_HAS_TARGET) {
            evt_json_ku64(j, "target", ev->target);
            if (ev->target_name) evt_json_kstr(j, "target_name", ev->target_name);
        }
        for (uint32_t i = 0; i < ev->nfields; i++) {
            const evt_field *f = &ev->fields[i];
            evt_json_key(j, f->key);
            if (f->is_str) evt_json_str(j, f->str);
            else if (f->is_signed) evt_json_i64(j, (int64_t)f->num);
            else evt_json_u64(j, f->num);
        }
        evt_json_obj_end(j);
    }
    if (ev->m.has) {
        evt_json_key(j, "meaning");
        evt_json_meaning(j, &ev->m);
    }
    if (ev->data) {
        evt_json_key(j, "data");
        evt_json_hex(j, ev->data, ev->data_len);
        if (ev->data_is_text) {
            evt_json_key(j, "text");
            evt_json_strn(j, (const char *)ev->data, ev->data_len);
        }
    }
    evt_json_obj_end(j);
}
