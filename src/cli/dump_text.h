/* One event as a line of `evtrace dump` (dump_text.c). */
#ifndef EVT_CLI_DUMP_TEXT_H
#define EVT_CLI_DUMP_TEXT_H

#include <stdio.h>
#include "evtrace/model.h"

/* The line of ev, newline included, written to o: the time in seconds (when the clock is known,
 * %6llu.%09llus), the ticks (%12llu), the context (its name's first 20 bytes, 0x<id> or -, padded
 * to 20), the name (padded to 28), lost=N, the args (0x<hex>), [target name], the fields
 * (key=value) and the text ("...", to its first NUL) or data[N]: printf's text for each, built
 * without printf and written with one fwrite (more when the line is longer than 4 KiB). */
void cli_dump_text(FILE *o, const evt_event *ev);

#endif
