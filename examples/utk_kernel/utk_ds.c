/* Host μT-Kernel debugger support: td_hok_svc/dsp/int (set or, with NULL, cancel the hook
 * routines), the DS references the evtrace adapter uses (td_ref_tsk, td_ref_dsname), and the
 * service-call frame that calls the svc hooks as μT-Kernel's call entry does: an interrupt point,
 * then enter(fncd, &calinf, args...) in the caller's context without the kernel lock, the call
 * itself under the lock, then leave(fncd, ret, exinf) after the lock is released. */
#include <string.h>
#include "utk_internal.h"

/* td_* are not traced and take no lock: they run in a hook (maybe inside the dispatcher, which
 * holds the lock) or in the one running task; the single simulated CPU serialises them. */
ER td_hok_svc(CONST TD_HSVC *hsvc)
{
    if (hsvc) utk_k.hsvc = *hsvc;
    else memset(&utk_k.hsvc, 0, sizeof utk_k.hsvc);
    return E_OK;
}

ER td_hok_dsp(CONST TD_HDSP *hdsp)
{
    if (hdsp) utk_k.hdsp = *hdsp;
    else memset(&utk_k.hdsp, 0, sizeof utk_k.hdsp);
    return E_OK;
}

ER td_hok_int(CONST TD_HINT *hint)
{
    if (hint) utk_k.hint = *hint;
    else memset(&utk_k.hint, 0, sizeof utk_k.hint);
    return E_OK;
}

ER td_ref_tsk(ID tskid, TD_RTSK *rtsk)
{
    if (tskid == TSK_SELF) {
        if (!utk_k.ctxtsk) return E_ID;
        tskid = UTK_ID_OF(utk_k.ctxtsk);
    }
    if (tskid < 1 || tskid > UTK_MAX_TSK) return E_ID;
    const utk_tcb *t = &utk_k.tcb[tskid];
    if (!t->used) return E_NOEXS;
    memset(rtsk, 0, sizeof *rtsk);
    rtsk->exinf = t->exinf;
    rtsk->tskpri = t->pri;
    rtsk->tskbpri = t->bpri;
    rtsk->tskstat = utk_tts_of(t);
    rtsk->wid = t->wid;
    rtsk->wupcnt = t->wupcnt;
    rtsk->suscnt = t->suscnt;
    rtsk->task = t->task;
    return E_OK;
}

ER td_ref_dsname(UINT type, ID id, UB *dsname)
{
    const UB *n = NULL;
    int used = 0;
    switch (type) {
    case TN_TSK: if (id >= 1 && id <= UTK_MAX_TSK) { used = utk_k.tcb[id].used; n = utk_k.tcb[id].name; } break;
    case TN_SEM: if (id >= 1 && id <= UTK_MAX_SEM) { used = utk_k.sem[id].used; n = utk_k.sem[id].name; } break;
    case TN_FLG: if (id >= 1 && id <= UTK_MAX_FLG) { used = utk_k.flg[id].used; n = utk_k.flg[id].name; } break;
    case TN_MBX: if (id >= 1 && id <= UTK_MAX_MBX) { used = utk_k.mbx[id].used; n = utk_k.mbx[id].name; } break;
    case TN_CYC: if (id >= 1 && id <= UTK_MAX_CYC) { used = utk_k.cyc[id].used; n = utk_k.cyc[id].name; } break;
    default: return E_PAR;
    }
    if (!n) return E_ID;
    if (!used) return E_NOEXS;
    if (!n[0]) return E_OBJ;  /* created without TA_DSNAME */
    memcpy(dsname, n, 8);
    return E_OK;
}

ER td_ref_sys(TD_RSYS *pk_rsys)
{
    utk_tcb *s = utk_highest_ready();
    pk_rsys->sysstat = utk_k.in_isr ? 0x04 : 0x00;   /* TSS_INDP / TSS_TSK */
    pk_rsys->runtskid = utk_k.ctxtsk ? UTK_ID_OF(utk_k.ctxtsk) : 0;
    pk_rsys->schedtskid = s ? UTK_ID_OF(s) : 0;
    return E_OK;
}

INT td_lst_tsk(ID list[], INT nent)
{
    INT n = 0;
    for (int i = 1; i <= UTK_MAX_TSK; i++) {
        if (!utk_k.tcb[i].used) continue;
        if (n < nent) list[n] = i;
        n++;
    }
    return n;
}

void utk_svc_begin(utk_svc *f, FN fncd, unsigned nargs, uintptr_t a0, uintptr_t a1, uintptr_t a2,
                   uintptr_t a3, uintptr_t a4)
{
    if (!utk_k.in_isr && utk_self && utk_k.ctxtsk == utk_self) utk_deliver_due();
    f->fncd = fncd;
    f->exinf = NULL;
    f->t_enter = utk_clock();
    FP enter = utk_k.hsvc.enter;
    if (enter) {
        TD_CALINF ci = {__builtin_frame_address(0), __builtin_frame_address(0)};
        TD_HSVC_ENTER_FN e = (TD_HSVC_ENTER_FN)(void (*)(void))enter;
        switch (nargs) {
        case 0: f->exinf = e(fncd, &ci); break;
        case 1: f->exinf = e(fncd, &ci, a0); break;
        case 2: f->exinf = e(fncd, &ci, a0, a1); break;
        case 3: f->exinf = e(fncd, &ci, a0, a1, a2); break;
        case 4: f->exinf = e(fncd, &ci, a0, a1, a2, a3); break;
        default: f->exinf = e(fncd, &ci, a0, a1, a2, a3, a4); break;
        }
    }
    pthread_mutex_lock(&utk_k.lock);
    utk_advance(utk_k.cfg.cost_svc);
}

ER utk_svc_end(utk_svc *f, ER ret)
{
    uint64_t d = utk_clock() - f->t_enter;
    unsigned ix = UTK_FNCD_INDEX(f->fncd);
    if (ix <= UTK_FN_INDEX_MAX) {
        utk_acct_svc *a = &utk_k.acct.svc[ix];
        a->fncd = f->fncd;
        if (a->count == 0 || d < a->min) a->min = d;
        if (d > a->max) a->max = d;
        a->count++;
        a->total += d;
    }
    FP leave = utk_k.hsvc.leave;
    pthread_mutex_unlock(&utk_k.lock);
    if (leave) ((TD_HSVC_LEAVE_FN)(void (*)(void))leave)(f->fncd, ret, f->exinf);
    return ret;
}
