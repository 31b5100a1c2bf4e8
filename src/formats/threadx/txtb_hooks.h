/* TXTB backend of the generic kernel hooks (include/evtrace/hooks.h): the helpers a kernel port
 * uses besides the hooks themselves. Mapping of every hook to TXTB ids/fields: docs/hooks.md. */
#ifndef EVT_TXTB_HOOKS_H
#define EVT_TXTB_HOOKS_H

#include <stdint.h>
#include "evtrace/hooks.h"
#include "evtrace/hooks_backends.h" /* the public start calls */
#include "evtrace/txtb.h"
#include "formats/threadx/txtb_hooks_objmap.h"

/* ThreadX thread state written in THREAD_SUSPEND info2 for a generic state (TX_READY 0,
 * TX_COMPLETED 1, TX_TERMINATED 2, TX_SUSPENDED 3, TX_SLEEP 4). X(generic NAME, ThreadX state) */
#define TXTB_HOOKS_STATE_MAP(X) \
    X(READY, 0)                 \
    X(WAITING, 4)               \
    X(SUSPENDED, 3)             \
    X(WAIT_SUSPENDED, 3)        \
    X(DORMANT, 1)               \
    X(DELETED, 2)

#endif
