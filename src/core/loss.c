/* Recorder core: the loss account's reset and its stats (evtrace/recorder.h). The per-record
 * parts are inline in the header. Freestanding C99. */
#include "evtrace/recorder.h"

void evt_loss_reset(evt_loss *l)
{
    EVT_STORE_RLX(&l->dropped, 0u);
    l->overwritten = 0;
    l->repended = 0;
    l->reported = 0;
    l->written = 0;
    l->loss_records = 0;
    l->ow_stop = 0;
    l->ow_reported = 0;
    l->owed = 0;
}

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
