/* Host μT-Kernel core: the clock, the ready queue, the dispatcher (with the td_hok_dsp hooks), the
 * per-task thread loop, idle, boot and shutdown. One simulated CPU: a task's pthread runs only
 * while utk_k.ctxtsk is its TCB; handing the CPU over = making another TCB current and signalling
 * its condition variable under the kernel lock. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "utk_internal.h"

utk_kernel utk_k;
_Thread_local utk_tcb *utk_self;

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t utk_clock(void)
{
    if (utk_k.cfg.real_time) return (mono_ns() - utk_k.real0) / 1000u;
    return utk_k.vnow;
}

void utk_advance(uint32_t units)
{
    if (!utk_k.cfg.real_time) utk_k.vnow += units;
}

uint64_t utk_now(void) { return utk_clock(); }
uint32_t utk_now32(void) { return (uint32_t)utk_clock(); }
const utk_acct *utk_accounting(void) { return &utk_k.acct; }

void utk_name_copy(UB dst[8], const UB *src, int have)
{
    for (int i = 0; i < 8; i++) dst[i] = (have && src) ? src[i] : 0;
}

UINT utk_tts_of(const utk_tcb *t)
{
    if (!t->used) return 0;
    switch (t->state) {
    case TS_READY: return t == utk_k.ctxtsk ? TTS_RUN : TTS_RDY;
    case TS_WAIT: return TTS_WAI;
    case TS_SUSPEND: return TTS_SUS;
    case TS_WAITSUS: return TTS_WAS;
    case TS_DORMANT: return TTS_DMT;
    default: return 0;
    }
}

void utk_make_ready(utk_tcb *t)
{
    t->state = TS_READY;
    t->rdy_seq = ++utk_k.seq;
}

void utk_make_wait(utk_tcb *t, int factor, ID wid, TMO tmout)
{
    t->state = TS_WAIT;
    t->wfactor = factor;
    t->wid = wid;
    t->wseq = ++utk_k.seq;
    t->wercd = E_OK;
    t->deadline = tmout == TMO_FEVR ? UTK_FOREVER : utk_clock() + (uint64_t)tmout * (UTK_CLOCK_HZ / 1000u);
}

void utk_release_wait(utk_tcb *t, ER ercd)
{
    t->wercd = ercd;
    t->wfactor = WF_NONE;
    if (t->state == TS_WAIT) utk_make_ready(t);
    else if (t->state == TS_WAITSUS) t->state = TS_SUSPEND;
}

utk_tcb *utk_highest_ready(void)
{
    utk_tcb *best = NULL;
    for (int i = 1; i <= UTK_MAX_TSK; i++) {
        utk_tcb *t = &utk_k.tcb[i];
        if (!t->used || t->state != TS_READY) continue;
        if (!best || t->pri < best->pri || (t->pri == best->pri && t->rdy_seq < best->rdy_seq)) best = t;
    }
    return best;
}

static void shutdown_locked(void)
{
    /* Close the running task's interval at the end of the run (as a trace reader does at its
     * last timestamp). */
    utk_tcb *cur = utk_k.ctxtsk;
    if (cur && !utk_k.shutdown) {
        ID id = UTK_ID_OF(cur);
        uint64_t now = utk_clock();
        utk_k.acct.task_cpu[id] += now - cur->run_since;
        utk_k.acct.task_isr[id] += utk_k.acct.isr_time - cur->isr_at_run;
        cur->run_since = now;
        cur->isr_at_run = utk_k.acct.isr_time;
    }
    utk_k.shutdown = 1;
    for (int i = 0; i <= UTK_MAX_TSK; i++) pthread_cond_broadcast(&utk_k.tcb[i].cv);
    pthread_cond_broadcast(&utk_k.main_cv);
}

/* No task is ready: let time pass to the next due interrupt and deliver it (lock held). */
static void idle_step(void)
{
    uint64_t due = utk_next_due();
    if (due > utk_k.cfg.end_time) {
        if (!utk_k.cfg.real_time && utk_k.vnow < utk_k.cfg.end_time) utk_k.vnow = utk_k.cfg.end_time;
        shutdown_locked();
        return;
    }
    if (!utk_k.cfg.real_time) {
        if (due > utk_k.vnow) utk_k.vnow = due;
    } else {
        uint64_t now = utk_clock();
        if (due > now) {
            struct timespec ts = {(time_t)((due - now) / 1000000u), (long)((due - now) % 1000000u) * 1000L};
            pthread_mutex_unlock(&utk_k.lock);
            nanosleep(&ts, NULL);
            pthread_mutex_lock(&utk_k.lock);
        }
    }
    pthread_mutex_unlock(&utk_k.lock);
    utk_deliver_due();
    pthread_mutex_lock(&utk_k.lock);
}

/* Make the highest-precedence ready task current: stop hook for the old one, idle while none is
 * ready, exec hook for the new one, wake its thread (lock held; returns with ctxtsk == NULL only
 * at shutdown). */
static void switch_to_next(void)
{
    utk_tcb *old = utk_k.ctxtsk;
    uint64_t now = utk_clock();
    if (old) {
        utk_k.ctxtsk = NULL;
        ID id = UTK_ID_OF(old);
        utk_k.acct.task_cpu[id] += now - old->run_since;
        utk_k.acct.task_isr[id] += utk_k.acct.isr_time - old->isr_at_run;
        utk_k.idle_since = now;
        UINT st = utk_tts_of(old);
        if (utk_k.hdsp.stop) ((TD_HDSP_STOP_FN)utk_k.hdsp.stop)(id, 0, st);
    }
    uint64_t isr_mark = utk_k.acct.isr_time;
    utk_advance(utk_k.cfg.cost_dispatch);
    utk_tcb *nxt;
    while ((nxt = utk_highest_ready()) == NULL) {
        if (utk_k.shutdown) return;
        idle_step();
    }
    now = utk_clock();
    utk_k.acct.idle_time += (now - utk_k.idle_since) - (utk_k.acct.isr_time - isr_mark);
    utk_k.ctxtsk = nxt;
    ID nid = UTK_ID_OF(nxt);
    nxt->run_since = now;
    nxt->isr_at_run = utk_k.acct.isr_time;
    utk_k.acct.task_runs[nid]++;
    if (utk_k.hdsp.exec) ((TD_HDSP_EXEC_FN)utk_k.hdsp.exec)(nid, 0);
    if (nxt->has_thread) pthread_cond_signal(&nxt->cv);
    else if (utk_thread_start(nxt) != 0) shutdown_locked();
}

/* Wait until `self` is the current task again (lock held); unwinds at shutdown. */
static void run_when_current(utk_tcb *self)
{
    while (utk_k.ctxtsk != self) {
        if (utk_k.shutdown) longjmp(self->env, 1);
        pthread_cond_wait(&self->cv, &utk_k.lock);
    }
}

ER utk_wait_self(void)
{
    utk_tcb *self = utk_self;
    switch_to_next();
    run_when_current(self);
    return self->wercd;
}

void utk_dispatch_if_needed(void)
{
    if (utk_k.in_isr || utk_k.dsp_disabled || !utk_k.ctxtsk || utk_k.ctxtsk != utk_self) return;
    utk_tcb *nxt = utk_highest_ready();
    if (nxt == utk_k.ctxtsk) return;
    utk_tcb *self = utk_self;
    switch_to_next();
    run_when_current(self);
}

void utk_exit_self(void)
{
    utk_tcb *self = utk_self;
    switch_to_next();
    longjmp(self->env, 1);
}

/* The pthread serving one task slot: wait to become current, run the task from its start; the
 * task ends with tk_ext_tsk/tk_exd_tsk (or returns, which is tk_ext_tsk) and unwinds here. */
static void *task_thread(void *arg)
{
    utk_tcb *t = arg;
    utk_self = t;
    pthread_mutex_lock(&utk_k.lock);
    for (;;) {
        (void)setjmp(t->env);
        while (utk_k.ctxtsk != t && !utk_k.shutdown && t->used) pthread_cond_wait(&t->cv, &utk_k.lock);
        if (utk_k.shutdown || !t->used) break;
        void (*fn)(INT, void *) = (void (*)(INT, void *))(void (*)(void))t->task;
        INT stacd = t->stacd;
        void *exinf = t->exinf;
        pthread_mutex_unlock(&utk_k.lock);
        fn(stacd, exinf);
        tk_ext_tsk();
    }
    t->has_thread = 0;
    utk_k.threads_alive--;
    pthread_cond_broadcast(&utk_k.main_cv);
    pthread_mutex_unlock(&utk_k.lock);
    return NULL;
}

int utk_thread_start(utk_tcb *t)
{
    if (utk_k.nthreads >= (int)(sizeof utk_k.threads / sizeof utk_k.threads[0])) return -1;
    if (pthread_create(&utk_k.threads[utk_k.nthreads], NULL, task_thread, t) != 0) return -1;
    utk_k.nthreads++;
    utk_k.threads_alive++;
    t->has_thread = 1;
    return 0;
}

void utk_sim_work(uint32_t units)
{
    if (utk_k.cfg.real_time) {
        uint64_t end = utk_clock() + units;
        for (;;) {
            utk_deliver_due();
            uint64_t now = utk_clock();
            if (now >= end) break;
            pthread_mutex_lock(&utk_k.lock);
            uint64_t due = utk_next_due();
            pthread_mutex_unlock(&utk_k.lock);
            uint64_t until = due < end ? due : end;
            if (until > now) {
                struct timespec ts = {(time_t)((until - now) / 1000000u), (long)((until - now) % 1000000u) * 1000L};
                nanosleep(&ts, NULL);
            }
        }
        return;
    }
    uint64_t remaining = units;
    for (;;) {
        utk_deliver_due();
        if (remaining == 0) break;
        pthread_mutex_lock(&utk_k.lock);
        uint64_t due = utk_next_due(), now = utk_k.vnow;
        uint64_t step = due > now ? due - now : 0;
        if (step > remaining) step = remaining;
        utk_k.vnow += step;
        pthread_mutex_unlock(&utk_k.lock);
        remaining -= step;
    }
}

void utk_shutdown(void)
{
    pthread_mutex_lock(&utk_k.lock);
    shutdown_locked();
    longjmp(utk_self->env, 1);
}

int utk_boot(const utk_config *cfg, void (*init)(INT stacd, void *exinf), PRI init_pri, void *exinf)
{
    memset(&utk_k, 0, sizeof utk_k);
    if (cfg) utk_k.cfg = *cfg;
    if (!utk_k.cfg.tick_us) utk_k.cfg.tick_us = 1000;
    if (!utk_k.cfg.cost_svc) utk_k.cfg.cost_svc = 2;
    if (!utk_k.cfg.cost_dispatch) utk_k.cfg.cost_dispatch = 1;
    if (!utk_k.cfg.cost_isr) utk_k.cfg.cost_isr = 3;
    if (!utk_k.cfg.end_time) utk_k.cfg.end_time = 10u * UTK_CLOCK_HZ;
    if (init_pri < UTK_MIN_PRI || init_pri > UTK_MAX_PRI || !init) return -1;
    pthread_mutex_init(&utk_k.lock, NULL);
    pthread_cond_init(&utk_k.main_cv, NULL);
    for (int i = 0; i <= UTK_MAX_TSK; i++) pthread_cond_init(&utk_k.tcb[i].cv, NULL);
    utk_k.real0 = mono_ns();
    utk_k.next_tick = utk_k.cfg.tick_us;
    for (int i = 0; i < UTK_MAX_INT; i++) utk_k.intr[i].at = UTK_FOREVER;

    pthread_mutex_lock(&utk_k.lock);
    utk_tcb *t = &utk_k.tcb[1];
    t->used = 1;
    t->pri = t->bpri = init_pri;
    t->task = (FP)(void (*)(void))init;
    t->exinf = exinf;
    memcpy(t->name, "init", 4);
    memcpy(utk_k.acct.task_name[1], "init", 5);
    utk_make_ready(t);
    switch_to_next();
    while (!utk_k.shutdown || utk_k.threads_alive > 0) pthread_cond_wait(&utk_k.main_cv, &utk_k.lock);
    utk_k.acct.end = utk_clock();
    pthread_mutex_unlock(&utk_k.lock);
    for (int i = 0; i < utk_k.nthreads; i++) pthread_join(utk_k.threads[i], NULL);
    for (int i = 0; i <= UTK_MAX_TSK; i++) pthread_cond_destroy(&utk_k.tcb[i].cv);
    pthread_cond_destroy(&utk_k.main_cv);
    pthread_mutex_destroy(&utk_k.lock);
    return 0;
}
