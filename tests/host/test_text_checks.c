/* The 8-bytes-a-step text checks (src/host/utf8.c, safe_text.c) against a byte-at-a-time
 * reference: every byte value at every position of strings of 0..24 bytes, so each word boundary
 * and each tail length is crossed; evt_utf8_valid and evt_text_is_safe give what they gave byte
 * by byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>
#include "host/safe_text.h"
#include "host/utf8.h"

static size_t ref_ascii(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (unsigned char)s[i] < 0x80) i++;
    return i;
}

static size_t ref_plain(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f) i++;
    return i;
}

static void test_prefixes_match_reference(void **st)
{
    (void)st;
    char b[32];
    for (size_t n = 0; n <= 24; n++)
        for (size_t at = 0; at < (n ? n : 1); at++)
            for (unsigned v = 0; v < 256; v++) {
                memset(b, 'a', sizeof b);
                if (n) b[at] = (char)v;
                assert_int_equal(evt_ascii_prefix(b, n), ref_ascii(b, n));
                assert_int_equal(evt_plain_prefix(b, n), ref_plain(b, n));
            }
}

static void test_checks_after_the_prefix(void **st)
{
    (void)st;
    /* a valid 2-byte sequence after 9 ASCII bytes (past the first word), an invalid one, a
     * control byte in the tail, DEL, a C1 control as UTF-8 (not terminal-safe) */
    assert_true(evt_utf8_valid("abcdefghi\xc3\xa9", 11));
    assert_false(evt_utf8_valid("abcdefghi\xc3", 10));
    assert_false(evt_utf8_valid("abcdefghi\xff", 10));
    assert_true(evt_text_is_safe("abcdefghijklmnop", 16));
    assert_false(evt_text_is_safe("abcdefghijklmno\x1b", 16));
    assert_false(evt_text_is_safe("abcdefgh\x7f", 9));
    assert_false(evt_text_is_safe("abcdefghi\xc2\x85", 11));
    assert_true(evt_text_is_safe("abcdefghi\xc3\xa9", 11));
    assert_true(evt_utf8_valid("", 0));
    assert_true(evt_text_is_safe("", 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prefixes_match_reference),
        cmocka_unit_test(test_checks_after_the_prefix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
