/* The page in live mode: the report page exactly as `evtrace report` writes it, plus the live
 * script (live.js, embedded at build time) as the body's first element, and a content policy that
 * also lets the page talk to the server it came from (connect-src 'self'; still nothing else). */
#include "host/live/live.h"

#include <stdio.h>
#include <string.h>
#include "evtrace/alloc.h"

extern const char evt_live_js[];

static const char k_csp_from[] = "default-src 'none';";
static const char k_csp_to[] = "default-src 'none'; connect-src 'self';";

char *evt_live_page(const char *html, size_t len, uint64_t gen, size_t *out_len)
{
    const char *body = NULL, *csp = NULL;
    for (size_t i = 0; i + 6 <= len && !body; i++)
        if (memcmp(html + i, "<body>", 6) == 0) body = html + i + 6;
    for (size_t i = 0; body && i + sizeof k_csp_from - 1 <= (size_t)(body - html) && !csp; i++)
        if (memcmp(html + i, k_csp_from, sizeof k_csp_from - 1) == 0) csp = html + i;
    if (!body || !csp) return NULL;
    char open[96];
    int on = snprintf(open, sizeof open, "\n<script id=\"evt-live\" data-gen=\"%llu\">\n", (unsigned long long)gen);
    static const char close_[] = "</script>\n";
    size_t js = strlen(evt_live_js);
    size_t n = len + (sizeof k_csp_to - sizeof k_csp_from) + (size_t)on + js + sizeof close_ - 1;
    char *p = evt_malloc(n + 1), *w = p;
    if (!p) return NULL;
    size_t a = (size_t)(csp - html);
    memcpy(w, html, a); w += a;
    memcpy(w, k_csp_to, sizeof k_csp_to - 1); w += sizeof k_csp_to - 1;
    const char *rest = csp + sizeof k_csp_from - 1;
    size_t b = (size_t)(body - rest);
    memcpy(w, rest, b); w += b;
    memcpy(w, open, (size_t)on); w += on;
    memcpy(w, evt_live_js, js); w += js;
    memcpy(w, close_, sizeof close_ - 1); w += sizeof close_ - 1;
    size_t c = len - (size_t)(body - html);
    memcpy(w, body, c); w += c;
    *w = '\0';
    *out_len = (size_t)(w - p);
    return p;
}

char *evt_live_waiting_page(const char *title, size_t *out_len)
{
    static const char fmt[] =
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; connect-src 'self'; "
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'\"><title>evtrace live</title></head>"
        "<body style=\"font:14px system-ui,sans-serif;margin:2em\"><h1>evtrace live</h1>"
        "<p>Waiting for the first data from <b id=\"src\"></b>&hellip; the report appears here by itself.</p>"
        "<script>document.getElementById('src').textContent = %s;"
        "new EventSource('/events').addEventListener('update', function () { location.reload(); });</script>"
        "</body></html>";
    /* the title as a JS string literal: only safe characters kept */
    char lit[300];
    size_t k = 0;
    lit[k++] = '\'';
    for (const char *s = title; *s && k < sizeof lit - 3; s++) {
        char c = *s;
        lit[k++] = (c >= ' ' && c != '\'' && c != '\\' && c != '<' && c != '>' && (unsigned char)c < 0x7F) ? c : '?';
    }
    lit[k++] = '\'';
    lit[k] = '\0';
    size_t n = sizeof fmt + k;
    char *p = evt_malloc(n);
    if (!p) return NULL;
    int w = snprintf(p, n, fmt, lit);
    *out_len = (size_t)w;
    return p;
}
