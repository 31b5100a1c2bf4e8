/* A strict JSON (RFC 8259) well-formedness check for fuzz targets that read back what an exporter
 * wrote: one value, then only whitespace. Nesting is bounded (JSON_CHECK_DEPTH) so a deep document
 * is rejected rather than overflowing the stack. Strings: no raw control bytes, valid escapes;
 * numbers: the JSON grammar (no NaN, Infinity, leading zeros or '+'). */
#ifndef EVT_FUZZ_JSON_CHECK_H
#define EVT_FUZZ_JSON_CHECK_H

#include <stddef.h>
#include <string.h>

#define JSON_CHECK_DEPTH 256

typedef struct json_check { const char *p, *end; } json_check;

static inline void jc_ws_(json_check *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')) j->p++;
}

static inline int jc_digits_(json_check *j)
{
    const char *s = j->p;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
    return j->p > s;
}

static inline int jc_string_(json_check *j)
{
    if (j->p >= j->end || *j->p != '"') return 0;
    for (j->p++; j->p < j->end; j->p++) {
        unsigned char c = (unsigned char)*j->p;
        if (c == '"') { j->p++; return 1; }
        if (c < 0x20) return 0;
        if (c == '\\') {
            if (++j->p >= j->end) return 0;
            if (*j->p == 'u') {
                for (int i = 0; i < 4; i++)
                    if (++j->p >= j->end || !strchr("0123456789abcdefABCDEF", *j->p) || !*j->p) return 0;
            } else if (!*j->p || !strchr("\"\\/bfnrt", *j->p)) {
                return 0;
            }
        }
    }
    return 0;
}

static inline int jc_number_(json_check *j)
{
    if (j->p < j->end && *j->p == '-') j->p++;
    if (j->p < j->end && *j->p == '0') j->p++;
    else if (!jc_digits_(j)) return 0;
    if (j->p < j->end && *j->p == '.') { j->p++; if (!jc_digits_(j)) return 0; }
    if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
        j->p++;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-')) j->p++;
        if (!jc_digits_(j)) return 0;
    }
    return 1;
}

static inline int jc_lit_(json_check *j, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0) return 0;
    j->p += n;
    return 1;
}

static inline int jc_value_(json_check *j, int depth)
{
    jc_ws_(j);
    if (j->p >= j->end || depth > JSON_CHECK_DEPTH) return 0;
    char c = *j->p;
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        j->p++;
        jc_ws_(j);
        if (j->p < j->end && *j->p == close) { j->p++; return 1; }
        for (;;) {
            if (c == '{') {
                jc_ws_(j);
                if (!jc_string_(j)) return 0;
                jc_ws_(j);
                if (j->p >= j->end || *j->p++ != ':') return 0;
            }
            if (!jc_value_(j, depth + 1)) return 0;
            jc_ws_(j);
            if (j->p >= j->end) return 0;
            if (*j->p == close) { j->p++; return 1; }
            if (*j->p++ != ',') return 0;
        }
    }
    if (c == '"') return jc_string_(j);
    if (c == '-' || (c >= '0' && c <= '9')) return jc_number_(j);
    return jc_lit_(j, "true") || jc_lit_(j, "false") || jc_lit_(j, "null");
}

/* 1 when s[0..n) is one well-formed JSON value (with optional surrounding whitespace). */
static inline int json_check_doc(const char *s, size_t n)
{
    json_check j = {s, s + n};
    if (!jc_value_(&j, 0)) return 0;
    jc_ws_(&j);
    return j.p == j.end;
}

#endif
