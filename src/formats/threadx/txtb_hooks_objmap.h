/* The TXTB hooks backend's map of generic object types (evtrace/hooks_defs.h EVT_HOOK_OBJ_*) to
 * ThreadX registry types and create/delete event ids: ONE table, read by the writer
 * (txtb_hooks_enc.c) and by the reader (txtb_dec.c). No recorder dependency, so
 * host code includes it. */
#ifndef EVT_TXTB_HOOKS_OBJMAP_H
#define EVT_TXTB_HOOKS_OBJMAP_H

#include <stdint.h>
#include "evtrace/hooks_defs.h"
#include "formats/threadx/txtb_defs.h"

/* Generic object type -> ThreadX registry type, create id, delete id, tagged.
 * X(generic NAME, TXTB_OBJ_ type, create event, delete event, tag); 0 = no event. tag 1: the create
 * and delete ids name another type (a message buffer or a queue set is created as a ThreadX queue),
 * so those records' info4 carries TXTB_HOOKS_OBJTYPE_TAG | the generic type (txtb_defs.h). */
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

/* The registry type (TXTB_OBJ_*) an object of generic type t is registered with (the map above);
 * TXTB_OBJ_EVTRACE_HOOKS for a type it lacks. The writer's registration and the reader's test that
 * an entry names an object of t's kind (txtb_dec.c) both use it. */
static inline uint8_t txtb_hooks_entry_type(evt_hook_obj t)
{
    switch (t) {
#define TXTB_HO_TYPE_(n, txt, cr, de, tag) \
    case EVT_HOOK_OBJ_##n: return TXTB_OBJ_##txt;
        TXTB_HOOKS_OBJ_MAP(TXTB_HO_TYPE_)
#undef TXTB_HO_TYPE_
    default: return TXTB_OBJ_EVTRACE_HOOKS;
    }
}

#endif
