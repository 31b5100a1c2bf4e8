/* Name tables for the TXTB reader, generated from the X-macro tables of txtb_defs.h and
 * txtb_ids_ext.def (FileX, NetX Duo, USBX). */
#include "formats/threadx/txtb_names.h"

#include <stdio.h>
#include "formats/threadx/txtb_defs.h"

/* The rows indexed by id (a row without a name: no such event), so a look-up is one index. An id
 * above TXTB_NAMED_ID_MAX in the tables is a compile error (an initializer past the array's end). */
#define TXTB_NAMED_ID_MAX 1099u
static const txtb_event_info k_by_id[TXTB_NAMED_ID_MAX + 1] = {
#define TXTB_EV_IDX_(id, name, filt, kind) [id] = {id, #name, filt, kind},
    TXTB_EVENT_TABLE(TXTB_EV_IDX_)
#undef TXTB_EV_IDX_
#define TXTB_EXT_EVENT(id, name, filt) [id] = {id, #name, filt, TXTB_K_SVC},
#include "formats/threadx/txtb_ids_ext.def"
#undef TXTB_EXT_EVENT
};

/* The ids in table order (ThreadX, then FileX/NetX/USBX), for txtb_event_at. */
static const uint16_t k_ids[] = {
#define TXTB_EV_ID_(id, name, filt, kind) id,
    TXTB_EVENT_TABLE(TXTB_EV_ID_)
#undef TXTB_EV_ID_
#define TXTB_EXT_EVENT(id, name, filt) id,
#include "formats/threadx/txtb_ids_ext.def"
#undef TXTB_EXT_EVENT
};
#define NEVENTS (sizeof k_ids / sizeof k_ids[0])

const txtb_event_info *txtb_event_lookup(uint32_t id)
{
    return id <= TXTB_NAMED_ID_MAX && k_by_id[id].name ? &k_by_id[id] : NULL;
}

const txtb_event_info *txtb_event_at(unsigned i) { return i < NEVENTS ? &k_by_id[k_ids[i]] : NULL; }

const char *txtb_event_name(uint32_t id, char *buf, unsigned buflen)
{
    const txtb_event_info *e = txtb_event_lookup(id);
    if (e) return e->name;
    const char *pfx = "UNKNOWN";
    if (id >= TXTB_USER_EVENT_START && id <= TXTB_USER_EVENT_END) pfx = "USER";
    else if (id >= 200 && id <= 299) pfx = "FILEX";
    else if (id >= 300 && id <= 599) pfx = "NETX";
    else if (id >= 600 && id <= 1033) pfx = "USBX";
    snprintf(buf, buflen, "%s_%lu", pfx, (unsigned long)id);
    return buf;
}

const char *txtb_objtype_name(unsigned type, char *buf, unsigned buflen)
{
    switch (type) {
#define TXTB_OT_CASE_(v, name, s) case v: return s;
        TXTB_OBJTYPE_TABLE(TXTB_OT_CASE_)
#undef TXTB_OT_CASE_
    }
    snprintf(buf, buflen, "type_%u", type);
    return buf;
}

const char *txtb_thread_state_name(uint32_t state)
{
    static const char *const names[] = {
#define TXTB_TS_NAME_(v, name, gen) [v] = #name,
        TXTB_THREAD_STATE_TABLE(TXTB_TS_NAME_)
#undef TXTB_TS_NAME_
    };
    return state < sizeof names / sizeof names[0] ? names[state] : NULL;
}
