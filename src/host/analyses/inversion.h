/* Priority inversions (analyses.h): a context H blocked on a mutex held by a lower-priority
 * context L while a context M of a priority between the two runs.
 *
 * From the raw events' meaning (the timeline has no mutex ownership): an acquire is an event whose
 * m.op is EVT_OP_ACQUIRE, a release EVT_OP_RELEASE, on the object m.obj (the reader decides that
 * from its kernel profile, for any kernel). The holder of a mutex: the acquire's recorded owner
 * (EVT_M_OWNER: the owner before the call, 0 = free) when the reader gives one, else the context
 * of the last acquire of a free mutex; a release frees it (when its recorded ownership count, if
 * any, is 1); a context woken from a wait on the mutex holds it. Priorities: the timeline's latest
 * priority of the context (m.ctx_prio, else its priority word); order: evt_an_prio_order, whose
 * AUTO is the trace's own (evt_tl.higher_prio_wins: its kernel profile or --priority-order).
 * From the timeline: an acquire by H of a mutex held by L (priority of L lower than H's) is a
 * candidate; H's next blocked interval on that mutex is the wait [t0, t1). It is an inversion
 * when, during the wait, a context M whose priority lies strictly between L's and H's runs while
 * L is ready (M keeps the holder, and so H, from running): start t0, duration t1 - t0, the three
 * contexts, and middle_time, the time middle contexts ran while L was ready (the one that ran
 * longest is named). A holder that is itself blocked or asleep is not delayed by M: no inversion.
 * Intervals are kept per wait up to EVT_AN_INV_IVS each (more are counted in `truncated`).
 * Single-CPU reasoning: a middle context still running when the wait ends is not seen.
 * As RTOS users count them: every such wait is a *bounded* inversion (H waits on a lower holder:
 * what ThreadX's and FreeRTOS's inheritance counters count), listed in blist; the ones during
 * which a middle context ran are *unbounded* (count, list). Inheritances the kernel itself
 * recorded (m.op EVT_OP_INHERIT) are counted in inherits. */
#ifndef EVT_ANALYSIS_INVERSION_H
#define EVT_ANALYSIS_INVERSION_H

#include <stdint.h>
#include <stdio.h>
#include "host/timeline/timeline.h"
#include "host/u64map.h"

struct evt_json;

#define EVT_AN_MAX_INVERSIONS 1000  /* kept in the list; all are counted */
#define EVT_AN_INV_IVS 32           /* middle running / holder ready intervals kept per wait */

typedef struct evt_an_inv {
    uint64_t t0, t1;
    uint32_t high, low, mid;   /* context indices (low EVT_TL_NONE when its context never recorded) */
    uint64_t low_id;
    uint64_t prio_high, prio_low, prio_mid;
    uint64_t mid_time;         /* time middle contexts ran during the wait while low was ready */
    uint32_t obj;              /* the mutex (object index) */
} evt_an_inv;

/* A wait in progress: H acquired a held mutex. */
typedef struct evt_an_inv_cand {
    uint32_t high, obj, low;   /* low: EVT_TL_NONE when the holder never recorded an event */
    uint64_t mutex_id, low_id, t_get, prio_high, prio_low;
    uint32_t mid_ctx[EVT_AN_INV_IVS];      /* running intervals of middle-priority contexts */
    uint64_t mid_iv[EVT_AN_INV_IVS][2];
    uint32_t nmid;
    uint64_t low_ready[EVT_AN_INV_IVS][2]; /* the holder's ready intervals */
    uint32_t nready;
} evt_an_inv_cand;

typedef struct evt_an_inversion {
    int lower_wins;            /* 1: a lower number is a higher priority */
    int order_set;
    int order_fixed;           /* given by the configuration */
    evt_u64map holder;         /* mutex id -> slot in holders */
    uint64_t *holders;         /* holder context id + 1 (0 = free) */
    uint32_t nholders, holdcap;
    evt_an_inv_cand *cand;     /* open waits */
    uint32_t ncand, candcap;
    evt_an_inv *list;          /* unbounded inversions (a middle context ran) */
    uint32_t nlist, listcap;
    evt_an_inv *blist;         /* bounded inversions: every wait of a higher on a lower holder */
    uint32_t nblist, blistcap;
    uint64_t count, waits, unknown_prio;
    uint64_t inherits;         /* priority inheritances the kernel recorded (m.op inherit) */
    uint64_t truncated;        /* waits with more intervals than EVT_AN_INV_IVS */
    int oom;
} evt_an_inversion;

/* order: EVT_AN_PRIO_* of analyses.h (as int); auto is decided by the first event's format. */
void evt_an_inv_init(evt_an_inversion *v, int order);
void evt_an_inv_event(evt_an_inversion *v, const evt_tl *tl, const evt_event *ev, uint32_t ctx);
void evt_an_inv_state(evt_an_inversion *v, const evt_tl *tl, const evt_tl_state_iv *iv);
void evt_an_inv_json(const evt_an_inversion *v, const evt_tl *tl, struct evt_json *j);
void evt_an_inv_text(const evt_an_inversion *v, const evt_tl *tl, FILE *out);
void evt_an_inv_free(evt_an_inversion *v);

#endif
