/* RowBinary encoding (src/host/exporters/clickhouse_rowbinary.c), byte by byte: varints at their
 * 7-bit boundaries, Int64 and Float64 little-endian, String, Nullable flags, Array(String). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>
#include "host/exporters/clickhouse_rowbinary.h"

#define EXPECT(b, ...)                                                  \
    do {                                                                \
        static const unsigned char want_[] = {__VA_ARGS__};             \
        assert_int_equal((b)->n, sizeof want_);                         \
        assert_memory_equal((b)->p, want_, sizeof want_);               \
        evt_rb_reset(b);                                                \
    } while (0)

static void varints(void **st)
{
    (void)st;
    evt_rb_buf b = {0};
    evt_rb_varint(&b, 0);
    EXPECT(&b, 0x00);
    evt_rb_varint(&b, 127);
    EXPECT(&b, 0x7f);
    evt_rb_varint(&b, 128);
    EXPECT(&b, 0x80, 0x01);
    evt_rb_varint(&b, 300);
    EXPECT(&b, 0xac, 0x02);
    evt_rb_varint(&b, UINT64_MAX);
    EXPECT(&b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
    evt_rb_free(&b);
}

static void numbers_little_endian(void **st)
{
    (void)st;
    evt_rb_buf b = {0};
    evt_rb_i64(&b, 0x0102030405060708LL);
    EXPECT(&b, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01);
    evt_rb_i64(&b, -2);
    EXPECT(&b, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
    evt_rb_f64(&b, 1.0);
    EXPECT(&b, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f);
    evt_rb_f64(&b, -2.5);
    EXPECT(&b, 0, 0, 0, 0, 0, 0, 0x04, 0xc0);
    evt_rb_free(&b);
}

static void strings_nullables_arrays(void **st)
{
    (void)st;
    evt_rb_buf b = {0};
    evt_rb_string(&b, "ab\0c", 4); /* bytes, not C strings */
    EXPECT(&b, 4, 'a', 'b', 0, 'c');
    evt_rb_string(&b, "", 0);
    EXPECT(&b, 0);
    assert_false(evt_rb_null_flag(&b, 1));
    EXPECT(&b, 1);
    assert_true(evt_rb_null_flag(&b, 0));
    evt_rb_i64(&b, 5);
    EXPECT(&b, 0, 5, 0, 0, 0, 0, 0, 0, 0);
    const char *labels[] = {"board", "fw"};
    evt_rb_string_array(&b, labels, 2);
    EXPECT(&b, 2, 5, 'b', 'o', 'a', 'r', 'd', 2, 'f', 'w');
    evt_rb_string_array(&b, NULL, 0);
    EXPECT(&b, 0);
    /* a long string: two-byte length */
    char big[200];
    memset(big, 'x', sizeof big);
    evt_rb_string(&b, big, sizeof big);
    assert_int_equal(b.n, 202);
    assert_int_equal(b.p[0], 0xc8);
    assert_int_equal(b.p[1], 0x01);
    assert_false(b.oom);
    evt_rb_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(varints),
        cmocka_unit_test(numbers_little_endian),
        cmocka_unit_test(strings_nullables_arrays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
