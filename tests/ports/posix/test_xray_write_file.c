/* evt_xray_write_file (src/ports/posix/xray_runtime.c), the file itself:
 *  - a session that recorded nothing writes a file every reader takes as a trace of no records:
 *    one block holding only the writing thread's preamble (compiler-rt writes the header alone
 *    there, which llvm-xray rejects and our reader reports as "no blocks"); the oracle test
 *    xray_oracle_rec runs llvm-xray on the same case;
 *  - a session whose every record was dropped (here: custom events larger than a buffer) also
 *    gets that block, and its drops (the header's field) are read back as lost;
 *  - the file is replaced whole: an earlier file at the path is overwritten by a rename, and a
 *    write that fails part-way (a file size limit: EFBIG after 40 bytes, as a full disk would)
 *    or cannot start (the path is a directory) leaves what was there and no temporary file
 *    beside it (before: the path was truncated and 32 bytes of the new file stayed). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "evt_reader_test.h"
#include "evt_test.h"
#include "evtrace/reader.h"
#include "evtrace/xray.h"

static char g_dir[256];

static void read_back(const char *path, uint64_t *data, uint64_t *lost, uint64_t *errors)
{
    evt_test_count_file(path, "xray", data, lost, errors);
}

static long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

/* Entries of g_dir other than "." and ".." whose name starts with prefix. */
static int dir_count(const char *prefix)
{
    DIR *d = opendir(g_dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && !strncmp(e->d_name, prefix, strlen(prefix))) n++;
    closedir(d);
    return n;
}

static int setup(void **st)
{
    (void)st;
    snprintf(g_dir, sizeof g_dir, "%s/evt_xray_write_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **st)
{
    (void)st;
    DIR *d = opendir(g_dir);
    struct dirent *e;
    char p[512];
    while (d && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(p, sizeof p, "%s/%s", g_dir, e->d_name);
        if (rmdir(p) != 0) unlink(p);
    }
    if (d) closedir(d);
    return rmdir(g_dir);
}

static void start_no_handlers(uint32_t buf_size)
{
    evt_xray_config c;
    memset(&c, 0, sizeof c);
    c.no_xray_handlers = 1;
    c.buffer_size = buf_size;
    assert_int_equal(evt_xray_start(&c), 0);
}

static void test_empty_session_is_a_trace(void **st)
{
    (void)st;
    char path[512];
    snprintf(path, sizeof path, "%s/empty.xray", g_dir);
    start_no_handlers(0);
    assert_int_equal(evt_xray_stop(), 0);
    assert_int_equal(evt_xray_write_file(path), 0);
    /* header 32 + BufferExtents 16 + preamble 64 */
    assert_int_equal(file_size(path), 32 + 16 + 64);
    uint64_t data, lost, errors;
    read_back(path, &data, &lost, &errors);
    assert_int_equal(errors, 0);
    assert_int_equal(data, 0);
    assert_int_equal(lost, 0);
}

static void test_all_dropped_session_counts_its_losses(void **st)
{
    (void)st;
    char path[512];
    snprintf(path, sizeof path, "%s/dropped.xray", g_dir);
    start_no_handlers(EVT_XRAY_MIN_BUF);
    static uint8_t big[2 * EVT_XRAY_MIN_BUF];
    for (int i = 0; i < 3; i++) evt_xray_custom_event(big, sizeof big); /* larger than a buffer: dropped */
    assert_int_equal(evt_xray_stop(), 0);
    assert_int_equal(evt_xray_records_dropped(), 3);
    assert_int_equal(evt_xray_write_file(path), 0);
    uint64_t data, lost, errors;
    read_back(path, &data, &lost, &errors);
    assert_int_equal(errors, 0);
    assert_int_equal(data, 0);
    assert_int_equal(lost, 3);
}

static void test_replaced_whole_or_left_alone(void **st)
{
    (void)st;
    char path[512];
    snprintf(path, sizeof path, "%s/t.xray", g_dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("an older file, longer than the new trace will be........................................"
          "..............................................................................\n", f);
    fclose(f);
    start_no_handlers(0);
    evt_xray_enter(7);
    evt_xray_exit(7);
    assert_int_equal(evt_xray_stop(), 0);
    assert_int_equal(evt_xray_write_file(path), 0); /* over the older file */
    uint64_t data, lost, errors;
    read_back(path, &data, &lost, &errors);
    assert_int_equal(errors, 0);
    assert_int_equal(data, 2);
    assert_int_equal(lost, 0);
    /* a write that fails part-way: the trace just written stays, byte for byte */
    long before = file_size(path);
    assert_true(before > 100);
    start_no_handlers(0);
    evt_xray_enter(8);
    assert_int_equal(evt_xray_stop(), 0);
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim = old;
    lim.rlim_cur = 40;
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    int rc = evt_xray_write_file(path);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, prev);
    assert_int_equal(rc, -1);
    assert_int_equal(file_size(path), before);
    read_back(path, &data, &lost, &errors);
    assert_int_equal(errors, 0);
    assert_int_equal(data, 2);
    /* a directory where the file should go: the write fails, the directory stays, no temporary */
    char dpath[512], inside[600];
    snprintf(dpath, sizeof dpath, "%s/d.xray", g_dir);
    assert_int_equal(mkdir(dpath, 0755), 0);
    snprintf(inside, sizeof inside, "%s/keep", dpath);
    f = fopen(inside, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(evt_xray_write_file(dpath), -1);
    struct stat sb;
    assert_int_equal(stat(dpath, &sb), 0);
    assert_true(S_ISDIR(sb.st_mode));
    assert_int_equal(stat(inside, &sb), 0);
    assert_int_equal(dir_count("d.xray.tmp"), 0);
    assert_int_equal(dir_count("t.xray.tmp"), 0);
    assert_int_equal(unlink(inside), 0);
    assert_int_equal(rmdir(dpath), 0);
    /* a path in a directory that does not exist: -1, nothing created */
    snprintf(dpath, sizeof dpath, "%s/no-such-dir/x.xray", g_dir);
    assert_int_equal(evt_xray_write_file(dpath), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_empty_session_is_a_trace),
                                       cmocka_unit_test(test_all_dropped_session_counts_its_losses),
                                       cmocka_unit_test(test_replaced_whole_or_left_alone)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
