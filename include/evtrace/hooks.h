/* Generic kernel hooks: the one front end every evtrace backend implements (DESIGN.md §1).
 * An RTOS (or the μT-Kernel DS adapter in src/kernel/utk/) calls the EVT_HOOK_* macros at its
 * thread switches, interrupt entry/exit, service calls and object creation/deletion; the backend
 * chosen by EVT_CFG_HOOKS_BACKEND writes them in its format (id/field mapping: docs/hooks.md).
 * Each category has its own compile-time switch (evtrace/hooks_config.h); a switched-off macro
 * compiles to nothing and does not evaluate its arguments. Freestanding C99.
 *
 * Call rules (what the backends rely on):
 * - thread in/out and ISR enter/exit are serialised per CPU by the kernel (dispatcher and interrupt
 *   entry); the backend keeps "current thread" and "ISR depth" per CPU from them, and tags every
 *   record with that context.
 * - svc enter/leave, object and user hooks may be called from any context, including an ISR that
 *   interrupted another hook's record: every backend record is written atomically.
 * - A hook never blocks and never calls back into the kernel. */
#ifndef EVTRACE_HOOKS_H
#define EVTRACE_HOOKS_H

#include <stdint.h>
#include "evtrace/hooks_config.h"
#include "evtrace/hooks_defs.h"

/* The backend functions. Every backend <b> defines all of these as evt_<b>_hook_<what>; the macros
 * below call the configured one. Contracts:
 *   kernel_info(kernel, version): once after the trace is enabled (before other hooks); records the
 *       kernel profile where the format keeps it outside the ring when it can.
 *   thread_in(thread, prio): `thread` (non-zero handle, unique among threads) starts or resumes
 *       running on this CPU; prio is its priority or EVT_HOOK_PRIO_UNKNOWN.
 *   thread_out(thread, state, native): `thread` stops running; `state` says why, `native` is the
 *       kernel's own state value (μT-Kernel: TTS_*; 0 when none).
 *   isr_enter(irq)/isr_exit(irq): an interrupt handler for `irq` starts/ends (nests).
 *   svc_enter(code, nargs, args): service `code` is called with args[0..nargs-1] (nargs clipped to
 *       EVT_HOOK_SVC_MAX_ARGS); svc_leave(code, ret, paired): it returns `ret`; paired is 0 when the
 *       matching enter was not recorded (hook installed mid-call).
 *   obj_create(type, obj, name, param): object handle `obj` (unique among all objects) named
 *       `name` (NUL-terminated, may be NULL) was created; param = priority for threads, else 0.
 *       Type EVT_HOOK_OBJ_INTERRUPT names interrupt number `obj` (its own handle space).
 *   obj_delete(type, obj): it was deleted.
 *   user(id, a1..a4): an application event.
 * Added for kernels that know more at a switch (FreeRTOS; docs/hooks.md "RTOS hooks"):
 *   thread_switch(from, state, native, blocked_on, to, prio): one record for a whole switch: `from`
 *       (0: none, the CPU was idle or starting) stops for `state`/`native`, blocked on object
 *       `blocked_on` (0: none or unknown), and `to` (non-zero) runs from now on with priority
 *       `prio`. Replaces the thread_out + thread_in pair (no gap between them).
 *   thread_ready(thread): `thread` became ready to run (woken, resumed, created, delay ended).
 *   prio_set(thread, prio, why): `thread`'s priority is now `prio`; why = evt_hook_prio_why
 *       (set by the application, raised by inheritance, inheritance given back).
 *   obj_name(type, obj, name): object `obj` (created earlier, or never reported) is (re)named.
 *   obj_op(code, obj, ret): service `code` operated on object `obj` and finished with `ret` (the
 *       kernel's own return value); one record, for kernels that report outcomes, not calls. */
#define EVT_HOOK_FN_(b, what) EVT_HOOK_FN2_(b, what)
#define EVT_HOOK_FN2_(b, what) evt_##b##_hook_##what
#define EVT_HOOK_DECLARE_BACKEND(b)                                                                 \
    void EVT_HOOK_FN_(b, kernel_info)(uint32_t kernel, uint32_t version);                           \
    void EVT_HOOK_FN_(b, thread_in)(uintptr_t thread, uint32_t prio);                               \
    void EVT_HOOK_FN_(b, thread_out)(uintptr_t thread, evt_hook_state state, uint32_t native);      \
    void EVT_HOOK_FN_(b, isr_enter)(uint32_t irq);                                                  \
    void EVT_HOOK_FN_(b, isr_exit)(uint32_t irq);                                                   \
    void EVT_HOOK_FN_(b, svc_enter)(int32_t code, uint32_t nargs, const uintptr_t *args);          \
    void EVT_HOOK_FN_(b, svc_leave)(int32_t code, int32_t ret, int paired);                         \
    void EVT_HOOK_FN_(b, obj_create)(evt_hook_obj type, uintptr_t obj, const char *name, uint32_t param); \
    void EVT_HOOK_FN_(b, obj_delete)(evt_hook_obj type, uintptr_t obj);                             \
    void EVT_HOOK_FN_(b, user)(uint32_t id, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4);   \
    void EVT_HOOK_FN_(b, thread_switch)(uintptr_t from, evt_hook_state state, uint32_t native,       \
                                        uintptr_t blocked_on, uintptr_t to, uint32_t prio);          \
    void EVT_HOOK_FN_(b, thread_ready)(uintptr_t thread);                                           \
    void EVT_HOOK_FN_(b, prio_set)(uintptr_t thread, uint32_t prio, evt_hook_prio_why why);         \
    void EVT_HOOK_FN_(b, obj_name)(evt_hook_obj type, uintptr_t obj, const char *name);             \
    void EVT_HOOK_FN_(b, obj_op)(int32_t code, uintptr_t obj, int32_t ret);

EVT_HOOK_DECLARE_BACKEND(EVT_CFG_HOOKS_BACKEND)

#define EVT_HOOK_CALL_(what) EVT_HOOK_FN_(EVT_CFG_HOOKS_BACKEND, what)

/* The inline gate of the service-call and user hooks: EVT_HOOK_GATE_SVC_<backend>() and
 * EVT_HOOK_GATE_USER_<backend>() from the backend's gate header (non-zero: record). Without a gate
 * header the hooks are always called. Thread, ISR and object hooks are always called: the backend
 * keeps per-CPU state (running thread, ISR depth) and the object registry from them even while
 * their records are filtered. */
#ifdef EVT_CFG_HOOKS_GATE_HEADER
#include EVT_CFG_HOOKS_GATE_HEADER
#define EVT_HOOK_GATE_(cat) EVT_HOOK_GATE2_(cat, EVT_CFG_HOOKS_BACKEND)
#define EVT_HOOK_GATE2_(cat, b) EVT_HOOK_GATE3_(cat, b)
#define EVT_HOOK_GATE3_(cat, b) EVT_HOOK_GATE_##cat##_##b()
#else
#define EVT_HOOK_GATE_(cat) 1
#endif

#if EVT_CFG_HOOKS_INFO
#define EVT_HOOK_KERNEL_INFO(kernel, version) EVT_HOOK_CALL_(kernel_info)((uint32_t)(kernel), (uint32_t)(version))
#else
#define EVT_HOOK_KERNEL_INFO(kernel, version) ((void)0)
#endif

#if EVT_CFG_HOOKS_THREAD
#define EVT_HOOK_THREAD_IN(thread, prio) EVT_HOOK_CALL_(thread_in)((uintptr_t)(thread), (uint32_t)(prio))
#define EVT_HOOK_THREAD_OUT(thread, state, native) \
    EVT_HOOK_CALL_(thread_out)((uintptr_t)(thread), (state), (uint32_t)(native))
#else
#define EVT_HOOK_THREAD_IN(thread, prio) ((void)0)
#define EVT_HOOK_THREAD_OUT(thread, state, native) ((void)0)
#endif

#if EVT_CFG_HOOKS_THREAD
#define EVT_HOOK_THREAD_SWITCH(from, state, native, blocked_on, to, prio)                            \
    EVT_HOOK_CALL_(thread_switch)((uintptr_t)(from), (state), (uint32_t)(native), (uintptr_t)(blocked_on), \
                                  (uintptr_t)(to), (uint32_t)(prio))
#define EVT_HOOK_THREAD_READY(thread) EVT_HOOK_CALL_(thread_ready)((uintptr_t)(thread))
#define EVT_HOOK_PRIO_SET(thread, prio, why) EVT_HOOK_CALL_(prio_set)((uintptr_t)(thread), (uint32_t)(prio), (why))
#else
#define EVT_HOOK_THREAD_SWITCH(from, state, native, blocked_on, to, prio) ((void)0)
#define EVT_HOOK_THREAD_READY(thread) ((void)0)
#define EVT_HOOK_PRIO_SET(thread, prio, why) ((void)0)
#endif

#if EVT_CFG_HOOKS_ISR
#define EVT_HOOK_ISR_ENTER(irq) EVT_HOOK_CALL_(isr_enter)((uint32_t)(irq))
#define EVT_HOOK_ISR_EXIT(irq) EVT_HOOK_CALL_(isr_exit)((uint32_t)(irq))
#else
#define EVT_HOOK_ISR_ENTER(irq) ((void)0)
#define EVT_HOOK_ISR_EXIT(irq) ((void)0)
#endif

#if EVT_CFG_HOOKS_SVC
#define EVT_HOOK_SVC_ENTER(code, nargs, args) \
    (EVT_HOOK_GATE_(SVC) ? EVT_HOOK_CALL_(svc_enter)((int32_t)(code), (uint32_t)(nargs), (args)) : (void)0)
#define EVT_HOOK_SVC_LEAVE(code, ret, paired) \
    (EVT_HOOK_GATE_(SVC) ? EVT_HOOK_CALL_(svc_leave)((int32_t)(code), (int32_t)(ret), (paired)) : (void)0)
#define EVT_HOOK_OBJ_OP(code, obj, ret) \
    (EVT_HOOK_GATE_(SVC) ? EVT_HOOK_CALL_(obj_op)((int32_t)(code), (uintptr_t)(obj), (int32_t)(ret)) : (void)0)
#else
#define EVT_HOOK_SVC_ENTER(code, nargs, args) ((void)0)
#define EVT_HOOK_SVC_LEAVE(code, ret, paired) ((void)0)
#define EVT_HOOK_OBJ_OP(code, obj, ret) ((void)0)
#endif

#if EVT_CFG_HOOKS_OBJECT
#define EVT_HOOK_OBJ_CREATE(type, obj, name, param) \
    EVT_HOOK_CALL_(obj_create)((type), (uintptr_t)(obj), (name), (uint32_t)(param))
#define EVT_HOOK_OBJ_DELETE(type, obj) EVT_HOOK_CALL_(obj_delete)((type), (uintptr_t)(obj))
#define EVT_HOOK_OBJ_NAME(type, obj, name) EVT_HOOK_CALL_(obj_name)((type), (uintptr_t)(obj), (name))
#else
#define EVT_HOOK_OBJ_NAME(type, obj, name) ((void)0)
#define EVT_HOOK_OBJ_CREATE(type, obj, name, param) ((void)0)
#define EVT_HOOK_OBJ_DELETE(type, obj) ((void)0)
#endif

#if EVT_CFG_HOOKS_USER
#define EVT_HOOK_USER(id, a1, a2, a3, a4) \
    (EVT_HOOK_GATE_(USER) ? EVT_HOOK_CALL_(user)((uint32_t)(id), (uint32_t)(a1), (uint32_t)(a2), \
                                                 (uint32_t)(a3), (uint32_t)(a4)) : (void)0)
#else
#define EVT_HOOK_USER(id, a1, a2, a3, a4) ((void)0)
#endif

#endif
