/* Input files as readers see them (src/host/source_input.c): a raw file from --offset on, Intel
 * HEX / S-record dumps turned into their memory image (auto-detected) from --base-address or the
 * lowest address, and the errors for impossible requests; a stream from --offset on
 * (evt_source_skip_stream, src/host/source.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "evt_test.h"
#include "evtrace/source.h"

static const char *tmp_file(const char *name, const void *data, size_t len)
{
    static char path[4][512];
    static unsigned k;
    char *p = path[k++ % 4];
    snprintf(p, 512, "%s/%s", evt_test_tmpdir(), name);
    assert_int_equal(evt_test_write_file(p, data, len), 0);
    return p;
}

static void test_raw_with_offset(void **st)
{
    (void)st;
    const char raw[] = "0123456789";
    const char *path = tmp_file("raw.bin", raw, 10);
    evt_source src;
    char err[256];
    evt_input_opts o = {.offset = 4};
    assert_int_equal(evt_source_open_input(&src, path, &o, err, sizeof err), EVT_OK);
    assert_int_equal(src.dump, EVT_DUMP_BINARY);
    assert_int_equal(src.size, 6);
    char buf[8] = {0};
    assert_int_equal(evt_source_read_at(&src, 0, buf, 8), 6);
    assert_memory_equal(buf, "456789", 6);
    assert_int_equal(evt_source_read_at(&src, 5, buf, 8), 1);
    assert_int_equal(buf[0], '9');
    assert_int_equal(evt_source_read_at(&src, 6, buf, 8), 0);
    evt_source_close(&src);
    o.offset = 10;
    assert_int_equal(evt_source_open_input(&src, path, &o, err, sizeof err), EVT_ERR_USAGE);
    assert_non_null(strstr(err, "--offset 10 is at or past the end of the file (10 bytes)"));
    evt_input_opts b = {.base_address = 0x100, .has_base_address = 1};
    assert_int_equal(evt_source_open_input(&src, path, &b, err, sizeof err), EVT_ERR_USAGE);
    assert_non_null(strstr(err, "--base-address needs an Intel HEX or S-record dump"));
}

static void test_ihex_image(void **st)
{
    (void)st;
    const char hex[] = ":020000042000DA\n:0400000001020304F2\n:02000800AABB91\n:00000001FF\n";
    const char *path = tmp_file("img.hex", hex, sizeof hex - 1);
    evt_source src;
    char err[256];
    assert_int_equal(evt_source_open_input(&src, path, NULL, err, sizeof err), EVT_OK);
    assert_int_equal(src.dump, EVT_DUMP_IHEX);
    assert_int_equal(src.image_addr, 0x20000000u);
    assert_int_equal(src.size, 10);
    uint8_t buf[10];
    assert_int_equal(evt_source_read_at(&src, 0, buf, 10), 10);
    const uint8_t want[10] = {1, 2, 3, 4, 0, 0, 0, 0, 0xAA, 0xBB};
    assert_memory_equal(buf, want, 10);
    evt_source_close(&src);
    /* base address + offset: start at 0x20000002, then 6 bytes further = 0x20000008 */
    evt_input_opts o = {.offset = 6, .base_address = 0x20000002u, .has_base_address = 1};
    assert_int_equal(evt_source_open_input(&src, path, &o, err, sizeof err), EVT_OK);
    assert_int_equal(src.image_addr, 0x20000008u);
    assert_int_equal(src.size, 2);
    assert_int_equal(evt_source_read_at(&src, 0, buf, 10), 2);
    assert_int_equal(buf[0], 0xAA);
    evt_source_close(&src);
}

static void test_srec_damage_message(void **st)
{
    (void)st;
    const char bad[] = "S106010011223393\nS9030000FC\n";
    const char *path = tmp_file("bad.srec", bad, sizeof bad - 1);
    evt_source src;
    char err[256];
    assert_int_equal(evt_source_open_input(&src, path, NULL, err, sizeof err), EVT_ERR_CORRUPT);
    assert_string_equal(err, "offset 14 (0xe): line 1: checksum 0x93, computed 0x92");
    assert_int_equal(evt_source_open_input(&src, "/nonexistent/x.hex", NULL, err, sizeof err), EVT_ERR_IO);
    assert_non_null(strstr(err, "cannot open"));
}

/* A pipe holding n bytes of a pattern (byte i is i * 7 mod 251), its writer closed: a stream of
 * them. n fits the pipe's buffer, so the writes never block. */
static void pattern_stream(evt_source *src, size_t n)
{
    static uint8_t b[12000];
    assert_true(n <= sizeof b);
    for (size_t i = 0; i < n; i++) b[i] = (uint8_t)(i * 7u % 251u);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    assert_int_equal(write(fds[1], b, n), (ssize_t)n);
    close(fds[1]);
    assert_int_equal(evt_source_open_stream(src, fds[0], "<pipe>", 0, 0), EVT_OK);
}

/* The stream read from offset 0 to its end: every byte is byte (skip + offset) of the pattern. */
static void assert_rest(evt_source *src, size_t skip, size_t total)
{
    uint8_t buf[1000];
    uint64_t off = 0;
    size_t n;
    while ((n = evt_source_read_at(src, off, buf, sizeof buf)) > 0) {
        for (size_t i = 0; i < n; i++) assert_int_equal(buf[i], (uint8_t)((skip + off + i) * 7u % 251u));
        off += n;
    }
    assert_int_equal(off, total - skip);
    assert_int_equal(src->pos, total - skip); /* S1: the bytes of the trace, after the skipped ones */
}

static void test_stream_skip(void **st)
{
    (void)st;
    static const size_t skips[] = {0, 1, 100, 4095, 4096, 4097, 9000, 11999};
    for (size_t k = 0; k < sizeof skips / sizeof skips[0]; k++) { /* within the head, at its end, past it */
        evt_source src;
        pattern_stream(&src, 12000);
        assert_int_equal(evt_source_skip_stream(&src, skips[k]), EVT_OK);
        assert_int_equal(src.skipped, skips[k]);
        assert_true(src.head_len > 0); /* the probes' head again, from the new byte 0 */
        assert_int_equal(src.head[0], (uint8_t)(skips[k] * 7u % 251u));
        assert_rest(&src, skips[k], 12000);
        evt_source_close(&src);
    }
    /* at and past the end: EVT_END, and skipped says how many bytes there were */
    static const size_t past[] = {12000, 12001, 50000};
    for (size_t k = 0; k < sizeof past / sizeof past[0]; k++) {
        evt_source src;
        pattern_stream(&src, 12000);
        assert_int_equal(evt_source_skip_stream(&src, past[k]), EVT_END);
        assert_int_equal(src.skipped, 12000);
        assert_int_equal(src.head_len, 0);
        evt_source_close(&src);
    }
    /* a source that is no stream is left as it is */
    evt_source m;
    evt_source_from_mem(&m, "0123456789", 10);
    assert_int_equal(evt_source_skip_stream(&m, 4), EVT_OK);
    assert_int_equal(m.size, 10);
    assert_int_equal(m.skipped, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_raw_with_offset),
        cmocka_unit_test(test_ihex_image),
        cmocka_unit_test(test_srec_damage_message),
        cmocka_unit_test(test_stream_skip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
