/* The details panel's text of one event (report_fields.c). */
#ifndef EVT_REPORT_FIELDS_H
#define EVT_REPORT_FIELDS_H

#include <stddef.h>
#include "evtrace/model.h"

/* The event's fields as one line of tab-separated "key=value" pairs into b (n >= 1 bytes,
 * NUL-terminated): id, cpu, prio, seq, count, target, the reader's fields, args (hex), then the
 * text (its first 200 bytes, to a NUL) or the data's size. Longer than n - 1 bytes: its first
 * n - 1 bytes with the last three replaced by "..." (n > 4). */
void rp_field_text(const evt_event *ev, char *b, size_t n);

#endif
