/* HTTP(S) POSTs for the ClickHouse export, through libcurl (README: why libcurl). One request per
 * INSERT or statement; a request body is streamed as it is produced (chunked transfer encoding,
 * bounded memory: one EVT_HTTP_CHUNK buffer plus libcurl's own), several requests may be open at
 * once. https:// verifies the server's certificate and name (evt_http_opts.ca_file for a private
 * CA; insecure = 1 turns the checks off); credentials go as HTTP basic authentication, never in a
 * message. A server's error comes back as "HTTP 500 (X-ClickHouse-Exception-Code 60): Code: 60,
 * ...". Time limits (evt_http_opts): connecting gives up after EVT_HTTP_CONNECT_S; the time spent
 * waiting on the server (sending, the answer) is drawn from one budget shared by every request of
 * a load (budget_s: --timeout), and a wait that moves fewer than EVT_HTTP_LOW_SPEED_BYTES in
 * EVT_HTTP_LOW_SPEED_S fails. Time spent producing the body (reading the trace) does not count. */
#ifndef EVT_HTTP_CLIENT_H
#define EVT_HTTP_CLIENT_H

#include <stddef.h>

#define EVT_HTTP_CHUNK (256u * 1024u)          /* request body buffered before it goes out */
#define EVT_HTTP_MAX_BODY (16u * 1024u * 1024u) /* largest response body kept */
#define EVT_HTTP_CONNECT_S 10                  /* connecting (and TLS) gives up after this */
#define EVT_HTTP_LOW_SPEED_S 30                /* a wait on the server that moves fewer than ... */
#define EVT_HTTP_LOW_SPEED_BYTES 1024          /* ... this many bytes in that time fails */
#define EVT_HTTP_RETRIES 3                     /* an idempotent statement is tried again this often */

/* http[s]://[USER[:PASSWORD]@]HOST[:PORT][/PATH][?QUERY]; PORT defaults to 8123 (http) or 8443
 * (https), ClickHouse's. Credentials in the URL are taken out (percent-decoded) into user and
 * password; no control byte or space is accepted anywhere. */
typedef struct evt_http_url {
    int https;
    char host[256];
    char port[8];
    char path[512];   /* "/" when absent */
    char query[1024]; /* without '?', "" when absent */
    char user[128], password[256]; /* from the URL, "" when absent */
} evt_http_url;

/* Connection settings shared by the requests of one load (not copied: it must outlive them). */
typedef struct evt_http_opts {
    const char *user;     /* basic authentication, or NULL */
    const char *password; /* NULL: none */
    const char *ca_file;  /* CA certificates (PEM) to verify an https server with; NULL: the system's */
    int insecure;         /* https without certificate and host name checks */
    double budget_s;      /* seconds left for waiting on the server (0: no limit); requests use it up */
    double budget_total;  /* the budget given, for messages */
} evt_http_opts;

/* Returns 1, or 0 with a message in err (the URL itself is never echoed: it may hold a password). */
int evt_http_parse_url(const char *url, evt_http_url *u, char *err, size_t errlen);

/* Percent-encode s for a URL query value into out (always terminated); returns 0 when it does
 * not fit. */
int evt_http_urlencode(const char *s, char *out, size_t outlen);

typedef struct evt_http_req evt_http_req; /* one POST in progress */

/* Start POST target (path and query, already encoded) to u with o's settings; connecting happens
 * with the first bytes sent. NULL with a message in err (out of memory, budget used up). */
evt_http_req *evt_http_post_begin(const evt_http_url *u, evt_http_opts *o, const char *target, char *err,
                                  size_t errlen);
/* Append body bytes; a full buffer goes out. Returns 1, or 0 with a message in err (cannot
 * connect, the connection dropped, the server answered early: its answer is in the message). */
int evt_http_write(evt_http_req *q, const void *p, size_t n, char *err, size_t errlen);
/* Send the rest, read the response. Returns the HTTP status (200 ...) with the body in *body
 * (NUL-terminated, evt_free it; may be NULL to discard), or 0 with a message in err when there was
 * no complete response. A status other than 2xx also writes the server's text to err. Frees q
 * whatever the result. */
int evt_http_post_end(evt_http_req *q, char **body, size_t *body_len, char *err, size_t errlen);
/* Abandon a request (closes the connection, frees q). */
void evt_http_abort(evt_http_req *q);

/* One whole POST of a small body (an idempotent statement: SELECT, ALTER ... DELETE): tried again
 * up to EVT_HTTP_RETRIES times when the connection fails or the server answers 502/503/504, while
 * the budget lasts. Status as evt_http_post_end. */
int evt_http_post(const evt_http_url *u, evt_http_opts *o, const char *target, const void *p, size_t n,
                  char **body, size_t *body_len, char *err, size_t errlen);

#endif
