/* The self-contained HTML report (`evtrace report`): one page with inline CSS, SVG and a little
 * JS, no network: a timeline per context (CPU time per bin), a load chart, latency charts and the
 * stats tables, plus the stats JSON embedded as <script type="application/json" id="stats">. */
#ifndef EVT_ANALYSIS_REPORT_H
#define EVT_ANALYSIS_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include "stats.h"

/* Write the report of finished stats `s` (timeline enabled) to out. `format`/`file` describe the
 * input, `errors`/`lost` come from the reader. Returns 0 on a write error. */
int evt_report_write(FILE *out, evt_stats *s, const char *format, const char *file, uint64_t errors);

#endif
