/* Signals and temporary outputs. SIGINT, SIGTERM, SIGHUP or SIGPIPE that end the process first
 * remove the guarded temporary output (a file, or a flat directory such as a CTF trace), so no
 * `.tmp-` name is ever left behind. A live capture (cli_live_arm) survives the first SIGINT,
 * SIGTERM or SIGHUP instead: every stream source ends as if its writer had closed
 * (evt_source_set_stop_fd), the command finishes its output and reports what it kept; a second
 * signal aborts as above. */
#ifndef EVT_CLI_SIGNAL_H
#define EVT_CLI_SIGNAL_H

/* Remove path (a file; a directory when is_dir: its entries, one level, then itself) if a signal
 * ends the process before cli_tmp_unguard. One path at a time; a later call replaces it. A signal
 * the caller ignores (nohup) stays ignored. */
void cli_tmp_guard(const char *path);
void cli_tmp_guard_dir(const char *path, int is_dir);
void cli_tmp_unguard(void);

/* A live capture starts: the first SIGINT/SIGTERM/SIGHUP stops the streams instead of ending the
 * process. Returns 0, or -1 when the stop pipe cannot be made (then signals end the process). */
int cli_live_arm(void);
/* The signal that stopped the live capture, or 0. */
int cli_live_stopped(void);
/* The capture is over (streams read normally again; signals end the process). */
void cli_live_disarm(void);

#endif
