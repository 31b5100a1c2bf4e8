/* Shared test helpers: sample paths, whole-file reads, running the evtrace command. cmocka tests
 * include this after <setjmp.h>/<cmocka.h>. */
#ifndef EVT_TEST_H
#define EVT_TEST_H

#include <stddef.h>
#include <stdint.h>

/* EVT_TEST_DATA_DIR ("<repo>/tests/data": golden files and the real samples), EVT_SOURCE_DIR and
 * EVT_BINARY_DIR are compile-time definitions set by CMake. */

/* Read a whole file (test data only); aborts the test process with a message if it cannot. */
uint8_t *evt_test_read_file(const char *path, size_t *len);
/* Write bytes to a file; returns 0 on success. */
int evt_test_write_file(const char *path, const void *data, size_t len);
/* Path of the evtrace command under test. */
const char *evt_test_bin(void);
/* Run argv (argv[0] a path; no shell) with posix_spawn; capture its stdout into *out and its
 * stderr into *err (NUL-terminated, caller frees; either may be NULL to discard). Returns the
 * exit status (0..255), or -1 if it could not run or was killed by a signal. */
int evt_test_runv(const char *const argv[], char **out, size_t *outlen, char **err);
/* evt_test_runv of a command line split at blanks (no shell: no quoting, no redirection). */
int evt_test_run(const char *cmdline, char **out, size_t *outlen);
/* Something (anything, even a dangling link) is at path. */
int evt_test_exists(const char *path);
/* The name of an entry of dir whose name contains part, or NULL (a static buffer). */
const char *evt_test_find_name(const char *dir, const char *part);
/* A fresh temporary directory for this test process (created once, under $TMPDIR or /tmp),
 * removed with its contents when the process exits normally unless EVT_TEST_KEEP_TMP is set. */
const char *evt_test_tmpdir(void);
/* evt_test_tmpdir()/name in one of four static buffers used in turn (so up to four paths can be
 * held at once; the fifth call reuses the first buffer). */
char *evt_test_tmp_path(const char *name);
/* xorshift64 for randomized tests: the next value of *state (start it nonzero). */
uint64_t evt_test_rand(uint64_t *state);
/* A number of any magnitude: a random value shifted right by a random 0..63 bits. */
uint64_t evt_test_rand_mag(uint64_t *state);

#endif
