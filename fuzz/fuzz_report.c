/* libFuzzer target of the HTML report (evt_report_write over the stats engine with its timeline),
 * fed from a reader decoding the input (selector byte 0 picks the format; fuzz_common.h). The
 * page goes to /dev/null. */
#include <stdlib.h>
#include "fuzz_common.h"
#include "host/analysis/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    evt_reader *r = fuzz_open_selected(data, size);
    if (!r) return 0;
    evt_stats s;
    if (evt_stats_init(&s, r->clock_hz)) {
        evt_stats_enable_timeline(&s);
        evt_event ev;
        unsigned long n = 0;
        while (n++ < FUZZ_MAX_EVENTS && evt_reader_next(r, &ev) == EVT_OK) evt_stats_add(&s, &ev);
        if (r->clock_hz) s.clock_hz = r->clock_hz;
        evt_stats_finish(&s);
        FILE *out = fopen("/dev/null", "w");
        if (out) {
            evt_report_write(out, &s, r->desc->name, "<fuzz>", r->errors);
            fclose(out);
        }
        evt_stats_free(&s);
    }
    evt_reader_close(r);
    return 0;
}
