/* μT-Kernel DS hook routines -> generic kernel hooks (see utk_adapter.h, docs/utkernel.md).
 * No mutable state: exinf carries what a leave needs, so any nesting is safe. Freestanding. */
#include "kernel/utk/utk_adapter.h"

#include <stdarg.h>

/* The DS entry points come from the kernel. With GCC/Clang they are weak references, so the
 * recorder library also links into images without a μT-Kernel (the freestanding Cortex-M image):
 * attach then returns E_NOSPT and the td_ref_* lookups are skipped. */
#if defined(__GNUC__) && EVT_CFG_UTK_WEAK_DS
#pragma weak td_hok_svc
#pragma weak td_hok_dsp
#pragma weak td_hok_int
#pragma weak td_ref_tsk
#pragma weak td_ref_dsname
#pragma weak td_ref_sys
#pragma weak td_lst_tsk
#define UTK_HAVE_(f) ((f) != 0)
#else
#define UTK_HAVE_(f) 1
#endif

/* Per function index (1..UTK_FN_INDEX_MAX): object class and role of the call. */
static const uint8_t k_fn_oc[UTK_FN_INDEX_MAX + 1] = {
#define UTK_AD_OC_(ix, name, n, oc, role) [ix] = oc,
    UTK_FN_TABLE(UTK_AD_OC_)
#undef UTK_AD_OC_
};
static const uint8_t k_fn_role[UTK_FN_INDEX_MAX + 1] = {
#define UTK_AD_ROLE_(ix, name, n, oc, role) [ix] = role,
    UTK_FN_TABLE(UTK_AD_ROLE_)
#undef UTK_AD_ROLE_
};

/* Generic object type of an object class. */
static evt_hook_obj obj_type_of(unsigned oc)
{
    switch (oc) {
    case UTK_OC_TSK: return EVT_HOOK_OBJ_THREAD;
    case UTK_OC_SEM: return EVT_HOOK_OBJ_SEMAPHORE;
    case UTK_OC_FLG: return EVT_HOOK_OBJ_EVENT_FLAGS;
    case UTK_OC_MBX: return EVT_HOOK_OBJ_MAILBOX;
    case UTK_OC_MBF: return EVT_HOOK_OBJ_MSGBUF;
    case UTK_OC_MTX: return EVT_HOOK_OBJ_MUTEX;
    case UTK_OC_MPL: return EVT_HOOK_OBJ_MEMPOOL_VAR;
    case UTK_OC_MPF: return EVT_HOOK_OBJ_MEMPOOL_FIXED;
    case UTK_OC_CYC:
    case UTK_OC_ALM: return EVT_HOOK_OBJ_TIMER;
    default: return EVT_HOOK_OBJ_OTHER;
    }
}

evt_hook_state evt_utk_state_of(UINT tskstat)
{
    switch (tskstat & ~(UINT)TTS_NODISWAI) {
    case TTS_RUN:
    case TTS_RDY: return EVT_HOOK_STATE_READY;
    case TTS_WAI: return EVT_HOOK_STATE_WAITING;
    case TTS_SUS: return EVT_HOOK_STATE_SUSPENDED;
    case TTS_WAS: return EVT_HOOK_STATE_WAIT_SUSPENDED;
    case TTS_DMT: return EVT_HOOK_STATE_DORMANT;
    default: return EVT_HOOK_STATE_DELETED;
    }
}

#if EVT_CFG_HOOKS_OBJECT
/* "<class><id>" as a fallback name, e.g. "sem3" (8 bytes suffice for a 16-bit id). */
static void default_name(unsigned oc, ID id, char out[16])
{
    static const char *const pfx[UTK_OC_COUNT_] = {"obj", "tsk", "sem", "flg", "mbx", "mbf",
                                                   "por", "mtx", "mpl", "mpf", "cyc", "alm"};
    const char *p = oc < UTK_OC_COUNT_ ? pfx[oc] : "obj";
    unsigned n = 0, v = (unsigned)id;
    char digits[12];
    unsigned nd = 0;
    while (*p && n < 4) out[n++] = *p++;
    do { digits[nd++] = (char)('0' + v % 10u); v /= 10u; } while (v && nd < sizeof digits);
    while (nd && n < 15) out[n++] = digits[--nd];
    out[n] = 0;
}

/* Record the creation of object `id` of class `oc` (name and priority asked from the kernel). */
static void record_create(unsigned oc, ID id)
{
    char name[16];
    uint32_t param = 0;
    default_name(oc, id, name);
#if EVT_CFG_UTK_TD_REF
    UB dsname[9];
    for (unsigned i = 0; i < sizeof dsname; i++) dsname[i] = 0;
    if (UTK_HAVE_(td_ref_dsname) && td_ref_dsname(oc, id, dsname) == E_OK && dsname[0]) {
        for (unsigned i = 0; i < 8; i++) name[i] = (char)dsname[i];
        name[8] = 0;
    }
    if (oc == UTK_OC_TSK) {
        TD_RTSK r;
        if (UTK_HAVE_(td_ref_tsk) && td_ref_tsk(id, &r) == E_OK) param = (uint32_t)r.tskpri;
    }
#endif
    EVT_HOOK_OBJ_CREATE(obj_type_of(oc), EVT_UTK_HANDLE(oc, id), name, param);
}
#endif

/* Role (UTK_ROLE_*) of a call by its function code: by index in the table, UTK_ROLE_NONE for an
 * extended SVC or an index past it. */
static unsigned role_of(FN fncd)
{
    unsigned ix = UTK_FNCD_INDEX(fncd);
    return UTK_FNCD_IS_SVC(fncd) && ix <= UTK_FN_INDEX_MAX ? k_fn_role[ix] : UTK_ROLE_NONE;
}

/* 1 if the leave of this call needs its argument 1 even while filtered (a delete: the object's
 * id). */
static int needs_arg1(FN fncd)
{
#if EVT_CFG_HOOKS_OBJECT
    return role_of(fncd) == UTK_ROLE_DEL;
#else
    (void)fncd;
    return 0;
#endif
}

/* The arguments are read in order, each only if the call has it: no i < n test per slot of the
 * array. */
void *evt_utk_svc_enter(FN fncd, TD_CALINF *calinf, ...)
{
    uintptr_t a[EVT_HOOK_SVC_MAX_ARGS];
    unsigned n = UTK_FNCD_IS_SVC(fncd) ? UTK_FNCD_NARGS(fncd) : 1u;
    va_list ap;
    (void)calinf;
    if (!EVT_HOOK_GATE_(SVC)) { /* filtered or off: only what the leave needs */
        uintptr_t a0 = 0;
        if (!needs_arg1(fncd)) return (void *)1; /* non-NULL: "enter seen"; no argument read */
        if (n > 0) {
            va_start(ap, calinf);
            a0 = va_arg(ap, uintptr_t);
            va_end(ap);
        }
        return (void *)((a0 << 1) | 1u);
    }
    if (n > EVT_HOOK_SVC_MAX_ARGS) n = EVT_HOOK_SVC_MAX_ARGS;
    typedef char five_args[EVT_HOOK_SVC_MAX_ARGS == 5 ? 1 : -1]; /* the reads below */
    (void)sizeof(five_args);
    /* The backend reads args[0..n-1] only (evtrace/hooks.h): the rest stays unset; a[0] is the
     * return value's argument 1 (0 without one). */
    a[0] = 0u;
    va_start(ap, calinf);
    if (n > 0) {
        a[0] = va_arg(ap, uintptr_t);
        if (n > 1) {
            a[1] = va_arg(ap, uintptr_t);
            if (n > 2) {
                a[2] = va_arg(ap, uintptr_t);
                if (n > 3) {
                    a[3] = va_arg(ap, uintptr_t);
                    if (n > 4) a[4] = va_arg(ap, uintptr_t);
                }
            }
        }
    }
    va_end(ap);
#if EVT_CFG_HOOKS_SVC
    EVT_HOOK_CALL_(svc_enter)((int32_t)fncd, (uint32_t)n, a); /* the gate passed above */
#endif
    /* Non-NULL whatever the argument: bit 0 says "enter seen", the rest keeps argument 1. */
    return (void *)((a[0] << 1) | 1u);
}

#if EVT_CFG_HOOKS_OBJECT
/* A create or delete call returned: name the new object, or record the deletion. Out of line, so
 * the common leave (no object changed) stays a short leaf. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void object_changed(FN fncd, INT ret, void *exinf)
{
    unsigned ix = UTK_FNCD_INDEX(fncd), oc = k_fn_oc[ix];
    if (k_fn_role[ix] == UTK_ROLE_CRE && ret > 0) {
        record_create(oc, (ID)ret);
    } else if (k_fn_role[ix] == UTK_ROLE_DEL && ret == E_OK && exinf != NULL) {
        ID id = (ID)((uintptr_t)exinf >> 1);
        EVT_HOOK_OBJ_DELETE(obj_type_of(oc), EVT_UTK_HANDLE(oc, id));
    }
}
#endif

#if EVT_CFG_HOOKS_OBJECT
/* The leave of a create or delete: the service record (gate open), then the object registry (kept
 * even while service calls are filtered). Out of line: the common leave below makes only a tail
 * call (no registers to save). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void leave_object(FN fncd, INT ret, void *exinf)
{
    EVT_HOOK_SVC_LEAVE(fncd, ret, exinf != NULL);
    object_changed(fncd, ret, exinf);
}
#endif

void evt_utk_svc_leave(FN fncd, INT ret, void *exinf)
{
#if EVT_CFG_HOOKS_OBJECT
    unsigned role = role_of(fncd);
    if (role == UTK_ROLE_CRE || role == UTK_ROLE_DEL) {
        leave_object(fncd, ret, exinf);
        return;
    }
#endif
    EVT_HOOK_SVC_LEAVE(fncd, ret, exinf != NULL);
    (void)fncd;
    (void)ret;
    (void)exinf;
}

void evt_utk_dsp_exec(ID tskid, INT lsid)
{
    uint32_t prio = EVT_HOOK_PRIO_UNKNOWN;
    (void)lsid;
#if EVT_CFG_UTK_TD_REF
    TD_RTSK r;
    if (UTK_HAVE_(td_ref_tsk) && td_ref_tsk(tskid, &r) == E_OK) prio = (uint32_t)r.tskpri;
#endif
    EVT_HOOK_THREAD_IN(EVT_UTK_HANDLE(UTK_OC_TSK, tskid), prio);
}

/* lsid is not defined by μT-Kernel 1.01 (it leaves argument 2 unset): never read it. */
void evt_utk_dsp_stop(ID tskid, INT lsid, UINT tskstat)
{
    (void)lsid;
    EVT_HOOK_THREAD_OUT(EVT_UTK_HANDLE(UTK_OC_TSK, tskid), evt_utk_state_of(tskstat), tskstat);
    /* tskstat 0: the task no longer exists (tk_exd_tsk). */
    if (tskstat == 0) EVT_HOOK_OBJ_DELETE(EVT_HOOK_OBJ_THREAD, EVT_UTK_HANDLE(UTK_OC_TSK, tskid));
}

void evt_utk_name_interrupt(UINT dintno, const char *name)
{
    EVT_HOOK_OBJ_CREATE(EVT_HOOK_OBJ_INTERRUPT, dintno, name, dintno);
    (void)dintno;
    (void)name;
}

void evt_utk_int_enter(UINT dintno)
{
    EVT_HOOK_ISR_ENTER(dintno);
    (void)dintno;
}

void evt_utk_int_leave(UINT dintno)
{
    EVT_HOOK_ISR_EXIT(dintno);
    (void)dintno;
}

/* Stored as FP like any μT-Kernel hook; void (*)(void) in between keeps -Wcast-function-type quiet. */
#define UTK_AD_FP_(f) ((FP)(void (*)(void))(f))
CONST TD_HSVC evt_utk_hsvc = {UTK_AD_FP_(evt_utk_svc_enter), UTK_AD_FP_(evt_utk_svc_leave)};
CONST TD_HDSP evt_utk_hdsp = {UTK_AD_FP_(evt_utk_dsp_exec), UTK_AD_FP_(evt_utk_dsp_stop)};
CONST TD_HINT evt_utk_hint = {UTK_AD_FP_(evt_utk_int_enter), UTK_AD_FP_(evt_utk_int_leave)};

/* At attach: name the tasks that already exist and tell the hooks which one is running, so the
 * records that follow carry the right context. */
static void snapshot(UINT which)
{
#if EVT_CFG_UTK_TD_REF
#if EVT_CFG_HOOKS_OBJECT
    if (UTK_HAVE_(td_lst_tsk)) {
        ID ids[32];
        INT n = td_lst_tsk(ids, 32);
        for (INT i = 0; i < n && i < 32; i++) record_create(UTK_OC_TSK, ids[i]);
    }
#endif
    if ((which & EVT_UTK_HOOK_DSP) && UTK_HAVE_(td_ref_sys)) {
        TD_RSYS s;
        if (td_ref_sys(&s) == E_OK && s.runtskid > 0) evt_utk_dsp_exec(s.runtskid, 0);
    }
#else
    (void)which;
#endif
}

static ER hok(UINT which, int on)
{
    ER er = E_OK, e;
    if (which & EVT_UTK_HOOK_SVC) {
        e = UTK_HAVE_(td_hok_svc) ? td_hok_svc(on ? &evt_utk_hsvc : NULL) : E_NOSPT;
        if (e != E_OK && er == E_OK) er = e;
    }
    if (which & EVT_UTK_HOOK_DSP) {
        e = UTK_HAVE_(td_hok_dsp) ? td_hok_dsp(on ? &evt_utk_hdsp : NULL) : E_NOSPT;
        if (e != E_OK && er == E_OK) er = e;
    }
    if (which & EVT_UTK_HOOK_INT) {
        e = UTK_HAVE_(td_hok_int) ? td_hok_int(on ? &evt_utk_hint : NULL) : E_NOSPT;
        if (e != E_OK && er == E_OK) er = e;
    }
    return er;
}

ER evt_utk_attach(UINT which)
{
    ER er = hok(which, 1);
    if (er == E_OK) snapshot(which);
    return er;
}
ER evt_utk_detach(UINT which) { return hok(which, 0); }
