/* Option parsing for one subcommand: getopt_long over a single option table (k_opts) plus the
 * options the readers declare (--rkh-config FILE, ...). Accepts --opt=value, --opt value, -o OUT,
 * -oOUT, combined short flags (-qo OUT), and `--` (everything after it is positional). No side
 * effects beyond filling the struct and printing errors to stderr, so it can be fuzzed.
 *
 * To add an option: one row in options.def (the one option table: --help, the man page and the
 * bash completion come from it) and one case in apply_(). */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "evtrace/reader.h"
#include "host/kernels/kernel_profile.h"

/* Option ids (getopt_long's `val`): printable short letters, or values past 256 for long-only. */
enum {
    ID_LONG_BASE_ = 255,
#define CLI_OPT(id, name, shortopt, arg, need, repeat, help) ID_##id##_LONG_,
#include "options.def"
#undef CLI_OPT
    ID_READER_OPT /* ID_READER_OPT + i: the i-th reader option found */
};
/* The id of a row: its short letter when it has one. */
enum {
#define CLI_OPT(id, name, shortopt, arg, need, repeat, help) ID_##id = (shortopt) ? (shortopt) : ID_##id##_LONG_,
#include "options.def"
#undef CLI_OPT
};

typedef struct cli_opt {
    const char *name; /* long name, without "--" */
    int id;           /* ID_*; a printable letter is also the short option */
    const char *arg;  /* placeholder of its value for --help, or NULL: a flag; wholly in brackets
                         ("[ADDR]"): the value is optional */
    unsigned need;    /* OPT_* bit of the commands that accept it; 0: every command */
    int many;         /* MANY: every value is kept (a list); ONCE: a second, different value is refused */
    const char *help;
} cli_opt;

enum { ONCE, MANY }; /* options.def's repeat column */
static const cli_opt k_opts[] = {
#define CLI_OPT(id, name, shortopt, arg, need, repeat, help) {name, ID_##id, arg, need, repeat, help},
#include "options.def"
#undef CLI_OPT
};
#define NOPTS (sizeof k_opts / sizeof k_opts[0])
#define MAX_READER_OPTS 32 /* reader-declared options taken into the getopt table */

/* need 0: the commands that read a trace (not OPT_NO_FILE ones); OPT_ANY: every command. */
static int accepts_(const cli_command *c, const cli_opt *o)
{
    if (o->need & OPT_ANY) return 1;
    if (o->need == 0) return !(c->opts & OPT_NO_FILE);
    return (c->opts & o->need) != 0;
}
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

int cli_reader_option(size_t i, cli_option_info *out, char *readers, size_t n)
{
    const evt_reader_option *op = NULL;
    for (size_t k = 0; (op = reader_opt_(k)) != NULL; k++) {
        size_t j = 0;
        while (strcmp(reader_opt_(j)->name, op->name) != 0) j++; /* first declaration of the name */
        if (j == k && i-- == 0) break;
    }
    if (!op) return 0;
    out->name = op->name;
    out->shortopt = 0;
    out->arg = op->arg;
    out->help = op->help;
    if (n) readers[0] = '\0';
    for (size_t k = 0, len = 0; k < evt_reader_count() && n; k++)
        for (const evt_reader_option *o = evt_reader_at(k)->options; o && o->name; o++)
            if (strcmp(o->name, op->name) == 0) {
                int w = snprintf(readers + len, n - len, "%s%s", len ? ", " : "", evt_reader_at(k)->name);
                len = w < 0 || (size_t)w >= n - len ? n - 1 : len + (size_t)w;
                break;
            }
    return 1;
}

size_t cli_option_count(void) { return NOPTS; }

int cli_option_row(size_t i, const cli_command *c, cli_option_info *out)
{
    if (i >= NOPTS) return 0;
    const cli_opt *op = &k_opts[i];
    out->name = op->name;
    out->shortopt = op->id < 256 ? op->id : 0;
    out->arg = op->arg;
    out->help = op->help;
    return c ? accepts_(c, op) : 1;
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

/* --begin/--end WHEN: "#N" (event index), a number with s/ms/us/ns (ns), or a plain whole number
 * (ticks). Returns 1 when valid. */
static int parse_when_(const char *s, int *kind, uint64_t *v)
{
    char *end;
    errno = 0;
    if (s[0] == '#') {
        if (!s[1] || s[1] == '-' || s[1] == '+') return 0;
        unsigned long long n = strtoull(s + 1, &end, 10);
        if (*end || errno) return 0;
        *kind = EVT_RANGE_INDEX;
        *v = n;
        return 1;
    }
    if (!*s || s[0] == '-' || s[0] == '+') return 0;
    double x = strtod(s, &end);
    if (errno || end == s || !(x >= 0)) return 0;
    static const struct { const char *unit; double ns; } k_units[] = {{"s", 1e9}, {"ms", 1e6}, {"us", 1e3}, {"ns", 1}};
    if (!*end) { /* ticks: decimal digits only, read exactly (no double: 2^64-1 fits, 1e5 does not) */
        char *tend;
        errno = 0;
        unsigned long long n = strtoull(s, &tend, 10);
        if (*tend || errno) return 0;
        *kind = EVT_RANGE_TICKS;
        *v = n;
        return 1;
    }
    for (size_t i = 0; i < sizeof k_units / sizeof k_units[0]; i++)
        if (strcmp(end, k_units[i].unit) == 0) {
            double ns = x * k_units[i].ns;
            if (ns >= 1.8e19) return 0;
            *kind = EVT_RANGE_NS;
            *v = (uint64_t)(ns + 0.5);
            return 1;
        }
    return 0;
}

int cli_set_reader_opt(cli_args *a, const char *name, const char *val)
{
    for (unsigned i = 0; i < a->ropts.n; i++)
        if (strcmp(a->ropts.key[i], name) == 0) { a->ropts.val[i] = val; return 0; }
    if (a->ropts.n >= EVT_MAX_OPTS) { cli_err(a->cmd, "too many reader options"); return EXIT_USAGE; }
    a->ropts.key[a->ropts.n] = name;
    a->ropts.val[a->ropts.n++] = val;
    return 0;
}

/* The options seen so far in one parse and their first values (NULL: none, a flag or a bare --rtt). */
typedef struct seen_opts {
    struct { int id; const char *val; } at[NOPTS + MAX_READER_OPTS];
    size_t n;
} seen_opts;

/* Option id given again (options.def's ONCE, and every reader option): the same value is harmless,
 * another is a usage error naming both, as which one the user meant cannot be guessed. A MANY
 * option keeps every value (apply_). Returns 0 or EXIT_USAGE. */
static int repeated_(const cli_command *c, seen_opts *seen, int id, const char *val)
{
    const char *name = NULL;
    for (size_t i = 0; i < NOPTS; i++)
        if (k_opts[i].id == id) {
            if (k_opts[i].many) return 0;
            name = k_opts[i].name;
            break;
        }
    if (!name) { /* a reader option: it holds one value (cli_set_reader_opt) */
        const evt_reader_option *op = reader_opt_((size_t)(id - ID_READER_OPT));
        if (!op) return 0;
        name = op->name;
    }
    for (size_t i = 0; i < seen->n; i++) {
        if (seen->at[i].id != id) continue;
        const char *was = seen->at[i].val;
        if (was == val || (was && val && strcmp(was, val) == 0)) return 0;
        cli_err(c->name, "--%s given twice (%s, %s)", name, was ? was : "no value", val ? val : "no value");
        return EXIT_USAGE;
    }
    if (seen->n < sizeof seen->at / sizeof seen->at[0]) {
        seen->at[seen->n].id = id;
        seen->at[seen->n++].val = val;
    }
    return 0;
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
    case ID_KERNEL: {
        const evt_kernel_profile *p = evt_kernel_profile_by_name(val);
        if (!p) return value_error_(c, "kernel", "a kernel profile name (generic, utkernel, threadx, rkh, windows, ...)", val);
        a->kernel = (int)p->id + 1;
        break;
    }
    case ID_PRIO_ORDER:
        if (strcmp(val, "lower") == 0) a->prio_order = 1;
        else if (strcmp(val, "higher") == 0) a->prio_order = 2;
        else return value_error_(c, "priority-order", "lower or higher", val);
        break;
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
    case ID_USER: a->user = val; break;
    case ID_PASSWORD_FILE: a->password_file = val; break;
    case ID_CA_FILE: a->ca_file = val; break;
    case ID_INSECURE: a->insecure = 1; break;
    case ID_DATABASE: a->database = val; break;
    case ID_BEGIN:
    case ID_END: {
        int kind;
        uint64_t v;
        if (!parse_when_(val, &kind, &v))
            return value_error_(c, id == ID_BEGIN ? "begin" : "end", "a time (1.5s, 250ms, 10us, 100ns), ticks, or #INDEX", val);
        if (id == ID_BEGIN) { a->range.has_begin = 1; a->range.begin_kind = kind; a->range.begin = v; }
        else { a->range.has_end = 1; a->range.end_kind = kind; a->range.end = v; }
        break;
    }
    case ID_TIMEOUT: {
        char *end;
        double secs = strtod(val, &end);
        if (!*val || *end || !(secs > 0) || secs > 1.0e6) return value_error_(c, "timeout", "a number of seconds above 0", val);
        a->timeout_s = secs;
        a->has_timeout = 1;
        break;
    }
    case ID_MAX_ROWS: {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(val, &end, 10);
        if (!*val || *end || errno || val[0] == '-') return value_error_(c, "max-rows", "a row count (0: no cap)", val);
        a->max_rows = v;
        a->has_max_rows = 1;
        break;
    }
    case ID_IDLE_EXIT: {
        char *end;
        double secs = strtod(val, &end);
        if (!*val || *end || !(secs >= 0) || secs > 4.0e6) return value_error_(c, "idle-exit", "a number of seconds", val);
        /* milliseconds, rounded up: 0.0004 is a limit of 1 ms (the resolution), never "no limit";
         * only 0 itself means no limit */
        double ms = secs * 1000.0;
        a->idle_exit_ms = (unsigned)ms + ((double)(unsigned)ms < ms ? 1u : 0u);
        break;
    }
    default: {
        const evt_reader_option *op = reader_opt_((size_t)(id - ID_READER_OPT));
        if (!op) return EXIT_USAGE;
        return cli_set_reader_opt(a, op->name, val);
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
    for (size_t i = 0; !(c->opts & OPT_NO_FILE) && n < NOPTS + MAX_READER_OPTS && (rop = reader_opt_(i)) != NULL; i++) {
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
    seen_opts seen = {.n = 0};
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
        } else if ((code = repeated_(c, &seen, ret, optarg)) == 0) code = apply_(c, ret, optarg, a);
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
    if (a->rtt && !a->gdb) { cli_err(c->name, "--rtt goes with --gdb HOST:PORT"); return EXIT_USAGE; }
    /* A remote source is the input: a FILE beside it (a stray word, or a second --rtt ADDR written
     * with a space) would only have named the page and the messages. */
    const char *remote = a->connect ? "--connect" : a->gdb ? "--gdb" : a->listen ? "--listen" : a->serial ? "--serial" : NULL;
    if (remote && a->file && !(c->opts & OPT_NO_FILE)) {
        cli_err(c->name, "%s and '%s' are two inputs: give one%s", remote, a->file, a->gdb ? " (--rtt takes one ADDR)" : "");
        return EXIT_USAGE;
    }
    /* --elf names the firmware: where its user-event sites are (the readers' --elf, which the
     * stream commands' own --elf hides) and, with --gdb --rtt, where _SEGGER_RTT is; over RTT the
     * readers get it from cli_remote_elf_sites (which reads the file: parsing reads none). */
    if (a->elf && !(c->opts & OPT_NO_FILE) && !a->gdb) {
        int bad = cli_set_reader_opt(a, "elf", a->elf);
        if (bad) return bad;
    }
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
    if (a->range.has_begin && a->range.has_end && a->range.begin_kind == a->range.end_kind && a->range.begin > a->range.end) {
        cli_err(c->name, "--begin is after --end: no event could be kept");
        return EXIT_USAGE;
    }
    if (a->format && !evt_reader_find(a->format)) {
        cli_err(c->name, "unknown format '%s'", a->format);
        return CLI_PARSE_BAD_FORMAT;
    }
    return 0;
}
