/* Incarnations of a reused context id (docs/model.md "Contexts"): a thread deleted and another
 * created later under the same id (a FreeRTOS TCB address the heap hands back, a μT-Kernel task id
 * after tk_del_tsk, a ThreadX control block) become distinct contexts in every view. The reader
 * framework (reader.c) passes every event a format gives through evt_ctx_incarn_event, in trace
 * order and before --begin/--end, so stats, timelines, queries and exporters all see the same ids.
 *
 * The rule, from the records alone (old traces too): a thread's obj_create of an id that an earlier
 * thread obj_create or obj_delete in the trace named starts a new incarnation of it; every later
 * record naming the id (as the recording context, a switch's next context, a thread operation's
 * target or object, a mutex's owner) belongs to it. A delete does not end the incarnation: records
 * after it (a task that deleted itself runs on until its next switch) keep it. The first
 * incarnation keeps the raw id; the n-th later one is evt_ctx_make(raw, n) (evtrace/model.h).
 *
 * Where the kernel's object ids are addresses that every kind of object shares (any_kind, from the
 * kernel profile's ids_are_addresses: FreeRTOS, ThreadX, Zephyr, embOS), the same holds for every
 * object: a create of any kind (a queue, a semaphore, a timer, a task) of an id that an earlier
 * create or delete of any kind named starts a new incarnation, and every record naming the id as
 * an object (target, m.obj) belongs to it too. So a FreeRTOS static semaphore built in a stack
 * buffer where a task's TCB was is an object of its own, not the task's (FreeRTOS's own
 * StaticAllocation demo does this continuously). Kernels whose ids are per kind (μT-Kernel: task 1
 * and semaphore 1 at once) keep the thread-only rule. */
#ifndef EVT_HOST_CTX_INCARNATION_H
#define EVT_HOST_CTX_INCARNATION_H

#include <stdint.h>
#include "evtrace/model.h"
#include "u64map.h"

typedef struct evt_ctx_incarn {
    evt_u64map gen;  /* raw thread id -> its current incarnation (0: the first); only ids that a
                      * thread create or delete named */
    uint32_t later;  /* ids whose current incarnation is not the first: records need renaming */
    int any_kind;    /* ids are addresses shared by every object kind: every create counts */
    int nomem;       /* the map could not grow: later creates of new ids are not tracked */
} evt_ctx_incarn;

/* Zero-initialised is empty and ready. */
void evt_ctx_incarn_free(evt_ctx_incarn *s);
/* Note a thread create or delete (with any_kind, any object's) in ev and rename ev's context and
 * object ids to their current incarnation. Only an obj_create/obj_delete, or any event once
 * s->later is not 0, needs the call. */
void evt_ctx_incarn_event(evt_ctx_incarn *s, evt_event *ev);

#endif
