/* libFuzzer target of the CLI option parser (cli_parse, src/cli/cli_parse.c: getopt_long over one
 * table plus the readers' options). Input: byte 0 picks the subcommand (commands.def order), the
 * rest is its arguments separated by NUL bytes (at most MAX_ARGS). Checked on every result: a
 * FILE unless the command takes none (OPT_NO_FILE), the parser's pointers point into the argument strings, positional counts and reader options stay
 * within their limits, and --format names a reader. Parser messages go to /dev/null. */
#include <stdlib.h>
#include "fuzz_common.h"
#include "cli.h"

#define MAX_ARGS 32

static FILE *g_null;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc; (void)argv;
    g_null = fopen("/dev/null", "w");
    return 0;
}

/* p is NULL or points into buf[0..n). */
static int inside_(const char *p, const char *buf, size_t n) { return !p || (p >= buf && p < buf + n); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const cli_command *c = cli_command_at(data[0] % cli_command_count());
    if (!c) abort();
    /* one block: the command name, then the arguments, each NUL-terminated */
    size_t nlen = strlen(c->name) + 1, n = nlen + (size - 1) + 1;
    char *buf = malloc(n);
    if (!buf) return 0;
    memcpy(buf, c->name, nlen);
    memcpy(buf + nlen, data + 1, size - 1);
    buf[n - 1] = '\0';
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = buf;
    for (size_t i = nlen; i < n - 1 && argc <= MAX_ARGS; i += strlen(buf + i) + 1) argv[argc++] = buf + i;
    argv[argc] = NULL;

    cli_args a;
    FILE *saved = stderr;
    if (g_null) stderr = g_null;
    int rc = cli_parse(c, argc, argv, &a);
    if (rc == CLI_PARSE_HELP) cli_print_options(c, stderr);
    stderr = saved;

    if (rc != 0 && rc != EXIT_USAGE && rc != CLI_PARSE_HELP && rc != CLI_PARSE_BAD_FORMAT) abort();
    if (rc == 0) {
        if ((!a.file && !(c->opts & OPT_NO_FILE)) || !inside_(a.file, buf, n) || !inside_(a.format, buf, n) || !inside_(a.out, buf, n) ||
            !inside_(a.to, buf, n) || !inside_(a.listen, buf, n))
            abort();
        if (a.nextra < c->min_extra || a.nextra > c->max_extra) abort();
        for (int i = 0; i < a.nextra; i++)
            if (!inside_(a.extra[i], buf, n)) abort();
        if (a.format && !evt_reader_find(a.format)) abort();
        if (a.ropts.n > EVT_MAX_OPTS) abort();
        for (unsigned i = 0; i < a.ropts.n; i++)
            if (!a.ropts.key[i] || !inside_(a.ropts.val[i], buf, n)) abort();
        if (strcmp(a.cmd, c->name) != 0) abort();
    }
    free(buf);
    return 0;
}
