/* evtrace live: watch a target while it runs. Serves the report page in live mode on a local HTTP
 * server (host/live/live.h) while every byte of the live input goes to a trace file; Ctrl-C ends
 * the session with the file complete. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "cli_output.h"
#include "evtrace/source_remote.h"
#include "host/live/live.h"

static volatile sig_atomic_t g_stop;
static void on_signal(int sig) { (void)sig; g_stop = 1; }

static void announce_listen(void *user, const char *where)
{
    const cli_args *a = user;
    if (!a->quiet) fprintf(stderr, "evtrace live: listening on %s\n", where);
}

/* The live input, opened on the session's reading thread. */
static evt_status open_source(const cli_args *a, evt_source *src, char *err, size_t errlen)
{
    if (a->connect || a->gdb) return cli_open_remote(a, src, err, errlen);
    if (a->listen) return evt_source_listen(src, a->listen, a->idle_exit_ms, announce_listen, (void *)a, err, errlen);
    if (a->serial) return evt_source_open_serial(src, a->serial, a->baud, a->idle_exit_ms, err, errlen);
    int fd = 0;
    if (strcmp(a->file, "-") != 0 && (fd = open(a->file, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0) {
        snprintf(err, errlen, "cannot open: %s", strerror(errno)); /* run() names a->file */
        return EVT_ERR_IO;
    }
    /* a regular file is followed as it grows; a FIFO or "-" ends with its writer */
    if (evt_source_open_stream(src, fd, a->file, 1, a->idle_exit_ms) != EVT_OK) {
        snprintf(err, errlen, "out of memory");
        evt_source_close(src);
        return EVT_ERR_NOMEM;
    }
    return EVT_OK;
}

/* open_source, then --offset (the stream's first bytes dropped) or --base-address (refused). */
static evt_status open_input(void *user, evt_source *src, char *err, size_t errlen)
{
    const cli_args *a = user;
    evt_status st = open_source(a, src, err, errlen);
    if (st != EVT_OK) return st;
    if ((st = cli_stream_input(a, src, err, errlen)) != EVT_OK) evt_source_close(src);
    return st;
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000u, (long)(ms % 1000u) * 1000000L};
    nanosleep(&ts, NULL);
}

static int run(const cli_args *a)
{
    char out[64];
    const char *path = a->out;
    if (!path) { /* default: a timestamped name in the current directory */
        time_t now = time(NULL);
        struct tm tm;
        localtime_r(&now, &tm);
        strftime(out, sizeof out, "live-%Y%m%d-%H%M%S.trace", &tm);
        path = out;
    }
    if (strcmp(path, "-") == 0) { cli_err("live", "-o must name a file (the trace is written as it arrives)"); return EXIT_USAGE; }
    const char *no = cli_stream_refuses(a);
    if (no) { cli_err("live", "%s: %s", a->file, no); return EXIT_USAGE; }
    /* FILE a directory or a terminal: refused before the page is served (it was a 0-byte trace) */
    const char *what = a->listen || a->serial || a->connect || a->gdb ? NULL : cli_not_a_trace_file(a->file, 1);
    if (what) {
        cli_err("live", "%s: %s", a->file, what);
        return EXIT_INPUT;
    }
    /* -o not a file it reads (FILE followed, --elf, --rkh-config), even with --force: the final
     * rename would replace it (a writer still appending to FILE goes on into the unlinked file) */
    int same = a->out ? cli_output_not_inputs("live", a) : 0;
    if (same) return same;
    if (!a->force && access(path, F_OK) == 0) {
        cli_err("live", "%s exists: give another -o, or --force to replace it", path);
        return EXIT_USAGE;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    evt_live_opts o;
    memset(&o, 0, sizeof o);
    o.out = path;
    o.bind = a->bind;
    o.port = a->port;
    o.view_bytes = a->view_bytes;
    o.format = a->format;
    o.ropts = &a->ropts;
    o.clock_hz = a->clock_hz;
    o.kernel = a->kernel;
    o.prio_order = a->prio_order;
    o.title = a->file;
    char err[400];
    evt_live *l = evt_live_start(&o, open_input, (void *)a, err, sizeof err);
    if (!l) { cli_err("live", "%s", err); return EXIT_INPUT; }
    /* The address on stdout (one line, for scripts), the rest on stderr. */
    printf("%s\n", evt_live_url(l));
    fflush(stdout);
    if (!a->quiet) fprintf(stderr, "evtrace live: open %s in a browser; the trace goes to %s; Ctrl-C ends\n", evt_live_url(l), path);
    evt_live_stats st;
    int said_end = 0, said_undecodable = 0, code = EXIT_OK_;
    while (!g_stop) {
        sleep_ms(100);
        evt_live_get_stats(l, &st);
        if (st.undecodable[0] && !said_undecodable && !a->quiet) {
            /* said once: the page keeps waiting and the file keeps every byte (it may be a
               stream that starts later, or the wrong port) */
            said_undecodable = 1;
            fprintf(stderr, "evtrace live: no trace in the first %llu bytes yet (%s); still reading\n",
                    (unsigned long long)st.bytes, st.undecodable);
        }
        if (st.ended && !st.opened) {
            cli_err("live", "%s: %s", a->file, st.end_reason);
            code = EXIT_INPUT;
            break;
        }
        if (st.ended && !said_end) {
            said_end = 1;
            if (!a->quiet)
                fprintf(stderr, "evtrace live: %s: %s; %llu bytes in the trace; the page stays up until Ctrl-C\n", a->file,
                        a->connect && strcmp(st.end_reason, "the source ended") == 0
                            ? "the server closed the connection (no reconnect: start evtrace live again)"
                            : st.end_reason,
                        (unsigned long long)st.bytes);
        }
    }
    evt_live_get_stats(l, &st);
    /* the input never opened: no output, and an OUT replaced with --force stays as it was (it was
     * renamed over, then removed) */
    if (code != EXIT_OK_ && !st.opened) evt_live_abandon(l);
    int fin = evt_live_finish(l, err, sizeof err);
    if (!evt_source_gdb_wait(3000) && !a->quiet) fprintf(stderr, "evtrace live: the GDB server did not confirm the detach\n");
    if (!fin) {
        cli_err("live", "%s", err);
        return EXIT_INPUT;
    }
    if (code != EXIT_OK_ && !st.opened) return code;
    if (!a->quiet)
        fprintf(stderr, "evtrace live: wrote %s (%llu bytes, complete); %llu pages served from it\n", path,
                (unsigned long long)st.bytes, (unsigned long long)st.pages);
    return code;
}

const cli_command cli_cmd_live = {
    "live", "SOURCE [-o OUT] [--port N] [--bind ADDR]", "watch the target while it runs: the report page, live, in a browser",
    "Serves the report page in live mode on a local HTTP server (127.0.0.1 and a free port unless\n"
    "--bind/--port say otherwise; the address is printed) and keeps it growing while the target\n"
    "runs: swimlanes, ISRs, services and CPU load. The page follows the newest time (untick\n"
    "'follow' to stay where you are), 'pause' holds the page while data keeps arriving, and zoom\n"
    "works either way. Everything received is written to OUT as it arrives (default\n"
    "live-YYYYMMDD-HHMMSS.trace; OUT.part until the end): the page shows the stream's first 4 KiB and\n"
    "its newest --view-bytes, the file keeps every byte. Ctrl-C ends the session with OUT complete.\n"
    "SOURCE: --connect HOST:PORT (a probe's RTT server: OpenOCD, pyOCD, J-Link), --gdb HOST:PORT\n"
    "--rtt [ADDR] [--elf FIRMWARE] (RTT through any GDB server), --serial DEV --baud N, --listen\n"
    "[HOST:]PORT, a growing FILE or - (stdin). See docs/live.md.",
    OPT_OUTPUT | OPT_QUIET | OPT_FOLLOW | OPT_LIVE, 0, 0, run,
};
