/* .etl reader: evtrace/user.h records carried by ETW (etw_user_enc.c): classic events of evtrace's
 * user event class (GUID row EVTRACE_USER), Class.Type EVT_USER_ETW_TYPE + rec, payload = the name
 * "evtrace.user" with its NUL, a u32le word count, the words u32le. Such an event whose payload
 * reads that way is handed to the carrier-neutral user decoder (src/formats/user/user_dec.c); any
 * other event of the class stays the classic event it was. */
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/user_defs.h"
#include "formats/common/cursor.h"
#include "formats/etw/etw_dec.h"
#include "formats/user/user_dec.h"

evt_status etw_user_open(etw_state *s)
{
    if (!(s->user = evt_user_dec_new())) return evt_reader_fail(s->r, EVT_ERR_NOMEM, 0, "out of memory");
    const char *uelf = evt_opts_get(s->r->opts, "elf");
    if (uelf) {
        char err[256];
        if (evt_user_dec_load_elf(s->user, uelf, err, sizeof err) != 0)
            return evt_reader_fail(s->r, EVT_ERR_USAGE, 0, "--elf: %s", err);
    }
    return EVT_OK;
}

void etw_user_close(etw_state *s)
{
    evt_user_dec_free(s->user);
    evt_free(s->uwords);
    s->user = NULL;
    s->uwords = NULL;
}

int etw_user_record(etw_state *s, const uint8_t guid[16], unsigned type, evt_cur *c, uint32_t n, evt_event *ev)
{
    static const char name[] = EVT_USER_ETW_NAME;
    enum {
#define ETW_UIDX_(nm, str, ...) ETW_UIDX_##nm,
        ETW_GUID_TABLE(ETW_UIDX_)
#undef ETW_UIDX_
    };
    if (!s->user || type < EVT_USER_ETW_TYPE || type >= EVT_USER_ETW_TYPE + EVT_USER_R_COUNT_) return 0;
    uint8_t want[16];
    etw_known_guid(ETW_UIDX_EVTRACE_USER, want);
    if (memcmp(guid, want, 16) != 0) return 0;
    /* name, count, words: all inside the record (n bytes from its start) */
    size_t at = ETW_TRACE_HEADER_SIZE;
    if (n < at + sizeof name + 4u) return 0;
    const uint8_t *nm = evt_cur_take_at(c, at, sizeof name);
    if (!nm || memcmp(nm, name, sizeof name) != 0) return 0;
    at += sizeof name;
    uint32_t nw = evt_cur_u32le_at(c, at);
    at += 4u;
    if (nw == 0u || nw > EVT_USER_ETW_MAX_WORDS || (uint64_t)nw * 4u != (uint64_t)n - at) return 0;
    if (!s->uwords && !(s->uwords = evt_malloc(EVT_USER_ETW_MAX_WORDS * sizeof *s->uwords))) return 0;
    for (uint32_t i = 0; i < nw; i++) s->uwords[i] = evt_cur_u32le_at(c, at + 4u * i);
    unsigned rec = type - EVT_USER_ETW_TYPE;
    if (!evt_user_dec_claims(s->user, rec, s->uwords, nw, nw)) return 0;
    ev->nargs = 0;
    ev->data = NULL;
    ev->data_len = 0;
    ev->data_is_text = 0;
    uint64_t woff = ev->offset + at, doff = woff;
    const char *diag = evt_user_dec_record(s->user, rec, s->uwords, nw, woff, ev, &doff);
    if (diag) evt_reader_error(s->r, doff, "%s", diag);
    return 1;
}
