/* Recorder core: publishing the enable/filter gate (evtrace/recorder.h). The hot-path test is
 * inline in the header; these run inside the recorder's lock. Freestanding C99.
 *
 * A publish may be nested in another one of the same context: on a port whose lock a handler on
 * the holder's thread re-enters (POSIX, P2), a filter call from a signal handler can land inside
 * the thread's own enable or filter change. Nested contexts run to completion, so:
 *  - the sequence count only grows (read-modify-writes): a nested publish that lands before the
 *    outer one made it odd completes a whole update first; one that finds it odd (inside the
 *    outer update) adds 2, so it stays odd until the outer one ends it; a snapshot that reads the
 *    same even count twice saw no update at all;
 *  - the values an outer publish stores may be stale once a nested one changed the recorder's
 *    state after the outer caller read it: the caller re-reads its state after publishing and
 *    publishes again until it is unchanged (TXTB: publish_state in txtb_enc.c). */
#include "evtrace/recorder.h"

#if defined(__GNUC__) || defined(__clang__)
#define GATE_ADD_REL(p, v) ((void)__atomic_fetch_add((p), (v), __ATOMIC_RELEASE))
#else
#define GATE_ADD_REL(p, v) EVT_ADD_RLX(p, v)
#endif

void evt_gate_publish(evt_gate *g, uint32_t bits, uint32_t on)
{
#if EVT_PORT_LOCK_MAY_FAIL
    /* The lock can be re-entered by a nested context (only ports whose lock may fail are such). */
    uint32_t nested = EVT_LOAD_RLX(&g->gen) & 1u;
    EVT_ADD_RLX(&g->gen, nested ? 2u : 1u);
    EVT_STORE_REL(&g->on, on);
    EVT_STORE_REL(&g->bits, on ? bits : 0u);
    if (!nested) GATE_ADD_REL(&g->gen, 1u);
#else
    /* The lock masks every context that could publish (Cortex-M): no nesting, plain stores. */
    uint32_t n = g->gen;
    EVT_STORE_RLX(&g->gen, n + 1u);
    EVT_STORE_REL(&g->on, on);
    EVT_STORE_REL(&g->bits, on ? bits : 0u);
    EVT_STORE_REL(&g->gen, n + 2u);
#endif
}

void evt_gate_set_bits(evt_gate *g, uint32_t bits)
{
    if (EVT_LOAD_RLX(&g->on)) evt_gate_publish(g, bits, 1u);
}
