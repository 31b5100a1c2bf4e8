/* ETW carrier of user events (evtrace/user.h): one classic event (TraceEvent) of evtrace's user
 * event class per record, Class.Type EVT_USER_ETW_TYPE + rec, MOF fields: the event name
 * "evtrace.user" (ASCII, NUL included), a u32 word count, the words u32le (evtrace/user_defs.h).
 * The provider is evt_etw_user_provider (control GUID = class GUID); the session's own lock,
 * nesting guard and loss account apply (evtrace/etw.h). A signal handler's record nested in a
 * user record of its own thread (which the session's or the slot's nesting guard would drop) is
 * stashed and written right after it (user_nest_enc.c N1-N4). Freestanding C99. */
#include "evtrace/etw.h"
#include "evtrace/port.h"
#include "formats/etw/etw_enc_int.h"
#include "formats/user/user_enc.h"

/* Each enable is a new session of registered strings. */
static void user_control(evt_etw_provider *p, uint32_t code, void *ctx)
{
    (void)p;
    (void)ctx;
    if (code == ETW_CONTROL_ENABLE_PROVIDER) evt_user_resend();
}

#define EVT_ETW_USER_GUID_ {0x65767472u, 0x7375, 0x7265, {0x80, 0x00, 0x65, 0x76, 0x74, 0x72, 0x61, 0x63}}

/* Registered statically (what evt_etw_register would set), so no call is needed before attach. */
evt_etw_provider evt_etw_user_provider = {EVT_ETW_USER_GUID_, 0, 0, 0, 0, user_control, 0, {0, 0, 0}, 0};

static const char k_name[] = EVT_USER_ETW_NAME;

/* On the POSIX port, attaching turns on the session writes' signal hold (etw_enc.c hold_begin)
 * before the first write. A handler's line that lands inside a write is stashed (user_nest_enc.c
 * N2) until the write ends; a write left open to handlers (a slow cfg.write, its first touch of
 * fresh pages) took so many that the stash filled and the rest was lost, counted ("lost 1" in
 * the first test of test_user_signals_etw_mt in a CI run; of 5,000 lines raised inside one
 * write, 4,181: test_etw_signal_hold). The hold used to wait for the first nested handler record,
 * which came too late for the write it landed in. */
uint32_t evt_etw_user_attach(evt_etw_session *s, uint8_t level)
{
#ifdef EVT_PORT_POSIX
    evt_posix_note_nested();
#endif
    return evt_etw_enable(s, &evt_etw_user_provider, ETW_CONTROL_ENABLE_PROVIDER, level, 0u, 0u);
}

static int write_now(unsigned rec, const uint32_t *words, uint32_t n)
{
    evt_etw_provider *p = &evt_etw_user_provider;
    if (n == 0u || n > EVT_USER_PAYLOAD_MAX || rec >= EVT_USER_R_COUNT_) return 0;
    /* filtered (level) or off: 0, so a SITE record is not taken as sent */
    if (!evt_etw_event_enabled_inline(p, ETW_LEVEL_INFORMATION, 0u)) return 0;
    uint32_t cnt = n;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    uint32_t le[EVT_USER_PAYLOAD_MAX]; /* ETW stores little-endian */
    for (uint32_t i = 0; i < n; i++)
        le[i] = (words[i] >> 24) | ((words[i] >> 8) & 0xFF00u) | ((words[i] << 8) & 0xFF0000u) | (words[i] << 24);
    words = le;
    cnt = (n >> 24) | ((n >> 8) & 0xFF00u) | ((n << 8) & 0xFF0000u) | (n << 24);
#endif
    const evt_etw_mof_field f[3] = {{k_name, (uint32_t)sizeof k_name, 0u}, {&cnt, 4u, 0u}, {words, 4u * n, 0u}};
    const evt_etw_trace_header h = {(uint16_t)(ETW_TRACE_HEADER_SIZE + 3u * ETW_MOF_FIELD_SIZE),
                                    (uint8_t)(EVT_USER_ETW_TYPE + rec), ETW_LEVEL_INFORMATION, 0u, 0u,
                                    EVT_ETW_USER_GUID_, 0u,
                                    ETW_WNODE_FLAG_TRACED_GUID | ETW_WNODE_FLAG_USE_MOF_PTR};
    /* dropped: counted by the session (and reported by its loss record) */
    return evt_etw_trace_event(p, &h, f) == EVT_ETW_SUCCESS;
}

/* user_nest_enc.c N2's test: is the caller (a handler that interrupted a user write of its
 * thread) inside a record of that thread? THREAD_OWNED: its slot's guard is held (the record takes
 * no port lock); otherwise (POSIX port) the thread is inside the session's section and not only
 * waiting to take its lock (port P3b: then the handler may take it itself). */
static int in_record(void)
{
    evt_etw_session *s = (evt_etw_session *)EVT_LOAD_ACQ(&evt_etw_user_provider.session);
    if (s && evt_etw_own_record_open_(s)) return 1;
#ifdef EVT_PORT_POSIX
    return evt_posix_hold != 0u && !evt_posix_waits_only();
#else
    return 0;
#endif
}

int evt_etw_user_write(unsigned rec, const uint32_t *words, uint32_t n)
{
    return evt_user_nested_write_in_(write_now, in_record, rec, words, n);
}

EVT_USER_DEFINE_WRITE4_VIA_WRITE_(etw)
EVT_USER_DEFINE_FRONT_ENDS_(etw)
