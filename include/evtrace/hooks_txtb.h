/* Inline gate of the TXTB backend of the generic kernel hooks (evtrace/hooks.h): a service-call or
 * user hook is recorded only when the TXTB recorder is on and its filter bit is set. One relaxed
 * load of the recorder's gate word (evtrace/recorder.h), no call, no clock read. The id -> filter
 * bit rule is the recorder's (txtb.h: ids 191/192 are INTERNAL, user events USER). */
#ifndef EVTRACE_HOOKS_TXTB_H
#define EVTRACE_HOOKS_TXTB_H

#include "evtrace/txtb.h"

#define EVT_HOOK_GATE_SVC_txtb()  ((EVT_LOAD_RLX(&evt_tx_hot_.gate.bits) & EVT_TX_TRACE_INTERNAL_EVENTS) != 0u)
#define EVT_HOOK_GATE_USER_txtb() ((EVT_LOAD_RLX(&evt_tx_hot_.gate.bits) & EVT_TX_TRACE_USER_EVENTS) != 0u)

#endif
