/* User tracks: what the views draw for application events, derived once from the typed meaning
 * (model.h) and handed to a sink, so no view pairs anything itself (like the timeline, which it
 * sits beside):
 *  - a mark per user event on its channel (m.label), with its printf text (EVT_M_TEXT) if any;
 *  - a sample per value event (EVT_M_VALUE) on its channel;
 *  - an interval per begin/end pair of a channel and id (EVT_M_INTERVAL), closed at the end, or
 *    at finish (open_end) when its end never came; an end without its begin is counted;
 *  - a state segment per state-machine state (EVT_M_SM_STATE: user machines and RKH's), from the
 *    event that entered it to the next state of the same machine, or to finish (open_end).
 * Memory grows with channels, machines and open intervals, never with events. Times are the
 * caller's (the timeline's unit). */
#ifndef EVT_TIMELINE_USER_TRACKS_H
#define EVT_TIMELINE_USER_TRACKS_H

#include <stdint.h>
#include "evtrace/model.h"
#include "host/strtab.h"
#include "host/u64map.h"

#define EVT_UT_MAX_OPEN 65536u /* open intervals kept; older ones are closed as truncated */

typedef struct evt_ut_sink {
    void *user;
    /* ch: channel id (1..) in evt_ut.names; text NULL when the event has none */
    void (*mark)(void *user, uint32_t ch, uint64_t t, const char *text, const evt_event *ev);
    void (*value)(void *user, uint32_t ch, uint64_t t, int64_t v, const evt_event *ev);
    void (*interval)(void *user, uint32_t ch, uint64_t id, uint64_t t0, uint64_t t1, int open_end);
    /* sm: machine name id; state: its name id (0: unnamed, then state_id says which) */
    void (*state)(void *user, uint32_t sm, uint64_t sm_obj, uint32_t state, uint64_t state_id, uint64_t t0,
                  uint64_t t1, int open_end);
} evt_ut_sink;

typedef struct evt_ut_open {
    uint32_t ch;
    uint64_t id, t0;
    uint8_t used;
} evt_ut_open;

typedef struct evt_ut_sm {
    uint64_t obj;        /* the machine (m.obj) */
    uint32_t name;       /* its name id */
    uint32_t state;      /* current state's name id */
    uint64_t state_id;
    uint64_t t0;
    int active;
} evt_ut_sm;

typedef struct evt_ut {
    evt_ut_sink sink;
    evt_strtab names;          /* channel, machine and state names */
    evt_u64map open_by_key;    /* (ch, id) hash -> index in open[] + 1 ... see user_tracks.c */
    evt_ut_open *open;
    uint32_t nopen, capopen;
    evt_ut_sm *sms;
    uint32_t nsms, capsms;
    evt_u64map sm_by_obj;
    uint64_t last_t;
    uint64_t marks, values, intervals, states;
    uint64_t unmatched_ends;   /* interval ends without a begin */
    uint64_t dropped_open;     /* intervals closed early because EVT_UT_MAX_OPEN were open */
    int oom;
} evt_ut;

/* Zero-initialise, then set the sink. */
void evt_ut_init(evt_ut *u, const evt_ut_sink *sink);
/* One event at time t (any kind: only user meaning is read). Returns 0 when out of memory. */
int evt_ut_event(evt_ut *u, const evt_event *ev, uint64_t t);
/* Close what is open at time t_end (open_end). */
void evt_ut_finish(evt_ut *u, uint64_t t_end);
void evt_ut_free(evt_ut *u);
/* Whether an event carries anything for the user tracks. */
int evt_ut_relevant(const evt_event *ev);

#endif
