/* cli_parse (src/cli/cli_parse.c): getopt_long forms (--opt=value, --opt value, -oOUT, combined
 * short flags, --), the per-command option sets, errors as EXIT_USAGE, an option given twice, and
 * repeated calls. */
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
    /* one value each: the same again is harmless, another is refused (repeated_options) */
    assert_int_equal(PARSE(&a, "dump", "--rkh-config", "a.h", "--rkh-config=a.h", "t.bin"), 0);
    assert_int_equal(a.ropts.n, 1);
    assert_string_equal(a.ropts.val[0], "a.h");
    assert_int_equal(PARSE(&a, "dump", "--rkh-config", "a.h", "--rkh-config", "b.h", "t.bin"), EXIT_USAGE);
}

/* A single-valued option given twice with two values is a usage error (it was: the last won,
 * silently); the same value twice, a repeated flag and the list options (--label, --trace-id) are
 * accepted as before. */
static void repeated_options(void **st)
{
    (void)st;
    cli_args a;
    assert_int_equal(PARSE(&a, "convert", "in.trx", "--to", "perfetto", "--to", "ctf", "-o", "x"), EXIT_USAGE);
    assert_int_equal(PARSE(&a, "convert", "in.trx", "-o", "a.json", "--output=b.json"), EXIT_USAGE);
    assert_int_equal(PARSE(&a, "convert", "in.trx", "-qoa.json", "-o", "b.json"), EXIT_USAGE);
    assert_int_equal(PARSE(&a, "dump", "--begin", "1", "--begin", "2", "t"), EXIT_USAGE);
    assert_int_equal(PARSE(&a, "dump", "--clock-hz", "1000", "--clock-hz", "1e3", "t"), EXIT_USAGE); /* as written */
    assert_int_equal(PARSE(&a, "dump", "--format", "threadx", "--format", "rkh", "t"), EXIT_USAGE);
    assert_int_equal(PARSE(&a, "live", "--port", "8000", "--port", "8001", "x.bin"), EXIT_USAGE);
    assert_int_equal(PARSE(&a, "dump", "--gdb", "h:1", "--rtt", "--rtt=0x20000000"), EXIT_USAGE); /* search vs ADDR */
    assert_int_equal(PARSE(&a, "info", "--elf", "a.elf", "--elf", "b.elf", "t"), EXIT_USAGE);   /* a reader's --elf */
    assert_int_equal(PARSE(&a, "dump", "--elf", "a.elf", "--elf", "b.elf", "t"), EXIT_USAGE);   /* the table's --elf */
    /* the same value twice: one value, accepted */
    assert_int_equal(PARSE(&a, "convert", "in.trx", "--to", "ctf", "--to=ctf", "-o", "d", "-od"), 0);
    assert_string_equal(a.to, "ctf");
    assert_string_equal(a.out, "d");
    assert_int_equal(PARSE(&a, "dump", "--begin", "#3", "--begin=#3", "--end", "#9", "--end", "#9", "t"), 0);
    assert_true(a.range.has_begin && a.range.begin == 3 && a.range.has_end && a.range.end == 9);
    assert_int_equal(PARSE(&a, "dump", "--gdb", "h:1", "--rtt", "--rtt"), 0);
    assert_string_equal(a.rtt, "");
    /* flags repeated */
    assert_int_equal(PARSE(&a, "convert", "in.trx", "-q", "--quiet", "-qq", "--force", "--force", "-o", "x"), 0);
    assert_true(a.quiet && a.force);
    assert_int_equal(PARSE(&a, "info", "--json", "--json", "t"), 0);
    assert_int_equal(a.json, 1);
    /* lists keep every value, in order, as before */
    assert_int_equal(PARSE(&a, "convert", "a.trx", "b.trx", "--to", "clickhouse", "-o", "http://h:1/", "--label", "k=1",
                           "--label", "k=2", "--label", "k=1", "--trace-id", "A", "--trace-id", "B"), 0);
    assert_int_equal(a.nlabel, 3);
    assert_string_equal(a.label[0], "k=1");
    assert_string_equal(a.label[1], "k=2");
    assert_string_equal(a.label[2], "k=1");
    assert_int_equal(a.ntrace_id, 2);
    assert_string_equal(a.trace_id[1], "B");
    /* each parse starts afresh: the values of the previous one are not "seen" */
    assert_int_equal(PARSE(&a, "convert", "in.trx", "--to", "perfetto", "-o", "x"), 0);
    assert_int_equal(PARSE(&a, "convert", "in.trx", "--to", "ctf", "-o", "y"), 0);
    assert_string_equal(a.to, "ctf");
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
        cmocka_unit_test(repeated_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
