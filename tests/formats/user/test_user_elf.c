/* User events in ELF mode (EVT_CFG_USER_ELF 1): the sites live in section .evt_user of this very
 * program, the trace holds only an ANCHOR record and CALL records; with the program's file as
 * --elf the host formats the text (relocating the position-independent addresses by the anchor);
 * without it the events show their raw words and a diagnostic each; a file that is no ELF, or
 * has no .evt_user section, is refused with a message. The evtrace command takes the same --elf in
 * every command, including the stream commands (dump, convert), whose own --elf (the firmware of
 * --gdb --rtt) used to hide it: `evtrace dump --elf firmware.elf trace.trx` refused to run. */
#define EVT_CFG_USER_ELF 1
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <unistd.h>
#include "evt_test.h"
#include "evtrace/user.h"
#include "user_test_util.h"

#define BUF_SIZE (32u * 1024u)
static uint8_t g_buf[BUF_SIZE];
static char g_self[1024];

static void record(void)
{
    assert_int_equal(evt_tx_trace_enable(g_buf, BUF_SIZE, 4), EVT_TX_SUCCESS);
    evt_user_resend();
    for (int i = 0; i < 3; i++) evt_printf("elf", "i=%d of %s", i, "three");
    evt_value("elfv", -9);
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
}

static void test_with_elf(void **st)
{
    (void)st;
    record();
    evt_open_opts o = {1, {"elf"}, {g_self}};
    ut_trace t;
    assert_int_equal(ut_decode(g_buf, BUF_SIZE, "threadx", &o, &t), EVT_END);
    assert_int_equal(t.sites, 0);   /* nothing registered in the trace */
    assert_int_equal(t.anchors, 1);
    assert_int_equal(t.n, 4);
    for (int i = 0; i < 3; i++) {
        char x[32];
        snprintf(x, sizeof x, "i=%d of %s", i, "three");
        assert_string_equal(t.ev[i].name, "elf");
        assert_string_equal(t.ev[i].text, x);
    }
    assert_int_equal(t.ev[3].value, -9);
    assert_int_equal(t.errors, 0);
    free(t.ev);
}

static void test_without_elf(void **st)
{
    (void)st;
    record();
    ut_trace t;
    assert_int_equal(ut_decode(g_buf, BUF_SIZE, "threadx", NULL, &t), EVT_END);
    /* no site known: the records stay plain TXTB user events (an application may use these ids) */
    assert_int_equal(t.anchors, 1);
    assert_int_equal(t.errors, 0);
    for (unsigned i = 0; i < t.n; i++) assert_null(strstr(t.ev[i].name, "elf"));
    free(t.ev);
}

static void test_bad_elf(void **st)
{
    (void)st;
    record();
    char path[600];
    snprintf(path, sizeof path, "%s/not_elf", evt_test_tmpdir());
    assert_int_equal(evt_test_write_file(path, "hello", 5), 0);
    evt_open_opts o = {1, {"elf"}, {path}};
    evt_reader *r = NULL;
    char err[256];
    assert_int_not_equal(evt_reader_open_mem(g_buf, BUF_SIZE, "threadx", &o, NULL, NULL, &r, err, sizeof err), EVT_OK);
    assert_non_null(strstr(err, "not an ELF"));
    /* an ELF without .evt_user: the evtrace command itself (built without user sites?) may have
     * one from the library's anchor, so use a truncated copy of this program instead */
    size_t len;
    uint8_t *self = evt_test_read_file(g_self, &len);
    assert_int_equal(evt_test_write_file(path, self, 64), 0);
    free(self);
    r = NULL;
    assert_int_not_equal(evt_reader_open_mem(g_buf, BUF_SIZE, "threadx", &o, NULL, NULL, &r, err, sizeof err), EVT_OK);
    assert_non_null(strstr(err, "--elf"));
}

/* The command line of docs/user-events.md: dump and convert format the text from the ELF file;
 * info, stats and dump agree on refusing a file without .evt_user. */
static void test_cli_elf(void **st)
{
    (void)st;
    record();
    char *trace = evt_test_tmp_path("elf_user.trx");
    assert_int_equal(evt_test_write_file(trace, g_buf, BUF_SIZE), 0);
    char *out = NULL, *err = NULL;
    const char *dump[] = {evt_test_bin(), "dump", "--elf", g_self, trace, NULL};
    assert_int_equal(evt_test_runv(dump, &out, NULL, &err), 0);
    for (int i = 0; i < 3; i++) {
        char x[32];
        snprintf(x, sizeof x, "i=%d of %s", i, "three");
        assert_non_null(strstr(out, x));
    }
    free(out);
    free(err);
    char *json = evt_test_tmp_path("elf_user.json");
    const char *conv[] = {evt_test_bin(), "convert", "--to", "chrome", "--elf", g_self, "-o", json, trace, NULL};
    assert_int_equal(evt_test_runv(conv, NULL, NULL, NULL), 0);
    size_t len;
    uint8_t *j = evt_test_read_file(json, &len);
    char *text = malloc(len + 1);
    assert_non_null(text);
    memcpy(text, j, len);
    text[len] = '\0';
    assert_non_null(strstr(text, "i=2 of three"));
    free(text);
    free(j);
    /* without --elf: no text (the records stay plain user events) */
    const char *plain[] = {evt_test_bin(), "dump", trace, NULL};
    assert_int_equal(evt_test_runv(plain, &out, NULL, NULL), 0);
    assert_null(strstr(out, "i=1 of three"));
    free(out);
    /* a file that is no ELF: refused by each command, with the option named */
    char *bad = evt_test_tmp_path("not_elf");
    assert_int_equal(evt_test_write_file(bad, "hello", 5), 0);
    const char *cmds[] = {"dump", "info", "stats"};
    for (int k = 0; k < 3; k++) {
        const char *argv[] = {evt_test_bin(), cmds[k], "--elf", bad, trace, NULL};
        err = NULL;
        assert_int_not_equal(evt_test_runv(argv, NULL, NULL, &err), 0);
        assert_non_null(strstr(err, "--elf"));
        assert_null(strstr(err, "--gdb")); /* the reader's refusal, not the RTT option's */
        free(err);
    }
}

int main(void)
{
    ssize_t n = readlink("/proc/self/exe", g_self, sizeof g_self - 1);
    if (n <= 0) {
        printf("no /proc/self/exe: cannot find this program's ELF file\n");
        return 77;
    }
    g_self[n] = '\0';
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_with_elf), cmocka_unit_test(test_without_elf),
                                       cmocka_unit_test(test_bad_elf), cmocka_unit_test(test_cli_elf)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
