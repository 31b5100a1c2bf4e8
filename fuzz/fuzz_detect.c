/* libFuzzer target of format auto-detection: every reader's probe on the input's head (as a file
 * or memory block, where the size is known, and as a stream, where it is 0), evt_reader_detect
 * agreeing with the highest probe, then opening the winner on the bytes and reading a few events. */
#include <stdlib.h>
#include "fuzz_common.h"

#define HEAD 4096u /* what the host hands the probes (reader.c PROBE_HEAD, source.c STREAM_HEAD) */
#define FEW_EVENTS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t len = size < HEAD ? size : HEAD;
    const uint64_t sizes[2] = {size, 0};
    for (int k = 0; k < 2; k++) {
        int best = 0;
        for (size_t i = 0; i < evt_reader_count(); i++) {
            const evt_reader_desc *d = evt_reader_at(i);
            int c = d->probe ? d->probe(data, len, sizes[k]) : 0;
            if (c < 0 || c > 100) abort(); /* confidence is 0..100 */
            if (c > best) best = c;
        }
        const evt_reader_desc *w = evt_reader_detect(data, len, sizes[k]);
        if ((w == NULL) != (best == 0)) abort();
        if (w && w->probe(data, len, sizes[k]) != best) abort();
    }
    evt_reader *r = NULL;
    char err[256] = "";
    evt_status st = evt_reader_open_mem(data, size, NULL, NULL, NULL, NULL, &r, err, sizeof err);
    if (st != EVT_OK) {
        if (r || !err[0]) abort(); /* a failed open leaves no reader and says why */
        return 0;
    }
    evt_event ev;
    for (int n = 0; n < FEW_EVENTS && evt_reader_next(r, &ev) == EVT_OK; n++) {}
    evt_reader_close(r);
    return 0;
}
