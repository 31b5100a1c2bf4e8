/* Span categories, labels and per-context span stacks (rules in spans.h). */
#include "host/timeline/spans.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "evtrace/alloc.h"

#define SPAN_BEGIN_ 4u
const uint8_t evt_span_kind_table[EVT_KIND_COUNT_] = {
    [EVT_KIND_ISR_ENTER] = EVT_SPAN_ISR | SPAN_BEGIN_,   [EVT_KIND_ISR_EXIT] = EVT_SPAN_ISR,
    [EVT_KIND_SVC_ENTER] = EVT_SPAN_SVC | SPAN_BEGIN_,   [EVT_KIND_SVC_EXIT] = EVT_SPAN_SVC,
    [EVT_KIND_FUNC_ENTER] = EVT_SPAN_FUNC | SPAN_BEGIN_, [EVT_KIND_FUNC_EXIT] = EVT_SPAN_FUNC,
};

evt_span_cat evt_span_cat_of(evt_kind k, int *is_begin)
{
    uint8_t v = (unsigned)k < EVT_KIND_COUNT_ ? evt_span_kind_table[k] : 0;
    *is_begin = (v & SPAN_BEGIN_) != 0;
    return (evt_span_cat)(v & 3u);
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

static const char *label_whole_(const evt_event *ev) { return evt_event_label_whole(ev); }

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
