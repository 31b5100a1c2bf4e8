/* Recorder core: publishing the enable/filter gate (evtrace/recorder.h). The hot-path test is
 * inline in the header; these run inside the recorder's lock. Freestanding C99. */
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
