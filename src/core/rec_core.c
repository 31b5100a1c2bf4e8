/* Recorder core, out-of-line parts: gate publication and snapshots, the loss account's reset and
 * stats, the clock's set-up. Freestanding C99: no libc. Hot-path parts: evtrace/recorder.h. */
#include "evtrace/recorder.h"

void evt_gate_publish(evt_gate *g, uint32_t bits, uint32_t on)
{
    uint32_t n = g->gen;
    EVT_STORE_RLX(&g->gen, n + 1u);
    EVT_STORE_REL(&g->on, on);
    EVT_STORE_REL(&g->bits, on ? bits : 0u);
    EVT_STORE_REL(&g->gen, n + 2u);
}

void evt_gate_set_bits(evt_gate *g, uint32_t bits)
{
    if (EVT_LOAD_RLX(&g->on)) evt_gate_publish(g, bits, 1u);
}

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

void evt_clock_init(evt_clock *c, evt_clock_fn fn, void *user, unsigned bits)
{
    if (!fn) bits = evt_port_timestamp_bits();
    c->fn = fn;
    c->user = user;
    c->mask = (bits == 0u || bits >= 64u) ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1u);
    c->last = 0;
}
