/* Reader registry, auto-detection and the pull API shared by every format reader. */
#include "evtrace/reader.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/hooks_defs.h"
#include "ctx_incarnation.h"
#include "host/kernels/kernel_profile.h"
#include "event_reset.h"
#include "safe_text.h"
#include "tick_ns.h"
#include "evtrace/json.h"
#include "utf8.h"

#define EVT_READER(n) extern const evt_reader_desc evt_reader_##n;
#include "readers.def"
#undef EVT_READER

static const evt_reader_desc *const k_readers[] = {
#define EVT_READER(n) &evt_reader_##n,
#include "readers.def"
#undef EVT_READER
};

#define PROBE_HEAD 4096

/* evt_reader.next_path: what evt_reader_next does past its usual path (the bits may combine). */
enum { NEXT_RANGE_ = 1u, NEXT_RESETS_ = 2u };

size_t evt_reader_count(void) { return sizeof k_readers / sizeof k_readers[0]; }
const evt_reader_desc *evt_reader_at(size_t i) { return i < evt_reader_count() ? k_readers[i] : NULL; }

const evt_reader_desc *evt_reader_find(const char *name)
{
    for (size_t i = 0; i < evt_reader_count(); i++)
        if (strcmp(k_readers[i]->name, name) == 0) return k_readers[i];
    return NULL;
}

const evt_reader_desc *evt_reader_detect(const uint8_t *head, size_t len, uint64_t file_size)
{
    const evt_reader_desc *best = NULL;
    int best_conf = 0;
    for (size_t i = 0; i < evt_reader_count(); i++) {
        int c = k_readers[i]->probe ? k_readers[i]->probe(head, len, file_size) : 0;
        if (c > best_conf) { best_conf = c; best = k_readers[i]; }
    }
    return best;
}

const char *evt_opts_get(const evt_open_opts *o, const char *key)
{
    if (!o) return NULL;
    for (unsigned i = 0; i < o->n; i++)
        if (strcmp(o->key[i], key) == 0) return o->val[i];
    return NULL;
}

/* The most a stream is buffered in memory for a reader that needs the whole trace. */
#define EVT_STREAM_BUFFER_MAX ((uint64_t)SIZE_MAX < (4ull << 30) ? (uint64_t)SIZE_MAX / 2 : (4ull << 30))

static evt_status open_src(evt_source *src, const char *format, const evt_open_opts *opts,
                           evt_diag_fn diag, void *diag_user, evt_reader **out, char *errbuf,
                           size_t errlen)
{
    *out = NULL;
    const evt_reader_desc *d = NULL;
    if (src->is_stream) { /* a format that needs the whole trace gets the stream buffered first */
        const evt_reader_desc *sd = format ? evt_reader_find(format) : NULL;
        if (!format) {
            uint8_t head[PROBE_HEAD];
            size_t n = evt_source_read_at(src, 0, head, sizeof head);
            sd = n ? evt_reader_detect(head, n, 0) : NULL;
        }
        if ((sd || !format) && !(sd && (sd->flags & EVT_READER_STREAMS))) {
            char why[300];
            evt_status bst = evt_source_buffer_stream(src, EVT_STREAM_BUFFER_MAX, why, sizeof why);
            if (bst != EVT_OK) {
                snprintf(errbuf, errlen, "%s: %s", src->path, why);
                return bst;
            }
        }
    }
    if (!src->is_stream && src->size == 0) { /* forced or detected: an empty input holds no trace */
        snprintf(errbuf, errlen, "%s: empty file (offset 0): no trace data", src->path);
        return EVT_ERR_FORMAT;
    }
    if (format) {
        d = evt_reader_find(format);
        if (!d) {
            snprintf(errbuf, errlen, "%s: unknown format '%s'", src->path, format);
            return EVT_ERR_USAGE;
        }
    } else {
        uint8_t head[PROBE_HEAD];
        size_t n = evt_source_read_at(src, 0, head, sizeof head);
        if (n == 0) {
            snprintf(errbuf, errlen, "%s: empty file (offset 0): no trace data", src->path);
            return EVT_ERR_FORMAT;
        }
        d = evt_reader_detect(head, n, src->size);
        if (!d) {
            snprintf(errbuf, errlen,
                     "%s: unrecognised format at offset 0 (no reader's probe matched; use --format NAME)",
                     src->path);
            return EVT_ERR_FORMAT;
        }
    }
    evt_reader *r = evt_calloc(1, sizeof *r);
    if (!r) {
        snprintf(errbuf, errlen, "%s: out of memory", src->path);
        return EVT_ERR_NOMEM;
    }
    r->desc = d;
    r->src = *src;
    r->opts = opts;
    r->diag = diag;
    r->diag_user = diag_user;
    r->kernel = r->kernel_user = -1;
    r->next_path = (d->flags & EVT_READER_RESETS) ? NEXT_RESETS_ : 0;
    evt_status st = d->open(r, &r->state);
    if (st != EVT_OK) {
        if (!r->fail_msg[0]) snprintf(r->fail_msg, sizeof r->fail_msg, "%s", evt_status_message(st));
        snprintf(errbuf, errlen, "%s: %s: %s", src->path, d->name, r->fail_msg);
        if (r->state && d->close) d->close(r->state);
        evt_free(r);
        return st;
    }
    *out = r;
    return EVT_OK;
}

evt_status evt_reader_open_file(const char *path, const char *format, const evt_open_opts *opts,
                                evt_diag_fn diag, void *diag_user, evt_reader **out, char *errbuf,
                                size_t errlen)
{
    evt_source src;
    char why[300];
    evt_status st = evt_source_open_input(&src, path, NULL, why, sizeof why); /* raw, ihex or srec */
    if (st != EVT_OK) {
        *out = NULL;
        snprintf(errbuf, errlen, "%s: %s", path, why);
        return st;
    }
    st = open_src(&src, format, opts, diag, diag_user, out, errbuf, errlen);
    if (st != EVT_OK) evt_source_close(&src);
    return st;
}

evt_status evt_reader_open_mem(const void *data, size_t len, const char *format,
                               const evt_open_opts *opts, evt_diag_fn diag, void *diag_user,
                               evt_reader **out, char *errbuf, size_t errlen)
{
    evt_source src;
    evt_source_from_mem(&src, data, len);
    return open_src(&src, format, opts, diag, diag_user, out, errbuf, errlen);
}

evt_status evt_reader_open_stream(evt_source *src, const char *format, const evt_open_opts *opts,
                                  evt_diag_fn diag, void *diag_user, evt_reader **out, char *errbuf,
                                  size_t errlen)
{
    evt_status st = open_src(src, format, opts, diag, diag_user, out, errbuf, errlen);
    if (st != EVT_OK) evt_source_close(src);
    return st;
}

/* ---- text: every string an event carries is valid UTF-8 ------------------------------------------ */

/* Bytes s[0..n) needs in r->text once sanitized (0: right as it is): valid UTF-8, or in text-safe
 * mode (evt_reader_set_text_safe) terminal-safe (safe_text.h). */
static size_t text_need(const evt_reader *r, const char *s, size_t n)
{
    if (!s) return 0;
    if (r->text_safe) return evt_text_is_safe(s, n) ? 0 : evt_text_escaped_len(s, n) + 1;
    return evt_utf8_valid(s, n) ? 0 : evt_utf8_clean_len(s, n) + 1;
}

/* text_need of a NUL-terminated string, in one pass for the usual printable-ASCII one. */
static size_t text_need_z(const evt_reader *r, const char *s)
{
    if (!s) return 0;
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (u[i] >= 0x20 && u[i] < 0x7f) i++; /* printable ASCII is right in both modes */
    return u[i] ? text_need(r, s, i + strlen(s + i)) : 0;
}

static const char *text_put(evt_reader *r, size_t *used, const char *s, size_t n)
{
    char *out = r->text + *used;
    size_t k = r->text_safe ? evt_text_escape(s, n, out, evt_text_escaped_len(s, n) + 1) : evt_utf8_clean(s, n, out);
    out[k] = '\0';
    *used += k + 1;
    return out;
}

/* The event's strings, for sanitize_text: X(pointer lvalue, its EVT_TEXT_OK_* bit). */
#define EVT_EVENT_STRINGS_(ev, X) \
    X((ev)->name, EVT_TEXT_OK_NAME); X((ev)->ctx_name, EVT_TEXT_OK_CTX_NAME); \
    X((ev)->target_name, EVT_TEXT_OK_TARGET_NAME); X((ev)->m.label, EVT_TEXT_OK_LABEL); \
    X((ev)->m.next_name, EVT_TEXT_OK_NEXT_NAME); X((ev)->m.obj_name, EVT_TEXT_OK_OBJ_NAME); \
    X((ev)->m.sm_state, EVT_TEXT_OK_SM_STATE); X((ev)->m.text, EVT_TEXT_OK_TEXT)

/* 1 when nothing of the event needs sanitize_text: each of its strings is NULL or vouched for
 * (model.h EVT_TEXT_OK_*; EVT_TEXT_OK_ALL: all eight, one compare), each field not vouched for is
 * a number (its key counts only in text-safe mode), and it has no text payload. The usual case,
 * inline on every event; anything else takes sanitize_text, which decides per string. */
_Static_assert(EVT_MAX_FIELDS < 32, "fields_ok has a bit per field");
static inline int text_settled_(const evt_reader *r, const evt_event *ev)
{
    unsigned ok = ev->text_ok;
    if (ok & EVT_TEXT_OK_EVENT) return 1; /* the reader vouches for all of it */
    if ((ok & EVT_TEXT_OK_ALL) != EVT_TEXT_OK_ALL) {
#define TEXT_PENDING_(p, bit) \
    if (!(ok & (bit)) && (p)) return 0
        EVT_EVENT_STRINGS_(ev, TEXT_PENDING_);
#undef TEXT_PENDING_
    }
    uint32_t n = ev->nfields; /* <= EVT_MAX_FIELDS (< 32): the mask is n bits */
    uint32_t pend = (uint32_t)((1ull << (n & 63u)) - 1u) & ~ev->fields_ok; /* fields not vouched for */
    if (pend && r->text_safe) return 0;
    for (; pend; pend &= pend - 1u)
        if (ev->fields[__builtin_ctz(pend)].is_str) return 0;
    return !(ev->data && ev->data_is_text);
}

/* Replace the event's strings that need it by sanitized copies in r->text (right ones, the usual
 * case, cost one scan; ones the reader vouches for, model.h EVT_TEXT_OK_*, none). Sizes first, so
 * r->text grows at most once per event and earlier copies stay put. Field keys are checked in
 * text-safe mode only (they are the readers' own words). Out of line: text_settled_ sends here
 * only the events that have something to check. */
static __attribute__((noinline)) evt_status sanitize_text(evt_reader *r, evt_event *ev)
{
    size_t need = 0;
    unsigned ok = ev->text_ok;
    uint32_t fok = ev->fields_ok;
#define TEXT_NEED_(p, bit) \
    if (!(ok & (bit))) need += text_need_z(r, (p))
    EVT_EVENT_STRINGS_(ev, TEXT_NEED_);
    uint32_t all = ev->nfields >= 32 ? ~0u : (1u << ev->nfields) - 1u;
    for (uint32_t i = 0; (fok & all) != all && i < ev->nfields; i++) {
        if (fok & (1u << i)) continue;
        if (ev->fields[i].is_str) need += text_need_z(r, ev->fields[i].str);
        if (r->text_safe) need += text_need_z(r, ev->fields[i].key);
    }
#undef TEXT_NEED_
    if (ev->data && ev->data_is_text) need += text_need(r, (const char *)ev->data, ev->data_len);
    if (need == 0) return EVT_OK;
    if (need > r->text_cap) {
        char *t = evt_realloc(r->text, need);
        if (!t) return evt_reader_fail(r, EVT_ERR_NOMEM, ev->offset, "out of memory (event text)");
        r->text = t;
        r->text_cap = need;
    }
    size_t used = 0;
#define TEXT_FIX_(p, bit) \
    if (!(ok & (bit)) && text_need_z(r, (p))) (p) = text_put(r, &used, (p), strlen(p))
    EVT_EVENT_STRINGS_(ev, TEXT_FIX_);
    for (uint32_t i = 0; i < ev->nfields; i++) {
        if (fok & (1u << i)) continue;
        if (ev->fields[i].is_str) TEXT_FIX_(ev->fields[i].str, 0u);
        if (r->text_safe) TEXT_FIX_(ev->fields[i].key, 0u);
    }
#undef TEXT_FIX_
    if (ev->data && ev->data_is_text && text_need(r, (const char *)ev->data, ev->data_len)) {
        size_t at = used;
        (void)text_put(r, &used, (const char *)ev->data, ev->data_len);
        ev->data = (const uint8_t *)r->text + at;
        ev->data_len = used - at - 1;
    }
    return EVT_OK;
}

void evt_reader_set_text_safe(evt_reader *r, int on) { r->text_safe = on != 0; }

/* ---- clock: nanoseconds on every event when the rate is known ----------------------------------- */

uint64_t evt_ticks_to_ns(uint64_t ts, uint64_t hz)
{
    unsigned __int128 ns = (unsigned __int128)ts * 1000000000u / hz;
    return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

void evt_reader_set_clock_hz(evt_reader *r, uint64_t hz)
{
    r->clock_hz_user = hz;
    if (hz) r->clock_hz = hz;
}

void evt_reader_set_kernel(evt_reader *r, int kernel) { r->kernel_user = kernel; }

void evt_reader_set_prio_order(evt_reader *r, int order) { r->prio_order_user = order; }

int evt_reader_effective_kernel(const evt_reader *r)
{
    return r->kernel_user >= 0 ? r->kernel_user : r->kernel;
}

void evt_reader_caps_json(const evt_reader *r, evt_json *j)
{
    evt_json_arr_begin(j);
    for (unsigned b = 0; b < EVT_CAP_COUNT_; b++)
        if (r->caps & (1u << b)) evt_json_str(j, evt_cap_name(1u << b));
    evt_json_arr_end(j);
}

void evt_reader_caps_text(const evt_reader *r, char *buf, size_t len)
{
    size_t n = 0;
    if (!len) return;
    buf[0] = '\0';
    for (unsigned b = 0; b < EVT_CAP_COUNT_; b++) {
        if (!(r->caps & (1u << b))) continue;
        int k = snprintf(buf + n, len - n, "%s%s", n ? ", " : "", evt_cap_name(1u << b));
        if (k < 0 || (size_t)k >= len - n) break;
        n += (size_t)k;
    }
    if (!n) snprintf(buf, len, "none");
}

evt_clock_source evt_reader_clock_source(const evt_reader *r)
{
    if (r->clock_hz_user) return EVT_CLOCK_USER;
    return r->clock_hz ? EVT_CLOCK_FORMAT : EVT_CLOCK_UNKNOWN;
}

const char *evt_clock_source_name(evt_clock_source c)
{
    switch (c) {
    case EVT_CLOCK_FORMAT: return "format";
    case EVT_CLOCK_USER: return "user";
    default: return "unknown";
    }
}

/* The reader's conversion constants (tick_ns_*) for rate hz (src/host/tick_ns.h). Out of line:
 * once per trace, so that set_time_'s usual path saves no registers. */
static __attribute__((noinline)) void tick_ns_setup_(evt_reader *r, uint64_t hz)
{
    evt_tick_ns c;
    evt_tick_ns_init(&c, hz);
    r->tick_ns_hz = hz;
    r->tick_ns_recip = c.recip;
    r->tick_ns_mul = c.mul;
    r->tick_ns_mul_max = c.mul_max;
}

/* Invariant after this: EVT_HAS_TNS is set iff the clock is known (or the reader gave t_ns), and a
 * user frequency wins over the reader's conversion. Out of line (took_ tests first whether it has
 * anything to do: a user frequency, or the reader's rate and no t_ns): its
 * 128-bit arithmetic keeps registers busy that evt_reader_next's usual path does not need. */
static __attribute__((noinline)) void set_time_(evt_reader *r, evt_event *ev)
{
    uint64_t hz;
    if (r->clock_hz_user) {
        r->clock_hz = hz = r->clock_hz_user; /* a reader that learns its rate late does not undo it */
    } else if (r->clock_hz && !(ev->flags & EVT_HAS_TNS)) {
        hz = r->clock_hz;
    } else {
        return;
    }
    if (hz != r->tick_ns_hz) tick_ns_setup_(r, hz); /* the first event, or a rate learnt late */
    evt_tick_ns c = {hz, r->tick_ns_recip, r->tick_ns_mul, r->tick_ns_mul_max};
    ev->t_ns = evt_tick_ns_conv(&c, ev->ts);
    ev->flags |= EVT_HAS_TNS;
}

/* --begin/--end: where the event stands against one bound: < 0 before it, 0 at, > 0 after. An
 * EVT_RANGE_NS bound needs the event's t_ns (*no_clock set when it has none). */
static int cmp_bound_(const evt_event *ev, uint64_t index, int kind, uint64_t v, int *no_clock)
{
    uint64_t x = index;
    if (kind == EVT_RANGE_TICKS) x = ev->ts;
    else if (kind == EVT_RANGE_NS) {
        if (!(ev->flags & EVT_HAS_TNS)) { *no_clock = 1; return 0; }
        x = ev->t_ns;
    }
    return x < v ? -1 : x > v;
}

void evt_reader_set_range(evt_reader *r, const evt_range *range)
{
    if (range) r->range = *range;
    else memset(&r->range, 0, sizeof r->range);
    r->next_path = (r->next_path & ~(uint64_t)NEXT_RANGE_) | (r->range.has_begin || r->range.has_end ? NEXT_RANGE_ : 0u);
}

/* Is the event inside the range? 0: skip it; 1: keep it; -1: past an index end (nothing later
 * can be inside); -2: a time bound without a clock (r failed). */
static int in_range_(evt_reader *r, const evt_event *ev, uint64_t index)
{
    const evt_range *g = &r->range;
    int no_clock = 0;
    if (g->has_end && g->end_kind == EVT_RANGE_INDEX && index > g->end) return -1;
    int keep = (!g->has_begin || cmp_bound_(ev, index, g->begin_kind, g->begin, &no_clock) >= 0) &&
               (!g->has_end || cmp_bound_(ev, index, g->end_kind, g->end, &no_clock) <= 0);
    if (no_clock) {
        evt_reader_fail(r, EVT_ERR_USAGE, ev->offset,
                        "--begin/--end in seconds: the trace's clock rate is unknown (give --clock-hz HZ, or bounds "
                        "in ticks or as #INDEX)");
        return -2;
    }
    return keep;
}

/* ---- contexts: a reused thread id's later incarnations are contexts of their own --------------- */

/* Out of line: a create or delete, or any event once an id was reused (ctx_incarnation.h). */
static __attribute__((noinline)) evt_status incarn_slow_(evt_reader *r, evt_event *ev)
{
    int any_kind = evt_reader_profile(r)->ids_are_addresses;
    if (!r->incarn) {
        if (!any_kind && (!(ev->m.has & EVT_M_OBJ_TYPE) || ev->m.obj_type != EVT_HOOK_OBJ_THREAD))
            return EVT_OK; /* no thread */
        r->incarn = evt_calloc(1, sizeof *r->incarn);
        if (!r->incarn) return evt_reader_fail(r, EVT_ERR_NOMEM, ev->offset, "out of memory (contexts)");
    }
    r->incarn->any_kind = any_kind;
    evt_ctx_incarn_event(r->incarn, ev);
    return EVT_OK;
}

/* Every event the format gives, in trace order, trimmed ones too: a create before --begin counts. */
static inline evt_status incarn_(evt_reader *r, evt_event *ev, evt_status st)
{
    if (st != EVT_OK) return st;
    if ((unsigned)ev->kind - (unsigned)EVT_KIND_OBJ_CREATE <= 1u || (r->incarn && r->incarn->later))
        return incarn_slow_(r, ev);
    return EVT_OK;
}

/* The next event inside --begin/--end (evt_reader_set_range); EVT_END past an index end. */
static evt_status next_in_range_(evt_reader *r, evt_event *ev)
{
    for (;;) {
        evt_event_reset(ev);
        ev->fmt = r->desc->name;
        evt_status st = incarn_(r, ev, r->desc->next(r->state, ev));
        if (st != EVT_OK) return st;
        set_time_(r, ev);
        int k = in_range_(r, ev, r->range_index++);
        if (k == 1) return EVT_OK;
        if (k == -1) return EVT_END; /* past --end #N: the trace ends here */
        if (k == -2) return EVT_ERR_USAGE;
    }
}

/* Out of line: the end of the trace or a failure, once per reader. */
static __attribute__((noinline)) evt_status note_failure_(evt_reader *r, evt_status st)
{
    if (st != EVT_END && !r->fail_msg[0]) snprintf(r->fail_msg, sizeof r->fail_msg, "%s", evt_status_message(st));
    return st;
}

/* set_time_'s usual case for a rate that divides 1e9 (1/10/100 MHz timers, 10 MHz QPC: one
 * multiplication, tick_ns.h), inline: the reader's own rate, its constants already made
 * (tick_ns_setup_), and no t_ns from the reader. Returns 0 (nothing done) for anything else, which
 * set_time_ handles (other rates' reciprocal arithmetic inline here costs more than the call). */
static inline int fast_time_(const evt_reader *r, evt_event *ev)
{
    if (r->clock_hz_user || !r->tick_ns_mul || r->clock_hz != r->tick_ns_hz || (ev->flags & EVT_HAS_TNS)) return 0;
    ev->t_ns = evt_tick_ns_mul_conv(r->tick_ns_mul, r->tick_ns_mul_max, ev->ts);
    ev->flags |= EVT_HAS_TNS;
    return 1;
}

/* took_'s rare kinds (a create or delete, a marker, a loss) and, with incarn, every event of a
 * trace where a thread id was reused: the incarnations (when incarn: the ranged path noted them
 * already), then the loss count. Out of line. */
_Static_assert(EVT_KIND_OBJ_DELETE == EVT_KIND_OBJ_CREATE + 1 && EVT_KIND_MARKER == EVT_KIND_OBJ_CREATE + 2 &&
                   EVT_KIND_LOST == EVT_KIND_OBJ_CREATE + 3,
               "took_ tests the rare kinds as one range");
static __attribute__((noinline)) evt_status took_rare_(evt_reader *r, evt_event *ev, int incarn)
{
    if (incarn) {
        evt_status st = incarn_(r, ev, EVT_OK);
        if (st != EVT_OK) return st;
    }
    if (ev->kind == EVT_KIND_LOST && (ev->flags & EVT_HAS_COUNT)) r->lost += ev->count;
    return EVT_OK;
}

/* The end of evt_reader_next for the reader's status st: its strings checked, the incarnations
 * of its context ids (incarn: 0 when next_in_range_ did it), then the event counted with its
 * time, or the failure noted. The usual event is none of the rare kinds in a trace without a
 * reused thread id: one range test and one load. */
static inline evt_status took_(evt_reader *r, evt_event *ev, evt_status st, int incarn)
{
    if (st == EVT_OK && !text_settled_(r, ev)) st = sanitize_text(r, ev);
    if (st != EVT_OK) return note_failure_(r, st);
    if (__builtin_expect((unsigned)ev->kind - (unsigned)EVT_KIND_OBJ_CREATE <= 3u || (incarn && r->incarn && r->incarn->later), 0)) {
        st = took_rare_(r, ev, incarn);
        if (st != EVT_OK) return note_failure_(r, st);
    }
    r->events++;
    /* the time, tested in the order that settles each usual case soonest: a user frequency wins
     * (set_time_), a reader that gave t_ns is done, else fast_time_ or set_time_ convert */
    if (r->clock_hz_user) set_time_(r, ev);
    else if (!(ev->flags & EVT_HAS_TNS) && !fast_time_(r, ev) && r->clock_hz) set_time_(r, ev);
    return EVT_OK;
}

/* evt_reader_next with --begin/--end (evt_reader_set_range); out of line, off the usual path. */
static __attribute__((noinline)) evt_status next_ranged_(evt_reader *r, evt_event *ev)
{
    return took_(r, ev, next_in_range_(r, ev), 0);
}

EVT_EVENT_RESET_FN evt_status evt_reader_next(evt_reader *r, evt_event *ev)
{
    uint64_t path = r->next_path;
    if (!path) evt_event_reset_inline(ev); /* the usual case */
    else if (path & NEXT_RANGE_) return next_ranged_(r, ev);
    /* else a reader that resets its own events (EVT_READER_RESETS): one test more than the usual
     * case, no call */
    ev->fmt = r->desc->name;
    return took_(r, ev, r->desc->next(r->state, ev), 1);
}

void evt_reader_close(evt_reader *r)
{
    if (!r) return;
    if (r->desc->close) r->desc->close(r->state);
    if (r->incarn) evt_ctx_incarn_free(r->incarn);
    evt_free(r->incarn);
    evt_source_close(&r->src);
    evt_free(r->text);
    evt_free(r);
}

void evt_reader_error(evt_reader *r, uint64_t offset, const char *fmt, ...)
{
    r->errors++;
    if (!r->diag) return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    r->diag(r->diag_user, offset, msg);
}

evt_status evt_reader_fail(evt_reader *r, evt_status st, uint64_t offset, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    r->fail_offset = offset;
    snprintf(r->fail_msg, sizeof r->fail_msg, "offset %llu (0x%llx): %s", (unsigned long long)offset,
             (unsigned long long)offset, msg);
    return st;
}
