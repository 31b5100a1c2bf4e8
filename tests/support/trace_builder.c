/* Trace builder for tests (trace_builder.h): keeps the registry and the records, then replays them
 * through the TXTB recorder with a context callback and a time source that return the record's
 * own context and timestamp. */
#include "trace_builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evtrace/txtb.h"

#define TB_BASE 0x20000000u     /* trace base address written in the header */
#define TB_WAIT_FOREVER 0xFFFFFFFFu

typedef struct tb_obj {
    uint8_t type;
    uint32_t addr, p1, p2, prio;
    char name[TXTB_DEFAULT_NAME_SIZE];
} tb_obj;

typedef struct tb_recd {
    uint32_t ts, ctx, prio, id, info[4];
} tb_recd;

struct tb_trace {
    tb_options opt;
    tb_obj *objs;
    size_t nobj, objcap;
    tb_recd *recs;
    size_t nrec, reccap;
};

static void *tb_grow(void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap) return p;
    size_t nc = *cap ? *cap * 2 : 16;
    void *v = realloc(p, nc * size);
    if (!v) { fprintf(stderr, "trace_builder: out of memory\n"); abort(); }
    *cap = nc;
    return v;
}

tb_trace *tb_new(void)
{
    tb_trace *t = calloc(1, sizeof *t);
    if (!t) { fprintf(stderr, "trace_builder: out of memory\n"); abort(); }
    t->opt.time_mask = 0xFFFFFFFFu;
    return t;
}

void tb_free(tb_trace *t)
{
    if (!t) return;
    free(t->objs);
    free(t->recs);
    free(t);
}

tb_options *tb_opts(tb_trace *t) { return &t->opt; }

static void add_obj(tb_trace *t, uint8_t type, uint32_t addr, const char *name, uint32_t p1, uint32_t p2,
                    uint32_t prio)
{
    t->objs = tb_grow(t->objs, &t->objcap, t->nobj, sizeof *t->objs);
    tb_obj *o = &t->objs[t->nobj++];
    memset(o, 0, sizeof *o);
    o->type = type;
    o->addr = addr;
    o->p1 = p1;
    o->p2 = p2;
    o->prio = prio;
    snprintf(o->name, sizeof o->name, "%s", name ? name : "");
}

void tb_thread(tb_trace *t, uint32_t addr, const char *name, uint32_t prio, uint32_t stack_start,
               uint32_t stack_size)
{
    add_obj(t, TXTB_OBJ_THREAD, addr, name, stack_start, stack_size, prio);
}

void tb_object(tb_trace *t, uint8_t type, uint32_t addr, const char *name, uint32_t param1, uint32_t param2)
{
    add_obj(t, type, addr, name, param1, param2, 0);
}

uint32_t tb_prio(uint32_t prio) { return TXTB_PRIO_CURRENT_BIT | (prio & 0x3FFu) << 16 | (prio & 0x3FFu); }

uint32_t tb_prio_of(const tb_trace *t, uint32_t ctx)
{
    if (ctx == TB_CTX_INIT || ctx == TB_CTX_ISR) return 0;
    for (size_t i = 0; i < t->nobj; i++)
        if (t->objs[i].type == TXTB_OBJ_THREAD && t->objs[i].addr == ctx) return tb_prio(t->objs[i].prio);
    return TXTB_PRIO_CURRENT_BIT;
}

void tb_rec(tb_trace *t, uint32_t ts, uint32_t ctx, uint32_t prio_word, uint32_t id,
            uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4)
{
    t->recs = tb_grow(t->recs, &t->reccap, t->nrec, sizeof *t->recs);
    tb_recd *r = &t->recs[t->nrec++];
    r->ts = ts;
    r->ctx = ctx;
    r->prio = prio_word;
    r->id = id;
    r->info[0] = i1; r->info[1] = i2; r->info[2] = i3; r->info[3] = i4;
}

void tb_ev(tb_trace *t, uint32_t ts, uint32_t ctx, uint32_t id, uint32_t i1, uint32_t i2,
           uint32_t i3, uint32_t i4)
{
    tb_rec(t, ts, ctx, tb_prio_of(t, ctx), id, i1, i2, i3, i4);
}

void tb_resume(tb_trace *t, uint32_t ts, uint32_t by, uint32_t thread, uint32_t prev_state, uint32_t next)
{
    tb_ev(t, ts, by, TXTB_EVENT_THREAD_RESUME, thread, prev_state, t->opt.stk, next);
}

void tb_suspend(tb_trace *t, uint32_t ts, uint32_t by, uint32_t thread, uint32_t state, uint32_t next)
{
    tb_ev(t, ts, by, TXTB_EVENT_THREAD_SUSPEND, thread, state, t->opt.stk, next);
}

void tb_block(tb_trace *t, uint32_t ts, uint32_t thread, uint32_t state, uint32_t next)
{
    tb_suspend(t, ts, thread, thread, state, next);
}

void tb_isr_enter(tb_trace *t, uint32_t ts, uint32_t isr_id, uint32_t interrupted)
{
    tb_rec(t, ts, TB_CTX_ISR, interrupted, TXTB_EVENT_ISR_ENTER, t->opt.stk, isr_id, 1, 0);
}

void tb_isr_exit(tb_trace *t, uint32_t ts, uint32_t isr_id, uint32_t interrupted)
{
    tb_rec(t, ts, TB_CTX_ISR, interrupted, TXTB_EVENT_ISR_EXIT, t->opt.stk, isr_id, 1, 0);
}

void tb_mutex_get(tb_trace *t, uint32_t ts, uint32_t thread, uint32_t mutex, uint32_t owner, uint32_t count)
{
    tb_ev(t, ts, thread, TXTB_EVENT_MUTEX_GET, mutex, TB_WAIT_FOREVER, owner, count);
}

void tb_mutex_put(tb_trace *t, uint32_t ts, uint32_t thread, uint32_t mutex, uint32_t count)
{
    tb_ev(t, ts, thread, TXTB_EVENT_MUTEX_PUT, mutex, thread, count, t->opt.stk);
}

void tb_queue_send(tb_trace *t, uint32_t ts, uint32_t ctx, uint32_t queue, uint32_t enqueued)
{
    tb_ev(t, ts, ctx, TXTB_EVENT_QUEUE_SEND, queue, 0, TB_WAIT_FOREVER, enqueued);
}

void tb_queue_receive(tb_trace *t, uint32_t ts, uint32_t ctx, uint32_t queue, uint32_t enqueued)
{
    tb_ev(t, ts, ctx, TXTB_EVENT_QUEUE_RECEIVE, queue, 0, TB_WAIT_FOREVER, enqueued);
}

void tb_sem_get(tb_trace *t, uint32_t ts, uint32_t ctx, uint32_t sem, uint32_t count)
{
    tb_ev(t, ts, ctx, TXTB_EVENT_SEMAPHORE_GET, sem, TB_WAIT_FOREVER, count, t->opt.stk);
}

void tb_sem_put(tb_trace *t, uint32_t ts, uint32_t ctx, uint32_t sem, uint32_t count, uint32_t suspended)
{
    tb_ev(t, ts, ctx, TXTB_EVENT_SEMAPHORE_PUT, sem, count, suspended, t->opt.stk);
}

/* ---- replay through the recorder --------------------------------------------------------------- */

static const tb_recd *g_cur;   /* record being written (NULL: enable's RUNNING records) */
static uint32_t g_first_ts;

static void tb_ctx_fn(evt_tx_context *out)
{
    out->context = g_cur ? g_cur->ctx : TB_CTX_INIT;
    out->priority_word = g_cur ? g_cur->prio : 0;
}

static uint32_t tb_time_fn(void) { return g_cur ? g_cur->ts : g_first_ts; }

uint8_t *tb_bytes(tb_trace *t, size_t *len)
{
    uint32_t nreg = (uint32_t)t->nobj + t->opt.spare_registry;
    if (nreg == 0) nreg = 1; /* ThreadX needs no registry, the recorder accepts 0; keep one slot */
    size_t size = TXTB_HEADER_SIZE + (size_t)nreg * (TXTB_REG_FIXED_SIZE + TXTB_DEFAULT_NAME_SIZE) +
                  (t->opt.slots ? t->opt.slots : t->nrec + 3) * (size_t)TXTB_EVENT_SIZE; /* + RUNNING x2 + one never written */
    uint8_t *buf = calloc(1, size);
    if (!buf) { fprintf(stderr, "trace_builder: out of memory\n"); abort(); }
    evt_tx_options o;
    memset(&o, 0, sizeof o);
    o.big_endian = t->opt.big_endian ? 1 : 0;
    o.time_source = tb_time_fn;
    o.time_mask = t->opt.time_mask;
    o.context = tb_ctx_fn;
    o.base_address = TB_BASE;
    g_cur = NULL;
    g_first_ts = t->nrec ? t->recs[0].ts : 0;
    if (evt_tx_trace_enable_ex(buf, (uint32_t)size, nreg, &o) != EVT_TX_SUCCESS) {
        fprintf(stderr, "trace_builder: the TXTB recorder refused to enable (already enabled?)\n");
        abort();
    }
    for (size_t i = 0; i < t->nobj; i++) {
        const tb_obj *ob = &t->objs[i];
        const void *p = (const void *)(uintptr_t)ob->addr;
        if (ob->type == TXTB_OBJ_THREAD) evt_tx_trace_thread_register(p, ob->name, ob->p1, ob->p2, ob->prio);
        else evt_tx_trace_object_register(ob->type, p, ob->name, ob->p1, ob->p2);
    }
    evt_tx_stats before, after;
    evt_tx_trace_get_stats(&before);
    for (size_t i = 0; i < t->nrec; i++) {
        g_cur = &t->recs[i];
        evt_tx_trace_insert(g_cur->id, g_cur->info[0], g_cur->info[1], g_cur->info[2], g_cur->info[3], 0xFFFFFFFFu);
    }
    g_cur = NULL;
    evt_tx_trace_get_stats(&after);
    evt_tx_trace_disable();
    if (after.written - before.written != t->nrec || after.dropped != before.dropped ||
        (!t->opt.slots && after.wraps != before.wraps)) {
        fprintf(stderr, "trace_builder: %zu records given, %llu written\n", t->nrec,
                (unsigned long long)(after.written - before.written));
        abort();
    }
    *len = size;
    return buf;
}

int tb_write(tb_trace *t, const char *path)
{
    size_t len;
    uint8_t *buf = tb_bytes(t, &len);
    FILE *f = fopen(path, "wb");
    int rc = -1;
    if (f) {
        rc = fwrite(buf, 1, len, f) == len ? 0 : -1;
        if (fclose(f) != 0) rc = -1;
    }
    free(buf);
    return rc;
}
