/* User events, host side: argument split and the printf formatter (user_fmt.h). Each conversion
 * is parsed here (flags, width, precision, length, conversion), checked against the recorded
 * argument, and handed alone to snprintf with the value cast to the type its length modifier
 * names, so the text is the C library's own; '*' widths and precisions are taken from the
 * recorded int arguments and written into the single conversion as numbers. */
#include "formats/user/user_fmt.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "evtrace/alloc.h"

#define FMT_FIELD_MAX 65536 /* widths and precisions above this are refused (bounded output) */

static const char *const k_tag_names[] = {
#define TAG_NAME_(n, v, w) [v] = #n,
    EVT_USER_TAG_TABLE(TAG_NAME_)
#undef TAG_NAME_
};
static const uint8_t k_tag_words[] = {
#define TAG_WORDS_(n, v, w) [v] = w,
    EVT_USER_TAG_TABLE(TAG_WORDS_)
#undef TAG_WORDS_
};

const char *evt_user_tag_name(unsigned tag)
{
    return tag < sizeof k_tag_names / sizeof k_tag_names[0] && k_tag_names[tag] ? k_tag_names[tag] : "?";
}

/* ---- text buffer ------------------------------------------------------------------------------ */

void evt_user_text_reset(evt_user_text *t)
{
    t->len = 0;
    t->cut = 0;
    if (t->p) t->p[0] = '\0';
}

void evt_user_text_free(evt_user_text *t)
{
    evt_free(t->p);
    memset(t, 0, sizeof *t);
}

void evt_user_text_add(evt_user_text *t, const char *s, size_t n)
{
    if (t->len + n > EVT_USER_TEXT_MAX) {
        n = EVT_USER_TEXT_MAX - t->len;
        t->cut = 1;
    }
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 128;
        while (cap < t->len + n + 1) cap *= 2;
        char *p = evt_realloc(t->p, cap);
        if (!p) {
            t->cut = 1;
            return;
        }
        t->p = p;
        t->cap = cap;
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = '\0';
}

/* Append what snprintf(fmt, ...) gives (any length). */
static void text_vprintf(evt_user_text *t, const char *fmt, va_list ap)
{
    char small[256];
    va_list cp;
    va_copy(cp, ap);
    int n = vsnprintf(small, sizeof small, fmt, cp);
    va_end(cp);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        evt_user_text_add(t, small, (size_t)n);
        return;
    }
    char *big = evt_malloc((size_t)n + 1);
    if (!big) {
        t->cut = 1;
        return;
    }
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    evt_user_text_add(t, big, (size_t)n);
    evt_free(big);
}

void evt_user_text_printf(evt_user_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    text_vprintf(t, fmt, ap);
    va_end(ap);
}

const char *evt_user_text_str(const evt_user_text *t) { return t->p && t->len ? t->p : ""; }

/* ---- arguments -------------------------------------------------------------------------------- */

uint32_t evt_user_args_parse(uint32_t sig, const uint32_t *w, uint32_t n, evt_user_arg *a, uint8_t *strbuf,
                             uint32_t *bad)
{
    uint32_t na = 0, i = 0;
    size_t sb = 0;
    *bad = UINT32_MAX;
    for (unsigned k = 0; k < EVT_USER_MAX_ARGS; k++, sig >>= EVT_USER_TAG_BITS) {
        unsigned tag = sig & 0xFu;
        if (tag == EVT_USER_T_END) break;
        if (tag >= EVT_USER_T_COUNT_) {
            *bad = i;
            break;
        }
        evt_user_arg *x = &a[na];
        memset(x, 0, sizeof *x);
        x->tag = (uint8_t)tag;
        x->word = i;
        if (i + k_tag_words[tag] > n) {
            *bad = i;
            break;
        }
        if (tag == EVT_USER_T_STR) {
            uint32_t h = w[i++];
            uint32_t len = h & EVT_USER_STR_LEN, words = (len + 3u) / 4u;
            x->str_cut = (h & EVT_USER_STR_CUT) != 0;
            x->str_null = (h & EVT_USER_STR_NULL) != 0;
            if (words > n - i) {
                *bad = i - 1u;
                break;
            }
            x->s = strbuf + sb;
            x->slen = len;
            for (uint32_t b = 0; b < len; b++) strbuf[sb++] = (uint8_t)(w[i + b / 4u] >> (8u * (b % 4u)));
            i += words;
        } else if (k_tag_words[tag] == 2u) {
            x->u = (uint64_t)w[i] | (uint64_t)w[i + 1] << 32;
            i += 2;
        } else {
            x->u = tag == EVT_USER_T_I32 ? (uint64_t)(int64_t)(int32_t)w[i] : w[i];
            i += 1;
        }
        na++;
    }
    return na;
}

static double arg_double(const evt_user_arg *a)
{
    double d;
    memcpy(&d, &a->u, sizeof d);
    return d;
}

static int is_int_tag(unsigned t)
{
    return t == EVT_USER_T_I32 || t == EVT_USER_T_U32 || t == EVT_USER_T_I64 || t == EVT_USER_T_U64 ||
           t == EVT_USER_T_PTR32 || t == EVT_USER_T_PTR64;
}

/* A string argument NUL-terminated for snprintf (bytes up to the first NUL, which a recorded string
 * never holds). */
static char *arg_cstr(const evt_user_arg *a)
{
    char *s = evt_malloc((size_t)a->slen + 1);
    if (!s) return NULL;
    memcpy(s, a->s, a->slen);
    s[a->slen] = '\0';
    return s;
}

void evt_user_args_raw(evt_user_text *out, const evt_user_arg *a, uint32_t na)
{
    for (uint32_t k = 0; k < na; k++) {
        if (k) evt_user_text_add(out, ", ", 2);
        switch (a[k].tag) {
        case EVT_USER_T_I32:
        case EVT_USER_T_I64: evt_user_text_printf(out, "%" PRId64, (int64_t)a[k].u); break;
        case EVT_USER_T_F64:
        case EVT_USER_T_LDBL: evt_user_text_printf(out, "%.17g", arg_double(&a[k])); break;
        case EVT_USER_T_PTR32:
        case EVT_USER_T_PTR64: evt_user_text_printf(out, "0x%" PRIx64, a[k].u); break;
        case EVT_USER_T_STR:
            if (a[k].str_null) {
                evt_user_text_add(out, "NULL", 4);
            } else {
                evt_user_text_add(out, "\"", 1);
                for (uint32_t b = 0; b < a[k].slen; b++) {
                    uint8_t c = a[k].s[b];
                    if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') evt_user_text_add(out, (const char *)&c, 1);
                    else evt_user_text_printf(out, "\\x%02x", c);
                }
                evt_user_text_add(out, a[k].str_cut ? "\"..." : "\"", a[k].str_cut ? 4 : 1);
            }
            break;
        default: evt_user_text_printf(out, "%" PRIu64, a[k].u); break;
        }
    }
}

/* ---- the formatter ---------------------------------------------------------------------------- */

enum { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_J, LEN_Z, LEN_T, LEN_BIGL };

static int fail(char *diag, size_t dcap, size_t *at, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int fail(char *diag, size_t dcap, size_t *at, size_t pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(diag, dcap, fmt, ap);
    va_end(ap);
    *at = pos;
    return -1;
}

/* Read a '*' width or precision from the next argument: an integer, as int. */
static int star_arg(const evt_user_arg *a, uint32_t na, uint32_t *k, long long *v)
{
    if (*k >= na || !is_int_tag(a[*k].tag)) return 0;
    *v = (int)(int64_t)a[*k].u; /* printf reads an int */
    (*k)++;
    return 1;
}

int evt_user_format(evt_user_text *out, const char *fmt, size_t fmt_len, const evt_user_arg *a, uint32_t na,
                    char *diag, size_t dcap, size_t *at)
{
    uint32_t k = 0;
    size_t i = 0;
    while (i < fmt_len && fmt[i] != '\0') {
        size_t lit = i;
        while (i < fmt_len && fmt[i] != '\0' && fmt[i] != '%') i++;
        if (i > lit) evt_user_text_add(out, fmt + lit, i - lit);
        if (i >= fmt_len || fmt[i] == '\0') break;
        size_t start = i++;
        if (i < fmt_len && fmt[i] == '%') {
            evt_user_text_add(out, "%", 1);
            i++;
            continue;
        }
        /* flags */
        char spec[64];
        size_t sp = 0;
        spec[sp++] = '%';
        int minus = 0;
        while (i < fmt_len && strchr("-+ #0'", fmt[i]) && fmt[i] != '\0') {
            if (fmt[i] == '-') minus = 1;
            if (sp < 12) spec[sp++] = fmt[i];
            i++;
        }
        /* width */
        long long width = -1;
        if (i < fmt_len && fmt[i] == '*') {
            if (!star_arg(a, na, &k, &width))
                return fail(diag, dcap, at, i, "argument %u: '*' width needs an integer argument", k + 1u);
            i++;
            if (width < 0) {
                if (!minus) spec[sp++] = '-';
                width = -width;
            }
        } else if (i < fmt_len && fmt[i] >= '1' && fmt[i] <= '9') {
            width = 0;
            while (i < fmt_len && fmt[i] >= '0' && fmt[i] <= '9') {
                if (width <= FMT_FIELD_MAX) width = width * 10 + (fmt[i] - '0');
                i++;
            }
            if (i < fmt_len && fmt[i] == '$')
                return fail(diag, dcap, at, start, "positional arguments (%%n$) are not supported");
        }
        if (width > FMT_FIELD_MAX) return fail(diag, dcap, at, start, "width over %d", FMT_FIELD_MAX);
        if (width >= 0) sp += (size_t)snprintf(spec + sp, sizeof spec - sp, "%lld", width);
        /* precision */
        if (i < fmt_len && fmt[i] == '.') {
            i++;
            long long prec = 0;
            if (i < fmt_len && fmt[i] == '*') {
                if (!star_arg(a, na, &k, &prec))
                    return fail(diag, dcap, at, i, "argument %u: '*' precision needs an integer argument", k + 1u);
                i++;
            } else {
                while (i < fmt_len && fmt[i] >= '0' && fmt[i] <= '9') {
                    if (prec <= FMT_FIELD_MAX) prec = prec * 10 + (fmt[i] - '0');
                    i++;
                }
            }
            if (prec > FMT_FIELD_MAX) return fail(diag, dcap, at, start, "precision over %d", FMT_FIELD_MAX);
            if (prec >= 0) sp += (size_t)snprintf(spec + sp, sizeof spec - sp, ".%lld", prec);
            /* a negative '*' precision is taken as if omitted */
        }
        /* length */
        int len = LEN_NONE;
        if (i < fmt_len) {
            char c = fmt[i];
            if (c == 'h') {
                len = (i + 1 < fmt_len && fmt[i + 1] == 'h') ? LEN_HH : LEN_H;
                i += len == LEN_HH ? 2 : 1;
            } else if (c == 'l') {
                len = (i + 1 < fmt_len && fmt[i + 1] == 'l') ? LEN_LL : LEN_L;
                i += len == LEN_LL ? 2 : 1;
            } else if (c == 'q') { len = LEN_LL; i++; }
            else if (c == 'j') { len = LEN_J; i++; }
            else if (c == 'z') { len = LEN_Z; i++; }
            else if (c == 't') { len = LEN_T; i++; }
            else if (c == 'L') { len = LEN_BIGL; i++; }
        }
        if (i >= fmt_len || fmt[i] == '\0')
            return fail(diag, dcap, at, start, "conversion at the end of the format is incomplete");
        char conv = fmt[i++];
        if (conv == 'n') { /* writes nothing; its pointer argument is consumed */
            if (k < na) k++;
            continue;
        }
        if (!strchr("diouxXcspfFeEgGaA", conv))
            return fail(diag, dcap, at, i - 1, "unknown conversion '%c'", conv);
        if ((conv == 'c' || conv == 's') && len != LEN_NONE)
            return fail(diag, dcap, at, start, "wide characters (%%l%c) are not supported", conv);
        if (k >= na) return fail(diag, dcap, at, start, "argument %u: missing (the record has %u)", k + 1u, na);
        const evt_user_arg *x = &a[k++];
        if (sp + 4 >= sizeof spec) return fail(diag, dcap, at, start, "conversion too long");
        static const char *const k_len[] = {"", "hh", "h", "l", "ll", "j", "z", "t", "L"};
        if (conv != 'p') sp += (size_t)snprintf(spec + sp, sizeof spec - sp, "%s", k_len[len]);
        spec[sp++] = conv;
        spec[sp] = '\0';
        if (strchr("di", conv)) {
            if (!is_int_tag(x->tag))
                return fail(diag, dcap, at, start, "argument %u: %%%c needs an integer, the record has %s", k, conv,
                            evt_user_tag_name(x->tag));
            long long v = (long long)x->u;
            switch (len) {
            case LEN_HH: evt_user_text_printf(out, spec, (signed char)v); break;
            case LEN_H: evt_user_text_printf(out, spec, (short)v); break;
            case LEN_L: evt_user_text_printf(out, spec, (long)v); break;
            case LEN_LL: evt_user_text_printf(out, spec, v); break;
            case LEN_J: evt_user_text_printf(out, spec, (intmax_t)v); break;
            case LEN_Z: evt_user_text_printf(out, spec, (ptrdiff_t)v); break; /* signed size_t */
            case LEN_T: evt_user_text_printf(out, spec, (ptrdiff_t)v); break;
            case LEN_NONE: evt_user_text_printf(out, spec, (int)v); break;
            default: return fail(diag, dcap, at, start, "argument %u: length L with %%%c", k, conv);
            }
        } else if (strchr("ouxX", conv)) {
            if (!is_int_tag(x->tag))
                return fail(diag, dcap, at, start, "argument %u: %%%c needs an integer, the record has %s", k, conv,
                            evt_user_tag_name(x->tag));
            unsigned long long v = x->u;
            switch (len) {
            case LEN_HH: evt_user_text_printf(out, spec, (unsigned char)v); break;
            case LEN_H: evt_user_text_printf(out, spec, (unsigned short)v); break;
            case LEN_L: evt_user_text_printf(out, spec, (unsigned long)v); break;
            case LEN_LL: evt_user_text_printf(out, spec, v); break;
            case LEN_J: evt_user_text_printf(out, spec, (uintmax_t)v); break;
            case LEN_Z: evt_user_text_printf(out, spec, (size_t)v); break;
            case LEN_T: evt_user_text_printf(out, spec, (size_t)v); break; /* unsigned ptrdiff_t */
            case LEN_NONE: evt_user_text_printf(out, spec, (unsigned)v); break;
            default: return fail(diag, dcap, at, start, "argument %u: length L with %%%c", k, conv);
            }
        } else if (conv == 'c') {
            if (!is_int_tag(x->tag))
                return fail(diag, dcap, at, start, "argument %u: %%c needs an integer, the record has %s", k,
                            evt_user_tag_name(x->tag));
            evt_user_text_printf(out, spec, (int)x->u);
        } else if (conv == 'p') {
            if (!is_int_tag(x->tag))
                return fail(diag, dcap, at, start, "argument %u: %%p needs a pointer, the record has %s", k,
                            evt_user_tag_name(x->tag));
            evt_user_text_printf(out, spec, (void *)(uintptr_t)x->u);
        } else if (conv == 's') {
            if (x->tag != EVT_USER_T_STR)
                return fail(diag, dcap, at, start, "argument %u: %%s needs a string, the record has %s", k,
                            evt_user_tag_name(x->tag));
            if (x->str_null) {
                const char *volatile nul = NULL; /* glibc prints "(null)"; as the target's C library might */
                evt_user_text_printf(out, spec, nul);
            } else {
                char *s = arg_cstr(x);
                if (!s) return fail(diag, dcap, at, start, "out of memory");
                evt_user_text_printf(out, spec, s);
                evt_free(s);
            }
        } else { /* floating point */
            if (x->tag != EVT_USER_T_F64 && x->tag != EVT_USER_T_LDBL)
                return fail(diag, dcap, at, start, "argument %u: %%%c needs a double, the record has %s", k, conv,
                            evt_user_tag_name(x->tag));
            if (len != LEN_NONE && len != LEN_L && len != LEN_BIGL)
                return fail(diag, dcap, at, start, "argument %u: length modifier with %%%c", k, conv);
            double d = arg_double(x);
            if (len == LEN_BIGL) evt_user_text_printf(out, spec, (long double)d);
            else evt_user_text_printf(out, spec, d);
        }
    }
    return 0;
}
