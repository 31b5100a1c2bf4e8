/* Canonical event model helpers: reset, argument/field appenders, kind names. */
#include "evtrace/model.h"
#include "event_reset.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static const char *const k_kind_names[] = {
#define EVT_KIND_STR_(e, s) s,
    EVT_KIND_TABLE(EVT_KIND_STR_)
#undef EVT_KIND_STR_
};

EVT_EVENT_RESET_FN void evt_event_reset(evt_event *ev) { evt_event_reset_inline(ev); }

void evt_event_add_arg(evt_event *ev, uint64_t v)
{
    if (ev->nargs < EVT_MAX_ARGS) ev->args[ev->nargs++] = v;
}

static evt_field *next_field(evt_event *ev, const char *key)
{
    if (ev->nfields >= EVT_MAX_FIELDS) return NULL;
    ev->fields_ok &= ~(1u << ev->nfields); /* not vouched for (formats/common/text_ok.h) */
    ev->text_ok &= ~(unsigned)EVT_TEXT_OK_EVENT;
    evt_field *f = &ev->fields[ev->nfields++];
    memset(f, 0, sizeof *f);
    f->key = key;
    return f;
}

void evt_event_add_field_u(evt_event *ev, const char *key, uint64_t v)
{
    evt_field *f = next_field(ev, key);
    if (f) f->num = v;
}

void evt_event_add_field_i(evt_event *ev, const char *key, int64_t v)
{
    evt_field *f = next_field(ev, key);
    if (f) { f->num = (uint64_t)v; f->is_signed = 1; }
}

void evt_event_add_field_s(evt_event *ev, const char *key, const char *s)
{
    evt_field *f = next_field(ev, key);
    if (f) { f->is_str = 1; f->str = s; }
}

const char *evt_kind_name(evt_kind k)
{
    return ((unsigned)k < EVT_KIND_COUNT_) ? k_kind_names[k] : "other";
}

evt_kind evt_kind_parse(const char *s)
{
    for (unsigned i = 0; i < EVT_KIND_COUNT_; i++)
        if (strcmp(s, k_kind_names[i]) == 0) return (evt_kind)i;
    return EVT_KIND_COUNT_;
}

const char *evt_obj_op_name(evt_obj_op op)
{
    static const char *const n[] = {
#define EVT_OBJ_OP_NAME_(e, s) s,
        EVT_OBJ_OP_TABLE(EVT_OBJ_OP_NAME_)
#undef EVT_OBJ_OP_NAME_
    };
    return (unsigned)op < EVT_OP_COUNT_ ? n[op] : "none";
}

const char *evt_op_result_name(evt_op_result r)
{
    static const char *const n[] = {
#define EVT_OP_RESULT_NAME_(e, s) s,
        EVT_OP_RESULT_TABLE(EVT_OP_RESULT_NAME_)
#undef EVT_OP_RESULT_NAME_
    };
    return (unsigned)r < EVT_RES_COUNT_ ? n[r] : "unknown";
}

const char *evt_wake_cause_name(evt_wake_cause c)
{
    static const char *const n[] = {
#define EVT_WAKE_CAUSE_NAME_(e, s) s,
        EVT_WAKE_CAUSE_TABLE(EVT_WAKE_CAUSE_NAME_)
#undef EVT_WAKE_CAUSE_NAME_
    };
    return (unsigned)c < EVT_WAKE_COUNT_ ? n[c] : "unknown";
}

const char *evt_cap_name(unsigned cap_bit)
{
    static const char *const n[] = {
#define EVT_CAP_NAME_(e, s) s,
        EVT_CAP_TABLE(EVT_CAP_NAME_)
#undef EVT_CAP_NAME_
    };
    for (unsigned i = 0; i < EVT_CAP_COUNT_; i++)
        if (cap_bit == (1u << i)) return n[i];
    return NULL;
}

const char *evt_level_name(evt_level_kind k)
{
    static const char *const n[] = {
#define EVT_LEVEL_NAME_(e, s) s,
        EVT_LEVEL_TABLE(EVT_LEVEL_NAME_)
#undef EVT_LEVEL_NAME_
    };
    return (unsigned)k < EVT_LEVEL_COUNT_ ? n[k] : "";
}

void evt_meaning_add_level(evt_meaning *m, evt_level_kind k, uint64_t v)
{
    if (m->nlevels >= EVT_M_MAX_LEVELS) return;
    m->level_kind[m->nlevels] = (uint8_t)k;
    m->level[m->nlevels++] = v;
    m->has |= EVT_M_LEVEL;
}

uint64_t evt_ctx_make(uint64_t raw, uint32_t incarnation)
{
    if (raw >> EVT_CTX_INCARNATION_SHIFT || !incarnation) return raw;
    uint64_t n = (incarnation - 1u) % EVT_CTX_INCARNATION_MAX + 1u;
    return raw | n << EVT_CTX_INCARNATION_SHIFT;
}

/* An id with bit 63 set (a 64-bit kernel address) is never split: incarnation 0, raw itself. */
uint32_t evt_ctx_incarnation(uint64_t ctx)
{
    return ctx >> 63 ? 0u : (uint32_t)(ctx >> EVT_CTX_INCARNATION_SHIFT) & EVT_CTX_INCARNATION_MAX;
}

uint64_t evt_ctx_raw(uint64_t ctx)
{
    return evt_ctx_incarnation(ctx) ? ctx & ((1ull << EVT_CTX_INCARNATION_SHIFT) - 1u) : ctx;
}
