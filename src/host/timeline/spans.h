/* Spans from the canonical kinds, shared by stats, Perfetto and the report so they all pair
 * events the same way.
 *
 * - isr_enter/isr_exit: interrupt spans, nested per CPU; an exit closes the innermost one.
 * - svc_enter/svc_exit and func_enter/func_exit: spans on a per-context stack. An exit closes the
 *   innermost open span with the same category and label; spans opened above it are closed at the
 *   same time (tail calls, lost exits: what `llvm-xray account -d` does). A svc exit whose label
 *   matches nothing closes the innermost open service span (services are matched by position
 *   when the exit record does not repeat the service's name). A func exit that matches nothing
 *   is counted as unmatched and closes nothing.
 *
 * Labels (from the meaning block, evtrace/model.h): m.label when the reader gives one (function,
 * service, the interrupt's registered name); else for func kinds "fn#<args[0]>" (the function id);
 * for ISR kinds "<name> #<m.irq>" when the interrupt id is known; else the event's name. */
#ifndef EVT_ANALYSIS_SPANS_H
#define EVT_ANALYSIS_SPANS_H

#include <stddef.h>
#include <stdint.h>
#include "evtrace/model.h"

typedef enum evt_span_cat {
    EVT_SPAN_NONE = 0, /* the event opens/closes no span */
    EVT_SPAN_ISR,
    EVT_SPAN_SVC,
    EVT_SPAN_FUNC
} evt_span_cat;

#define EVT_SPAN_MAX_DEPTH 1024 /* deeper pushes are dropped and counted */

/* Category of an event's span and whether it begins (1) or ends (0) one. */
evt_span_cat evt_span_cat_of(evt_kind k, int *is_begin);
/* The category alone, from a table (inline for the timeline's every event): bits 0-1 the
 * category, bit 2 set when the kind begins the span. */
extern const uint8_t evt_span_kind_table[EVT_KIND_COUNT_];
static inline evt_span_cat evt_span_cat_fast(evt_kind k)
{
    return (unsigned)k < EVT_KIND_COUNT_ ? (evt_span_cat)(evt_span_kind_table[k] & 3u) : EVT_SPAN_NONE;
}
/* Whether the kind begins its span (evt_span_cat_of's *is_begin), from the same table. */
static inline int evt_span_kind_begins(evt_kind k)
{
    return (unsigned)k < EVT_KIND_COUNT_ && (evt_span_kind_table[k] & 4u) != 0u;
}
/* Public name of a category: "isr", "svc", "func" ("" for none). */
const char *evt_span_cat_name(evt_span_cat c);
/* Label of an event (rules above), written into buf (NUL-terminated, truncated to len - 1);
 * returns buf. */
const char *evt_event_label(const evt_event *ev, char *buf, size_t len);
/* The same label, without a copy when it is one of the event's strings whole (shorter than len):
 * returns that string, or buf with the label built there; *n = its length. */
const char *evt_event_label_ref(const evt_event *ev, char *buf, size_t len, size_t *n);
/* The event's string its label is whole (m.label or the name, "?" without one; used whole when
 * shorter than the label buffer), or NULL when the label is built ("fn#<id>", "<name> #<irq>"). */
static inline const char *evt_event_label_whole(const evt_event *ev)
{
    if ((ev->m.has & EVT_M_LABEL) && ev->m.label) return ev->m.label;
    evt_span_cat c = evt_span_cat_fast(ev->kind);
    if (c == EVT_SPAN_FUNC && ev->nargs > 0) return NULL;
    if (c == EVT_SPAN_ISR && (ev->m.has & EVT_M_IRQ)) return NULL;
    return ev->name ? ev->name : "?";
}

/* One open span. */
typedef struct evt_span {
    uint64_t ts;     /* begin timestamp (ticks) */
    uint32_t label;  /* caller's id of the label (e.g. an evt_strtab id) */
    uint8_t cat;     /* evt_span_cat */
} evt_span;

/* A stack of open spans. Zero-initialised is empty. */
typedef struct evt_span_stack {
    evt_span *v;
    uint32_t n, cap;
} evt_span_stack;

/* Push; returns 0 (and pushes nothing) at EVT_SPAN_MAX_DEPTH or when out of memory. */
int evt_span_push(evt_span_stack *s, uint8_t cat, uint32_t label, uint64_t ts);
/* How many spans (from the top) an exit of (cat, label) closes per the rules above; 0 = none. */
uint32_t evt_span_match(const evt_span_stack *s, uint8_t cat, uint32_t label);
void evt_span_stack_free(evt_span_stack *s);

#endif
