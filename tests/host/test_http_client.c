/* The HTTP client (src/host/http_client.c) against a scripted loopback server thread: URL
 * parsing, percent-encoding, a chunked request body arrives whole and in order, a chunked and a
 * Content-Length response are read, a server error comes back verbatim with ClickHouse's
 * exception code, a server that closes without answering and a refused connection fail with
 * clear messages. */
#define _GNU_SOURCE /* memmem */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "evtrace/alloc.h"
#include "host/http_client.h"

/* One scripted server: accepts one connection, reads the request (headers + chunked body, up to
 * the last chunk), stores the decoded body, sends `reply` (or closes at once when NULL). */
typedef struct fake {
    int ls;
    int port;
    const char *reply;
    int early;        /* answer as soon as the headers are in, then close (body unread) */
    char *body;       /* decoded request body */
    size_t body_n;
    char head[4096];  /* request header block */
    pthread_t th;
} fake;

static void *serve_(void *arg)
{
    fake *f = arg;
    int c = accept(f->ls, NULL, NULL);
    if (c < 0) return NULL;
    if (!f->reply) { close(c); return NULL; }
    size_t cap = 1 << 20, n = 0;
    char *b = malloc(cap);
    for (;;) { /* until the terminating chunk (or the headers, when answering early) */
        if (n == cap) b = realloc(b, cap *= 2);
        ssize_t r = recv(c, b + n, cap - n, 0);
        if (r <= 0) break;
        n += (size_t)r;
        if (n >= 5 && memcmp(b + n - 5, "0\r\n\r\n", 5) == 0) break;
        if (f->early && memmem(b, n, "\r\n\r\n", 4)) break;
    }
    char *he = memmem(b, n, "\r\n\r\n", 4);
    size_t hl = he ? (size_t)(he - b) + 4 : n;
    memcpy(f->head, b, hl < sizeof f->head - 1 ? hl : sizeof f->head - 1);
    f->body = malloc(n + 1);
    f->body_n = 0;
    for (size_t r = hl; r < n;) { /* de-chunk */
        size_t len = strtoul(b + r, NULL, 16);
        char *eol = memchr(b + r, '\n', n - r);
        if (!eol || len == 0) break;
        size_t d = (size_t)(eol - b) + 1;
        if (d + len > n) break; /* cut short (an early answer reads only part of it) */
        memcpy(f->body + f->body_n, b + d, len);
        f->body_n += len;
        r = d + len + 2;
    }
    free(b);
    send(c, f->reply, strlen(f->reply), MSG_NOSIGNAL);
    close(c);
    return NULL;
}

static void fake_start(fake *f, const char *reply)
{
    memset(f, 0, sizeof *f);
    f->reply = reply;
    f->ls = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(f->ls, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(f->ls, 1), 0);
    socklen_t al = sizeof a;
    getsockname(f->ls, (struct sockaddr *)&a, &al);
    f->port = ntohs(a.sin_port);
    pthread_create(&f->th, NULL, serve_, f);
}

/* Waits for the server thread; the request body stays in f->body until fake_free. */
static void fake_stop(fake *f)
{
    pthread_join(f->th, NULL);
    close(f->ls);
}

static void fake_free(fake *f)
{
    free(f->body);
    f->body = NULL;
}

static evt_http_url url_(int port)
{
    char s[64], err[256];
    evt_http_url u;
    snprintf(s, sizeof s, "http://127.0.0.1:%d/?database=fleet", port);
    assert_true(evt_http_parse_url(s, &u, err, sizeof err));
    return u;
}

static void parses_urls(void **st)
{
    (void)st;
    evt_http_url u;
    char err[256];
    assert_true(evt_http_parse_url("http://db.example:9123/x/y?database=a&user=b", &u, err, sizeof err));
    assert_string_equal(u.host, "db.example");
    assert_string_equal(u.port, "9123");
    assert_string_equal(u.path, "/x/y");
    assert_string_equal(u.query, "database=a&user=b");
    assert_true(evt_http_parse_url("http://[::1]:8124?database=z", &u, err, sizeof err));
    assert_string_equal(u.host, "::1");
    assert_string_equal(u.port, "8124");
    assert_string_equal(u.path, "/");
    assert_string_equal(u.query, "database=z");
    assert_true(evt_http_parse_url("http://h", &u, err, sizeof err));
    assert_string_equal(u.port, "8123");
    assert_string_equal(u.query, "");
    assert_false(evt_http_parse_url("https://h/", &u, err, sizeof err));
    assert_non_null(strstr(err, "https"));
    assert_false(evt_http_parse_url("http://h:0/", &u, err, sizeof err));
    assert_false(evt_http_parse_url("http://h:99999/", &u, err, sizeof err));
    assert_false(evt_http_parse_url("http://:80/", &u, err, sizeof err));
    assert_false(evt_http_parse_url("http://[::1/", &u, err, sizeof err));
}

static void encodes_query_values(void **st)
{
    (void)st;
    char out[64];
    assert_true(evt_http_urlencode("INSERT INTO t (`a`) FORMAT RowBinary", out, sizeof out));
    assert_string_equal(out, "INSERT%20INTO%20t%20%28%60a%60%29%20FORMAT%20RowBinary");
    assert_false(evt_http_urlencode("a very long text that cannot fit in eight", out, 8));
}

static void streams_a_chunked_body(void **st)
{
    (void)st;
    fake f;
    fake_start(&f, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nok\n\r\n2\r\nyz\r\n0\r\n\r\n");
    evt_http_url u = url_(f.port);
    char err[512] = "";
    evt_http_req *q = evt_http_post_begin(&u, "/?database=fleet&query=INSERT", err, sizeof err);
    assert_non_null(q);
    /* three chunk buffers and a bit: every byte arrives in order */
    size_t total = 3 * EVT_HTTP_CHUNK + 12345;
    unsigned char blk[1000];
    for (size_t off = 0; off < total; off += sizeof blk) {
        size_t k = total - off < sizeof blk ? total - off : sizeof blk;
        for (size_t i = 0; i < k; i++) blk[i] = (unsigned char)((off + i) * 7);
        assert_true(evt_http_write(q, blk, k, err, sizeof err));
    }
    char *body = NULL;
    size_t bl = 0;
    assert_int_equal(evt_http_post_end(q, &body, &bl, err, sizeof err), 200);
    assert_int_equal(bl, 5);
    assert_memory_equal(body, "ok\nyz", 5);
    evt_free(body);
    fake_stop(&f);
    assert_non_null(strstr(f.head, "POST /?database=fleet&query=INSERT HTTP/1.1\r\n"));
    assert_non_null(strstr(f.head, "Transfer-Encoding: chunked\r\n"));
    assert_int_equal(f.body_n, total);
    for (size_t i = 0; i < total; i++)
        if ((unsigned char)f.body[i] != (unsigned char)(i * 7)) fail_msg("body byte %zu differs", i);
    fake_free(&f);
}

static void returns_the_server_error_verbatim(void **st)
{
    (void)st;
    fake f;
    const char *msg = "Code: 60, e.displayText() = DB::Exception: Table fleet.events doesn't exist., "
                      "e.what() = DB::Exception\n";
    char reply[512];
    snprintf(reply, sizeof reply,
             "HTTP/1.1 404 Not Found\r\nX-ClickHouse-Exception-Code: 60\r\nContent-Length: %zu\r\n\r\n%s",
             strlen(msg), msg);
    fake_start(&f, reply);
    evt_http_url u = url_(f.port);
    char err[512] = "", *body = NULL;
    int stc = evt_http_post(&u, "/", "SELECT 1", 8, &body, NULL, err, sizeof err);
    assert_int_equal(stc, 404);
    assert_string_equal(body, msg);
    assert_string_equal(err, "HTTP 404 (X-ClickHouse-Exception-Code 60): Code: 60, e.displayText() = DB::Exception: "
                             "Table fleet.events doesn't exist., e.what() = DB::Exception");
    evt_free(body);
    fake_stop(&f);
    assert_int_equal(f.body_n, 8);
    assert_memory_equal(f.body, "SELECT 1", 8);
    fake_free(&f);
}

static void an_early_answer_is_reported(void **st)
{
    (void)st;
    fake f;
    const char *msg = "Code: 164, e.displayText() = DB::Exception: Cannot insert into table in readonly mode";
    char reply[512];
    snprintf(reply, sizeof reply, "HTTP/1.1 500 Internal Server Error\r\nContent-Length: %zu\r\n\r\n%s", strlen(msg), msg);
    fake_start(&f, reply);
    f.early = 1; /* the thread reads it after accept: set before the client connects */
    evt_http_url u = url_(f.port);
    char err[512] = "";
    evt_http_req *q = evt_http_post_begin(&u, "/?query=INSERT", err, sizeof err);
    assert_non_null(q);
    static unsigned char blk[64 * 1024];
    int ok = 1;
    for (int i = 0; i < 512 && ok; i++) ok = evt_http_write(q, blk, sizeof blk, err, sizeof err); /* 32 MB */
    int stc = ok ? evt_http_post_end(q, NULL, NULL, err, sizeof err) : (evt_http_abort(q), 0);
    fake_stop(&f);
    fake_free(&f);
    /* whether the send failed first or the end saw the answer: the server's words come back */
    assert_true(stc == 0 || stc == 500);
    assert_non_null(strstr(err, "readonly mode"));
}

static void a_dropped_connection_is_an_error(void **st)
{
    (void)st;
    fake f;
    fake_start(&f, NULL); /* accepts, then closes without a word */
    evt_http_url u = url_(f.port);
    char err[512] = "", *body = NULL;
    assert_int_equal(evt_http_post(&u, "/", "SELECT 1", 8, &body, NULL, err, sizeof err), 0);
    assert_null(body);
    assert_non_null(strstr(err, "127.0.0.1:"));
    fake_stop(&f);
    /* a response cut inside its chunked body */
    fake_start(&f, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nonly part");
    u = url_(f.port);
    assert_int_equal(evt_http_post(&u, "/", "x", 1, &body, NULL, err, sizeof err), 0);
    assert_non_null(strstr(err, "cut short"));
    fake_stop(&f);
    fake_free(&f);
}

static void a_refused_connection_names_the_server(void **st)
{
    (void)st;
    fake f;
    fake_start(&f, NULL);
    int port = f.port;
    /* connect once so the thread ends, then close the listener: the port refuses */
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons((uint16_t)port);
    connect(s, (struct sockaddr *)&a, sizeof a);
    close(s);
    fake_stop(&f);
    evt_http_url u = url_(port);
    char err[512] = "";
    assert_int_equal(evt_http_post(&u, "/", "SELECT 1", 8, NULL, NULL, err, sizeof err), 0);
    char want[128];
    snprintf(want, sizeof want, "cannot connect to 127.0.0.1:%d: Connection refused", port);
    assert_string_equal(err, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parses_urls),
        cmocka_unit_test(encodes_query_values),
        cmocka_unit_test(streams_a_chunked_body),
        cmocka_unit_test(returns_the_server_error_verbatim),
        cmocka_unit_test(an_early_answer_is_reported),
        cmocka_unit_test(a_dropped_connection_is_an_error),
        cmocka_unit_test(a_refused_connection_names_the_server),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
