/* Input files as readers see them: a raw file read in place (from --offset on), or an Intel HEX /
 * S-record dump decoded into its memory image (from --base-address or the lowest address, then
 * --offset on). The container is told by the first bytes (evt_dump_detect). */
#include "evtrace/source.h"

#include <errno.h>
#include <string.h>
#include "evtrace/alloc.h"

#define DETECT_HEAD 256u
#define DUMP_TEXT_MAX ((uint64_t)1u << 30) /* larger text dumps are refused, not loaded */

/* Read the whole (text) file into memory. */
static evt_status slurp(FILE *fp, uint64_t size, uint8_t **out, char *err, size_t errlen)
{
    if (size > DUMP_TEXT_MAX) {
        snprintf(err, errlen, "text dump of %llu bytes is larger than the %llu MiB accepted",
                 (unsigned long long)size, (unsigned long long)(DUMP_TEXT_MAX >> 20));
        return EVT_ERR_USAGE;
    }
    uint8_t *buf = evt_malloc(size ? (size_t)size : 1);
    if (!buf) { snprintf(err, errlen, "out of memory"); return EVT_ERR_NOMEM; }
    if (fseeko(fp, 0, SEEK_SET) != 0 || fread(buf, 1, (size_t)size, fp) != size) {
        snprintf(err, errlen, "read error: %s", strerror(errno));
        evt_free(buf);
        return EVT_ERR_IO;
    }
    *out = buf;
    return EVT_OK;
}

static evt_status open_dump(evt_source *src, evt_dump_kind kind, const evt_input_opts *o, char *err,
                            size_t errlen)
{
    uint8_t *text = NULL;
    evt_status st = slurp(src->fp, src->size, &text, err, errlen);
    if (st != EVT_OK) return st;
    evt_mem_image img;
    uint64_t start = o->has_base_address ? o->base_address : UINT64_MAX;
    st = kind == EVT_DUMP_IHEX ? evt_ihex_decode(text, (size_t)src->size, start, &img, err, errlen)
                               : evt_srec_decode(text, (size_t)src->size, start, &img, err, errlen);
    evt_free(text);
    if (st == EVT_ERR_NOMEM) snprintf(err, errlen, "out of memory");
    if (st != EVT_OK) return st;
    fclose(src->fp);
    src->fp = NULL;
    src->owned = img.data;
    src->mem = img.data;
    src->size = img.size;
    src->image_addr = img.base_addr;
    src->gap_bytes = img.gap_bytes;
    src->gaps = img.gaps;
    src->gap_addr = img.base_addr + img.gap_first;
    src->gap_len = img.gap_first_len;
    return EVT_OK;
}

evt_status evt_source_open_input(evt_source *src, const char *path, const evt_input_opts *opts, char *err,
                                 size_t errlen)
{
    static const evt_input_opts none;
    const evt_input_opts *o = opts ? opts : &none;
    err[0] = '\0';
    if (evt_source_open_file(src, path) != EVT_OK) {
        snprintf(err, errlen, "cannot open: %s", strerror(errno));
        return EVT_ERR_IO;
    }
    uint8_t head[DETECT_HEAD];
    size_t n = fread(head, 1, sizeof head, src->fp);
    src->dump = evt_dump_detect(head, n);
    evt_status st = EVT_OK;
    if (src->dump != EVT_DUMP_BINARY) {
        st = open_dump(src, src->dump, o, err, errlen);
    } else if (o->has_base_address) {
        snprintf(err, errlen, "--base-address needs an Intel HEX or S-record dump (this file is raw binary; "
                              "give --offset BYTES)");
        st = EVT_ERR_USAGE;
    }
    if (st == EVT_OK && o->offset) {
        if (o->offset >= src->size) {
            snprintf(err, errlen, "--offset %llu is at or past the end of the %s (%llu bytes)",
                     (unsigned long long)o->offset, src->dump == EVT_DUMP_BINARY ? "file" : "memory image",
                     (unsigned long long)src->size);
            st = EVT_ERR_USAGE;
        } else {
            src->size -= o->offset;
            src->image_addr += o->offset;
            if (src->mem) src->mem += o->offset;
            else src->file_off = o->offset;
        }
    }
    if (st != EVT_OK) evt_source_close(src);
    return st;
}
