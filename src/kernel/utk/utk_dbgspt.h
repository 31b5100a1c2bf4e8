/* μT-Kernel types and the DS ("debugger support") hook interface the evtrace adapter is written
 * against (facts: shared/formats/utkernel.md §1, §4). On a real target build the adapter with
 * -DEVT_UTK_KERNEL_HEADERS so the kernel's own <tk/tkernel.h> and <tk/dbgspt.h> are used instead;
 * everything below then comes from the kernel. The host kernel of examples/utk_kernel implements
 * exactly these declarations. Freestanding C99. */
#ifndef EVT_UTK_DBGSPT_H
#define EVT_UTK_DBGSPT_H

#ifdef EVT_UTK_KERNEL_HEADERS
#include <tk/tkernel.h>
#include <tk/dbgspt.h>
#else

#include <stdint.h>

/* Basic μT-Kernel types (32-bit INT targets; on the host INT stays 32 bits, pointers are 64). */
typedef int8_t B;
typedef int16_t H;
typedef int32_t W;
typedef uint8_t UB;
typedef uint16_t UH;
typedef uint32_t UW;
typedef int INT;
typedef unsigned int UINT;
typedef INT ID;       /* object id */
typedef INT FN;       /* function code */
typedef INT ER;       /* error code */
typedef INT PRI;      /* priority */
typedef W TMO;        /* timeout (ms) */
typedef UW RELTIM;    /* relative time (ms) */
typedef UINT ATR;     /* attributes */
typedef INT BOOL;
typedef void *VP;
#ifndef CONST
#define CONST const
#endif
#ifndef NULL
#define NULL ((void *)0)
#endif
/* FP is unprototyped in μT-Kernel ([3.0]): a hook is stored as FP and called through the exact
 * prototype of its slot (see the TD_* tables below). */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#endif
typedef void (*FP)();
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

typedef struct systim { W hi; UW lo; } SYSTIM;

#define TRUE 1
#define FALSE 0
#define TMO_POL 0
#define TMO_FEVR (-1)

/* Error codes (3.0 errno.h, no sub-codes). */
#define E_OK     0
#define E_SYS    (-5)
#define E_NOSPT  (-9)
#define E_RSFN   (-10)
#define E_RSATR  (-11)
#define E_PAR    (-17)
#define E_ID     (-18)
#define E_CTX    (-25)
#define E_MACV   (-26)
#define E_OACV   (-27)
#define E_ILUSE  (-28)
#define E_NOMEM  (-33)
#define E_LIMIT  (-34)
#define E_OBJ    (-41)
#define E_NOEXS  (-42)
#define E_QOVR   (-43)
#define E_RLWAI  (-49)
#define E_TMOUT  (-50)
#define E_DLT    (-51)
#define E_DISWAI (-52)

/* Task states (tskstat). */
#define TTS_RUN      0x01
#define TTS_RDY      0x02
#define TTS_WAI      0x04
#define TTS_SUS      0x08
#define TTS_WAS      0x0C
#define TTS_DMT      0x10
#define TTS_NODISWAI 0x80

/* Object name types of td_ref_dsname (only those evtrace asks for). */
#define TN_TSK 0x01
#define TN_SEM 0x02
#define TN_FLG 0x03
#define TN_MBX 0x04
#define TN_MBF 0x05
#define TN_POR 0x06
#define TN_MTX 0x07
#define TN_MPL 0x08
#define TN_MPF 0x09
#define TN_CYC 0x0a
#define TN_ALM 0x0b

/* Caller information handed to the svc enter hook. Implementation-defined; the host kernel
 * fills the ARMv7-M shape (system stack pointer and frame pointer at the call). */
typedef struct td_calinf {
    void *ssp;  /* system stack pointer at the call */
    void *r11;  /* frame pointer at the call */
} TD_CALINF;

/* System call hooks: enter is called as void *enter(FN fncd, TD_CALINF *calinf, ...) with the
 * call's own arguments (each passed as a machine word, uintptr_t), leave as
 * void leave(FN fncd, INT ret, void *exinf) with exinf = what enter returned (NULL if no enter). */
typedef struct td_hsvc {
    FP enter;   /* void *(*)(FN, TD_CALINF *, ...) */
    FP leave;   /* void (*)(FN, INT, void *) */
} TD_HSVC;
/* Dispatcher hooks: exec(tskid, lsid) when a task starts/resumes running, stop(tskid, lsid,
 * tskstat) when it stops (tskstat = TTS_RDY/WAI/SUS/WAS/DMT or 0 = no longer exists). */
typedef struct td_hdsp {
    FP exec;    /* void (*)(ID, INT) */
    FP stop;    /* void (*)(ID, INT, UINT) */
} TD_HDSP;
/* Interrupt hooks around a TA_HLNG handler: enter(dintno), leave(dintno). */
typedef struct td_hint {
    FP enter;   /* void (*)(UINT) */
    FP leave;   /* void (*)(UINT) */
} TD_HINT;

/* Exact prototypes of the hook slots (how the kernel calls them). */
typedef void *(*TD_HSVC_ENTER_FN)(FN fncd, TD_CALINF *calinf, ...);
typedef void (*TD_HSVC_LEAVE_FN)(FN fncd, INT ret, void *exinf);
typedef void (*TD_HDSP_EXEC_FN)(ID tskid, INT lsid);
typedef void (*TD_HDSP_STOP_FN)(ID tskid, INT lsid, UINT tskstat);
typedef void (*TD_HINT_FN)(UINT dintno);

/* Task state reference (td_ref_tsk); members evtrace uses, in the 3.0 order. */
typedef struct td_rtsk {
    void *exinf;   /* extended information */
    PRI tskpri;    /* current priority */
    PRI tskbpri;   /* base priority */
    UINT tskstat;  /* TTS_* */
    UINT tskwait;  /* wait factor */
    ID wid;        /* waited object */
    INT wupcnt;    /* queued wakeups */
    INT suscnt;    /* suspend count */
    FP task;       /* task start address */
    W stksz;       /* stack size */
    void *istack;  /* initial stack pointer */
} TD_RTSK;

/* System state reference (td_ref_sys). */
typedef struct td_rsys {
    INT sysstat;   /* TSS_* */
    ID runtskid;   /* running task (0 = none) */
    ID schedtskid; /* task scheduled to run next */
} TD_RSYS;

/* Set (or with NULL cancel) the hook routines. E_OK on success. */
ER td_hok_svc(CONST TD_HSVC *hsvc);
ER td_hok_dsp(CONST TD_HDSP *hdsp);
ER td_hok_int(CONST TD_HINT *hint);
/* DS references the adapter may use inside hooks (USE_DBGSPT; td_ref_dsname needs USE_OBJECT_NAME). */
ER td_ref_tsk(ID tskid, TD_RTSK *rtsk);
ER td_ref_dsname(UINT type, ID id, UB *dsname);
ER td_ref_sys(TD_RSYS *pk_rsys);
INT td_lst_tsk(ID list[], INT nent);

#endif /* EVT_UTK_KERNEL_HEADERS */
#endif
