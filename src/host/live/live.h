/* `evtrace live`: a live session. Three threads besides the caller's:
 *   tee      reads the source (any live input) and appends every byte to the trace file (OUT.part,
 *            renamed to OUT when the session ends): the file never loses a byte;
 *   builder  every refresh, decodes a window of the file (its first bytes, which hold the stream's
 *            configuration and names, then the newest view_bytes) through the report
 *            (host/report/report.h) into a complete report page: the view thins, the file does not;
 *   http     libmicrohttpd serves the newest page (with the live script, live_page.c) and tells
 *            the page about each new one over server-sent events.
 * Memory is bounded by view_bytes, the page built from it and a fixed copy buffer, not by the
 * length of the session. */
#ifndef EVT_LIVE_H
#define EVT_LIVE_H

#include <stddef.h>
#include <stdint.h>
#include "evtrace/reader.h"
#include "evtrace/source.h"

typedef struct evt_live evt_live;

typedef struct evt_live_opts {
    const char *out;            /* the trace file (written as OUT.part until the end) */
    const char *bind;           /* the HTTP server's address (NULL: 127.0.0.1) */
    unsigned port;              /* 0: chosen by the system */
    uint64_t view_bytes;        /* newest bytes the page shows (0: EVT_LIVE_VIEW_DEFAULT) */
    unsigned refresh_ms;        /* a new page at most this often (0: EVT_LIVE_REFRESH_DEFAULT) */
    const char *format;         /* forced reader, or NULL */
    const evt_open_opts *ropts; /* reader options */
    uint64_t clock_hz;          /* --clock-hz (0: the trace's) */
    const char *title;          /* what the page calls its input */
    int kernel;                 /* --kernel: the profile's id + 1; 0: the trace's own (as cli_args) */
    int prio_order;             /* --priority-order: evt_reader_set_prio_order's value, 0 for none */
} evt_live_opts;

#define EVT_LIVE_VIEW_DEFAULT (1u << 20)
#define EVT_LIVE_REFRESH_DEFAULT 200u
#define EVT_LIVE_HEAD_BYTES 4096u /* the stream's first bytes, always in the view */

/* What the session has seen so far. */
typedef struct evt_live_stats {
    uint64_t bytes;        /* bytes in the trace file */
    uint64_t pages;        /* pages built */
    uint64_t view_events;  /* events in the newest page */
    uint64_t view_bytes;   /* bytes it was built from */
    int ended;             /* the source ended (target gone, connection closed) or never opened */
    int opened;            /* the source was opened */
    char end_reason[400];
    /* Set once EVT_LIVE_HEAD_BYTES * 4 bytes have arrived and none of them opens as a trace (the
     * reader's error: not a trace format, or not the --format given); "" while they may still,
     * and again once a page is built. */
    char undecodable[300];
} evt_live_stats;

/* Opens the live input (run by the tee thread, so the page is served while it waits for a
 * connection or a target): EVT_OK with *src set, or an error with err filled. */
typedef evt_status (*evt_live_open_fn)(void *user, evt_source *src, char *err, size_t errlen);

/* Start a session: create OUT.part, serve the page, then open the input with open_fn (its failure
 * ends the session: stats.ended with the reason, no bytes). NULL with err filled when the file or
 * the server cannot be set up. */
evt_live *evt_live_start(const evt_live_opts *o, evt_live_open_fn open_fn, void *user, char *err, size_t errlen);
/* The page's address, "http://127.0.0.1:PORT/". */
const char *evt_live_url(const evt_live *l);
void evt_live_get_stats(evt_live *l, evt_live_stats *out);
/* The session gives no output: evt_live_finish then removes OUT.part instead of renaming it, so
 * an OUT that exists stays as it was (the input never opened). */
void evt_live_abandon(evt_live *l);
/* End the session: stop reading, complete the file (flushed, synced, renamed to OUT), stop the
 * server. Returns 1 when the file is complete, 0 with err filled. Frees l. */
int evt_live_finish(evt_live *l, char *err, size_t errlen);

/* The page served in live mode: the report page html (len bytes) with the live script added and
 * its content policy opened to this server (connect-src 'self'). Returns a malloc'd string and its
 * length, or NULL. (live_page.c) */
char *evt_live_page(const char *html, size_t len, uint64_t gen, size_t *out_len);
/* The page served before the first data arrived. */
char *evt_live_waiting_page(const char *title, size_t *out_len);

#endif
