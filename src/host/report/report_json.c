/* JSON inside the report page's <script> blocks: every '<' is written as \u003c (JSON has '<'
 * only inside strings), so no name in a trace can close the script element ("</script") or open
 * an HTML comment. Used by report_data.c and report_page.c (which call nothing of each other
 * but report_page.c -> rp_write_data). */
#include "host/report/report_impl.h"

#include <stdlib.h>

void rp_put_json(FILE *o, const char *s, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '<') continue;
        fwrite(s + run, 1, i - run, o);
        fputs("\\u003c", o);
        run = i + 1;
    }
    fwrite(s + run, 1, n - run, o);
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
