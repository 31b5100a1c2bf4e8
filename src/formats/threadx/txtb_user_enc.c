/* TXTB carrier of user events (evtrace/user.h): a record's words over consecutive slots with the
 * ids of evtrace/user_defs.h (EVT_USER_TXTB_BASE | rec << 10 | n, then EVT_USER_TXTB_CONT | j),
 * through evt_tx_trace_user_words_insert. Freestanding C99. */
#include "evtrace/txtb.h"
#include "formats/user/user_enc.h"

int evt_txtb_user_write(unsigned rec, const uint32_t *words, uint32_t n)
{
    if (n == 0u || n > EVT_USER_TXTB_MAX_WORDS || rec >= EVT_USER_R_COUNT_) return 0;
    return (int)evt_tx_trace_user_words_insert(EVT_USER_TXTB_BASE | (uint32_t)rec << 10 | n, EVT_USER_TXTB_CONT,
                                               words, n);
}

EVT_USER_DEFINE_FRONT_ENDS_(txtb)
