/* The canonical event model: every reader produces evt_event, every exporter and analysis consumes it. */
#ifndef EVTRACE_MODEL_H
#define EVTRACE_MODEL_H

#include <stddef.h>
#include <stdint.h>

/* Normalised event kinds. The string is the public name used in JSON ("kind"). */
#define EVT_KIND_TABLE(X)                                                                     \
    X(EVT_KIND_OTHER,       "other")       /* format event with no normalised meaning */      \
    X(EVT_KIND_THREAD_RUN,  "thread_run")  /* target thread starts running / resumes */       \
    X(EVT_KIND_THREAD_STOP, "thread_stop") /* target thread stops running / suspends */       \
    X(EVT_KIND_ISR_ENTER,   "isr_enter")                                                      \
    X(EVT_KIND_ISR_EXIT,    "isr_exit")                                                       \
    X(EVT_KIND_SVC_ENTER,   "svc_enter")   /* service (system) call entry */                  \
    X(EVT_KIND_SVC_EXIT,    "svc_exit")                                                       \
    X(EVT_KIND_SVC,         "svc")         /* service call recorded as one instant */         \
    X(EVT_KIND_FUNC_ENTER,  "func_enter")                                                     \
    X(EVT_KIND_FUNC_EXIT,   "func_exit")                                                      \
    X(EVT_KIND_USER,        "user")                                                           \
    X(EVT_KIND_OBJ_CREATE,  "obj_create")                                                     \
    X(EVT_KIND_OBJ_DELETE,  "obj_delete")                                                     \
    X(EVT_KIND_MARKER,      "marker")      /* trace start/stop, configuration, symbols */     \
    X(EVT_KIND_LOST,        "lost")        /* data lost: count in evt_event.count */

typedef enum evt_kind {
#define EVT_KIND_ENUM_(e, s) e,
    EVT_KIND_TABLE(EVT_KIND_ENUM_)
#undef EVT_KIND_ENUM_
    EVT_KIND_COUNT_
} evt_kind;

/* Context class of the code that recorded an event. */
typedef enum evt_ctx_class {
    EVT_CTX_NONE = 0, /* unknown or not applicable */
    EVT_CTX_THREAD,
    EVT_CTX_ISR,
    EVT_CTX_INIT
} evt_ctx_class;

#define EVT_MAX_ARGS   16
#define EVT_MAX_FIELDS 24

/* One named extra field of an event ("fields" in JSON). */
typedef struct evt_field {
    const char *key;  /* static or owned by the reader until its next call */
    int is_str;       /* 1: str is the value; 0: num is the value */
    int is_signed;    /* for numbers: print num as int64 */
    uint64_t num;
    const char *str;
} evt_field;

/* Presence flags for the optional members of evt_event. */
enum {
    EVT_HAS_CTX    = 1u << 0,
    EVT_HAS_CPU    = 1u << 1,
    EVT_HAS_PRIO   = 1u << 2,
    EVT_HAS_SEQ    = 1u << 3,
    EVT_HAS_COUNT  = 1u << 4,
    EVT_HAS_TARGET = 1u << 5,
    EVT_HAS_TNS    = 1u << 6
};

/* One decoded event. Strings and pointers are owned by the reader and stay valid until its next
 * call to next() or close(). Readers fill it through evt_event_reset() + the setters below. */
typedef struct evt_event {
    const char *fmt;          /* reader name, e.g. "threadx" */
    uint32_t id;              /* the format's own event id */
    const char *name;         /* the format's event name */
    evt_kind kind;            /* normalised kind */
    uint64_t ts;              /* unwrapped timestamp in ticks (only grows within a context stream) */
    uint64_t t_ns;            /* ts converted to ns when the clock frequency is known (EVT_HAS_TNS) */
    uint64_t offset;          /* byte offset of the record in the source */
    unsigned flags;           /* EVT_HAS_* */
    uint64_t ctx;             /* context id (thread/task/ISR/...) when EVT_HAS_CTX */
    evt_ctx_class ctx_class;  /* what ctx is */
    const char *ctx_name;     /* name of the context, NULL if unknown */
    uint32_t cpu;             /* CPU number when EVT_HAS_CPU */
    uint64_t prio;            /* raw priority word when EVT_HAS_PRIO */
    uint64_t seq;             /* format's sequence number when EVT_HAS_SEQ */
    uint64_t count;           /* lost records/bytes when EVT_HAS_COUNT (kind lost) */
    uint64_t target;          /* object the event is about (thread resumed, object created) */
    const char *target_name;  /* its name, NULL if unknown */
    uint32_t nargs;           /* number of valid args */
    uint64_t args[EVT_MAX_ARGS]; /* the format's raw argument/info fields, in order */
    uint32_t nfields;         /* number of valid fields */
    evt_field fields[EVT_MAX_FIELDS];
    const uint8_t *data;      /* optional payload (string, memory block, custom event) */
    size_t data_len;
    int data_is_text;         /* payload is text (printable) rather than bytes */
} evt_event;

/* Clear an event for reuse (no allocation). */
void evt_event_reset(evt_event *ev);
/* Append helpers; extra args/fields beyond the limits are dropped (the limits are generous). */
void evt_event_add_arg(evt_event *ev, uint64_t v);
void evt_event_add_field_u(evt_event *ev, const char *key, uint64_t v);
void evt_event_add_field_i(evt_event *ev, const char *key, int64_t v);
void evt_event_add_field_s(evt_event *ev, const char *key, const char *s);
/* Public name of a kind ("thread_run"); "other" for out-of-range values. */
const char *evt_kind_name(evt_kind k);
/* Parse a kind name; returns EVT_KIND_COUNT_ if unknown. */
evt_kind evt_kind_parse(const char *s);

#endif
