/* Output safety of `evtrace convert` and `evtrace report` (src/cli/cli_output.c), run as a child
 * process without a shell: a shell-injection path is only a name; an existing directory without
 * evtrace's marker is refused and left intact, a marked one is replaced, --force overrides;
 * regular files are replaced, symbolic links and FIFOs refused; -o - equals the file output and is
 * refused for ctf and sqlite; failures, refusals, SIGTERM and the file-size limit leave no
 * temporary files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "evt_test.h"
#include "evtrace/out.h"

#define SAMPLE EVT_TEST_DATA_DIR "/threadx_real/nowrap_m32le.trx"
#define MARKER ".evtrace-output"

/* Run evtrace with the words given (NULL-terminated); stdout/stderr captured. */
static int run_(char **out, size_t *outlen, char **err, const char *const *words)
{
    const char *argv[24];
    int n = 0;
    argv[n++] = evt_test_bin();
    for (; *words && n < 23; words++) argv[n++] = *words;
    argv[n] = NULL;
    return evt_test_runv(argv, out, outlen, err);
}
#define EVT(out, outlen, err, ...) run_((out), (outlen), (err), (const char *const[]){__VA_ARGS__, NULL})

static char *path_(const char *name) { return evt_test_tmp_path(name); }

/* No leftover temporary outputs in the test directory. */
static void assert_no_tmp(void)
{
    const char *t = evt_test_find_name(evt_test_tmpdir(), ".tmp-");
    if (t) fail_msg("temporary output left behind: %s", t);
}

static void write_text(const char *path, const char *text)
{
    assert_int_equal(evt_test_write_file(path, text, strlen(text)), 0);
}

static void shell_injection_is_a_name(void **st)
{
    (void)st;
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(evt_test_tmpdir()), 0); /* the child runs here: PWNED would appear here */
    const char *evil_dir = "x'; touch PWNED; echo '";
    const char *evil_file = "y'; touch PWNED2; echo '.json";
    char *err = NULL;
    assert_int_equal(EVT(NULL, NULL, &err, "convert", "-q", SAMPLE, "--to", "ctf", "-o", evil_dir), 0);
    free(err);
    assert_int_equal(EVT(NULL, NULL, NULL, "convert", "-q", SAMPLE, "-o", evil_file), 0);
    assert_false(evt_test_exists("PWNED"));
    assert_false(evt_test_exists("PWNED2"));
    char m[4200];
    snprintf(m, sizeof m, "%s/%s", evil_dir, MARKER);
    assert_true(evt_test_exists(m));
    assert_true(evt_test_exists(evil_file));
    /* again over its own output: replaced, still no shell */
    assert_int_equal(EVT(NULL, NULL, NULL, "convert", "-q", SAMPLE, "--to", "ctf", "-o", evil_dir), 0);
    assert_false(evt_test_exists("PWNED"));
    assert_int_equal(chdir(cwd), 0);
    assert_no_tmp();
}

static void unmarked_directory_refused(void **st)
{
    (void)st;
    const char *d = path_("mine");
    assert_int_equal(mkdir(d, 0777), 0);
    char keep[4200];
    snprintf(keep, sizeof keep, "%s/keep.txt", d);
    write_text(keep, "precious\n");
    const char *kinds[] = {"ctf", "chrome", "sqlite", "perfetto"};
    for (size_t i = 0; i < 4; i++) {
        char *err = NULL;
        assert_int_equal(EVT(NULL, NULL, &err, "convert", "-q", SAMPLE, "--to", kinds[i], "-o", d), 2);
        assert_non_null(strstr(err, "not replacing"));
        free(err);
    }
    char *err = NULL;
    assert_int_equal(EVT(NULL, NULL, &err, "report", "-q", SAMPLE, "-o", d), 2);
    free(err);
    size_t n;
    uint8_t *txt = evt_test_read_file(keep, &n);
    assert_int_equal(n, 9);
    assert_memory_equal(txt, "precious\n", 9);
    free(txt);
    assert_no_tmp();
    /* --force replaces it */
    assert_int_equal(EVT(NULL, NULL, NULL, "convert", "-q", "--force", SAMPLE, "--to", "ctf", "-o", d), 0);
    assert_false(evt_test_exists(keep));
    char m[4200];
    snprintf(m, sizeof m, "%s/%s", d, MARKER);
    assert_true(evt_test_exists(m));
    assert_no_tmp();
}

static void marked_directory_replaced(void **st)
{
    (void)st;
    const char *d = path_("out.ctf");
    assert_int_equal(EVT(NULL, NULL, NULL, "convert", "-q", SAMPLE, "--to", "ctf", "-o", d), 0);
    char extra[4200], meta[4200];
    snprintf(extra, sizeof extra, "%s/stale_stream", d);
    snprintf(meta, sizeof meta, "%s/metadata", d);
    write_text(extra, "old\n");
    assert_int_equal(EVT(NULL, NULL, NULL, "convert", "-q", SAMPLE, "--to", "ctf", "-o", d), 0);
    assert_false(evt_test_exists(extra)); /* the old directory went as a whole */
    assert_true(evt_test_exists(meta));
    /* a file kind over an evtrace directory: replaced by the file */
    assert_int_equal(EVT(NULL, NULL, NULL, "convert", "-q", SAMPLE, "--to", "chrome", "-o", d), 0);
    struct stat sb;
    assert_int_equal(lstat(d, &sb), 0);
    assert_true(S_ISREG(sb.st_mode));
    /* and a directory kind over that regular file */
    assert_int_equal(EVT(NULL, NULL, NULL, "convert", "-q", SAMPLE, "--to", "ctf", "-o", d), 0);
    assert_int_equal(lstat(d, &sb), 0);
    assert_true(S_ISDIR(sb.st_mode));
    assert_no_tmp();
}

static void files_replaced_links_and_fifos_refused(void **st)
{
    (void)st;
    const char *f = path_("old.json");
    write_text(f, "old contents\n");
    assert_int_equal(EVT(NULL, NULL, NULL, "convert", "-q", SAMPLE, "-o", f), 0);
    size_t n;
    uint8_t *b = evt_test_read_file(f, &n);
    assert_true(n > 1000 && b[0] == '{');
    free(b);
    const char *target = path_("target.txt"), *link = path_("link.json");
    write_text(target, "target\n");
    assert_int_equal(symlink(target, link), 0);
    char *err = NULL;
    assert_int_equal(EVT(NULL, NULL, &err, "convert", "-q", SAMPLE, "-o", link), 2);
    assert_non_null(strstr(err, "symbolic link"));
    free(err);
    assert_int_equal(EVT(NULL, NULL, NULL, "convert", "-q", "--force", SAMPLE, "-o", link), 0);
    struct stat sb;
    assert_int_equal(lstat(link, &sb), 0);
    assert_true(S_ISREG(sb.st_mode)); /* the link itself was replaced */
    b = evt_test_read_file(target, &n);
    assert_int_equal(n, 7); /* its target untouched */
    free(b);
    const char *fifo = path_("fifo.json");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(EVT(NULL, NULL, NULL, "convert", "-q", "--force", SAMPLE, "-o", fifo), 2);
    assert_int_equal(lstat(fifo, &sb), 0);
    assert_true(S_ISFIFO(sb.st_mode));
    assert_no_tmp();
}

/* `-o -` output equals the file output. */
static void stdout_equals_file(const char *cmd, const char *kind, const char *name)
{
    const char *f = path_(name);
    char *out = NULL;
    size_t outlen = 0;
    if (kind) {
        assert_int_equal(EVT(NULL, NULL, NULL, cmd, "-q", SAMPLE, "--to", kind, "-o", f), 0);
        assert_int_equal(EVT(&out, &outlen, NULL, cmd, "-q", SAMPLE, "--to", kind, "-o", "-"), 0);
    } else {
        assert_int_equal(EVT(NULL, NULL, NULL, cmd, "-q", SAMPLE, "-o", f), 0);
        assert_int_equal(EVT(&out, &outlen, NULL, cmd, "-q", SAMPLE, "-o", "-"), 0);
    }
    size_t n;
    uint8_t *b = evt_test_read_file(f, &n);
    assert_true(n > 100);
    assert_int_equal(outlen, n);
    assert_memory_equal(out, b, n);
    free(b);
    free(out);
}

static void dash_is_stdout(void **st)
{
    (void)st;
    stdout_equals_file("convert", "chrome", "s.json");
    stdout_equals_file("convert", "perfetto", "s.pftrace");
    stdout_equals_file("report", NULL, "s.html");
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(evt_test_tmpdir()), 0);
    char *err = NULL;
    assert_int_equal(EVT(NULL, NULL, &err, "convert", "-q", SAMPLE, "--to", "ctf", "-o", "-"), 2);
    assert_non_null(strstr(err, "-o -"));
    free(err);
    assert_int_equal(EVT(NULL, NULL, NULL, "convert", "-q", SAMPLE, "--to", "sqlite", "-o", "-"), 2);
    assert_false(evt_test_exists("-")); /* never a file named "-" */
    assert_int_equal(chdir(cwd), 0);
}

static void failures_leave_nothing(void **st)
{
    (void)st;
    const char *f = path_("never.json");
    assert_int_equal(EVT(NULL, NULL, NULL, "convert", "-q", "/nonexistent/input.trx", "-o", f), 3);
    assert_false(evt_test_exists(f));
    const char *keep = path_("keep.json");
    write_text(keep, "old\n");
    assert_int_equal(EVT(NULL, NULL, NULL, "convert", "-q", "/nonexistent/input.trx", "-o", keep), 3);
    size_t n;
    uint8_t *b = evt_test_read_file(keep, &n);
    assert_int_equal(n, 4); /* the old output is still there, whole */
    free(b);
    assert_int_equal(EVT(NULL, NULL, NULL, "report", "-q", "/nonexistent/input.trx", "-o", path_("r.html")), 3);
    assert_false(evt_test_exists(path_("r.html")));
    assert_int_equal(EVT(NULL, NULL, NULL, "convert", "-q", SAMPLE, "-o", "/nonexistent-dir/x.json"), 3);
    assert_no_tmp();
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* SIGTERM in the middle of a long conversion: the temporary file goes with the process and OUT
 * never appears. */
static void interrupted_leaves_nothing(void **st)
{
    (void)st;
    const char *spec = path_("long.syn"), *out = path_("long.json");
    write_text(spec, "evtrace-synthetic 1\nevents 50000000\nthreads 4\n");
    const char *argv[] = {evt_test_bin(), "convert", "-q", spec, "-o", out, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    extern char **environ;
    assert_int_equal(posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    int seen = 0;
    for (int i = 0; i < 1000 && !seen; i++) { /* up to 10 s for the temporary to appear */
        seen = evt_test_find_name(evt_test_tmpdir(), ".tmp-") != NULL;
        if (!seen) sleep_ms(10);
    }
    sleep_ms(100); /* well inside the conversion */
    assert_int_equal(kill(pid, SIGTERM), 0);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(seen);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM); /* it died of it, mid-way */
    assert_null(evt_test_find_name(evt_test_tmpdir(), ".tmp-"));
    assert_false(evt_test_exists(out));
}

/* Run evtrace with stdout on /dev/full; returns its exit status. */
static int run_to_full(const char *const *words)
{
    const char *argv[16];
    int n = 0;
    argv[n++] = evt_test_bin();
    for (; *words && n < 15; words++) argv[n++] = *words;
    argv[n] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/full", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    extern char **environ;
    assert_int_equal(posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
#define FULL(...) run_to_full((const char *const[]){__VA_ARGS__, NULL})

/* Standard output on a full disk: every command says so and exits 3 (no silent loss). */
static void full_stdout_is_an_error(void **st)
{
    (void)st;
    assert_int_equal(FULL("dump", SAMPLE), 3);
    assert_int_equal(FULL("dump", "--json", SAMPLE), 3);
    assert_int_equal(FULL("info", "--json", SAMPLE), 3);
    assert_int_equal(FULL("stats", SAMPLE), 3);
    assert_int_equal(FULL("query", SAMPLE, "SELECT * FROM events"), 3);
    assert_int_equal(FULL("convert", "-q", SAMPLE, "--to", "chrome", "-o", "-"), 3);
    assert_int_equal(FULL("report", "-q", SAMPLE, "-o", "-"), 3);
}

/* The file-size limit (RLIMIT_FSIZE, inherited by the child) stops a file output part way: evtrace
 * ignores SIGXFSZ (which used to kill it and leave its temporary behind), so the write fails with
 * EFBIG, evtrace says so and exits 3; the old OUT stays whole and nothing is left beside it. */
static void file_size_limit_is_an_error(void **st)
{
    (void)st;
    char spec[4096]; /* a copy: path_'s buffers are reused */
    snprintf(spec, sizeof spec, "%s", path_("fsize.syn"));
    write_text(spec, "evtrace-synthetic 1\nevents 300000\nthreads 4\n");
    static const char *const kinds[][2] = {{"chrome", "fsize.json"}, {"perfetto", "fsize.pftrace"}, {"ctf", "fsize.ctf"},
                                           {"sqlite", "fsize.sqlite"}, {"report", "fsize.html"}};
    struct rlimit old;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    if (old.rlim_max != RLIM_INFINITY && old.rlim_max < (1u << 20)) skip();
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        const char *out = path_(kinds[k][1]);
        if (strcmp(kinds[k][0], "ctf") != 0) write_text(out, "old\n");
        struct rlimit lim = {1u << 20, old.rlim_max}; /* 1 MB: each output is larger */
        assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
        char *err = NULL;
        int rc = strcmp(kinds[k][0], "report") == 0 ? EVT(NULL, NULL, &err, "report", "-q", spec, "-o", out)
                                                    : EVT(NULL, NULL, &err, "convert", "-q", spec, "--to", kinds[k][0], "-o", out);
        assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
        /* SQLite says "disk I/O error" for the same EFBIG */
        const char *why = strcmp(kinds[k][0], "sqlite") == 0 ? "disk I/O error" : "File too large";
        if (rc != 3 || !strstr(err, why)) fail_msg("%s: exit %d, stderr: %s", kinds[k][0], rc, err);
        free(err);
        if (strcmp(kinds[k][0], "ctf") != 0) {
            size_t n;
            uint8_t *b = evt_test_read_file(out, &n);
            assert_non_null(b);
            assert_int_equal(n, 4); /* the old output, whole */
            free(b);
        } else {
            assert_false(evt_test_exists(out));
        }
        assert_no_tmp();
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shell_injection_is_a_name),
        cmocka_unit_test(unmarked_directory_refused),
        cmocka_unit_test(marked_directory_replaced),
        cmocka_unit_test(files_replaced_links_and_fifos_refused),
        cmocka_unit_test(dash_is_stdout),
        cmocka_unit_test(failures_leave_nothing),
        cmocka_unit_test(interrupted_leaves_nothing),
        cmocka_unit_test(full_stdout_is_an_error),
        cmocka_unit_test(file_size_limit_is_an_error),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    evt_out_remove_tree(evt_test_tmpdir());
    return rc;
}
