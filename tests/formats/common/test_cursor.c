/* Unit tests of the bounded byte cursor and the freestanding byte stores/loads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "formats/common/cursor.h"

static void test_reads_both_orders(void **st)
{
    (void)st;
    const uint8_t b[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
    evt_cur c;
    evt_cur_init(&c, b, sizeof b, 100, 0);
    assert_int_equal(evt_cur_u16le(&c), 0x0201);
    assert_int_equal(evt_cur_u16be(&c), 0x0304);
    assert_int_equal(evt_cur_u32(&c), 0x08070605u);
    assert_true(evt_cur_ok(&c));
    assert_int_equal(evt_cur_left(&c), 0);
    evt_cur_init(&c, b, sizeof b, 0, 1);
    assert_true(evt_cur_u64(&c) == 0x0102030405060708ull);
    evt_cur_init(&c, b, sizeof b, 0, 0);
    assert_true(evt_cur_u64(&c) == 0x0807060504030201ull);
}

static void test_sticky_error_with_offset(void **st)
{
    (void)st;
    const uint8_t b[] = {0xAA, 0xBB, 0xCC};
    evt_cur c;
    evt_cur_init(&c, b, sizeof b, 1000, 0);
    assert_int_equal(evt_cur_u8(&c), 0xAA);
    assert_int_equal(evt_cur_u32le(&c), 0);      /* past the end: 0 and an error */
    assert_false(evt_cur_ok(&c));
    assert_int_equal(c.err_off, 1001);           /* absolute offset of the failed read */
    assert_int_equal(evt_cur_u8(&c), 0);         /* sticky: later reads are no-ops */
    assert_int_equal(c.err_off, 1001);
    assert_null(evt_cur_take(&c, 1));
    assert_int_equal(evt_cur_left(&c), 0);
}

static void test_put_load_roundtrip(void **st)
{
    (void)st;
    uint8_t b[8];
    evt_put_u32be(b, 0x54585442u);
    assert_memory_equal(b, "TXTB", 4);
    evt_put_u32le(b, 0x54585442u);
    assert_memory_equal(b, "BTXT", 4);
    evt_put_u64be(b, 0x1122334455667788ull);
    assert_true(evt_ld_u64be(b) == 0x1122334455667788ull);
    assert_int_equal(b[0], 0x11);
    evt_put_u64le(b, 0x1122334455667788ull);
    assert_true(evt_ld_u64(b, 0) == 0x1122334455667788ull);
    assert_int_equal(b[0], 0x88);
    evt_put_u16(b, 0xBEEF, 1);
    assert_int_equal(evt_ld_u16(b, 1), 0xBEEF);
    assert_int_equal(b[0], 0xBE);
}

/* Field-at-offset reads (record tables): seek then read; past the end is the sticky error. */
static void test_reads_at_offsets(void **st)
{
    (void)st;
    const uint8_t b[] = {0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0x90, 0xA0};
    evt_cur c;
    evt_cur_init(&c, b, sizeof b, 500, 0);
    assert_int_equal(evt_cur_u16le_at(&c, 8), 0xA090);
    assert_int_equal(evt_cur_u8_at(&c, 0), 0x10);
    assert_int_equal(evt_cur_u32le_at(&c, 2), 0x60504030u);
    assert_int_equal(evt_cur_u32be_at(&c, 2), 0x30405060u);
    assert_true(evt_cur_u64le_at(&c, 1) == 0x9080706050403020ull);
    assert_int_equal(evt_cur_u16(&c), 0);           /* pos 9 after the u64 at 1: one byte left */
    assert_false(evt_cur_ok(&c));                   /* a u16 does not fit: the sticky error */
    assert_int_equal(c.err_off, 509);
    evt_cur_init(&c, b, sizeof b, 500, 0);
    assert_true(evt_cur_at(&c, sizeof b));          /* the end itself is a valid position */
    assert_int_equal(evt_cur_left(&c), 0);
    assert_false(evt_cur_at(&c, sizeof b + 1));     /* past it: error at the end's offset */
    assert_int_equal(c.err_off, 510);
    assert_int_equal(evt_cur_u8_at(&c, 0), 0);      /* sticky: no read after an error */
    evt_cur_init(&c, b, sizeof b, 0, 0);
    assert_null(evt_cur_take_at(&c, 8, 3));
    evt_cur_init(&c, b, sizeof b, 0, 0);
    const uint8_t *q = evt_cur_take_at(&c, 8, 2);
    assert_ptr_equal(q, b + 8);
}

/* A record's sub-cursor: its own bounds and base; a short record sets both errors. */
static void test_sub_cursor(void **st)
{
    (void)st;
    const uint8_t b[] = {1, 2, 3, 4, 5, 6};
    evt_cur c, r;
    evt_cur_init(&c, b, sizeof b, 1000, 0);
    evt_cur_skip(&c, 2);
    assert_true(evt_cur_sub(&c, 3, &r));
    assert_int_equal(r.len, 3);
    assert_int_equal(r.base, 1002);
    assert_int_equal(evt_cur_u8_at(&r, 2), 5);
    assert_int_equal(evt_cur_u16le_at(&r, 2), 0); /* the record ends before the parent does */
    assert_false(evt_cur_ok(&r));
    assert_int_equal(r.err_off, 1004);
    assert_true(evt_cur_ok(&c));
    assert_int_equal(evt_cur_u8(&c), 6);          /* the parent moved past the record */
    assert_false(evt_cur_sub(&c, 1, &r));
    assert_false(evt_cur_ok(&c));
    assert_false(evt_cur_ok(&r));
    assert_int_equal(evt_cur_left(&r), 0);
    assert_int_equal(r.err_off, 1006);
}

/* The block helpers the hot reader paths use: words in the cursor's order with one bounds check,
 * a byte sum, the span before either of two bytes; each bounded like the single reads. */
static void test_block_helpers(void **st)
{
    (void)st;
    const uint8_t b[10] = {1, 2, 3, 4, 5, 6, 7, 8, 0x7E, 9};
    uint32_t w[2];
    evt_cur c;
    evt_cur_init(&c, b, sizeof b, 100, 0);
    evt_cur_u32s(&c, w, 2);
    assert_true(evt_cur_ok(&c));
    assert_int_equal(w[0], 0x04030201u);
    assert_int_equal(w[1], 0x08070605u);
    evt_cur_init(&c, b, sizeof b, 100, 1);
    evt_cur_u32s(&c, w, 2);
    assert_int_equal(w[0], 0x01020304u);
    assert_int_equal(w[1], 0x05060708u);
    evt_cur_u32s(&c, w, 1); /* 2 bytes left: short */
    assert_false(evt_cur_ok(&c));
    assert_int_equal(w[0], 0);
    assert_int_equal(c.err_off, 108);

    evt_cur_init(&c, b, sizeof b, 0, 0);
    assert_int_equal(evt_cur_sum8(&c, 4), 10);
    assert_int_equal(evt_cur_left(&c), 6);
    assert_int_equal(evt_cur_sum8(&c, 7), 0); /* short: 0 and the error */
    assert_false(evt_cur_ok(&c));

    evt_cur_init(&c, b, sizeof b, 0, 0);
    assert_int_equal(evt_cur_span_not2(&c, 0x7E, 0x7D, 100), 8);
    assert_int_equal(evt_cur_span_not2(&c, 0x7E, 0x7D, 3), 3);   /* at most max */
    assert_int_equal(evt_cur_span_not2(&c, 0x05, 0x7E, 100), 4); /* either byte stops it */
    assert_int_equal(evt_cur_left(&c), sizeof b);                /* no move */
    evt_cur_at(&c, 9);
    assert_int_equal(evt_cur_span_not2(&c, 0x7E, 0x7D, 100), 1); /* to the end */
}

/* The eight-bytes-a-step scan and sum against one byte at a time: every length 0..40, every start
 * alignment 0..7, the stop bytes at every position (and none), bytes near the stop values. */
static void test_block_helpers_match_bytewise(void **st)
{
    (void)st;
    uint8_t buf[64];
    uint32_t x = 12345u;
    for (unsigned round = 0; round < 200; round++) {
        for (size_t i = 0; i < sizeof buf; i++) { /* mostly 0x7B..0x80 and 0x00/0xFF: the tricky ones */
            x = x * 1103515245u + 12345u;
            uint8_t v = (uint8_t)(x >> 16);
            buf[i] = (x >> 8) & 1u ? (uint8_t)(0x7B + v % 6u) : (v & 1u ? 0xFF : v);
        }
        for (size_t start = 0; start < 8; start++) {
            for (size_t len = 0; len + start <= 48; len++) {
                evt_cur c;
                evt_cur_init(&c, buf + start, len, 0, 0);
                for (size_t max = 0; max <= len + 1; max += (len > 16 ? 5 : 1)) {
                    size_t want = 0;
                    while (want < len && want < max && buf[start + want] != 0x7E && buf[start + want] != 0x7D) want++;
                    assert_int_equal(evt_cur_span_not2(&c, 0x7E, 0x7D, max), want);
                }
                unsigned sum = 0;
                for (size_t i = 0; i < len; i++) sum += buf[start + i];
                assert_int_equal(evt_cur_sum8(&c, len), sum);
                assert_true(evt_cur_ok(&c));
            }
        }
    }
    /* a long run: the lanes are folded every 64 words */
    static uint8_t big[4096 + 3];
    for (size_t i = 0; i < sizeof big; i++) big[i] = 0xFF;
    evt_cur c;
    evt_cur_init(&c, big, sizeof big, 0, 0);
    assert_int_equal(evt_cur_span_not2(&c, 0x7E, 0x7D, sizeof big), sizeof big);
    assert_int_equal(evt_cur_sum8(&c, sizeof big), 0xFFu * sizeof big);
}

/* A checked span: one bound check at the take (a short take gives an empty span and the cursor's
 * error), then little-endian reads at fixed offsets; a cursor over a part of it keeps the absolute
 * offsets. */
static void test_checked_span(void **st)
{
    (void)st;
    static const uint8_t b[] = {0xAA, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B};
    evt_cur c;
    evt_cur_init(&c, b, sizeof b, 100, 0);
    assert_int_equal(evt_cur_u8(&c), 0xAA);
    evt_span sp = evt_cur_take_span(&c, 11);
    assert_true(evt_cur_ok(&c));
    assert_int_equal(evt_cur_left(&c), 0);
    assert_int_equal(sp.len, 11);
    assert_int_equal(evt_span_u8(sp, 10), 0x0B);
    assert_int_equal(evt_span_u16le(sp, 1), 0x0302);
    assert_int_equal(evt_span_u32le(sp, 7), 0x0B0A0908u);
    assert_true(evt_span_u64le(sp, 0) == 0x0807060504030201ull);
    assert_int_equal(evt_span_le(sp, 3, 1), 0x04);
    assert_int_equal(evt_span_le(sp, 3, 2), 0x0504);
    assert_int_equal(evt_span_le(sp, 3, 4), 0x07060504u);
    assert_true(evt_span_le(sp, 3, 8) == 0x0B0A090807060504ull);
    assert_int_equal(evt_span_le(sp, 3, 3), 0); /* not a field width */
    evt_cur sub;
    evt_span_cur(sp, 4, 3, 101, &sub); /* sp[0] is at offset 101 */
    assert_int_equal(evt_cur_offset(&sub), 105);
    assert_int_equal(evt_cur_u16le(&sub), 0x0605);
    assert_int_equal(evt_cur_u16le(&sub), 0); /* one byte left */
    assert_false(evt_cur_ok(&sub));
    assert_true(sub.err_off == 107);
    evt_cur_init(&c, b, sizeof b, 100, 0);
    evt_cur_skip(&c, 2);
    sp = evt_cur_take_span(&c, 11); /* 10 left */
    assert_int_equal(sp.len, 0);
    assert_null(sp.p);
    assert_false(evt_cur_ok(&c));
    assert_true(c.err_off == 102);
}

/* evt_cur_span16_not2_sum8 agrees with evt_cur_span_not2_sum8 wherever a stop byte lies in the
 * whole 16-byte steps, and otherwise gives what is left (on every host: without SSE2 it always
 * does). */
static void test_span16_matches_span(void **st)
{
    (void)st;
    uint8_t buf[80];
    uint32_t x = 777u;
    for (unsigned round = 0; round < 200; round++) {
        for (size_t i = 0; i < sizeof buf; i++) {
            x = x * 1103515245u + 12345u;
            uint8_t v = (uint8_t)(x >> 16);
            buf[i] = (x >> 8) % 23u == 0 ? (uint8_t)(0x7D + v % 2u) : v == 0x7E || v == 0x7D ? 0x7F : v;
        }
        for (size_t start = 0; start < 8; start++) {
            for (size_t len = 0; len + start <= sizeof buf; len++) {
                evt_cur c;
                evt_cur_init(&c, buf + start, len, 0, 0);
                unsigned s16 = 999, s = 999;
                size_t k16 = evt_cur_span16_not2_sum8(&c, 0x7E, 0x7D, &s16);
                size_t k = evt_cur_span_not2_sum8(&c, 0x7E, 0x7D, len, &s);
                assert_int_equal(evt_cur_left(&c), len); /* no move */
                if (k16 == len) {
                    assert_true(k == len || k >= len / 16 * 16 || s16 == 999);
                } else {
                    assert_int_equal(k16, k);
                    assert_int_equal(s16, s);
                }
#if defined(__SSE2__) && defined(__GNUC__)
                if (k < len / 16 * 16) assert_int_equal(k16, k); /* a stop in the whole steps is found */
#endif
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads_both_orders),
        cmocka_unit_test(test_sticky_error_with_offset),
        cmocka_unit_test(test_put_load_roundtrip),
        cmocka_unit_test(test_reads_at_offsets),
        cmocka_unit_test(test_sub_cursor),
        cmocka_unit_test(test_block_helpers),
        cmocka_unit_test(test_block_helpers_match_bytewise),
        cmocka_unit_test(test_checked_span),
        cmocka_unit_test(test_span16_matches_span),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
