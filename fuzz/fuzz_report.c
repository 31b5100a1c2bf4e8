/* libFuzzer target of the HTML report (evt_report_add / evt_report_write, through the timeline),
 * fed from a reader decoding the input (selector byte 0 picks the format; fuzz_common.h). The
 * page is written to memory and checked: the inline data JSON (<script type="application/json">)
 * holds no "</" nor "<!--" that could end or change the script element, whatever names the input
 * carries, and the page is complete. */
#include <stdlib.h>
#include "fuzz_common.h"
#include "evtrace/alloc.h"
#include "host/report/report.h"

static const char k_open[] = "<script type=\"application/json\" id=\"evt-data\">";

static void check_page(const char *page, size_t len)
{
    if (!page || strlen(page) != len) abort(); /* no NUL byte inside the page */
    const char *js = strstr(page, k_open);
    if (!js) abort();
    js += sizeof k_open - 1;
    const char *end = strstr(js, "</script>");
    if (!end) abort();
    for (const char *p = js; p < end; p++)
        if (*p == '<' && (p[1] == '/' || p[1] == '!')) abort(); /* "</" or "<!--" inside the JSON */
    if (!strstr(end, "</body></html>")) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    evt_reader *r = fuzz_open_selected(data, size);
    if (!r) return 0;
    evt_report_info info = {r->desc->name, "<fuzz>", r->clock_hz, NULL, NULL};
    evt_report *rep = evt_report_new(&info);
    if (rep) {
        evt_event ev;
        unsigned long n = 0;
        while (n++ < FUZZ_MAX_EVENTS && evt_reader_next(r, &ev) == EVT_OK && evt_report_add(rep, &ev)) {}
        char *page = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&page, &len);
        if (out) {
            int ok = evt_report_write(rep, out, r->errors);
            fclose(out);
            if (ok) check_page(page, len);
            free(page);
        }
        evt_report_free(rep);
    }
    evt_reader_close(r);
    return 0;
}
