/* libFuzzer target of the XRay instrumentation-map reader (xray_map_load,
 * src/formats/xray/xray_map_host.c) in both forms. Selector byte 0: even = YAML (the rest of the
 * input as text; a leading 0x7f becomes a space so the YAML path runs), odd = ELF (the rest
 * after the "\x7fELF" magic the harness puts first). The file goes to a tmpfs scratch path; the
 * loaded map must be sorted by id and answer lookups. */
#include <stdlib.h>
#include "fuzz_common.h"
#include "formats/xray/xray_map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const int elf = data[0] & 1;
    const char *path = fuzz_scratch_path(".xray-map");
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    size_t from = 1;
    if (elf) fwrite("\x7f" "ELF", 1, 4, f);
    else if (size > 1 && data[1] == 0x7f) { fputc(' ', f); from = 2; }
    if (size > from) fwrite(data + from, 1, size - from, f);
    if (fclose(f) != 0) { fuzz_remove(path); return 0; }

    xray_map m;
    memset(&m, 0, sizeof m);
    char err[256] = "";
    if (xray_map_load(&m, path, err, sizeof err) == 0) {
        for (uint32_t i = 1; i < m.n; i++)
            if (m.fn[i - 1].id >= m.fn[i].id) abort(); /* sorted, duplicates merged */
        for (uint32_t i = 0; i < m.n && i < 64; i++) (void)xray_map_name(&m, m.fn[i].id);
        (void)xray_map_name(&m, 0);
        (void)xray_map_name(&m, UINT32_MAX);
        xray_map_free(&m);
    } else if (!err[0]) {
        abort();
    }
    fuzz_remove(path);
    return 0;
}
