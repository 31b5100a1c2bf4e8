/* XRay carrier of user events (evtrace/user.h): one typed event per record, type
 * EVT_USER_XRAY_TYPE + rec, payload the record's words in little-endian order (llvm-xray shows it
 * as a typed event with that type and the bytes). Needs the POSIX XRay runtime
 * (src/ports/posix/xray_runtime.c: evt_xray_typed_event), so it lives beside it. A handler's
 * record nested in one of its thread is stashed, not dropped (user_nest_enc.c). */
#include "evtrace/xray.h"
#include "formats/user/user_enc.h"

static int write_now(unsigned rec, const uint32_t *words, uint32_t n)
{
    uint8_t b[4u * (EVT_USER_SITE_WORDS_ > EVT_USER_CALL_WORDS_ ? EVT_USER_SITE_WORDS_ : EVT_USER_CALL_WORDS_)];
    if (n == 0u || 4u * n > sizeof b || rec >= EVT_USER_R_COUNT_) return 0;
    if (!EVT_LOAD_RLX(&evt_xray_gate.bits)) return 0;
    for (uint32_t i = 0; i < n; i++) {
        b[4u * i] = (uint8_t)words[i];
        b[4u * i + 1u] = (uint8_t)(words[i] >> 8);
        b[4u * i + 2u] = (uint8_t)(words[i] >> 16);
        b[4u * i + 3u] = (uint8_t)(words[i] >> 24);
    }
    evt_xray_typed_event((uint16_t)(EVT_USER_XRAY_TYPE + rec), b, 4u * (size_t)n);
    return 1; /* written or dropped-and-counted by the runtime */
}

/* A signal handler's record nested in a record of its thread (which the writer's nesting guard
 * would drop) is stashed and written right after the interrupted user record (user_nest_enc.c). */
int evt_xray_user_write(unsigned rec, const uint32_t *words, uint32_t n)
{
    return evt_user_nested_write_in_(write_now, evt_xray_in_record_, rec, words, n);
}

EVT_USER_DEFINE_WRITE4_VIA_WRITE_(xray)
EVT_USER_DEFINE_FRONT_ENDS_(xray)
