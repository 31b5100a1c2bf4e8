/* The output seam (src/host/out.c): evt_out_remove_tree removes a tree without following symbolic
 * links (a link inside, or the path itself being a link, never reaches the target); write faults
 * fail the Nth write with ENOSPC or store half of it; "-" is standard output and closing it
 * leaves stdout open. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "evt_test.h"
#include "evtrace/out.h"

static const char *p_(const char *name)
{
    static char buf[4][4096];
    static int k;
    char *p = buf[k++ & 3];
    snprintf(p, 4096, "%s/%s", evt_test_tmpdir(), name);
    return p;
}

static void remove_tree_never_follows_links(void **st)
{
    (void)st;
    assert_int_equal(mkdir(p_("outside"), 0777), 0);
    assert_int_equal(evt_test_write_file(p_("outside/precious"), "x", 1), 0);
    assert_int_equal(mkdir(p_("tree"), 0777), 0);
    assert_int_equal(mkdir(p_("tree/sub"), 0777), 0);
    assert_int_equal(evt_test_write_file(p_("tree/sub/f"), "y", 1), 0);
    assert_int_equal(symlink(p_("outside"), p_("tree/link_to_dir")), 0);
    assert_int_equal(symlink(p_("outside/precious"), p_("tree/sub/link_to_file")), 0);
    assert_int_equal(evt_out_remove_tree(p_("tree")), 0);
    assert_false(evt_test_exists(p_("tree")));
    assert_true(evt_test_exists(p_("outside/precious")));
    /* the path itself a link: the link goes, the target stays */
    assert_int_equal(symlink(p_("outside"), p_("link")), 0);
    assert_int_equal(evt_out_remove_tree(p_("link")), 0);
    assert_false(evt_test_exists(p_("link")));
    assert_true(evt_test_exists(p_("outside/precious")));
    /* nothing there */
    assert_int_equal(evt_out_remove_tree(p_("absent")), -1);
    assert_int_equal(errno, ENOENT);
}

/* Write 10 blocks of 1000 bytes with a fault armed at write n; returns the bytes in the file and
 * whether the stream reported an error (ferror or fclose). */
static size_t write_with_fault(unsigned long n, evt_out_fault how, int *failed)
{
    evt_out_fail_after(n, how);
    FILE *f = evt_out_fopen(p_("faulty"), "wb");
    assert_non_null(f);
    char block[1000];
    memset(block, 'z', sizeof block);
    for (int i = 0; i < 10; i++) fwrite(block, 1, sizeof block, f);
    int bad = ferror(f);
    if (fclose(f) != 0) bad = 1;
    evt_out_fail_after(0, EVT_OUT_FAULT_NONE);
    *failed = bad;
    size_t len;
    free(evt_test_read_file(p_("faulty"), &len));
    return len;
}

static void write_faults(void **st)
{
    (void)st;
    int failed;
    assert_int_equal(write_with_fault(0, EVT_OUT_FAULT_NONE, &failed), 10000);
    assert_false(failed);
    /* disk full at the 3rd write: two 512-byte buffers made it, nothing after */
    assert_int_equal(write_with_fault(3, EVT_OUT_FAULT_NOSPC, &failed), 1024);
    assert_true(failed);
    /* short 3rd write: half of it stored, then the disk is full */
    assert_int_equal(write_with_fault(3, EVT_OUT_FAULT_SHORT, &failed), 1024 + 256);
    assert_true(failed);
    /* a fault past the last write changes nothing */
    assert_int_equal(write_with_fault(1000, EVT_OUT_FAULT_NOSPC, &failed), 10000);
    assert_false(failed);
    assert_int_equal(evt_out_writes(), 0); /* disarmed: not counted */
}

static void dash_is_stdout(void **st)
{
    (void)st;
    FILE *f = evt_out_fopen("-", "w");
    assert_non_null(f);
    assert_int_equal(fclose(f), 0);
    assert_false(evt_test_exists("-"));
    assert_true(fflush(stdout) == 0 && fileno(stdout) >= 0 && write(STDOUT_FILENO, "", 0) == 0); /* still open */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(remove_tree_never_follows_links),
        cmocka_unit_test(write_faults),
        cmocka_unit_test(dash_is_stdout),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    evt_out_remove_tree(evt_test_tmpdir());
    return rc;
}
