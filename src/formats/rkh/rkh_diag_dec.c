/* The RKH reader's ordered diagnostics and the ledger that tells the recorder's declared losses
 * from damage (invariants D1-D6 in rkh_diag_dec.h). */
#include "formats/rkh/rkh_diag_dec.h"

#include <stdarg.h>
#include <stdio.h>

#include "evtrace/alloc.h"

enum {
    RKH_DIAG_ERR,    /* an error, reported when it reaches the head */
    RKH_DIAG_OK,     /* explained by loss records: dropped when it reaches the head */
    RKH_DIAG_PEND,   /* needs `need` more records of credit */
    RKH_DIAG_HOLD,   /* an aborted frame waiting for the next numbered frame (D4) */
    RKH_DIAG_LINKED  /* an aborted frame decided with gap item gap_id (D4) */
};

void rkh_diag_init(rkh_diag *d, evt_reader *r)
{
    d->r = r;
    d->q = NULL;
    d->head = d->n = d->cap = 0;
    d->head_id = d->hold_id = 0;
    d->credit = d->explained_gaps = d->explained_aborts = 0;
    d->hold = 0;
}

void rkh_diag_set_hold(rkh_diag *d, uint64_t bytes) { d->hold = bytes; }

static rkh_diag_item *at(rkh_diag *d, unsigned i) { return &d->q[(d->head + i) & (d->cap - 1u)]; }

static void report(rkh_diag *d, const rkh_diag_item *it) { evt_reader_error(d->r, it->off, "%s", it->msg); }

/* An error with nothing held before it: reported at once, its message from fmt. */
static void report_now(rkh_diag *d, uint64_t off, const char *fmt, va_list ap)
{
    char msg[RKH_DIAG_MSG];
    vsnprintf(msg, sizeof msg, fmt, ap);
    evt_reader_error(d->r, off, "%s", msg);
}

static void explained(rkh_diag *d, const rkh_diag_item *it)
{
    if (it->gap) d->explained_gaps++;
    else d->explained_aborts++;
}

/* The first held item that may be HOLD, and the mark that a numbered frame decided them all. */
static unsigned hold_start(const rkh_diag *d) { return d->hold_id > d->head_id ? (unsigned)(d->hold_id - d->head_id) : 0u; }
static void holds_decided(rkh_diag *d) { d->hold_id = d->head_id + d->n; }

/* The gap item a LINKED item is decided with (held after it). */
static rkh_diag_item *linked_gap(rkh_diag *d, const rkh_diag_item *it)
{
    return at(d, (unsigned)(it->gap_id - d->head_id));
}

/* The state a held item resolves to: ERR, OK, or PEND/HOLD while it cannot be decided yet. */
static uint8_t fate(rkh_diag *d, const rkh_diag_item *it)
{
    return it->st == RKH_DIAG_LINKED ? linked_gap(d, it)->st : it->st;
}

/* Report or drop the decided items at the head (D2). */
static void flush(rkh_diag *d)
{
    while (d->n) {
        rkh_diag_item *h = at(d, 0);
        uint8_t f = fate(d, h);
        if (f == RKH_DIAG_PEND || f == RKH_DIAG_HOLD) return;
        if (f == RKH_DIAG_ERR) report(d, h);
        else explained(d, h);
        d->head = (d->head + 1) & (d->cap - 1u);
        d->head_id++;
        d->n--;
    }
}

/* Credit pays held candidates oldest first (D3). */
static void pay(rkh_diag *d)
{
    for (unsigned i = 0; i < d->n && d->credit; i++) {
        rkh_diag_item *it = at(d, i);
        if (it->st != RKH_DIAG_PEND) continue;
        uint64_t p = it->need < d->credit ? it->need : d->credit;
        it->need -= p;
        d->credit -= p;
        if (!it->need) it->st = RKH_DIAG_OK;
    }
}

/* Decide the oldest undecided item as an error (D5), with the gap an aborted frame is linked to. */
static void force_oldest(rkh_diag *d)
{
    for (unsigned i = 0; i < d->n; i++) {
        rkh_diag_item *it = at(d, i);
        if (it->st == RKH_DIAG_PEND || it->st == RKH_DIAG_HOLD) { it->st = RKH_DIAG_ERR; return; }
        if (it->st == RKH_DIAG_LINKED) {
            rkh_diag_item *g = linked_gap(d, it);
            if (g->st == RKH_DIAG_PEND) g->st = RKH_DIAG_ERR;
            return;
        }
    }
}

/* Double the ring (its items keep their order, from q[0]); 0 when it is at RKH_DIAG_MAX or the
 * allocation failed (D5: the items held are the bound). */
static int grow(rkh_diag *d)
{
    unsigned cap = d->cap ? 2u * d->cap : 16u;
    if (cap > RKH_DIAG_MAX) return 0;
    rkh_diag_item *q = evt_malloc((size_t)cap * sizeof *q);
    if (!q) return 0;
    for (unsigned i = 0; i < d->n; i++) q[i] = *at(d, i);
    evt_free(d->q);
    d->q = q;
    d->cap = cap;
    d->head = 0;
    return 1;
}

/* Append an item; its message from fmt. */
static void push(rkh_diag *d, uint64_t off, uint8_t st, uint64_t need, int gap, const char *fmt, va_list ap)
{
    while (d->n == d->cap && !grow(d)) {
        if (!d->n) { /* nothing held and no room: decided now, as an error */
            report_now(d, off, fmt, ap);
            return;
        }
        force_oldest(d);
        flush(d);
    }
    rkh_diag_item *it = at(d, d->n++);
    it->off = off;
    it->st = st;
    it->need = need;
    it->gap = (uint8_t)gap;
    it->gap_id = 0;
    vsnprintf(it->msg, sizeof it->msg, fmt, ap);
}

void rkh_diag_progress_held(rkh_diag *d, uint64_t off)
{
    while (d->hold && d->n && at(d, 0)->off + d->hold < off) { /* the head is undecided (flush) */
        force_oldest(d);
        flush(d);
    }
}

void rkh_diag_error(rkh_diag *d, uint64_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (!d->n) {
        report_now(d, off, fmt, ap);
    } else {
        push(d, off, RKH_DIAG_ERR, 0, 0, fmt, ap);
    }
    va_end(ap);
}

void rkh_diag_gap(rkh_diag *d, uint64_t off, uint64_t missing, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    push(d, off, RKH_DIAG_PEND, missing, 1, fmt, ap);
    va_end(ap);
    uint64_t id = d->head_id + d->n - 1;
    for (unsigned i = hold_start(d); i + 1 < d->n; i++) {
        rkh_diag_item *it = at(d, i);
        if (it->st == RKH_DIAG_HOLD) { it->st = RKH_DIAG_LINKED; it->gap_id = id; }
    }
    holds_decided(d);
    pay(d);
    flush(d);
}

void rkh_diag_abort(rkh_diag *d, uint64_t off, int seq, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    push(d, off, seq ? RKH_DIAG_HOLD : RKH_DIAG_PEND, 1, 0, fmt, ap);
    va_end(ap);
    pay(d);
    flush(d);
}

void rkh_diag_seq_ok_held(rkh_diag *d)
{
    for (unsigned i = hold_start(d); i < d->n; i++)
        if (at(d, i)->st == RKH_DIAG_HOLD) at(d, i)->st = RKH_DIAG_OK;
    holds_decided(d);
    flush(d);
}

void rkh_diag_loss(rkh_diag *d, uint64_t records)
{
    d->credit += records;
    pay(d);
    flush(d);
}

void rkh_diag_settle(rkh_diag *d)
{
    for (unsigned i = hold_start(d); i < d->n; i++)
        if (at(d, i)->st == RKH_DIAG_HOLD) at(d, i)->st = RKH_DIAG_PEND;
    holds_decided(d);
    pay(d);
    flush(d);
}

void rkh_diag_end(rkh_diag *d)
{
    rkh_diag_settle(d);
    for (unsigned i = 0; i < d->n; i++)
        if (at(d, i)->st == RKH_DIAG_PEND) at(d, i)->st = RKH_DIAG_ERR;
    flush(d);
}

void rkh_diag_free(rkh_diag *d)
{
    evt_free(d->q);
    d->q = NULL;
    d->head = d->n = d->cap = 0;
}
