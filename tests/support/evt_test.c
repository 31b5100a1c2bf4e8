/* Implementation of the shared test helpers. */
#include "evt_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

uint8_t *evt_test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "test: cannot open %s\n", path); exit(2); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc((size_t)n + 1);
    if (!p || fread(p, 1, (size_t)n, f) != (size_t)n) { fprintf(stderr, "test: cannot read %s\n", path); exit(2); }
    fclose(f);
    p[n] = 0;
    *len = (size_t)n;
    return p;
}

int evt_test_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t w = fwrite(data, 1, len, f);
    return (fclose(f) == 0 && w == len) ? 0 : -1;
}

const char *evt_test_bin(void)
{
    const char *b = getenv("EVT_BIN");
    return b ? b : EVT_BINARY_DIR "/evtrace";
}

int evt_test_run(const char *cmdline, char **out, size_t *outlen)
{
    FILE *p = popen(cmdline, "r");
    if (!p) return -1;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t r;
    while (buf && (r = fread(buf + n, 1, cap - n - 1, p)) > 0) {
        n += r;
        if (cap - n < 2) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
        }
    }
    int st = pclose(p);
    if (buf) buf[n] = 0;
    if (out) *out = buf; else free(buf);
    if (outlen) *outlen = n;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

const char *evt_test_tmpdir(void)
{
    static char dir[512];
    if (!dir[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/evtrace-test-XXXXXX", t ? t : "/tmp");
        if (!mkdtemp(dir)) { perror("mkdtemp"); exit(2); }
    }
    return dir;
}
