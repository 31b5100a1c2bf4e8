/* Terminal-safe text (issue 31, item 2): a ThreadX trace whose thread and queue names hold every C0
 * byte (0x01..0x1f; 0x00 ends a C name) and DEL, read from a file whose own name holds ESC, BEL,
 * CR and LF, through every human-readable command (dump, stats, info, check, query, convert,
 * report, and an error). No output may carry a raw control byte (only the lines' own LF, and
 * query's column TABs), and the escapes must show (\x1b, \n). JSON keeps the names exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evt_test.h"
#include "trace_builder.h"

#define A 0x20001000u
#define B 0x20002000u
#define Q 0x20003000u

static const char k_name_a[] = "A\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f";
static const char k_name_b[] = "B\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f";
static const char k_name_q[] = "\x1b]0;pwned\x07\x1b[2J\rforged line\n";

/* Is every byte of out[0..n) printable, or a LF (or a TAB when tabs is set)? */
static void assert_clean_(const char *what, const char *out, size_t n, int tabs)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)out[i];
        if (c == '\n' || (tabs && c == '\t')) continue;
        if (c < 0x20 || c == 0x7f) {
            fprintf(stderr, "%s: raw control byte 0x%02x at %zu: ...%.*s\n", what, c, i, (int)(n - i < 40 ? n - i : 40),
                    out + i);
            fail();
        }
    }
}

static char *run_(const char *const argv[], int *rc, size_t *outlen, char **err)
{
    char *out = NULL;
    *rc = evt_test_runv(argv, &out, outlen, err);
    assert_non_null(out);
    return out;
}

/* The JSON string form of s the way the exporters escape it (json.c). */
static void json_of_(const char *s, char *out, size_t cap)
{
    size_t o = 0;
    for (; *s && o + 8 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\n') o += (size_t)snprintf(out + o, cap - o, "\\n");
        else if (c == '\r') o += (size_t)snprintf(out + o, cap - o, "\\r");
        else if (c == '\t') o += (size_t)snprintf(out + o, cap - o, "\\t");
        else if (c == '"' || c == '\\') o += (size_t)snprintf(out + o, cap - o, "\\%c", c);
        else if (c < 0x20 || c == 0x7f) o += (size_t)snprintf(out + o, cap - o, "\\u%04x", c);
        else out[o++] = (char)c;
    }
    out[o] = '\0';
}

static void every_text_command_is_safe(void **st)
{
    (void)st;
    tb_trace *t = tb_new();
    tb_thread(t, A, k_name_a, 10, 0x20010000, 1024);
    tb_thread(t, B, k_name_b, 11, 0x20020000, 1024);
    tb_object(t, TXTB_OBJ_QUEUE, Q, k_name_q, 0, 0);
    tb_resume(t, 100, A, B, TB_STATE_SUSPENDED, B);
    tb_queue_send(t, 120, B, Q, 1);
    tb_queue_receive(t, 130, A, Q, 0);
    char path[4200], html[4200], json[4200], db[4200];
    snprintf(path, sizeof path, "%s/t\x1b]2;title\x07\r\n.trx", evt_test_tmpdir());
    snprintf(html, sizeof html, "%s/r\x1b[31m.html", evt_test_tmpdir());
    snprintf(json, sizeof json, "%s/c\x07.json", evt_test_tmpdir());
    snprintf(db, sizeof db, "%s/d\x1b.sqlite", evt_test_tmpdir());
    assert_int_equal(tb_write(t, path), 0);
    tb_free(t);

    const char *bin = evt_test_bin();
    const char *const cmds[][8] = {
        {bin, "dump", path, NULL},
        {bin, "stats", path, NULL},
        {bin, "info", path, NULL},
        {bin, "check", path, NULL},
        {bin, "convert", path, "-o", json, NULL},
        {bin, "convert", path, "-o", db, NULL},
        {bin, "report", path, "-o", html, NULL},
        {bin, "query", path, "SELECT name, 'a' || char(9) || 'b' FROM contexts", NULL},
        {bin, "query", db, "SELECT name AS \"x\ty\" FROM contexts", NULL},
        {bin, "dump", "--format", "rkh", path, NULL},            /* an error naming the file */
        {bin, "info", "/nonexistent/\x1b[2J\x07", NULL},          /* an error on a missing file */
        {bin, "du\x1b[2Jmp", path, NULL},                         /* an unknown command */
    };
    int saw_esc = 0, saw_nl = 0;
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        int rc;
        size_t n;
        char *err = NULL;
        char *out = run_(cmds[i], &rc, &n, &err);
        char what[64];
        snprintf(what, sizeof what, "evtrace %s (#%zu) stdout", cmds[i][1], i);
        assert_clean_(what, out, n, strcmp(cmds[i][1], "query") == 0);
        snprintf(what, sizeof what, "evtrace %s (#%zu) stderr", cmds[i][1], i);
        assert_clean_(what, err, strlen(err), 0);
        saw_esc += strstr(out, "\\x1b") != NULL || strstr(err, "\\x1b") != NULL;
        saw_nl += strstr(out, "\\n") != NULL;
        if (strcmp(cmds[i][1], "query") == 0) { /* the rows, every value escaped: two columns, one TAB */
            assert_int_equal(rc, 0);
            assert_non_null(strstr(out, i == 7 ? "\\x0b\\x0c\\r\\x0e\\x0f\ta\\tb\n" : "x\\ty\n"));
        }
        if (i == 0) { /* dump: each name shown escaped, in full */
            assert_non_null(strstr(out, "A\\x01\\x02\\x03"));
            assert_non_null(strstr(out, "\\x1b]0;pwned\\x07\\x1b[2J\\rforged line\\n"));
        }
        free(out);
        free(err);
    }
    assert_true(saw_esc >= 8);
    assert_true(saw_nl >= 3);

    /* JSON: the names exactly as the trace holds them (JSON's own escapes). */
    const char *const js[] = {bin, "dump", "--json", path, NULL};
    int rc;
    size_t n;
    char *out = run_(js, &rc, &n, NULL);
    assert_int_equal(rc, 0);
    char want[512];
    json_of_(k_name_q, want, sizeof want);
    assert_non_null(strstr(out, want));
    json_of_(k_name_b, want, sizeof want);
    assert_non_null(strstr(out, want));
    json_of_(k_name_a, want, sizeof want);
    assert_non_null(strstr(out, want));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(every_text_command_is_safe)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
