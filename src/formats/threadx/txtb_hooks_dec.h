/* Host-side decoding of the TXTB records written by the generic kernel hooks backend
 * (txtb_hooks_enc.c, docs/hooks.md): maps EVTRACE_SVC_ENTER/EXIT (191/192) back to the canonical
 * svc_enter/svc_exit kinds named after the service ("tk_wai_sem" for a μT-Kernel profile), and
 * names the thread states of THREAD_RESUME/SUSPEND with the kernel's own names (TTS_WAI). The TXTB
 * reader calls it: txtb_hooks_dec_registry() for every used registry entry at open, then
 * txtb_hooks_dec_event() for every decoded event, after its own fields are set. */
#ifndef EVT_TXTB_HOOKS_DEC_H
#define EVT_TXTB_HOOKS_DEC_H

#include <stdint.h>
#include "evtrace/model.h"
#include "formats/common/hook_meaning.h"
#include "formats/common/hook_wait.h"
#include "formats/threadx/txtb_defs.h"

struct evt_kernel_profile;

/* The kind (EVT_HOOK_OBJ_*) an object address last had in a create, delete or operation record,
 * direct-mapped by address (TXTB_HOOKS_KINDS slots): a switch record names the object its thread
 * blocks on but not its kind, which decides the registry entry that may name it. A slot another
 * address took since answers "not known". */
#define TXTB_HOOKS_KINDS 256u
typedef struct txtb_hooks_kind {
    uint32_t addr;
    uint8_t type;        /* 0: the slot is empty */
} txtb_hooks_kind;

typedef struct txtb_hooks_dec {
    const struct evt_kernel_profile *profile; /* decode with this (NULL: the registry's kernel) */
    int active;          /* a hooks profile registry entry was seen */
    uint32_t kernel;     /* its EVT_HOOK_KERNEL_* profile */
    uint32_t version;    /* its layout version */
    uint64_t clock_hz;   /* the timestamps' rate from a clock entry (TXTB_HOOKS_CLOCK_MAGIC), 0 none */
    char namebuf[48];    /* formatted service name (valid until the next event) */
    char statebuf[32];   /* formatted state name */
    evt_hook_mbuf mbuf;  /* strings of the RTOS records (hook_meaning.h) */
    evt_hook_waits waits; /* open calls and waits per context (hook_wait.h) */
    evt_hook_idle idle;   /* the kernel's idle tasks (registry TXTB_HOOKS_IDLE_BASE entries) */
    txtb_hooks_kind kinds[TXTB_HOOKS_KINDS]; /* the recent objects' kinds (above) */
} txtb_hooks_dec;

/* Looks up the registry name of an object pointer; NULL if unknown. want: TXTB_NAME_ANY, or the
 * generic type (EVT_HOOK_OBJ_*) of the object named, which only an entry of that type's registry
 * kind names (txtb_hooks_entry_type): the registry keeps one entry per address, the last
 * registered, and an address may have held a task and then a semaphore (a FreeRTOS static object
 * built in a reused stack buffer), or a semaphore and then a mutex (a heap block handed back). */
enum { TXTB_NAME_ANY = 0 };
typedef const char *(*txtb_hooks_name_fn)(void *ctx, uint32_t addr, int want);

/* Start state (all zero is fine too). */
void txtb_hooks_dec_init(txtb_hooks_dec *h);
/* One used registry entry (type, object pointer, param1, param2). */
void txtb_hooks_dec_registry(txtb_hooks_dec *h, unsigned type, uint32_t addr, uint32_t param1, uint32_t param2);
/* Adjust a decoded event: id = event id (CPU bits removed), w = the slot's 8 words (w[4..7] =
 * info1..4), and fill its meaning block (ev->m) from the kernel profile: service label, object
 * operation, target and result; stop state; runs-now; interrupt id and name; a wait's start and end
 * (hook_wait.h: the events must come in trace order, lost ones too). Returns 1 if the
 * event is a hooks record it rewrote, else 0. name_of may be NULL. */
int txtb_hooks_dec_event(txtb_hooks_dec *h, uint32_t id, const uint32_t w[8], evt_event *ev,
                         txtb_hooks_name_fn name_of, void *ctx);
/* 0 when txtb_hooks_dec_event() would leave an event of this id and kind (its kind when the call
 * would be made) and the hooks' state as they are: no hooks registry entry, not a service
 * enter/exit record, not a LOST record. A reader may skip the call then. */
static inline int txtb_hooks_dec_wants(const txtb_hooks_dec *h, uint32_t id, evt_kind kind)
{
    return h->active || id == TXTB_EVTRACE_SVC_ENTER_ID || id == TXTB_EVTRACE_SVC_EXIT_ID || kind == EVT_KIND_LOST;
}
/* Name of a μT-Kernel function code ("tk_wai_sem"), or NULL when not in the table. */
const char *txtb_hooks_utk_fn_name(int32_t fncd);
/* Name of a μT-Kernel task state ("TTS_WAI"), "NONEXISTENT" for 0, or NULL. */
const char *txtb_hooks_utk_tts_name(uint32_t tskstat);

#endif
