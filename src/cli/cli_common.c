/* Opening the input for a subcommand and turning reader results into exit codes. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "evtrace/json.h"
#include "host/safe_text.h"

/* While cli_open runs, the last message it printed (exact bytes, without its final newline): the
 * `fatal` of the JSON a --json command prints when the input cannot be opened. */
static char g_open_err[1024];
static int g_open_rec;

/* Write fmt's text to f with every part terminal-safe (safe_text.h); a final newline stays. */
static void vsafe_(FILE *f, const char *fmt, va_list ap)
{
    char buf[8192];
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    if (n < 0) return;
    size_t len = (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1;
    if (g_open_rec && f == stderr)
        snprintf(g_open_err, sizeof g_open_err, "%.*s", (int)(len && buf[len - 1] == '\n' ? len - 1 : len), buf);
    int nl = len && buf[len - 1] == '\n';
    evt_text_fput(buf, len - (size_t)nl, f);
    if (nl) fputc('\n', f);
}

void cli_eprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsafe_(stderr, fmt, ap);
    va_end(ap);
}

void cli_err(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "evtrace %s: ", cmd);
    va_start(ap, fmt);
    vsafe_(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

const char *cli_safe(const char *s)
{
    static char ring[4][4096];
    static unsigned next;
    char *b = ring[next++ % 4];
    if (!s) return "(null)";
    evt_text_escape(s, strlen(s), b, sizeof ring[0]);
    return b;
}

int cli_is_live(const cli_args *a)
{
    return a->follow || a->listen || a->serial || a->connect || a->gdb || (a->file && strcmp(a->file, "-") == 0);
}

const char *cli_signal_name(int sig)
{
    switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case SIGPIPE: return "SIGPIPE";
    default: return "a signal";
    }
}

typedef struct diag_ctx {
    const char *path;
    unsigned long shown; /* messages printed; the rest are counted only */
} diag_ctx;

#define MAX_DIAG_SHOWN 200

static void print_diag(void *user, uint64_t offset, const char *msg)
{
    diag_ctx *d = user;
    if (++d->shown > MAX_DIAG_SHOWN) {
        if (d->shown == MAX_DIAG_SHOWN + 1) cli_eprintf("evtrace: %s: further errors not shown\n", d->path);
        return;
    }
    cli_eprintf("evtrace: %s: offset %llu (0x%llx): %s\n", d->path, (unsigned long long)offset,
            (unsigned long long)offset, msg);
}

static diag_ctx g_diag;

static void announce_listen(void *user, const char *where)
{
    const cli_args *a = user;
    if (!a->quiet) cli_eprintf("evtrace %s: listening on %s\n", a->cmd, where);
}

const char *cli_stream_refuses(const cli_args *a)
{
    return a->input.has_base_address ? "--base-address applies to an Intel HEX or S-record dump file, not to a stream" : NULL;
}

evt_status cli_stream_input(const cli_args *a, evt_source *src, char *err, size_t errlen)
{
    if (evt_source_skip_stream(src, a->input.offset) == EVT_OK) return EVT_OK;
    unsigned long long off = (unsigned long long)a->input.offset, had = (unsigned long long)src->skipped;
    if (src->idle_expired)
        snprintf(err, errlen, "no data past --offset %llu within --idle-exit %.3g s (%llu bytes came)", off,
                 a->idle_exit_ms / 1000.0, had);
    else if (src->stopped)
        snprintf(err, errlen, "stopped before a byte past --offset %llu (%llu bytes came)", off, had);
    else if (src->failure[0])
        snprintf(err, errlen, "%s", src->failure);
    else {
        snprintf(err, errlen, "--offset %llu is at or past the end of the stream (%llu bytes)", off, had);
        return EVT_ERR_USAGE;
    }
    return EVT_ERR_IO;
}

/* --follow / --listen / --serial / "-": a sequential stream instead of a file. */
static evt_reader *open_stream(const cli_args *a, int *code)
{
    char err[512];
    evt_source src;
    evt_status st;
    const char *no = cli_stream_refuses(a); /* before anything is opened or waited for */
    if (no) {
        cli_err(a->cmd, "%s: %s", a->file, no);
        *code = EXIT_USAGE;
        return NULL;
    }
    if (a->connect || a->gdb) {
        st = cli_open_remote(a, &src, err, sizeof err);
        if (st != EVT_OK) {
            cli_err(a->cmd, "%s: %s", a->file, err);
            *code = st == EVT_ERR_USAGE ? EXIT_USAGE : EXIT_INPUT;
            return NULL;
        }
    } else if (a->listen || a->serial) {
        st = a->listen ? evt_source_listen(&src, a->listen, a->idle_exit_ms, announce_listen, (void *)a, err, sizeof err)
                       : evt_source_open_serial(&src, a->serial, a->baud, a->idle_exit_ms, err, sizeof err);
        if (st != EVT_OK) {
            cli_err(a->cmd, "%s: %s", a->listen ? a->listen : a->serial, err);
            *code = st == EVT_ERR_USAGE ? EXIT_USAGE : EXIT_INPUT;
            return NULL;
        }
    } else {
        int fd = 0;
        /* O_NONBLOCK: a FIFO without a writer yet must not block in open() (the stream waits in
         * poll(), where --idle-exit bounds it); reads of a regular file ignore it. */
        if (strcmp(a->file, "-") != 0 && (fd = open(a->file, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0) {
            cli_err(a->cmd, "%s: cannot open: %s", a->file, strerror(errno));
            *code = EXIT_INPUT;
            return NULL;
        }
        /* A regular file is followed as it grows; pipes, sockets and ttys end when the writer
         * closes (evt_source_open_stream decides by the descriptor's type). */
        if (evt_source_open_stream(&src, fd, a->file, a->follow, a->idle_exit_ms) != EVT_OK) {
            cli_err(a->cmd, "out of memory");
            evt_source_close(&src);
            *code = EXIT_INPUT;
            return NULL;
        }
    }
    if ((st = cli_stream_input(a, &src, err, sizeof err)) != EVT_OK) {
        cli_err(a->cmd, "%s: %s", src.path, err);
        evt_source_close(&src);
        *code = st == EVT_ERR_USAGE ? EXIT_USAGE : EXIT_INPUT;
        return NULL;
    }
    evt_reader *r = NULL;
    st = evt_reader_open_stream(&src, a->format, &a->ropts, print_diag, &g_diag, &r, err, sizeof err);
    if (st != EVT_OK) {
        if (src.idle_expired && src.head_len == 0)
            cli_eprintf("evtrace %s: %s: no data within --idle-exit %.3g s\n", a->cmd, src.path,
                    a->idle_exit_ms / 1000.0);
        else cli_eprintf("evtrace %s: %s\n", a->cmd, err);
        *code = (st == EVT_ERR_USAGE) ? EXIT_USAGE : EXIT_INPUT;
        return NULL;
    }
    *code = EXIT_OK_;
    return r;
}

/* Is path a terminal (a serial line)? Opened without becoming the controlling terminal. */
static int isatty_path_(const char *path)
{
    int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return 0;
    int t = isatty(fd);
    close(fd);
    return t;
}

const char *cli_not_a_trace_file(const char *path, int stream)
{
    struct stat st;
    if (!path || strcmp(path, "-") == 0 || stat(path, &st) != 0) return NULL; /* open() says why */
    if (S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) return NULL;
    if (S_ISDIR(st.st_mode)) return "is a directory, not a trace file";
    if (S_ISBLK(st.st_mode)) return "is a block device: copy the trace into a file first";
    if (!S_ISCHR(st.st_mode)) return "is not a regular file";
    /* a terminal read as it is goes through its line discipline (CR made LF, ^D, ^S ...) */
    if (isatty_path_(path)) return "is a terminal or serial device: read it with --serial DEV";
    return stream ? NULL : "is a character device (such as /dev/null), not a trace file";
}

/* A reader option the reader that took FILE does not have (--instr-map on an RKH stream) is
 * ignored: said on stderr, as the file it names is never read (a missing one included). */
static void warn_unused_opts_(const cli_args *a, const evt_reader *r)
{
    for (unsigned i = 0; i < a->ropts.n; i++) {
        const evt_reader_option *o = r->desc->options;
        while (o && o->name && strcmp(o->name, a->ropts.key[i]) != 0) o++;
        if (!o || !o->name)
            cli_eprintf("evtrace %s: warning: --%s is not an option of the %s reader (%s): ignored\n", a->cmd,
                        a->ropts.key[i], r->desc->name, a->file);
    }
}

/* --kernel and --priority-order: the reader decodes with them from its first event. */
static void set_profile_(evt_reader *r, const cli_args *a)
{
    if (a->kernel) evt_reader_set_kernel(r, a->kernel - 1);
    if (a->prio_order) evt_reader_set_prio_order(r, a->prio_order);
}

static evt_reader *open_(const cli_args *a, int *code);

evt_reader *cli_open(const cli_args *a, int *code)
{
    g_open_err[0] = 0;
    g_open_rec = 1;
    evt_reader *r = open_(a, code);
    g_open_rec = 0;
    return r;
}

const char *cli_open_error(void) { return g_open_err; }

void cli_open_failure_json(const cli_args *a, int stats)
{
    evt_json j;
    evt_json_init(&j, stdout, !stats);
    evt_json_obj_begin(&j);
    evt_json_key(&j, "format");
    evt_json_null(&j);
    evt_json_kstr(&j, "file", a->file);
    evt_json_ku64(&j, "events", 0);
    if (stats) {
        evt_json_ku64(&j, "errors", 1);
        evt_json_key(&j, "lost");
        evt_json_obj_begin(&j);
        evt_json_ku64(&j, "events", 0);
        evt_json_ku64(&j, "count", 0);
        evt_json_obj_end(&j);
    } else {
        evt_json_ku64(&j, "lost", 0);
        evt_json_ku64(&j, "errors", 1);
    }
    const char *msg = g_open_err;
    size_t cl = strlen(a->cmd);
    if (strncmp(msg, "evtrace ", 8) == 0 && strncmp(msg + 8, a->cmd, cl) == 0 && strncmp(msg + 8 + cl, ": ", 2) == 0)
        msg += 8 + cl + 2; /* the message without the "evtrace CMD: " that stderr shows */
    evt_json_kstr(&j, "fatal", *msg ? msg : "the input cannot be read");
    evt_json_obj_end(&j);
    fputc('\n', stdout);
}

static evt_reader *open_(const cli_args *a, int *code)
{
    char err[512];
    evt_reader *r = NULL;
    g_diag.path = a->file;
    g_diag.shown = 0;
    struct stat st_in;
    int piped = 0; /* a FIFO or socket named as FILE (a named pipe, <(...) process substitution) */
    int named = !(a->listen || a->serial || a->connect || a->gdb); /* FILE is a file's path */
    const char *what = named ? cli_not_a_trace_file(a->file, cli_is_live(a)) : NULL;
    if (what) {
        cli_err(a->cmd, "%s: %s", a->file, what);
        *code = EXIT_INPUT;
        return NULL;
    }
    if (!cli_is_live(a) && stat(a->file, &st_in) == 0 && (S_ISFIFO(st_in.st_mode) || S_ISSOCK(st_in.st_mode)))
        piped = 1; /* read in order, as a stream */
    if (piped || cli_is_live(a)) {
        r = open_stream(a, code);
        if (r) warn_unused_opts_(a, r);
        if (r && a->clock_hz) evt_reader_set_clock_hz(r, a->clock_hz);
        if (r) evt_reader_set_range(r, &a->range);
        if (r) set_profile_(r, a);
        return r;
    }
    /* A file: raw, or an Intel HEX / S-record dump (auto-detected), from --offset / --base-address. */
    evt_source src;
    char why[400];
    evt_status st = evt_source_open_input(&src, a->file, &a->input, why, sizeof why);
    if (st != EVT_OK) {
        cli_eprintf("evtrace %s: %s: %s\n", a->cmd, a->file, why);
        /* a damaged dump (a bad record checksum, a missing end record) opens nothing: unreadable
           at open (3), as the JSON's "fatal" says; a gap between records is an error while reading
           (below: 1, the rest decodes) */
        *code = st == EVT_ERR_USAGE ? EXIT_USAGE : EXIT_INPUT;
        return NULL;
    }
    st = evt_reader_open_stream(&src, a->format, &a->ropts, print_diag, &g_diag, &r, err, sizeof err);
    if (st != EVT_OK) {
        cli_eprintf("evtrace %s: %s\n", a->cmd, err);
        *code = (st == EVT_ERR_USAGE) ? EXIT_USAGE : EXIT_INPUT;
        return NULL;
    }
    if (r->src.gap_bytes && !(r->src.gaps == 1 && r->src.gap_addr + r->src.gap_len <= r->src.image_addr)) {
        /* (a single gap wholly before the trace's start, --offset, is not read) */
        /* bytes no record gave are read as 0x00: the decoder would take them for data */
        uint64_t at = r->src.gap_addr >= r->src.image_addr ? r->src.gap_addr - r->src.image_addr : 0;
        evt_reader_error(r, at,
                         "%llu bytes of the memory image are in no record of the dump (%llu gap%s, the first at "
                         "address 0x%llx, %llu bytes): read as 0x00",
                         (unsigned long long)r->src.gap_bytes, (unsigned long long)r->src.gaps,
                         r->src.gaps == 1 ? "" : "s", (unsigned long long)r->src.gap_addr,
                         (unsigned long long)r->src.gap_len);
    }
    if (a->clock_hz) evt_reader_set_clock_hz(r, a->clock_hz);
    evt_reader_set_range(r, &a->range);
    set_profile_(r, a);
    warn_unused_opts_(a, r);
    *code = EXIT_OK_;
    return r;
}

int cli_finish(evt_reader *r, evt_status last)
{
    int code = EXIT_OK_;
    if (last != EVT_END && last != EVT_OK) {
        cli_eprintf("evtrace: %s: %s\n", r->src.path, r->fail_msg);
        code = EXIT_DATA;
    }
    if (r->errors) code = EXIT_DATA;
    const char *why = evt_source_failure(&r->src);
    if (why) { /* the stream broke: a followed file shrank, a read failed */
        cli_eprintf("evtrace: %s: %s\n", r->src.path, why);
        code = EXIT_INPUT;
    }
    return code;
}
