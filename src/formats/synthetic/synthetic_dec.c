/* The "synthetic" reader: a deterministic trace of any size generated from a tiny text spec, for
 * scale tests and benchmarks of the exporters (no big file needed). The spec file:
 *
 *     evtrace-synthetic 1
 *     events 50000000      number of events (required)
 *     threads 8            contexts "task_0".. (default 4, at most 1024)
 *     hz 1000000           clock frequency (default 0: unknown)
 *     lost_every 0         a lost event (count 5, no context) every N events (0: never)
 *     weird 0              1: names and texts with quotes, backslashes, "</script>", control and
 *                          non-UTF-8 bytes (escaping tests of every exporter)
 *
 * The events repeat a 10-event slice per task: thread_run, svc_enter "sem_take", isr_enter /
 * isr_exit in the ISR context (field irq), func_enter / func_exit (field function "compute"),
 * a user event (field value, text payload every 1000th), svc_exit, thread_stop; every 100th slice
 * also creates or deletes a semaphore object. Timestamps grow by 1..64 ticks (an LCG).
 *
 * A generator: its work grows with `events`, not with the spec's size, so `events` is capped at
 * SYN_MAX_EVENTS (1e9; past it the spec is refused with the limit and the line's offset). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/reader.h"

#define SYN_MAGIC "evtrace-synthetic"
#define SYN_MAX_THREADS 1024
#define SYN_MAX_EVENTS 1000000000ull
#define ISR_CTX 0xFFFFFFFFu

typedef struct syn_state {
    evt_reader *r;
    uint64_t total;          /* events to produce */
    uint64_t done;           /* produced so far */
    uint32_t threads;
    uint64_t lost_every;
    uint64_t ts;
    uint64_t rng;
    uint64_t slice;          /* slice number */
    uint32_t step;           /* 0..9 within the slice */
    int pending_obj;         /* an object event is due in this slice */
    int weird;               /* hostile names and texts */
    char names[SYN_MAX_THREADS][48]; /* task names */
    char objname[32];
} syn_state;

static int probe(const uint8_t *head, size_t len, uint64_t file_size)
{
    (void)file_size;
    size_t m = strlen(SYN_MAGIC);
    return (len >= m && memcmp(head, SYN_MAGIC, m) == 0) ? 100 : 0;
}

static evt_status open_(evt_reader *r, void **state)
{
    char spec[1024];
    size_t n = evt_source_read_at(&r->src, 0, spec, sizeof spec - 1);
    spec[n] = '\0';
    if (n < strlen(SYN_MAGIC) || memcmp(spec, SYN_MAGIC, strlen(SYN_MAGIC)) != 0)
        return evt_reader_fail(r, EVT_ERR_FORMAT, 0, "not a synthetic spec (no '%s' header)", SYN_MAGIC);
    syn_state *s = evt_calloc(1, sizeof *s);
    if (!s) return evt_reader_fail(r, EVT_ERR_NOMEM, 0, "out of memory");
    s->r = r;
    r->caps = EVT_CAP_SCHED | EVT_CAP_ISR | EVT_CAP_SERVICES | EVT_CAP_OBJECTS | EVT_CAP_USER | EVT_CAP_FUNCS;
    r->caps_known = 1;
    s->threads = 4;
    s->rng = 0x2545F4914F6CDD1Dull;
    int have_events = 0;
    for (char *line = strtok(spec, "\n"); line; line = strtok(NULL, "\n")) {
        char key[32];
        unsigned long long v;
        if (sscanf(line, "%31s %llu", key, &v) != 2) continue;
        if (strcmp(key, "events") == 0) {
            if (v > SYN_MAX_EVENTS) {
                evt_free(s);
                return evt_reader_fail(r, EVT_ERR_UNSUPPORTED, (uint64_t)(line - spec),
                                       "synthetic spec asks for %llu events: the limit is %llu", v, SYN_MAX_EVENTS);
            }
            s->total = v;
            have_events = 1;
        }
        else if (strcmp(key, "threads") == 0) s->threads = (uint32_t)(v < 1 ? 1 : v > SYN_MAX_THREADS ? SYN_MAX_THREADS : v);
        else if (strcmp(key, "hz") == 0) r->clock_hz = v;
        else if (strcmp(key, "lost_every") == 0) s->lost_every = v;
        else if (strcmp(key, "weird") == 0) s->weird = v != 0;
    }
    if (!have_events) {
        evt_free(s);
        return evt_reader_fail(r, EVT_ERR_FORMAT, 0, "synthetic spec without an 'events N' line");
    }
    for (uint32_t i = 0; i < s->threads; i++)
        snprintf(s->names[i], sizeof s->names[i], s->weird ? "t%u \"q\" \\ </script> \xc3\xa9\x01\xff&<b>" : "task_%u", i);
    s->ts = 1000;
    *state = s;
    return EVT_OK;
}

static void ctx_(syn_state *s, evt_event *ev, uint32_t t)
{
    ev->flags |= EVT_HAS_CTX;
    ev->ctx = 0x1000 + t;
    ev->ctx_class = EVT_CTX_THREAD;
    ev->ctx_name = s->names[t];
}

/* Without `weird`, every string of an event is this reader's own ASCII text (the literals above,
 * "task_<n>", "sem_<n>"), and so are its field keys and string values: vouched for (model.h
 * EVT_TEXT_OK_*, fields_ok), so the reader framework does not check them again. `weird` events
 * are checked and escaped as any reader's. */
static void vouch_(const syn_state *s, evt_event *ev)
{
    if (s->weird) return;
    ev->text_ok = EVT_TEXT_OK_ALL;
    ev->fields_ok = (uint32_t)((1ull << ev->nfields) - 1u);
}

static evt_status next(void *state, evt_event *ev)
{
    syn_state *s = state;
    if (s->done >= s->total) return EVT_END;
    s->rng = s->rng * 6364136223846793005ull + 1442695040888963407ull;
    s->ts += 1 + ((s->rng >> 33) & 63);
    ev->ts = s->ts;
    ev->offset = s->done;
    s->done++;
    if (s->lost_every && s->done % s->lost_every == 0) {
        ev->kind = EVT_KIND_LOST;
        ev->name = "LOST";
        ev->id = 0xFFFF;
        ev->flags |= EVT_HAS_COUNT;
        ev->count = 5;
        return EVT_OK;
    }
    uint32_t t = (uint32_t)(s->slice % s->threads);
    uint32_t step = s->step;
    if (++s->step == 10) { s->step = 0; s->slice++; }
    ctx_(s, ev, t);
    switch (step) {
    case 0: ev->kind = EVT_KIND_THREAD_RUN; ev->name = "THREAD_RUN"; ev->id = 1;
            ev->flags |= EVT_HAS_TARGET; ev->target = ev->ctx; ev->target_name = ev->ctx_name; break;
    case 1: ev->kind = EVT_KIND_SVC_ENTER; ev->name = "sem_take"; ev->id = 2;
            evt_event_add_arg(ev, 0x2000 + t); break;
    case 2: ev->kind = EVT_KIND_ISR_ENTER; ev->name = "ISR_ENTER"; ev->id = 3;
            ev->ctx = ISR_CTX; ev->ctx_class = EVT_CTX_ISR; ev->ctx_name = "ISR";
            evt_event_add_field_u(ev, "irq", 7); ev->m.has |= EVT_M_IRQ; ev->m.irq = 7; break;
    case 3: ev->kind = EVT_KIND_ISR_EXIT; ev->name = "ISR_EXIT"; ev->id = 4;
            ev->ctx = ISR_CTX; ev->ctx_class = EVT_CTX_ISR; ev->ctx_name = "ISR";
            evt_event_add_field_u(ev, "irq", 7); ev->m.has |= EVT_M_IRQ; ev->m.irq = 7; break;
    case 4: ev->kind = EVT_KIND_FUNC_ENTER; ev->name = "enter"; ev->id = 5;
            evt_event_add_arg(ev, 42); evt_event_add_field_s(ev, "function", "compute");
            ev->m.has |= EVT_M_LABEL; ev->m.label = "compute"; break;
    case 5: ev->kind = EVT_KIND_USER; ev->name = "USER"; ev->id = 6;
            evt_event_add_arg(ev, s->done); evt_event_add_field_i(ev, "value", -(int64_t)(s->done % 1000));
            if (s->slice % 1000 == 0) {
                ev->data = (const uint8_t *)(s->weird ? "he\"l\\lo\n\xff" : "hello");
                ev->data_len = s->weird ? 9 : 5;
                ev->data_is_text = 1;
            }
            break;
    case 6: ev->kind = EVT_KIND_FUNC_EXIT; ev->name = "exit"; ev->id = 7;
            evt_event_add_arg(ev, 42); evt_event_add_field_s(ev, "function", "compute");
            ev->m.has |= EVT_M_LABEL; ev->m.label = "compute"; break;
    case 7: ev->kind = EVT_KIND_SVC_EXIT; ev->name = "sem_take"; ev->id = 8;
            evt_event_add_arg(ev, 0); break;
    case 8:
        if (s->slice % 100 == 0) {
            int create = (s->slice / 100) % 2 == 0;
            snprintf(s->objname, sizeof s->objname, "sem_%" PRIu64, s->slice / 200);
            ev->kind = create ? EVT_KIND_OBJ_CREATE : EVT_KIND_OBJ_DELETE;
            ev->name = create ? "SEM_CREATE" : "SEM_DELETE";
            ev->id = create ? 9 : 10;
            ev->flags |= EVT_HAS_TARGET;
            ev->target = 0x100000 + s->slice / 200;
            ev->target_name = s->objname;
        } else {
            ev->kind = EVT_KIND_SVC; ev->name = "sem_give"; ev->id = 11;
            evt_event_add_arg(ev, 0x2000 + t);
        }
        break;
    default: ev->kind = EVT_KIND_THREAD_STOP; ev->name = "THREAD_STOP"; ev->id = 12;
             ev->flags |= EVT_HAS_TARGET; ev->target = ev->ctx; ev->target_name = ev->ctx_name; break;
    }
    vouch_(s, ev);
    return EVT_OK;
}

static void info_json(void *state, struct evt_json *j) { (void)state; (void)j; }

static void close_(void *state) { evt_free(state); }

const evt_reader_desc evt_reader_synthetic = {
    "synthetic", "synthetic trace generated from a small spec file (scale tests, benchmarks)",
    probe, open_, next, info_json, NULL, close_, NULL, EVT_READER_HIDDEN,
};
