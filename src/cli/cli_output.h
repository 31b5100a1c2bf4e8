/* Safe outputs for -o: written under a temporary name beside OUT and renamed into place only when
 * complete; an existing OUT is replaced only when it is a regular file or a directory carrying
 * evtrace's marker (CLI_OUTPUT_MARKER), unless --force; "-" is standard output where the kind
 * can stream. Nothing but OUT and its temporary name is touched. */
#ifndef EVT_CLI_OUTPUT_H
#define EVT_CLI_OUTPUT_H

#include "cli_signal.h" /* the temporary output is guarded against signals */

#define CLI_OUTPUT_MARKER ".evtrace-output" /* file inside every directory evtrace writes */

typedef struct cli_output {
    const char *cmd;     /* for messages */
    const char *path;    /* OUT as given */
    int is_dir;          /* the writer makes a directory */
    int to_stdout;       /* OUT is "-" */
    int force;           /* --force */
    int reserved;        /* tmp exists (created by cli_output_begin or the writer) */
    int fd;              /* a file tmp held open from its creation to commit/abort, else -1 */
    struct cli_wb *wb;   /* early write-back of the growing file (Linux), or NULL */
    char tmp[4096];      /* temporary name beside OUT, or "-" */
} cli_output;

/* Check that OUT may be written and reserve a temporary name beside it (an empty file, or an
 * empty directory when is_dir). can_stdout: the kind may write "-". On Linux, a file output also
 * gets a helper thread that starts the write-back of what the writer has written so far every few
 * milliseconds (sync_file_range, no waiting), so commit's fsync waits for the tail only, not for
 * the whole file; the durability guarantee is the same fsync. Returns 0 or an exit code
 * (message printed): EXIT_USAGE when OUT may not be replaced or "-" is not possible, EXIT_INPUT
 * when the temporary name cannot be created. */
int cli_output_begin(cli_output *o, const char *cmd, const char *path, int is_dir, int can_stdout, int force);
/* Is OUT (lstat: a symbolic link named as OUT is replaced itself, never its target) the same
 * file as input (stat), so that the rename would replace the trace being read? Then says so and
 * returns EXIT_USAGE; else 0 (also when either cannot be stat'ed: nothing to protect). */
int cli_output_not_input(const char *cmd, const char *out, const char *input);
/* cli_output_not_input for every file the command reads: FILE, --elf and the reader options'
 * files (--instr-map, --rkh-config). */
struct cli_args;
int cli_output_not_inputs(const char *cmd, const struct cli_args *a);
/* The path the writer writes to: the temporary name, or "-". */
const char *cli_output_path(const cli_output *o);
/* The writer finished: mark a directory, flush to disk, replace the old OUT (checked again) and
 * rename into place. Returns 0, or EXIT_USAGE/EXIT_INPUT (message printed; temporary removed). */
int cli_output_commit(cli_output *o);
/* The writer failed: remove the temporary output (nothing at OUT changes). */
void cli_output_abort(cli_output *o);
/* Bytes of the file whose write-back was started early so far (0 without the helper thread;
 * for tests). */
unsigned long long cli_output_written_back(cli_output *o);

#endif
