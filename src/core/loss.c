/* Recorder core: the loss account's reset and a close's wait for racing drops
 * (evtrace/recorder.h). The per-record parts are inline in the header, the stats in
 * loss_stats.c (a recorder built without stats links no code for them). Freestanding C99. */
#include "evtrace/recorder.h"

void evt_loss_reset(evt_loss *l)
{
    /* Atomic stores for every member the stats read (evt_loss_stats): any context may read them
     * while a recorder is enabled or started again (C7; a signal handler on another thread read
     * them while TXTB's enable or XRay's start reset them: a data race under TSan). */
    EVT_STORE_RLX(&l->dropped, 0u);
    EVT_STORE_RLX(&l->overwritten, 0u);
    EVT_STORE_RLX(&l->repended, 0u);
    EVT_STORE_RLX(&l->reported, 0u);
    EVT_STORE_RLX(&l->written, 0u);
    EVT_STORE_RLX(&l->loss_records, 0u);
    EVT_STORE_RLX(&l->ow_stop, 0u);
    EVT_STORE_RLX(&l->ow_reported, 0u);
    l->owed = 0; /* the lock holder's only */
    EVT_STORE_RLX(&l->racing, 0u); /* a fresh account: no drop can be in flight against it */
}

#ifdef EVT_LOSS_RACES_
void evt_loss_close_wait(evt_loss *l)
{
    /* A read-modify-write, so that it is ordered after the caller's close in every context's view
     * (see evtrace/recorder.h); then acquire loads until the drops in flight are counted. */
    evt_rec_count n = __atomic_fetch_add(&l->racing, 0u, __ATOMIC_ACQ_REL);
    unsigned steps = 0;
    while (n != 0u && !evt_port_wait_step(&steps)) n = EVT_LOAD_ACQ(&l->racing);
}
#endif
