/* libFuzzer target of `stats` with the analyses (evt_stats + evt_stats_enable_analyses: the
 * timeline, load windows, response times, inversions, object history, stacks), fed from a reader
 * decoding the input (selector byte 0 picks the format; fuzz_common.h). The JSON and the text are
 * written to memory; the JSON must be one well-formed document (json_check.h). */
#include <stdlib.h>
#include "fuzz_common.h"
#include "json_check.h"
#include "evtrace/json.h"
#include "host/analyses/analyses.h"
#include "host/analyses/stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    evt_reader *r = fuzz_open_selected(data, size);
    if (!r) return 0;
    evt_stats s;
    /* a small window: many windows, merged past the limit */
    evt_an_config cfg = {size & 1 ? 1 : 0, 0, EVT_AN_PRIO_AUTO};
    if (evt_stats_init(&s, r->clock_hz) && evt_stats_enable_analyses(&s, &cfg)) {
        evt_event ev;
        unsigned long n = 0;
        while (n++ < FUZZ_MAX_EVENTS && evt_reader_next(r, &ev) == EVT_OK) {
            if (s.events == 0 && r->clock_hz) s.clock_hz = r->clock_hz;
            evt_stats_add(&s, &ev);
        }
        evt_stats_finish(&s);
        char *doc = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&doc, &len);
        if (out) {
            evt_json j;
            evt_json_init(&j, out, 0);
            evt_stats_json(&s, &j, r->desc->name, "<fuzz>", r->errors);
            fclose(out);
            if (doc && !json_check_doc(doc, len)) abort();
            free(doc);
        }
        out = fopen("/dev/null", "w");
        if (out) {
            evt_stats_text(&s, out, r->desc->name, "<fuzz>", r->errors);
            fclose(out);
        }
    }
    evt_stats_free(&s);
    evt_reader_close(r);
    return 0;
}
