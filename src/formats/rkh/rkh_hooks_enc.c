/* RKH-stream backend of the generic kernel hooks: evt_rkh_hook_* -> one RKH user record each,
 * through the public RKH recorder API (record layouts: rkh_hooks_defs.h). The recorder serialises
 * records (its own lock), so hooks may come from any context. Freestanding: no libc. */
#include "formats/rkh/rkh_hooks.h"

#include "formats/rkh/rkh_defs.h"

EVT_HOOK_DECLARE_BACKEND(rkh)

/* User-field type codes, from RKH_USER_FIELD_TABLE (rkh_defs.h): UF_UI8, UF_I32, ... Written with
 * width 0: the reader's default rendering. */
enum {
#define RKH_HOOK_UF_(t, name, k, sg) UF_##name = t,
    RKH_USER_FIELD_TABLE(RKH_HOOK_UF_)
#undef RKH_HOOK_UF_
};

/* The attached recorder, or NULL: stored and loaded atomically (relaxed loads; the recorder's lock
 * orders what attach wrote into it), since attach and detach may run while other threads and
 * handlers call hooks (before: a plain volatile pointer, a data race under TSan,
 * test_rkh_hooks_attach_mt). */
static evt_rkh_recorder *g_rec;
#define HOOK_REC() EVT_LOAD_RLX(&g_rec)

static const char *const k_hook_names[] = {
#define RKH_HOOK_NAME_(n, name, s) RKH_HOOKS_PREFIX s,
    RKH_HOOKS_TABLE(RKH_HOOK_NAME_)
#undef RKH_HOOK_NAME_
};
static const uint8_t k_hook_numbers[] = {
#define RKH_HOOK_NUM_(n, name, s) n,
    RKH_HOOKS_TABLE(RKH_HOOK_NUM_)
#undef RKH_HOOK_NUM_
};

void evt_rkh_hooks_attach(evt_rkh_recorder *r)
{
    if (!r) {
        EVT_STORE_REL(&g_rec, r);
        return;
    }
    /* Every hook record enabled and named before the first hook records: an interrupt arriving
     * half-way must not find isr_enter on and isr_exit still off. */
    for (unsigned n = 0; n < sizeof k_hook_names / sizeof k_hook_names[0]; n++) {
        evt_rkh_filter_off_event(r, RKH_TE_USER + k_hook_numbers[n]);
        evt_rkh_sym_tusr(r, k_hook_numbers[n], k_hook_names[n]);
    }
    EVT_STORE_REL(&g_rec, r);
}

/* The attached recorder, or NULL (for rkh_clock_enc.c). */
evt_rkh_recorder *evt_rkh_hooks_recorder(void);
evt_rkh_recorder *evt_rkh_hooks_recorder(void) { return HOOK_REC(); }

/* Open hook record n on the attached recorder; 0 if detached or filtered. */
static evt_rkh_recorder *hook_begin(unsigned n)
{
    evt_rkh_recorder *r = HOOK_REC();
    return (r && evt_rkh_begin(r, RKH_TE_USER + n)) ? r : (evt_rkh_recorder *)0;
}

void evt_rkh_hook_kernel_info(uint32_t kernel, uint32_t version)
{
    evt_rkh_recorder *r = hook_begin(RKH_HOOK_KERNEL_INFO);
    if (!r) return;
    evt_rkh_usr_int(r, UF_UI32, 0, kernel);
    evt_rkh_usr_int(r, UF_UI32, 0, version);
    evt_rkh_end(r);
}

void evt_rkh_hook_thread_in(uintptr_t thread, uint32_t prio)
{
    evt_rkh_recorder *r = hook_begin(RKH_HOOK_THREAD_IN);
    if (!r) return;
    evt_rkh_usr_int(r, UF_OBJ, 0, (uint32_t)thread);
    evt_rkh_usr_int(r, UF_UI32, 0, prio);
    evt_rkh_end(r);
}

void evt_rkh_hook_thread_out(uintptr_t thread, evt_hook_state state, uint32_t native)
{
    evt_rkh_recorder *r = hook_begin(RKH_HOOK_THREAD_OUT);
    if (!r) return;
    evt_rkh_usr_int(r, UF_OBJ, 0, (uint32_t)thread);
    evt_rkh_usr_int(r, UF_UI8, 0, (uint32_t)state);
    evt_rkh_usr_int(r, UF_UI32, 0, native);
    evt_rkh_end(r);
}

static void irq_record(unsigned n, uint32_t irq)
{
    evt_rkh_recorder *r = hook_begin(n);
    if (!r) return;
    evt_rkh_usr_int(r, UF_UI32, 0, irq);
    evt_rkh_end(r);
}

void evt_rkh_hook_isr_enter(uint32_t irq) { irq_record(RKH_HOOK_ISR_ENTER, irq); }
void evt_rkh_hook_isr_exit(uint32_t irq) { irq_record(RKH_HOOK_ISR_EXIT, irq); }

void evt_rkh_hook_svc_enter(int32_t code, uint32_t nargs, const uintptr_t *args)
{
    evt_rkh_recorder *r = hook_begin(RKH_HOOK_SVC_ENTER);
    if (!r) return;
    evt_rkh_usr_int(r, UF_I32, 0, (uint32_t)code);
    if (nargs > EVT_HOOK_SVC_MAX_ARGS) nargs = EVT_HOOK_SVC_MAX_ARGS;
    for (uint32_t i = 0; args && i < nargs; i++) evt_rkh_usr_int(r, UF_X32, 0, (uint32_t)args[i]);
    evt_rkh_end(r);
}

void evt_rkh_hook_svc_leave(int32_t code, int32_t ret, int paired)
{
    evt_rkh_recorder *r = hook_begin(RKH_HOOK_SVC_LEAVE);
    if (!r) return;
    evt_rkh_usr_int(r, UF_I32, 0, (uint32_t)code);
    evt_rkh_usr_int(r, UF_I32, 0, (uint32_t)ret);
    evt_rkh_usr_int(r, UF_UI8, 0, paired ? 1u : 0u);
    evt_rkh_end(r);
}

void evt_rkh_hook_obj_create(evt_hook_obj type, uintptr_t obj, const char *name, uint32_t param)
{
    evt_rkh_recorder *r = HOOK_REC();
    if (r && name) evt_rkh_sym_obj(r, obj, name); /* the name first, so the record below shows it */
    if (!(r = hook_begin(RKH_HOOK_OBJ_CREATE))) return;
    evt_rkh_usr_int(r, UF_UI8, 0, (uint32_t)type);
    evt_rkh_usr_int(r, UF_OBJ, 0, (uint32_t)obj);
    evt_rkh_usr_int(r, UF_UI32, 0, param);
    evt_rkh_end(r);
}

void evt_rkh_hook_obj_delete(evt_hook_obj type, uintptr_t obj)
{
    evt_rkh_recorder *r = hook_begin(RKH_HOOK_OBJ_DELETE);
    if (!r) return;
    evt_rkh_usr_int(r, UF_UI8, 0, (uint32_t)type);
    evt_rkh_usr_int(r, UF_OBJ, 0, (uint32_t)obj);
    evt_rkh_end(r);
}

void evt_rkh_hook_user(uint32_t id, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4)
{
    evt_rkh_recorder *r = hook_begin(RKH_HOOK_USER);
    if (!r) return;
    evt_rkh_usr_int(r, UF_UI32, 0, id);
    evt_rkh_usr_int(r, UF_UI32, 0, a1);
    evt_rkh_usr_int(r, UF_UI32, 0, a2);
    evt_rkh_usr_int(r, UF_UI32, 0, a3);
    evt_rkh_usr_int(r, UF_UI32, 0, a4);
    evt_rkh_end(r);
}

void evt_rkh_hook_thread_switch(uintptr_t from, evt_hook_state state, uint32_t native, uintptr_t blocked_on,
                                uintptr_t to, uint32_t prio)
{
    evt_rkh_recorder *r = hook_begin(RKH_HOOK_THREAD_SWITCH);
    if (!r) return;
    evt_rkh_usr_int(r, UF_OBJ, 0, (uint32_t)from);
    evt_rkh_usr_int(r, UF_UI8, 0, (uint32_t)state);
    evt_rkh_usr_int(r, UF_UI32, 0, native);
    evt_rkh_usr_int(r, UF_OBJ, 0, (uint32_t)blocked_on);
    evt_rkh_usr_int(r, UF_OBJ, 0, (uint32_t)to);
    evt_rkh_usr_int(r, UF_UI32, 0, prio);
    evt_rkh_end(r);
}

void evt_rkh_hook_thread_ready(uintptr_t thread)
{
    evt_rkh_recorder *r = hook_begin(RKH_HOOK_THREAD_READY);
    if (!r) return;
    evt_rkh_usr_int(r, UF_OBJ, 0, (uint32_t)thread);
    evt_rkh_end(r);
}

void evt_rkh_hook_prio_set(uintptr_t thread, uint32_t prio, evt_hook_prio_why why)
{
    evt_rkh_recorder *r = hook_begin(RKH_HOOK_PRIO_SET);
    if (!r) return;
    evt_rkh_usr_int(r, UF_OBJ, 0, (uint32_t)thread);
    evt_rkh_usr_int(r, UF_UI32, 0, prio);
    evt_rkh_usr_int(r, UF_UI8, 0, (uint32_t)why);
    evt_rkh_end(r);
}

void evt_rkh_hook_obj_name(evt_hook_obj type, uintptr_t obj, const char *name)
{
    evt_rkh_recorder *r = HOOK_REC();
    if (r && name) evt_rkh_sym_obj(r, obj, name);
    if (!(r = hook_begin(RKH_HOOK_OBJ_NAME))) return;
    evt_rkh_usr_int(r, UF_UI8, 0, (uint32_t)type);
    evt_rkh_usr_int(r, UF_OBJ, 0, (uint32_t)obj);
    evt_rkh_end(r);
}

void evt_rkh_hook_obj_op(int32_t code, uintptr_t obj, int32_t ret)
{
    evt_rkh_recorder *r = hook_begin(RKH_HOOK_OBJ_OP);
    if (!r) return;
    evt_rkh_usr_int(r, UF_I32, 0, (uint32_t)code);
    evt_rkh_usr_int(r, UF_OBJ, 0, (uint32_t)obj);
    evt_rkh_usr_int(r, UF_I32, 0, (uint32_t)ret);
    evt_rkh_end(r);
}
