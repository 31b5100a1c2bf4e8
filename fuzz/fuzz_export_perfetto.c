/* libFuzzer target of the perfetto exporter fed from a reader decoding the input (fuzz_export.h);
 * the file it writes must be a well-formed Trace message (pb_check.h). */
#include <stdlib.h>
#include "fuzz_export.h"
#include "pb_check.h"

static void check_trace(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) abort();
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0, n;
    uint8_t chunk[65536];
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + n > cap) {
            cap = (len + n) * 2;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) abort();
            buf = nb;
        }
        memcpy(buf + len, chunk, n);
        len += n;
    }
    fclose(f);
    if (buf && !pb_check_msg(buf, buf + len, 1)) abort(); /* the exporter wrote a malformed trace */
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_export(data, size, "perfetto", NULL, check_trace);
    return 0;
}
