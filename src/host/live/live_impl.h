/* The live session's state, shared by live.c (tee, builder) and live_http.c (server). Everything
 * below `mu` is guarded by it; `cv` is broadcast on every change (bytes, page, end, stop). */
#ifndef EVT_LIVE_IMPL_H
#define EVT_LIVE_IMPL_H

#include <pthread.h>
#include <stdio.h>
#include "host/live/live.h"

struct evt_live {
    evt_source src;             /* the live input (read by the tee only) */
    evt_live_open_fn open_fn;   /* how the tee opens it */
    void *open_user;
    int src_open;               /* src is open (set by the tee, under mu) */
    const char *format;
    const evt_open_opts *ropts;
    uint64_t clock_hz, view_bytes;
    int kernel, prio_order;     /* evt_live_opts' */
    unsigned refresh_ms;
    char title[256], out[1024], part[1040], url[128];
    pthread_t tee, builder;
    int tee_started, builder_started;
    void *http;                 /* struct MHD_Daemon */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    FILE *fp;                   /* the trace file (OUT.part) */
    uint64_t bytes;             /* bytes written and flushed */
    int framed;                 /* the stream is RKH (flag-framed): windows are cut at flags */
    char *page;                 /* the newest page (evt_live_page), or NULL */
    size_t page_len;
    uint64_t gen;               /* pages built */
    uint64_t view_events, view_bytes_used;
    int ended, tee_done, stopping, aborted;
    char end_reason[400], write_error[128];
    char undecodable[300];      /* why the bytes so far decode to nothing (build_), or "" */
};

/* live_http.c: start the server on bind:port (fills l->url) / stop it. */
int evt_live_http_start(evt_live *l, const char *bind, unsigned port, char *err, size_t errlen);
void evt_live_http_stop(evt_live *l);

#endif
