/* Span categories, labels and per-context span stacks (rules in spans.h). */
#include "host/timeline/spans.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "evtrace/alloc.h"

evt_span_cat evt_span_cat_of(evt_kind k, int *is_begin)
{
    *is_begin = 0;
    switch (k) {
    case EVT_KIND_ISR_ENTER: *is_begin = 1; return EVT_SPAN_ISR;
    case EVT_KIND_ISR_EXIT: return EVT_SPAN_ISR;
    case EVT_KIND_SVC_ENTER: *is_begin = 1; return EVT_SPAN_SVC;
    case EVT_KIND_SVC_EXIT: return EVT_SPAN_SVC;
    case EVT_KIND_FUNC_ENTER: *is_begin = 1; return EVT_SPAN_FUNC;
    case EVT_KIND_FUNC_EXIT: return EVT_SPAN_FUNC;
    default: return EVT_SPAN_NONE;
    }
}

const char *evt_span_cat_name(evt_span_cat c)
{
    switch (c) {
    case EVT_SPAN_ISR: return "isr";
    case EVT_SPAN_SVC: return "svc";
    case EVT_SPAN_FUNC: return "func";
    default: return "";
    }
}

/* Copy s (truncated to len - 1) then the decimal v when with_num: the label without printf (it is
 * on every span event's path). Returns the end of what was written. */
static char *put_str_(char *p, char *end, const char *s)
{
    while (*s && p < end) *p++ = *s++;
    return p;
}

static char *put_u64_(char *p, char *end, uint64_t v)
{
    char d[20];
    int n = 0;
    do d[n++] = (char)('0' + v % 10); while ((v /= 10) != 0);
    while (n && p < end) *p++ = d[--n];
    return p;
}

/* The string the label is whole (the meaning's label or the name), NULL when it is built. */
static const char *label_whole_(const evt_event *ev)
{
    int b;
    evt_span_cat c = evt_span_cat_of(ev->kind, &b);
    if ((ev->m.has & EVT_M_LABEL) && ev->m.label) return ev->m.label;
    if (c == EVT_SPAN_FUNC && ev->nargs > 0) return NULL;
    if (c == EVT_SPAN_ISR && (ev->m.has & EVT_M_IRQ)) return NULL;
    return ev->name ? ev->name : "?";
}

const char *evt_event_label(const evt_event *ev, char *buf, size_t len)
{
    const char *nm = ev->name ? ev->name : "?";
    if (!len) return buf;
    char *p = buf, *end = buf + len - 1;
    const char *whole = label_whole_(ev);
    if (whole) p = put_str_(p, end, whole);
    else if (ev->kind == EVT_KIND_FUNC_ENTER || ev->kind == EVT_KIND_FUNC_EXIT)
        p = put_u64_(put_str_(p, end, "fn#"), end, ev->args[0]);
    else p = put_u64_(put_str_(put_str_(p, end, nm), end, " #"), end, ev->m.irq);
    *p = '\0';
    return buf;
}

const char *evt_event_label_ref(const evt_event *ev, char *buf, size_t len, size_t *n)
{
    const char *whole = label_whole_(ev);
    if (whole && len) {
        size_t k = strlen(whole);
        if (k < len) { *n = k; return whole; }
    }
    evt_event_label(ev, buf, len);
    *n = len ? strlen(buf) : 0;
    return buf;
}

int evt_span_push(evt_span_stack *s, uint8_t cat, uint32_t label, uint64_t ts)
{
    if (s->n >= EVT_SPAN_MAX_DEPTH) return 0;
    if (s->n == s->cap) {
        uint32_t nc = s->cap ? s->cap * 2 : 8;
        evt_span *nv = evt_realloc(s->v, nc * sizeof *nv);
        if (!nv) return 0;
        s->v = nv;
        s->cap = nc;
    }
    s->v[s->n].ts = ts;
    s->v[s->n].label = label;
    s->v[s->n].cat = cat;
    s->n++;
    return 1;
}

uint32_t evt_span_match(const evt_span_stack *s, uint8_t cat, uint32_t label)
{
    for (uint32_t i = s->n; i-- > 0;)
        if (s->v[i].cat == cat && s->v[i].label == label) return s->n - i;
    if (cat == EVT_SPAN_SVC) {
        for (uint32_t i = s->n; i-- > 0;)
            if (s->v[i].cat == EVT_SPAN_SVC) return s->n - i;
    }
    return 0;
}

void evt_span_stack_free(evt_span_stack *s)
{
    evt_free(s->v);
    memset(s, 0, sizeof *s);
}
