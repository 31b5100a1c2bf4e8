/* cli_parse (src/cli/cli_parse.c): getopt_long forms (--opt=value, --opt value, -oOUT, combined
 * short flags, --), the per-command option sets, errors as EXIT_USAGE, and repeated calls. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>
#include "cli/cli.h"
#include "evt_cli_args.h"

#define PARSE EVT_PARSE

static void long_forms(void **st)
{
    (void)st;
    cli_args a;
    assert_int_equal(PARSE(&a, "convert", "in.trx", "--output=out.json", "--to=chrome"), 0);
    assert_string_equal(a.file, "in.trx");
    assert_string_equal(a.out, "out.json");
    assert_string_equal(a.to, "chrome");
    assert_int_equal(PARSE(&a, "convert", "--to", "ctf", "-o", "d", "in.trx", "--force"), 0);
    assert_string_equal(a.to, "ctf");
    assert_string_equal(a.out, "d");
    assert_int_equal(a.force, 1);
    assert_int_equal(PARSE(&a, "dump", "--format=threadx", "--json", "t.trx"), 0);
    assert_string_equal(a.format, "threadx");
    assert_int_equal(a.json, 1);
}

static void short_forms(void **st)
{
    (void)st;
    cli_args a;
    assert_int_equal(PARSE(&a, "convert", "-qo", "x.json", "in.trx"), 0);
    assert_int_equal(a.quiet, 1);
    assert_string_equal(a.out, "x.json");
    assert_int_equal(PARSE(&a, "convert", "-ox.json", "in.trx"), 0);
    assert_string_equal(a.out, "x.json");
    assert_int_equal(a.quiet, 0); /* the struct is reset on each call */
}

static void double_dash_and_stdin(void **st)
{
    (void)st;
    cli_args a;
    assert_int_equal(PARSE(&a, "query", "--json", "--", "-weird.trx", "SELECT 1"), 0);
    assert_string_equal(a.file, "-weird.trx");
    assert_int_equal(a.nextra, 1);
    assert_string_equal(a.extra[0], "SELECT 1");
    assert_int_equal(PARSE(&a, "dump", "-"), 0);
    assert_string_equal(a.file, "-");
    /* positional order is kept even with options between them */
    assert_int_equal(PARSE(&a, "query", "db.sqlite", "--json", "SELECT 2"), 0);
    assert_string_equal(a.file, "db.sqlite");
    assert_string_equal(a.extra[0], "SELECT 2");
}

static void follow_options(void **st)
{
    (void)st;
    cli_args a;
    assert_int_equal(PARSE(&a, "dump", "--listen=4000", "--idle-exit", "1.5"), 0);
    assert_int_equal(a.follow, 1);
    assert_string_equal(a.listen, "4000");
    assert_string_equal(a.file, "4000");
    assert_int_equal(a.idle_exit_ms, 1500);
    assert_int_equal(PARSE(&a, "dump", "--follow", "--idle-exit", "0.0004", "f"), 0);
    assert_int_equal(a.idle_exit_ms, 1); /* below the resolution: 1 ms, never "no limit" */
    assert_int_equal(PARSE(&a, "dump", "--follow", "--idle-exit", "0.0015", "f"), 0);
    assert_int_equal(a.idle_exit_ms, 2);
    assert_int_equal(PARSE(&a, "dump", "--follow", "--idle-exit", "0", "f"), 0);
    assert_int_equal(a.idle_exit_ms, 0);
    assert_int_equal(PARSE(&a, "dump", "--follow", "--idle-exit=x", "f"), EXIT_USAGE);
    assert_int_equal(PARSE(&a, "dump", "--follow", "--idle-exit=-1", "f"), EXIT_USAGE);
}

static void reader_options(void **st)
{
    (void)st;
    cli_args a;
    assert_int_equal(PARSE(&a, "dump", "--rkh-config=cfg.h", "t.bin"), 0);
    assert_int_equal(a.ropts.n, 1);
    assert_string_equal(a.ropts.key[0], "rkh-config");
    assert_string_equal(a.ropts.val[0], "cfg.h");
    assert_int_equal(PARSE(&a, "dump", "--rkh-config", "a.h", "--rkh-config", "b.h", "t.bin"), 0);
    assert_int_equal(a.ropts.n, 1);
    assert_string_equal(a.ropts.val[0], "b.h");
}

static void usage_errors(void **st)
{
    (void)st;
    cli_args a;
    assert_int_equal(PARSE(&a, "dump", "--bogus", "t"), EXIT_USAGE);
    assert_int_equal(PARSE(&a, "dump", "-o", "x", "t"), EXIT_USAGE);       /* dump writes no file */
    assert_int_equal(PARSE(&a, "dump", "--json=1", "t"), EXIT_USAGE);     /* a flag takes no value */
    assert_int_equal(PARSE(&a, "convert", "t", "-o"), EXIT_USAGE);        /* missing value */
    assert_int_equal(PARSE(&a, "convert", "t", "--to"), EXIT_USAGE);
    assert_int_equal(PARSE(&a, "dump"), EXIT_USAGE);                      /* missing FILE */
    assert_int_equal(PARSE(&a, "dump", "a", "b"), EXIT_USAGE);            /* too many */
    assert_int_equal(PARSE(&a, "query", "a"), EXIT_USAGE);                /* SQL missing */
    assert_int_equal(PARSE(&a, "dump", "--format", "nope", "t"), CLI_PARSE_BAD_FORMAT);
    assert_int_equal(PARSE(&a, "dump", "t", "--help"), CLI_PARSE_HELP);
    assert_int_equal(PARSE(&a, "convert", "-h"), CLI_PARSE_HELP);
    /* --begin/--end past 2^64 are refused, not cast (a fuzz finding: UB in the tick check) */
    assert_int_equal(PARSE(&a, "dump", "--begin=99999999999999999999999", "t"), EXIT_USAGE);
    assert_int_equal(PARSE(&a, "dump", "--end=1e300", "t"), EXIT_USAGE);
    assert_int_equal(PARSE(&a, "dump", "--end=inf", "t"), EXIT_USAGE);
    assert_int_equal(PARSE(&a, "dump", "--begin=18446744073709551615", "t"), 0);
    assert_true(a.range.begin == UINT64_MAX && a.range.begin_kind == EVT_RANGE_TICKS);
    assert_int_equal(PARSE(&a, "dump", "--begin=18446744073709551616", "t"), EXIT_USAGE);
    assert_int_equal(PARSE(&a, "dump", "--begin=1e5", "t"), EXIT_USAGE); /* ticks are whole digits */
    /* after errors, a good line parses again */
    assert_int_equal(PARSE(&a, "info", "--json", "t"), 0);
    assert_string_equal(a.file, "t");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(long_forms),        cmocka_unit_test(short_forms),
        cmocka_unit_test(double_dash_and_stdin), cmocka_unit_test(follow_options),
        cmocka_unit_test(reader_options),    cmocka_unit_test(usage_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
