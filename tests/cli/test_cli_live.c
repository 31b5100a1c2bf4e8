/* The options of the live inputs and of `evtrace live` (cli_parse): --connect, --gdb with --rtt
 * (no value, --rtt=ADDR, and --rtt ADDR with a space, which getopt leaves as a positional),
 * --elf, --port, --bind, --view-bytes; the inputs exclude each other; --gdb needs --rtt and --rtt
 * needs --gdb; --elf is the readers' --elf too (user-event sites: without --gdb always, with it when
 * the file has a section .evt_user, as this program has); bad numbers are usage errors; dump
 * accepts the remote inputs too. */
#define EVT_CFG_USER_ELF 1 /* this program's own user-event site: a section .evt_user */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "evt_cli_args.h"
#include "evtrace/user.h"

#define PARSE EVT_PARSE

static void test_gdb_rtt(void **st)
{
    (void)st;
    cli_args a;
    assert_int_equal(PARSE(&a, "live", "--gdb", "127.0.0.1:1234", "--rtt", "-o", "t.bin"), 0);
    assert_string_equal(a.gdb, "127.0.0.1:1234");
    assert_string_equal(a.rtt, "");
    assert_string_equal(a.file, "127.0.0.1:1234");
    assert_string_equal(a.out, "t.bin");
    assert_int_equal(PARSE(&a, "live", "--gdb", "h:1", "--rtt", "0x20000400"), 0);
    assert_string_equal(a.rtt, "0x20000400");
    assert_string_equal(a.file, "h:1");
    assert_int_equal(PARSE(&a, "live", "--gdb", "h:1", "--rtt=0x20000000:0x8000", "--elf", "fw.elf"), 0);
    assert_string_equal(a.rtt, "0x20000000:0x8000");
    assert_string_equal(a.elf, "fw.elf");
    assert_int_equal(PARSE(&a, "dump", "--json", "--gdb", "h:1", "--rtt"), 0);
    assert_int_equal(a.follow, 1);
    assert_int_equal(PARSE(&a, "live", "--gdb", "h:1"), EXIT_USAGE);          /* no --rtt */
    assert_int_equal(PARSE(&a, "live", "--connect", "h:1", "--rtt"), EXIT_USAGE);
    assert_int_equal(PARSE(&a, "live", "--rtt", "x.bin"), EXIT_USAGE);            /* --rtt without --gdb */
    /* --elf without --gdb: the readers' --elf (user-event sites), the one option of every command */
    assert_int_equal(PARSE(&a, "live", "--elf", "fw.elf", "x.bin"), 0);
    assert_int_equal(a.ropts.n, 1);
    assert_string_equal(a.ropts.key[0], "elf");
    assert_string_equal(a.ropts.val[0], "fw.elf");
    assert_int_equal(PARSE(&a, "dump", "--elf", "fw.elf", "t.trx"), 0);
    assert_string_equal(a.ropts.val[0], "fw.elf");
    assert_int_equal(PARSE(&a, "info", "--elf", "fw.elf", "t.trx"), 0);
    assert_string_equal(a.ropts.val[0], "fw.elf");
    /* over RTT parsing reads no file: cli_remote_elf_sites decides (fw.elf does not exist: not given) */
    assert_int_equal(PARSE(&a, "dump", "--gdb", "h:1", "--rtt", "--elf", "fw.elf"), 0);
    assert_int_equal(a.ropts.n, 0);
    assert_int_equal(cli_remote_elf_sites(&a), 0);
    assert_int_equal(a.ropts.n, 0);
    /* a firmware with user-event sites (this program): the readers get it too */
    static char self[1024];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(n > 0);
    self[n] = '\0';
    assert_int_equal(PARSE(&a, "dump", "--gdb", "h:1", "--rtt", "--elf", self), 0);
    assert_int_equal(cli_remote_elf_sites(&a), 0);
    assert_int_equal(a.ropts.n, 1);
    assert_string_equal(a.ropts.key[0], "elf");
    assert_string_equal(a.ropts.val[0], self);
}

static void test_connect_and_server(void **st)
{
    (void)st;
    cli_args a;
    assert_int_equal(PARSE(&a, "live", "--connect", "localhost:19021", "--port", "8080", "--bind", "0.0.0.0",
                           "--view-bytes", "0x200000"), 0);
    assert_string_equal(a.connect, "localhost:19021");
    assert_string_equal(a.file, "localhost:19021");
    assert_int_equal(a.port, 8080);
    assert_string_equal(a.bind, "0.0.0.0");
    assert_int_equal(a.view_bytes, 0x200000);
    assert_int_equal(PARSE(&a, "convert", "--connect", "h:2", "-o", "x.json"), 0);
    assert_int_equal(PARSE(&a, "live", "--connect", "h:1", "--listen", "4000"), EXIT_USAGE);
    /* a FILE beside a remote source: two inputs (it only named the page before) */
    assert_int_equal(PARSE(&a, "live", "--connect", "h:1", "trace.bin"), EXIT_USAGE);
    assert_int_equal(PARSE(&a, "convert", "--listen", "4000", "in.trx", "-o", "x.json"), EXIT_USAGE);
    assert_int_equal(PARSE(&a, "live", "--gdb", "h:1", "--rtt", "0x1", "--rtt", "0x2"), EXIT_USAGE); /* two ADDRs */
    assert_int_equal(PARSE(&a, "live", "--connect", "h:1", "--gdb", "h:2", "--rtt"), EXIT_USAGE);
    assert_int_equal(PARSE(&a, "live", "--connect", "h:1", "--port", "70000"), EXIT_USAGE);
    assert_int_equal(PARSE(&a, "live", "--connect", "h:1", "--view-bytes", "100"), EXIT_USAGE);
    assert_int_equal(PARSE(&a, "dump", "--port", "80", "x.bin"), EXIT_USAGE); /* a live-only option */
    assert_int_equal(PARSE(&a, "live"), EXIT_USAGE);                           /* no input */
}

int main(int argc, char **argv)
{
    (void)argv;
    if (argc > 1000) evt_printf("never", "a site in .evt_user (never called)");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gdb_rtt),
        cmocka_unit_test(test_connect_and_server),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
