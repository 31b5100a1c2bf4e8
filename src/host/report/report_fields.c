/* The details panel's text of one event (report_fields.h): the pieces appended without printf
 * (the report writes it for every listed event; snprintf per piece was half the report's time),
 * with snprintf's truncation: the text is the first n - 1 bytes of the pieces joined. */
#include "host/report/report_fields.h"

#include <string.h>
#include "host/json_fast.h"

/* The text being built: b[0..k) written while k < n - 1 (NUL after it); k counts every byte
 * appended, also those that did not fit. */
typedef struct ft {
    char *b;
    size_t n, k;
} ft;

static void put_(ft *t, const char *s, size_t len)
{
    if (t->k >= t->n) return; /* already cut: nothing more is written */
    size_t room = t->n - 1 - t->k, c = len < room ? len : room;
    memcpy(t->b + t->k, s, c);
    t->b[t->k + c] = '\0';
    t->k += len;
}
#define PUT_LIT(t, lit) put_((t), (lit), sizeof(lit) - 1)
static void str_(ft *t, const char *s) { put_(t, s, strlen(s)); }

static void u64_(ft *t, uint64_t v)
{
    char d[20];
    put_(t, d, evt_jf_u64_(d, v));
}
static void i64_(ft *t, int64_t v)
{
    if (v < 0) PUT_LIT(t, "-");
    u64_(t, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
}
/* 0x and v in lowercase hex without leading zeros (printf's "0x%" PRIx64). */
static void hex_(ft *t, uint64_t v)
{
    char d[18] = {'0', 'x'};
    put_(t, d, 2 + evt_jf_hex_(d + 2, v));
}

void rp_field_text(const evt_event *ev, char *b, size_t n)
{
    ft t = {b, n, 0};
    b[0] = '\0';
    PUT_LIT(&t, "id=");
    u64_(&t, ev->id);
    if (ev->flags & EVT_HAS_CPU) { PUT_LIT(&t, "\tcpu="); u64_(&t, ev->cpu); }
    if (ev->flags & EVT_HAS_PRIO) { PUT_LIT(&t, "\tprio="); u64_(&t, ev->prio); }
    if (ev->flags & EVT_HAS_SEQ) { PUT_LIT(&t, "\tseq="); u64_(&t, ev->seq); }
    if (ev->flags & EVT_HAS_COUNT) { PUT_LIT(&t, "\tcount="); u64_(&t, ev->count); }
    if (ev->flags & EVT_HAS_TARGET) {
        PUT_LIT(&t, "\ttarget=");
        if (ev->target_name) {
            str_(&t, ev->target_name);
            PUT_LIT(&t, " (");
            hex_(&t, ev->target);
            PUT_LIT(&t, ")");
        } else {
            hex_(&t, ev->target);
        }
    }
    for (uint32_t i = 0; i < ev->nfields && i < EVT_MAX_FIELDS; i++) {
        const evt_field *f = &ev->fields[i];
        if (!f->key) continue;
        PUT_LIT(&t, "\t");
        str_(&t, f->key);
        PUT_LIT(&t, "=");
        if (f->is_str) str_(&t, f->str ? f->str : "");
        else if (f->is_signed) i64_(&t, (int64_t)f->num);
        else u64_(&t, f->num);
    }
    if (ev->nargs) {
        PUT_LIT(&t, "\targs=");
        for (uint32_t i = 0; i < ev->nargs && i < EVT_MAX_ARGS; i++) {
            if (i) PUT_LIT(&t, ",");
            hex_(&t, ev->args[i]);
        }
    }
    if (ev->data && ev->data_len) {
        if (ev->data_is_text) { /* at most 200 bytes, to the first NUL */
            PUT_LIT(&t, "\ttext=");
            const char *s = (const char *)ev->data;
            put_(&t, s, strnlen(s, ev->data_len > 200 ? 200 : ev->data_len));
        } else {
            PUT_LIT(&t, "\tdata=");
            u64_(&t, ev->data_len);
            PUT_LIT(&t, " bytes");
        }
    }
    if (t.k >= n && n > 4) memcpy(b + n - 4, "...", 4);
}
