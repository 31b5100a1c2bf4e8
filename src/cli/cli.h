/* Shared pieces of the evtrace command: parsed options, exit codes, opening the input. */
#ifndef EVT_CLI_H
#define EVT_CLI_H

#include <stdio.h>
#include "evtrace/reader.h"

/* Exit codes of DESIGN.md §5. */
enum { EXIT_OK_ = 0, EXIT_DATA = 1, EXIT_USAGE = 2, EXIT_INPUT = 3 };

/* Which common options a subcommand accepts. */
enum {
    OPT_JSON   = 1u << 0, /* --json */
    OPT_OUTPUT = 1u << 1, /* -o OUT */
    OPT_TO     = 1u << 2, /* --to KIND */
    OPT_QUIET  = 1u << 3, /* -q / --quiet */
    OPT_FOLLOW = 1u << 4, /* --follow, --listen [HOST:]PORT, --serial DEV, --baud N, --idle-exit SECONDS,
                             --connect HOST:PORT, --gdb HOST:PORT, --rtt [ADDR], --elf FILE */
    OPT_CH_LOAD = 1u << 5, /* --trace-id ID (one per FILE), --label KEY=VALUE (repeatable): ClickHouse export */
    OPT_CH_SCHEMA = 1u << 6, /* --cluster NAME, --database DB: ClickHouse DDL */
    OPT_NO_FILE = 1u << 7, /* the command takes no FILE (only its extra arguments) */
    OPT_WINDOW = 1u << 8,  /* --window DUR: load window of the analyses (host/analyses/analyses.h) */
    OPT_TIMEOUT = 1u << 9, /* --timeout SECONDS: query's SQL deadline; --to clickhouse's overall deadline */
    OPT_QUERY = 1u << 10,  /* --max-rows N */
    OPT_LIVE = 1u << 11,   /* --port N, --bind ADDR, --view-bytes N: the live view's server (evtrace live) */
    OPT_ANY = 1u << 31     /* options.def only: every command, even one that reads no trace */
};

/* cli_parse results besides 0 and EXIT_USAGE. */
enum { CLI_PARSE_HELP = -1, CLI_PARSE_BAD_FORMAT = -2 };

typedef struct cli_args {
    const char *cmd;        /* subcommand name */
    const char *file;       /* the input trace */
    const char *format;     /* --format NAME or NULL */
    const char *out;        /* -o OUT */
    const char *to;         /* --to KIND */
    int json;               /* --json */
    int quiet;              /* -q */
    int force;              /* --force: replace OUT whatever it is */
    int follow;             /* --follow: decode as the data arrives (growing file, pipe, "-") */
    const char *listen;     /* --listen [HOST:]PORT: accept one TCP connection (HOST default 127.0.0.1) */
    const char *serial;     /* --serial DEV: read a serial device (raw mode) as a stream */
    unsigned baud;          /* --baud N: its speed (0: leave as is) */
    const char *connect;    /* --connect HOST:PORT: read a TCP stream (a probe's RTT server) */
    const char *gdb;        /* --gdb HOST:PORT: read RTT through a GDB server (with --rtt) */
    const char *rtt;        /* --rtt [ADDR | ADDR:LEN]: the RTT control block ("" = search) */
    const char *elf;        /* --elf FILE: the firmware, for its _SEGGER_RTT symbol */
    unsigned port;          /* --port N: the live view's HTTP port (0: chosen) */
    const char *bind;       /* --bind ADDR: its address (default 127.0.0.1) */
    uint64_t view_bytes;    /* --view-bytes N: newest bytes the live page shows (0: default) */
    unsigned idle_exit_ms;  /* --idle-exit SECONDS: on a stream, stop after that long idle */
    uint64_t clock_hz;      /* --clock-hz HZ: the trace's tick rate, overriding the format's (0: none) */
    int kernel;             /* --kernel NAME: EVT_HOOK_KERNEL_* + 1 of the profile to decode with (0: the trace's) */
    int prio_order;         /* --priority-order: 0 the profile's, 1 lower wins, 2 higher wins */
    const char *window;     /* --window DUR, as given (checked by evt_an_parse_window), or NULL */
    evt_input_opts input;   /* --offset N, --base-address ADDR: where the trace starts in FILE */
    const char *extra[64];  /* further positional arguments after FILE */
    int nextra;
    const char *trace_id[65]; /* --trace-id ID, in order (one per FILE) */
    int ntrace_id;
    const char *label[64];  /* --label KEY=VALUE, in order */
    int nlabel;
    const char *cluster;    /* --cluster NAME */
    const char *database;   /* --database DB */
    evt_range range;        /* --begin WHEN, --end WHEN (evt_reader_set_range) */
    double timeout_s;       /* --timeout SECONDS (0: the command's default) */
    int has_timeout;
    const char *user;          /* --user NAME */
    const char *password_file; /* --password-file FILE */
    const char *ca_file;       /* --ca-file FILE */
    int insecure;              /* --insecure */
    uint64_t max_rows;      /* --max-rows N (query; 0 = no cap) */
    int has_max_rows;
    evt_open_opts ropts;    /* reader options (--rkh-config FILE, --instr-map FILE, ...) */
} cli_args;

/* One subcommand. */
typedef struct cli_command {
    const char *name;
    const char *usage;     /* argument synopsis */
    const char *summary;   /* one line */
    const char *help;      /* longer text for `evtrace CMD --help` */
    unsigned opts;         /* OPT_* accepted */
    int min_extra, max_extra; /* positional arguments after FILE */
    int (*run)(const cli_args *a);
    void (*more_help)(FILE *o); /* optional: help made at run time (query's tables), after `help` */
} cli_command;

/* The subcommands (commands.def): lookup by name, or NULL; count and i-th for --help. */
const cli_command *cli_command_find(const char *name);
size_t cli_command_count(void);
const cli_command *cli_command_at(size_t i);
extern const cli_command cli_cmd_report; /* convert -o x.html runs it */

/* Parse the arguments of subcommand c: argv[0] is the command name, argv[1..argc-1] its options
 * and arguments (getopt_long; the argv array may be reordered). Fills *out (pointers into argv)
 * and prints errors to stderr; no other side effect. Returns 0, EXIT_USAGE, CLI_PARSE_HELP
 * (-h/--help seen: print cli_print_options) or CLI_PARSE_BAD_FORMAT (--format names no reader;
 * a usage error). Callable repeatedly (a fuzz target does). */
int cli_parse(const cli_command *c, int argc, char **argv, cli_args *out);
/* Set a reader option (the same one again: the last value wins; cli_parse has already refused one
 * given twice on the command line with two values); 0, or EXIT_USAGE with a message when too many
 * were given. */
int cli_set_reader_opt(cli_args *a, const char *name, const char *val);
/* The rows of the one option table (options.def), for the man page and the completion. */
typedef struct cli_option_info {
    const char *name;  /* long name without "--" */
    int shortopt;      /* its letter, or 0 */
    const char *arg;   /* value placeholder, NULL for a flag */
    const char *help;  /* lines separated by \n */
} cli_option_info;
size_t cli_option_count(void);
/* Fill *out with row i; returns 1 when c accepts it (c NULL: always), 0 otherwise or past the end. */
int cli_option_row(size_t i, const cli_command *c, cli_option_info *out);
/* The readers' options without repeats: the i-th distinct name (registry order) with the first
 * declaration's placeholder and help, and in readers the names of every reader that declares it
 * ("threadx, etw, ..."; cut to fit n). Returns 0 past the end. --elf is declared by four readers:
 * help, man page and completion list it once. */
int cli_reader_option(size_t i, cli_option_info *out, char *readers, size_t n);
/* The man page (roff) and the bash completion script, made from the commands, the option table
 * and the readers' and exporters' registries (cli_doc.c): `evtrace help --man|--bash-completion`. */
void cli_doc_man(FILE *o);
void cli_doc_bash(FILE *o);
/* The option lines of `evtrace CMD --help` for the options c accepts. */
void cli_print_options(const cli_command *c, FILE *o);

/* Open a.file with the reader chosen by --format or auto-detection; diagnostics go to stderr as
 * "evtrace: FILE: offset N (0xN): message". On failure prints the error and returns NULL; *code
 * receives the exit code to use. */
evt_reader *cli_open(const cli_args *a, int *code);
/* The message cli_open printed when it returned NULL (exact text, "" if none). */
const char *cli_open_error(void);
/* --json when the input cannot be opened: one object on standard output with the contract's
 * keys (format null, file, events 0, lost 0, errors 1, fatal = cli_open_error()); stats: lost as
 * stats --json has it ({events, count}), written compact as stats writes. */
void cli_open_failure_json(const cli_args *a, int stats);
/* Exit code after reading: EXIT_DATA if the data had errors or the read failed part-way. */
int cli_finish(evt_reader *r, evt_status last);
/* --connect / --gdb: open the remote stream into *src (cli_remote.c); EVT_OK or an error with
 * err filled. */
evt_status cli_open_remote(const cli_args *a, evt_source *src, char *err, size_t errlen);
/* Why an input option cannot apply to a stream (stdin, a pipe, --follow, --listen, --serial,
 * --connect, --gdb; live too): --base-address needs a dump file. NULL when none. Asked before the
 * stream is opened (a usage error must not wait for data). */
const char *cli_stream_refuses(const cli_args *a);
/* --offset on a stream source just opened: the stream's first bytes dropped
 * (evt_source_skip_stream). EVT_OK, or an error with err filled: EVT_ERR_USAGE (the offset is at
 * or past the stream's end), EVT_ERR_IO (--idle-exit, a stop or a read failure first). */
evt_status cli_stream_input(const cli_args *a, evt_source *src, char *err, size_t errlen);
/* --gdb --rtt --elf FW: the readers get FW as their --elf (user-event sites) when it has a
 * section .evt_user; a firmware that registers its sites in the trace is still a valid --elf for
 * the control block. Returns 0 or an exit code (main calls it after cli_parse). */
int cli_remote_elf_sites(cli_args *a);
/* Print an error for the command: "evtrace CMD: message", terminal-safe (host/safe_text.h:
 * control bytes and invalid UTF-8 from file names, traces or servers shown as \x1b, \n, ...). */
void cli_err(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* fprintf(stderr, ...) made terminal-safe the same way (a final newline is kept). */
void cli_eprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* s made terminal-safe, in one of four rotating static buffers (at most 4 KiB, cut with "..."):
 * for a printf argument on human-readable output. Not reentrant. */
const char *cli_safe(const char *s);
/* The input is a live stream (--follow, --listen, --serial, or "-"). */
int cli_is_live(const cli_args *a);
/* Why path (FILE) cannot be read as a trace (a directory, a block device, a terminal: use
 * --serial; stream 0: any character device), or NULL: a regular file, FIFO, socket, "-", or a
 * path open() will explain. */
const char *cli_not_a_trace_file(const char *path, int stream);
/* "SIGINT", "SIGTERM", ... */
const char *cli_signal_name(int sig);

#endif
