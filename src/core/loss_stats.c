/* Recorder core: the loss account as evt_rec_stats (evtrace/recorder.h). A file of its own, so that
 * a recorder built without its stats calls (TXTB: EVT_TX_STATS 0) links none of this code.
 * Freestanding C99. */
#include "evtrace/recorder.h"

void evt_loss_stats(const evt_loss *l, evt_rec_stats *out)
{
    evt_rec_count dropped = EVT_LOAD_RLX(&l->dropped);
    evt_rec_count overwritten = EVT_LOAD_RLX(&l->overwritten);
    evt_rec_count repended = EVT_LOAD_RLX(&l->repended);
    evt_rec_count reported = EVT_LOAD_RLX(&l->reported);
    evt_rec_count ow_stop = EVT_LOAD_RLX(&l->ow_stop);
    evt_rec_count ow_reported = EVT_LOAD_RLX(&l->ow_reported);
    out->written = EVT_LOAD_RLX(&l->written);
    out->dropped = dropped;
    out->overwritten = (evt_rec_count)(overwritten + ow_stop);
    out->pending = (evt_rec_count)(dropped + overwritten + repended - reported) +
                   (evt_rec_count)(ow_stop - ow_reported);
    out->loss_records = EVT_LOAD_RLX(&l->loss_records);
    out->lost_reported = (evt_rec_count)(reported - repended + ow_reported);
}
