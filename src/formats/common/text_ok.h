/* Readers vouching for their strings (model.h EVT_TEXT_OK_*) and appending fields without a call
 * per field: inline setters for the hot path. A reader vouches for a string only when it is its
 * own static text or was checked once with evt_text_ok() when stored in a table that keeps it
 * unchanged until the reader closes. Host side. */
#ifndef EVT_FORMATS_TEXT_OK_H
#define EVT_FORMATS_TEXT_OK_H

#include <string.h>
#include "evtrace/model.h"
#include "host/safe_text.h"

/* 1 when the NUL-terminated s may be vouched for (what evt_text_is_safe accepts). */
static inline int evt_text_ok(const char *s)
{
    return s && evt_text_is_safe(s, strlen(s));
}

/* Set bit in ev->text_ok when the event's string have is still the vouched-for ok (call after
 * everything that may replace it, so a replaced string is checked as usual). */
static inline void evt_vouch(evt_event *ev, unsigned bit, const char *have, const char *ok)
{
    if (have && have == ok) ev->text_ok |= bit;
}

/* Set the EVT_TEXT_OK_* bit of each of the event's strings that is one of v[0..n) (the strings a
 * reader vouched for while it decoded the event; a replaced one is not among them). */
static inline void evt_vouch_list(evt_event *ev, const char *const *v, unsigned n)
{
#define EVT_VOUCH_ONE_(p, bit)                                         \
    if (p)                                                             \
        for (unsigned i = 0; i < n; i++)                               \
            if ((p) == v[i]) { ev->text_ok |= (bit); break; }
    EVT_VOUCH_ONE_(ev->name, EVT_TEXT_OK_NAME)
    EVT_VOUCH_ONE_(ev->ctx_name, EVT_TEXT_OK_CTX_NAME)
    EVT_VOUCH_ONE_(ev->target_name, EVT_TEXT_OK_TARGET_NAME)
    EVT_VOUCH_ONE_(ev->m.label, EVT_TEXT_OK_LABEL)
    EVT_VOUCH_ONE_(ev->m.next_name, EVT_TEXT_OK_NEXT_NAME)
    EVT_VOUCH_ONE_(ev->m.obj_name, EVT_TEXT_OK_OBJ_NAME)
    EVT_VOUCH_ONE_(ev->m.sm_state, EVT_TEXT_OK_SM_STATE)
    EVT_VOUCH_ONE_(ev->m.text, EVT_TEXT_OK_TEXT)
#undef EVT_VOUCH_ONE_
}

/* Append a field whose key (and string value) are vouched for; beyond EVT_MAX_FIELDS dropped as
 * evt_event_add_field_* does. */
static inline evt_field *evt_put_field_(evt_event *ev, const char *key)
{
    if (ev->nfields >= EVT_MAX_FIELDS) return NULL;
    uint32_t i = ev->nfields++;
    evt_field *f = &ev->fields[i];
    ev->fields_ok |= 1u << i;
    f->key = key;
    f->is_str = 0;
    f->is_signed = 0;
    f->num = 0;
    f->str = NULL;
    return f;
}
static inline void evt_put_u(evt_event *ev, const char *key, uint64_t v)
{
    evt_field *f = evt_put_field_(ev, key);
    if (f) f->num = v;
}
static inline void evt_put_i(evt_event *ev, const char *key, int64_t v)
{
    evt_field *f = evt_put_field_(ev, key);
    if (f) { f->num = (uint64_t)v; f->is_signed = 1; }
}
static inline void evt_put_s(evt_event *ev, const char *key, const char *s)
{
    evt_field *f = evt_put_field_(ev, key);
    if (f) { f->is_str = 1; f->str = s; }
}
/* n fields appended at once, their keys (and string values) vouched for as evt_put_u's are, for
 * evt_field_u / evt_field_s to fill (every one of them); NULL when they do not all fit (then
 * append them one by one with evt_put_*, which drops the excess). One bounds check for n. */
static inline evt_field *evt_put_fields(evt_event *ev, unsigned n)
{
    uint32_t i0 = ev->nfields;
    if (i0 + n > EVT_MAX_FIELDS) return NULL;
    ev->nfields = i0 + n;
    ev->fields_ok |= ((1u << n) - 1u) << i0;
    return &ev->fields[i0];
}
static inline void evt_field_u(evt_field *f, const char *key, uint64_t v)
{
    *f = (evt_field){key, 0, 0, v, NULL};
}
static inline void evt_field_s(evt_field *f, const char *key, const char *s)
{
    *f = (evt_field){key, 1, 0, 0, s};
}
/* Mark the field f of ev (from evt_put_fields) not vouched for: its string is checked as usual. */
static inline void evt_field_unvouch(evt_event *ev, const evt_field *f)
{
    ev->fields_ok &= ~(1u << (uint32_t)(f - ev->fields));
    ev->text_ok &= ~(unsigned)EVT_TEXT_OK_EVENT;
}
/* evt_meaning_add_level (model.h), inline for the hot path. */
static inline void evt_put_level(evt_meaning *m, evt_level_kind k, uint64_t v)
{
    if (m->nlevels >= EVT_M_MAX_LEVELS) return;
    m->level_kind[m->nlevels] = (uint8_t)k;
    m->level[m->nlevels++] = v;
    m->has |= EVT_M_LEVEL;
}
/* Append an argument (beyond EVT_MAX_ARGS dropped, as evt_event_add_arg does). */
static inline void evt_put_arg(evt_event *ev, uint64_t v)
{
    if (ev->nargs < EVT_MAX_ARGS) ev->args[ev->nargs++] = v;
}

#endif
