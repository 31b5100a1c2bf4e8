/* The hook.idle_task record of the RKH-stream hooks backend (evt_rkh_hooks_idle_task,
 * evtrace/hooks_backends.h; rkh_hooks_defs.h): names the kernel's idle task, whose running the
 * reader counts as idle time. Kept in its own file so a recorder that never calls it links none of
 * it. Freestanding C99. */
#include "formats/rkh/rkh_hooks.h"

#include "formats/rkh/rkh_defs.h"

/* the attached recorder (rkh_hooks_enc.c) */
evt_rkh_recorder *evt_rkh_hooks_recorder(void);

void evt_rkh_hooks_idle_task(uintptr_t thread)
{
    evt_rkh_recorder *r = evt_rkh_hooks_recorder();
    if (!r || !evt_rkh_begin(r, RKH_TE_USER + RKH_HOOK_IDLE_TASK)) return;
    evt_rkh_usr_int(r, EVT_RKH_USR_OBJ, 0, (uint32_t)thread);
    evt_rkh_end(r);
}
