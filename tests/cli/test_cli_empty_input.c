/* An empty input file is an input error for every command and every --format (and for
 * auto-detection): exit 3 and a message naming offset 0, never a silent exit 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evt_test.h"
#include "evtrace/out.h"
#include "evtrace/reader.h"

static void empty_file_is_an_input_error(void **st)
{
    (void)st;
    char empty[4200], out[4200];
    snprintf(empty, sizeof empty, "%s/empty.bin", evt_test_tmpdir());
    snprintf(out, sizeof out, "%s/out.json", evt_test_tmpdir());
    assert_int_equal(evt_test_write_file(empty, "", 0), 0);
    for (size_t i = 0; i <= evt_reader_count(); i++) {
        const char *fmt = i < evt_reader_count() ? evt_reader_at(i)->name : NULL;
        const char *const cmds[][8] = {
            {"info", empty}, {"dump", "--json", empty}, {"check", empty}, {"stats", empty},
            {"convert", "-q", empty, "-o", out},
        };
        for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
            const char *argv[16];
            int n = 0;
            argv[n++] = evt_test_bin();
            argv[n++] = cmds[c][0];
            if (fmt) { argv[n++] = "--format"; argv[n++] = fmt; }
            for (int k = 1; cmds[c][k]; k++) argv[n++] = cmds[c][k];
            argv[n] = NULL;
            char *err = NULL;
            int rc = evt_test_runv(argv, NULL, NULL, &err);
            if (rc != 3 || !strstr(err, "offset 0"))
                fail_msg("%s --format %s on an empty file: exit %d, stderr: %s", cmds[c][0], fmt ? fmt : "(auto)", rc, err);
            free(err);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(empty_file_is_an_input_error)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    evt_out_remove_tree(evt_test_tmpdir());
    return rc;
}
