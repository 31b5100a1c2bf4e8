/* One event as a line of `evtrace dump` (dump_text.h): the pieces of printf's formats assembled in
 * a buffer (printf per piece was four fifths of a text dump's time). */
#include "dump_text.h"

#include <string.h>
#include "host/fbuf.h"
#include "host/json_fast.h"

static void str_(evt_fbuf *b, const char *s) { evt_fbuf_put(b, s, strlen(s)); }
static void spaces_(evt_fbuf *b, size_t k)
{
    while (k) {
        size_t c = k < 64 ? k : 64;
        memset(evt_fbuf_room(b, c), ' ', c);
        b->n += c;
        k -= c;
    }
}
/* s[0..n) left-aligned in width w ("%-*.*s" / "%-*s"). */
static void left_(evt_fbuf *b, const char *s, size_t n, size_t w)
{
    evt_fbuf_put(b, s, n);
    if (n < w) spaces_(b, w - n);
}
static void u64_(evt_fbuf *b, uint64_t v)
{
    b->n += evt_jf_u64_(evt_fbuf_room(b, 20), v);
}
/* v right-aligned in width w ("%*llu", w <= 20). */
static void u64_right_(evt_fbuf *b, uint64_t v, size_t w)
{
    char d[20];
    size_t k = evt_jf_u64_(d, v);
    if (k < w) spaces_(b, w - k);
    evt_fbuf_put(b, d, k);
}
void cli_dump_text(FILE *o, const evt_event *ev)
{
    evt_fbuf b;
    evt_fbuf_init(&b, o);
    char d[24];
    /* real time (s.ns) when the clock is known, then the raw ticks */
    if (ev->flags & EVT_HAS_TNS) {
        u64_right_(&b, ev->t_ns / 1000000000u, 6);
        uint32_t ns = (uint32_t)(ev->t_ns % 1000000000u);
        char *p = evt_fbuf_room(&b, 10);
        p[0] = '.';
        for (int i = 9; i >= 1; i--, ns /= 10) p[i] = (char)('0' + ns % 10);
        b.n += 10;
        EVT_FBUF_LIT(&b, "s ");
    }
    u64_right_(&b, ev->ts, 12);
    EVT_FBUF_LIT(&b, "  ");
    if (ev->ctx_name) {
        left_(&b, ev->ctx_name, strnlen(ev->ctx_name, 20), 20);
    } else if (ev->flags & EVT_HAS_CTX) {
        d[0] = '0';
        d[1] = 'x';
        left_(&b, d, 2 + evt_jf_hex_(d + 2, ev->ctx), 20);
    } else {
        left_(&b, "-", 1, 20);
    }
    EVT_FBUF_LIT(&b, " ");
    const char *name = ev->name ? ev->name : "?";
    left_(&b, name, strlen(name), 28);
    if (ev->kind == EVT_KIND_LOST && (ev->flags & EVT_HAS_COUNT)) {
        EVT_FBUF_LIT(&b, " lost=");
        u64_(&b, ev->count);
    }
    for (uint32_t i = 0; i < ev->nargs; i++) {
        d[0] = ' ';
        d[1] = '0';
        d[2] = 'x';
        evt_fbuf_put(&b, d, 3 + evt_jf_hex_(d + 3, ev->args[i]));
    }
    if ((ev->flags & EVT_HAS_TARGET) && ev->target_name) {
        EVT_FBUF_LIT(&b, "  [");
        str_(&b, ev->target_name);
        EVT_FBUF_LIT(&b, "]");
    }
    for (uint32_t i = 0; i < ev->nfields; i++) {
        const evt_field *f = &ev->fields[i];
        EVT_FBUF_LIT(&b, " ");
        str_(&b, f->key ? f->key : "(null)"); /* glibc's printf of a NULL %s */
        EVT_FBUF_LIT(&b, "=");
        if (f->is_str) {
            str_(&b, f->str ? f->str : "");
        } else if (f->is_signed && (int64_t)f->num < 0) {
            EVT_FBUF_LIT(&b, "-");
            u64_(&b, 0 - f->num);
        } else {
            u64_(&b, f->num);
        }
    }
    if (ev->data && ev->data_is_text) { /* to its first NUL, as %.*s */
        EVT_FBUF_LIT(&b, " \"");
        evt_fbuf_put(&b, (const char *)ev->data, strnlen((const char *)ev->data, ev->data_len));
        EVT_FBUF_LIT(&b, "\"");
    } else if (ev->data) {
        EVT_FBUF_LIT(&b, " data[");
        u64_(&b, ev->data_len);
        EVT_FBUF_LIT(&b, "]");
    }
    EVT_FBUF_LIT(&b, "\n");
    evt_fbuf_flush(&b);
}
