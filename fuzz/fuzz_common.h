/* Shared by every fuzz target (one translation unit each, so the definitions here are fine):
 * sanitizer defaults that stop at the first finding, a scratch path on tmpfs written from the
 * fuzz input and removed (file or directory tree) after every iteration, and a reader opened on
 * the input with a selector byte picking the format. */
#ifndef EVT_FUZZ_COMMON_H
#define EVT_FUZZ_COMMON_H

#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "evtrace/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__asan_default_options(void);
const char *__ubsan_default_options(void);

/* A finding must stop the run so libFuzzer keeps the input (the build also sets
 * -fno-sanitize-recover=all). */
const char *__asan_default_options(void) { return "halt_on_error=1:detect_leaks=1"; }
const char *__ubsan_default_options(void) { return "halt_on_error=1:print_stacktrace=1"; }

/* Events pulled per input at most, so one input stays fast. */
#define FUZZ_MAX_EVENTS 200000ul

/* A per-process scratch path under /dev/shm (tmpfs): nothing reaches the disk. */
static inline const char *fuzz_scratch_path(const char *suffix)
{
    static char path[128];
    snprintf(path, sizeof path, "/dev/shm/evt-fuzz-%ld%s", (long)getpid(), suffix);
    return path;
}

/* Remove path whatever it is: a file, or a directory tree as the CTF exporter writes. */
static inline void fuzz_remove(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            char sub[512];
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            fuzz_remove(sub);
        }
        if (d) closedir(d);
    }
    remove(path);
}

/* Write data to path (replacing it); returns 0 on success. */
static inline int fuzz_write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t n = size ? fwrite(data, 1, size, f) : 0;
    return (fclose(f) == 0 && n == size) ? 0 : -1;
}

/* The format a selector byte names: 0 = auto-detection, k = the (k-1)th reader (modulo). */
static inline const char *fuzz_pick_format(uint8_t sel)
{
    size_t n = evt_reader_count();
    size_t k = sel % (n + 1);
    return k == 0 ? NULL : evt_reader_at(k - 1)->name;
}

/* Open a reader on data[1..size) with the format picked by data[0]; NULL when it does not open. */
static inline evt_reader *fuzz_open_selected(const uint8_t *data, size_t size)
{
    if (size < 1) return NULL;
    evt_reader *r = NULL;
    char err[256];
    if (evt_reader_open_mem(data + 1, size - 1, fuzz_pick_format(data[0]), NULL, NULL, NULL, &r, err,
                            sizeof err) != EVT_OK)
        return NULL;
    return r;
}

#endif
