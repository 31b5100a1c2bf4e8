/* Option parsing for one subcommand: getopt_long over a single option table (k_opts) plus the
 * options the readers declare (--rkh-config FILE, ...). Accepts --opt=value, --opt value, -o OUT,
 * -oOUT, combined short flags (-qo OUT), and `--` (everything after it is positional). No side
 * effects beyond filling the struct and printing errors to stderr, so it can be fuzzed.
 *
 * To add an option: one row in k_opts (name, short letter or 0, argument placeholder or NULL,
 * the OPT_* bit of the commands that accept it, help) and one case in apply_(). */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "evtrace/reader.h"

/* Option ids (getopt_long's `val`): printable short letters, or values past 256 for long-only. */
enum {
    ID_HELP = 'h', ID_OUT = 'o', ID_QUIET = 'q',
    ID_FORMAT = 256, ID_JSON, ID_TO, ID_FORCE, ID_FOLLOW, ID_LISTEN, ID_IDLE_EXIT,
    ID_SERIAL, ID_BAUD, ID_OFFSET, ID_BASE_ADDRESS, ID_CLOCK_HZ, ID_TRACE_ID, ID_LABEL, ID_CLUSTER, ID_DATABASE,
    ID_WINDOW, ID_CONNECT, ID_GDB, ID_RTT, ID_ELF, ID_PORT, ID_BIND, ID_VIEW_BYTES,
    ID_READER_OPT /* ID_READER_OPT + i: the i-th reader option found */
};

typedef struct cli_opt {
    const char *name; /* long name, without "--" */
    int id;           /* ID_*; a printable letter is also the short option */
    const char *arg;  /* placeholder of its value for --help, or NULL: a flag; wholly in brackets
                         ("[ADDR]"): the value is optional */
    unsigned need;    /* OPT_* bit of the commands that accept it; 0: every command */
    const char *help;
} cli_opt;

static const cli_opt k_opts[] = {
    {"help", ID_HELP, NULL, 0, "this help"},
    {"format", ID_FORMAT, "NAME", 0, "force a reader instead of auto-detection"},
    {"json", ID_JSON, NULL, OPT_JSON, "machine-readable output (see docs/json-contract.md)"},
    {"output", ID_OUT, "OUT", OPT_OUTPUT, "output path; - writes to standard output where the kind allows"},
    {"force", ID_FORCE, NULL, OPT_OUTPUT, "replace OUT even if it is not a file or an evtrace output directory"},
    {"to", ID_TO, "KIND", OPT_TO, "output kind (default: from OUT's extension)"},
    {"quiet", ID_QUIET, NULL, OPT_QUIET, "no progress or summary on stderr"},
    {"follow", ID_FOLLOW, NULL, OPT_FOLLOW,
     "decode as data arrives: a growing FILE, a pipe, or - (stdin);\n"
     "one line per event, flushed (stream formats such as rkh)"},
    {"listen", ID_LISTEN, "[HOST:]PORT", OPT_FOLLOW,
     "accept one TCP connection on HOST:PORT (default host 127.0.0.1;\n"
     "0.0.0.0 or [::] for every interface) and decode it as it arrives"},
    {"serial", ID_SERIAL, "DEV", OPT_FOLLOW, "read the serial device DEV (raw 8N1, set by evtrace) as it arrives"},
    {"baud", ID_BAUD, "N", OPT_FOLLOW, "with --serial: line speed (default: leave the device's)"},
    {"connect", ID_CONNECT, "HOST:PORT", OPT_FOLLOW,
     "read the TCP stream of HOST:PORT as it arrives (a probe's RTT server:\n"
     "OpenOCD, pyOCD, J-Link; any TCP byte stream); no reconnect"},
    {"gdb", ID_GDB, "HOST:PORT", OPT_FOLLOW,
     "read the target's RTT up buffer through the GDB server at HOST:PORT\n"
     "(OpenOCD, pyOCD, J-Link, QEMU -gdb); with --rtt"},
    {"rtt", ID_RTT, "[ADDR]", OPT_FOLLOW,
     "with --gdb: the RTT control block is at ADDR, or is searched for in\n"
     "ADDR:LEN, or (no value) found by --elf's _SEGGER_RTT or in 0x20000000:64K"},
    {"elf", ID_ELF, "FILE", OPT_FOLLOW, "with --gdb --rtt: the firmware ELF; its _SEGGER_RTT symbol locates the block"},
    {"port", ID_PORT, "N", OPT_LIVE, "the live view's HTTP port (default: a free one, printed)"},
    {"bind", ID_BIND, "ADDR", OPT_LIVE, "the live view's address (default 127.0.0.1: this machine only)"},
    {"view-bytes", ID_VIEW_BYTES, "N", OPT_LIVE,
     "the live page shows the stream's first 4 KiB and its newest N bytes\n(default 1048576; the file keeps everything)"},
    {"idle-exit", ID_IDLE_EXIT, "SECONDS", OPT_FOLLOW,
     "on a stream (--follow, --listen, --serial, -): stop after SECONDS\nwithout new data"},
    {"clock-hz", ID_CLOCK_HZ, "HZ",  0,
     "the trace's tick rate in Hz (e.g. 1000 or 168e6): times become ns;\noverrides the rate the trace carries"},
    {"offset", ID_OFFSET, "BYTES", 0, "the trace starts BYTES into FILE (or into a HEX/S-record image)"},
    {"base-address", ID_BASE_ADDRESS, "ADDR", 0,
     "Intel HEX / S-record dump: the trace starts at target address ADDR\n(default: the lowest address in the dump)"},
    {"trace-id", ID_TRACE_ID, "ID", OPT_CH_LOAD,
     "--to clickhouse: the trace's id (letters, digits, . _ : -; at most 64);\n"
     "once per FILE, in order (default: a random UUID per FILE)"},
    {"label", ID_LABEL, "KEY=VALUE", OPT_CH_LOAD, "--to clickhouse: a label on every row (repeatable), e.g. board=b7"},
    {"cluster", ID_CLUSTER, "NAME", OPT_CH_SCHEMA, "local tables ON CLUSTER NAME and Distributed tables over them"},
    {"database", ID_DATABASE, "DB", OPT_CH_SCHEMA, "the database (default: evtrace)"},
    {"window", ID_WINDOW, "DUR", OPT_WINDOW,
     "CPU-load window of the analyses: 1ms, 500us, 250ns, 2s, or a number\nof the trace's time units (default: automatic)"},
};
#define NOPTS (sizeof k_opts / sizeof k_opts[0])
#define MAX_READER_OPTS 32 /* reader-declared options taken into the getopt table */

static int accepts_(const cli_command *c, const cli_opt *o) { return o->need == 0 || (c->opts & o->need); }
/* A placeholder wholly in brackets ("[ADDR]", not "[HOST:]PORT"): the value is optional (--opt=VALUE). */
static int optional_(const cli_opt *o) { size_t n = strlen(o->arg); return o->arg[0] == '[' && o->arg[n - 1] == ']'; }

/* The i-th reader-declared option (registry order), or NULL past the end. */
static const evt_reader_option *reader_opt_(size_t i)
{
    for (size_t k = 0; k < evt_reader_count(); k++)
        for (const evt_reader_option *op = evt_reader_at(k)->options; op && op->name; op++)
            if (i-- == 0) return op;
    return NULL;
}

void cli_print_options(const cli_command *c, FILE *o)
{
    for (size_t i = 0; i < NOPTS; i++) {
        const cli_opt *op = &k_opts[i];
        if (!accepts_(c, op)) continue;
        char head[64];
        if (op->id < 256)
            snprintf(head, sizeof head, "-%c, --%s%s%s", op->id, op->name, op->arg ? " " : "", op->arg ? op->arg : "");
        else snprintf(head, sizeof head, "--%s%s%s", op->name, op->arg ? " " : "", op->arg ? op->arg : "");
        fprintf(o, "  %-24s ", head);
        for (const char *h = op->help; *h; h++) {
            fputc(*h, o);
            if (*h == '\n') fprintf(o, "  %-24s ", "");
        }
        fputc('\n', o);
    }
}

static int value_error_(const cli_command *c, const char *opt, const char *want, const char *val)
{
    cli_err(c->name, "--%s needs %s, not '%s'", opt, want, val);
    return EXIT_USAGE;
}

/* Apply one parsed option; returns 0 or an exit code. */
static int apply_(const cli_command *c, int id, const char *val, cli_args *a)
{
    switch (id) {
    case ID_FORMAT: a->format = val; break;
    case ID_JSON: a->json = 1; break;
    case ID_WINDOW: a->window = val; break;
    case ID_OUT: a->out = val; break;
    case ID_FORCE: a->force = 1; break;
    case ID_TO: a->to = val; break;
    case ID_QUIET: a->quiet = 1; break;
    case ID_FOLLOW: a->follow = 1; break;
    case ID_LISTEN: a->listen = val; a->follow = 1; break;
    case ID_SERIAL: a->serial = val; a->follow = 1; break;
    case ID_CONNECT: a->connect = val; a->follow = 1; break;
    case ID_GDB: a->gdb = val; a->follow = 1; break;
    case ID_RTT: a->rtt = val ? val : ""; break;
    case ID_ELF: a->elf = val; break;
    case ID_BIND: a->bind = val; break;
    case ID_PORT:
    case ID_VIEW_BYTES: {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(val, &end, 0);
        if (id == ID_PORT && (!*val || *end || errno || val[0] == '-' || v > 65535))
            return value_error_(c, "port", "a port number 0..65535", val);
        if (id == ID_VIEW_BYTES && (!*val || *end || errno || val[0] == '-' || v < 8192 || v > (1ull << 32)))
            return value_error_(c, "view-bytes", "a byte count from 8192 to 4294967296", val);
        if (id == ID_PORT) a->port = (unsigned)v;
        else a->view_bytes = v;
        break;
    }
    case ID_BAUD: {
        char *end;
        unsigned long b = strtoul(val, &end, 10);
        if (!*val || *end || b == 0 || b > 4000000ul) return value_error_(c, "baud", "a line speed such as 115200", val);
        a->baud = (unsigned)b;
        break;
    }
    case ID_OFFSET:
    case ID_BASE_ADDRESS: {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(val, &end, 0); /* decimal, 0x hex or 0 octal */
        if (!*val || *end || errno || val[0] == '-')
            return value_error_(c, id == ID_OFFSET ? "offset" : "base-address", "a number (decimal or 0x hex)", val);
        if (id == ID_OFFSET) a->input.offset = v;
        else { a->input.base_address = v; a->input.has_base_address = 1; }
        break;
    }
    case ID_CLOCK_HZ: {
        char *end;
        errno = 0;
        double hz = strtod(val, &end); /* 1000, 168000000, 168e6 */
        if (!*val || *end || errno || !(hz >= 1.0) || hz > 1.0e18 || hz != (double)(uint64_t)hz)
            return value_error_(c, "clock-hz", "a whole frequency in Hz from 1 to 1e18", val);
        a->clock_hz = (uint64_t)hz;
        break;
    }
    case ID_TRACE_ID:
        if (a->ntrace_id >= (int)(sizeof a->trace_id / sizeof a->trace_id[0])) { cli_err(c->name, "too many --trace-id"); return EXIT_USAGE; }
        a->trace_id[a->ntrace_id++] = val;
        break;
    case ID_LABEL:
        if (!strchr(val, '=') || val[0] == '=') return value_error_(c, "label", "KEY=VALUE", val);
        if (a->nlabel >= (int)(sizeof a->label / sizeof a->label[0])) { cli_err(c->name, "too many --label"); return EXIT_USAGE; }
        a->label[a->nlabel++] = val;
        break;
    case ID_CLUSTER: a->cluster = val; break;
    case ID_DATABASE: a->database = val; break;
    case ID_IDLE_EXIT: {
        char *end;
        double secs = strtod(val, &end);
        if (!*val || *end || !(secs >= 0) || secs > 4.0e6) return value_error_(c, "idle-exit", "a number of seconds", val);
        a->idle_exit_ms = (unsigned)(secs * 1000.0);
        break;
    }
    default: {
        const evt_reader_option *op = reader_opt_((size_t)(id - ID_READER_OPT));
        if (!op) return EXIT_USAGE;
        for (unsigned i = 0; i < a->ropts.n; i++) /* the same option again: the last one wins */
            if (strcmp(a->ropts.key[i], op->name) == 0) { a->ropts.val[i] = val; return 0; }
        if (a->ropts.n >= EVT_MAX_OPTS) { cli_err(c->name, "too many reader options"); return EXIT_USAGE; }
        a->ropts.key[a->ropts.n] = op->name;
        a->ropts.val[a->ropts.n++] = val;
    }
    }
    return 0;
}

static int positional_(const cli_command *c, const char *s, cli_args *a)
{
    if (!a->file) a->file = s;
    else if (a->nextra < (int)(sizeof a->extra / sizeof a->extra[0])) a->extra[a->nextra++] = s;
    else { cli_err(c->name, "too many arguments"); return EXIT_USAGE; }
    return 0;
}

/* The message for getopt's '?' or ':' on argv[at]. */
static int bad_option_(const cli_command *c, int ret, const char *arg, int shortopt)
{
    if (shortopt && (arg[0] != '-' || arg[1] != '-')) {
        if (ret == ':') cli_err(c->name, "option -%c needs a value", shortopt);
        else cli_err(c->name, "unknown option '-%c' (try: evtrace %s --help)", shortopt, c->name);
        return EXIT_USAGE;
    }
    if (ret == ':') { cli_err(c->name, "option %s needs a value", arg); return EXIT_USAGE; }
    const char *eq = strchr(arg, '=');
    if (eq) {
        for (size_t i = 0; i < NOPTS; i++)
            if (!k_opts[i].arg && accepts_(c, &k_opts[i]) && strlen(k_opts[i].name) == (size_t)(eq - arg - 2) &&
                strncmp(arg + 2, k_opts[i].name, (size_t)(eq - arg - 2)) == 0) {
                cli_err(c->name, "option --%s takes no value", k_opts[i].name);
                return EXIT_USAGE;
            }
    }
    cli_err(c->name, "unknown option '%s' (try: evtrace %s --help)", arg, c->name);
    return EXIT_USAGE;
}

int cli_parse(const cli_command *c, int argc, char **argv, cli_args *a)
{
    memset(a, 0, sizeof *a);
    a->cmd = c->name;
    /* getopt_long table: the accepted rows of k_opts, then the reader options. */
    struct option lo[NOPTS + MAX_READER_OPTS + 1];
    char shorts[3 + 3 * NOPTS] = "-:"; /* '-': positionals come back in order as id 1; ':': missing value */
    size_t n = 0, ns = 2;
    for (size_t i = 0; i < NOPTS; i++) {
        const cli_opt *op = &k_opts[i];
        if (!accepts_(c, op)) continue;
        lo[n++] = (struct option){op->name, !op->arg ? no_argument : optional_(op) ? optional_argument : required_argument,
                                  NULL, op->id};
        if (op->id < 256) {
            shorts[ns++] = (char)op->id;
            if (op->arg) shorts[ns++] = ':';
        }
    }
    shorts[ns] = '\0';
    const evt_reader_option *rop;
    for (size_t i = 0; n < NOPTS + MAX_READER_OPTS && (rop = reader_opt_(i)) != NULL; i++) {
        int dup = 0; /* two readers declaring the same option: one getopt entry */
        for (size_t k = 0; k < n; k++) dup |= strcmp(lo[k].name, rop->name) == 0;
        if (!dup) lo[n++] = (struct option){rop->name, required_argument, NULL, ID_READER_OPT + (int)i};
    }
    lo[n] = (struct option){NULL, 0, NULL, 0};

    opterr = 0;
#if defined(__GLIBC__)
    optind = 0; /* glibc: a fresh scan, state reset (the parser may be called more than once) */
#else
    optind = 1;
#endif
    int ret, code = 0;
    while (code == 0 && (ret = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
        if (ret == 1) code = positional_(c, optarg, a);
        else if (ret == ID_HELP) return CLI_PARSE_HELP;
        else if (ret == '?' || ret == ':') {
            const char *arg = (optind - 1 >= 1 && optind - 1 < argc) ? argv[optind - 1] : "?";
            /* a short option clustered or with its value attached: getopt may not have moved on */
            if (optopt && optind < argc && argv[optind][0] == '-' && argv[optind][1] != '-' &&
                strchr(argv[optind], optopt))
                arg = argv[optind];
            return bad_option_(c, ret, arg, optopt);
        } else code = apply_(c, ret, optarg, a);
    }
    if (code) return code;
    for (int i = optind; i < argc && code == 0; i++) code = positional_(c, argv[i], a); /* after `--` */
    if (code) return code;

    if (a->serial && a->listen) { cli_err(c->name, "--serial and --listen exclude each other"); return EXIT_USAGE; }
    if (a->baud && !a->serial) { cli_err(c->name, "--baud needs --serial DEV"); return EXIT_USAGE; }
    if (!!a->listen + !!a->serial + !!a->connect + !!a->gdb > 1) {
        cli_err(c->name, "--listen, --serial, --connect and --gdb exclude each other");
        return EXIT_USAGE;
    }
    /* --rtt ADDR written with a space: getopt leaves ADDR as the first positional */
    if (a->rtt && !a->rtt[0] && a->gdb && a->file && (a->file[0] >= '0' && a->file[0] <= '9')) {
        a->rtt = a->file;
        a->file = a->nextra ? a->extra[0] : NULL;
        if (a->nextra) memmove(a->extra, a->extra + 1, (size_t)--a->nextra * sizeof a->extra[0]);
    }
    if ((a->rtt || a->elf) && !a->gdb) { cli_err(c->name, "--rtt and --elf go with --gdb HOST:PORT"); return EXIT_USAGE; }
    if (a->gdb && !a->rtt) { cli_err(c->name, "--gdb needs --rtt [ADDR] (the trace comes from the RTT up buffer)"); return EXIT_USAGE; }
    if (!a->file && a->connect) a->file = a->connect;
    if (!a->file && a->gdb) a->file = a->gdb;
    if (!a->file && a->listen) a->file = a->listen;
    if (!a->file && a->serial) a->file = a->serial;
    if (c->opts & OPT_NO_FILE) { /* every positional is an extra argument */
        if (a->file) {
            if (a->nextra >= (int)(sizeof a->extra / sizeof a->extra[0])) { cli_err(c->name, "too many arguments"); return EXIT_USAGE; }
            memmove(a->extra + 1, a->extra, (size_t)a->nextra * sizeof a->extra[0]);
            a->extra[0] = a->file;
            a->file = NULL;
            a->nextra++;
        }
    } else if (!a->file) { cli_err(c->name, "missing FILE (try: evtrace %s --help)", c->name); return EXIT_USAGE; }
    if (a->nextra < c->min_extra || a->nextra > c->max_extra) {
        cli_err(c->name, "wrong number of arguments (try: evtrace %s --help)", c->name);
        return EXIT_USAGE;
    }
    if (a->format && !evt_reader_find(a->format)) {
        cli_err(c->name, "unknown format '%s'", a->format);
        return CLI_PARSE_BAD_FORMAT;
    }
    return 0;
}
