/* JSON inside the report page's <script> blocks: every '<' is written as \u003c (JSON has '<'
 * only inside strings), so no name in a trace can close the script element ("</script") or open
 * an HTML comment. Used by report_data.c and report_page.c (which call nothing of each other
 * but report_page.c -> rp_write_data). */
#include "host/report/report_impl.h"

#include <stdlib.h>
#include <string.h>

void rp_put_json(FILE *o, const char *s, size_t n)
{
    const char *p = s, *end = s + n, *lt;
    while ((lt = memchr(p, '<', (size_t)(end - p))) != NULL) {
        fwrite(p, 1, (size_t)(lt - p), o);
        fputs("\\u003c", o);
        p = lt + 1;
    }
    fwrite(p, 1, (size_t)(end - p), o);
}

int rp_json_escaped(FILE *o, const evt_report *r, rp_json_fn write, const void *arg)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    if (!m) return 0;
    evt_json j;
    evt_json_init(&j, m, 0);
    write(r, &j, arg);
    int ok = fclose(m) == 0;
    if (ok) rp_put_json(o, buf, n);
    free(buf);
    return ok;
}
