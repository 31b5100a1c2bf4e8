/* The fake hooks backend (evt_fake_hooks.h): logs every evt_test_hook_* call. */
#include "evt_fake_hooks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

fh_rec fh_log[FH_MAX];
int fh_n;
uint64_t (*fh_clock)(void);

void fh_reset(void)
{
    fh_n = 0;
    memset(fh_log, 0, sizeof fh_log);
}

static fh_rec *add(int what)
{
    if (fh_n >= FH_MAX) {
        fprintf(stderr, "evt_fake_hooks: more than %d calls\n", FH_MAX);
        abort();
    }
    fh_rec *r = &fh_log[fh_n++];
    memset(r, 0, sizeof *r);
    r->what = what;
    r->t = fh_clock ? fh_clock() : 0;
    return r;
}

int fh_count(int what)
{
    int n = 0;
    for (int i = 0; i < fh_n; i++) n += fh_log[i].what == what;
    return n;
}

int fh_find(int from, int what)
{
    for (int i = from; i < fh_n; i++)
        if (fh_log[i].what == what) return i;
    return -1;
}

int fh_find_code(int from, int what, int32_t code)
{
    for (int i = from; i < fh_n; i++)
        if (fh_log[i].what == what && fh_log[i].code == code) return i;
    return -1;
}

/* The backend: the functions EVT_CFG_HOOKS_BACKEND=test calls (evtrace/hooks.h contracts). */
void evt_test_hook_kernel_info(uint32_t kernel, uint32_t version);
void evt_test_hook_thread_in(uintptr_t thread, uint32_t prio);
void evt_test_hook_thread_out(uintptr_t thread, evt_hook_state state, uint32_t native);
void evt_test_hook_isr_enter(uint32_t irq);
void evt_test_hook_isr_exit(uint32_t irq);
void evt_test_hook_svc_enter(int32_t code, uint32_t nargs, const uintptr_t *args);
void evt_test_hook_svc_leave(int32_t code, int32_t ret, int paired);
void evt_test_hook_obj_create(evt_hook_obj type, uintptr_t obj, const char *name, uint32_t param);
void evt_test_hook_obj_delete(evt_hook_obj type, uintptr_t obj);
void evt_test_hook_user(uint32_t id, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4);

void evt_test_hook_kernel_info(uint32_t kernel, uint32_t version)
{
    fh_rec *r = add(FH_INFO);
    r->a = kernel;
    r->b = version;
}
void evt_test_hook_thread_in(uintptr_t thread, uint32_t prio)
{
    fh_rec *r = add(FH_IN);
    r->obj = thread;
    r->a = prio;
}
void evt_test_hook_thread_out(uintptr_t thread, evt_hook_state state, uint32_t native)
{
    fh_rec *r = add(FH_OUT);
    r->obj = thread;
    r->a = (uint32_t)state;
    r->b = native;
}
void evt_test_hook_isr_enter(uint32_t irq) { add(FH_ISR_IN)->a = irq; }
void evt_test_hook_isr_exit(uint32_t irq) { add(FH_ISR_OUT)->a = irq; }
void evt_test_hook_svc_enter(int32_t code, uint32_t nargs, const uintptr_t *args)
{
    fh_rec *r = add(FH_SVC_IN);
    r->code = code;
    r->nargs = nargs;
    for (uint32_t i = 0; i < nargs && i < 5; i++) r->args[i] = args[i];
}
void evt_test_hook_svc_leave(int32_t code, int32_t ret, int paired)
{
    fh_rec *r = add(FH_SVC_OUT);
    r->code = code;
    r->b = (uint32_t)ret;
    r->paired = paired;
}
void evt_test_hook_obj_create(evt_hook_obj type, uintptr_t obj, const char *name, uint32_t param)
{
    fh_rec *r = add(FH_CRE);
    r->obj = obj;
    r->a = (uint32_t)type;
    r->b = param;
    snprintf(r->name, sizeof r->name, "%s", name ? name : "(null)");
}
void evt_test_hook_obj_delete(evt_hook_obj type, uintptr_t obj)
{
    fh_rec *r = add(FH_DEL);
    r->obj = obj;
    r->a = (uint32_t)type;
}
void evt_test_hook_user(uint32_t id, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4)
{
    fh_rec *r = add(FH_USER);
    r->a = id;
    r->b = a1 + a2 + a3 + a4;
}
