/* A minimal HTTP/1.1 client for the ClickHouse export: POST over plain TCP to HOST:PORT (any
 * host getaddrinfo resolves, IPv4 or IPv6), one request per connection (Connection: close), the
 * request body sent with chunked transfer encoding as it is produced (bounded memory: one chunk
 * buffer), then the status line, headers and body of the response (chunked or not). A server's
 * error is returned verbatim: "HTTP 500 (X-ClickHouse-Exception-Code 60): Code: 60, ...".
 * Connecting gives up after 10 s per address, a send or receive without progress after 600 s.
 * No TLS, no redirects, no proxies. SIGPIPE is never raised (MSG_NOSIGNAL). */
#ifndef EVT_HTTP_CLIENT_H
#define EVT_HTTP_CLIENT_H

#include <stddef.h>

#define EVT_HTTP_CHUNK (256u * 1024u)       /* request body buffered per chunk */
#define EVT_HTTP_MAX_BODY (16u * 1024u * 1024u) /* largest response body kept */

/* http://HOST[:PORT][/PATH][?QUERY]; PORT defaults to 8123 (ClickHouse's HTTP port). */
typedef struct evt_http_url {
    char host[256];
    char port[8];
    char path[512];  /* "/" when absent */
    char query[1024]; /* without '?', "" when absent */
} evt_http_url;

/* Returns 1, or 0 with a message in err. */
int evt_http_parse_url(const char *url, evt_http_url *u, char *err, size_t errlen);

/* Percent-encode s for a URL query value into out (always terminated); returns 0 when it does
 * not fit. */
int evt_http_urlencode(const char *s, char *out, size_t outlen);

typedef struct evt_http_req evt_http_req; /* one POST in progress */

/* Connect and send the request line and headers of POST target (path and query, already
 * encoded). NULL with a message in err ("cannot connect to HOST:PORT: Connection refused"). */
evt_http_req *evt_http_post_begin(const evt_http_url *u, const char *target, char *err, size_t errlen);
/* Append body bytes; a full chunk buffer goes out. Returns 1, or 0 with a message in err (the
 * connection dropped, the server answered early: its answer is in the message). */
int evt_http_write(evt_http_req *q, const void *p, size_t n, char *err, size_t errlen);
/* Send the rest and the last chunk, read the response. Returns the HTTP status (200 ...) with
 * the body in *body (NUL-terminated, evt_free it; may be NULL to discard), or 0 with a message
 * in err when there was no complete response. A status other than 2xx also writes the server's
 * text to err. Frees q whatever the result. */
int evt_http_post_end(evt_http_req *q, char **body, size_t *body_len, char *err, size_t errlen);
/* Abandon a request (closes the connection, frees q). */
void evt_http_abort(evt_http_req *q);

/* One whole POST of a small body (SQL text): status as evt_http_post_end. */
int evt_http_post(const evt_http_url *u, const char *target, const void *p, size_t n, char **body,
                  size_t *body_len, char *err, size_t errlen);

#endif
