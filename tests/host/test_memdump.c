/* Unit tests of the Intel HEX and S-record decoders (src/host/memdump*.c): records to memory
 * image, extended addresses, gaps, start addresses, and every kind of damage with its byte offset
 * (bad checksum, odd digit count, count mismatch, bad character, missing end record, overlap). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <string.h>
#include "evtrace/memdump.h"

static evt_status ihex(const char *t, uint64_t start, evt_mem_image *img, char *err)
{
    return evt_ihex_decode((const uint8_t *)t, strlen(t), start, img, err, 256);
}
static evt_status srec(const char *t, uint64_t start, evt_mem_image *img, char *err)
{
    return evt_srec_decode((const uint8_t *)t, strlen(t), start, img, err, 256);
}

/* Two records at 0x20000000 (4 bytes) and 0x20000008 (2 bytes): a 4-byte gap. Checksums worked
 * by hand: 04+00+00+00+01+02+03+04 = 0x0E -> 0xF2; 02+00+08+00+AA+BB = 0x16F -> 0x91. */
static const char k_hex_gap[] =
    ":020000042000DA\r\n"
    ":0400000001020304F2\r\n"
    ":02000800AABB91\r\n"
    ":00000001FF\r\n";

static void test_ihex_gap_and_linear_address(void **st)
{
    (void)st;
    evt_mem_image img;
    char err[256];
    assert_int_equal(ihex(k_hex_gap, UINT64_MAX, &img, err), EVT_OK);
    assert_int_equal(img.base_addr, 0x20000000u);
    assert_int_equal(img.size, 10);
    assert_int_equal(img.covered, 6);
    assert_int_equal(img.gap_bytes, 4);
    assert_int_equal(img.gaps, 1);          /* where the gap is, for the error the CLI reports */
    assert_int_equal(img.gap_first, 4);
    assert_int_equal(img.gap_first_len, 4);
    assert_int_equal(img.records, 2);
    const uint8_t want[10] = {1, 2, 3, 4, 0, 0, 0, 0, 0xAA, 0xBB};
    assert_memory_equal(img.data, want, 10);
    evt_mem_image_free(&img);
    /* Starting at a chosen address skips what lies below it. */
    assert_int_equal(ihex(k_hex_gap, 0x20000002u, &img, err), EVT_OK);
    assert_int_equal(img.base_addr, 0x20000002u);
    assert_int_equal(img.size, 8);
    assert_int_equal(img.data[0], 3);
    evt_mem_image_free(&img);
    /* An address no record covers is an error, not a silent zero page. */
    assert_int_equal(ihex(k_hex_gap, 0x20000005u, &img, err), EVT_ERR_CORRUPT);
    assert_non_null(strstr(err, "no data record covers the start address 0x20000005"));
}

static void test_ihex_segment_address_and_order(void **st)
{
    (void)st;
    /* Type 02 base 0x1000 -> 0x10000; records given high address first. */
    const char t[] = ":020000021000EC\n"
                     ":01001000BB34\n"
                     ":01000F00AA46\n"
                     ":00000001FF\n";
    evt_mem_image img;
    char err[256];
    assert_int_equal(ihex(t, UINT64_MAX, &img, err), EVT_OK);
    assert_int_equal(img.base_addr, 0x1000Fu);
    assert_int_equal(img.size, 2);
    assert_int_equal(img.data[0], 0xAA);
    assert_int_equal(img.data[1], 0xBB);
    evt_mem_image_free(&img);
}

static void test_ihex_damage(void **st)
{
    (void)st;
    evt_mem_image img;
    char err[256];
    /* Checksum byte of line 2 changed F2 -> F3: its offset is that of the checksum digits. */
    const char bad_sum[] = ":020000042000DA\n:0400000001020304F3\n:00000001FF\n";
    assert_int_equal(ihex(bad_sum, UINT64_MAX, &img, err), EVT_ERR_CORRUPT);
    assert_string_equal(err, "offset 33 (0x21): line 2: checksum 0xf3, computed 0xf2");
    assert_null(img.data);
    const char odd[] = ":0400000001020304F\n:00000001FF\n";
    assert_int_equal(ihex(odd, UINT64_MAX, &img, err), EVT_ERR_CORRUPT);
    assert_non_null(strstr(err, "offset 0 (0x0): line 1: odd number of hex digits (17)"));
    const char no_eof[] = ":0400000001020304F2\n";
    assert_int_equal(ihex(no_eof, UINT64_MAX, &img, err), EVT_ERR_CORRUPT);
    assert_non_null(strstr(err, "offset 20 (0x14)"));
    assert_non_null(strstr(err, "missing end-of-file record"));
    const char count[] = ":0500000001020304F1\n:00000001FF\n";
    assert_int_equal(ihex(count, UINT64_MAX, &img, err), EVT_ERR_CORRUPT);
    assert_non_null(strstr(err, "count byte says 5 data bytes, the record holds 4"));
    const char badch[] = ":00000001FF\n";
    const char notrec[] = "hello\n:00000001FF\n";
    assert_int_equal(ihex(notrec, UINT64_MAX, &img, err), EVT_ERR_CORRUPT);
    assert_non_null(strstr(err, "line 1: a record starts with ':'"));
    const char nonhex[] = ":04000000010G0304F2\n:00000001FF\n";
    assert_int_equal(ihex(nonhex, UINT64_MAX, &img, err), EVT_ERR_CORRUPT);
    assert_string_equal(err, "offset 12 (0xc): line 1: 'G' (0x47) is not a hex digit");
    const char after[] = ":00000001FF\n:0400000001020304F2\n";
    assert_int_equal(ihex(after, UINT64_MAX, &img, err), EVT_ERR_CORRUPT);
    assert_non_null(strstr(err, "offset 12 (0xc): line 2: data after the end-of-file record"));
    assert_int_equal(ihex(badch, UINT64_MAX, &img, err), EVT_ERR_CORRUPT);
    assert_non_null(strstr(err, "no data records"));
    /* The same address twice with different bytes. */
    const char overlap[] = ":0100000001FE\n:0100000002FD\n:00000001FF\n";
    assert_int_equal(ihex(overlap, UINT64_MAX, &img, err), EVT_ERR_CORRUPT);
    assert_non_null(strstr(err, "overlap with different data at address 0x0"));
    /* Two records 1 GiB apart: refused before anything that large is allocated. */
    const char far[] = ":0100000001FE\n:020000044000BA\n:0100000001FE\n:00000001FF\n";
    assert_int_equal(ihex(far, UINT64_MAX, &img, err), EVT_ERR_CORRUPT);
    assert_non_null(strstr(err, "line 3: record at address 0x40000000"));
}

/* S1 at 0x0100 (3 bytes), S3 at 0x20000010 (2 bytes), S5 count, S9 end.
 * S1: 06 01 00 11 22 33 -> sum 0x6D -> ~ = 0x92.  S3: 07 20 00 00 10 AB CD -> 0x1AF -> 0x50. */
static const char k_srec[] =
    "S00600004844521B\n"
    "S1060100112233" "92\n"
    "S5030001FB\n"
    "S9030000FC\n";

static void test_srec_decode(void **st)
{
    (void)st;
    evt_mem_image img;
    char err[256];
    assert_int_equal(srec(k_srec, UINT64_MAX, &img, err), EVT_OK);
    assert_int_equal(img.base_addr, 0x100u);
    assert_int_equal(img.size, 3);
    const uint8_t want[3] = {0x11, 0x22, 0x33};
    assert_memory_equal(img.data, want, 3);
    evt_mem_image_free(&img);
    const char s3[] = "S30720000010ABCD50\nS70500000000FA\n";
    assert_int_equal(srec(s3, UINT64_MAX, &img, err), EVT_OK);
    assert_int_equal(img.base_addr, 0x20000010u);
    assert_int_equal(img.data[1], 0xCD);
    evt_mem_image_free(&img);
}

static void test_srec_damage(void **st)
{
    (void)st;
    evt_mem_image img;
    char err[256];
    const char bad_sum[] = "S106010011223393\nS9030000FC\n";
    assert_int_equal(srec(bad_sum, UINT64_MAX, &img, err), EVT_ERR_CORRUPT);
    assert_string_equal(err, "offset 14 (0xe): line 1: checksum 0x93, computed 0x92");
    const char odd[] = "S10601001122339\nS9030000FC\n";
    assert_int_equal(srec(odd, UINT64_MAX, &img, err), EVT_ERR_CORRUPT);
    assert_non_null(strstr(err, "odd number of hex digits"));
    const char no_end[] = "S106010011223392\n";
    assert_int_equal(srec(no_end, UINT64_MAX, &img, err), EVT_ERR_CORRUPT);
    assert_non_null(strstr(err, "offset 17 (0x11)"));
    assert_non_null(strstr(err, "missing termination record"));
    const char count[] = "S5030002FA\nS9030000FC\n";
    assert_int_equal(srec(count, UINT64_MAX, &img, err), EVT_ERR_CORRUPT);
    assert_non_null(strstr(err, "S5 says 2 data records, the file has 0"));
    const char type4[] = "S4030000FC\nS9030000FC\n";
    assert_int_equal(srec(type4, UINT64_MAX, &img, err), EVT_ERR_CORRUPT);
    assert_non_null(strstr(err, "not an S-record"));
    const char len[] = "S107010011223392\nS9030000FC\n";
    assert_int_equal(srec(len, UINT64_MAX, &img, err), EVT_ERR_CORRUPT);
    assert_non_null(strstr(err, "count byte says 7 bytes follow, the record holds 6"));
}

static void test_detect(void **st)
{
    (void)st;
    assert_int_equal(evt_dump_detect((const uint8_t *)k_hex_gap, sizeof k_hex_gap - 1), EVT_DUMP_IHEX);
    assert_int_equal(evt_dump_detect((const uint8_t *)"\r\n" "S1060100112233", 16), EVT_DUMP_SREC);
    assert_int_equal(evt_dump_detect((const uint8_t *)"BTXT\0\0\0", 7), EVT_DUMP_BINARY);
    assert_int_equal(evt_dump_detect((const uint8_t *)":hello world", 12), EVT_DUMP_BINARY);
    assert_int_equal(evt_dump_detect((const uint8_t *)"Sx060100", 8), EVT_DUMP_BINARY);
    assert_int_equal(evt_dump_detect((const uint8_t *)":0000", 5), EVT_DUMP_BINARY); /* too short */
    assert_int_equal(evt_dump_detect((const uint8_t *)"", 0), EVT_DUMP_BINARY);
    assert_string_equal(evt_dump_kind_name(EVT_DUMP_SREC), "srec");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ihex_gap_and_linear_address),
        cmocka_unit_test(test_ihex_segment_address_and_order),
        cmocka_unit_test(test_ihex_damage),
        cmocka_unit_test(test_srec_decode),
        cmocka_unit_test(test_srec_damage),
        cmocka_unit_test(test_detect),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
