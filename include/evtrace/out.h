/* The one output seam of the host library: every exporter and the report open the files they
 * write through evt_out_fopen, so tests can make the Nth write fail (disk full) or come up short,
 * as SQLite's test VFS does. The SQLite exporter's database writes go through the same counter
 * (evt_out_sqlite_vfs). Without a test hook armed, a regular file's stream is written by a writer
 * thread (src/host/out_async.c, glibc; plain fopen elsewhere): its bytes reach the file in order,
 * fflush hands them on, and fclose returns once they are all written, with the first write error
 * if one happened. */
#ifndef EVTRACE_OUT_H
#define EVTRACE_OUT_H

#include <stddef.h>
#include <stdio.h>

/* fopen(path, mode) for writing ("w", "wb", "a", "ab"; fseek and ftell work). path "-" is
 * standard output (a duplicate of fd 1: fclose leaves stdout open). NULL with errno set on
 * failure. Always check fclose: a write error may show only there. */
FILE *evt_out_fopen(const char *path, const char *mode);

/* Name of the SQLite VFS to open output databases with: NULL (the default VFS) unless a write
 * fault is armed, then a shim whose xWrite obeys the same counter. */
const char *evt_out_sqlite_vfs(void);

/* Remove a file, or a directory tree, at path without following symbolic links (an unlinkat walk
 * below directories opened with O_NOFOLLOW; at most 64 levels). Only for paths the caller has
 * verified are its own. Returns 0 or -1 (errno). */
int evt_out_remove_tree(const char *path);

typedef enum evt_out_fault {
    EVT_OUT_FAULT_NONE = 0,
    EVT_OUT_FAULT_NOSPC, /* the Nth write and every later one fail with ENOSPC */
    EVT_OUT_FAULT_SHORT  /* the Nth write stores half its bytes and reports that; later ones fail (ENOSPC) */
} evt_out_fault;

/* Test hook: arm a fault at the write numbered `nth` from now (1 = the next write), counting
 * every write of every stream opened through evt_out_fopen while armed (small stdio buffers, so
 * there are many write points). nth = 0 or EVT_OUT_FAULT_NONE disarms. */
void evt_out_fail_after(unsigned long nth, evt_out_fault how);
/* Test hook: writes counted since the last evt_out_fail_after. */
unsigned long evt_out_writes(void);

/* For the write shims (out.c, the SQLite VFS shim): a write of n bytes is about to happen.
 * Returns how many bytes it may store (n, or fewer: a short write) and sets *fail when it must
 * then report an error (ENOSPC). */
size_t evt_out_write_allowed_(size_t n, int *fail);
/* A fault is armed (streams opened now get the counting shim). */
int evt_out_armed_(void);

#endif
