/* Kernel-object counters, waiters and flows (objhist.h). */
#include "host/analyses/objhist.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "host/analyses/an_util.h"
#include "evtrace/alloc.h"
#include "evtrace/json.h"

void evt_an_obj_init(evt_an_objhist *o) { memset(o, 0, sizeof *o); }

void evt_an_obj_counter(evt_an_objhist *o, const evt_tl_counter *c)
{
    const char *nm = c->name ? c->name : "value";
    /* the counters' few names recur, at the same addresses (mostly evt_level_name's literals): the
     * string table's recent cache finds them by address before they are looked up (hashed) */
    uint32_t name = evt_strtab_recent_cstr(&o->names, nm, SIZE_MAX);
    if (!name && !(name = evt_strtab_intern(&o->names, nm, strlen(nm), NULL))) { o->oom = 1; return; }
    uint64_t key = (uint64_t)c->obj << 32 | name;
    uint32_t k;
    if (!evt_u64map_get(&o->seriesmap, key, &k)) {
        k = o->nseries;
        if (!evt_an_reserve((void **)&o->series, &o->seriescap, k, sizeof *o->series) ||
            !evt_u64map_put(&o->seriesmap, key, k)) { o->oom = 1; return; }
        o->nseries++;
        o->series[k].obj = c->obj;
        o->series[k].name = name;
        o->series[k].min = UINT64_MAX;
    }
    evt_an_series *s = &o->series[k];
    s->count++;
    if (c->value < s->min) s->min = c->value;
    if (c->value > s->max) s->max = c->value;
    s->last = c->value;
    s->last_t = c->t;
    if (s->nhist < EVT_AN_OBJ_SAMPLES) {
        if (!s->hist && !(s->hist = evt_malloc(EVT_AN_OBJ_SAMPLES * sizeof *s->hist))) { o->oom = 1; return; }
        s->hist[s->nhist][0] = c->t;
        s->hist[s->nhist][1] = c->value;
        s->nhist++;
    }
}

void evt_an_obj_state(evt_an_objhist *o, const evt_tl_state_iv *iv)
{
    if (iv->state != EVT_TL_BLOCKED || iv->obj == EVT_TL_NONE) return;
    if (!evt_an_reserve((void **)&o->waits, &o->waitcap, iv->obj, sizeof *o->waits)) { o->oom = 1; return; }
    if (iv->obj >= o->nwaits) o->nwaits = iv->obj + 1;
    evt_an_waits *w = &o->waits[iv->obj];
    uint64_t d = iv->t1 - iv->t0;
    w->count++;
    w->total += d;
    if (d > w->max) w->max = d;
    if (w->niv < EVT_AN_OBJ_WAITS) {
        if (!evt_an_reserve((void **)&w->iv, &w->ivcap, w->niv, sizeof *w->iv)) { o->oom = 1; return; }
        w->iv[w->niv][0] = iv->t0;
        w->iv[w->niv][1] = iv->t1;
        w->niv++;
    }
}

void evt_an_obj_flow(evt_an_objhist *o, const evt_tl_flow *f)
{
    const char *kn = f->kind ? f->kind : "flow";
    uint32_t kind = evt_strtab_intern(&o->names, kn, strlen(kn), NULL);
    if (!kind) { o->oom = 1; return; }
    uint64_t key = (uint64_t)f->from_ctx << 32 | f->to_ctx;
    uint32_t k = UINT32_MAX, first = UINT32_MAX;
    if (evt_u64map_get(&o->flowmap, key, &first))
        for (k = first; k != UINT32_MAX; k = o->flows[k].next)
            if (o->flows[k].obj == f->obj && o->flows[k].kind == kind) break;
    if (k == UINT32_MAX) {
        k = o->nflows;
        if (!evt_an_reserve((void **)&o->flows, &o->flowcap, k, sizeof *o->flows) || !evt_u64map_put(&o->flowmap, key, k)) {
            o->oom = 1;
            return;
        }
        o->nflows++;
        evt_an_flowagg *n = &o->flows[k];
        n->from = f->from_ctx;
        n->to = f->to_ctx;
        n->obj = f->obj;
        n->kind = kind;
        n->min = UINT64_MAX;
        n->next = first; /* new entries head the chain */
    }
    evt_an_flowagg *a = &o->flows[k];
    uint64_t d = f->t1 >= f->t0 ? f->t1 - f->t0 : 0;
    a->count++;
    a->sum += d;
    if (d < a->min) a->min = d;
    if (d > a->max) a->max = d;
}

static int cmp_t(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Most waits open at once: a sweep over the kept waits (ends before starts at equal times). */
static uint64_t max_waiters(const evt_an_waits *w)
{
    if (!w->niv) return 0;
    uint64_t *ev = evt_malloc((size_t)w->niv * 2 * sizeof *ev);
    if (!ev) return 0;
    for (uint32_t i = 0; i < w->niv; i++) {
        ev[2 * i] = w->iv[i][0] << 1 | 1;   /* start */
        ev[2 * i + 1] = w->iv[i][1] << 1;   /* end */
    }
    qsort(ev, (size_t)w->niv * 2, sizeof *ev, cmp_t);
    uint64_t cur = 0, best = 0;
    for (uint32_t i = 0; i < w->niv * 2; i++) {
        if (ev[i] & 1) { if (++cur > best) best = cur; }
        else if (cur) cur--;
    }
    evt_free(ev);
    return best;
}

static void obj_keys(const evt_tl *tl, uint32_t obj, evt_json *j)
{
    char b[96];
    const evt_tl_obj *x = evt_tl_obj_at(tl, obj);
    evt_json_kstr(j, "name", evt_an_obj_label(tl, obj, b, sizeof b));
    evt_json_kstr(j, "type", x ? x->type : NULL);
    if (x) evt_json_ku64(j, "id", x->id);
}

void evt_an_obj_json(const evt_an_objhist *o, const evt_tl *tl, evt_json *j)
{
    evt_json_arr_begin(j);
    for (uint32_t obj = 0; obj < tl->nobj; obj++) {
        int any = obj < o->nwaits && o->waits[obj].count;
        for (uint32_t s = 0; !any && s < o->nseries; s++) any = o->series[s].obj == obj;
        if (!any) continue;
        evt_json_obj_begin(j);
        obj_keys(tl, obj, j);
        evt_json_key(j, "counters");
        evt_json_arr_begin(j);
        for (uint32_t s = 0; s < o->nseries; s++) {
            const evt_an_series *x = &o->series[s];
            if (x->obj != obj) continue;
            evt_json_obj_begin(j);
            evt_json_kstr(j, "name", evt_strtab_str(&o->names, x->name));
            evt_json_ku64(j, "samples", x->count);
            evt_json_ku64(j, "min", x->min);
            evt_json_ku64(j, "max", x->max);
            evt_json_ku64(j, "last", x->last);
            evt_json_key(j, "history");
            evt_json_arr_begin(j);
            for (uint32_t i = 0; i < x->nhist; i++) {
                evt_json_arr_begin(j);
                evt_json_u64(j, x->hist[i][0]);
                evt_json_u64(j, x->hist[i][1]);
                evt_json_arr_end(j);
            }
            evt_json_arr_end(j);
            evt_json_ku64(j, "history_dropped", x->count - x->nhist);
            evt_json_obj_end(j);
        }
        evt_json_arr_end(j);
        const evt_an_waits *w = obj < o->nwaits ? &o->waits[obj] : NULL;
        evt_json_key(j, "waits");
        evt_json_obj_begin(j);
        evt_json_ku64(j, "count", w ? w->count : 0);
        evt_json_ku64(j, "total", w ? w->total : 0);
        evt_json_ku64(j, "max", w ? w->max : 0);
        evt_json_ku64(j, "max_waiters", w ? max_waiters(w) : 0);
        evt_json_kbool(j, "max_waiters_partial", w && w->count > w->niv);
        evt_json_obj_end(j);
        evt_json_obj_end(j);
    }
    evt_json_arr_end(j);
}

void evt_an_flow_json(const evt_an_objhist *o, const evt_tl *tl, evt_json *j)
{
    char b[96];
    evt_json_arr_begin(j);
    for (uint32_t i = 0; i < o->nflows; i++) {
        const evt_an_flowagg *a = &o->flows[i];
        evt_json_obj_begin(j);
        evt_json_kstr(j, "kind", evt_strtab_str(&o->names, a->kind));
        evt_json_kstr(j, "from", evt_an_ctx_label(tl, a->from, b, sizeof b));
        evt_json_kstr(j, "to", evt_an_ctx_label(tl, a->to, b, sizeof b));
        evt_json_key(j, "object");
        if (a->obj == EVT_TL_NONE) evt_json_null(j); else evt_json_str(j, evt_an_obj_label(tl, a->obj, b, sizeof b));
        evt_json_ku64(j, "count", a->count);
        evt_json_ku64(j, "min", a->min);
        evt_json_ku64(j, "max", a->max);
        evt_json_ku64(j, "sum", a->sum);
        evt_json_obj_end(j);
    }
    evt_json_arr_end(j);
}

static const char *obj_id_(const evt_tl *tl, uint32_t obj, char *buf, size_t len)
{
    const evt_tl_obj *x = evt_tl_obj_at(tl, obj);
    snprintf(buf, len, "0x%llx", x ? (unsigned long long)x->id : 0ull);
    return buf;
}

void evt_an_obj_text(const evt_an_objhist *o, const evt_tl *tl, FILE *out)
{
    char b[96], c[96], d[96];
    const char *u = evt_an_unit(tl);
    /* objects by name and id: several may share a name (NetX: an IP instance, its mutex, its flags) */
    uint64_t rows = 0;
    fprintf(out, "Objects:\n");
    for (uint32_t s = 0; s < o->nseries; s++) {
        const evt_an_series *x = &o->series[s];
        if (rows++ >= EVT_AN_TEXT_ROWS) continue;
        fprintf(out, "  %-24s %-10s %-16s samples %6" PRIu64 "  min %" PRIu64 "  max %" PRIu64 "  last %" PRIu64 "\n",
                evt_an_obj_label(tl, x->obj, b, sizeof b), obj_id_(tl, x->obj, d, sizeof d),
                evt_strtab_str(&o->names, x->name), x->count, x->min, x->max, x->last);
    }
    for (uint32_t obj = 0; obj < o->nwaits; obj++)
        if (o->waits[obj].count && rows++ < EVT_AN_TEXT_ROWS)
            fprintf(out, "  %-24s %-10s waits %" PRIu64 ", longest %" PRIu64 " %s, at most %" PRIu64 " waiters\n",
                    evt_an_obj_label(tl, obj, b, sizeof b), obj_id_(tl, obj, d, sizeof d), o->waits[obj].count,
                    o->waits[obj].max, u,
                    max_waiters(&o->waits[obj]));
    evt_an_text_more(out, rows > EVT_AN_TEXT_ROWS ? rows - EVT_AN_TEXT_ROWS : 0);
    if (o->nflows) fprintf(out, "Flows:\n");
    for (uint32_t i = 0; i < o->nflows && i < EVT_AN_TEXT_ROWS; i++) {
        const evt_an_flowagg *a = &o->flows[i];
        fprintf(out, "  %-8s %s -> %s via %s: %" PRIu64 " (latency max %" PRIu64 " %s)\n",
                evt_strtab_str(&o->names, a->kind), evt_an_ctx_label(tl, a->from, b, sizeof b),
                evt_an_ctx_label(tl, a->to, c, sizeof c), a->obj == EVT_TL_NONE ? "-" : evt_an_obj_label(tl, a->obj, d, sizeof d),
                a->count, a->max, u);
    }
    evt_an_text_more(out, o->nflows > EVT_AN_TEXT_ROWS ? o->nflows - EVT_AN_TEXT_ROWS : 0);
}

void evt_an_obj_free(evt_an_objhist *o)
{
    for (uint32_t s = 0; s < o->nseries; s++) evt_free(o->series[s].hist);
    for (uint32_t w = 0; w < o->nwaits; w++) evt_free(o->waits[w].iv);
    evt_free(o->series);
    evt_free(o->waits);
    evt_free(o->flows);
    evt_u64map_free(&o->seriesmap);
    evt_u64map_free(&o->flowmap);
    evt_strtab_free(&o->names);
    memset(o, 0, sizeof *o);
}
