/* The live view's HTTP server (libmicrohttpd, a thread per connection): GET / the newest page
 * (or a waiting page before the first), /page the newest page for the live script's swap,
 * /status the session's counters as JSON, /events server-sent events: one `update` per new page
 * (data: {"gen", "bytes", "events"}), a comment every 15 s to keep the connection, the end when
 * the session stops. Only GET; nothing else is served. */
#include <microhttpd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include "evtrace/alloc.h"
#include "host/lazy_lib.h"
#include "host/live/live_impl.h"

/* libmicrohttpd is loaded when a live view starts its server (host/lazy_lib.h: it costs every
 * start 4.7 ms otherwise); these are the calls made into it. EVT_MHD_SONAME: the soname of the
 * library built against. */
#define MHD_FNS(X, A) \
    X(add_response_header, A) \
    X(create_response_from_buffer, A) \
    X(create_response_from_callback, A) \
    X(destroy_response, A) \
    X(get_daemon_info, A) \
    X(queue_response, A) \
    X(start_daemon, A) \
    X(stop_daemon, A) \

#ifndef EVT_MHD_SONAME
#define EVT_MHD_SONAME "libmicrohttpd.so.12"
#endif
EVT_LAZY_LIB(M, g_mhd_lib, "libmicrohttpd", MHD_, MHD_FNS, EVT_MHD_SONAME, "libmicrohttpd.so.12", "libmicrohttpd.so");

#define SSE_KEEPALIVE_S 15

typedef struct sse_state {
    evt_live *l;
    uint64_t sent_gen; /* the last page announced on this connection */
} sse_state;

static enum MHD_Result reply_(struct MHD_Connection *c, unsigned code, const char *type, const char *body, size_t n,
                              uint64_t gen)
{
    struct MHD_Response *r = M.create_response_from_buffer(n, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (!r) return MHD_NO;
    M.add_response_header(r, "Content-Type", type);
    M.add_response_header(r, "Cache-Control", "no-store");
    if (gen) {
        char g[32];
        snprintf(g, sizeof g, "%llu", (unsigned long long)gen);
        M.add_response_header(r, "X-Evtrace-Gen", g);
    }
    enum MHD_Result ret = M.queue_response(c, code, r);
    M.destroy_response(r);
    return ret;
}

/* The SSE body: blocks (its own thread) until a new page, the keep-alive time, or the stop. */
static ssize_t sse_read_(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    sse_state *s = cls;
    evt_live *l = s->l;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += SSE_KEEPALIVE_S;
    pthread_mutex_lock(&l->mu);
    while (!l->stopping && l->gen == s->sent_gen)
        if (pthread_cond_timedwait(&l->cv, &l->mu, &ts) != 0) break;
    if (l->stopping) {
        pthread_mutex_unlock(&l->mu);
        return MHD_CONTENT_READER_END_OF_STREAM;
    }
    int n;
    if (l->gen != s->sent_gen) {
        s->sent_gen = l->gen;
        n = snprintf(buf, max, "event: update\ndata: {\"gen\":%llu,\"bytes\":%llu,\"events\":%llu,\"ended\":%d}\n\n",
                     (unsigned long long)l->gen, (unsigned long long)l->bytes, (unsigned long long)l->view_events,
                     l->ended);
    } else {
        n = snprintf(buf, max, ": keep-alive\n\n");
    }
    pthread_mutex_unlock(&l->mu);
    return n > 0 && (size_t)n < max ? n : MHD_CONTENT_READER_END_WITH_ERROR;
}

static void sse_free_(void *cls) { evt_free(cls); }

static enum MHD_Result handle_(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                               const char *version, const char *upload, size_t *upload_len, void **con_cls)
{
    (void)version; (void)upload; (void)upload_len; (void)con_cls;
    evt_live *l = cls;
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return reply_(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", "GET only\n", 9, 0);
    if (strcmp(url, "/") == 0 || strcmp(url, "/page") == 0) {
        pthread_mutex_lock(&l->mu);
        enum MHD_Result r;
        if (l->page) {
            r = reply_(c, MHD_HTTP_OK, "text/html; charset=utf-8", l->page, l->page_len, l->gen);
        } else {
            size_t n = 0;
            char *w = evt_live_waiting_page(l->title, &n);
            r = w ? reply_(c, MHD_HTTP_OK, "text/html; charset=utf-8", w, n, 0) : MHD_NO;
            evt_free(w);
        }
        pthread_mutex_unlock(&l->mu);
        return r;
    }
    if (strcmp(url, "/status") == 0) {
        char b[512];
        pthread_mutex_lock(&l->mu);
        int n = snprintf(b, sizeof b,
                         "{\"gen\":%llu,\"bytes\":%llu,\"view_events\":%llu,\"view_bytes\":%llu,\"ended\":%s}\n",
                         (unsigned long long)l->gen, (unsigned long long)l->bytes, (unsigned long long)l->view_events,
                         (unsigned long long)l->view_bytes_used, l->ended ? "true" : "false");
        pthread_mutex_unlock(&l->mu);
        return reply_(c, MHD_HTTP_OK, "application/json", b, (size_t)n, 0);
    }
    if (strcmp(url, "/events") == 0) {
        sse_state *s = evt_calloc(1, sizeof *s);
        if (!s) return MHD_NO;
        s->l = l;
        struct MHD_Response *r = M.create_response_from_callback(MHD_SIZE_UNKNOWN, 1024, sse_read_, s, sse_free_);
        if (!r) { evt_free(s); return MHD_NO; }
        M.add_response_header(r, "Content-Type", "text/event-stream");
        M.add_response_header(r, "Cache-Control", "no-store");
        enum MHD_Result ret = M.queue_response(c, MHD_HTTP_OK, r);
        M.destroy_response(r);
        return ret;
    }
    return reply_(c, MHD_HTTP_NOT_FOUND, "text/plain", "not found\n", 10, 0);
}

int evt_live_http_start(evt_live *l, const char *bind, unsigned port, char *err, size_t errlen)
{
    struct sockaddr_in a4;
    struct sockaddr_in6 a6;
    struct sockaddr *sa;
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD;
    memset(&a4, 0, sizeof a4);
    memset(&a6, 0, sizeof a6);
    if (inet_pton(AF_INET, bind, &a4.sin_addr) == 1) {
        a4.sin_family = AF_INET;
        a4.sin_port = htons((uint16_t)port);
        sa = (struct sockaddr *)&a4;
    } else if (inet_pton(AF_INET6, bind, &a6.sin6_addr) == 1) {
        a6.sin6_family = AF_INET6;
        a6.sin6_port = htons((uint16_t)port);
        sa = (struct sockaddr *)&a6;
        flags |= MHD_USE_IPv6;
    } else {
        snprintf(err, errlen, "--bind needs an IPv4 or IPv6 address, not '%s'", bind);
        return 0;
    }
    if (evt_lazy_load(&g_mhd_lib, err, errlen) != 0) return 0;
    struct MHD_Daemon *d = M.start_daemon(flags, (uint16_t)port, NULL, NULL, handle_, l, MHD_OPTION_SOCK_ADDR, sa,
                                            MHD_OPTION_END);
    if (!d) {
        snprintf(err, errlen, "cannot serve on %s port %u (in use?)", bind, port);
        return 0;
    }
    const union MHD_DaemonInfo *info = M.get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    unsigned p = info ? info->port : port;
    snprintf(l->url, sizeof l->url, strchr(bind, ':') ? "http://[%s]:%u/" : "http://%s:%u/", bind, p);
    l->http = d;
    return 1;
}

void evt_live_http_stop(evt_live *l)
{
    if (!l->http) return;
    pthread_mutex_lock(&l->mu);
    l->stopping = 1; /* ends the event streams */
    pthread_cond_broadcast(&l->cv);
    pthread_mutex_unlock(&l->mu);
    M.stop_daemon(l->http);
    l->http = NULL;
}
