/* Host μT-Kernel interrupts: the simulated system timer (timeouts, delays, cyclic handlers),
 * tk_def_int handlers raised by the simulation, their delivery at interrupt points with the
 * td_hok_int hooks around each handler, and the cyclic-handler and time services. Interrupts do
 * not nest; a dispatch they make necessary happens when the last one ends (delayed dispatch). */
#include <string.h>
#include "utk_internal.h"

#define TIMER_SLOT (-1)

uint64_t utk_next_due(void)
{
    uint64_t due = utk_k.next_tick;
    for (int i = 0; i < UTK_MAX_INT; i++) {
        if (utk_k.intr[i].pending) return utk_clock();
        if (utk_k.intr[i].at < due) due = utk_k.intr[i].at;
    }
    return due;
}

/* The kernel's timer handler for the tick due at `tick_at` (lock held; released around cyclic
 * handlers, which run in the interrupt's task-independent context). */
static void timer_handler(uint64_t tick_at)
{
    for (int i = 1; i <= UTK_MAX_TSK; i++) {
        utk_tcb *t = &utk_k.tcb[i];
        if (t->used && (t->state == TS_WAIT || t->state == TS_WAITSUS) && t->deadline <= tick_at)
            utk_release_wait(t, t->wfactor == WF_DLY ? E_OK : E_TMOUT);
    }
    for (int i = 1; i <= UTK_MAX_CYC; i++) {
        utk_cyc *c = &utk_k.cyc[i];
        while (c->used && c->active && c->next <= tick_at) {
            c->next += c->period;
            void (*h)(void *) = (void (*)(void *))(void (*)(void))c->hdr;
            void *x = c->exinf;
            pthread_mutex_unlock(&utk_k.lock);
            h(x);
            pthread_mutex_lock(&utk_k.lock);
        }
    }
}

/* Run one interrupt (lock held on entry and exit): hooks, cost, handler. */
static void run_isr(int slot, UINT dintno, uint64_t tick_at)
{
    utk_k.in_isr++;
    uint64_t t0 = utk_clock();
    utk_k.acct.isr_count++;
    if (utk_k.hint.enter) ((TD_HINT_FN)utk_k.hint.enter)(dintno);
    utk_advance(utk_k.cfg.cost_isr);
    if (slot == TIMER_SLOT) {
        timer_handler(tick_at);
    } else {
        void (*h)(UINT) = (void (*)(UINT))(void (*)(void))utk_k.intr[slot].hdr;
        pthread_mutex_unlock(&utk_k.lock);
        if (h) h(dintno);
        pthread_mutex_lock(&utk_k.lock);
    }
    if (utk_k.hint.leave) ((TD_HINT_FN)utk_k.hint.leave)(dintno);
    utk_k.acct.isr_time += utk_clock() - t0;
    utk_k.in_isr--;
}

void utk_deliver_due(void)
{
    pthread_mutex_lock(&utk_k.lock);
    while (!utk_k.in_isr && !utk_k.shutdown) {
        uint64_t now = utk_clock();
        if (utk_k.next_tick <= now) {
            uint64_t at = utk_k.next_tick;
            utk_k.next_tick += utk_k.cfg.tick_us;
            run_isr(TIMER_SLOT, utk_k.cfg.timer_intno, at);
            continue;
        }
        int best = -1;
        for (int i = 0; i < UTK_MAX_INT; i++) {
            utk_int *n = &utk_k.intr[i];
            if (n->pending) { best = i; break; }
            if (n->at <= now && (best < 0 || n->at < utk_k.intr[best].at)) best = i;
        }
        if (best < 0) break;
        if (utk_k.intr[best].pending) utk_k.intr[best].pending = 0;
        else utk_k.intr[best].at = UTK_FOREVER;
        run_isr(best, (UINT)best, 0);
    }
    /* Delayed dispatch: the interrupted task gives way if the handlers readied a better one. */
    utk_dispatch_if_needed();
    pthread_mutex_unlock(&utk_k.lock);
}

void utk_sim_raise_int(UINT dintno)
{
    if (dintno >= UTK_MAX_INT) return;
    pthread_mutex_lock(&utk_k.lock);
    utk_k.intr[dintno].pending = 1;
    pthread_mutex_unlock(&utk_k.lock);
}

void utk_sim_schedule_int(UINT dintno, uint64_t at)
{
    if (dintno >= UTK_MAX_INT) return;
    pthread_mutex_lock(&utk_k.lock);
    utk_k.intr[dintno].at = at;
    pthread_mutex_unlock(&utk_k.lock);
}

ER tk_def_int(UINT dintno, CONST T_DINT *pk_dint)
{
    utk_svc f;
    utk_svc_begin(&f, UTK_TFN_tk_def_int, 2, dintno, (uintptr_t)pk_dint, 0, 0, 0);
    ER er = E_OK;
    if (dintno >= UTK_MAX_INT || dintno == utk_k.cfg.timer_intno) er = E_PAR;
    else if (pk_dint && !(pk_dint->intatr & TA_HLNG)) er = E_RSATR;  /* TA_ASM: not simulated */
    else utk_k.intr[dintno].hdr = pk_dint ? pk_dint->inthdr : NULL;
    return utk_svc_end(&f, er);
}

ER tk_get_tim(SYSTIM *pk_tim)
{
    utk_svc f;
    utk_svc_begin(&f, UTK_TFN_tk_get_tim, 1, (uintptr_t)pk_tim, 0, 0, 0, 0);
    uint64_t ms = utk_clock() / (UTK_CLOCK_HZ / 1000u);
    pk_tim->hi = (W)(ms >> 32);
    pk_tim->lo = (UW)ms;
    return utk_svc_end(&f, E_OK);
}

ID tk_cre_cyc(CONST T_CCYC *pk)
{
    utk_svc f;
    utk_svc_begin(&f, UTK_TFN_tk_cre_cyc, 1, (uintptr_t)pk, 0, 0, 0, 0);
    ER er = E_LIMIT;
    if (!pk || !pk->cychdr || pk->cyctim == 0) er = E_PAR;
    else {
        for (int i = 1; i <= UTK_MAX_CYC; i++) {
            utk_cyc *c = &utk_k.cyc[i];
            if (c->used) continue;
            memset(c, 0, sizeof *c);
            c->used = 1;
            c->hdr = pk->cychdr;
            c->exinf = pk->exinf;
            c->period = (uint64_t)pk->cyctim * (UTK_CLOCK_HZ / 1000u);
            c->next = utk_clock() + (uint64_t)(pk->cycphs ? pk->cycphs : pk->cyctim) * (UTK_CLOCK_HZ / 1000u);
            c->active = (pk->cycatr & TA_STA) != 0;
            utk_name_copy(c->name, pk->dsname, (pk->cycatr & TA_DSNAME) != 0);
            er = i;
            break;
        }
    }
    return utk_svc_end(&f, er);
}

static utk_cyc *cyc_of(ID id, ER *er)
{
    if (id < 1 || id > UTK_MAX_CYC) { *er = E_ID; return NULL; }
    if (!utk_k.cyc[id].used) { *er = E_NOEXS; return NULL; }
    *er = E_OK;
    return &utk_k.cyc[id];
}

ER tk_del_cyc(ID cycid)
{
    utk_svc f;
    ER er;
    utk_svc_begin(&f, UTK_TFN_tk_del_cyc, 1, (uintptr_t)cycid, 0, 0, 0, 0);
    utk_cyc *c = cyc_of(cycid, &er);
    if (c) c->used = 0;
    return utk_svc_end(&f, er);
}

ER tk_sta_cyc(ID cycid)
{
    utk_svc f;
    ER er;
    utk_svc_begin(&f, UTK_TFN_tk_sta_cyc, 1, (uintptr_t)cycid, 0, 0, 0, 0);
    utk_cyc *c = cyc_of(cycid, &er);
    if (c) { c->active = 1; c->next = utk_clock() + c->period; }
    return utk_svc_end(&f, er);
}

ER tk_stp_cyc(ID cycid)
{
    utk_svc f;
    ER er;
    utk_svc_begin(&f, UTK_TFN_tk_stp_cyc, 1, (uintptr_t)cycid, 0, 0, 0, 0);
    utk_cyc *c = cyc_of(cycid, &er);
    if (c) c->active = 0;
    return utk_svc_end(&f, er);
}
