/* ETW recorder: the optional calls, in their own object so that an image that does not call them
 * does not link them (the text-size figures in docs/etw.md): the session counters (QueryTrace),
 * the provider's enable state (GetTraceEnableLevel/Flags, the event filter) and evt_etw_write as
 * a function (for callers that take its address; the macro in evtrace/etw.h inlines it).
 * Freestanding: no libc. */
#include "evtrace/etw.h"

#include "evtrace/recorder.h"
#include "formats/etw/etw_enc_int.h"

void evt_etw_session_stats(const evt_etw_session *s, evt_etw_stats *out)
{
    if (!out) return;
    if (!s) {
        out->events = out->events_lost = out->buffers_written = out->buffers_lost = out->buffers_overwritten = 0;
        return;
    }
    out->events = EVT_LOAD_RLX(&s->loss.written) + evt_etw_owned_written_(s);
    out->events_lost = EVT_LOAD_RLX(&s->loss.dropped);
    /* (the lock holder's counters, read without the lock from any context: relaxed loads) */
    out->buffers_written = 1u + EVT_LOAD64_RLX(&s->data_written);
    out->buffers_lost = EVT_LOAD64_RLX(&s->buffers_lost);
    out->buffers_overwritten = EVT_LOAD64_RLX(&s->overwritten);
}

void evt_etw_get_rec_stats(const evt_etw_session *s, evt_rec_stats *out)
{
    if (!out) return;
    if (!s) {
        uint8_t *z = (uint8_t *)out; /* (a loop: no memset in a freestanding image) */
        for (uint32_t i = 0; i < (uint32_t)sizeof *out; i++) z[i] = 0;
        return;
    }
    evt_loss_stats(&s->loss, out);
    out->written += evt_etw_owned_written_(s);
}

uint8_t evt_etw_enable_level(const evt_etw_provider *p) { return p && evt_gate_bits(&p->gate) ? EVT_LOAD_RLX(&p->level) : 0; }
uint32_t evt_etw_enable_flags(const evt_etw_provider *p)
{
    return p && evt_gate_bits(&p->gate) ? (uint32_t)EVT_LOAD64_RLX(&p->match_any) : 0;
}

int evt_etw_event_enabled(const evt_etw_provider *p, uint8_t level, uint64_t keyword)
{
    return p && evt_etw_event_enabled_inline(p, level, keyword);
}

uint32_t (evt_etw_write)(evt_etw_provider *p, uint64_t keyword, const evt_etw_trace_header *hdr, const void *payload)
{
    return evt_etw_write(p, keyword, hdr, payload); /* the inline-gated macro (etw.h) */
}
