/* The early write-back of cli_output.c (a helper thread starting the write-back of a growing
 * output, Linux) never changes what ends at OUT: a file written in pieces, with a range patched
 * after its write-back started, truncated and written again, or replaced by the writer under the
 * temporary name, arrives byte for byte with its size; an abort removes the temporary and leaves
 * the old OUT. On Linux each case also checks that the write-back did start early (else the case
 * would not test it). The speed this buys is measured by bench_export, not asserted here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli_output.h"
#include "evt_test.h"
#include "evtrace/out.h"

#define MB (1024u * 1024u)

static char *path_(const char *name) { return evt_test_tmp_path(name); }

/* Deterministic bytes, different for each seed. */
static void fill_(uint8_t *b, size_t n, uint32_t seed)
{
    uint32_t x = seed * 2654435761u + 1u;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        b[i] = (uint8_t)(x >> 24);
    }
}

/* Has the thread started the write-back of at least n bytes? Waits up to 10 s for it on Linux
 * (the thread polls every 10 ms); elsewhere there is no thread and the answer is yes. */
static void wait_written_back_(cli_output *o, unsigned long long n)
{
#if defined(__linux__)
    for (int i = 0; i < 1000 && cli_output_written_back(o) < n; i++) {
        struct timespec t = {0, 10000000L};
        nanosleep(&t, NULL);
    }
    if (cli_output_written_back(o) < n)
        fail_msg("write-back started for %llu bytes, expected >= %llu", cli_output_written_back(o), n);
#else
    (void)o;
    (void)n;
#endif
}

static void write_all_(FILE *f, const uint8_t *b, size_t n)
{
    assert_int_equal(fwrite(b, 1, n, f), n);
    assert_int_equal(fflush(f), 0);
}

static void assert_file_is_(const char *path, const uint8_t *want, size_t n)
{
    size_t len = 0;
    uint8_t *got = evt_test_read_file(path, &len);
    assert_non_null(got);
    assert_int_equal(len, n);
    assert_memory_equal(got, want, n);
    free(got);
}

static void assert_no_tmp_(void)
{
    const char *t = evt_test_find_name(evt_test_tmpdir(), ".tmp-");
    if (t) fail_msg("temporary output left behind: %s", t);
}

/* n bytes of fill_(seed), malloc'ed. */
static uint8_t *filled_(size_t n, uint32_t seed)
{
    uint8_t *b = malloc(n);
    assert_non_null(b);
    fill_(b, n, seed);
    return b;
}

/* Begin OUT, write a (n bytes) to its temporary as an exporter does, wait until the write-back
 * of the first `started` bytes has started, close the file. */
static void begin_written_(cli_output *o, const char *out, const uint8_t *a, size_t n, size_t started)
{
    assert_int_equal(cli_output_begin(o, "test", out, 0, 0, 0), 0);
    FILE *f = evt_out_fopen(cli_output_path(o), "wb");
    assert_non_null(f);
    write_all_(f, a, n);
    wait_written_back_(o, started);
    assert_int_equal(fclose(f), 0);
}

/* A file written in pieces, like an exporter does, with its first bytes patched after their
 * write-back started (a header rewritten at the end), and a tail that is not a whole grain. */
static void written_back_file_is_intact(void **st)
{
    (void)st;
    const size_t n = 21 * MB + 12345;
    uint8_t *want = filled_(n, 1);
    const char *out = path_("wb_pieces.bin");
    cli_output o;
    assert_int_equal(cli_output_begin(&o, "test", out, 0, 0, 0), 0);
    FILE *f = evt_out_fopen(cli_output_path(&o), "wb"); /* truncates the reserved file, as exporters do */
    assert_non_null(f);
    write_all_(f, want, 8 * MB);
    wait_written_back_(&o, 8 * MB);
    for (size_t off = 8 * MB; off < n; off += 64 * 1024) write_all_(f, want + off, n - off < 64 * 1024 ? n - off : 64 * 1024);
    wait_written_back_(&o, 21 * MB);
    uint8_t patch[4096];
    fill_(patch, sizeof patch, 2);
    memcpy(want + 100, patch, sizeof patch);
    assert_int_equal(fseek(f, 100, SEEK_SET), 0);
    write_all_(f, patch, sizeof patch);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(cli_output_commit(&o), 0);
    assert_file_is_(out, want, n);
    assert_no_tmp_();
    free(want);
}

/* The writer truncates the file after its write-back started and writes a shorter one. */
static void truncated_and_rewritten(void **st)
{
    (void)st;
    const size_t n1 = 6 * MB, n2 = 2 * MB + 7;
    uint8_t *a = filled_(n1, 3), *b = filled_(n2, 4);
    const char *out = path_("wb_trunc.bin");
    cli_output o;
    begin_written_(&o, out, a, n1, n1);
    FILE *f = evt_out_fopen(cli_output_path(&o), "wb");
    assert_non_null(f);
    write_all_(f, b, n2);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(cli_output_commit(&o), 0);
    assert_file_is_(out, b, n2);
    assert_no_tmp_();
    free(a);
    free(b);
}

/* The writer removes the temporary file and creates a new one under its name: commit syncs and
 * renames the new one. */
static void replaced_by_the_writer(void **st)
{
    (void)st;
    const size_t n1 = 3 * MB, n2 = 1 * MB + 99;
    uint8_t *a = filled_(n1, 5), *b = filled_(n2, 6);
    const char *out = path_("wb_replaced.bin");
    cli_output o;
    begin_written_(&o, out, a, n1, n1 & ~(size_t)(MB - 1));
    assert_int_equal(unlink(cli_output_path(&o)), 0);
    assert_int_equal(evt_test_write_file(cli_output_path(&o), b, n2), 0);
    assert_int_equal(cli_output_commit(&o), 0);
    assert_file_is_(out, b, n2);
    assert_no_tmp_();
    free(a);
    free(b);
}

/* An abort while the write-back runs removes the temporary file and leaves the old OUT alone. */
static void abort_leaves_old_output(void **st)
{
    (void)st;
    const char *out = path_("wb_abort.bin");
    static const char old[] = "the previous output\n";
    assert_int_equal(evt_test_write_file(out, old, sizeof old - 1), 0);
    const size_t n = 5 * MB;
    uint8_t *a = filled_(n, 7);
    cli_output o;
    begin_written_(&o, out, a, n, n & ~(size_t)(MB - 1));
    cli_output_abort(&o);
    assert_no_tmp_();
    assert_file_is_(out, (const uint8_t *)old, sizeof old - 1);
    assert_int_equal(cli_output_written_back(&o), 0); /* the thread is gone */
    free(a);
}

/* A failing write (disk full, from the output seam) fails the writer; the abort that follows
 * removes the temporary even though its write-back had started. */
static void failed_write_aborts(void **st)
{
    (void)st;
    const char *out = path_("wb_full.bin");
    const size_t n = 4 * MB;
    uint8_t *a = filled_(n, 8);
    cli_output o;
    assert_int_equal(cli_output_begin(&o, "test", out, 0, 0, 0), 0);
    evt_out_fail_after(64, EVT_OUT_FAULT_NOSPC);
    FILE *f = evt_out_fopen(cli_output_path(&o), "wb");
    assert_non_null(f);
    size_t off = 0;
    int failed = 0;
    for (; off < n && !failed; off += 64 * 1024) failed = fwrite(a + off, 1, 64 * 1024, f) != 64 * 1024 || fflush(f) != 0;
    evt_out_fail_after(0, EVT_OUT_FAULT_NONE);
    assert_true(failed);
    fclose(f);
    cli_output_abort(&o);
    assert_no_tmp_();
    assert_int_equal(evt_test_exists(out), 0);
    free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(written_back_file_is_intact),
        cmocka_unit_test(truncated_and_rewritten),
        cmocka_unit_test(replaced_by_the_writer),
        cmocka_unit_test(abort_leaves_old_output),
        cmocka_unit_test(failed_write_aborts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
