/* The streaming reader API: a registry of format readers with probes, auto-detection, and a pull
 * interface that yields one evt_event at a time in constant memory. */
#ifndef EVTRACE_READER_H
#define EVTRACE_READER_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "evtrace/model.h"
#include "evtrace/source.h"
#include "evtrace/status.h"

struct evt_json;
typedef struct evt_reader evt_reader;

/* Problems found in the data are reported here as they are met (offset + message); the reader
 * goes on where the format allows it (a stream resyncs) and counts them. */
typedef void (*evt_diag_fn)(void *user, uint64_t offset, const char *msg);

/* Reader-specific option (e.g. "rkh-config" → --rkh-config FILE on the command line). */
typedef struct evt_reader_option {
    const char *name;  /* option name without dashes */
    const char *arg;   /* argument placeholder for --help, e.g. "FILE" */
    const char *help;  /* one line */
} evt_reader_option;

/* Options given to open(): key/value pairs of the reader's declared options. */
#define EVT_MAX_OPTS 8
typedef struct evt_open_opts {
    unsigned n;
    const char *key[EVT_MAX_OPTS];
    const char *val[EVT_MAX_OPTS];
} evt_open_opts;
/* Value of option key, or NULL. */
const char *evt_opts_get(const evt_open_opts *o, const char *key);

/* One format reader. `state` is the reader's own per-open state, allocated in open(). */
typedef struct evt_reader_desc {
    const char *name;         /* "threadx", also the JSON "fmt" and "format" value */
    const char *description;  /* one line for --help */
    /* Confidence 0..100 that `head` (the first len bytes of a file of file_size bytes) is this format. */
    int (*probe)(const uint8_t *head, size_t len, uint64_t file_size);
    /* Parse what must be parsed before the first event. Report fatal problems through
     * evt_reader_fail() and return an error status. */
    evt_status (*open)(evt_reader *r, void **state);
    /* Fill *ev with the next event: EVT_OK, EVT_END, or an error status (fatal, after evt_reader_fail). */
    evt_status (*next)(void *state, evt_event *ev);
    /* Write the format-specific keys of `info --json` into the open JSON object (may be NULL). Called
     * after every event has been read. */
    void (*info)(void *state, struct evt_json *j);
    /* Print a human-readable summary of the same (may be NULL). */
    void (*info_text)(void *state, FILE *out);
    void (*close)(void *state);
    const evt_reader_option *options; /* NULL-terminated by name == NULL; may be NULL */
    unsigned flags;           /* EVT_READER_* */
} evt_reader_desc;

/* evt_reader_desc.flags. */
enum {
    /* Decodes a stream as it arrives (reads in order, needs no size). A reader without it gets a
     * stream (pipe, socket, serial line) buffered whole first (an unlinked temporary file; memory
     * when none can be made), then read as a file. */
    EVT_READER_STREAMS = 1u << 0,
    /* Not a user format (a generator for tests and benchmarks): not listed by --help, never
     * auto-detected from a stream, still usable with --format NAME. */
    EVT_READER_HIDDEN = 1u << 1,
    /* Resets its events itself: evt_reader_next does not call evt_event_reset before next(), and
     * next() must leave every member of *ev it does not write for this event as evt_event_reset
     * leaves it, whatever *ev held before the call (the caller may have changed it; ev->fmt is
     * set by the framework before next() and must be kept). For a reader whose usual record writes
     * most members anyway: it zeroes only the others (src/host/event_reset.h has the helpers). */
    EVT_READER_RESETS = 1u << 2
};

/* A trim of the events a reader returns (--begin/--end): each bound an event index (0 = the
 * first event the format gives), a raw timestamp in ticks, or a time in ns (needs the clock). */
enum { EVT_RANGE_INDEX = 0, EVT_RANGE_TICKS = 1, EVT_RANGE_NS = 2 };
typedef struct evt_range {
    int has_begin, has_end;
    int begin_kind, end_kind; /* EVT_RANGE_* */
    uint64_t begin, end;      /* inclusive */
} evt_range;

/* An open reader: descriptor, source, state and the counters every reader shares. */
struct evt_reader {
    const evt_reader_desc *desc;
    evt_source src;
    void *state;
    const evt_open_opts *opts;
    evt_diag_fn diag;         /* may be NULL */
    void *diag_user;
    uint64_t errors;          /* problems reported through evt_reader_error() */
    uint64_t events;          /* events returned so far */
    uint64_t lost;            /* sum of counts of lost events returned so far */
    uint64_t clock_hz;        /* tick frequency if known, else 0 (set by the reader, or the user's) */
    uint64_t clock_hz_user;   /* --clock-hz: overrides the reader's (0: none); evt_reader_set_clock_hz */
    /* What the trace holds and whose kernel it is (docs/model.md, docs/kernels.md). A reader sets
     * caps (EVT_CAP_*) at open and may add bits as it learns (RKH: the hooks' records); caps_known
     * 0 means the reader declares nothing and views assume every kind. kernel is the trace's kernel
     * profile (EVT_HOOK_KERNEL_*, -1: none named; the reader decodes with the generic profile). */
    unsigned caps;
    int caps_known;
    unsigned counts;          /* EVT_COUNTS_*: figures given whenever they happen (model.h) */
    int kernel;
    int kernel_user;          /* --kernel: the profile to decode with (-1: the trace's) */
    int prio_order_user;      /* --priority-order: 0 the profile's, 1 lower wins, 2 higher wins */
    char fail_msg[256];       /* message of the fatal error, with offset */
    uint64_t fail_offset;
    char *text;               /* sanitized copies of the current event's non-UTF-8 strings */
    size_t text_cap;
    int text_safe;            /* evt_reader_set_text_safe: strings escaped for a terminal */
    evt_range range;          /* evt_reader_set_range */
    uint64_t range_index;     /* events the format gave so far, trimmed ones included */
    uint64_t tick_ns_hz;      /* private: the rate tick_ns_recip is for (src/host/tick_ns.h) */
    uint64_t tick_ns_recip;
    /* private: 0 for evt_reader_next's usual path (a range-less reader whose events the framework
     * resets), else which other: set by open (EVT_READER_RESETS) and evt_reader_set_range. */
    uint64_t next_path;
    uint64_t tick_ns_mul;     /* private: tick_ns_hz's evt_tick_ns mul and mul_max (src/host/tick_ns.h) */
    uint64_t tick_ns_mul_max;
    /* Names the trace says it could not record (TXTB: registrations dropped by a full registry),
     * set by the reader at open; 0: none or not known. info and check report it. */
    uint64_t names_lost;
    /* private: the incarnations of reused thread ids (src/host/ctx_incarnation.h), NULL until the
     * first thread create or delete */
    struct evt_ctx_incarn *incarn;
};

/* Where a reader's clock frequency comes from ("clock_source" in JSON). */
typedef enum evt_clock_source {
    EVT_CLOCK_UNKNOWN = 0, /* "unknown": timestamps are ticks of an unknown rate */
    EVT_CLOCK_FORMAT,      /* "format": the trace carries it (XRay header, ETW timer frequency, ...) */
    EVT_CLOCK_USER         /* "user": given with --clock-hz, overriding the trace's */
} evt_clock_source;

/* Registry. */
size_t evt_reader_count(void);
const evt_reader_desc *evt_reader_at(size_t i);
const evt_reader_desc *evt_reader_find(const char *name);
/* Best reader for this head, or NULL when no probe claims it (confidence > 0). */
const evt_reader_desc *evt_reader_detect(const uint8_t *head, size_t len, uint64_t file_size);

/* Open path with the named reader (NULL = auto-detect). On failure returns an error status, and
 * *out is NULL; errbuf (if given) receives a message naming the file and offset. */
evt_status evt_reader_open_file(const char *path, const char *format, const evt_open_opts *opts,
                                evt_diag_fn diag, void *diag_user, evt_reader **out, char *errbuf,
                                size_t errlen);
/* Same over a memory block (must outlive the reader). */
evt_status evt_reader_open_mem(const void *data, size_t len, const char *format,
                               const evt_open_opts *opts, evt_diag_fn diag, void *diag_user,
                               evt_reader **out, char *errbuf, size_t errlen);
/* Same over a stream source already opened with evt_source_open_stream() (taken over: closed with
 * the reader, or on failure). */
evt_status evt_reader_open_stream(evt_source *src, const char *format, const evt_open_opts *opts,
                                  evt_diag_fn diag, void *diag_user, evt_reader **out, char *errbuf,
                                  size_t errlen);
/* Pull the next event; EVT_OK, EVT_END, or a fatal error (message in r->fail_msg). Every string of
 * the event (name, ctx_name, target_name, string fields, text payload) is valid UTF-8: a reader's
 * bytes that are not are replaced, each invalid sequence by U+FFFD, so every output shows the same
 * text. */
evt_status evt_reader_next(evt_reader *r, evt_event *ev);
/* Text-safe mode for human-readable output (on = 1): every string of later events is also
 * terminal-safe -- control bytes shown as \x1b, \n, \t, invalid UTF-8 bytes as \xHH, C1 controls
 * and bidirectional overrides as \uHHHH -- so no trace can move a terminal's cursor, retitle it
 * or forge output lines. Off (the default) for JSON and the exporters, which escape exactly. */
void evt_reader_set_text_safe(evt_reader *r, int on);
/* Return only the events inside range (inclusive bounds; NULL: all). Events outside are skipped
 * and not counted (r->events, r->lost count what is returned); past an index end the reader ends.
 * A bound in ns on a trace without a known clock fails the read (EVT_ERR_USAGE, message in
 * r->fail_msg). Call it right after open. */
void evt_reader_set_range(evt_reader *r, const evt_range *range);
void evt_reader_close(evt_reader *r);

/* Clock model. Every event evt_reader_next returns carries t_ns (EVT_HAS_TNS) whenever the clock
 * is known: the reader's own t_ns if it set one, else ts * 1e9 / clock_hz (128-bit, floored,
 * saturating). A user frequency (hz > 0) replaces the reader's for every later event, its t_ns
 * included; call it right after open. hz = 0 removes a user frequency. */
void evt_reader_set_clock_hz(evt_reader *r, uint64_t hz);
evt_clock_source evt_reader_clock_source(const evt_reader *r);
/* --kernel: decode with profile `kernel` (EVT_HOOK_KERNEL_*; -1: the trace's own). Call right
 * after open, before the first evt_reader_next. */
void evt_reader_set_kernel(evt_reader *r, int kernel);
/* --priority-order: 0 the profile's, 1 lower number wins, 2 higher number wins. */
void evt_reader_set_prio_order(evt_reader *r, int order);
/* The profile the reader decodes with: the user's, else the trace's, else -1 (generic). */
int evt_reader_effective_kernel(const evt_reader *r);
/* The trace's capabilities as a JSON array of names ("scheduling", ...) / as "a, b" text ("none"). */
void evt_reader_caps_json(const evt_reader *r, struct evt_json *j);
void evt_reader_caps_text(const evt_reader *r, char *buf, size_t len);
/* "format", "user" or "unknown". */
const char *evt_clock_source_name(evt_clock_source c);
/* ts ticks at hz in ns, floored; UINT64_MAX when it does not fit (hz must not be 0). */
uint64_t evt_ticks_to_ns(uint64_t ts, uint64_t hz);

/* For readers: report a recoverable problem at an offset (counted in r->errors). */
void evt_reader_error(evt_reader *r, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* For readers: record a fatal problem (message kept in r->fail_msg); returns st for chaining. */
evt_status evt_reader_fail(evt_reader *r, evt_status st, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
