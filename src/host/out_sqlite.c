/* The output seam for SQLite databases: a VFS named "evtrace-out" that forwards everything to the
 * default VFS except that each xWrite first asks the write-fault counter (evtrace/out.h), so a
 * test can fail the Nth database write (SQLITE_FULL) or make it short. Registered on first use,
 * only while a fault is armed. */
#include <sqlite3.h>
#include <string.h>
#include "evtrace/out.h"

#define SHIM_NAME "evtrace-out"

/* Our file: the header SQLite sees, followed by the real VFS's file object. */
typedef struct shim_file {
    sqlite3_file base;
    sqlite3_file *real;
} shim_file;

static sqlite3_vfs g_vfs;
static sqlite3_vfs *g_real;
static sqlite3_io_methods g_io;

static int x_close(sqlite3_file *f)
{
    shim_file *s = (shim_file *)f;
    return s->real->pMethods ? s->real->pMethods->xClose(s->real) : SQLITE_OK;
}
static int x_read(sqlite3_file *f, void *p, int n, sqlite3_int64 off)
{
    shim_file *s = (shim_file *)f;
    return s->real->pMethods->xRead(s->real, p, n, off);
}
static int x_write(sqlite3_file *f, const void *p, int n, sqlite3_int64 off)
{
    shim_file *s = (shim_file *)f;
    int fail;
    size_t ok = evt_out_write_allowed_((size_t)n, &fail);
    if (fail) return SQLITE_FULL;
    if (ok < (size_t)n) { /* a short write: store part, then report the disk full */
        s->real->pMethods->xWrite(s->real, p, (int)ok, off);
        return SQLITE_FULL;
    }
    return s->real->pMethods->xWrite(s->real, p, n, off);
}
static int x_truncate(sqlite3_file *f, sqlite3_int64 size)
{
    shim_file *s = (shim_file *)f;
    return s->real->pMethods->xTruncate(s->real, size);
}
static int x_sync(sqlite3_file *f, int flags)
{
    shim_file *s = (shim_file *)f;
    return s->real->pMethods->xSync(s->real, flags);
}
static int x_size(sqlite3_file *f, sqlite3_int64 *size)
{
    shim_file *s = (shim_file *)f;
    return s->real->pMethods->xFileSize(s->real, size);
}
static int x_lock(sqlite3_file *f, int l) { return ((shim_file *)f)->real->pMethods->xLock(((shim_file *)f)->real, l); }
static int x_unlock(sqlite3_file *f, int l) { return ((shim_file *)f)->real->pMethods->xUnlock(((shim_file *)f)->real, l); }
static int x_reserved(sqlite3_file *f, int *out)
{
    shim_file *s = (shim_file *)f;
    return s->real->pMethods->xCheckReservedLock(s->real, out);
}
static int x_fcntl(sqlite3_file *f, int op, void *arg)
{
    shim_file *s = (shim_file *)f;
    return s->real->pMethods->xFileControl(s->real, op, arg);
}
static int x_sector(sqlite3_file *f) { return ((shim_file *)f)->real->pMethods->xSectorSize(((shim_file *)f)->real); }
static int x_devchar(sqlite3_file *f)
{
    return ((shim_file *)f)->real->pMethods->xDeviceCharacteristics(((shim_file *)f)->real);
}

static int x_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out_flags)
{
    (void)vfs;
    shim_file *s = (shim_file *)f;
    s->real = (sqlite3_file *)(s + 1);
    memset(s->real, 0, (size_t)g_real->szOsFile);
    int rc = g_real->xOpen(g_real, name, s->real, flags, out_flags);
    /* Version 1 methods only: no shared memory (journal_mode=OFF) and no memory mapping. */
    s->base.pMethods = s->real->pMethods ? &g_io : NULL;
    return rc;
}
static int x_delete(sqlite3_vfs *v, const char *n, int sync) { (void)v; return g_real->xDelete(g_real, n, sync); }
static int x_access(sqlite3_vfs *v, const char *n, int flags, int *out)
{
    (void)v;
    return g_real->xAccess(g_real, n, flags, out);
}
static int x_fullpath(sqlite3_vfs *v, const char *n, int len, char *out)
{
    (void)v;
    return g_real->xFullPathname(g_real, n, len, out);
}
static int x_random(sqlite3_vfs *v, int n, char *out) { (void)v; return g_real->xRandomness(g_real, n, out); }
static int x_sleep(sqlite3_vfs *v, int us) { (void)v; return g_real->xSleep(g_real, us); }
static int x_time(sqlite3_vfs *v, double *t) { (void)v; return g_real->xCurrentTime(g_real, t); }
static int x_lasterr(sqlite3_vfs *v, int n, char *out)
{
    (void)v;
    return g_real->xGetLastError ? g_real->xGetLastError(g_real, n, out) : 0;
}

const char *evt_out_sqlite_vfs(void)
{
    if (!evt_out_armed_()) return NULL;
    if (!g_real) {
        sqlite3_vfs *real = sqlite3_vfs_find(NULL);
        if (!real) return NULL;
        g_real = real;
        g_io = (sqlite3_io_methods){1, x_close, x_read, x_write, x_truncate, x_sync, x_size, x_lock, x_unlock,
                                    x_reserved, x_fcntl, x_sector, x_devchar};
        g_vfs = (sqlite3_vfs){1, (int)sizeof(shim_file) + real->szOsFile, real->mxPathname, NULL, SHIM_NAME, NULL,
                              x_open, x_delete, x_access, x_fullpath, NULL, NULL, NULL, NULL,
                              x_random, x_sleep, x_time, x_lasterr};
        if (sqlite3_vfs_register(&g_vfs, 0) != SQLITE_OK) { g_real = NULL; return NULL; }
    }
    return SHIM_NAME;
}
