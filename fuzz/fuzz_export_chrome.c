/* libFuzzer target of the chrome exporter fed from a reader decoding the input (fuzz_export.h);
 * the file it writes must be well-formed JSON whatever names and values the input carries. */
#include <stdlib.h>
#include "fuzz_export.h"
#include "json_check.h"

static void check_json(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) abort();
    char *buf = NULL;
    size_t len = 0, cap = 0, n;
    char chunk[65536];
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + n > cap) {
            cap = (len + n) * 2;
            char *nb = realloc(buf, cap);
            if (!nb) abort();
            buf = nb;
        }
        memcpy(buf + len, chunk, n);
        len += n;
    }
    fclose(f);
    if (!json_check_doc(buf ? buf : "", len)) abort(); /* the exporter wrote malformed JSON */
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_export(data, size, "chrome", NULL, check_json);
    return 0;
}
