/* TXTB backend of the generic kernel hooks: turns evt_txtb_hook_* calls into ThreadX trace records
 * through the public TXTB recorder API (evtrace/txtb.h). Mapping (docs/hooks.md):
 *   thread_in   -> THREAD_RESUME (1)   info1 thread, info2 TX_READY, info3 0, info4 0
 *   thread_out  -> THREAD_SUSPEND (2)  info1 thread, info2 ThreadX state, info3 state<<16|native, 0
 *   isr_enter/exit -> ISR_ENTER/EXIT (3/4) via the recorder (isr id = irq)
 *   svc_enter   -> EVTRACE_SVC_ENTER (191) info1 code, info2..4 args 0..2
 *   svc_leave   -> EVTRACE_SVC_EXIT (192)  info1 code, info2 ret, info3 paired, info4 0
 *   obj_create/delete -> registry entry + the ThreadX <TYPE>_CREATE/_DELETE event (interrupt n:
 *                  registry entry only, pointer TXTB_HOOKS_IRQ_BASE | n); a create or delete of a
 *                  type the ThreadX id does not name (message buffer, queue set: QUEUE_CREATE) has
 *                  info4 = TXTB_HOOKS_OBJTYPE_TAG | the generic type
 *   user        -> user event 4096 + id
 *   kernel_info -> registry entry type EVTRACE_HOOKS, pointer TXTB_HOOKS_MAGIC
 *   thread_switch/thread_ready/prio_set/obj_op -> EVTRACE_SWITCH/READY/PRIO/OBJ_OP (195-198,
 *                  txtb_defs.h); obj_name -> the registry entry again, with the new name
 * Per-CPU state (current thread, ISR depth) is kept here and given to the recorder through
 * evt_txtb_hooks_context(). Freestanding: no libc. */
#include "formats/threadx/txtb_hooks.h"

#include "evtrace/port.h"
#include "formats/threadx/txtb_defs.h"

EVT_HOOK_DECLARE_BACKEND(txtb)

/* Every id the switch and service hooks write (THREAD_RESUME 1, THREAD_SUSPEND 2,
 * EVTRACE_SVC_ENTER 191, EVTRACE_SVC_EXIT 192) has the INTERNAL filter bit in TXTB_EVENT_TABLE, so
 * they go through hook_insert with that bit (no per-id filter lookup); checked here. */
#define TXH_FILTER TXTB_F_INTERNAL
#define TXH_CHECK_(id, name, filt, kind) \
    char chk_##name[((id) != 1 && (id) != 2 && ((id) < 191 || (id) > 198)) || (filt) == TXH_FILTER ? 1 : -1];
struct txh_filter_check { TXTB_EVENT_TABLE(TXH_CHECK_) };
#undef TXH_CHECK_

/* What one CPU is doing, as the switch and ISR hooks reported it. Invariant (64-bit hosts, where
 * each record takes its context words from here: hook_insert): ctx_x == ctx_of(the other three) ^
 * TXTB_CTX_INIT, set by every hook that changes them (cpu_set_ctx), so a record reads one word;
 * small targets compute them when asked (less code). */
typedef struct txtb_hook_cpu {
#if EVT_TX_INSERT_CTX_
    uint64_t ctx_x;      /* the records' context | priority word << 32 (ctx_of), xor
                            TXTB_CTX_INIT: a CPU never reset (all 0) gives the init context */
#endif
    uint32_t thread;     /* running thread handle (low 32 bits), 0 when none */
    uint32_t prio_word;  /* its priority word: 0x80000000 | priority */
    uint32_t isr_depth;  /* open isr_enter records */
} txtb_hook_cpu;

static txtb_hook_cpu k_cpu[EVT_CFG_HOOKS_CPUS];

static txtb_hook_cpu *this_cpu(void)
{
    unsigned c = evt_port_cpu();
    return &k_cpu[c < EVT_CFG_HOOKS_CPUS ? c : EVT_CFG_HOOKS_CPUS - 1];
}

/* Context and priority word of a record on this CPU (evt_txtb_hooks_context's two words):
 * context | priority_word << 32. */
static inline uint64_t ctx_of(const txtb_hook_cpu *c)
{
    if (c->isr_depth > 0) return (uint64_t)TXTB_CTX_ISR | (uint64_t)c->thread << 32;
    if (c->thread != 0) return (uint64_t)c->thread | (uint64_t)c->prio_word << 32;
    return (uint64_t)TXTB_CTX_INIT;
}

/* After a change of thread, prio_word or isr_depth: the word the records read. */
#if EVT_TX_INSERT_CTX_
static inline void cpu_set_ctx(txtb_hook_cpu *c) { c->ctx_x = ctx_of(c) ^ (uint64_t)TXTB_CTX_INIT; }
static inline uint64_t ctx_words(const txtb_hook_cpu *c) { return c->ctx_x ^ (uint64_t)TXTB_CTX_INIT; }
#else
static inline void cpu_set_ctx(txtb_hook_cpu *c) { (void)c; }
static inline uint64_t ctx_words(const txtb_hook_cpu *c) { return ctx_of(c); }
#endif

void evt_txtb_hooks_context(evt_tx_context *out)
{
    const txtb_hook_cpu *c = this_cpu();
    uint64_t w = ctx_words(c);
    out->context = (uint32_t)w;
    out->priority_word = (uint32_t)(w >> 32);
    if (c->isr_depth > 0) out->system_state = c->isr_depth; /* ThreadX: the ISR nesting count */
}

/* evt_tx_trace_insert with the INTERNAL filter bit; on 64-bit hosts the context words go with the
 * insert (the recorder uses them while its context callback is evt_txtb_hooks_context, as after
 * evt_txtb_hooks_enable): no callback under the recorder's lock. */
static inline void hook_insert(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4)
{
#if EVT_TX_INSERT_CTX_
    if (EVT_LOAD_RLX(&evt_tx_hot_.gate.bits) & TXH_FILTER)
        evt_tx_insert_ctx_(id, i1, i2, (uint64_t)i3 | (uint64_t)i4 << 32, ctx_words(this_cpu()), evt_txtb_hooks_context);
#else
    evt_tx_trace_insert(id, i1, i2, i3, i4, TXH_FILTER);
#endif
}

void evt_txtb_hooks_reset(void)
{
    for (unsigned i = 0; i < EVT_CFG_HOOKS_CPUS; i++) {
        k_cpu[i].thread = 0;
        k_cpu[i].prio_word = 0;
        k_cpu[i].isr_depth = 0;
        cpu_set_ctx(&k_cpu[i]);
    }
}

unsigned evt_txtb_hooks_enable(void *buffer, uint32_t size, uint32_t registry_entries,
                               const evt_tx_options *opt, uint32_t kernel)
{
    /* Member by member: no struct copy or zeroing the compiler could turn into memset/memcpy. */
    evt_tx_options o;
    o.big_endian = opt ? opt->big_endian : 0;
    o.name_size = opt ? opt->name_size : 0;
    o.time_source = opt ? opt->time_source : 0;
    o.time_mask = opt ? opt->time_mask : 0;
    o.base_address = opt ? opt->base_address : 0;
    o.context = evt_txtb_hooks_context;
    unsigned st = evt_tx_trace_enable_ex(buffer, size, registry_entries, &o);
    if (st == EVT_TX_SUCCESS) evt_txtb_hook_kernel_info(kernel, TXTB_HOOKS_VERSION);
    return st;
}

void evt_txtb_hook_kernel_info(uint32_t kernel, uint32_t version)
{
    static const char *const names[] = {
#define TXTB_HK_NAME_(n, v, s) s,
        EVT_HOOK_KERNEL_TABLE(TXTB_HK_NAME_)
#undef TXTB_HK_NAME_
    };
    const char *name = kernel < sizeof names / sizeof names[0] ? names[kernel] : "kernel";
    evt_tx_trace_object_register(TXTB_OBJ_EVTRACE_HOOKS, (const void *)(uintptr_t)TXTB_HOOKS_MAGIC,
                                 name, kernel, version);
}

void evt_txtb_hooks_clock(uint64_t hz)
{
    evt_tx_trace_clock_register(hz);
}

void evt_txtb_hook_thread_in(uintptr_t thread, uint32_t prio)
{
    txtb_hook_cpu *c = this_cpu();
    uint32_t t = (uint32_t)thread;
    c->thread = t;
    c->prio_word = TXTB_PRIO_CURRENT_BIT | (prio == EVT_HOOK_PRIO_UNKNOWN ? 0u : (prio & 0xFFFFu));
    cpu_set_ctx(c);
    hook_insert(TXTB_EVENT_THREAD_RESUME, t, 0u, 0u, 0u);
}

void evt_txtb_hook_thread_out(uintptr_t thread, evt_hook_state state, uint32_t native)
{
    static const uint8_t tx_state[EVT_HOOK_STATE_COUNT_] = {
#define TXTB_HS_MAP_(n, txs) [EVT_HOOK_STATE_##n] = txs,
        TXTB_HOOKS_STATE_MAP(TXTB_HS_MAP_)
#undef TXTB_HS_MAP_
    };
    txtb_hook_cpu *c = this_cpu();
    uint32_t t = (uint32_t)thread;
    uint32_t s = (uint32_t)state < EVT_HOOK_STATE_COUNT_ ? (uint32_t)state : 0u;
    /* Recorded in the stopping thread's context (the dispatcher may already have cleared the
     * kernel's own "current task"), then the CPU has no thread until the next thread_in. */
    if (c->thread != t) {
        c->thread = t;
        c->prio_word = TXTB_PRIO_CURRENT_BIT;
        cpu_set_ctx(c);
    }
    hook_insert(TXTB_EVENT_THREAD_SUSPEND, t, tx_state[s], (s << 16) | (native & 0xFFFFu), 0u);
    c->thread = 0;
    cpu_set_ctx(c);
}

void evt_txtb_hook_isr_enter(uint32_t irq)
{
    txtb_hook_cpu *c = this_cpu();
    c->isr_depth++;
    cpu_set_ctx(c);
    evt_tx_trace_isr_enter_insert(irq);
}

void evt_txtb_hook_isr_exit(uint32_t irq)
{
    txtb_hook_cpu *c = this_cpu();
    evt_tx_trace_isr_exit_insert(irq);
    if (c->isr_depth > 0) c->isr_depth--;
    cpu_set_ctx(c);
}

void evt_txtb_hook_svc_enter(int32_t code, uint32_t nargs, const uintptr_t *args)
{
    uint32_t a0 = nargs > 0 ? (uint32_t)args[0] : 0u;
    uint32_t a1 = nargs > 1 ? (uint32_t)args[1] : 0u;
    uint32_t a2 = nargs > 2 ? (uint32_t)args[2] : 0u;
    hook_insert(TXTB_EVTRACE_SVC_ENTER_ID, (uint32_t)code, a0, a1, a2);
}

void evt_txtb_hook_svc_leave(int32_t code, int32_t ret, int paired)
{
    hook_insert(TXTB_EVTRACE_SVC_EXIT_ID, (uint32_t)code, (uint32_t)ret, paired ? 1u : 0u, 0u);
}

/* Registry type and event ids of a generic object type. */
static void obj_map(evt_hook_obj type, uint8_t *txtype, uint32_t *create, uint32_t *del)
{
    *txtype = txtb_hooks_entry_type(type);
    switch (type) {
#define TXTB_HO_CASE_(n, txt, cr, de, tag) \
    case EVT_HOOK_OBJ_##n: *create = cr; *del = de; return;
        TXTB_HOOKS_OBJ_MAP(TXTB_HO_CASE_)
#undef TXTB_HO_CASE_
    default: break;
    }
    *create = 0;
    *del = 0;
}

/* info4 of a create record: the generic type where the create id names another one, else 0. */
static uint32_t obj_tag(evt_hook_obj type)
{
    switch (type) {
#define TXTB_HO_TAG_(n, txt, cr, de, tag) \
    case EVT_HOOK_OBJ_##n: return (tag) ? TXTB_HOOKS_OBJTYPE_TAG | (uint32_t)type : 0u;
        TXTB_HOOKS_OBJ_MAP(TXTB_HO_TAG_)
#undef TXTB_HO_TAG_
    default: return 0u;
    }
}

void evt_txtb_hook_obj_create(evt_hook_obj type, uintptr_t obj, const char *name, uint32_t param)
{
    uint8_t txtype;
    uint32_t cr, de;
    obj_map(type, &txtype, &cr, &de);
    const void *p = (const void *)(type == EVT_HOOK_OBJ_INTERRUPT ? (uintptr_t)(TXTB_HOOKS_IRQ_BASE | (obj & 0xFFFFu)) : obj);
    if (type == EVT_HOOK_OBJ_THREAD)
        evt_tx_trace_thread_register(p, name ? name : "", 0u, 0u, param);
    else
        evt_tx_trace_object_register(txtype, p, name ? name : "", param, 0u);
    if (cr) evt_tx_trace_kernel_event(cr, (uint32_t)obj, param, 0u, obj_tag(type));
}

void evt_txtb_hook_obj_delete(evt_hook_obj type, uintptr_t obj)
{
    uint8_t txtype;
    uint32_t cr, de;
    obj_map(type, &txtype, &cr, &de);
    if (de) evt_tx_trace_kernel_event(de, (uint32_t)obj, 0u, 0u, obj_tag(type));
    if (type == EVT_HOOK_OBJ_INTERRUPT) obj = (uintptr_t)(TXTB_HOOKS_IRQ_BASE | (obj & 0xFFFFu));
    evt_tx_trace_object_unregister((const void *)obj);
}

void evt_txtb_hook_user(uint32_t id, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4)
{
    uint32_t tid = id <= TXTB_USER_EVENT_END - TXTB_USER_EVENT_START ? TXTB_USER_EVENT_START + id : TXTB_USER_EVENT_END;
    (void)evt_tx_trace_user_event_insert(tid, a1, a2, a3, a4);
}

void evt_txtb_hook_thread_switch(uintptr_t from, evt_hook_state state, uint32_t native, uintptr_t blocked_on,
                                 uintptr_t to, uint32_t prio)
{
    txtb_hook_cpu *c = this_cpu();
    uint32_t f = (uint32_t)from, s = (uint32_t)state < EVT_HOOK_STATE_COUNT_ ? (uint32_t)state : 0u;
    /* Recorded in the stopping thread's context, then `to` is the CPU's thread. */
    if (c->thread != f) {
        c->thread = f;
        c->prio_word = f ? TXTB_PRIO_CURRENT_BIT : 0u;
        cpu_set_ctx(c);
    }
    hook_insert(TXTB_EVTRACE_SWITCH_ID, (uint32_t)to, prio, (s << 16) | (native & 0xFFFFu), (uint32_t)blocked_on);
    c->thread = (uint32_t)to;
    c->prio_word = TXTB_PRIO_CURRENT_BIT | (prio == EVT_HOOK_PRIO_UNKNOWN ? 0u : (prio & 0xFFFFu));
    cpu_set_ctx(c);
}

void evt_txtb_hook_thread_ready(uintptr_t thread)
{
    hook_insert(TXTB_EVTRACE_READY_ID, (uint32_t)thread, 0u, 0u, 0u);
}

void evt_txtb_hook_prio_set(uintptr_t thread, uint32_t prio, evt_hook_prio_why why)
{
    txtb_hook_cpu *c = this_cpu();
    if (c->thread == (uint32_t)thread && c->isr_depth == 0) {
        c->prio_word = TXTB_PRIO_CURRENT_BIT | (prio & 0xFFFFu);
        cpu_set_ctx(c);
    }
    hook_insert(TXTB_EVTRACE_PRIO_ID, (uint32_t)thread, prio, (uint32_t)why, 0u);
}

void evt_txtb_hook_obj_name(evt_hook_obj type, uintptr_t obj, const char *name)
{
    uint8_t txtype;
    uint32_t cr, de;
    obj_map(type, &txtype, &cr, &de);
    const void *p = (const void *)(type == EVT_HOOK_OBJ_INTERRUPT ? (uintptr_t)(TXTB_HOOKS_IRQ_BASE | (obj & 0xFFFFu)) : obj);
    /* Its slot made available first: the registry's search then starts there and takes it back
     * (the same pointer), rather than a never-used slot met before it. */
    evt_tx_trace_object_unregister(p);
    if (type == EVT_HOOK_OBJ_THREAD)
        evt_tx_trace_thread_register(p, name ? name : "", 0u, 0u, 0u);
    else
        evt_tx_trace_object_register(txtype, p, name ? name : "", 0u, 0u);
}

void evt_txtb_hook_obj_op(int32_t code, uintptr_t obj, int32_t ret)
{
    hook_insert(TXTB_EVTRACE_OBJ_OP_ID, (uint32_t)code, (uint32_t)obj, (uint32_t)ret, 0u);
}
