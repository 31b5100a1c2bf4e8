/* Recorder core: setting up the 64-bit clock (evtrace/recorder.h); reads are inline. A separate
 * file so an image that does not use it (TXTB uses evt_clock32) does not link it. C99. */
#include "evtrace/recorder.h"

void evt_clock_init(evt_clock *c, evt_clock_fn fn, void *user, unsigned bits)
{
    if (!fn) bits = evt_port_timestamp_bits();
    c->fn = fn;
    c->user = user;
    c->mask = (bits == 0u || bits >= 64u) ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1u);
    c->last = 0;
}
