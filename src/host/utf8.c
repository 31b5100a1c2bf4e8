/* UTF-8 validation and U+FFFD substitution (utf8.h). */
#include "utf8.h"

#include <string.h>

size_t evt_utf8_seq(const unsigned char *s, size_t n, size_t *bad)
{
    unsigned char c = s[0];
    *bad = 1;
    if (c < 0x80) return 1;
    size_t need = c >= 0xF5 ? 0 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
    if (need == 0) return 0; /* 0x80-0xC1, 0xF5-0xFF never start a sequence */
    /* The second byte's range depends on the lead (no overlongs, no surrogates, <= U+10FFFF). */
    unsigned char lo = 0x80, hi = 0xBF;
    if (c == 0xE0) lo = 0xA0;
    else if (c == 0xED) hi = 0x9F;
    else if (c == 0xF0) lo = 0x90;
    else if (c == 0xF4) hi = 0x8F;
    size_t k = 1;
    for (; k < need && k < n; k++) {
        unsigned char b = s[k];
        if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) break;
    }
    if (k == need) return need;
    *bad = k;
    return 0;
}

int evt_utf8_valid(const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    for (size_t i = 0; i < n;) {
        if (s[i] < 0x80) { i++; continue; }
        size_t bad, k = evt_utf8_seq(s + i, n - i, &bad);
        if (k == 0) return 0;
        i += k;
    }
    return 1;
}

int evt_utf8_valid_z(const char *str, size_t *len)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (s[i] && s[i] < 0x80) i++; /* the usual case: plain ASCII up to the NUL */
    if (!s[i]) { *len = i; return 1; }
    size_t n = i + strlen(str + i);
    *len = n;
    return evt_utf8_valid(str + i, n - i);
}

size_t evt_utf8_clean_len(const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t out = 0;
    for (size_t i = 0; i < n;) {
        size_t bad, k = evt_utf8_seq(s + i, n - i, &bad);
        if (k) { out += k; i += k; }
        else { out += 3; i += bad; }
    }
    return out;
}

size_t evt_utf8_clean(const char *str, size_t n, char *out)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t bad, k = evt_utf8_seq(s + i, n - i, &bad);
        if (k) {
            for (size_t m = 0; m < k; m++) out[o++] = (char)s[i + m];
            i += k;
        } else {
            out[o++] = (char)0xEF; out[o++] = (char)0xBF; out[o++] = (char)0xBD;
            i += bad;
        }
    }
    return o;
}
