/* The kernel-profile registry and lookups (kernel_profile.h). */
#include "host/kernels/kernel_profile.h"

#include <string.h>
#include "evtrace/reader.h"

#define EVT_KERNEL(n) extern const evt_kernel_profile evt_kernel_##n;
#include "host/kernels/kernels.def"
#undef EVT_KERNEL

static const evt_kernel_profile *const k_profiles[] = {
#define EVT_KERNEL(n) &evt_kernel_##n,
#include "host/kernels/kernels.def"
#undef EVT_KERNEL
};
#define N_PROFILES (sizeof k_profiles / sizeof k_profiles[0])

const evt_kernel_profile *evt_kernel_profile_by_id(uint32_t id)
{
    if (id < N_PROFILES && k_profiles[id]->id == id) return k_profiles[id]; /* kernels.def in id order */
    for (size_t i = 0; i < N_PROFILES; i++)
        if (k_profiles[i]->id == id) return k_profiles[i];
    return NULL;
}

const evt_kernel_profile *evt_kernel_profile_by_name(const char *name)
{
    if (!name) return NULL;
    for (size_t i = 0; i < N_PROFILES; i++)
        if (strcmp(k_profiles[i]->name, name) == 0) return k_profiles[i];
    return NULL;
}

const evt_kernel_profile *evt_kernel_profile_generic(void)
{
    return &evt_kernel_generic;
}

const evt_kernel_svc *evt_kernel_svc_find(const evt_kernel_profile *p, int32_t code)
{
    size_t lo = 0, hi = p ? p->nsvcs : 0;
    while (lo < hi) { /* invariant: svcs[..lo) < code <= svcs[hi..) */
        size_t mid = lo + (hi - lo) / 2;
        if (p->svcs[mid].code < code) lo = mid + 1;
        else hi = mid;
    }
    return p && lo < p->nsvcs && p->svcs[lo].code == code ? &p->svcs[lo] : NULL;
}

const evt_kernel_state *evt_kernel_state_find(const evt_kernel_profile *p, uint32_t native)
{
    for (size_t i = 0; p && i < p->nstates; i++)
        if (p->states[i].native == native) return &p->states[i];
    return NULL;
}

const evt_kernel_profile *evt_reader_profile(const evt_reader *r)
{
    int k = r ? evt_reader_effective_kernel(r) : -1;
    const evt_kernel_profile *p = k >= 0 ? evt_kernel_profile_by_id((uint32_t)k) : NULL;
    return p ? p : &evt_kernel_generic;
}

int evt_reader_higher_prio_wins(const evt_reader *r)
{
    if (r && r->prio_order_user) return r->prio_order_user == 2;
    return evt_reader_profile(r)->higher_prio_wins;
}

const evt_kernel_svc *evt_kernel_meaning_svc(const evt_kernel_profile *p, int32_t code, int has_ret, int64_t ret,
                                             evt_meaning *m)
{
    return evt_kernel_meaning_of(p, evt_kernel_svc_find(p, code), code, has_ret, ret, m);
}

const evt_kernel_svc *evt_kernel_meaning_of(const evt_kernel_profile *p, const evt_kernel_svc *s, int32_t code,
                                            int has_ret, int64_t ret, evt_meaning *m)
{
    if (!s) return NULL;
    m->has |= EVT_M_LABEL;
    m->label = s->label;
    if (s->obj_type) {
        m->has |= EVT_M_OBJ_TYPE;
        m->obj_type = s->obj_type;
    }
    if (s->op != EVT_OP_NONE) {
        m->has |= EVT_M_OP;
        m->op = s->op;
        m->op_result = has_ret && p->result_of ? (uint8_t)p->result_of(code, ret) : EVT_RES_UNKNOWN;
    }
    return s;
}

int evt_kernel_meaning_state(const evt_kernel_profile *p, uint32_t native, evt_meaning *m)
{
    const evt_kernel_state *st = evt_kernel_state_find(p, native);
    if (!st) return 0;
    if (st->stop_state == EVT_KSTATE_KEEP) {
        m->has |= EVT_M_KEEP_STATE;
    } else {
        m->has |= EVT_M_STOP_STATE;
        m->stop_state = st->stop_state;
    }
    return 1;
}
