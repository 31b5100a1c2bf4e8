/* Internals of the host μT-Kernel shared by its files: control blocks, the kernel state, the
 * scheduler and service-call frame helpers. Every member of `utk_k` is accessed with utk_k.lock
 * held, or by the one thread that currently owns the (simulated) CPU. */
#ifndef UTK_INTERNAL_H
#define UTK_INTERNAL_H

#include <pthread.h>
#include <setjmp.h>
#include <stdint.h>
#include "utk_kernel.h"

/* Kernel-internal task states (TTS = TS << 1 except READY-and-current -> TTS_RUN). */
enum { TS_NONEXIST = 0, TS_READY = 1, TS_WAIT = 2, TS_SUSPEND = 4, TS_WAITSUS = 6, TS_DORMANT = 8 };
/* Wait factors. */
enum { WF_NONE = 0, WF_SLP, WF_DLY, WF_SEM, WF_FLG, WF_MBX };
#define UTK_FOREVER UINT64_MAX

typedef struct utk_tcb {
    int used;                 /* slot holds a task */
    int state;                /* TS_* */
    PRI pri, bpri;            /* current / base priority */
    FP task;                  /* start address */
    void *exinf;              /* extended information */
    INT stacd;                /* start code of the current run */
    UB name[8];               /* dsname */
    uint64_t rdy_seq;         /* order within a priority (smaller = earlier) */
    int wfactor;              /* WF_* while waiting */
    ID wid;                   /* waited object */
    uint64_t wseq;            /* order in the object's wait queue */
    uint64_t deadline;        /* timeout (clock), UTK_FOREVER */
    ER wercd;                 /* result of the wait */
    INT wcnt;                 /* semaphore count wanted */
    UINT wptn, wmode;         /* flag pattern and mode wanted */
    UINT flgptn;              /* flag pattern at release */
    T_MSG *msg;               /* message received */
    INT wupcnt, suscnt;       /* queued wakeups, suspend count */
    pthread_cond_t cv;        /* signalled when this task becomes the current task */
    int has_thread;           /* a pthread serves this slot */
    int thread_gone;          /* that pthread left (slot deleted) */
    jmp_buf env;              /* thread loop top (ext_tsk, exd_tsk, shutdown) */
    uint64_t run_since;       /* clock at the last exec */
    uint64_t isr_at_run;      /* utk_k.acct.isr_time at the last exec */
} utk_tcb;

typedef struct utk_sem { int used; INT cnt, max; UB name[8]; } utk_sem;
typedef struct utk_flg { int used; ATR atr; UINT ptn; UB name[8]; } utk_flg;
typedef struct utk_mbx { int used; T_MSG *head, *tail; UB name[8]; } utk_mbx;
typedef struct utk_cyc {
    int used, active;
    FP hdr;                   /* void (*)(void *exinf) */
    void *exinf;
    uint64_t period, next;    /* clock units */
    UB name[8];
} utk_cyc;
typedef struct utk_int { FP hdr; uint64_t at; int pending; } utk_int;

typedef struct utk_kernel {
    pthread_mutex_t lock;     /* the kernel lock */
    pthread_cond_t main_cv;   /* wakes utk_boot's thread at shutdown */
    utk_config cfg;
    uint64_t vnow;            /* virtual clock */
    uint64_t real0;           /* real-time origin (ns) */
    uint64_t seq;             /* ready/wait order counter */
    uint64_t next_tick;
    utk_tcb tcb[UTK_MAX_TSK + 1];   /* index = tskid (0 unused) */
    utk_sem sem[UTK_MAX_SEM + 1];
    utk_flg flg[UTK_MAX_FLG + 1];
    utk_mbx mbx[UTK_MAX_MBX + 1];
    utk_cyc cyc[UTK_MAX_CYC + 1];
    utk_int intr[UTK_MAX_INT];
    utk_tcb *ctxtsk;          /* running task (NULL while dispatching / idle) */
    int in_isr;               /* interrupt nesting (task-independent portion) */
    int dsp_disabled;         /* tk_dis_dsp */
    int shutdown;
    int threads_alive;
    pthread_t threads[256];   /* every task thread ever started, joined at shutdown */
    int nthreads;
    TD_HSVC hsvc;             /* installed hooks (NULL members = none) */
    TD_HDSP hdsp;
    TD_HINT hint;
    uint64_t idle_since;
    utk_acct acct;
} utk_kernel;

extern utk_kernel utk_k;
extern _Thread_local utk_tcb *utk_self;   /* the task this thread serves */

#define UTK_ID_OF(t) ((ID)((t) - utk_k.tcb))

/* Clock (lock held or CPU owner). */
uint64_t utk_clock(void);
void utk_advance(uint32_t units);
/* Scheduler (lock held). */
void utk_make_ready(utk_tcb *t);
void utk_make_wait(utk_tcb *t, int factor, ID wid, TMO tmout);
void utk_release_wait(utk_tcb *t, ER ercd);
utk_tcb *utk_highest_ready(void);
/* Block the calling task until it is released; returns its wait result (lock held). */
ER utk_wait_self(void);
/* Dispatch if a task of higher precedence is ready and dispatching is allowed (lock held). */
void utk_dispatch_if_needed(void);
/* The calling task leaves the CPU for good (dormant or deleted): dispatch, then unwind to the
 * thread loop (lock held, never returns). */
void utk_exit_self(void) __attribute__((noreturn));
UINT utk_tts_of(const utk_tcb *t);
/* Start the pthread of a task slot if it has none (lock held). */
int utk_thread_start(utk_tcb *t);

/* Interrupts (lock NOT held): deliver everything due; preempt the caller if needed. */
void utk_deliver_due(void);
/* Earliest due interrupt time (lock held). */
uint64_t utk_next_due(void);

/* Service-call frame: interrupt point + enter hook (lock not held), then takes the lock. */
typedef struct utk_svc {
    FN fncd;                  /* function code */
    void *exinf;              /* enter's return value */
    uint64_t t_enter;         /* clock at enter */
} utk_svc;
void utk_svc_begin(utk_svc *f, FN fncd, unsigned nargs, uintptr_t a0, uintptr_t a1, uintptr_t a2,
                   uintptr_t a3, uintptr_t a4);
/* Releases the lock, accounts the call and calls the leave hook; returns ret. */
ER utk_svc_end(utk_svc *f, ER ret);

/* Copy an 8-byte dsname. */
void utk_name_copy(UB dst[8], const UB *src, int have);

#endif
