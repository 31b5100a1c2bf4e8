/* Response times per task instance and per ISR (response.h). */
#include "host/analyses/response.h"

#include <inttypes.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/json.h"

void evt_an_resp_init(evt_an_resp *r) { memset(r, 0, sizeof *r); }

static void measure(evt_hist *h, evt_an_worst *w, uint64_t t0, uint64_t d, int *oom)
{
    if (!evt_hist_add(h, d)) *oom = 1;
    evt_an_worst_add(w, d, t0);
}

void evt_an_resp_state(evt_an_resp *r, const evt_tl_state_iv *iv)
{
    if (!evt_an_reserve((void **)&r->task, &r->taskcap, iv->ctx, sizeof *r->task)) { r->oom = 1; return; }
    if (iv->ctx >= r->ntask) r->ntask = iv->ctx + 1;
    evt_an_resp_task *t = &r->task[iv->ctx];
    switch (iv->state) {
    case EVT_TL_READY: /* after running it is a preemption, inside the instance */
        if (!t->open && !(t->has_last && t->last == EVT_TL_RUNNING)) { t->open = 1; t->t0 = iv->t0; }
        break;
    case EVT_TL_RUNNING:
        break;
    case EVT_TL_BLOCKED: case EVT_TL_SUSPENDED: case EVT_TL_TERMINATED:
        if (t->open) {
            if (!t->measured) { evt_hist_init(&t->h); t->measured = 1; }
            measure(&t->h, &t->worst, t->t0, iv->t0 - t->t0, &r->oom);
            t->open = 0;
        }
        /* woken at the end of the wait: the next instance starts (ready, or running at once) */
        if (!iv->open_end && iv->state != EVT_TL_TERMINATED) { t->open = 1; t->t0 = iv->t1; }
        break;
    default: /* unknown: data lost, the instance cannot be measured */
        if (t->open) { t->cut++; t->open = 0; }
        break;
    }
    t->has_last = 1;
    t->last = iv->state;
}

void evt_an_resp_isr(evt_an_resp *r, const evt_tl_isr *iv)
{
    const char *name = iv->name ? iv->name : "ISR";
    uint32_t label = evt_strtab_intern(&r->labels, name, strlen(name), NULL);
    if (!label) { r->oom = 1; return; }
    uint64_t key = iv->has_irq ? (iv->irq & ~(1ull << 63)) : (1ull << 63 | label);
    uint32_t k;
    if (!evt_u64map_get(&r->isrmap, key, &k)) {
        k = r->nisr;
        if (!evt_an_reserve((void **)&r->isr, &r->isrcap, k, sizeof *r->isr) || !evt_u64map_put(&r->isrmap, key, k)) {
            r->oom = 1;
            return;
        }
        r->nisr++;
        evt_an_resp_irq *n = &r->isr[k];
        n->irq = iv->irq;
        n->has_irq = iv->has_irq;
        n->label = label;
        evt_hist_init(&n->h);
    }
    evt_an_resp_irq *s = &r->isr[k];
    if (iv->truncated || iv->open_end) s->cut++;
    else measure(&s->h, &s->worst, iv->t0, iv->t1 - iv->t0, &r->oom);
}

static void hist_keys(evt_hist *h, evt_json *j)
{
    evt_json_ku64(j, "count", h->count);
    evt_json_ku64(j, "min", h->count ? h->min : 0);
    evt_json_ku64(j, "p50", evt_hist_pct(h, 0.50));
    evt_json_ku64(j, "p90", evt_hist_pct(h, 0.90));
    evt_json_ku64(j, "p99", evt_hist_pct(h, 0.99));
    evt_json_ku64(j, "max", h->max);
    evt_json_ku64(j, "sum", h->sum);
    evt_json_kbool(j, "exact", evt_hist_is_exact(h));
}

void evt_an_resp_json(evt_an_resp *r, const evt_tl *tl, evt_json *j)
{
    evt_json_obj_begin(j);
    evt_json_kstr(j, "unit", evt_an_unit(tl));
    evt_json_key(j, "tasks");
    evt_json_arr_begin(j);
    for (uint32_t c = 0; c < r->ntask; c++) {
        evt_an_resp_task *t = &r->task[c];
        if (!t->measured && !t->cut) continue;
        if (!t->measured) { evt_hist_init(&t->h); t->measured = 1; }
        evt_json_obj_begin(j);
        evt_an_ctx_keys(tl, c, j);
        hist_keys(&t->h, j);
        evt_json_ku64(j, "cut", t->cut);
        evt_json_key(j, "worst");
        evt_an_worst_json(&t->worst, j);
        evt_json_obj_end(j);
    }
    evt_json_arr_end(j);
    evt_json_key(j, "isrs");
    evt_json_arr_begin(j);
    for (uint32_t i = 0; i < r->nisr; i++) {
        evt_an_resp_irq *s = &r->isr[i];
        evt_json_obj_begin(j);
        evt_json_kstr(j, "name", evt_strtab_str(&r->labels, s->label));
        evt_json_key(j, "irq");
        if (s->has_irq) evt_json_u64(j, s->irq); else evt_json_null(j);
        hist_keys(&s->h, j);
        evt_json_ku64(j, "cut", s->cut);
        evt_json_key(j, "worst");
        evt_an_worst_json(&s->worst, j);
        evt_json_obj_end(j);
    }
    evt_json_arr_end(j);
    evt_json_obj_end(j);
}

static void hist_line(FILE *out, const char *name, evt_hist *h, const evt_an_worst *w)
{
    fprintf(out, "  %-32s %8" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64, name,
            h->count, h->count ? h->min : 0, evt_hist_pct(h, 0.5), evt_hist_pct(h, 0.9), evt_hist_pct(h, 0.99), h->max);
    if (w->n) fprintf(out, "  worst at %" PRIu64, w->t[0]);
    fputc('\n', out);
}

void evt_an_resp_text(evt_an_resp *r, const evt_tl *tl, FILE *out)
{
    char b[96];
    fprintf(out, "Response times (%s)                  count        min        p50        p90        p99        max\n",
            evt_an_unit(tl));
    uint64_t rows = 0;
    for (uint32_t c = 0; c < r->ntask; c++)
        if (r->task[c].measured && rows++ < EVT_AN_TEXT_ROWS)
            hist_line(out, evt_an_ctx_label(tl, c, b, sizeof b), &r->task[c].h, &r->task[c].worst);
    for (uint32_t i = 0; i < r->nisr; i++)
        if (r->isr[i].h.count && rows++ < EVT_AN_TEXT_ROWS)
            hist_line(out, evt_strtab_str(&r->labels, r->isr[i].label), &r->isr[i].h, &r->isr[i].worst);
    evt_an_text_more(out, rows > EVT_AN_TEXT_ROWS ? rows - EVT_AN_TEXT_ROWS : 0);
}

void evt_an_resp_free(evt_an_resp *r)
{
    for (uint32_t c = 0; c < r->ntask; c++)
        if (r->task[c].measured) evt_hist_free(&r->task[c].h);
    for (uint32_t i = 0; i < r->nisr; i++) evt_hist_free(&r->isr[i].h);
    evt_free(r->task);
    evt_free(r->isr);
    evt_u64map_free(&r->isrmap);
    evt_strtab_free(&r->labels);
    memset(r, 0, sizeof *r);
}
