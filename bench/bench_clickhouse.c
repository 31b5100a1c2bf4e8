/* What the ClickHouse server's side of a load costs: `evtrace convert --to clickhouse` of one
 * synthetic trace (EVT_BENCH_CH_EVENTS, default 5,000,000) twice in the same run,
 *   1. into a discarding HTTP sink in this process (tests/support/evt_fake_clickhouse.c: answers
 *      the schema check, reads every INSERT body to its end and drops it): evtrace's own cost,
 *      RowBinary over loopback HTTP included;
 *   2. into a real clickhouse-server, started in a temporary folder by
 *      tests/support/clickhouse_server.py (or the one at EVT_BENCH_CH_URL, database evtrace with the
 *      tables created), after the tables are created;
 * and prints events/s, events per evtrace CPU second and evtrace's peak RSS for each; the
 * difference of the wall times is the server's side. No clickhouse-server: only run 1. */
#define _GNU_SOURCE /* memmem in the included sink */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench_util.h"
#include "evtrace/alloc.h"
#include "host/exporters/clickhouse_schema.h"
#include "host/http_client.h"

/* The discarding sink: the tests' stand-in server (bench targets are built from one source file
 * and bench_util.c, so its source is taken in here). */
#include "../tests/support/evt_fake_clickhouse.c"

/* CPU seconds (user + system) the server processes of CH_PIDS have used so far; -1 unknown. */
static double server_cpu_s_(void)
{
    const char *pids = getenv("CH_PIDS");
    if (!pids) return -1;
    double sum = 0;
    long hz = sysconf(_SC_CLK_TCK);
    for (const char *p = pids; *p;) {
        char *end;
        long pid = strtol(p, &end, 10);
        if (end == p) break;
        char path[64], line[2048];
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        FILE *f = fopen(path, "r");
        if (!f) return -1;
        size_t n = fread(line, 1, sizeof line - 1, f);
        fclose(f);
        line[n] = '\0';
        char *rp = strrchr(line, ')'); /* fields after the command name: state is field 3 */
        unsigned long ut = 0, st = 0;
        if (!rp || sscanf(rp + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2) return -1;
        sum += (double)(ut + st) / (double)hz;
        p = end;
        while (*p == ' ') p++;
    }
    return sum;
}

/* ---- one load, in a child process ---- */

static int load_(const char *bin, const char *spec, const char *url, const char *subject, unsigned long long events)
{
    double srv0 = server_cpu_s_();
    uint64_t t0 = bench_now_ns();
    pid_t pid = fork();
    if (pid < 0) return 1;
    if (pid == 0) {
        execl(bin, bin, "convert", "-q", spec, "--to", "clickhouse", "-o", url, "--trace-id", "bench", (char *)NULL);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) return 1;
    uint64_t ns = bench_now_ns() - t0;
    uint64_t cpu = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000u +
                   (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000u;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) { printf("bench: %s: FAILED\n", subject); return 1; }
    bench_report(subject, "events/s", (double)events * 1e9 / (double)ns, "ev/s");
    bench_report(subject, "seconds", (double)ns / 1e9, "s");
    if (cpu) bench_report(subject, "events/s per evtrace CPU s", (double)events * 1e9 / (double)cpu, "ev/s");
    bench_report(subject, "evtrace peak RSS", (double)ru.ru_maxrss / 1024.0, "MB");
    double srv1 = server_cpu_s_();
    if (srv0 >= 0 && srv1 >= 0) {
        bench_report(subject, "evtrace CPU per M events", (double)cpu / 1e9 / ((double)events / 1e6), "s");
        bench_report(subject, "server CPU per M events (during the load)", (srv1 - srv0) / ((double)events / 1e6), "s");
    }
    return 0;
}

/* Create the tables on the server at url (evtrace clickhouse-schema, one POST per statement). */
static int schema_(const char *bin, const char *url)
{
    int fd[2];
    if (pipe(fd) != 0) return 1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        execl(bin, bin, "clickhouse-schema", (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    static char ddl[1 << 16];
    size_t n = 0;
    ssize_t r;
    while ((r = read(fd[0], ddl + n, sizeof ddl - 1 - n)) > 0) n += (size_t)r;
    close(fd[0]);
    waitpid(pid, NULL, 0);
    ddl[n] = '\0';
    evt_http_url u;
    char err[1024];
    if (!evt_http_parse_url(url, &u, err, sizeof err)) return 1;
    for (char *st = ddl, *semi; (semi = strstr(st, ";\n")) != NULL; st = semi + 2) {
        *semi = '\0';
        evt_http_opts ho = {0};
        int st_code = evt_http_post(&u, &ho, u.path, st, strlen(st), NULL, NULL, err, sizeof err);
        if (st_code != 200) { fprintf(stderr, "bench_clickhouse: schema: %s\n", err); return 1; }
    }
    return 0;
}

int main(int argc, char **argv)
{
    char bin[4096];
    ssize_t n = readlink("/proc/self/exe", bin, sizeof bin - 32);
    if (n <= 0) return 1;
    bin[n] = '\0';
    char self[4096];
    memcpy(self, bin, (size_t)n + 1);
    strcpy(strrchr(bin, '/') + 1, "evtrace");
    if (access(bin, X_OK) != 0) { fprintf(stderr, "%s: no evtrace beside it (%s)\n", argv[0], bin); return 1; }
    const char *ev = getenv("EVT_BENCH_CH_EVENTS");
    unsigned long long events = ev ? strtoull(ev, NULL, 10) : 5000000ull;

    if (argc == 3 && strcmp(argv[1], "--server") == 0) { /* run 2, under the harness: CH_URL is set */
        const char *base = getenv("CH_URL");
        if (!base) return 1;
        char url[512];
        snprintf(url, sizeof url, "%s?database=evtrace", base);
        if (schema_(bin, base)) return 1;
        return load_(bin, argv[2], url, "clickhouse_server", events);
    }

    char dir[4096];
    snprintf(dir, sizeof dir, "%s/evtrace-bench-ch-XXXXXX", bench_tmpdir());
    if (!mkdtemp(dir)) return 1;
    char spec[4200];
    snprintf(spec, sizeof spec, "%s/trace.syn", dir);
    if (bench_write_synthetic(spec, events) != 0) return 1;
    printf("bench_clickhouse: %llu synthetic events per run\n", events);
    fflush(stdout);

    evt_fake_ch *sink = evt_fake_ch_start(0);
    if (!sink) return 1;
    int rc = load_(bin, spec, evt_fake_ch_url(sink), "clickhouse_discard", events);
    evt_fake_ch_stop(sink);
    fflush(stdout);

    const char *given = getenv("EVT_BENCH_CH_URL");
    if (given) {
        rc |= load_(bin, spec, given, "clickhouse_server", events);
    } else if (access("/usr/sbin/clickhouse-server", X_OK) == 0) {
        char harness[4096]; /* the source tree's tests/support/clickhouse_server.py */
        snprintf(harness, sizeof harness, "%s/tests/support/clickhouse_server.py", EVT_BENCH_SOURCE_DIR);
        pid_t pid = fork();
        if (pid == 0) {
            execlp("python3", "python3", harness, "--", self, "--server", spec, (char *)NULL);
            _exit(127);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) { printf("bench: clickhouse_server: FAILED\n"); rc = 1; }
    } else {
        printf("bench: clickhouse_server: not run (no /usr/sbin/clickhouse-server; scripts/deps.sh check installs it)\n");
    }
    unlink(spec);
    rmdir(dir);
    return rc;
}
