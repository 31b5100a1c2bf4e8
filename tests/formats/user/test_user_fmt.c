/* The user-event formatter (src/formats/user/user_fmt_host.c) against the C library: 1000
 * generated conversions (every conversion, flag, width and precision given inline or by '*',
 * every length modifier), each inside literal text with a "%%", formatted from recorded arguments
 * and by snprintf with the same values; the texts must be equal. Then the failure paths: unknown
 * conversions, missing or mismatched arguments, positional arguments, huge widths, a format that
 * ends inside a conversion, a format without its NUL: a diagnostic with the byte, never more read
 * than given. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "evt_test.h"
#include "formats/user/user_fmt.h"

static uint64_t g_rng = 0x9E3779B97F4A7C15u;
static uint64_t rnd(void) { return evt_test_rand(&g_rng); }
static unsigned pick(unsigned n) { return (unsigned)(rnd() % n); }

/* A random integer of random magnitude (small, around a width boundary, or full 64-bit). */
static uint64_t rnd_int(void)
{
    switch (pick(4)) {
    case 0: return rnd() % 20u;
    case 1: return (uint64_t)-(int64_t)(rnd() % 300u);
    case 2: return rnd() >> pick(64);
    default: return rnd();
    }
}

static double rnd_double(void)
{
    static const double special[] = {0.0, -0.0, 1.0, -1.5, 0.1, 1e300, -1e-300, 123456789.125, 5e-324, 0.5, 2.5, 1e21};
    if (pick(3) == 0) return special[pick(sizeof special / sizeof special[0])];
    double m = (double)(int64_t)rnd() / 9.2233720368547758e18;
    int e = (int)pick(80) - 40;
    double d = m;
    while (e > 0) { d *= 10; e--; }
    while (e < 0) { d /= 10; e++; }
    return d;
}

enum { L_NONE, L_HH, L_H, L_L, L_LL, L_J, L_Z, L_T, L_BIGL };
static const char *const k_lenstr[] = {"", "hh", "h", "l", "ll", "j", "z", "t", "L"};

/* Expected text of one conversion: snprintf with the value cast as its length says. */
static int ref_one(char *out, size_t cap, const char *spec, int nstar, const int *star, char conv, int len,
                   uint64_t iv, double dv, const char *sv)
{
#define REF_(v)                                                                                   \
    (nstar == 0 ? snprintf(out, cap, spec, v)                                                     \
     : nstar == 1 ? snprintf(out, cap, spec, star[0], v) : snprintf(out, cap, spec, star[0], star[1], v))
    if (strchr("di", conv)) {
        switch (len) {
        case L_HH: return REF_((signed char)(int)iv);
        case L_H: return REF_((short)(int)iv);
        case L_L: return REF_((long)iv);
        case L_LL: return REF_((long long)iv);
        case L_J: return REF_((intmax_t)iv);
        case L_Z: return REF_((ptrdiff_t)iv);
        case L_T: return REF_((ptrdiff_t)iv);
        default: return REF_((int)iv);
        }
    }
    if (strchr("ouxX", conv)) {
        switch (len) {
        case L_HH: return REF_((unsigned char)iv);
        case L_H: return REF_((unsigned short)iv);
        case L_L: return REF_((unsigned long)iv);
        case L_LL: return REF_((unsigned long long)iv);
        case L_J: return REF_((uintmax_t)iv);
        case L_Z: return REF_((size_t)iv);
        case L_T: return REF_((size_t)iv);
        default: return REF_((unsigned)iv);
        }
    }
    if (conv == 'c') return REF_((int)iv);
    if (conv == 'p') return REF_((void *)(uintptr_t)iv);
    if (conv == 's') return REF_(sv);
    if (len == L_BIGL) return REF_((long double)dv);
    return REF_(dv);
#undef REF_
}

static void test_thousand_against_snprintf(void **st)
{
    (void)st;
    static const char convs[] = "diouxXcspfFeEgGaA";
    unsigned compared = 0;
    for (unsigned n = 0; n < 1000; n++) {
        char conv = convs[n % (sizeof convs - 1)];
        int is_int = strchr("diouxX", conv) != NULL, is_fp = strchr("fFeEgGaA", conv) != NULL;
        /* flags allowed with this conversion (no undefined combinations) */
        const char *flags = is_int ? "-+ #0'" : is_fp ? "-+ #0'" : "-";
        if (strchr("di", conv)) flags = "-+ 0'";
        if (conv == 'c' || conv == 's' || conv == 'p') flags = "-";
        char spec[64], rspec[64];
        size_t sp = 0;
        spec[sp++] = '%';
        for (unsigned k = pick(4); k > 0; k--) spec[sp++] = flags[pick((unsigned)strlen(flags))];
        int star[2], nstar = 0;
        evt_user_arg args[4];
        uint32_t na = 0;
        memset(args, 0, sizeof args);
        unsigned w = pick(3);
        if (w == 1) sp += (size_t)sprintf(spec + sp, "%u", 1u + pick(30));
        if (w == 2) {
            spec[sp++] = '*';
            star[nstar++] = (int)pick(41) - 20;
            args[na].tag = EVT_USER_T_I32;
            args[na++].u = (uint64_t)(int64_t)star[nstar - 1];
        }
        if (conv != 'c' && conv != 'p') {
            unsigned p = pick(4);
            if (p == 1) sp += (size_t)sprintf(spec + sp, ".%u", pick(25));
            if (p == 2) spec[sp++] = '.';
            if (p == 3) {
                spec[sp++] = '.';
                spec[sp++] = '*';
                star[nstar++] = (int)pick(30) - 5;
                args[na].tag = EVT_USER_T_I32;
                args[na++].u = (uint64_t)(int64_t)star[nstar - 1];
            }
        }
        int len = L_NONE;
        if (is_int) len = (int)pick(8);
        if (is_fp) len = pick(3) == 0 ? L_BIGL : pick(2) ? L_L : L_NONE;
        sp += (size_t)sprintf(spec + sp, "%s%c", k_lenstr[len], conv);
        spec[sp] = '\0';
        uint64_t iv = rnd_int();
        double dv = rnd_double();
        char sbuf[40];
        unsigned sl = pick(20);
        for (unsigned k = 0; k < sl; k++) sbuf[k] = (char)('a' + pick(26));
        sbuf[sl] = '\0';
        evt_user_arg *a = &args[na++];
        if (is_int || conv == 'c') {
            int wide = len == L_L || len == L_LL || len == L_J || len == L_Z || len == L_T;
            int is_signed = strchr("dic", conv) != NULL;
            a->tag = wide ? (is_signed ? EVT_USER_T_I64 : EVT_USER_T_U64) : (is_signed ? EVT_USER_T_I32 : EVT_USER_T_U32);
            if (!wide) iv = is_signed ? (uint64_t)(int64_t)(int32_t)iv : (uint32_t)iv; /* what the target passed: an int */
            a->u = iv;
        } else if (conv == 'p') {
            a->tag = EVT_USER_T_PTR64;
            a->u = iv;
        } else if (conv == 's') {
            a->tag = EVT_USER_T_STR;
            a->s = (const uint8_t *)sbuf;
            a->slen = sl;
        } else {
            a->tag = len == L_BIGL ? EVT_USER_T_LDBL : EVT_USER_T_F64;
            memcpy(&a->u, &dv, sizeof dv);
        }
        /* the case: literal text, "%%", the conversion */
        char fmt[128];
        snprintf(fmt, sizeof fmt, "<%u %%%%%s>", n, spec);
        char expect[4096], part[4096];
        snprintf(expect, sizeof expect, "<%u %%", n);
        snprintf(rspec, sizeof rspec, "%s", spec);
        int plen = ref_one(part, sizeof part, rspec, nstar, star, conv, len, iv, dv, sbuf);
        assert_true(plen >= 0 && (size_t)plen < sizeof part);
        size_t elen = strlen(expect); /* bytes, not a string: %c of 0 writes a NUL */
        memcpy(expect + elen, part, (size_t)plen);
        elen += (size_t)plen;
        expect[elen++] = '>';
        expect[elen] = '\0';
        evt_user_text t = {0};
        char diag[128];
        size_t at = 0;
        int rc = evt_user_format(&t, fmt, strlen(fmt), args, na, diag, sizeof diag, &at);
        if (rc != 0 || t.len != elen || memcmp(evt_user_text_str(&t), expect, elen) != 0)
            fail_msg("case %u: format \"%s\": got \"%s\" (rc %d %s), snprintf \"%s\"", n, fmt, evt_user_text_str(&t), rc,
                     rc ? diag : "", expect);
        evt_user_text_free(&t);
        compared++;
    }
    assert_int_equal(compared, 1000);
}

static int fmt_fails(const char *fmt, size_t len, const evt_user_arg *a, uint32_t na, const char *word, size_t at_exp)
{
    evt_user_text t = {0};
    char diag[160];
    size_t at = 99999;
    int rc = evt_user_format(&t, fmt, len, a, na, diag, sizeof diag, &at);
    evt_user_text_free(&t);
    if (rc != -1) return 0;
    if (!strstr(diag, word)) { printf("diag '%s' lacks '%s'\n", diag, word); return 0; }
    if (at != at_exp) { printf("'%s' at %zu, expected %zu\n", fmt, at, at_exp); return 0; }
    return 1;
}

static void test_failures(void **st)
{
    (void)st;
    evt_user_arg i32 = {.tag = EVT_USER_T_I32, .u = 5};
    evt_user_arg str = {.tag = EVT_USER_T_STR, .s = (const uint8_t *)"ab", .slen = 2};
    evt_user_arg dbl = {.tag = EVT_USER_T_F64};
    assert_true(fmt_fails("x=%y", 4, &i32, 1, "unknown conversion", 3));
    assert_true(fmt_fails("x=%s", 4, &i32, 1, "needs a string", 2));
    assert_true(fmt_fails("x=%d", 4, &str, 1, "needs an integer", 2));
    assert_true(fmt_fails("x=%f", 4, &i32, 1, "needs a double", 2));
    assert_true(fmt_fails("x=%p", 4, &dbl, 1, "needs a pointer", 2));
    assert_true(fmt_fails("%d %d", 5, &i32, 1, "missing", 3));
    assert_true(fmt_fails("%1$d", 4, &i32, 1, "positional", 0));
    assert_true(fmt_fails("%99999999d", 10, &i32, 1, "width", 0));
    assert_true(fmt_fails("%.99999999d", 11, &i32, 1, "precision", 0));
    assert_true(fmt_fails("abc %", 5, &i32, 1, "incomplete", 4));
    assert_true(fmt_fails("%ls", 3, &str, 1, "wide", 0));
    assert_true(fmt_fails("%*d", 3, &str, 1, "'*' width", 1));
    /* not NUL-terminated: only len bytes are read (ASan checks the copy ends exactly there) */
    char *f = malloc(3);
    memcpy(f, "%d%", 3);
    assert_true(fmt_fails(f, 3, &i32, 1, "incomplete", 2));
    memcpy(f, "a%d", 3);
    evt_user_text t = {0};
    char diag[64];
    size_t at;
    assert_int_equal(evt_user_format(&t, f, 3, &i32, 1, diag, sizeof diag, &at), 0);
    assert_string_equal(evt_user_text_str(&t), "a5");
    evt_user_text_free(&t);
    free(f);
    /* %n writes nothing and takes its argument */
    evt_user_arg two[2] = {{.tag = EVT_USER_T_PTR64, .u = 0x10}, {.tag = EVT_USER_T_I32, .u = 9}};
    assert_int_equal(evt_user_format(&t, "a%nb%d", 6, two, 2, diag, sizeof diag, &at), 0);
    assert_string_equal(evt_user_text_str(&t), "ab9");
    evt_user_text_free(&t);
}

static void test_args_parse_bounds(void **st)
{
    (void)st;
    /* sig: I32, STR, F64; words cut at every length: never reads past n, says where */
    uint32_t sig = EVT_USER_T_I32 | EVT_USER_T_STR << 4 | EVT_USER_T_F64 << 8;
    uint32_t w[6] = {7, 5, 0x64636261, 0x65, 0, 0x3FF00000};
    uint8_t sb[64];
    evt_user_arg a[8];
    uint32_t bad;
    assert_int_equal(evt_user_args_parse(sig, w, 6, a, sb, &bad), 3);
    assert_int_equal(bad, UINT32_MAX);
    assert_int_equal(a[1].slen, 5);
    assert_memory_equal(a[1].s, "abcde", 5);
    double d;
    memcpy(&d, &a[2].u, 8);
    assert_true(d == 1.0);
    static const uint32_t want_n[6] = {0, 1, 1, 1, 2, 2}, want_bad[6] = {0, 1, 1, 1, 4, 4};
    for (uint32_t n = 0; n < 6; n++) {
        uint32_t *cut = malloc(n ? n * 4 : 4);
        memcpy(cut, w, n * 4);
        assert_int_equal(evt_user_args_parse(sig, cut, n, a, sb, &bad), want_n[n]);
        assert_int_equal(bad, want_bad[n]);
        free(cut);
    }
    /* an unknown tag ends the list with the word index */
    assert_int_equal(evt_user_args_parse(0xF1u, w, 6, a, sb, &bad), 1);
    assert_int_equal(bad, 1);
}

static void test_raw(void **st)
{
    (void)st;
    evt_user_arg a[3] = {{.tag = EVT_USER_T_I32, .u = (uint64_t)-3},
                         {.tag = EVT_USER_T_STR, .s = (const uint8_t *)"a\"b", .slen = 3, .str_cut = 1},
                         {.tag = EVT_USER_T_PTR32, .u = 0x20}};
    evt_user_text t = {0};
    evt_user_args_raw(&t, a, 3);
    assert_string_equal(evt_user_text_str(&t), "-3, \"a\\x22b\"..., 0x20");
    evt_user_text_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thousand_against_snprintf),
        cmocka_unit_test(test_failures),
        cmocka_unit_test(test_args_parse_bounds),
        cmocka_unit_test(test_raw),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
