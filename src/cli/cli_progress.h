/* A progress line on stderr for long runs (convert, report, query): shown only when stderr is a
 * terminal (or EVT_PROGRESS=1 forces it; EVT_PROGRESS=0 or -q turns it off), after the first
 * second (EVT_PROGRESS_AFTER_MS=N: after N ms), redrawn at most 5 times a second: "[#####-----]  45%  12.3M events  1.2M ev/s". The
 * percentage comes from the byte offset of the event in the input, when it is within the file. */
#ifndef EVT_CLI_PROGRESS_H
#define EVT_CLI_PROGRESS_H

#include <stdint.h>
#include "evtrace/reader.h"

typedef struct cli_progress {
    int on;              /* drawing enabled */
    int drawn;           /* a line is on the screen */
    int forced;          /* EVT_PROGRESS=1 */
    const char *what;    /* command name shown at the start */
    uint64_t size;       /* input size in bytes (0: no percentage) */
    uint64_t start_ns, last_ns;
    uint64_t n;          /* events seen */
    uint64_t after_ns;   /* first drawing after this long (1 s; EVT_PROGRESS_AFTER_MS for tests) */
} cli_progress;

/* Start; `quiet` (-q) disables it. */
void cli_progress_init(cli_progress *p, const char *what, const evt_reader *r, int quiet);
/* After each event (cheap: looks at the clock every 65536 events). */
void cli_progress_tick(cli_progress *p, const evt_event *ev);
/* Erase the line. */
void cli_progress_done(cli_progress *p);

#endif
