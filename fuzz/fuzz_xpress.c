/* libFuzzer target of the MS-XCA plain LZ77 (XPRESS) decompressor on its own
 * (src/formats/etw/xpress_dec.c). Input: u16 LE output room, then the compressed bytes. The
 * output is an exact-size heap block, so a write past it is an ASan report; the documented
 * results (*out_len <= out_cap, *err_pos <= in_len) are checked. */
#include <stdlib.h>
#include "fuzz_common.h"
#include "formats/etw/xpress.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    size_t cap = (size_t)data[0] | ((size_t)data[1] << 8);
    uint8_t *out = malloc(cap ? cap : 1);
    if (!out) return 0;
    size_t n = (size_t)-1, ep = (size_t)-1;
    etw_xpress_status st = etw_xpress_decompress(data + 2, size - 2, out, cap, &n, &ep);
    if (n > cap || ep > size - 2) abort();
    if (st == ETW_XPRESS_OK && ep != size - 2) abort();
    if (!etw_xpress_message(st)) abort();
    /* NULL err_pos is allowed too */
    etw_xpress_decompress(data + 2, size - 2, out, cap, &n, NULL);
    free(out);
    return 0;
}
