/* Host μT-Kernel synchronisation: semaphores, event flags and mailboxes (FIFO wait queues;
 * the order of a queue is the order tasks started waiting). */
#include <string.h>
#include "utk_internal.h"

#define SVC_BEGIN5(name, n, a0, a1, a2, a3, a4)                                                       \
    utk_svc f_;                                                                                       \
    utk_svc_begin(&f_, UTK_TFN_##name, n, (uintptr_t)(a0), (uintptr_t)(a1), (uintptr_t)(a2),          \
                  (uintptr_t)(a3), (uintptr_t)(a4))
#define SVC_BEGIN(name, n, a0, a1, a2) SVC_BEGIN5(name, n, a0, a1, a2, 0, 0)
#define SVC_END(er) utk_svc_end(&f_, (er))

/* First task (wait order) waiting with `factor` on object `id`, or NULL (lock held). */
static utk_tcb *first_waiter(int factor, ID id)
{
    utk_tcb *best = NULL;
    for (int i = 1; i <= UTK_MAX_TSK; i++) {
        utk_tcb *t = &utk_k.tcb[i];
        if (t->used && (t->state == TS_WAIT || t->state == TS_WAITSUS) && t->wfactor == factor && t->wid == id &&
            (!best || t->wseq < best->wseq))
            best = t;
    }
    return best;
}

static void release_all(int factor, ID id, ER er)
{
    utk_tcb *t;
    while ((t = first_waiter(factor, id)) != NULL) utk_release_wait(t, er);
}

/* Wait in a task for an object (lock held): E_CTX from an ISR, E_TMOUT when polling. */
static ER wait_for(int factor, ID id, TMO tmout)
{
    if (utk_k.in_isr || !utk_k.ctxtsk) return E_CTX;
    if (tmout == TMO_POL) return E_TMOUT;
    utk_make_wait(utk_k.ctxtsk, factor, id, tmout);
    return utk_wait_self();
}

#define OBJ_OF(arr, max, id, er) \
    ((id) < 1 || (id) > (max) ? ((er) = E_ID, NULL) : !utk_k.arr[id].used ? ((er) = E_NOEXS, NULL) : ((er) = E_OK, &utk_k.arr[id]))

/* ---- semaphores ---- */
ID tk_cre_sem(CONST T_CSEM *pk)
{
    SVC_BEGIN(tk_cre_sem, 1, pk, 0, 0);
    ER er = E_LIMIT;
    if (!pk || pk->maxsem <= 0 || pk->isemcnt < 0 || pk->isemcnt > pk->maxsem) er = E_PAR;
    else {
        for (int i = 1; i <= UTK_MAX_SEM; i++) {
            utk_sem *s = &utk_k.sem[i];
            if (s->used) continue;
            s->used = 1;
            s->cnt = pk->isemcnt;
            s->max = pk->maxsem;
            utk_name_copy(s->name, pk->dsname, (pk->sematr & TA_DSNAME) != 0);
            er = i;
            break;
        }
    }
    return SVC_END(er);
}

ER tk_del_sem(ID semid)
{
    SVC_BEGIN(tk_del_sem, 1, semid, 0, 0);
    ER er;
    utk_sem *s = OBJ_OF(sem, UTK_MAX_SEM, semid, er);
    if (s) {
        s->used = 0;
        release_all(WF_SEM, semid, E_DLT);
        utk_dispatch_if_needed();
    }
    return SVC_END(er);
}

ER tk_sig_sem(ID semid, INT cnt)
{
    SVC_BEGIN(tk_sig_sem, 2, semid, cnt, 0);
    ER er;
    utk_sem *s = OBJ_OF(sem, UTK_MAX_SEM, semid, er);
    if (s && cnt <= 0) er = E_PAR;
    else if (s && cnt > s->max - s->cnt) er = E_QOVR;
    else if (s) {
        s->cnt += cnt;
        utk_tcb *t;
        while ((t = first_waiter(WF_SEM, semid)) != NULL && t->wcnt <= s->cnt) {
            s->cnt -= t->wcnt;
            utk_release_wait(t, E_OK);
        }
        utk_dispatch_if_needed();
    }
    return SVC_END(er);
}

ER tk_wai_sem(ID semid, INT cnt, TMO tmout)
{
    SVC_BEGIN(tk_wai_sem, 3, semid, cnt, tmout);
    ER er;
    utk_sem *s = OBJ_OF(sem, UTK_MAX_SEM, semid, er);
    if (s && (cnt <= 0 || cnt > s->max)) er = E_PAR;
    else if (s && !first_waiter(WF_SEM, semid) && s->cnt >= cnt) s->cnt -= cnt;
    else if (s) {
        if (utk_k.ctxtsk && !utk_k.in_isr) utk_k.ctxtsk->wcnt = cnt;
        er = wait_for(WF_SEM, semid, tmout);
    }
    return SVC_END(er);
}

/* ---- event flags ---- */
static int flg_match(UINT ptn, UINT waiptn, UINT mode)
{
    return (mode & TWF_ORW) ? (ptn & waiptn) != 0 : (ptn & waiptn) == waiptn;
}

static void flg_consume(utk_flg *g, UINT waiptn, UINT mode)
{
    if (mode & TWF_CLR) g->ptn = 0;
    else if (mode & TWF_BITCLR) g->ptn &= ~waiptn;
}

ID tk_cre_flg(CONST T_CFLG *pk)
{
    SVC_BEGIN(tk_cre_flg, 1, pk, 0, 0);
    ER er = E_LIMIT;
    if (!pk) er = E_PAR;
    else {
        for (int i = 1; i <= UTK_MAX_FLG; i++) {
            utk_flg *g = &utk_k.flg[i];
            if (g->used) continue;
            g->used = 1;
            g->atr = pk->flgatr;
            g->ptn = pk->iflgptn;
            utk_name_copy(g->name, pk->dsname, (pk->flgatr & TA_DSNAME) != 0);
            er = i;
            break;
        }
    }
    return SVC_END(er);
}

ER tk_del_flg(ID flgid)
{
    SVC_BEGIN(tk_del_flg, 1, flgid, 0, 0);
    ER er;
    utk_flg *g = OBJ_OF(flg, UTK_MAX_FLG, flgid, er);
    if (g) {
        g->used = 0;
        release_all(WF_FLG, flgid, E_DLT);
        utk_dispatch_if_needed();
    }
    return SVC_END(er);
}

ER tk_set_flg(ID flgid, UINT setptn)
{
    SVC_BEGIN(tk_set_flg, 2, flgid, setptn, 0);
    ER er;
    utk_flg *g = OBJ_OF(flg, UTK_MAX_FLG, flgid, er);
    if (g) {
        g->ptn |= setptn;
        /* Release every satisfied waiter in queue order (a clear stops the scan). */
        for (;;) {
            utk_tcb *hit = NULL;
            for (int i = 1; i <= UTK_MAX_TSK; i++) {
                utk_tcb *t = &utk_k.tcb[i];
                if (t->used && (t->state == TS_WAIT || t->state == TS_WAITSUS) && t->wfactor == WF_FLG &&
                    t->wid == flgid && flg_match(g->ptn, t->wptn, t->wmode) && (!hit || t->wseq < hit->wseq))
                    hit = t;
            }
            if (!hit) break;
            hit->flgptn = g->ptn;
            flg_consume(g, hit->wptn, hit->wmode);
            utk_release_wait(hit, E_OK);
        }
        utk_dispatch_if_needed();
    }
    return SVC_END(er);
}

ER tk_clr_flg(ID flgid, UINT clrptn)
{
    SVC_BEGIN(tk_clr_flg, 2, flgid, clrptn, 0);
    ER er;
    utk_flg *g = OBJ_OF(flg, UTK_MAX_FLG, flgid, er);
    if (g) g->ptn &= clrptn;
    return SVC_END(er);
}

ER tk_wai_flg(ID flgid, UINT waiptn, UINT wfmode, UINT *p_flgptn, TMO tmout)
{
    SVC_BEGIN5(tk_wai_flg, 5, flgid, waiptn, wfmode, p_flgptn, tmout);
    ER er;
    utk_flg *g = OBJ_OF(flg, UTK_MAX_FLG, flgid, er);
    if (g && (waiptn == 0 || !p_flgptn)) er = E_PAR;
    else if (g && !(g->atr & TA_WMUL) && first_waiter(WF_FLG, flgid)) er = E_OBJ;
    else if (g && flg_match(g->ptn, waiptn, wfmode)) {
        *p_flgptn = g->ptn;
        flg_consume(g, waiptn, wfmode);
    } else if (g) {
        if (utk_k.ctxtsk && !utk_k.in_isr) {
            utk_k.ctxtsk->wptn = waiptn;
            utk_k.ctxtsk->wmode = wfmode;
        }
        utk_tcb *self = utk_k.ctxtsk;
        er = wait_for(WF_FLG, flgid, tmout);
        if (er == E_OK) *p_flgptn = self->flgptn;
    }
    return SVC_END(er);
}

/* ---- mailboxes ---- */
ID tk_cre_mbx(CONST T_CMBX *pk)
{
    SVC_BEGIN(tk_cre_mbx, 1, pk, 0, 0);
    ER er = E_LIMIT;
    if (!pk) er = E_PAR;
    else {
        for (int i = 1; i <= UTK_MAX_MBX; i++) {
            utk_mbx *m = &utk_k.mbx[i];
            if (m->used) continue;
            m->used = 1;
            m->head = m->tail = NULL;
            utk_name_copy(m->name, pk->dsname, (pk->mbxatr & TA_DSNAME) != 0);
            er = i;
            break;
        }
    }
    return SVC_END(er);
}

ER tk_del_mbx(ID mbxid)
{
    SVC_BEGIN(tk_del_mbx, 1, mbxid, 0, 0);
    ER er;
    utk_mbx *m = OBJ_OF(mbx, UTK_MAX_MBX, mbxid, er);
    if (m) {
        m->used = 0;
        release_all(WF_MBX, mbxid, E_DLT);
        utk_dispatch_if_needed();
    }
    return SVC_END(er);
}

ER tk_snd_mbx(ID mbxid, T_MSG *pk_msg)
{
    SVC_BEGIN(tk_snd_mbx, 2, mbxid, pk_msg, 0);
    ER er;
    utk_mbx *m = OBJ_OF(mbx, UTK_MAX_MBX, mbxid, er);
    if (m && !pk_msg) er = E_PAR;
    else if (m) {
        utk_tcb *t = first_waiter(WF_MBX, mbxid);
        if (t) {
            t->msg = pk_msg;
            utk_release_wait(t, E_OK);
            utk_dispatch_if_needed();
        } else {
            pk_msg->msgque[0] = NULL;
            if (m->tail) m->tail->msgque[0] = pk_msg; else m->head = pk_msg;
            m->tail = pk_msg;
        }
    }
    return SVC_END(er);
}

ER tk_rcv_mbx(ID mbxid, T_MSG **ppk_msg, TMO tmout)
{
    SVC_BEGIN(tk_rcv_mbx, 3, mbxid, ppk_msg, tmout);
    ER er;
    utk_mbx *m = OBJ_OF(mbx, UTK_MAX_MBX, mbxid, er);
    if (m && !ppk_msg) er = E_PAR;
    else if (m && m->head) {
        *ppk_msg = m->head;
        m->head = m->head->msgque[0];
        if (!m->head) m->tail = NULL;
    } else if (m) {
        utk_tcb *self = utk_k.ctxtsk;
        er = wait_for(WF_MBX, mbxid, tmout);
        if (er == E_OK) *ppk_msg = self->msg;
    }
    return SVC_END(er);
}
