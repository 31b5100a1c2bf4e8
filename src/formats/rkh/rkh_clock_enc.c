/* The hook.clock record of the RKH-stream hooks backend (evt_rkh_hooks_clock, rkh_hooks.h): the
 * 64-bit timestamp rate and the kernel profile id, which the stream's TCFG record cannot carry.
 * Kept in its own file so a recorder that never calls it links none of it. Freestanding C99. */
#include "formats/rkh/rkh_hooks.h"

#include "formats/rkh/rkh_defs.h"

/* the attached recorder (rkh_hooks_enc.c) */
evt_rkh_recorder *evt_rkh_hooks_recorder(void);

void evt_rkh_hooks_clock(uint32_t kernel, uint64_t hz)
{
    evt_rkh_recorder *r = evt_rkh_hooks_recorder();
    if (!hz || !r || !evt_rkh_begin(r, RKH_TE_USER + RKH_HOOK_CLOCK)) return;
    evt_rkh_usr_int(r, EVT_RKH_USR_UI32, 0, RKH_HOOKS_CLOCK_MAGIC);
    evt_rkh_usr_int(r, EVT_RKH_USR_UI32, 0, kernel);
    evt_rkh_usr_int(r, EVT_RKH_USR_UI32, 0, (uint32_t)hz);
    evt_rkh_usr_int(r, EVT_RKH_USR_UI32, 0, (uint32_t)(hz >> 32));
    evt_rkh_end(r);
}
