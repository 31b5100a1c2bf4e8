/* MS-XCA plain LZ77 decompressor: the spec's worked examples, every length-encoding path (3-bit,
 * shared half-byte low/high nibble, byte, u16, u32), overlapping copies, the real compressed
 * buffers of the ETW samples, and malformed input (each error code, exact-size output so ASan
 * catches any write past the end, random garbage). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "evt_test.h"
#include "formats/common/bytes.h"
#include "formats/etw/xpress.h"

static etw_xpress_status dec(const uint8_t *in, size_t n, uint8_t *out, size_t cap, size_t *outn)
{
    size_t ep;
    return etw_xpress_decompress(in, n, out, cap, outn, &ep);
}

/* MS-XCA's example: 26 literals, then the end marker (flag bit 1 with no input left). */
static void test_literals(void **st)
{
    (void)st;
    uint8_t in[4 + 26];
    evt_put_u32le(in, 0x0000003Fu);
    for (int i = 0; i < 26; i++) in[4 + i] = (uint8_t)('a' + i);
    uint8_t out[26];
    size_t n;
    assert_int_equal(dec(in, sizeof in, out, sizeof out, &n), ETW_XPRESS_OK);
    assert_int_equal(n, 26);
    assert_memory_equal(out, "abcdefghijklmnopqrstuvwxyz", 26);
}

/* MS-XCA's example: "abc" x 100 = 3 literals + one match of 297 (offset 3, 7 -> nibble 15 ->
 * byte 255 -> u16 294). */
static void test_long_match(void **st)
{
    (void)st;
    static const uint8_t in[] = {0xff, 0xff, 0xff, 0x1f, 'a', 'b', 'c', 0x17, 0x00, 0x0f, 0xff, 0x26, 0x01};
    uint8_t out[300];
    size_t n;
    assert_int_equal(dec(in, sizeof in, out, sizeof out, &n), ETW_XPRESS_OK);
    assert_int_equal(n, 300);
    for (int i = 0; i < 300; i++) assert_int_equal(out[i], "abc"[i % 3]);
}

/* Two long matches share one half-byte: the first uses the low nibble, the second the high one;
 * then a byte-extended length and a u32-extended length; offset 1 = run of one byte. */
static void test_length_paths(void **st)
{
    (void)st;
    uint8_t in[64];
    size_t k = 4;
    /* flags MSB first: L M M M M, then end marker bits (1s) */
    evt_put_u32le(in, 0x7FFFFFFFu);
    in[k++] = 'x';
    evt_put_u16le(in + k, (0u << 3) | 7u); k += 2; /* offset 1, len 7 -> half byte */
    in[k++] = 0x52;                                /* low nibble 2 -> len 2+7+3 = 12; high 5 kept */
    evt_put_u16le(in + k, (0u << 3) | 7u); k += 2; /* uses the high nibble 5 -> len 15 */
    evt_put_u16le(in + k, (0u << 3) | 7u); k += 2; /* new half byte: 15 -> byte */
    in[k++] = 0x0F;
    in[k++] = 100;                                 /* len 100 + 15 + 7 + 3 = 125 */
    evt_put_u16le(in + k, (0u << 3) | 7u); k += 2; /* high nibble of 0x0F = 0 -> len 10 */
    size_t total = 1 + 12 + 15 + 125 + 10;
    uint8_t *out = malloc(total);
    size_t n;
    assert_int_equal(dec(in, k, out, total, &n), ETW_XPRESS_OK);
    assert_int_equal(n, total);
    for (size_t i = 0; i < total; i++) assert_int_equal(out[i], 'x');
    free(out);

    /* u32 length: 255 -> u16 0 -> u32 70000 -> 70000 - 22 + 15 + 7 + 3 = 70003 */
    k = 4;
    evt_put_u32le(in, 0x7FFFFFFFu); /* L M, then end */
    in[k++] = 'y';
    evt_put_u16le(in + k, 7u); k += 2;
    in[k++] = 0x0F;
    in[k++] = 0xFF;
    evt_put_u16le(in + k, 0); k += 2;
    evt_put_u32le(in + k, 70000u); k += 4;
    total = 1 + 70003;
    out = malloc(total);
    assert_int_equal(dec(in, k, out, total, &n), ETW_XPRESS_OK);
    assert_int_equal(n, total);
    assert_int_equal(out[total - 1], 'y');
    free(out);
}

/* Overlapping copy with a period of 2 ("ab" repeated) and a plain back reference. */
static void test_overlap(void **st)
{
    (void)st;
    uint8_t in[16];
    evt_put_u32le(in, 0x27FFFFFFu); /* L L M L L M then end: bits 0,0,1,0,0,1,1... */
    size_t k = 4;
    in[k++] = 'a'; in[k++] = 'b';
    evt_put_u16le(in + k, (1u << 3) | 3u); k += 2; /* offset 2, len 6 */
    in[k++] = 'c'; in[k++] = 'd';
    evt_put_u16le(in + k, (3u << 3) | 0u); k += 2; /* offset 4, len 3: "abc" */
    uint8_t out[13];
    size_t n;
    assert_int_equal(dec(in, k, out, sizeof out, &n), ETW_XPRESS_OK);
    assert_int_equal(n, 13);
    assert_memory_equal(out, "ababababcdabc", 13);
}

/* The real compressed buffers: bytes [0x48, BufferSize) inflate to exactly Offset - 0x48. */
static void check_buffer(const uint8_t *f, size_t off)
{
    uint32_t size = evt_ld_u32le(f + off), filled = evt_ld_u32le(f + off + 0x30);
    size_t want = filled - 0x48;
    uint8_t *out = malloc(want);
    size_t n, ep;
    assert_int_equal(etw_xpress_decompress(f + off + 0x48, size - 0x48, out, want, &n, &ep), ETW_XPRESS_OK);
    assert_int_equal(n, want);
    /* The records start with a trace-header marker (byte 3 = 0xC0). */
    assert_int_equal(out[3], 0xC0);
    /* One byte less of output room must be reported as overflow, never written. */
    size_t n2;
    assert_int_equal(etw_xpress_decompress(f + off + 0x48, size - 0x48, out, want - 1, &n2, &ep), ETW_XPRESS_OVERFLOW);
    assert_true(n2 <= want - 1);
    free(out);
}

static void test_real_buffers(void **st)
{
    (void)st;
    size_t n;
    uint8_t *f = evt_test_read_file(EVT_TEST_DATA_DIR "/etw/perfview_SelfDescribingSingleEvent.etl", &n);
    check_buffer(f, 0x400);  /* 6081 -> 7096 bytes */
    check_buffer(f, 0x1c09); /* 154 -> 168 bytes, unaligned file offset */
    free(f);
    f = evt_test_read_file(EVT_TEST_DATA_DIR "/etw/perfview_smallEtlFile.etl", &n);
    check_buffer(f, 0x200);  /* 477 -> 664 bytes */
    free(f);
}

static void test_malformed(void **st)
{
    (void)st;
    uint8_t in[32], out[8];
    size_t n, ep;
    /* flag word cut short */
    in[0] = 0; in[1] = 0;
    assert_int_equal(etw_xpress_decompress(in, 2, out, sizeof out, &n, &ep), ETW_XPRESS_TRUNCATED);
    assert_int_equal(ep, 0);
    /* a match token cut short (1 byte) */
    evt_put_u32le(in, 0x80000000u);
    in[4] = 0x00;
    assert_int_equal(etw_xpress_decompress(in, 5, out, sizeof out, &n, &ep), ETW_XPRESS_TRUNCATED);
    assert_int_equal(ep, 4);
    /* a match before any output */
    evt_put_u16le(in + 4, 0);
    assert_int_equal(etw_xpress_decompress(in, 6, out, sizeof out, &n, &ep), ETW_XPRESS_BAD_OFFSET);
    assert_int_equal(n, 0);
    /* offset beyond what was produced */
    evt_put_u32le(in, 0x40000000u);
    in[4] = 'a';
    evt_put_u16le(in + 5, (5u << 3));
    assert_int_equal(etw_xpress_decompress(in, 7, out, sizeof out, &n, &ep), ETW_XPRESS_BAD_OFFSET);
    assert_int_equal(n, 1);
    /* half byte missing */
    evt_put_u16le(in + 5, 7u);
    assert_int_equal(etw_xpress_decompress(in, 7, out, sizeof out, &n, &ep), ETW_XPRESS_TRUNCATED);
    /* byte extension missing */
    in[7] = 0x0F;
    assert_int_equal(etw_xpress_decompress(in, 8, out, sizeof out, &n, &ep), ETW_XPRESS_TRUNCATED);
    /* u16 extension below the minimum 22 */
    in[8] = 0xFF;
    evt_put_u16le(in + 9, 21);
    assert_int_equal(etw_xpress_decompress(in, 11, out, sizeof out, &n, &ep), ETW_XPRESS_BAD_LENGTH);
    assert_int_equal(ep, 5);
    /* u32 extension cut */
    evt_put_u16le(in + 9, 0);
    assert_int_equal(etw_xpress_decompress(in, 13, out, sizeof out, &n, &ep), ETW_XPRESS_TRUNCATED);
    /* valid but longer than the room: overflow, output bounded */
    evt_put_u16le(in + 5, 6u); /* offset 1, len 9 > 7 left */
    assert_int_equal(etw_xpress_decompress(in, 7, out, sizeof out, &n, &ep), ETW_XPRESS_OVERFLOW);
    assert_int_equal(n, 1);
    /* literals past the room */
    evt_put_u32le(in, 0);
    memset(in + 4, 'z', 20);
    assert_int_equal(etw_xpress_decompress(in, 24, out, sizeof out, &n, &ep), ETW_XPRESS_OVERFLOW);
    assert_int_equal(n, sizeof out);
    /* empty input: nothing, no error */
    assert_int_equal(etw_xpress_decompress(in, 0, out, sizeof out, &n, &ep), ETW_XPRESS_OK);
    assert_int_equal(n, 0);
    assert_non_null(etw_xpress_message(ETW_XPRESS_BAD_OFFSET));
}

/* Garbage in: any status, never a read or write out of bounds (ASan), bounded output. */
static void test_random(void **st)
{
    (void)st;
    uint32_t x = 12345;
    for (int iter = 0; iter < 3000; iter++) {
        size_t inlen = (size_t)(iter % 97);
        uint8_t *in = malloc(inlen ? inlen : 1);
        for (size_t i = 0; i < inlen; i++) { x = x * 1103515245u + 12345u; in[i] = (uint8_t)(x >> 16); }
        size_t cap = (size_t)(iter % 300);
        uint8_t *out = malloc(cap ? cap : 1);
        size_t n, ep;
        etw_xpress_status s = etw_xpress_decompress(in, inlen, out, cap, &n, &ep);
        assert_true(n <= cap);
        assert_true(ep <= inlen);
        assert_true(s <= ETW_XPRESS_OVERFLOW);
        free(in);
        free(out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_literals),     cmocka_unit_test(test_long_match),
        cmocka_unit_test(test_length_paths), cmocka_unit_test(test_overlap),
        cmocka_unit_test(test_real_buffers), cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
