/* The evtrace command: top-level help and version, then one subcommand (cmd_*.c) with its
 * options parsed by cli_parse (cli_parse.c). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "evtrace/exporter.h"
#include "evtrace/version.h"

static void print_formats(FILE *o)
{
    fprintf(o, "\nFormats (auto-detected; --format NAME forces one):\n");
    for (size_t i = 0; i < evt_reader_count(); i++) {
        const evt_reader_desc *d = evt_reader_at(i);
        if (!(d->flags & EVT_READER_HIDDEN)) fprintf(o, "  %-10s %s\n", d->name, d->description);
    }
}

static void print_reader_options(FILE *o)
{
    cli_option_info op;
    char readers[128];
    for (size_t i = 0; cli_reader_option(i, &op, readers, sizeof readers); i++) {
        if (i == 0) fprintf(o, "\nReader options:\n");
        char buf[64];
        snprintf(buf, sizeof buf, "--%s %s", op.name, op.arg ? op.arg : "");
        fprintf(o, "  %-24s %s (%s)\n", buf, op.help, readers);
    }
}

static void usage(FILE *o)
{
    fprintf(o, "usage: evtrace COMMAND [options] FILE\n\n"
               "Decode, check and convert event traces (ThreadX TXTB and more).\n\nCommands:\n");
    for (size_t i = 0; i < cli_command_count(); i++)
        fprintf(o, "  %-8s %s\n", cli_command_at(i)->name, cli_command_at(i)->summary);
    fprintf(o, "\nCommon options:\n"
               "  --format NAME            force a reader instead of auto-detection\n"
               "  --clock-hz HZ            the trace's tick rate in Hz: times become ns\n"
               "  --begin WHEN, --end WHEN only the events in that range: a time (1.5s, 250ms),\n"
               "                           ticks (a plain number) or #N (the N-th event, from 0);\n"
               "                           times and ticks on the trace's own clock (dump's first\n"
               "                           columns), not counted from the trace's start\n"
               "  -h, --help               help (also: evtrace COMMAND --help)\n"
               "  --version                print the version\n"
               "  help --man, help --bash-completion   the man page (roff) and the bash completion\n"
               "Options take their value as --opt VALUE or --opt=VALUE; -- ends the options.\n"
               "An option given twice must have the same value both times (except the lists --label, --trace-id).\n");
    print_formats(o);
    print_reader_options(o);
    fprintf(o, "\nExit codes: 0 success, 1 the data has errors, 2 usage, 3 unreadable or unsupported input.\n");
}

static void cmd_usage(const cli_command *c, FILE *o)
{
    fprintf(o, "usage: evtrace %s %s\n\n%s\n", c->name, c->usage, c->help);
    if (c->more_help) c->more_help(o);
    fprintf(o, "\nOptions:\n");
    cli_print_options(c, o);
    if (c->opts & OPT_TO) {
        fprintf(o, "  %-24s", "output kinds:");
        for (size_t i = 0; i < evt_exporter_count(); i++) fprintf(o, " %s", evt_exporter_at(i)->name);
        fprintf(o, "\n");
    }
    if (!(c->opts & OPT_NO_FILE)) print_reader_options(o); /* reader options mean nothing without a trace */
    fprintf(o, "\nExit codes: 0 success, 1 the data has errors, 2 usage, 3 unreadable or unsupported input.\n");
}

int main(int argc, char **argv)
{
    /* A file-size limit (ulimit -f) is a write error like a full disk: the write fails with EFBIG,
     * evtrace says so, removes its temporary output and exits 3, instead of being killed by
     * SIGXFSZ with the temporary left behind. */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2) { usage(stderr); return EXIT_USAGE; }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("evtrace %s\n", EVT_VERSION_STRING);
        return 0;
    }
    if (strcmp(cmd, "help") == 0 && argc == 3 && strcmp(argv[2], "--man") == 0) { cli_doc_man(stdout); return 0; }
    if (strcmp(cmd, "help") == 0 && argc == 3 && strcmp(argv[2], "--bash-completion") == 0) {
        cli_doc_bash(stdout);
        return 0;
    }
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        const cli_command *c = argc > 2 ? cli_command_find(argv[2]) : NULL;
        if (c) cmd_usage(c, stdout);
        else usage(stdout);
        return 0;
    }
    const cli_command *c = cli_command_find(cmd);
    if (!c) {
        fprintf(stderr, "evtrace: unknown command '%s'\n\n", cli_safe(cmd));
        usage(stderr);
        return EXIT_USAGE;
    }
    cli_args a;
    int rc = cli_parse(c, argc - 1, argv + 1, &a);
    if (rc == CLI_PARSE_HELP) { cmd_usage(c, stdout); return 0; }
    if (rc == CLI_PARSE_BAD_FORMAT) { print_formats(stderr); return EXIT_USAGE; }
    if (rc) return rc;
    if ((rc = cli_remote_elf_sites(&a)) != 0) return rc;
    rc = c->run(&a);
    /* Whatever went to standard output must have got there: a full disk or a closed stdout is an
     * error (exit 3), never a silent loss. */
    if ((fflush(stdout) != 0 || ferror(stdout)) && rc != EXIT_INPUT) {
        fprintf(stderr, "evtrace %s: standard output: %s\n", c->name, errno ? strerror(errno) : "write error");
        rc = EXIT_INPUT;
    }
    return rc;
}
