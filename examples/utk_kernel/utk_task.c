/* Host μT-Kernel task services: create/delete/start/exit, priority, suspend/resume, sleep/wakeup,
 * delay, ready-queue rotation. Each call goes through the svc frame (hooks) of utk_ds.c. */
#include <string.h>
#include "utk_internal.h"

#define SVC_BEGIN(name, n, a0, a1) \
    utk_svc f_;                    \
    utk_svc_begin(&f_, UTK_TFN_##name, n, (uintptr_t)(a0), (uintptr_t)(a1), 0, 0, 0)
#define SVC_END(er) utk_svc_end(&f_, (er))

/* Task of an id (TSK_SELF = the caller) or NULL with *er set (lock held). */
static utk_tcb *tcb_of(ID id, ER *er)
{
    if (id == TSK_SELF) {
        if (utk_k.in_isr || !utk_k.ctxtsk) { *er = E_ID; return NULL; }
        *er = E_OK;
        return utk_k.ctxtsk;
    }
    if (id < 1 || id > UTK_MAX_TSK) { *er = E_ID; return NULL; }
    if (!utk_k.tcb[id].used) { *er = E_NOEXS; return NULL; }
    *er = E_OK;
    return &utk_k.tcb[id];
}

ID tk_cre_tsk(CONST T_CTSK *pk)
{
    SVC_BEGIN(tk_cre_tsk, 1, pk, 0);
    ER er = E_LIMIT;
    if (!pk || !pk->task || pk->itskpri < UTK_MIN_PRI || pk->itskpri > UTK_MAX_PRI) er = E_PAR;
    else {
        for (int i = 1; i <= UTK_MAX_TSK; i++) {
            utk_tcb *t = &utk_k.tcb[i];
            if (t->used || t->has_thread) continue;
            t->used = 1;
            t->state = TS_DORMANT;
            t->pri = t->bpri = pk->itskpri;
            t->task = pk->task;
            t->exinf = pk->exinf;
            t->wupcnt = t->suscnt = 0;
            t->wfactor = WF_NONE;
            utk_name_copy(t->name, pk->dsname, (pk->tskatr & TA_DSNAME) != 0);
            memcpy(utk_k.acct.task_name[i], t->name, 8);
            utk_k.acct.task_name[i][8] = 0;
            er = i;
            break;
        }
    }
    return SVC_END(er);
}

ER tk_del_tsk(ID tskid)
{
    SVC_BEGIN(tk_del_tsk, 1, tskid, 0);
    ER er;
    utk_tcb *t = tskid == TSK_SELF ? (er = E_OBJ, NULL) : tcb_of(tskid, &er);
    if (t && t->state != TS_DORMANT) er = E_OBJ;
    else if (t) {
        t->used = 0;
        t->state = TS_NONEXIST;
        pthread_cond_signal(&t->cv);  /* its thread leaves */
    }
    return SVC_END(er);
}

ER tk_sta_tsk(ID tskid, INT stacd)
{
    SVC_BEGIN(tk_sta_tsk, 2, tskid, stacd);
    ER er;
    utk_tcb *t = tcb_of(tskid, &er);
    if (t && t->state != TS_DORMANT) er = E_OBJ;
    else if (t) {
        t->stacd = stacd;
        t->pri = t->bpri;
        t->wupcnt = t->suscnt = 0;
        utk_make_ready(t);
        utk_dispatch_if_needed();
    }
    return SVC_END(er);
}

void tk_ext_tsk(void)
{
    SVC_BEGIN(tk_ext_tsk, 0, 0, 0);
    utk_tcb *self = utk_self;
    self->state = TS_DORMANT;
    self->pri = self->bpri;
    utk_exit_self();
}

void tk_exd_tsk(void)
{
    SVC_BEGIN(tk_exd_tsk, 0, 0, 0);
    utk_tcb *self = utk_self;
    self->used = 0;
    self->state = TS_NONEXIST;
    utk_exit_self();
}

ID tk_get_tid(void)
{
    SVC_BEGIN(tk_get_tid, 0, 0, 0);
    ID id = (utk_k.in_isr || !utk_k.ctxtsk) ? 0 : UTK_ID_OF(utk_k.ctxtsk);
    return SVC_END(id);
}

ER tk_chg_pri(ID tskid, PRI tskpri)
{
    SVC_BEGIN(tk_chg_pri, 2, tskid, tskpri);
    ER er;
    utk_tcb *t = tcb_of(tskid, &er);
    if (t && (tskpri < UTK_MIN_PRI || tskpri > UTK_MAX_PRI)) er = E_PAR;
    else if (t && t->state == TS_DORMANT) er = E_OBJ;
    else if (t) {
        t->pri = t->bpri = tskpri;
        if (t->state == TS_READY && t != utk_k.ctxtsk) t->rdy_seq = ++utk_k.seq;
        utk_dispatch_if_needed();
    }
    return SVC_END(er);
}

ER tk_sus_tsk(ID tskid)
{
    SVC_BEGIN(tk_sus_tsk, 1, tskid, 0);
    ER er;
    utk_tcb *t = tcb_of(tskid, &er);
    if (t && !utk_k.in_isr && t == utk_k.ctxtsk) er = E_OBJ;  /* a task cannot suspend itself */
    else if (t && t->state == TS_DORMANT) er = E_OBJ;
    else if (t) {
        if (t->state == TS_READY) t->state = TS_SUSPEND;
        else if (t->state == TS_WAIT) t->state = TS_WAITSUS;
        t->suscnt++;
    }
    return SVC_END(er);
}

ER tk_rsm_tsk(ID tskid)
{
    SVC_BEGIN(tk_rsm_tsk, 1, tskid, 0);
    ER er;
    utk_tcb *t = tcb_of(tskid, &er);
    if (t && (t->state != TS_SUSPEND && t->state != TS_WAITSUS)) er = E_OBJ;
    else if (t && --t->suscnt == 0) {
        if (t->state == TS_SUSPEND) utk_make_ready(t);
        else t->state = TS_WAIT;
        utk_dispatch_if_needed();
    }
    return SVC_END(er);
}

ER tk_slp_tsk(TMO tmout)
{
    SVC_BEGIN(tk_slp_tsk, 1, tmout, 0);
    ER er;
    utk_tcb *self = utk_k.ctxtsk;
    if (utk_k.in_isr || !self) er = E_CTX;
    else if (self->wupcnt > 0) { self->wupcnt--; er = E_OK; }
    else if (tmout == TMO_POL) er = E_TMOUT;
    else {
        utk_make_wait(self, WF_SLP, 0, tmout);
        er = utk_wait_self();
    }
    return SVC_END(er);
}

ER tk_wup_tsk(ID tskid)
{
    SVC_BEGIN(tk_wup_tsk, 1, tskid, 0);
    ER er;
    utk_tcb *t = tcb_of(tskid, &er);
    if (t && (t == utk_k.ctxtsk && !utk_k.in_isr)) er = E_OBJ;
    else if (t && t->state == TS_DORMANT) er = E_OBJ;
    else if (t && (t->state == TS_WAIT || t->state == TS_WAITSUS) && t->wfactor == WF_SLP) {
        utk_release_wait(t, E_OK);
        utk_dispatch_if_needed();
    } else if (t) {
        t->wupcnt++;
    }
    return SVC_END(er);
}

ER tk_dly_tsk(RELTIM dlytim)
{
    SVC_BEGIN(tk_dly_tsk, 1, dlytim, 0);
    ER er;
    utk_tcb *self = utk_k.ctxtsk;
    if (utk_k.in_isr || !self) er = E_CTX;
    else if (dlytim == 0) er = E_OK;
    else {
        utk_make_wait(self, WF_DLY, 0, (TMO)dlytim);
        er = utk_wait_self();
    }
    return SVC_END(er);
}

ER tk_rot_rdq(PRI tskpri)
{
    SVC_BEGIN(tk_rot_rdq, 1, tskpri, 0);
    ER er = E_OK;
    if (tskpri == 0 && utk_k.ctxtsk) tskpri = utk_k.ctxtsk->pri;
    if (tskpri < UTK_MIN_PRI || tskpri > UTK_MAX_PRI) er = E_PAR;
    else {
        utk_tcb *head = NULL;
        for (int i = 1; i <= UTK_MAX_TSK; i++) {
            utk_tcb *t = &utk_k.tcb[i];
            if (t->used && t->state == TS_READY && t->pri == tskpri && (!head || t->rdy_seq < head->rdy_seq)) head = t;
        }
        if (head) head->rdy_seq = ++utk_k.seq;
        utk_dispatch_if_needed();
    }
    return SVC_END(er);
}
