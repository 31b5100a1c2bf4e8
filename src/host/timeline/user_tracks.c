/* User tracks (user_tracks.h): channel marks, value samples, begin/end pairing of intervals per
 * (channel, id), and state segments per machine. Open intervals are kept in a slot array indexed
 * by a u64 map from (channel, id); a slot is freed at the end and reused. */
#include "host/timeline/user_tracks.h"

#include <string.h>
#include "evtrace/alloc.h"

void evt_ut_init(evt_ut *u, const evt_ut_sink *sink)
{
    memset(u, 0, sizeof *u);
    u->sink = *sink;
    evt_strtab_init(&u->names);
}

void evt_ut_free(evt_ut *u)
{
    evt_strtab_free(&u->names);
    evt_u64map_free(&u->open_by_key);
    evt_u64map_free(&u->sm_by_obj);
    evt_free(u->open);
    evt_free(u->sms);
    memset(u, 0, sizeof *u);
}

int evt_ut_relevant(const evt_event *ev)
{
    return ev->kind == EVT_KIND_USER || (ev->m.has & (EVT_M_TEXT | EVT_M_VALUE | EVT_M_INTERVAL | EVT_M_SM_STATE));
}

static uint32_t name_id(evt_ut *u, const char *s)
{
    if (!s || !*s) return 0;
    uint32_t id = evt_strtab_intern(&u->names, s, strlen(s), NULL);
    if (!id) u->oom = 1;
    return id;
}

/* The map key of (channel, id): the id's bits mixed with the channel (a collision only makes two
 * intervals share a slot; the stored ch and id are compared). */
static uint64_t key_of(uint32_t ch, uint64_t id) { return (id * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)ch << 40 | ch); }

static void begin_iv(evt_ut *u, uint32_t ch, uint64_t id, uint64_t t)
{
    uint32_t k;
    uint64_t key = key_of(ch, id);
    if (evt_u64map_get(&u->open_by_key, key, &k) && u->open[k].used) {
        evt_ut_open *o = &u->open[k];
        if (o->ch == ch && o->id == id) { /* a second begin: the first one is closed here */
            if (u->sink.interval) u->sink.interval(u->sink.user, o->ch, o->id, o->t0, t, 1);
            u->intervals++;
            o->t0 = t;
            return;
        }
    }
    if (u->nopen >= EVT_UT_MAX_OPEN) {
        u->dropped_open++;
        return;
    }
    /* a free slot: scan from the end (slots are few in practice) */
    uint32_t slot = u->nopen;
    for (uint32_t i = 0; i < u->nopen; i++)
        if (!u->open[i].used) { slot = i; break; }
    if (slot == u->nopen) {
        if (u->nopen == u->capopen) {
            uint32_t cap = u->capopen ? u->capopen * 2 : 16;
            evt_ut_open *p = evt_realloc(u->open, cap * sizeof *p);
            if (!p) { u->oom = 1; return; }
            u->open = p;
            u->capopen = cap;
        }
        u->nopen++;
    }
    u->open[slot] = (evt_ut_open){ch, id, t, 1};
    if (!evt_u64map_put(&u->open_by_key, key, slot)) u->oom = 1;
}

static void end_iv(evt_ut *u, uint32_t ch, uint64_t id, uint64_t t)
{
    uint32_t k;
    if (!evt_u64map_get(&u->open_by_key, key_of(ch, id), &k) || !u->open[k].used || u->open[k].ch != ch ||
        u->open[k].id != id) {
        u->unmatched_ends++;
        return;
    }
    evt_ut_open *o = &u->open[k];
    if (u->sink.interval) u->sink.interval(u->sink.user, ch, id, o->t0, t, 0);
    u->intervals++;
    o->used = 0;
}

static void state(evt_ut *u, const evt_event *ev, uint64_t t)
{
    uint32_t k;
    evt_ut_sm *m;
    if (evt_u64map_get(&u->sm_by_obj, ev->m.obj, &k)) {
        m = &u->sms[k];
    } else {
        if (u->nsms == u->capsms) {
            uint32_t cap = u->capsms ? u->capsms * 2 : 8;
            evt_ut_sm *p = evt_realloc(u->sms, cap * sizeof *p);
            if (!p) { u->oom = 1; return; }
            u->sms = p;
            u->capsms = cap;
        }
        if (!evt_u64map_put(&u->sm_by_obj, ev->m.obj, u->nsms)) { u->oom = 1; return; }
        m = &u->sms[u->nsms++];
        memset(m, 0, sizeof *m);
        m->obj = ev->m.obj;
    }
    uint32_t nm = name_id(u, ev->m.obj_name ? ev->m.obj_name : ev->m.label);
    if (nm) m->name = nm;
    if (m->active && u->sink.state)
        u->sink.state(u->sink.user, m->name, m->obj, m->state, m->state_id, m->t0, t, 0);
    if (m->active) u->states++;
    m->active = 1;
    m->state = name_id(u, ev->m.sm_state);
    m->state_id = ev->m.sm_state_id;
    m->t0 = t;
}

int evt_ut_event(evt_ut *u, const evt_event *ev, uint64_t t)
{
    if (t > u->last_t) u->last_t = t;
    if (ev->m.has & EVT_M_SM_STATE) state(u, ev, t);
    if (ev->kind != EVT_KIND_USER && !(ev->m.has & (EVT_M_TEXT | EVT_M_VALUE | EVT_M_INTERVAL))) return !u->oom;
    uint32_t ch = name_id(u, (ev->m.has & EVT_M_LABEL) ? ev->m.label : ev->name);
    if (!ch) ch = name_id(u, "user");
    if (ev->m.has & EVT_M_VALUE) {
        if (u->sink.value) u->sink.value(u->sink.user, ch, t, ev->m.value, ev);
        u->values++;
    } else if (ev->m.has & EVT_M_INTERVAL) {
        if (ev->m.interval_end) end_iv(u, ch, ev->m.interval_id, t);
        else begin_iv(u, ch, ev->m.interval_id, t);
    } else if (!(ev->m.has & EVT_M_SM_STATE)) {
        if (u->sink.mark) u->sink.mark(u->sink.user, ch, t, (ev->m.has & EVT_M_TEXT) ? ev->m.text : NULL, ev);
        u->marks++;
    }
    return !u->oom;
}

void evt_ut_finish(evt_ut *u, uint64_t t_end)
{
    if (t_end < u->last_t) t_end = u->last_t;
    for (uint32_t i = 0; i < u->nopen; i++) {
        evt_ut_open *o = &u->open[i];
        if (!o->used) continue;
        if (u->sink.interval) u->sink.interval(u->sink.user, o->ch, o->id, o->t0, t_end, 1);
        u->intervals++;
        o->used = 0;
    }
    for (uint32_t i = 0; i < u->nsms; i++) {
        evt_ut_sm *m = &u->sms[i];
        if (!m->active) continue;
        if (u->sink.state) u->sink.state(u->sink.user, m->name, m->obj, m->state, m->state_id, m->t0, t_end, 1);
        u->states++;
        m->active = 0;
    }
}
