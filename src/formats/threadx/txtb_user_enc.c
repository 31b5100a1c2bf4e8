/* TXTB carrier of user events (evtrace/user.h): a record's words over consecutive slots with the
 * ids of evtrace/user_defs.h (EVT_USER_TXTB_BASE | rec << 10 | n, then EVT_USER_TXTB_CONT | j),
 * through evt_tx_trace_user_words_insert (a record of one slot: evt_tx_user_slot_insert_).
 * Freestanding C99. */
#include "evtrace/txtb.h"
#include "formats/user/user_enc.h"

int evt_txtb_user_write(unsigned rec, const uint32_t *words, uint32_t n)
{
    if (n == 0u || n > EVT_USER_TXTB_MAX_WORDS || rec >= EVT_USER_R_COUNT_) return 0;
    return (int)evt_tx_trace_user_words_insert(EVT_USER_TXTB_BASE | (uint32_t)rec << 10 | n, EVT_USER_TXTB_CONT,
                                               words, n);
}

/* A CALL of at most 4 words: one slot, the plain insert's path (the front end's caller tested the
 * gate). */
static int evt_txtb_user_write4_(uint32_t n, uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3)
{
    return (int)evt_tx_user_slot_insert_(EVT_USER_TXTB_BASE | (uint32_t)EVT_USER_R_CALL << 10 | n, w0, w1, w2, w3);
}

EVT_USER_DEFINE_FRONT_ENDS_(txtb)
