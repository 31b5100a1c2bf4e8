/* The report's user tracks (docs/report.md "User lanes"): channel marks with their printf text,
 * value samples, intervals and state-machine segments, from host/timeline/user_tracks.h, streamed
 * into temporary files like the timeline's columns and written as the data's "user" object:
 *   "user": {"names": [string, ...] (index = name id, 0 = ""),
 *            "marks":  [ch, t, ev, text]            stride 4 (ev: listed event index or -1)
 *            "values": [ch, t, value]               stride 3
 *            "ivs":    [ch, t0, t1, id, open_end]   stride 5
 *            "sms":    [sm, state, state_id, t0, t1, open_end]  stride 6}
 * Times are relative to the report's first event, like the other columns. */
#ifndef EVT_REPORT_USER_H
#define EVT_REPORT_USER_H

#include <stdint.h>
#include <stdio.h>
#include "evtrace/model.h"

typedef struct rp_user rp_user;
struct evt_report;

/* NULL when out of memory or temporary files cannot be made. */
rp_user *rp_user_new(void);
void rp_user_free(rp_user *u);
/* One event at timeline time t (base: the report's first time; ev_index: its index in the
 * event list, or -1). Returns 0 when out of memory. */
int rp_user_event(rp_user *u, const evt_event *ev, uint64_t t, uint64_t base, int64_t ev_index);
/* Close open intervals and states at t_end. */
void rp_user_finish(rp_user *u, uint64_t t_end, uint64_t base);
/* Write ,"user":{...} (escaped) to out. Returns 0 on an error. */
int rp_user_write(const rp_user *u, FILE *out);

#endif
