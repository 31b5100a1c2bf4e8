/* Helpers shared by the analyses (an_util.h). */
#include "host/analyses/an_util.h"

#include <stdio.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/json.h"

int evt_an_reserve(void **arr, uint32_t *cap, uint32_t i, size_t size)
{
    if (i < *cap) return 1;
    uint32_t nc = *cap ? *cap : 8;
    while (nc <= i) {
        if (nc > UINT32_MAX / 2) return 0;
        nc *= 2;
    }
    char *v = evt_realloc(*arr, (size_t)nc * size);
    if (!v) return 0;
    memset(v + (size_t)*cap * size, 0, (size_t)(nc - *cap) * size);
    *arr = v;
    *cap = nc;
    return 1;
}

void evt_an_worst_add(evt_an_worst *w, uint64_t value, uint64_t t)
{
    uint32_t k = w->n;
    if (k == EVT_AN_WORST_N) {
        if (value <= w->value[k - 1]) return; /* ties keep the earlier instance */
        k--;
    } else {
        w->n++;
    }
    while (k > 0 && w->value[k - 1] < value) {
        w->value[k] = w->value[k - 1];
        w->t[k] = w->t[k - 1];
        k--;
    }
    w->value[k] = value;
    w->t[k] = t;
}

void evt_an_worst_json(const evt_an_worst *w, evt_json *j)
{
    evt_json_arr_begin(j);
    for (uint32_t i = 0; i < w->n; i++) {
        evt_json_obj_begin(j);
        evt_json_ku64(j, "t", w->t[i]);
        evt_json_ku64(j, "duration", w->value[i]);
        evt_json_obj_end(j);
    }
    evt_json_arr_end(j);
}

uint64_t evt_an_overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
    uint64_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;
    return hi > lo ? hi - lo : 0;
}

const char *evt_an_ctx_label(const evt_tl *tl, uint32_t index, char *buf, size_t len)
{
    const evt_tl_ctx *c = evt_tl_ctx_at(tl, index);
    if (!c) {
        snprintf(buf, len, "idle");
        return buf;
    }
    return evt_tl_ctx_label(c, buf, len);
}

void evt_an_ctx_keys(const evt_tl *tl, uint32_t index, evt_json *j)
{
    char b[96];
    const evt_tl_ctx *c = evt_tl_ctx_at(tl, index);
    evt_json_kstr(j, "name", evt_an_ctx_label(tl, index, b, sizeof b));
    evt_json_kstr(j, "class", c ? evt_tl_class_name(c->cls) : "none");
    if (c && c->has_id) evt_json_ku64(j, "id", c->id);
    if (c && c->idle_task) evt_json_kbool(j, "idle_task", 1); /* the kernel's idle task (its time is idle) */
}

const char *evt_an_obj_label(const evt_tl *tl, uint32_t index, char *buf, size_t len)
{
    const evt_tl_obj *o = evt_tl_obj_at(tl, index);
    if (!o) snprintf(buf, len, "-");
    else if (o->name) return o->name;
    else snprintf(buf, len, "0x%llx", (unsigned long long)o->id);
    return buf;
}

const char *evt_an_unit(const evt_tl *tl) { return tl->clock_hz ? "ns" : "ticks"; }

void evt_an_text_more(FILE *out, uint64_t n)
{
    if (n) fprintf(out, "  ... %llu more (all in --json)\n", (unsigned long long)n);
}

double evt_an_pct(uint64_t part, uint64_t whole) { return whole ? 100.0 * (double)part / (double)whole : 0.0; }
