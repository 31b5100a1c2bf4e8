/* Asynchronous output files for evt_out_fopen (out_async.c): the stream's bytes are written by a
 * writer thread, in order; fclose waits for them and reports the first write error. */
#ifndef EVT_OUT_ASYNC_H
#define EVT_OUT_ASYNC_H

#include <stdio.h>

/* fopen(path, mode) for writing ("w", "wb", "a", "ab") of a regular file, written asynchronously
 * where the platform allows (glibc), else plain fopen. NULL with errno set on failure. */
FILE *evt_out_async_fopen_(const char *path, const char *mode);

/* write(2) all n bytes of p to fd, retrying EINTR (the writer thread's and out.c's fault shim's
 * loop): the bytes written, n unless *err is set to an errno (EIO for a write of 0 bytes). */
size_t evt_out_write_full_(int fd, const char *p, size_t n, int *err);

#endif
