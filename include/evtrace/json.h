/* Minimal streaming JSON writer (host side): commas and escaping handled here, nothing buffered. */
#ifndef EVTRACE_JSON_H
#define EVTRACE_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define EVT_JSON_MAX_DEPTH 32

typedef struct evt_json {
    FILE *out;
    int depth;
    int need_comma[EVT_JSON_MAX_DEPTH]; /* per nesting level: a value was written already */
    int after_key;                      /* the next value follows a key: no comma */
    int pretty;                         /* 1: newlines and indentation */
} evt_json;

void evt_json_init(evt_json *j, FILE *out, int pretty);
void evt_json_obj_begin(evt_json *j);
void evt_json_obj_end(evt_json *j);
void evt_json_arr_begin(evt_json *j);
void evt_json_arr_end(evt_json *j);
void evt_json_key(evt_json *j, const char *k);
void evt_json_str(evt_json *j, const char *s);           /* NULL prints null */
void evt_json_strn(evt_json *j, const char *s, size_t n); /* exactly n bytes, escaped */
void evt_json_u64(evt_json *j, uint64_t v);
void evt_json_i64(evt_json *j, int64_t v);
void evt_json_f64(evt_json *j, double v);
void evt_json_bool(evt_json *j, int v);
void evt_json_null(evt_json *j);
void evt_json_hex(evt_json *j, const uint8_t *p, size_t n); /* "0a1b..." */
/* key + value shorthands */
void evt_json_kstr(evt_json *j, const char *k, const char *s);
void evt_json_ku64(evt_json *j, const char *k, uint64_t v);
void evt_json_ki64(evt_json *j, const char *k, int64_t v);
void evt_json_kbool(evt_json *j, const char *k, int v);
/* Write one event as the JSON object of the stable contract (DESIGN.md §5), no newline. */
struct evt_event;
void evt_json_event(evt_json *j, const struct evt_event *ev);
/* The typed meaning block as a JSON object ("meaning" of an event in dump --json): only the
 * members its presence bits mark (docs/model.md). */
struct evt_meaning;
void evt_json_meaning(evt_json *j, const struct evt_meaning *m);

#endif
