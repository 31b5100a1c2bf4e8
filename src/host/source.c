/* File and memory byte sources: readers read at offsets, so a file is never loaded whole. */
#include "evtrace/source.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

evt_status evt_source_open_file(evt_source *src, const char *path)
{
    memset(src, 0, sizeof *src);
    src->path = path;
    FILE *fp = fopen(path, "rb");
    if (!fp) return EVT_ERR_IO;
    struct stat st;
    if (fstat(fileno(fp), &st) != 0) { int e = errno; fclose(fp); errno = e; return EVT_ERR_IO; }
    if (!S_ISREG(st.st_mode)) { fclose(fp); errno = EISDIR; return EVT_ERR_IO; }
    src->fp = fp;
    src->size = (uint64_t)st.st_size;
    return EVT_OK;
}

void evt_source_from_mem(evt_source *src, const void *data, size_t len)
{
    memset(src, 0, sizeof *src);
    src->mem = data;
    src->size = len;
    src->path = "<memory>";
}

size_t evt_source_read_at(const evt_source *src, uint64_t off, void *dst, size_t n)
{
    if (off >= src->size) return 0;
    if (n > src->size - off) n = (size_t)(src->size - off);
    if (src->mem) {
        memcpy(dst, src->mem + off, n);
        return n;
    }
    if (!src->fp || fseeko(src->fp, (off_t)off, SEEK_SET) != 0) return 0;
    return fread(dst, 1, n, src->fp);
}

void evt_source_close(evt_source *src)
{
    if (src->fp) fclose(src->fp);
    src->fp = NULL;
}
