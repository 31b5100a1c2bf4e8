/* HTML report writer: static HTML + SVG generated here (readable without JS); the inline script
 * only adds table sorting, hover details and a self-check marker (#selfcheck) for tests. */
#include "report.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/json.h"

#define TL_MAX_ROWS 64   /* contexts drawn in the timeline (by CPU time); the rest are summed */
#define TL_WIDTH 1000    /* px of the time axis */
#define TL_LABEL 200     /* px of the row labels */
#define TL_ROW 18        /* px per row */

static void esc(FILE *o, const char *s)
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

/* "12.3 ms" style time (input in the stats' unit). */
static void fmt_time(char *b, size_t n, const evt_stats *s, uint64_t t)
{
    if (!s->clock_hz) { snprintf(b, n, "%" PRIu64 " ticks", t); return; }
    double v = (double)t;
    if (v >= 1e9) snprintf(b, n, "%.3f s", v / 1e9);
    else if (v >= 1e6) snprintf(b, n, "%.3f ms", v / 1e6);
    else if (v >= 1e3) snprintf(b, n, "%.3f us", v / 1e3);
    else snprintf(b, n, "%.0f ns", v);
}

static const char *color_(evt_ctx_class c)
{
    switch (c) {
    case EVT_CTX_ISR: return "#dc2626";
    case EVT_CTX_INIT: return "#7c3aed";
    case EVT_CTX_THREAD: return "#2563eb";
    default: return "#525252";
    }
}

static const char k_css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#111;background:#fff}"
    "h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px;border-bottom:1px solid #ddd}"
    ".meta{color:#555}table{border-collapse:collapse;margin:4px 0}"
    "th,td{padding:3px 10px;border-bottom:1px solid #eee;text-align:right;white-space:nowrap}"
    "th{background:#f5f5f5;cursor:pointer;user-select:none}td:first-child,th:first-child{text-align:left}"
    "svg text{font:11px system-ui,sans-serif;fill:#333}.axis line{stroke:#999}"
    "#tip{position:fixed;pointer-events:none;background:#111;color:#fff;padding:3px 6px;border-radius:3px;"
    "font-size:12px;display:none}.warn{color:#b45309}.legend span{display:inline-block;width:10px;height:10px;"
    "margin:0 4px 0 12px}";

static const char k_js[] =
    "(function(){\n"
    "var errs=[];window.addEventListener('error',function(e){errs.push(String(e.message));});\n"
    "function sortable(t){var ths=t.querySelectorAll('th');ths.forEach(function(th,i){th.addEventListener('click',"
    "function(){var b=t.tBodies[0],rows=Array.prototype.slice.call(b.rows),d=th.dataset.d==='1'?-1:1;"
    "th.dataset.d=d===1?'1':'0';rows.sort(function(x,y){var a=x.cells[i].dataset.v||x.cells[i].textContent,"
    "c=y.cells[i].dataset.v||y.cells[i].textContent,na=parseFloat(a),nc=parseFloat(c);"
    "if(!isNaN(na)&&!isNaN(nc))return (na-nc)*d;return a<c?-d:a>c?d:0;});rows.forEach(function(r){b.appendChild(r);});});});}\n"
    "document.querySelectorAll('table').forEach(sortable);\n"
    "var tip=document.getElementById('tip');\n"
    "document.querySelectorAll('svg [data-tip]').forEach(function(el){el.addEventListener('mousemove',function(e){"
    "tip.style.display='block';tip.style.left=(e.clientX+12)+'px';tip.style.top=(e.clientY+12)+'px';"
    "tip.textContent=el.getAttribute('data-tip');});el.addEventListener('mouseleave',function(){tip.style.display='none';});});\n"
    "var st=JSON.parse(document.getElementById('stats').textContent);\n"
    "var rows=document.querySelectorAll('#timeline g.row').length;\n"
    "var want=Math.min(st.contexts.filter(function(c){return c.cpu_ticks>0;}).length,%d);\n"
    "var ctxRows=document.querySelectorAll('#contexts tbody tr').length;\n"
    "var ok=rows===want&&ctxRows===st.contexts.length&&errs.length===0&&st.events>=0;\n"
    "var m=document.getElementById('selfcheck');\n"
    "m.textContent=(ok?'evtrace-report-ok':'evtrace-report-FAILED')+' rows='+rows+' want='+want+' contexts='+ctxRows+"
    "(errs.length?' errors='+errs.join('; '):'');\n"
    "if(!ok)console.error('evtrace report self-check failed: '+m.textContent);\n"
    "})();\n";

/* Timeline: one row per context with CPU time, opacity = share of the bin the context ran. */
static void timeline_(FILE *o, evt_stats *s, const uint32_t *order)
{
    uint64_t dur = evt_stats_duration(s);
    uint32_t nbins = 1;
    if (s->tl_width) nbins = (uint32_t)((s->last_ts - s->tl_origin) / s->tl_width + 1);
    if (nbins > EVT_STATS_BINS) nbins = EVT_STATS_BINS;
    uint32_t rows = 0;
    for (uint32_t i = 0; i < s->nctx && rows < TL_MAX_ROWS; i++)
        if (s->ctxs[order[i]].cpu_ticks) rows++;
    int h = (int)rows * TL_ROW + 30;
    double px = (double)TL_WIDTH / (double)nbins;
    char tb[64], nb[64];
    fprintf(o, "<svg id=\"timeline\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
            TL_LABEL + TL_WIDTH + 10, h, TL_LABEL + TL_WIDTH + 10, h);
    uint32_t r = 0;
    for (uint32_t i = 0; i < s->nctx && r < rows; i++) {
        evt_stats_ctx *c = &s->ctxs[order[i]];
        if (!c->cpu_ticks) continue;
        int y = (int)r * TL_ROW;
        const char *nm = evt_stats_ctx_name(s, c, nb, sizeof nb);
        fprintf(o, "<g class=\"row\"><text x=\"%d\" y=\"%d\" text-anchor=\"end\">", TL_LABEL - 6, y + 13);
        esc(o, nm);
        fprintf(o, "</text><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f3f4f6\"/>\n", TL_LABEL, y + 2,
                TL_WIDTH, TL_ROW - 4);
        for (uint32_t b = 0; c->bins && b < nbins;) {
            /* merge runs of bins with the same opacity step (10 levels) */
            int lvl = (int)((double)c->bins[b] * 10.0 / (double)s->tl_width + 0.999);
            if (lvl > 10) lvl = 10;
            uint32_t e = b + 1;
            while (e < nbins) {
                int l2 = (int)((double)c->bins[e] * 10.0 / (double)s->tl_width + 0.999);
                if (l2 > 10) l2 = 10;
                if (l2 != lvl) break;
                e++;
            }
            if (lvl > 0) {
                uint64_t t0 = evt_stats_time(s, (uint64_t)b * s->tl_width);
                fmt_time(tb, sizeof tb, s, t0);
                fprintf(o, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\" fill-opacity=\"%.1f\" "
                           "data-tip=\"",
                        TL_LABEL + b * px, y + 2, (e - b) * px, TL_ROW - 4, color_(c->cls), lvl / 10.0);
                esc(o, nm);
                fprintf(o, " @ +%s: up to %d0%% busy\"/>\n", tb, lvl);
            }
            b = e;
        }
        fputs("</g>\n", o);
        r++;
    }
    /* time axis */
    int ay = (int)rows * TL_ROW + 4;
    fprintf(o, "<g class=\"axis\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", TL_LABEL, ay, TL_LABEL + TL_WIDTH, ay);
    for (int k = 0; k <= 5; k++) {
        int x = TL_LABEL + k * TL_WIDTH / 5;
        fmt_time(tb, sizeof tb, s, evt_stats_time(s, (uint64_t)((double)nbins * s->tl_width * k / 5.0)));
        fprintf(o, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><text x=\"%d\" y=\"%d\" text-anchor=\"%s\">+%s</text>\n",
                x, ay, x, ay + 4, x, ay + 16, k == 0 ? "start" : k == 5 ? "end" : "middle", tb);
    }
    fputs("</g></svg>\n", o);
    (void)dur;
}

static void load_chart_(FILE *o, evt_stats *s, const uint32_t *order)
{
    uint64_t dur = evt_stats_duration(s);
    uint32_t n = s->nctx < 32 ? s->nctx : 32;
    char nb[64];
    fprintf(o, "<svg id=\"load\" width=\"%d\" height=\"%u\" role=\"img\">\n", TL_LABEL + 420, n * 16 + 4);
    for (uint32_t i = 0; i < n; i++) {
        evt_stats_ctx *c = &s->ctxs[order[i]];
        double pct = dur ? (double)c->cpu_ticks * 100.0 / (double)dur : 0;
        const char *nm = evt_stats_ctx_name(s, c, nb, sizeof nb);
        fprintf(o, "<text x=\"%d\" y=\"%u\" text-anchor=\"end\">", TL_LABEL - 6, i * 16 + 12);
        esc(o, nm);
        fprintf(o, "</text><rect x=\"%d\" y=\"%u\" width=\"%.1f\" height=\"12\" fill=\"%s\" data-tip=\"", TL_LABEL,
                i * 16 + 2, pct * 3.5 + 0.5, color_(c->cls));
        esc(o, nm);
        fprintf(o, ": %.2f%%\"/><text x=\"%.1f\" y=\"%u\">%.2f%%</text>\n", pct, TL_LABEL + pct * 3.5 + 5, i * 16 + 12,
                pct);
    }
    fputs("</svg>\n", o);
}

/* Latency table + a range chart per row (log scale): min..max line, p50..p90 box, p99 tick. */
static void latency_(FILE *o, evt_stats *s, const char *title, const char *id, evt_span_cat cat)
{
    uint32_t n;
    uint32_t *ord = evt_stats_lat_order(s, cat, &n);
    if (!ord || n == 0) { evt_free(ord); return; }
    uint64_t lo = UINT64_MAX, hi = 1;
    for (uint32_t i = 0; i < n; i++) {
        evt_hist *h = &s->lats[ord[i]].h;
        if (h->min < lo) lo = h->min;
        if (h->max > hi) hi = h->max;
    }
    if (lo < 1) lo = 1;
    double llo = log((double)lo), lhi = log((double)hi);
    if (lhi - llo < 1e-9) lhi = llo + 1;
    const char *unit = s->clock_hz ? "ns" : "ticks";
    fprintf(o, "<h2>%s</h2>\n<table id=\"%s\"><thead><tr><th>name</th><th>count</th><th>min</th><th>p50</th><th>p90</th>"
               "<th>p99</th><th>max</th><th>sum</th><th>range (log scale, %s)</th></tr></thead><tbody>\n",
            title, id, unit);
    for (uint32_t i = 0; i < n; i++) {
        evt_stats_lat *l = &s->lats[ord[i]];
        evt_hist *h = &l->h;
        uint64_t v[6] = {h->min, evt_hist_pct(h, 0.5), evt_hist_pct(h, 0.9), evt_hist_pct(h, 0.99), h->max, h->sum};
        fputs("<tr><td>", o);
        esc(o, evt_strtab_str(&s->strs, l->label));
        fprintf(o, "</td><td>%" PRIu64 "</td>", h->count);
        for (int k = 0; k < 6; k++) fprintf(o, "<td>%" PRIu64 "%s</td>", evt_stats_time(s, v[k]),
                                            k > 0 && k < 4 && !evt_hist_is_exact(h) ? "~" : "");
        double x[5];
        for (int k = 0; k < 5; k++) {
            double t = (double)(v[k] ? v[k] : 1);
            x[k] = 4 + 292 * (log(t) - llo) / (lhi - llo);
        }
        fprintf(o, "<td><svg width=\"300\" height=\"14\"><line x1=\"%.1f\" y1=\"7\" x2=\"%.1f\" y2=\"7\" stroke=\"#999\"/>"
                   "<rect x=\"%.1f\" y=\"2\" width=\"%.1f\" height=\"10\" fill=\"#2563eb\"/>"
                   "<line x1=\"%.1f\" y1=\"1\" x2=\"%.1f\" y2=\"13\" stroke=\"#dc2626\"/></svg></td></tr>\n",
                x[0], x[4], x[1], x[2] - x[1] < 1 ? 1 : x[2] - x[1], x[3], x[3]);
    }
    fputs("</tbody></table>\n", o);
    evt_free(ord);
}

int evt_report_write(FILE *o, evt_stats *s, const char *format, const char *file, uint64_t errors)
{
    uint32_t *order = evt_stats_ctx_order(s);
    if (!order) return 0;
    uint64_t dur = evt_stats_duration(s);
    char tb[64], nb[64];
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>evtrace report: ", o);
    esc(o, file);
    fprintf(o, "</title>\n<style>%s</style></head><body>\n<h1>evtrace report</h1>\n<div class=\"meta\">", k_css);
    esc(o, file);
    fmt_time(tb, sizeof tb, s, evt_stats_time(s, dur));
    fprintf(o, " &middot; format %s &middot; %" PRIu64 " events &middot; duration %s &middot; %u CPU(s) &middot; clock %s",
            format, s->events, tb, s->ncpus, s->clock_hz ? "known" : "unknown: times in ticks");
    if (s->clock_hz) fprintf(o, " (%" PRIu64 " Hz%s%s)", s->clock_hz, s->clock_source ? ", from " : "",
                             s->clock_source ? s->clock_source : "");
    fputs("</div>\n", o);
    if (errors || s->lost_events)
        fprintf(o, "<p class=\"warn\">%" PRIu64 " decode error(s); %" PRIu64 " lost-data event(s), count %" PRIu64 "</p>\n",
                errors, s->lost_events, s->lost_count);
    fputs("<h2>Timeline (CPU time per context)</h2>\n<div class=\"legend\">", o);
    fprintf(o, "<span style=\"background:%s\"></span>thread/task<span style=\"background:%s\"></span>ISR"
               "<span style=\"background:%s\"></span>init<span style=\"background:%s\"></span>other</div>\n",
            color_(EVT_CTX_THREAD), color_(EVT_CTX_ISR), color_(EVT_CTX_INIT), color_(EVT_CTX_NONE));
    timeline_(o, s, order);
    fputs("<h2>Load</h2>\n", o);
    load_chart_(o, s, order);
    fputs("<h2>Contexts</h2>\n<table id=\"contexts\"><thead><tr><th>name</th><th>class</th><th>events</th><th>cpu time</th>"
          "<th>load %</th><th>switches</th><th>ISR entries</th></tr></thead><tbody>\n", o);
    for (uint32_t i = 0; i < s->nctx; i++) {
        evt_stats_ctx *c = &s->ctxs[order[i]];
        fputs("<tr><td>", o);
        esc(o, evt_stats_ctx_name(s, c, nb, sizeof nb));
        fmt_time(tb, sizeof tb, s, evt_stats_time(s, c->cpu_ticks));
        fprintf(o, "</td><td>%s</td><td>%" PRIu64 "</td><td data-v=\"%" PRIu64 "\">%s</td><td>%.2f</td><td>%" PRIu64
                   "</td><td>%" PRIu64 "</td></tr>\n",
                evt_stats_class_name(c->cls), c->events, c->cpu_ticks, tb, /* data-v: time unit, for sorting */
                dur ? (double)c->cpu_ticks * 100.0 / (double)dur : 0.0, c->switches, c->isr_count);
    }
    fputs("</tbody></table>\n", o);
    fmt_time(tb, sizeof tb, s, evt_stats_time(s, s->idle_ticks));
    fprintf(o, "<p>idle/unknown: %s; in ISRs: ", tb);
    fmt_time(tb, sizeof tb, s, evt_stats_time(s, s->isr_ticks));
    fprintf(o, "%s; lost: %" PRIu64 " event(s), count %" PRIu64 "</p>\n", tb, s->lost_events, s->lost_count);
    latency_(o, s, "ISRs", "isrs", EVT_SPAN_ISR);
    latency_(o, s, "Services", "services", EVT_SPAN_SVC);
    latency_(o, s, "Functions", "functions", EVT_SPAN_FUNC);
    fputs("<p class=\"meta\">~ = percentile from the log-linear histogram (within 0.8%). Times in ", o);
    fputs(s->clock_hz ? "ns" : "ticks", o);
    fputs(". Generated by evtrace.</p>\n<div id=\"tip\"></div>\n<div id=\"selfcheck\" class=\"meta\"></div>\n", o);
    /* The stats JSON with every '<' written as \u003c (JSON has '<' only inside strings), so no
     * name can close the script element ("</script") or open an HTML comment ("<!--"). */
    char *js = NULL;
    size_t jl = 0;
    FILE *m = open_memstream(&js, &jl);
    if (!m) { evt_free(order); return 0; }
    evt_json j;
    evt_json_init(&j, m, 0);
    evt_stats_json(s, &j, format, file, errors);
    fclose(m);
    fputs("<script type=\"application/json\" id=\"stats\">", o);
    for (size_t i = 0; i < jl; i++) {
        if (js[i] == '<') fputs("\\u003c", o);
        else fputc(js[i], o);
    }
    free(js);
    fputs("</script>\n<script>\n", o);
    fprintf(o, k_js, TL_MAX_ROWS);
    fputs("</script>\n</body></html>\n", o);
    evt_free(order);
    return !ferror(o);
}
