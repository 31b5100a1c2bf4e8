/* The report page: the embedded template (src/host/report/report.html) with its markers replaced
 * by the title, the stylesheet, the script and the two JSON blocks. Inside the JSON blocks every
 * '<' is written as \u003c (JSON has '<' only inside strings), so no name in a trace can close
 * the script element ("</script") or open an HTML comment. */
#include "host/report/report_impl.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "host/report/report_assets.h"

static void esc_html_(FILE *o, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", o); break;
        case '>': fputs("&gt;", o); break;
        case '&': fputs("&amp;", o); break;
        case '"': fputs("&quot;", o); break;
        default: fputc(*s, o);
        }
    }
}

void rp_put_json(FILE *o, const char *s, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '<') continue;
        fwrite(s + run, 1, i - run, o);
        fputs("\\u003c", o);
        run = i + 1;
    }
    fwrite(s + run, 1, n - run, o);
}

int rp_json_escaped(FILE *o, const evt_report *r, rp_json_fn write, const void *arg)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    if (!m) return 0;
    evt_json j;
    evt_json_init(&j, m, 0);
    write(r, &j, arg);
    int ok = fclose(m) == 0;
    if (ok) rp_put_json(o, buf, n);
    free(buf);
    return ok;
}

static void analyses_json_(const evt_report *r, evt_json *j, const void *arg)
{
    (void)arg;
    evt_an_json(r->an, j);
}

/* The analyses object, escaped (bounded by contexts, objects and kept samples: in memory). */
static int analyses_(FILE *o, const evt_report *r)
{
    if (!r->an) { fputs("null", o); return 1; }
    return rp_json_escaped(o, r, analyses_json_, NULL);
}

/* "12.345 ms" (ns) or "1234 ticks". */
static void fmt_dur_(char *b, size_t n, uint64_t v, int ns)
{
    if (!ns) snprintf(b, n, "%" PRIu64 " ticks", v);
    else if (v >= 1000000000u) snprintf(b, n, "%.3f s", (double)v / 1e9);
    else if (v >= 1000000u) snprintf(b, n, "%.3f ms", (double)v / 1e6);
    else if (v >= 1000u) snprintf(b, n, "%.3f us", (double)v / 1e3);
    else snprintf(b, n, "%" PRIu64 " ns", v);
}

/* The static summary line (escaped text): what the trace is, without the script. */
static void summary_(FILE *o, const evt_report *r, uint64_t errors)
{
    const evt_tl *tl = &r->tl;
    char line[512], d[64];
    fmt_dur_(d, sizeof d, tl->have_t ? tl->last - tl->first : 0, r->clock_hz != 0);
    esc_html_(o, r->file ? r->file : "");
    snprintf(line, sizeof line, " \xc2\xb7 format %s \xc2\xb7 %" PRIu64 " events \xc2\xb7 duration %s \xc2\xb7 %u CPU(s) \xc2\xb7 ",
             r->format ? r->format : "?", r->events, d, tl->ncpus ? tl->ncpus : 1);
    esc_html_(o, line);
    if (r->clock_hz) {
        snprintf(line, sizeof line, "clock known (%" PRIu64 " Hz, from %s)", r->clock_hz,
                 r->clock_source ? r->clock_source : "format");
        esc_html_(o, line);
    } else {
        fputs("clock unknown: times in ticks", o);
    }
    /* what the trace holds: the views show only these kinds of fact */
    fputs(" \xc2\xb7 records ", o);
    int any = 0;
    for (unsigned b = 0; b < EVT_CAP_COUNT_; b++)
        if (tl->caps & (1u << b)) { fprintf(o, "%s%s", any ? ", " : "", evt_cap_name(1u << b)); any = 1; }
    if (!any) fputs("nothing", o);
    if (!tl->sched) fputs(" (no scheduling: contexts show activity, not running/ready/blocked)", o);
    if (errors || tl->lost_events)
        fprintf(o, " \xc2\xb7 %" PRIu64 " decode error(s), %" PRIu64 " lost-data record(s)", errors, tl->lost_events);
}

int rp_write_page(const evt_report *r, FILE *o, uint64_t errors)
{
    const char *p = evt_report_html;
    int ok = 1;
    for (;;) {
        const char *m = strstr(p, "@EVT_");
        if (!m) break;
        const char *e = strchr(m + 5, '@');
        if (!e) break;
        fwrite(p, 1, (size_t)(m - p), o);
        size_t len = (size_t)(e + 1 - m);
        if (len == 11 && !memcmp(m, "@EVT_TITLE@", len)) {
            esc_html_(o, r->file ? r->file : "");
        } else if (len == 9 && !memcmp(m, "@EVT_CSS@", len)) {
            fputs(evt_report_css, o);
        } else if (len == 8 && !memcmp(m, "@EVT_JS@", len)) {
            fputs(evt_report_js, o);
        } else if (len == 10 && !memcmp(m, "@EVT_DATA@", len)) {
            if (!rp_write_data(r, o, errors)) ok = 0;
        } else if (len == 13 && !memcmp(m, "@EVT_SUMMARY@", len)) {
            summary_(o, r, errors);
        } else if (len == 14 && !memcmp(m, "@EVT_ANALYSES@", len)) {
            if (!analyses_(o, r)) ok = 0;
        } else {
            fwrite(m, 1, len, o); /* not a marker of ours */
        }
        p = e + 1;
    }
    fputs(p, o);
    return ok && !ferror(o);
}
