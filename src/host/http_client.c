/* Minimal HTTP/1.1 POST client (http_client.h): one request per connection, chunked request
 * body, response read to its end (Content-Length, chunked, or the connection's close). */
#define _DEFAULT_SOURCE /* SOCK_CLOEXEC, strncasecmp */
#include "http_client.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include "evtrace/alloc.h"

#define IO_TIMEOUT_S 600     /* a send or receive making no progress this long fails */
#define CONNECT_TIMEOUT_MS 10000 /* an address that does not answer the connection: the next one */

struct evt_http_req {
    int fd;
    char where[280];   /* "HOST:PORT" for messages */
    size_t n;          /* bytes in buf */
    char buf[EVT_HTTP_CHUNK];
};

int evt_http_parse_url(const char *url, evt_http_url *u, char *err, size_t errlen)
{
    memset(u, 0, sizeof *u);
    if (strncmp(url, "http://", 7) != 0) {
        snprintf(err, errlen, "'%s' is not an http:// URL (https is not supported)", url);
        return 0;
    }
    const char *h = url + 7, *end = h + strcspn(h, "/?");
    const char *hp_end = end, *colon = NULL;
    if (*h == '[') { /* [v6]:port */
        const char *rb = memchr(h, ']', (size_t)(end - h));
        if (!rb) { snprintf(err, errlen, "'%s': unterminated [IPv6] host", url); return 0; }
        if (rb + 1 < end && rb[1] == ':') colon = rb + 1;
        else if (rb + 1 != end) { snprintf(err, errlen, "'%s': junk after ]", url); return 0; }
        hp_end = rb;
        h++;
    } else {
        colon = memchr(h, ':', (size_t)(end - h));
        if (colon) hp_end = colon;
    }
    size_t hn = (size_t)(hp_end - h);
    if (hn == 0 || hn >= sizeof u->host) { snprintf(err, errlen, "'%s': bad host", url); return 0; }
    memcpy(u->host, h, hn);
    if (colon) {
        size_t pn = (size_t)(end - colon - 1);
        char *e;
        long p = strtol(colon + 1, &e, 10);
        if (pn == 0 || pn >= sizeof u->port || e != end || p <= 0 || p > 65535) {
            snprintf(err, errlen, "'%s': port must be 1..65535", url);
            return 0;
        }
        memcpy(u->port, colon + 1, pn);
    } else strcpy(u->port, "8123");
    const char *q = strchr(end, '?');
    size_t pl = q ? (size_t)(q - end) : strlen(end);
    if (pl >= sizeof u->path || (q && strlen(q + 1) >= sizeof u->query)) {
        snprintf(err, errlen, "'%s': URL too long", url);
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

static int send_all_(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return 0;
        p += w;
        n -= (size_t)w;
    }
    return 1;
}

/* connect() bounded by CONNECT_TIMEOUT_MS; 0 or -1 with errno. The socket is left blocking. */
static int connect_bounded_(int fd, const struct sockaddr *sa, socklen_t len)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) return -1;
    int r = connect(fd, sa, len);
    if (r != 0 && errno == EINPROGRESS) {
        struct pollfd p = {fd, POLLOUT, 0};
        int pr;
        do pr = poll(&p, 1, CONNECT_TIMEOUT_MS);
        while (pr < 0 && errno == EINTR);
        int e = 0;
        socklen_t el = sizeof e;
        if (pr == 0) { errno = ETIMEDOUT; return -1; }
        if (pr < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el) != 0) return -1;
        if (e) { errno = e; return -1; }
        r = 0;
    }
    if (r == 0 && fcntl(fd, F_SETFL, fl) < 0) return -1;
    return r;
}

evt_http_req *evt_http_post_begin(const evt_http_url *u, const char *target, char *err, size_t errlen)
{
    evt_http_req *q = evt_malloc(sizeof *q);
    if (!q) { snprintf(err, errlen, "out of memory"); return NULL; }
    q->n = 0;
    q->fd = -1;
    snprintf(q->where, sizeof q->where, strchr(u->host, ':') ? "[%s]:%s" : "%s:%s", u->host, u->port);
    struct addrinfo hints, *ai = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    int gr = getaddrinfo(u->host, u->port, &hints, &ai);
    if (gr != 0 || !ai) {
        snprintf(err, errlen, "cannot resolve '%s': %s", u->host, gai_strerror(gr));
        evt_free(q);
        return NULL;
    }
    int cerr = 0;
    for (struct addrinfo *a = ai; a && q->fd < 0; a = a->ai_next) {
        int fd = socket(a->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) { cerr = errno; continue; }
        if (connect_bounded_(fd, a->ai_addr, a->ai_addrlen) == 0) q->fd = fd;
        else { cerr = errno; close(fd); }
    }
    freeaddrinfo(ai);
    if (q->fd < 0) {
        snprintf(err, errlen, "cannot connect to %s: %s", q->where, strerror(cerr));
        evt_free(q);
        return NULL;
    }
    struct timeval tv = {IO_TIMEOUT_S, 0};
    setsockopt(q->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(q->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    char head[8192];
    int hl = snprintf(head, sizeof head,
                      "POST %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: evtrace\r\nConnection: close\r\n"
                      "Transfer-Encoding: chunked\r\nContent-Type: application/octet-stream\r\n\r\n",
                      target, q->where);
    if (hl < 0 || (size_t)hl >= sizeof head) {
        snprintf(err, errlen, "request target too long");
        evt_http_abort(q);
        return NULL;
    }
    if (!send_all_(q->fd, head, (size_t)hl)) {
        snprintf(err, errlen, "%s: sending the request: %s", q->where, strerror(errno));
        evt_http_abort(q);
        return NULL;
    }
    return q;
}

void evt_http_abort(evt_http_req *q)
{
    if (!q) return;
    if (q->fd >= 0) close(q->fd);
    evt_free(q);
}

/* Reads the whole response into a growing buffer and decodes it. Returns the status or 0. */
static int read_response_(evt_http_req *q, char **body, size_t *body_len, char *err, size_t errlen);

/* A send failed: the server may have answered early (an error) and closed; say what it said. */
static void send_failed_(evt_http_req *q, int e, char *err, size_t errlen)
{
    char ans[1024] = "";
    int st = read_response_(q, NULL, NULL, ans, sizeof ans);
    if (st && ans[0]) snprintf(err, errlen, "%s", ans);
    else if (st) snprintf(err, errlen, "%s: the server answered HTTP %d before the request body was complete", q->where, st);
    else snprintf(err, errlen, "%s: connection dropped while sending: %s", q->where, strerror(e));
}

static int flush_chunk_(evt_http_req *q, char *err, size_t errlen)
{
    if (q->n == 0) return 1;
    char len[24];
    int ll = snprintf(len, sizeof len, "%zx\r\n", q->n);
    if (!send_all_(q->fd, len, (size_t)ll) || !send_all_(q->fd, q->buf, q->n) || !send_all_(q->fd, "\r\n", 2)) {
        send_failed_(q, errno, err, errlen);
        return 0;
    }
    q->n = 0;
    return 1;
}

int evt_http_write(evt_http_req *q, const void *p, size_t n, char *err, size_t errlen)
{
    const char *s = p;
    while (n) {
        size_t room = sizeof q->buf - q->n, k = n < room ? n : room;
        memcpy(q->buf + q->n, s, k);
        q->n += k;
        s += k;
        n -= k;
        if (q->n == sizeof q->buf && !flush_chunk_(q, err, errlen)) return 0;
    }
    return 1;
}

/* Value of header `name` in the header block h[0..n), copied into out; 0 if absent. */
static int header_(const char *h, size_t n, const char *name, char *out, size_t outlen)
{
    size_t nl = strlen(name);
    for (const char *line = h; line < h + n;) {
        const char *eol = memchr(line, '\n', (size_t)(h + n - line));
        if (!eol) eol = h + n;
        if ((size_t)(eol - line) > nl && strncasecmp(line, name, nl) == 0 && line[nl] == ':') {
            const char *v = line + nl + 1;
            while (v < eol && (*v == ' ' || *v == '\t')) v++;
            size_t vl = (size_t)(eol - v);
            while (vl && (v[vl - 1] == '\r' || v[vl - 1] == ' ')) vl--;
            if (vl >= outlen) vl = outlen - 1;
            memcpy(out, v, vl);
            out[vl] = '\0';
            return 1;
        }
        line = eol + 1;
    }
    return 0;
}

/* Decode a chunked body in place: b[0..n) -> b[0..*out) (with dry set: only check). Returns 1
 * when complete (last chunk seen), 0 when more bytes are needed, -1 when malformed. */
static int dechunk_(char *b, size_t n, size_t *out, int dry)
{
    size_t r = 0, w = 0;
    for (;;) {
        const char *eol = memchr(b + r, '\n', n - r);
        if (!eol) return 0;
        char *e;
        unsigned long long len = strtoull(b + r, &e, 16);
        if (e == b + r) return -1;
        size_t data = (size_t)(eol - b) + 1;
        if (len == 0) { *out = w; return 1; }
        if (len > n || data + len + 2 > n) return 0;
        if (!dry) memmove(b + w, b + data, (size_t)len);
        w += (size_t)len;
        r = data + (size_t)len + 2;
    }
}

static int read_response_(evt_http_req *q, char **body, size_t *body_len, char *err, size_t errlen)
{
    size_t cap = 16384, n = 0, limit = EVT_HTTP_MAX_BODY + 65536;
    char *b = evt_malloc(cap + 1);
    if (!b) { snprintf(err, errlen, "out of memory"); return 0; }
    int eof = 0, rerr = 0;
    size_t hend = 0; /* end of the header block, once seen */
    long long clen = -1;
    int chunked = 0;
    for (;;) {
        if (!hend) {
            for (size_t i = 3; i < n; i++)
                if (b[i - 3] == '\r' && b[i - 2] == '\n' && b[i - 1] == '\r' && b[i] == '\n') { hend = i + 1; break; }
            if (hend) {
                char v[64];
                if (header_(b, hend, "Content-Length", v, sizeof v)) clen = atoll(v);
                chunked = header_(b, hend, "Transfer-Encoding", v, sizeof v) && strcasecmp(v, "chunked") == 0;
            }
        }
        if (hend && !chunked && clen >= 0 && n - hend >= (size_t)clen) break;
        if (hend && chunked && n - hend >= 5 && memcmp(b + n - 5, "0\r\n\r\n", 5) == 0) {
            size_t ignored;
            if (dechunk_(b + hend, n - hend, &ignored, 1) == 1) break; /* the last chunk arrived */
        }
        if (eof) break;
        if (n == cap) {
            if (cap >= limit) { snprintf(err, errlen, "%s: response larger than %u bytes", q->where, EVT_HTTP_MAX_BODY); evt_free(b); return 0; }
            char *nb = evt_realloc(b, cap * 2 + 1);
            if (!nb) { snprintf(err, errlen, "out of memory"); evt_free(b); return 0; }
            b = nb;
            cap *= 2;
        }
        ssize_t r = recv(q->fd, b + n, cap - n, 0);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) { rerr = errno; eof = 1; continue; }
        if (r == 0) eof = 1;
        n += (size_t)r;
    }
    b[n] = '\0';
    int status = 0;
    if (!hend || sscanf(b, "HTTP/%*d.%*d %d", &status) != 1 || status < 100) {
        snprintf(err, errlen, "%s: %s", q->where, n == 0 ? (rerr ? strerror(rerr) : "connection closed without a response")
                                                       : "malformed HTTP response");
        evt_free(b);
        return 0;
    }
    size_t blen = n - hend;
    if (chunked) {
        int d = dechunk_(b + hend, n - hend, &blen, 0);
        if (d <= 0) {
            snprintf(err, errlen, "%s: HTTP %d response cut short (connection dropped: %s)", q->where, status,
                     rerr ? strerror(rerr) : "closed");
            evt_free(b);
            return 0;
        }
    } else if (clen >= 0) {
        if (blen < (size_t)clen) {
            snprintf(err, errlen, "%s: HTTP %d response cut short", q->where, status);
            evt_free(b);
            return 0;
        }
        blen = (size_t)clen;
    }
    if (status < 200 || status > 299) {
        char code[32] = "";
        int has_code = header_(b, hend, "X-ClickHouse-Exception-Code", code, sizeof code);
        size_t tl = blen;
        while (tl && (b[hend + tl - 1] == '\n' || b[hend + tl - 1] == '\r')) tl--;
        snprintf(err, errlen, "HTTP %d%s%s%s: %.*s", status, has_code ? " (X-ClickHouse-Exception-Code " : "",
                 has_code ? code : "", has_code ? ")" : "", tl ? (int)(tl > 2000 ? 2000 : tl) : 12,
                 tl ? b + hend : "(empty body)");
    }
    if (body) {
        memmove(b, b + hend, blen);
        b[blen] = '\0';
        *body = b;
        if (body_len) *body_len = blen;
    } else evt_free(b);
    return status;
}

int evt_http_post_end(evt_http_req *q, char **body, size_t *body_len, char *err, size_t errlen)
{
    if (body) *body = NULL;
    if (!flush_chunk_(q, err, errlen)) { evt_http_abort(q); return 0; }
    if (!send_all_(q->fd, "0\r\n\r\n", 5)) {
        send_failed_(q, errno, err, errlen);
        evt_http_abort(q);
        return 0;
    }
    int st = read_response_(q, body, body_len, err, errlen);
    evt_http_abort(q);
    return st;
}

int evt_http_post(const evt_http_url *u, const char *target, const void *p, size_t n, char **body,
                  size_t *body_len, char *err, size_t errlen)
{
    if (body) *body = NULL;
    evt_http_req *q = evt_http_post_begin(u, target, err, errlen);
    if (!q) return 0;
    if (!evt_http_write(q, p, n, err, errlen)) { evt_http_abort(q); return 0; }
    return evt_http_post_end(q, body, body_len, err, errlen);
}
