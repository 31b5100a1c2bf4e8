/* The evtrace command: argument parsing and dispatch to one subcommand per file (cmd_*.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "evtrace/exporter.h"
#include "evtrace/version.h"

#define CLI_COMMAND(n) extern const cli_command cli_cmd_##n;
#include "commands.def"
#undef CLI_COMMAND

static const cli_command *const k_cmds[] = {
#define CLI_COMMAND(n) &cli_cmd_##n,
#include "commands.def"
#undef CLI_COMMAND
};
#define NCMDS (sizeof k_cmds / sizeof k_cmds[0])

static void print_formats(FILE *o)
{
    fprintf(o, "\nFormats (auto-detected; --format NAME forces one):\n");
    for (size_t i = 0; i < evt_reader_count(); i++) {
        const evt_reader_desc *d = evt_reader_at(i);
        fprintf(o, "  %-10s %s\n", d->name, d->description);
    }
}

static void print_reader_options(FILE *o)
{
    int any = 0;
    for (size_t i = 0; i < evt_reader_count(); i++) {
        const evt_reader_desc *d = evt_reader_at(i);
        for (const evt_reader_option *op = d->options; op && op->name; op++) {
            if (!any++) fprintf(o, "\nReader options:\n");
            char buf[64];
            snprintf(buf, sizeof buf, "--%s %s", op->name, op->arg ? op->arg : "");
            fprintf(o, "  %-24s %s (%s)\n", buf, op->help, d->name);
        }
    }
}

static void usage(FILE *o)
{
    fprintf(o, "usage: evtrace COMMAND [options] FILE\n\n"
               "Decode, check and convert event traces (ThreadX TXTB and more).\n\nCommands:\n");
    for (size_t i = 0; i < NCMDS; i++) fprintf(o, "  %-8s %s\n", k_cmds[i]->name, k_cmds[i]->summary);
    fprintf(o, "\nCommon options:\n"
               "  --format NAME            force a reader instead of auto-detection\n"
               "  -h, --help               help (also: evtrace COMMAND --help)\n"
               "  --version                print the version\n");
    print_formats(o);
    print_reader_options(o);
    fprintf(o, "\nExit codes: 0 success, 1 the data has errors, 2 usage, 3 unreadable or unsupported input.\n");
}

static void cmd_usage(const cli_command *c, FILE *o)
{
    fprintf(o, "usage: evtrace %s %s\n\n%s\n", c->name, c->usage, c->help);
    fprintf(o, "\nOptions:\n  --format NAME            force a reader instead of auto-detection\n");
    if (c->opts & OPT_JSON) fprintf(o, "  --json                   machine-readable output (see docs/json-contract.md)\n");
    if (c->opts & OPT_OUTPUT) fprintf(o, "  -o OUT                   output path\n");
    if (c->opts & OPT_TO) {
        fprintf(o, "  --to KIND                output kind (default: from OUT's extension):");
        for (size_t i = 0; i < evt_exporter_count(); i++) fprintf(o, " %s", evt_exporter_at(i)->name);
        fprintf(o, "\n");
    }
    if (c->opts & OPT_QUIET) fprintf(o, "  -q, --quiet              no progress or summary on stderr\n");
    if (c->opts & OPT_FOLLOW)
        fprintf(o, "  --follow                 decode as data arrives: a growing FILE, a pipe, or - (stdin);\n"
                   "                           one line per event, flushed (stream formats such as rkh)\n"
                   "  --listen PORT            with --follow: accept one TCP connection on 127.0.0.1:PORT\n"
                   "  --idle-exit SECONDS      with --follow: stop after SECONDS without new data\n");
    print_reader_options(o);
    fprintf(o, "\nExit codes: 0 success, 1 the data has errors, 2 usage, 3 unreadable or unsupported input.\n");
}

static const evt_reader_option *find_reader_option(const char *name)
{
    for (size_t i = 0; i < evt_reader_count(); i++)
        for (const evt_reader_option *op = evt_reader_at(i)->options; op && op->name; op++)
            if (strcmp(op->name, name) == 0) return op;
    return NULL;
}

static int parse(const cli_command *c, int argc, char **argv, cli_args *a)
{
    memset(a, 0, sizeof *a);
    a->cmd = c->name;
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        const char *val = (i + 1 < argc) ? argv[i + 1] : NULL;
#define NEED_VAL()                                                        \
    do {                                                                  \
        if (!val) { cli_err(c->name, "option %s needs a value", s); return EXIT_USAGE; } \
        i++;                                                              \
    } while (0)
        if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) { cmd_usage(c, stdout); return -1; }
        else if (strcmp(s, "--format") == 0) { NEED_VAL(); a->format = val; }
        else if ((c->opts & OPT_JSON) && strcmp(s, "--json") == 0) a->json = 1;
        else if ((c->opts & OPT_OUTPUT) && strcmp(s, "-o") == 0) { NEED_VAL(); a->out = val; }
        else if ((c->opts & OPT_TO) && strcmp(s, "--to") == 0) { NEED_VAL(); a->to = val; }
        else if ((c->opts & OPT_QUIET) && (strcmp(s, "-q") == 0 || strcmp(s, "--quiet") == 0)) a->quiet = 1;
        else if ((c->opts & OPT_FOLLOW) && strcmp(s, "--follow") == 0) a->follow = 1;
        else if ((c->opts & OPT_FOLLOW) && strcmp(s, "--listen") == 0) { NEED_VAL(); a->listen = val; a->follow = 1; }
        else if ((c->opts & OPT_FOLLOW) && strcmp(s, "--idle-exit") == 0) {
            NEED_VAL();
            char *end;
            double secs = strtod(val, &end);
            if (*end || secs < 0) { cli_err(c->name, "--idle-exit needs a number of seconds"); return EXIT_USAGE; }
            a->idle_exit_ms = (unsigned)(secs * 1000.0);
        }
        else if (s[0] == '-' && s[1] == '-' && find_reader_option(s + 2)) {
            NEED_VAL();
            if (a->ropts.n >= EVT_MAX_OPTS) { cli_err(c->name, "too many reader options"); return EXIT_USAGE; }
            a->ropts.key[a->ropts.n] = s + 2;
            a->ropts.val[a->ropts.n++] = val;
        } else if (s[0] == '-' && s[1] != '\0') {
            cli_err(c->name, "unknown option '%s' (try: evtrace %s --help)", s, c->name);
            return EXIT_USAGE;
        } else if (!a->file) a->file = s;
        else if (a->nextra < (int)(sizeof a->extra / sizeof a->extra[0])) a->extra[a->nextra++] = s;
        else { cli_err(c->name, "too many arguments"); return EXIT_USAGE; }
#undef NEED_VAL
    }
    if (!a->file && a->listen) a->file = a->listen;
    if (!a->file) { cli_err(c->name, "missing FILE (try: evtrace %s --help)", c->name); return EXIT_USAGE; }
    if (a->nextra < c->min_extra || a->nextra > c->max_extra) {
        cli_err(c->name, "wrong number of arguments (try: evtrace %s --help)", c->name);
        return EXIT_USAGE;
    }
    if (a->format && !evt_reader_find(a->format)) {
        cli_err(c->name, "unknown format '%s'", a->format);
        print_formats(stderr);
        return EXIT_USAGE;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) { usage(stderr); return EXIT_USAGE; }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("evtrace %s\n", EVT_VERSION_STRING);
        return 0;
    }
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        if (argc > 2) {
            for (size_t i = 0; i < NCMDS; i++)
                if (strcmp(k_cmds[i]->name, argv[2]) == 0) { cmd_usage(k_cmds[i], stdout); return 0; }
        }
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < NCMDS; i++) {
        if (strcmp(k_cmds[i]->name, cmd) != 0) continue;
        cli_args a;
        int rc = parse(k_cmds[i], argc - 2, argv + 2, &a);
        if (rc == -1) return 0;
        if (rc) return rc;
        return k_cmds[i]->run(&a);
    }
    fprintf(stderr, "evtrace: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return EXIT_USAGE;
}
