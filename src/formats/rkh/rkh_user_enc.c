/* RKH carrier of user events (evtrace/user.h): one RKH user record (RKH_TE_USER +
 * EVT_USER_RKH_NUM, symbol "evtrace.user") per user record, fields UI8 record type then one UI32
 * per word, through the public RKH recorder API (the recorder's lock makes it whole); a handler's
 * record nested in one of its thread is stashed, not dropped (user_nest_enc.c). Freestanding C99. */
#include "evtrace/rkh.h"
#include "formats/rkh/rkh_defs.h"
#include "formats/user/user_enc.h"

evt_rkh_recorder *volatile evt_rkh_user_rec_;

void evt_rkh_user_attach(evt_rkh_recorder *r)
{
    if (r) {
        evt_rkh_filter_off_event(r, RKH_TE_USER + EVT_USER_RKH_NUM);
        evt_rkh_sym_tusr(r, EVT_USER_RKH_NUM, EVT_USER_RKH_NAME);
    }
    evt_rkh_user_rec_ = r;
    evt_user_resend(); /* a new stream: sites register again */
}

static int write_now(unsigned rec, const uint32_t *words, uint32_t n)
{
    evt_rkh_recorder *r = evt_rkh_user_rec_;
    if (!r || n == 0u || n > EVT_USER_RKH_MAX_WORDS || rec >= EVT_USER_R_COUNT_) return 0;
    if (!evt_rkh_begin(r, RKH_TE_USER + EVT_USER_RKH_NUM)) return 0; /* filtered, or dropped and counted */
    evt_rkh_usr_int(r, EVT_RKH_USR_UI8, 0, rec);
    for (uint32_t i = 0; i < n; i++) evt_rkh_usr_int(r, EVT_RKH_USR_UI32, 0, words[i]);
    evt_rkh_end(r);
    return 1;
}

#if EVT_RKH_OWNED
/* user_nest_enc.c N2's test for thread-owned recorders, whose owners record outside any port
 * section (rkh_enc.c O2, O5): is the caller (a handler) inside a record of its thread in a
 * recorder that thread owns? */
static int in_owned_record(void) { return EVT_LOAD_RLX(&evt_rkh_obusy_) != 0u; }
#endif

/* A signal handler's record nested in a record of its thread (which the recorder's nesting guard,
 * or a thread-owned recorder's flag, would drop: rkh_enc.c R3, O5) is stashed and written right
 * after it (user_nest_enc.c). */
int evt_rkh_user_write(unsigned rec, const uint32_t *words, uint32_t n)
{
#if EVT_RKH_OWNED
    return evt_user_nested_write_in_(write_now, in_owned_record, rec, words, n);
#else
    return evt_user_nested_write_(write_now, rec, words, n);
#endif
}

EVT_USER_DEFINE_WRITE4_VIA_WRITE_(rkh)
EVT_USER_DEFINE_FRONT_ENDS_(rkh)
