/* The report's user tracks (report_user.h): a user-tracks sink writing four flat JSON columns
 * into temporary files (memory does not grow with the trace), and the names table. */
#include "host/report/report_user.h"

#include <stdlib.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/json.h"
#include "host/report/report_impl.h"
#include "host/timeline/user_tracks.h"

enum { UC_MARKS, UC_VALUES, UC_IVS, UC_SMS, UC_COUNT };
static const char *const k_ucol[UC_COUNT] = {"marks", "values", "ivs", "sms"};

struct rp_user {
    evt_ut ut;
    rp_col cols[UC_COUNT];
    uint64_t base;
    int64_t ev_index;
    int finished, oom;
};

static evt_json *uj(rp_user *u, int c) { return &u->cols[c].j; }
static void ut_(rp_user *u, int c, uint64_t t) { evt_json_i64(uj(u, c), (int64_t)(t - u->base)); }

static void on_mark(void *p, uint32_t ch, uint64_t t, const char *text, const evt_event *ev)
{
    rp_user *u = p;
    (void)ev;
    evt_json_u64(uj(u, UC_MARKS), ch);
    ut_(u, UC_MARKS, t);
    evt_json_i64(uj(u, UC_MARKS), u->ev_index);
    if (text) evt_json_str(uj(u, UC_MARKS), text);
    else evt_json_null(uj(u, UC_MARKS));
}

static void on_value(void *p, uint32_t ch, uint64_t t, int64_t v, const evt_event *ev)
{
    rp_user *u = p;
    (void)ev;
    evt_json_u64(uj(u, UC_VALUES), ch);
    ut_(u, UC_VALUES, t);
    evt_json_i64(uj(u, UC_VALUES), v);
}

static void on_interval(void *p, uint32_t ch, uint64_t id, uint64_t t0, uint64_t t1, int open_end)
{
    rp_user *u = p;
    evt_json_u64(uj(u, UC_IVS), ch);
    ut_(u, UC_IVS, t0);
    ut_(u, UC_IVS, t1);
    evt_json_u64(uj(u, UC_IVS), id);
    evt_json_u64(uj(u, UC_IVS), (uint64_t)open_end);
}

static void on_state(void *p, uint32_t sm, uint64_t obj, uint32_t state, uint64_t state_id, uint64_t t0, uint64_t t1,
                     int open_end)
{
    rp_user *u = p;
    (void)obj;
    evt_json_u64(uj(u, UC_SMS), sm);
    evt_json_u64(uj(u, UC_SMS), state);
    evt_json_u64(uj(u, UC_SMS), state_id);
    ut_(u, UC_SMS, t0);
    ut_(u, UC_SMS, t1);
    evt_json_u64(uj(u, UC_SMS), (uint64_t)open_end);
}

rp_user *rp_user_new(void)
{
    rp_user *u = evt_calloc(1, sizeof *u);
    if (!u) return NULL;
    evt_ut_sink s = {u, on_mark, on_value, on_interval, on_state};
    evt_ut_init(&u->ut, &s);
    for (int c = 0; c < UC_COUNT; c++) {
        if (!(u->cols[c].f = tmpfile())) {
            rp_user_free(u);
            return NULL;
        }
        evt_json_init(&u->cols[c].j, u->cols[c].f, 0);
        evt_json_arr_begin(&u->cols[c].j);
    }
    return u;
}

void rp_user_free(rp_user *u)
{
    if (!u) return;
    evt_ut_free(&u->ut);
    for (int c = 0; c < UC_COUNT; c++)
        if (u->cols[c].f) fclose(u->cols[c].f);
    evt_free(u);
}

int rp_user_event(rp_user *u, const evt_event *ev, uint64_t t, uint64_t base, int64_t ev_index)
{
    if (!evt_ut_relevant(ev)) return 1;
    u->base = base;
    u->ev_index = ev_index;
    if (!evt_ut_event(&u->ut, ev, t)) u->oom = 1;
    return !u->oom;
}

void rp_user_finish(rp_user *u, uint64_t t_end, uint64_t base)
{
    if (u->finished) return;
    u->finished = 1;
    u->base = base;
    evt_ut_finish(&u->ut, t_end);
    for (int c = 0; c < UC_COUNT; c++) {
        evt_json_arr_end(&u->cols[c].j);
        if (fflush(u->cols[c].f) != 0 || ferror(u->cols[c].f)) u->oom = 1;
    }
}

int rp_user_write(const rp_user *u, FILE *out)
{
    if (u->oom) return 0;
    fputs(",\"user\":{\"names\":", out);
    /* names: small (distinct channel, machine and state names), built in memory */
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return 0;
    evt_json j;
    evt_json_init(&j, m, 0);
    evt_json_arr_begin(&j);
    evt_json_str(&j, "");
    for (uint32_t i = 1; i <= u->ut.names.n; i++) evt_json_str(&j, evt_strtab_str(&u->ut.names, i));
    evt_json_arr_end(&j);
    int ok = fclose(m) == 0;
    if (ok) rp_put_json(out, buf, len);
    free(buf);
    if (!ok) return 0;
    for (int c = 0; c < UC_COUNT; c++) {
        char b[1 << 15];
        size_t n;
        fprintf(out, ",\"%s\":", k_ucol[c]);
        if (fseek(u->cols[c].f, 0, SEEK_SET) != 0) return 0;
        while ((n = fread(b, 1, sizeof b, u->cols[c].f)) > 0) rp_put_json(out, b, n);
        if (ferror(u->cols[c].f)) return 0;
    }
    fputc('}', out);
    return !ferror(out);
}
