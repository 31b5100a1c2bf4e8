/* evtrace convert FILE... --to clickhouse -o http://HOST:PORT/?database=DB: each FILE is one
 * trace, loaded in order with its --trace-id (one per FILE, else a random UUID each) and every
 * --label. The first failing trace stops the command (exit 3) with what was committed; traces
 * loaded before it stay loaded and are listed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cli_progress.h"
#include "cli_signal.h"
#include "convert_clickhouse.h"
#include "host/exporters/clickhouse.h"

#define CH_TIMEOUT_S 600.0 /* --timeout default: the most one trace's load waits on the server */

/* One trace; returns an exit code (0, EXIT_DATA for input errors, EXIT_INPUT on failure). */
static int load_one_(const cli_args *a, const char *file, const char *trace_id, const char *password)
{
    cli_args one = *a;
    one.file = file;
    int code = 0;
    evt_reader *r = cli_open(&one, &code);
    if (!r) return code;
    char err[2048] = "";
    evt_ch_opts o = {trace_id, a->label, (size_t)a->nlabel, 0, a->user ? a->user : getenv("CLICKHOUSE_USER"),
                     password, a->ca_file, a->insecure, a->has_timeout ? a->timeout_s : CH_TIMEOUT_S};
    if (o.user && !*o.user) o.user = NULL;
    evt_ch_load *l = evt_ch_begin(a->out, r, &o, err, sizeof err);
    if (!l) {
        cli_err("convert", "%s: %s", file, err);
        evt_reader_close(r);
        return EXIT_INPUT;
    }
    if (*evt_ch_added_columns(l)) /* always said: the user's database changed */
        cli_eprintf("evtrace convert: %s: added to %s's tables, which an older evtrace created: %s\n", file,
                    evt_ch_database(l), evt_ch_added_columns(l));
    evt_event ev;
    evt_status st;
    int ok = 1;
    cli_progress prog;
    cli_progress_init(&prog, "convert", r, a->quiet);
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        if (!(ok = evt_ch_event(l, &ev, err, sizeof err))) break;
        cli_progress_tick(&prog, &ev);
    }
    cli_progress_done(&prog);
    if (ok && st == EVT_ERR_NOMEM) {
        snprintf(err, sizeof err, "trace %s: out of memory while reading (the traces row was not written)", evt_ch_trace_id(l));
        ok = 0;
    }
    if (ok) ok = evt_ch_end(l, err, sizeof err);
    if (!ok) {
        cli_err("convert", "%s: %s", file, err);
        evt_ch_free(l);
        evt_reader_close(r);
        return EXIT_INPUT;
    }
    code = cli_finish(r, st);
    if (cli_live_stopped()) /* always said: the user ended the capture and must see what it kept */
        cli_eprintf("evtrace convert: stopped by %s: kept %llu events in trace %s\n", cli_signal_name(cli_live_stopped()),
                    (unsigned long long)r->events, evt_ch_trace_id(l));
    if (!a->quiet) {
        char rows[512];
        evt_ch_committed_text(l, rows, sizeof rows);
        cli_eprintf("evtrace convert: %s: trace %s loaded (%llu events; rows: %s)\n", file, evt_ch_trace_id(l),
                (unsigned long long)r->events, rows);
    }
    evt_ch_free(l);
    evt_reader_close(r);
    return code;
}

int cli_convert_clickhouse(const cli_args *a)
{
    int nfiles = 1 + a->nextra;
    if (a->ntrace_id && a->ntrace_id != nfiles) {
        cli_err("convert", "give --trace-id once per FILE (%d FILEs, %d --trace-id) or not at all", nfiles, a->ntrace_id);
        return EXIT_USAGE;
    }
    for (int i = 0; i < a->ntrace_id; i++)
        for (int k = 0; k < i; k++)
            if (strcmp(a->trace_id[i], a->trace_id[k]) == 0) {
                cli_err("convert", "--trace-id %s given twice", a->trace_id[i]);
                return EXIT_USAGE;
            }
    char pw[512]; /* --password-file's first line, else $CLICKHOUSE_PASSWORD; never printed */
    const char *password = getenv("CLICKHOUSE_PASSWORD");
    if (a->password_file) {
        FILE *f = fopen(a->password_file, "r");
        if (!f || !fgets(pw, sizeof pw, f)) {
            cli_err("convert", "--password-file %s: cannot read it%s", a->password_file, f ? " (empty)" : "");
            if (f) fclose(f);
            return EXIT_USAGE;
        }
        fclose(f);
        pw[strcspn(pw, "\r\n")] = '\0';
        password = pw;
    }
    if (a->ca_file && access(a->ca_file, R_OK) != 0) {
        cli_err("convert", "--ca-file %s: cannot read it", a->ca_file);
        return EXIT_USAGE;
    }
    int worst = 0;
    for (int i = 0; i < nfiles; i++) {
        const char *file = i == 0 ? a->file : a->extra[i - 1];
        cli_args one = *a;
        one.file = file;
        int live = cli_is_live(&one) && cli_live_arm() == 0; /* Ctrl-C ends the stream: the load completes */
        int code = load_one_(a, file, a->ntrace_id ? a->trace_id[i] : NULL, password);
        if (live) cli_live_disarm();
        if (code == EXIT_INPUT || code == EXIT_USAGE) {
            if (i + 1 < nfiles) cli_err("convert", "stopped: %d of %d FILEs loaded, the rest not tried", i, nfiles);
            return code;
        }
        if (code > worst) worst = code;
    }
    return worst;
}
