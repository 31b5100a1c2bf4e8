/* HTTP(S) POSTs over libcurl (http_client.h). Each request is one easy handle in its own multi
 * handle: the body is pushed by the caller, so the read callback pauses libcurl when the buffer is
 * empty and the caller drives the transfer (drive_) only when a buffer is full or the body ends.
 * drive_ also keeps the time limits: the load's budget and the low-speed rule, both measured
 * only while evtrace waits on the server. */
#define _DEFAULT_SOURCE /* strncasecmp */
#include "http_client.h"

#include <curl/curl.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "evtrace/alloc.h"
#include "lazy_lib.h"

/* libcurl is loaded on the first request (lazy_lib.h: it costs every start 12 ms otherwise);
 * these are the calls made into it. EVT_CURL_SONAME: the soname of the library built against. */
#define CURL_FNS(X, A) \
    X(easy_cleanup, A) \
    X(easy_getinfo, A) \
    X(easy_init, A) \
    X(easy_pause, A) \
    X(easy_setopt, A) \
    X(easy_strerror, A) \
    X(global_init, A) \
    X(multi_add_handle, A) \
    X(multi_cleanup, A) \
    X(multi_info_read, A) \
    X(multi_init, A) \
    X(multi_perform, A) \
    X(multi_poll, A) \
    X(multi_remove_handle, A) \
    X(slist_append, A) \
    X(slist_free_all, A) \

#ifndef EVT_CURL_SONAME
#define EVT_CURL_SONAME "libcurl.so.4"
#endif
EVT_LAZY_LIB(C, g_curl_lib, "libcurl", curl_, CURL_FNS, EVT_CURL_SONAME, "libcurl.so.4", "libcurl.so");

struct evt_http_req {
    CURLM *m;
    CURL *h;
    struct curl_slist *hdrs;
    evt_http_opts *o;
    char where[300];       /* "HOST:PORT" for messages */
    unsigned char *buf;    /* body bytes not yet taken by libcurl: [off, len) */
    size_t len, off;
    int eof;               /* the body is complete */
    int paused;            /* the read callback paused the upload (it wants more bytes) */
    int done;              /* the transfer ended */
    CURLcode result;
    char *resp;            /* response body (up to EVT_HTTP_MAX_BODY) */
    size_t resp_len, resp_cap;
    char exc_code[16];     /* X-ClickHouse-Exception-Code */
    unsigned long long moved; /* bytes sent and received, for the low-speed rule */
    char errbuf[CURL_ERROR_SIZE];
};

static double now_s_(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int hexval_(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Percent-decode s[0..n) into out (cap bytes); 0 when it does not fit or is malformed. */
static int pct_decode_(const char *s, size_t n, char *out, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)s[i];
        if (c == '%') {
            if (i + 2 >= n) return 0;
            int hi = hexval_(s[i + 1]), lo = hexval_(s[i + 2]);
            if (hi < 0 || lo < 0) return 0;
            c = hi * 16 + lo;
            i += 2;
        }
        if (o + 1 >= cap) return 0;
        out[o++] = (char)c;
    }
    out[o] = '\0';
    return 1;
}

int evt_http_parse_url(const char *url, evt_http_url *u, char *err, size_t errlen)
{
    memset(u, 0, sizeof *u);
    for (const unsigned char *p = (const unsigned char *)url; *p; p++)
        if (*p <= 0x20 || *p == 0x7f) {
            snprintf(err, errlen, "the URL holds a control byte or space at position %zu: percent-encode it (%%%02X)",
                     (size_t)(p - (const unsigned char *)url), *p);
            return 0;
        }
    const char *h;
    if (strncmp(url, "http://", 7) == 0) h = url + 7;
    else if (strncmp(url, "https://", 8) == 0) { h = url + 8; u->https = 1; }
    else { snprintf(err, errlen, "the URL must start with http:// or https://"); return 0; }
    const char *end = h + strcspn(h, "/?");
    const char *at = NULL; /* userinfo: the last '@' before the path */
    for (const char *p = h; p < end; p++)
        if (*p == '@') at = p;
    if (at) {
        const char *colon = memchr(h, ':', (size_t)(at - h));
        size_t ul = colon ? (size_t)(colon - h) : (size_t)(at - h);
        if (!pct_decode_(h, ul, u->user, sizeof u->user) ||
            (colon && !pct_decode_(colon + 1, (size_t)(at - colon - 1), u->password, sizeof u->password))) {
            snprintf(err, errlen, "the URL's user or password is too long or badly percent-encoded");
            return 0;
        }
        h = at + 1;
    }
    const char *hp_end = end, *colon = NULL;
    if (*h == '[') { /* [v6]:port */
        const char *rb = memchr(h, ']', (size_t)(end - h));
        if (!rb) { snprintf(err, errlen, "the URL's [IPv6] host is not terminated"); return 0; }
        if (rb + 1 < end && rb[1] == ':') colon = rb + 1;
        else if (rb + 1 != end) { snprintf(err, errlen, "junk after ] in the URL's host"); return 0; }
        hp_end = rb;
        h++;
    } else {
        colon = memchr(h, ':', (size_t)(end - h));
        if (colon) hp_end = colon;
    }
    size_t hn = (size_t)(hp_end - h);
    if (hn == 0 || hn >= sizeof u->host) { snprintf(err, errlen, "the URL has no host, or too long a one"); return 0; }
    memcpy(u->host, h, hn);
    if (colon) {
        size_t pn = (size_t)(end - colon - 1);
        char *e;
        long p = strtol(colon + 1, &e, 10);
        if (pn == 0 || pn >= sizeof u->port || e != end || p <= 0 || p > 65535) {
            snprintf(err, errlen, "the URL's port must be 1..65535");
            return 0;
        }
        memcpy(u->port, colon + 1, pn);
    } else strcpy(u->port, u->https ? "8443" : "8123");
    const char *q = strchr(end, '?');
    size_t pl = q ? (size_t)(q - end) : strlen(end);
    if (pl >= sizeof u->path || (q && strlen(q + 1) >= sizeof u->query)) {
        snprintf(err, errlen, "the URL is too long");
        return 0;
    }
    if (pl == 0) strcpy(u->path, "/");
    else memcpy(u->path, end, pl);
    if (q) strcpy(u->query, q + 1);
    return 1;
}

int evt_http_urlencode(const char *s, char *out, size_t outlen)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        int plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("-_.~", c);
        if (o + (plain ? 1 : 3) >= outlen) { if (outlen) out[0] = '\0'; return 0; }
        if (plain) out[o++] = (char)c;
        else { out[o++] = '%'; out[o++] = hex[c >> 4]; out[o++] = hex[c & 15]; }
    }
    out[o] = '\0';
    return 1;
}

static size_t read_cb_(char *dst, size_t size, size_t nitems, void *user)
{
    evt_http_req *q = user;
    size_t room = size * nitems;
    if (q->off < q->len) {
        size_t k = q->len - q->off < room ? q->len - q->off : room;
        memcpy(dst, q->buf + q->off, k);
        q->off += k;
        q->moved += k;
        return k;
    }
    if (q->eof) return 0;
    q->paused = 1;
    return CURL_READFUNC_PAUSE;
}

static size_t write_cb_(char *p, size_t size, size_t n, void *user)
{
    evt_http_req *q = user;
    size_t k = size * n;
    q->moved += k;
    if (q->resp_len + k + 1 > q->resp_cap && q->resp_len < EVT_HTTP_MAX_BODY) {
        size_t cap = q->resp_cap ? q->resp_cap : 4096;
        while (cap < q->resp_len + k + 1 && cap < EVT_HTTP_MAX_BODY + 1) cap *= 2;
        if (cap > EVT_HTTP_MAX_BODY + 1) cap = EVT_HTTP_MAX_BODY + 1;
        char *r = evt_realloc(q->resp, cap);
        if (!r) return 0; /* fails the transfer (CURLE_WRITE_ERROR) */
        q->resp = r;
        q->resp_cap = cap;
    }
    size_t keep = q->resp_len + k + 1 <= q->resp_cap ? k : q->resp_cap - 1 - q->resp_len;
    memcpy(q->resp + q->resp_len, p, keep);
    q->resp_len += keep;
    q->resp[q->resp_len] = '\0';
    return k; /* the rest of a huge body is dropped, not kept */
}

static size_t header_cb_(char *p, size_t size, size_t n, void *user)
{
    evt_http_req *q = user;
    size_t k = size * n;
    static const char name[] = "X-ClickHouse-Exception-Code:";
    if (k > sizeof name - 1 && strncasecmp(p, name, sizeof name - 1) == 0) {
        size_t i = sizeof name - 1, o = 0;
        while (i < k && p[i] == ' ') i++;
        while (i < k && p[i] >= '0' && p[i] <= '9' && o + 1 < sizeof q->exc_code) q->exc_code[o++] = p[i++];
        q->exc_code[o] = '\0';
    }
    return k;
}

/* curl_global_init done (acquire/release: the library's pointers and its initialisation are seen
 * by a thread that sees the flag); g_curl_mu makes the first requests of several threads of a
 * library user run it once (curl_global_init is not thread-safe in every libcurl). */
static int g_curl_ready;
static pthread_mutex_t g_curl_mu = PTHREAD_MUTEX_INITIALIZER;

static int curl_ready(char *err, size_t errlen)
{
    if (__atomic_load_n(&g_curl_ready, __ATOMIC_ACQUIRE)) return 0;
    pthread_mutex_lock(&g_curl_mu);
    int rc = 0;
    if (!__atomic_load_n(&g_curl_ready, __ATOMIC_RELAXED)) {
        if (evt_lazy_load(&g_curl_lib, err, errlen) != 0) rc = -1;
        else if (C.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
            snprintf(err, errlen, "cannot initialise libcurl");
            rc = -1;
        } else {
            __atomic_store_n(&g_curl_ready, 1, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&g_curl_mu);
    return rc;
}

evt_http_req *evt_http_post_begin(const evt_http_url *u, evt_http_opts *o, const char *target, char *err,
                                  size_t errlen)
{
    if (curl_ready(err, errlen) != 0) return NULL;
    if (o->budget_total > 0 && o->budget_s <= 0) {
        snprintf(err, errlen, "the time allowed for the server is used up (--timeout %g s)", o->budget_total);
        return NULL;
    }
    evt_http_req *q = evt_calloc(1, sizeof *q);
    if (!q) { snprintf(err, errlen, "out of memory"); return NULL; }
    q->o = o;
    snprintf(q->where, sizeof q->where, strchr(u->host, ':') ? "[%s]:%s" : "%s:%s", u->host, u->port);
    char url[2300];
    int w = snprintf(url, sizeof url, "%s://%s%s", u->https ? "https" : "http", q->where, target);
    q->buf = evt_malloc(EVT_HTTP_CHUNK);
    q->m = C.multi_init();
    q->h = C.easy_init();
    q->hdrs = C.slist_append(NULL, "Transfer-Encoding: chunked");
    struct curl_slist *h2 = q->hdrs ? C.slist_append(q->hdrs, "Expect:") : NULL; /* no 100-continue wait */
    if (w < 0 || (size_t)w >= sizeof url || !q->buf || !q->m || !q->h || !h2) {
        snprintf(err, errlen, (w < 0 || (size_t)w >= sizeof url) ? "request too long" : "out of memory");
        evt_http_abort(q);
        return NULL;
    }
    q->hdrs = h2;
    CURL *h = q->h;
    C.easy_setopt(h, CURLOPT_URL, url);
    C.easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    C.easy_setopt(h, CURLOPT_POST, 1L);
    C.easy_setopt(h, CURLOPT_HTTPHEADER, q->hdrs);
    C.easy_setopt(h, CURLOPT_READFUNCTION, read_cb_);
    C.easy_setopt(h, CURLOPT_READDATA, q);
    C.easy_setopt(h, CURLOPT_WRITEFUNCTION, write_cb_);
    C.easy_setopt(h, CURLOPT_WRITEDATA, q);
    C.easy_setopt(h, CURLOPT_HEADERFUNCTION, header_cb_);
    C.easy_setopt(h, CURLOPT_HEADERDATA, q);
    C.easy_setopt(h, CURLOPT_ERRORBUFFER, q->errbuf);
    C.easy_setopt(h, CURLOPT_CONNECTTIMEOUT, (long)EVT_HTTP_CONNECT_S);
    C.easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    C.easy_setopt(h, CURLOPT_PROXY, ""); /* no proxy from the environment: the server is named */
    C.easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
    const char *user = o->user, *password = o->password;
    if (!user && u->user[0]) user = u->user;
    if (!password && u->password[0]) password = u->password;
    if (user || password) {
        C.easy_setopt(h, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
        C.easy_setopt(h, CURLOPT_USERNAME, user ? user : "default");
        C.easy_setopt(h, CURLOPT_PASSWORD, password ? password : "");
    }
    if (u->https) {
        if (o->ca_file) C.easy_setopt(h, CURLOPT_CAINFO, o->ca_file);
        C.easy_setopt(h, CURLOPT_SSL_VERIFYPEER, o->insecure ? 0L : 1L);
        C.easy_setopt(h, CURLOPT_SSL_VERIFYHOST, o->insecure ? 0L : 2L);
    }
    if (C.multi_add_handle(q->m, h) != CURLM_OK) {
        snprintf(err, errlen, "out of memory");
        evt_http_abort(q);
        return NULL;
    }
    return q;
}

/* What went wrong with the transfer, for err. */
static void transfer_error_(const evt_http_req *q, char *err, size_t errlen)
{
    long os_err = 0;
    C.easy_getinfo(q->h, CURLINFO_OS_ERRNO, &os_err);
    switch (q->result) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
        snprintf(err, errlen, "cannot connect to %s: %s", q->where,
                 os_err ? strerror((int)os_err) : q->errbuf[0] ? q->errbuf : C.easy_strerror(q->result));
        break;
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CONNECT_ERROR:
        snprintf(err, errlen, "TLS with %s failed: %s (a private CA: --ca-file FILE; no check at all: --insecure)",
                 q->where, q->errbuf[0] ? q->errbuf : C.easy_strerror(q->result));
        break;
    default:
        snprintf(err, errlen, "%s: %s", q->where, q->errbuf[0] ? q->errbuf : C.easy_strerror(q->result));
    }
}

/* Run the transfer until the buffer is taken (all = 0: libcurl paused for more) or the transfer
 * ends (all = 1), keeping the budget and the low-speed rule. Returns 1, or 0 with err filled
 * (the transfer failed or was stopped, or it ended before the body was all sent). */
static int drive_(evt_http_req *q, int all, char *err, size_t errlen)
{
    if (q->paused) {
        q->paused = 0;
        C.easy_pause(q->h, CURLPAUSE_CONT);
    }
    double t0 = now_s_(), win_t = t0;
    unsigned long long win_moved = q->moved;
    int stop = 0;
    while (!q->done) {
        int running = 0;
        C.multi_perform(q->m, &running);
        CURLMsg *msg;
        int left;
        while ((msg = C.multi_info_read(q->m, &left)) != NULL)
            if (msg->msg == CURLMSG_DONE) { q->done = 1; q->result = msg->data.result; }
        if (q->done || (!all && q->paused)) break;
        double now = now_s_();
        if (q->o->budget_total > 0 && q->o->budget_s - (now - t0) <= 0) { stop = 1; break; }
        if (now - win_t >= EVT_HTTP_LOW_SPEED_S) {
            if (q->moved - win_moved < EVT_HTTP_LOW_SPEED_BYTES) { stop = 2; break; }
            win_t = now;
            win_moved = q->moved;
        }
        C.multi_poll(q->m, NULL, 0, 100, NULL);
    }
    if (q->o->budget_total > 0) q->o->budget_s -= now_s_() - t0;
    if (stop == 1) {
        snprintf(err, errlen, "%s: no answer within the time allowed for the server (--timeout %g s)", q->where,
                 q->o->budget_total);
        return 0;
    }
    if (stop == 2) {
        snprintf(err, errlen, "%s: the server moved fewer than %u bytes in %d s (too slow or stalled)", q->where,
                 EVT_HTTP_LOW_SPEED_BYTES, EVT_HTTP_LOW_SPEED_S);
        return 0;
    }
    if (q->done && q->result != CURLE_OK) {
        transfer_error_(q, err, errlen);
        return 0;
    }
    if (q->done && !all) { /* the server answered before the body was complete */
        long status = 0;
        C.easy_getinfo(q->h, CURLINFO_RESPONSE_CODE, &status);
        snprintf(err, errlen, "%s answered before the request was sent: HTTP %ld: %.600s", q->where, status,
                 q->resp ? q->resp : "");
        return 0;
    }
    return 1;
}

int evt_http_write(evt_http_req *q, const void *p, size_t n, char *err, size_t errlen)
{
    const unsigned char *s = p;
    while (n) {
        if (q->len == EVT_HTTP_CHUNK) { /* full: hand it to libcurl */
            if (!drive_(q, 0, err, errlen)) return 0;
            if (q->off < q->len) continue; /* not all taken yet (cannot happen once paused) */
            q->len = q->off = 0;
        }
        size_t k = EVT_HTTP_CHUNK - q->len < n ? EVT_HTTP_CHUNK - q->len : n;
        memcpy(q->buf + q->len, s, k);
        q->len += k;
        s += k;
        n -= k;
    }
    return 1;
}

void evt_http_abort(evt_http_req *q)
{
    if (!q) return;
    if (q->m && q->h) C.multi_remove_handle(q->m, q->h);
    if (q->h) C.easy_cleanup(q->h);
    if (q->m) C.multi_cleanup(q->m);
    C.slist_free_all(q->hdrs);
    evt_free(q->buf);
    evt_free(q->resp);
    evt_free(q);
}

int evt_http_post_end(evt_http_req *q, char **body, size_t *body_len, char *err, size_t errlen)
{
    if (body) *body = NULL;
    if (body_len) *body_len = 0;
    q->eof = 1;
    int ok = drive_(q, 1, err, errlen);
    long status = 0;
    if (ok) {
        C.easy_getinfo(q->h, CURLINFO_RESPONSE_CODE, &status);
        if (status < 200 || status > 299) {
            size_t n = q->resp_len;
            while (n && (q->resp[n - 1] == '\n' || q->resp[n - 1] == '\r')) n--;
            if (q->exc_code[0])
                snprintf(err, errlen, "HTTP %ld (X-ClickHouse-Exception-Code %s): %.*s", status, q->exc_code, (int)(n > 900 ? 900 : n),
                         q->resp ? q->resp : "");
            else snprintf(err, errlen, "HTTP %ld: %.*s", status, (int)(n > 900 ? 900 : n), q->resp ? q->resp : "");
        }
        if (body && q->resp) { *body = q->resp; q->resp = NULL; }
        else if (body) { *body = evt_calloc(1, 1); if (!*body) { snprintf(err, errlen, "out of memory"); status = 0; } }
        if (body_len) *body_len = *body ? q->resp_len : 0;
    }
    evt_http_abort(q);
    return ok ? (int)status : 0;
}

/* Worth another try: the connection failed, or a proxy/gateway said the server is unavailable. */
static int retryable_(int status, const char *err)
{
    if (status == 502 || status == 503 || status == 504) return 1;
    return status == 0 && (strstr(err, "cannot connect") || strstr(err, "Connection reset") ||
                           strstr(err, "Empty reply") || strstr(err, "Recv failure") || strstr(err, "Send failure"));
}

int evt_http_post(const evt_http_url *u, evt_http_opts *o, const char *target, const void *p, size_t n,
                  char **body, size_t *body_len, char *err, size_t errlen)
{
    static const unsigned pause_ms[EVT_HTTP_RETRIES] = {200, 1000, 3000};
    for (int attempt = 0;; attempt++) {
        evt_http_req *q = evt_http_post_begin(u, o, target, err, errlen);
        if (!q) return 0;
        int st = evt_http_write(q, p, n, err, errlen) ? evt_http_post_end(q, body, body_len, err, errlen)
                                                     : (evt_http_abort(q), 0);
        if (attempt >= EVT_HTTP_RETRIES || !retryable_(st, err) ||
            (o->budget_total > 0 && o->budget_s < pause_ms[attempt] / 1000.0))
            return st;
        if (body && *body) { evt_free(*body); *body = NULL; }
        struct timespec ts = {pause_ms[attempt] / 1000, (long)(pause_ms[attempt] % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        if (o->budget_total > 0) o->budget_s -= pause_ms[attempt] / 1000.0;
    }
}
