/* Terminal-safe text (safe_text.h). */
#include "safe_text.h"

#include <string.h>
#include "utf8.h"

/* The escape for the item at s[0..n): writes it to e (room for 12 bytes) and returns its length,
 * or 0 when the item passes as is; *len receives the item's length in s. */
static size_t item_(const unsigned char *s, size_t n, char *e, size_t *len)
{
    static const char hex[] = "0123456789abcdef";
    unsigned char c = s[0];
    *len = 1;
    if (c >= 0x20 && c < 0x7f) return 0;
    if (c == '\n') { memcpy(e, "\\n", 2); return 2; }
    if (c == '\r') { memcpy(e, "\\r", 2); return 2; }
    if (c == '\t') { memcpy(e, "\\t", 2); return 2; }
    if (c < 0x80) { /* other C0 bytes and DEL */
        e[0] = '\\'; e[1] = 'x'; e[2] = hex[c >> 4]; e[3] = hex[c & 15];
        return 4;
    }
    size_t bad, k = evt_utf8_seq(s, n, &bad);
    if (k == 0) { /* an invalid sequence: its first byte, the rest is looked at again */
        e[0] = '\\'; e[1] = 'x'; e[2] = hex[c >> 4]; e[3] = hex[c & 15];
        return 4;
    }
    *len = k;
    unsigned cp = 0;
    if (k == 2) cp = ((unsigned)(c & 0x1f) << 6) | (s[1] & 0x3fu);
    else if (k == 3) cp = ((unsigned)(c & 0x0f) << 12) | ((s[1] & 0x3fu) << 6) | (s[2] & 0x3fu);
    if ((cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) {
        e[0] = '\\'; e[1] = 'u';
        for (int i = 0; i < 4; i++) e[2 + i] = hex[(cp >> (12 - 4 * i)) & 15];
        return 6;
    }
    return 0;
}

int evt_text_is_safe(const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    char e[12];
    for (size_t i = evt_plain_prefix(str, n), len; i < n; i += len) /* printable ASCII passes as is */
        if (item_(s + i, n - i, e, &len)) return 0;
    return 1;
}

size_t evt_text_escaped_len(const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    char e[12];
    size_t out = 0;
    for (size_t i = 0, len; i < n; i += len) {
        size_t el = item_(s + i, n - i, e, &len);
        out += el ? el : len;
    }
    return out;
}

size_t evt_text_escape(const char *str, size_t n, char *out, size_t cap)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t o = 0;
    char e[12];
    for (size_t i = 0, len; i < n; i += len) {
        size_t el = item_(s + i, n - i, e, &len);
        const char *src = el ? e : str + i;
        size_t sl = el ? el : len;
        if (o + sl + 1 > cap) { /* no room: end with "..." if it fits */
            while (o > 0 && o + 4 > cap) o--;
            while (o > 0 && ((unsigned char)out[o] & 0xC0) == 0x80) o--; /* not inside a UTF-8 sequence */
            if (o + 4 <= cap) { memcpy(out + o, "...", 3); o += 3; }
            break;
        }
        memcpy(out + o, src, sl);
        o += sl;
    }
    if (cap) out[o < cap ? o : cap - 1] = '\0';
    return o;
}

int evt_text_fput(const char *str, size_t n, FILE *f)
{
    const unsigned char *s = (const unsigned char *)str;
    char e[12];
    size_t run = 0; /* bytes passing as is, not yet written */
    for (size_t i = 0, len; i < n; i += len) {
        size_t el = item_(s + i, n - i, e, &len);
        if (!el) { run += len; continue; }
        if (run && fwrite(str + i - run, 1, run, f) != run) return EOF;
        run = 0;
        if (fwrite(e, 1, el, f) != el) return EOF;
    }
    if (run && fwrite(str + n - run, 1, run, f) != run) return EOF;
    return 0;
}
