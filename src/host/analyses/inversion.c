/* Priority inversions (inversion.h). */
#include "host/analyses/inversion.h"

#include <inttypes.h>
#include <string.h>
#include "host/analyses/an_util.h"
#include "host/analyses/analyses.h"
#include "evtrace/alloc.h"
#include "evtrace/json.h"

void evt_an_inv_init(evt_an_inversion *v, int order)
{
    memset(v, 0, sizeof *v);
    if (order != EVT_AN_PRIO_AUTO) {
        v->order_set = v->order_fixed = 1;
        v->lower_wins = order == EVT_AN_PRIO_LOWER_WINS;
    }
}

/* The event's object operation when it is one (the meaning block), else EVT_OP_NONE. */
static evt_obj_op op_of(const evt_event *ev) { return (ev->m.has & EVT_M_OP) ? (evt_obj_op)ev->m.op : EVT_OP_NONE; }

/* a is a strictly higher priority than b */
static int higher(const evt_an_inversion *v, uint64_t a, uint64_t b) { return v->lower_wins ? a < b : a > b; }

/* Priority of a context as given, not as inherited (the timeline keeps it: its base priority, else
 * the latest: the meaning's ctx_prio, else the priority word). An inversion is between the
 * priorities the application gave: a holder raised by inheritance is still the lower one. */
static int prio_at(const evt_tl *tl, uint32_t c, uint64_t *p)
{
    const evt_tl_ctx *x = evt_tl_ctx_at(tl, c);
    if (!x) return 0;
    if (x->has_base_prio) { *p = x->base_prio; return 1; }
    if (!x->has_prio) return 0;
    *p = x->prio;
    return 1;
}

static uint32_t ctx_index(const evt_tl *tl, uint64_t id)
{
    uint32_t i;
    return evt_u64map_get(&tl->ctxmap, id, &i) ? i : EVT_TL_NONE;
}

/* Slot of a mutex in holders (created free); UINT32_MAX when out of memory. */
static uint32_t holder_slot(evt_an_inversion *v, uint64_t mutex)
{
    uint32_t k;
    if (evt_u64map_get(&v->holder, mutex, &k)) return k;
    k = v->nholders;
    if (!evt_an_reserve((void **)&v->holders, &v->holdcap, k, sizeof *v->holders) || !evt_u64map_put(&v->holder, mutex, k)) {
        v->oom = 1;
        return UINT32_MAX;
    }
    v->nholders++;
    return k;
}

static void drop_cand(evt_an_inversion *v, uint32_t i) { v->cand[i] = v->cand[--v->ncand]; }

/* Context `high` (index) waits on mutex `mutex` held by the context with id holder: a candidate
 * when the holder's priority is lower. */
static void candidate(evt_an_inversion *v, const evt_tl *tl, const evt_event *ev, uint32_t high, uint64_t mutex,
                      uint64_t holder)
{
    uint64_t ph, pl;
    uint32_t low = ctx_index(tl, holder);
    if (!prio_at(tl, high, &ph) || !prio_at(tl, low, &pl)) { v->unknown_prio++; return; }
    if (!higher(v, ph, pl)) return; /* an ordinary wait */
    uint32_t obj;
    if (!evt_u64map_get(&tl->objmap, mutex, &obj)) obj = EVT_TL_NONE;
    if (!evt_an_reserve((void **)&v->cand, &v->candcap, v->ncand, sizeof *v->cand)) { v->oom = 1; return; }
    evt_an_inv_cand *c = &v->cand[v->ncand++];
    memset(c, 0, sizeof *c);
    c->high = high;
    c->obj = obj;
    c->mutex_id = mutex;
    c->low_id = holder;
    c->low = low;
    c->t_get = evt_tl_time(tl, ev);
    c->prio_high = ph;
    c->prio_low = pl;
}

/* A context stops, blocked on an object (EVT_M_BLOCKED_ON: kernels that record the acquire when it
 * completes name the mutex on the switch instead): a wait on a held mutex. */
static void blocked_on(evt_an_inversion *v, const evt_tl *tl, const evt_event *ev, uint32_t ctx)
{
    uint32_t slot, high = ctx;
    if (!evt_u64map_get(&v->holder, ev->m.obj, &slot) || !v->holders[slot]) return; /* not a held mutex */
    if (ev->flags & EVT_HAS_TARGET) high = ctx_index(tl, ev->target);
    const evt_tl_ctx *h = evt_tl_ctx_at(tl, high);
    if (!h || !h->has_id || v->holders[slot] == h->id + 1) return;
    for (uint32_t i = 0; i < v->ncand; i++)
        if (v->cand[i].high == high) {
            if (v->cand[i].mutex_id == ev->m.obj) return; /* its acquire started this wait */
            drop_cand(v, i);
            break;
        }
    candidate(v, tl, ev, high, ev->m.obj, v->holders[slot] - 1);
}

void evt_an_inv_event(evt_an_inversion *v, const evt_tl *tl, const evt_event *ev, uint32_t ctx)
{
    if (!v->order_fixed) { /* the trace's own order (its kernel profile, known by now, or --priority-order) */
        v->order_set = 1;
        v->lower_wins = !tl->higher_prio_wins;
    }
    if (op_of(ev) == EVT_OP_INHERIT || (ev->m.has & EVT_M_INHERIT)) v->inherits++;
    if (ev->kind == EVT_KIND_THREAD_STOP && (ev->m.has & EVT_M_BLOCKED_ON)) { blocked_on(v, tl, ev, ctx); return; }
    if (ev->kind != EVT_KIND_SVC && ev->kind != EVT_KIND_SVC_ENTER) return; /* acquires and releases are calls */
    int acq = op_of(ev) == EVT_OP_ACQUIRE, rel = op_of(ev) == EVT_OP_RELEASE;
    if ((!acq && !rel) || !(ev->flags & EVT_HAS_CTX)) return;
    uint32_t slot = holder_slot(v, ev->m.obj);
    if (slot == UINT32_MAX) return;
    uint64_t *held = &v->holders[slot];
    if (rel) { /* the recorded ownership count is the one before the put */
        if (!(ev->m.has & EVT_M_OWNER) || ev->m.owner_count <= 1) *held = 0;
        return;
    }
    if (ev->m.has & EVT_M_OWNER) *held = ev->m.owner ? ev->m.owner + 1 : 0;
    if (*held == 0 || *held == ev->ctx + 1) { *held = ev->ctx + 1; return; }
    /* held by another context: this one will wait */
    for (uint32_t i = 0; i < v->ncand; i++)
        if (v->cand[i].high == ctx) { drop_cand(v, i); break; }
    candidate(v, tl, ev, ctx, ev->m.obj, *held - 1);
}

/* Time context k of the middle list ran while the holder was ready. */
static uint64_t mid_overlap(const evt_an_inv_cand *c, uint32_t i)
{
    if (c->low == EVT_TL_NONE) return c->mid_iv[i][1] - c->mid_iv[i][0]; /* holder unknown: all of it */
    uint64_t d = 0;
    for (uint32_t k = 0; k < c->nready; k++)
        d += evt_an_overlap(c->mid_iv[i][0], c->mid_iv[i][1], c->low_ready[k][0], c->low_ready[k][1]);
    return d;
}

/* Append a copy of r to one of the instance lists (bounded at EVT_AN_MAX_INVERSIONS). */
static evt_an_inv *keep_inv(evt_an_inversion *v, evt_an_inv **list, uint32_t *n, uint32_t *cap)
{
    if (*n >= EVT_AN_MAX_INVERSIONS) return NULL;
    if (!evt_an_reserve((void **)list, cap, *n, sizeof **list)) { v->oom = 1; return NULL; }
    evt_an_inv *r = &(*list)[(*n)++];
    memset(r, 0, sizeof *r);
    return r;
}

static void finalize(evt_an_inversion *v, const evt_tl *tl, const evt_an_inv_cand *c, const evt_tl_state_iv *iv)
{
    v->waits++;
    evt_an_inv *bw = keep_inv(v, &v->blist, &v->nblist, &v->blistcap);
    if (bw) { /* the bounded instance: who waited on whom, how long */
        bw->t0 = iv->t0;
        bw->t1 = iv->t1;
        bw->high = c->high;
        bw->low = c->low;
        bw->low_id = c->low_id;
        bw->mid = EVT_TL_NONE;
        bw->prio_high = c->prio_high;
        bw->prio_low = c->prio_low;
        bw->obj = c->obj;
    }
    uint64_t total = 0, best = 0;
    uint32_t mid = EVT_TL_NONE;
    for (uint32_t i = 0; i < c->nmid; i++) {
        uint64_t d = mid_overlap(c, i), per = 0;
        if (!d) continue;
        total += d;
        for (uint32_t k = 0; k < c->nmid; k++)
            if (c->mid_ctx[k] == c->mid_ctx[i]) per += mid_overlap(c, k);
        if (per > best) { best = per; mid = c->mid_ctx[i]; }
    }
    if (!total) return;
    v->count++;
    evt_an_inv *r = keep_inv(v, &v->list, &v->nlist, &v->listcap);
    if (!r) return;
    r->t0 = iv->t0;
    r->t1 = iv->t1;
    r->high = c->high;
    r->low = c->low;
    r->low_id = c->low_id;
    r->mid = mid;
    r->prio_high = c->prio_high;
    r->prio_low = c->prio_low;
    prio_at(tl, r->mid, &r->prio_mid);
    r->mid_time = total;
    r->obj = c->obj;
}

static void keep_iv(evt_an_inversion *v, uint64_t (*ivs)[2], uint32_t *n, uint32_t *ctxs, uint32_t ctx,
                    uint64_t t0, uint64_t t1)
{
    if (*n == EVT_AN_INV_IVS) { v->truncated++; return; }
    if (ctxs) ctxs[*n] = ctx;
    ivs[*n][0] = t0;
    ivs[*n][1] = t1;
    (*n)++;
}

void evt_an_inv_state(evt_an_inversion *v, const evt_tl *tl, const evt_tl_state_iv *iv)
{
    for (uint32_t i = 0; i < v->ncand; i++) {
        evt_an_inv_cand *c = &v->cand[i];
        if (c->high != iv->ctx) continue;
        if (iv->state == EVT_TL_BLOCKED && iv->obj == c->obj) {
            finalize(v, tl, c, iv);
            /* the woken waiter holds the mutex now */
            uint32_t slot = iv->open_end ? UINT32_MAX : holder_slot(v, c->mutex_id);
            const evt_tl_ctx *h = evt_tl_ctx_at(tl, iv->ctx);
            if (slot != UINT32_MAX && h && h->has_id) v->holders[slot] = h->id + 1;
            drop_cand(v, i);
        } else if (iv->state != EVT_TL_RUNNING && iv->t0 >= c->t_get) {
            drop_cand(v, i); /* it waited on something else, or never waited */
        }
        break; /* one candidate per context */
    }
    if (iv->state == EVT_TL_READY) {
        for (uint32_t i = 0; i < v->ncand; i++) {
            evt_an_inv_cand *c = &v->cand[i];
            if (c->low == iv->ctx && iv->t1 > c->t_get)
                keep_iv(v, c->low_ready, &c->nready, NULL, 0, iv->t0 > c->t_get ? iv->t0 : c->t_get, iv->t1);
        }
        return;
    }
    if (iv->state != EVT_TL_RUNNING) return;
    uint64_t px;
    if (!prio_at(tl, iv->ctx, &px)) return;
    for (uint32_t i = 0; i < v->ncand; i++) {
        evt_an_inv_cand *c = &v->cand[i];
        if (c->high == iv->ctx || c->low == iv->ctx || iv->t1 <= c->t_get) continue;
        if (!higher(v, px, c->prio_low) || !higher(v, c->prio_high, px)) continue;
        keep_iv(v, c->mid_iv, &c->nmid, c->mid_ctx, iv->ctx, iv->t0 > c->t_get ? iv->t0 : c->t_get, iv->t1);
    }
}

static void ctx_json(const evt_tl *tl, evt_json *j, const char *key, uint32_t c, uint64_t id, uint64_t prio)
{
    evt_json_key(j, key);
    evt_json_obj_begin(j);
    if (c != EVT_TL_NONE) evt_an_ctx_keys(tl, c, j);
    else evt_json_ku64(j, "id", id);
    evt_json_ku64(j, "priority", prio);
    evt_json_obj_end(j);
}

/* The members every inversion object starts with: when, how long, the mutex, the two contexts. */
static void inv_json_head(const evt_tl *tl, evt_json *j, const evt_an_inv *r)
{
    char b[96];
    evt_json_ku64(j, "start", r->t0);
    evt_json_ku64(j, "duration", r->t1 - r->t0);
    evt_json_kstr(j, "mutex", evt_an_obj_label(tl, r->obj, b, sizeof b));
    ctx_json(tl, j, "high", r->high, 0, r->prio_high);
    ctx_json(tl, j, "low", r->low, r->low_id, r->prio_low);
}

void evt_an_inv_json(const evt_an_inversion *v, const evt_tl *tl, evt_json *j)
{
    evt_json_obj_begin(j);
    evt_json_kstr(j, "unit", evt_an_unit(tl));
    int lower = v->order_fixed || v->order_set ? v->lower_wins : !tl->higher_prio_wins;
    evt_json_kstr(j, "priority_order", lower ? "lower_wins" : "higher_wins");
    evt_json_ku64(j, "count", v->count);
    evt_json_ku64(j, "waits", v->waits);
    evt_json_ku64(j, "unknown_priority", v->unknown_prio);
    evt_json_ku64(j, "truncated", v->truncated);
    evt_json_ku64(j, "bounded", v->waits);     /* every wait of a higher on a lower holder */
    evt_json_ku64(j, "unbounded", v->count);   /* those during which a middle context ran */
    evt_json_ku64(j, "inheritances", v->inherits);
    evt_json_key(j, "bounded_list");
    evt_json_arr_begin(j);
    for (uint32_t i = 0; i < v->nblist; i++) {
        evt_json_obj_begin(j);
        inv_json_head(tl, j, &v->blist[i]);
        evt_json_obj_end(j);
    }
    evt_json_arr_end(j);
    evt_json_key(j, "list");
    evt_json_arr_begin(j);
    for (uint32_t i = 0; i < v->nlist; i++) {
        const evt_an_inv *r = &v->list[i];
        evt_json_obj_begin(j);
        inv_json_head(tl, j, r);
        ctx_json(tl, j, "middle", r->mid, 0, r->prio_mid);
        evt_json_ku64(j, "middle_time", r->mid_time);
        evt_json_obj_end(j);
    }
    evt_json_arr_end(j);
    evt_json_obj_end(j);
}

void evt_an_inv_text(const evt_an_inversion *v, const evt_tl *tl, FILE *out)
{
    char bh[96], bl[96], bm[96], bo[96];
    fprintf(out, "Priority inversions: %" PRIu64 " unbounded (a middle priority ran) of %" PRIu64
                 " bounded (waits on a mutex held by a lower priority); %" PRIu64 " inheritance(s) recorded\n",
            v->count, v->waits, v->inherits);
    for (uint32_t i = 0; i < v->nlist && i < 10; i++) {
        const evt_an_inv *r = &v->list[i];
        fprintf(out, "  at %" PRIu64 " for %" PRIu64 " %s: %s waits on %s held by %s while %s runs %" PRIu64 "\n",
                r->t0, r->t1 - r->t0, evt_an_unit(tl), evt_an_ctx_label(tl, r->high, bh, sizeof bh),
                evt_an_obj_label(tl, r->obj, bo, sizeof bo), evt_an_ctx_label(tl, r->low, bl, sizeof bl),
                evt_an_ctx_label(tl, r->mid, bm, sizeof bm), r->mid_time);
    }
}

void evt_an_inv_free(evt_an_inversion *v)
{
    evt_u64map_free(&v->holder);
    evt_free(v->holders);
    evt_free(v->blist);
    evt_free(v->cand);
    evt_free(v->list);
    memset(v, 0, sizeof *v);
}
