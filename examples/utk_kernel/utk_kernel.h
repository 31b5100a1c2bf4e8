/* evtrace's host μT-Kernel: a small, deterministic μT-Kernel-like kernel on POSIX threads, built
 * only as a test and demo vehicle for the DS hooks (td_hok_svc/dsp/int) and the evtrace adapter.
 * It is NOT a μT-Kernel port and NOT freestanding. Uniprocessor priority scheduling: exactly one
 * task runs at a time (each task is a pthread that runs only while it is the kernel's current
 * task); a task made ready with a higher priority preempts at once when a service call readies it,
 * or at the next interrupt point (a service call, utk_sim_work, idle) when an interrupt readies it.
 * Interrupts are simulated: the system timer and tk_def_int handlers run on the interrupted
 * task's thread at interrupt points. With the virtual clock (default) time moves only by the
 * configured costs and by utk_sim_work(), so every run is identical.
 * Hooks are called where μT-Kernel 1.01 calls them (shared/formats/utkernel.md §2): svc enter/leave
 * in the caller's context without the kernel lock; stop before the next task is chosen (skipped
 * without a previous task), exec after the new task is current; int enter/leave around each
 * TA_HLNG handler (the timer included, as interrupt number cfg.timer_intno). The kernel keeps
 * its own accounting (utk_acct) from the same clock the hooks see. */
#ifndef UTK_KERNEL_H
#define UTK_KERNEL_H

#include <stdint.h>
#include "kernel/utk/utk_dbgspt.h"
#include "kernel/utk/utk_fncd.h"

/* Limits. */
#define UTK_MAX_TSK 16
#define UTK_MAX_SEM 16
#define UTK_MAX_FLG 8
#define UTK_MAX_MBX 8
#define UTK_MAX_CYC 8
#define UTK_MAX_INT 64
#define UTK_MIN_PRI 1
#define UTK_MAX_PRI 140

/* Attributes. */
#define TA_HLNG   0x00000001u
#define TA_DSNAME 0x00000040u
#define TA_TFIFO  0x00000000u
#define TA_TPRI   0x00000001u
#define TA_WSGL   0x00000000u
#define TA_WMUL   0x00000008u
#define TA_MFIFO  0x00000000u
#define TA_STA    0x00000002u
#define TA_PHS    0x00000004u
/* Wait modes of tk_wai_flg. */
#define TWF_ANDW   0x00u
#define TWF_ORW    0x01u
#define TWF_CLR    0x10u
#define TWF_BITCLR 0x20u
#define TSK_SELF 0

/* Creation packets (μT-Kernel member names). */
typedef struct t_ctsk {
    void *exinf;     /* extended information */
    ATR tskatr;      /* TA_HLNG [| TA_DSNAME] */
    FP task;         /* void task(INT stacd, void *exinf) */
    PRI itskpri;     /* initial priority (1 = highest) */
    W stksz;         /* ignored (pthreads) */
    UB dsname[8];    /* name when TA_DSNAME */
} T_CTSK;
typedef struct t_csem {
    void *exinf;
    ATR sematr;      /* TA_TFIFO [| TA_DSNAME] */
    INT isemcnt;     /* initial count */
    INT maxsem;      /* maximum count */
    UB dsname[8];
} T_CSEM;
typedef struct t_cflg {
    void *exinf;
    ATR flgatr;      /* TA_WSGL or TA_WMUL [| TA_DSNAME] */
    UINT iflgptn;    /* initial pattern */
    UB dsname[8];
} T_CFLG;
typedef struct t_msg { struct t_msg *msgque[1]; } T_MSG;  /* header of a mailbox message */
typedef struct t_cmbx {
    void *exinf;
    ATR mbxatr;      /* TA_MFIFO [| TA_DSNAME] */
    UB dsname[8];
} T_CMBX;
typedef struct t_ccyc {
    void *exinf;
    ATR cycatr;      /* TA_HLNG [| TA_STA] [| TA_DSNAME] */
    FP cychdr;       /* void cychdr(void *exinf) */
    RELTIM cyctim;   /* period (ms) */
    RELTIM cycphs;   /* phase (ms) */
    UB dsname[8];
} T_CCYC;
typedef struct t_dint {
    ATR intatr;      /* TA_HLNG */
    FP inthdr;       /* void inthdr(UINT dintno) */
} T_DINT;

/* Services (subset). Every one is traced through the svc hooks with its TFN_* code. */
ID tk_cre_tsk(CONST T_CTSK *pk_ctsk);
ER tk_del_tsk(ID tskid);
ER tk_sta_tsk(ID tskid, INT stacd);
void tk_ext_tsk(void);
void tk_exd_tsk(void);
ID tk_get_tid(void);
ER tk_chg_pri(ID tskid, PRI tskpri);
ER tk_sus_tsk(ID tskid);
ER tk_rsm_tsk(ID tskid);
ER tk_slp_tsk(TMO tmout);
ER tk_wup_tsk(ID tskid);
ER tk_dly_tsk(RELTIM dlytim);
ER tk_rot_rdq(PRI tskpri);
ID tk_cre_sem(CONST T_CSEM *pk_csem);
ER tk_del_sem(ID semid);
ER tk_sig_sem(ID semid, INT cnt);
ER tk_wai_sem(ID semid, INT cnt, TMO tmout);
ID tk_cre_flg(CONST T_CFLG *pk_cflg);
ER tk_del_flg(ID flgid);
ER tk_set_flg(ID flgid, UINT setptn);
ER tk_clr_flg(ID flgid, UINT clrptn);
ER tk_wai_flg(ID flgid, UINT waiptn, UINT wfmode, UINT *p_flgptn, TMO tmout);
ID tk_cre_mbx(CONST T_CMBX *pk_cmbx);
ER tk_del_mbx(ID mbxid);
ER tk_snd_mbx(ID mbxid, T_MSG *pk_msg);
ER tk_rcv_mbx(ID mbxid, T_MSG **ppk_msg, TMO tmout);
ID tk_cre_cyc(CONST T_CCYC *pk_ccyc);
ER tk_del_cyc(ID cycid);
ER tk_sta_cyc(ID cycid);
ER tk_stp_cyc(ID cycid);
ER tk_def_int(UINT dintno, CONST T_DINT *pk_dint);
ER tk_get_tim(SYSTIM *pk_tim);

/* Simulation configuration (zero-initialised = the defaults in brackets). */
typedef struct utk_config {
    int real_time;          /* 0: virtual clock [default]; 1: CLOCK_MONOTONIC, sleeping when idle */
    uint32_t tick_us;       /* timer period in clock units (µs) [1000] */
    uint32_t cost_svc;      /* virtual: time a service call body takes [2] */
    uint32_t cost_dispatch; /* virtual: time between stop and exec [1] */
    uint32_t cost_isr;      /* virtual: time of an interrupt handler besides its calls [3] */
    UINT timer_intno;       /* interrupt number of the system timer [0] */
    uint64_t end_time;      /* stop when idle and nothing is due before this time [10 s] */
} utk_config;

/* Boot the kernel: create the initial task (priority init_pri, name "init") running
 * init(0, exinf), run until utk_shutdown() or until the system is idle past cfg->end_time, stop
 * every task thread and return 0 (-1 if the kernel could not start). One kernel per process at a
 * time; utk_boot may be called again after it returned (a fresh kernel). cfg may be NULL. */
int utk_boot(const utk_config *cfg, void (*init)(INT stacd, void *exinf), PRI init_pri, void *exinf);
/* End the run from a task: never returns to the caller (its thread stops). */
void utk_shutdown(void);
/* The task computes for `units` of clock time (virtual: the clock advances, interrupts due in
 * between are delivered and may preempt; real time: sleeps). Task context only. */
void utk_sim_work(uint32_t units);
/* Raise interrupt dintno now (delivered at the next interrupt point) / at absolute time `at`. */
void utk_sim_raise_int(UINT dintno);
void utk_sim_schedule_int(UINT dintno, uint64_t at);
/* The kernel clock (virtual or real, µs) and its low 32 bits (a TXTB time source). */
uint64_t utk_now(void);
uint32_t utk_now32(void);
/* Clock frequency of utk_now (Hz). */
#define UTK_CLOCK_HZ 1000000u

/* The kernel's own accounting of a run, from the clock values at the hook points. */
typedef struct utk_acct_svc {
    FN fncd;             /* function code */
    uint64_t count;      /* calls that returned */
    uint64_t total;      /* sum of enter->leave times */
    uint64_t min, max;   /* shortest/longest */
} utk_acct_svc;
typedef struct utk_acct {
    uint64_t task_cpu[UTK_MAX_TSK + 1];     /* per tskid: exec->stop time (ISRs inside included;
                                               the task running at shutdown: exec->end) */
    uint64_t task_isr[UTK_MAX_TSK + 1];     /* per tskid: ISR time inside its running intervals */
    uint64_t task_runs[UTK_MAX_TSK + 1];    /* per tskid: exec count */
    char task_name[UTK_MAX_TSK + 1][9];     /* per tskid: name at creation */
    uint64_t isr_count;                     /* interrupt handler runs */
    uint64_t isr_time;                      /* total enter->leave time */
    uint64_t idle_time;                     /* time with no task running (ISRs excluded) */
    utk_acct_svc svc[UTK_FN_INDEX_MAX + 1]; /* per function index */
    uint64_t end;                           /* clock at the end of the run */
} utk_acct;
/* Accounting of the current or last run. */
const utk_acct *utk_accounting(void);

#endif
