/* Stack usage per thread from stack-pointer samples (stack.h): the meaning block only. */
#include "host/analyses/stack.h"

#include <inttypes.h>
#include <string.h>
#include "host/analyses/an_util.h"
#include "evtrace/alloc.h"
#include "evtrace/json.h"

void evt_an_stack_init(evt_an_stack *s) { memset(s, 0, sizeof *s); }

/* The stack of a created thread, from its creating event's meaning (EVT_M_STACK). */
static void created_(evt_an_stack *s, const evt_event *ev)
{
    uint64_t start = ev->m.stack_start, size = ev->m.stack_size;
    uint32_t k;
    if (!(ev->m.has & EVT_M_STACK)) return;
    if (!evt_u64map_get(&s->created, ev->target, &k)) {
        k = s->ncstk;
        if (!evt_an_reserve((void **)&s->cstk, &s->cstkcap, k, sizeof *s->cstk) ||
            !evt_u64map_put(&s->created, ev->target, k)) { s->oom = 1; return; }
        s->ncstk++;
    }
    s->cstk[k][0] = start;
    s->cstk[k][1] = size;
}

void evt_an_stack_event(evt_an_stack *s, const evt_tl *tl, const evt_event *ev, uint32_t ctx)
{
    int create = ev->kind == EVT_KIND_OBJ_CREATE && (ev->flags & EVT_HAS_TARGET);
    if (create) created_(s, ev);
    if (ctx == EVT_TL_NONE || ev->ctx_class != EVT_CTX_THREAD || !(ev->m.has & EVT_M_SP)) return;
    /* the sample, and the sampled context's stack when the event says it */
    uint64_t sp = ev->m.sp, start = ev->m.stack_start, size = ev->m.stack_size;
    int has_stack = !create && (ev->m.has & EVT_M_STACK) ? 3 : 0;
    if (!evt_an_reserve((void **)&s->thr, &s->thrcap, ctx, sizeof *s->thr)) { s->oom = 1; return; }
    if (ctx >= s->nthr) s->nthr = ctx + 1;
    evt_an_stack_thr *t = &s->thr[ctx];
    if (has_stack == 3) {
        t->has_stack = 1;
        t->start = start;
        t->size = size;
    } else if (!t->has_stack) {
        uint32_t k;
        const evt_tl_ctx *c = evt_tl_ctx_at(tl, ctx);
        if (c && c->has_id && evt_u64map_get(&s->created, c->id, &k)) {
            t->has_stack = 1;
            t->start = s->cstk[k][0];
            t->size = s->cstk[k][1];
        }
    }
    t->samples++;
    if (t->has_stack && (sp < t->start || sp > t->start + t->size)) { t->out_of_range++; return; }
    uint64_t n = t->samples - t->out_of_range;
    if (n == 1 || sp < t->min_sp) { t->min_sp = sp; t->min_t = evt_tl_time(tl, ev); }
    if (n == 1 || sp > t->max_sp) t->max_sp = sp;
}

static uint64_t used_of(const evt_an_stack_thr *t)
{
    return t->has_stack && t->samples > t->out_of_range ? t->start + t->size - t->min_sp : 0;
}

void evt_an_stack_json(const evt_an_stack *s, const evt_tl *tl, evt_json *j)
{
    evt_json_arr_begin(j);
    for (uint32_t c = 0; c < s->nthr; c++) {
        const evt_an_stack_thr *t = &s->thr[c];
        if (!t->samples) continue;
        int in = t->samples > t->out_of_range;
        evt_json_obj_begin(j);
        evt_an_ctx_keys(tl, c, j);
        evt_json_key(j, "stack_start");
        if (t->has_stack) evt_json_u64(j, t->start); else evt_json_null(j);
        evt_json_key(j, "stack_size");
        if (t->has_stack) evt_json_u64(j, t->size); else evt_json_null(j);
        evt_json_ku64(j, "samples", t->samples);
        evt_json_ku64(j, "out_of_range", t->out_of_range);
        evt_json_key(j, "min_sp");
        if (in) evt_json_u64(j, t->min_sp); else evt_json_null(j);
        evt_json_key(j, "max_sp");
        if (in) evt_json_u64(j, t->max_sp); else evt_json_null(j);
        evt_json_key(j, "max_used");
        if (t->has_stack && in) evt_json_u64(j, used_of(t)); else evt_json_null(j);
        evt_json_key(j, "used_pct");
        if (t->has_stack && in && t->size) evt_json_f64(j, evt_an_pct(used_of(t), t->size)); else evt_json_null(j);
        if (in) evt_json_ku64(j, "max_used_t", t->min_t);
        evt_json_obj_end(j);
    }
    evt_json_arr_end(j);
}

void evt_an_stack_text(const evt_an_stack *s, const evt_tl *tl, FILE *out)
{
    char b[96];
    uint64_t rows = 0;
    fprintf(out, "Stacks (from stack-pointer samples: a lower bound)\n");
    for (uint32_t c = 0; c < s->nthr; c++) {
        const evt_an_stack_thr *t = &s->thr[c];
        if (!t->samples || rows++ >= EVT_AN_TEXT_ROWS) continue;
        if (t->has_stack && t->samples > t->out_of_range)
            fprintf(out, "  %-32s %6" PRIu64 " of %6" PRIu64 " bytes used (%5.1f%%), %" PRIu64 " samples%s\n",
                    evt_an_ctx_label(tl, c, b, sizeof b), used_of(t), t->size, evt_an_pct(used_of(t), t->size),
                    t->samples, t->out_of_range ? ", some out of range" : "");
        else
            fprintf(out, "  %-32s %" PRIu64 " samples, stack %s\n", evt_an_ctx_label(tl, c, b, sizeof b), t->samples,
                    t->has_stack ? "never sampled inside" : "unknown");
    }
    evt_an_text_more(out, rows > EVT_AN_TEXT_ROWS ? rows - EVT_AN_TEXT_ROWS : 0);
}

void evt_an_stack_free(evt_an_stack *s)
{
    evt_free(s->thr);
    evt_free(s->cstk);
    evt_u64map_free(&s->created);
    memset(s, 0, sizeof *s);
}
