/* TXTB backend of the generic kernel hooks (include/evtrace/hooks.h): the helpers a kernel port
 * uses besides the hooks themselves. Mapping of every hook to TXTB ids/fields: docs/hooks.md. */
#ifndef EVT_TXTB_HOOKS_H
#define EVT_TXTB_HOOKS_H

#include <stdint.h>
#include "evtrace/hooks.h"
#include "evtrace/hooks_backends.h" /* the public start calls */
#include "evtrace/txtb.h"

/* ThreadX thread state written in THREAD_SUSPEND info2 for a generic state (TX_READY 0,
 * TX_COMPLETED 1, TX_TERMINATED 2, TX_SUSPENDED 3, TX_SLEEP 4). X(generic NAME, ThreadX state) */
#define TXTB_HOOKS_STATE_MAP(X) \
    X(READY, 0)                 \
    X(WAITING, 4)               \
    X(SUSPENDED, 3)             \
    X(WAIT_SUSPENDED, 3)        \
    X(DORMANT, 1)               \
    X(DELETED, 2)

/* Generic object type -> ThreadX registry type, create id, delete id, tagged.
 * X(generic NAME, TXTB_OBJ_ type, create event, delete event, tag); 0 = no event. tag 1: the create
 * id names another type (a message buffer or a queue set is created as a ThreadX queue), so the
 * create record's info4 carries TXTB_HOOKS_OBJTYPE_TAG | the generic type (txtb_defs.h). */
#define TXTB_HOOKS_OBJ_MAP(X)                                      \
    X(THREAD,        THREAD,        100, 101, 0)                   \
    X(SEMAPHORE,     SEMAPHORE,     81,  82,  0)                   \
    X(MUTEX,         MUTEX,         50,  51,  0)                   \
    X(EVENT_FLAGS,   EVENT_FLAGS,   30,  31,  0)                   \
    X(MAILBOX,       QUEUE,         60,  61,  1)                   \
    X(MSGBUF,        QUEUE,         60,  61,  1)                   \
    X(QUEUE,         QUEUE,         60,  61,  0)                   \
    X(QUEUE_SET,     QUEUE,         60,  61,  1)                   \
    X(TIMER,         TIMER,         124, 126, 0)                   \
    X(MEMPOOL_FIXED, BLOCK_POOL,    11,  12,  0)                   \
    X(MEMPOOL_VAR,   BYTE_POOL,     21,  22,  0)                   \
    X(OTHER,         EVTRACE_HOOKS, 0,   0,   0)                   \
    X(INTERRUPT,     EVTRACE_HOOKS, 0,   0,   0)

#endif
