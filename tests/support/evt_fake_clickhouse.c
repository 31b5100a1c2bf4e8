/* A stand-in ClickHouse HTTP server for the export's tests and benches (evt_fake_clickhouse.h):
 * one thread accepting, one thread per connection, one request per connection. */
#define _GNU_SOURCE /* memmem */
#include "evt_fake_clickhouse.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "host/exporters/clickhouse_schema.h"

struct evt_fake_ch {
    int ls;
    int decode;
    char url[96];
    char columns[65536];     /* the system.columns answer (TSV) */
    pthread_t acceptor;
    pthread_mutex_t mu;
    pthread_cond_t idle;
    int active, stop;
    uint64_t rows[EVT_TL_T_COUNT_];
    uint64_t bad;
    char trace_id[80];
};

typedef struct rd { const unsigned char *p, *end; } rd;

static int varint_(rd *r, uint64_t *v)
{
    *v = 0;
    for (int sh = 0; sh < 64 && r->p < r->end; sh += 7) {
        unsigned char c = *r->p++;
        *v |= (uint64_t)(c & 0x7f) << sh;
        if (!(c & 0x80)) return 1;
    }
    return 0;
}

static int skip_(rd *r, uint64_t n)
{
    if ((uint64_t)(r->end - r->p) < n) return 0;
    r->p += n;
    return 1;
}

static int string_(rd *r, const unsigned char **s, uint64_t *n)
{
    if (!varint_(r, n)) return 0;
    *s = r->p;
    return skip_(r, *n);
}

static int string_array_(rd *r)
{
    uint64_t k, n;
    const unsigned char *s;
    if (!varint_(r, &k)) return 0;
    for (uint64_t i = 0; i < k; i++)
        if (!string_(r, &s, &n)) return 0;
    return 1;
}

/* Decode the rows of one INSERT body; returns rows or -1 when it is not whole rows. */
static long long decode_(evt_fake_ch *f, evt_tl_table t, const unsigned char *b, size_t n)
{
    const evt_tl_table_desc *d = evt_ch_table(t);
    rd r = {b, b + n};
    long long rows = 0;
    while (r.p < r.end) {
        const unsigned char *id;
        uint64_t idn;
        if (!string_(&r, &id, &idn) || idn >= sizeof f->trace_id || !string_array_(&r) || !string_array_(&r)) return -1;
        pthread_mutex_lock(&f->mu);
        memcpy(f->trace_id, id, idn);
        f->trace_id[idn] = '\0';
        pthread_mutex_unlock(&f->mu);
        for (uint32_t i = 0; i < d->ncols; i++) {
            if (d->cols[i].nullable) {
                if (r.p >= r.end) return -1;
                if (*r.p++ == 1) continue;
            }
            const unsigned char *s;
            uint64_t sn;
            int ok = d->cols[i].type == EVT_TL_I64 || d->cols[i].type == EVT_TL_F64 ? skip_(&r, 8) : string_(&r, &s, &sn);
            if (!ok) return -1;
        }
        rows++;
    }
    return rows;
}

/* Percent-decoded "INSERT INTO evtrace.<table> " in the request line: the table, or -1. */
static int insert_table_(const char *req)
{
    const char *q = strstr(req, "query=INSERT%20INTO%20");
    const char *eol = strstr(req, "\r\n");
    if (!q || (eol && q > eol)) return -1;
    q += strlen("query=INSERT%20INTO%20");
    const char *dot = strstr(q, ".");
    if (!dot) return -1;
    dot++;
    for (int t = 0; t < EVT_TL_T_COUNT_; t++) {
        const char *name = evt_ch_table((evt_tl_table)t)->name;
        size_t nl = strlen(name);
        if (strncmp(dot, name, nl) == 0 && strncmp(dot + nl, "%20", 3) == 0) return t;
    }
    return -1;
}

typedef struct conn { evt_fake_ch *f; int c; } conn;

static void *serve_(void *arg)
{
    conn *cn = arg;
    evt_fake_ch *f = cn->f;
    int c = cn->c;
    free(cn);
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    char *he = NULL;
    while (b && !he) { /* the header block */
        if (n == cap) break;
        ssize_t r = recv(c, b + n, cap - n, 0);
        if (r <= 0) break;
        n += (size_t)r;
        b[n] = '\0';
        he = strstr(b, "\r\n\r\n");
    }
    if (!he) goto out;
    int table = insert_table_(b);
    size_t hl = (size_t)(he + 4 - b);
    /* the chunked body: de-chunked into b[0..bn) when decoding (or when it is a statement),
     * else dropped; the last chunk ends it */
    int keep = f->decode || table < 0;
    size_t bn = 0, r0 = hl; /* r0: start of the unparsed chunk stream in b */
    for (;;) {
        char *eol = memmem(b + r0, n - r0, "\r\n", 2);
        if (eol) {
            size_t len = strtoul(b + r0, NULL, 16), data = (size_t)(eol - b) + 2;
            if (len == 0) break;
            if (n >= data + len + 2) {
                if (keep) memmove(b + bn, b + data, len);
                bn += keep ? len : 0;
                r0 = data + len + 2;
                continue;
            }
        }
        /* need more bytes: compact what is parsed, grow if the pending chunk does not fit */
        memmove(b + bn, b + r0, n - r0);
        n = bn + (n - r0);
        r0 = bn;
        if (n == cap) {
            char *nb = realloc(b, cap * 2 + 1);
            if (!nb) goto out;
            b = nb;
            cap *= 2;
        }
        ssize_t r = recv(c, b + n, cap - n, 0);
        if (r <= 0) goto out;
        n += (size_t)r;
    }
    const char *answer = "";
    b[bn] = '\0';
    if (table >= 0) {
        if (f->decode) {
            long long rows = decode_(f, (evt_tl_table)table, (const unsigned char *)b, bn);
            pthread_mutex_lock(&f->mu);
            if (rows < 0) f->bad++;
            else f->rows[table] += (uint64_t)rows;
            pthread_mutex_unlock(&f->mu);
        }
    } else if (strstr(b, "system.columns")) answer = f->columns;
    else if (strstr(b, "count()")) answer = "0\n";
    char head[160];
    int n2 = snprintf(head, sizeof head, "HTTP/1.1 200 OK\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n", strlen(answer));
    send(c, head, (size_t)n2, MSG_NOSIGNAL);
    send(c, answer, strlen(answer), MSG_NOSIGNAL);
out:
    free(b);
    close(c);
    pthread_mutex_lock(&f->mu);
    f->active--;
    pthread_cond_broadcast(&f->idle);
    pthread_mutex_unlock(&f->mu);
    return NULL;
}

static void *accept_(void *arg)
{
    evt_fake_ch *f = arg;
    for (;;) {
        struct pollfd p = {f->ls, POLLIN, 0};
        int pr = poll(&p, 1, 50);
        pthread_mutex_lock(&f->mu);
        int stop = f->stop;
        pthread_mutex_unlock(&f->mu);
        if (stop) return NULL;
        if (pr <= 0) continue;
        int c = accept(f->ls, NULL, NULL);
        if (c < 0) continue;
        conn *cn = malloc(sizeof *cn);
        pthread_t th;
        if (!cn) { close(c); continue; }
        cn->f = f;
        cn->c = c;
        pthread_mutex_lock(&f->mu);
        f->active++;
        pthread_mutex_unlock(&f->mu);
        if (pthread_create(&th, NULL, serve_, cn) == 0) pthread_detach(th);
        else {
            free(cn);
            close(c);
            pthread_mutex_lock(&f->mu);
            f->active--;
            pthread_mutex_unlock(&f->mu);
        }
    }
}

evt_fake_ch *evt_fake_ch_start(int decode)
{
    evt_fake_ch *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    f->decode = decode;
    size_t o = 0;
    for (int t = 0; t < EVT_TL_T_COUNT_; t++) {
        const evt_tl_table_desc *d = evt_ch_table((evt_tl_table)t);
        for (size_t i = 0; i < EVT_CH_LEAD_COLS + d->ncols; i++)
            o += (size_t)snprintf(f->columns + o, sizeof f->columns - o, "%s\t%s\t%s\n", d->name,
                                  evt_ch_col_name((evt_tl_table)t, i), evt_ch_col_type((evt_tl_table)t, i));
    }
    f->ls = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t al = sizeof a;
    if (f->ls < 0 || bind(f->ls, (struct sockaddr *)&a, sizeof a) != 0 || listen(f->ls, 64) != 0 ||
        getsockname(f->ls, (struct sockaddr *)&a, &al) != 0) {
        if (f->ls >= 0) close(f->ls);
        free(f);
        return NULL;
    }
    snprintf(f->url, sizeof f->url, "http://127.0.0.1:%d/?database=evtrace", ntohs(a.sin_port));
    pthread_mutex_init(&f->mu, NULL);
    pthread_cond_init(&f->idle, NULL);
    if (pthread_create(&f->acceptor, NULL, accept_, f) != 0) {
        close(f->ls);
        free(f);
        return NULL;
    }
    return f;
}

const char *evt_fake_ch_url(const evt_fake_ch *f) { return f->url; }

uint64_t evt_fake_ch_rows(const evt_fake_ch *f, evt_tl_table t)
{
    pthread_mutex_lock((pthread_mutex_t *)&f->mu);
    uint64_t n = f->rows[t];
    pthread_mutex_unlock((pthread_mutex_t *)&f->mu);
    return n;
}

uint64_t evt_fake_ch_bad(const evt_fake_ch *f)
{
    pthread_mutex_lock((pthread_mutex_t *)&f->mu);
    uint64_t n = f->bad;
    pthread_mutex_unlock((pthread_mutex_t *)&f->mu);
    return n;
}

/* Read once the loads are over (the serving threads write it under the lock). */
const char *evt_fake_ch_trace_id(const evt_fake_ch *f) { return f->trace_id; }

void evt_fake_ch_reset(evt_fake_ch *f)
{
    pthread_mutex_lock(&f->mu);
    memset(f->rows, 0, sizeof f->rows);
    f->bad = 0;
    f->trace_id[0] = '\0';
    pthread_mutex_unlock(&f->mu);
}

void evt_fake_ch_stop(evt_fake_ch *f)
{
    if (!f) return;
    pthread_mutex_lock(&f->mu);
    f->stop = 1;
    pthread_mutex_unlock(&f->mu);
    pthread_join(f->acceptor, NULL);
    pthread_mutex_lock(&f->mu);
    while (f->active) pthread_cond_wait(&f->idle, &f->mu);
    pthread_mutex_unlock(&f->mu);
    close(f->ls);
    pthread_mutex_destroy(&f->mu);
    pthread_cond_destroy(&f->idle);
    free(f);
}
