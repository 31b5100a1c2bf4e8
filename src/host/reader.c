/* Reader registry, auto-detection and the pull API shared by every format reader. */
#include "evtrace/reader.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include "evtrace/alloc.h"
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

static evt_status open_src(evt_source *src, const char *format, const evt_open_opts *opts,
                           evt_diag_fn diag, void *diag_user, evt_reader **out, char *errbuf,
                           size_t errlen)
{
    *out = NULL;
    const evt_reader_desc *d = NULL;
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

/* Bytes a string needs in r->text once sanitized (0: valid as it is). */
static size_t text_need(const char *s, size_t n) { return s && !evt_utf8_valid(s, n) ? evt_utf8_clean_len(s, n) + 1 : 0; }

/* Bytes a NUL-terminated string needs in r->text (0: valid as it is, or NULL). */
static size_t text_need_z(const char *s)
{
    size_t n;
    return s && !evt_utf8_valid_z(s, &n) ? evt_utf8_clean_len(s, n) + 1 : 0;
}

static const char *text_put(char *buf, size_t *used, const char *s, size_t n)
{
    char *out = buf + *used;
    size_t k = evt_utf8_clean(s, n, out);
    out[k] = '\0';
    *used += k + 1;
    return out;
}

/* Replace the event's non-UTF-8 strings by sanitized copies in r->text (valid ones, the usual case,
 * cost one scan). Sizes first, so r->text grows at most once per event and earlier copies stay put. */
static evt_status sanitize_text(evt_reader *r, evt_event *ev)
{
    size_t need = text_need_z(ev->name) + text_need_z(ev->ctx_name) + text_need_z(ev->target_name) +
                  text_need_z(ev->m.label) + text_need_z(ev->m.next_name) + text_need_z(ev->m.obj_name) +
                  text_need_z(ev->m.sm_state);
    for (uint32_t i = 0; i < ev->nfields; i++)
        if (ev->fields[i].is_str) need += text_need_z(ev->fields[i].str);
    if (ev->data && ev->data_is_text) need += text_need((const char *)ev->data, ev->data_len);
    if (need == 0) return EVT_OK;
    if (need > r->text_cap) {
        char *t = evt_realloc(r->text, need);
        if (!t) return evt_reader_fail(r, EVT_ERR_NOMEM, ev->offset, "out of memory (event text)");
        r->text = t;
        r->text_cap = need;
    }
    size_t used = 0;
#define TEXT_FIX_(p) \
    if ((p) && !evt_utf8_valid((p), strlen(p))) (p) = text_put(r->text, &used, (p), strlen(p))
    TEXT_FIX_(ev->name);
    TEXT_FIX_(ev->ctx_name);
    TEXT_FIX_(ev->target_name);
    TEXT_FIX_(ev->m.label);
    TEXT_FIX_(ev->m.next_name);
    TEXT_FIX_(ev->m.obj_name);
    TEXT_FIX_(ev->m.sm_state);
    for (uint32_t i = 0; i < ev->nfields; i++)
        if (ev->fields[i].is_str) TEXT_FIX_(ev->fields[i].str);
#undef TEXT_FIX_
    if (ev->data && ev->data_is_text && !evt_utf8_valid((const char *)ev->data, ev->data_len)) {
        size_t at = used;
        (void)text_put(r->text, &used, (const char *)ev->data, ev->data_len);
        ev->data = (const uint8_t *)r->text + at;
        ev->data_len = used - at - 1;
    }
    return EVT_OK;
}

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

/* Invariant after this: EVT_HAS_TNS is set iff the clock is known (or the reader gave t_ns), and a
 * user frequency wins over the reader's conversion. */
static void set_time_(evt_reader *r, evt_event *ev)
{
    if (r->clock_hz_user) {
        r->clock_hz = r->clock_hz_user; /* a reader that learns its rate late does not undo it */
        ev->t_ns = evt_ticks_to_ns(ev->ts, r->clock_hz_user);
        ev->flags |= EVT_HAS_TNS;
    } else if (r->clock_hz && !(ev->flags & EVT_HAS_TNS)) {
        ev->t_ns = evt_ticks_to_ns(ev->ts, r->clock_hz);
        ev->flags |= EVT_HAS_TNS;
    }
}

evt_status evt_reader_next(evt_reader *r, evt_event *ev)
{
    evt_event_reset(ev);
    ev->fmt = r->desc->name;
    ev->nargs = 0;
    evt_status st = r->desc->next(r->state, ev);
    if (st == EVT_OK) st = sanitize_text(r, ev);
    if (st == EVT_OK) {
        set_time_(r, ev);
        r->events++;
        if (ev->kind == EVT_KIND_LOST && (ev->flags & EVT_HAS_COUNT)) r->lost += ev->count;
    } else if (st != EVT_END && !r->fail_msg[0]) {
        snprintf(r->fail_msg, sizeof r->fail_msg, "%s", evt_status_message(st));
    }
    return st;
}

void evt_reader_close(evt_reader *r)
{
    if (!r) return;
    if (r->desc->close) r->desc->close(r->state);
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
