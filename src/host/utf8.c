/* UTF-8 validation and U+FFFD substitution (utf8.h). */
#include "utf8.h"

#include <stdint.h>
#include <string.h>

#define ONES_ 0x0101010101010101ull
#define HIGH_ 0x8080808080808080ull

size_t evt_ascii_prefix(const char *str, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) { /* 8 bytes a step, read within s[0..n) (memcpy: no alignment assumed) */
        uint64_t x;
        memcpy(&x, str + i, 8);
        if (x & HIGH_) break;
    }
    while (i < n && (unsigned char)str[i] < 0x80) i++;
    return i;
}

size_t evt_plain_prefix(const char *str, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x;
        memcpy(&x, str + i, 8);
        /* a byte >= 0x80, < 0x20 (x - 0x20 borrows into the high bit of a byte < 0x20 when no
         * byte is >= 0x80) or == 0x7f (its xor with 0x7f is zero) stops the word */
        uint64_t y = x ^ (0x7f * ONES_);
        if ((x | ((x - 0x20 * ONES_) & ~x) | ((y - ONES_) & ~y)) & HIGH_) break;
    }
    while (i < n && (unsigned char)str[i] >= 0x20 && (unsigned char)str[i] < 0x7f) i++;
    return i;
}

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
    for (size_t i = evt_ascii_prefix(str, n); i < n;) {
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
