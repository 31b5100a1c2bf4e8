/* User events, target side (internal): the carrier-neutral encoder of evtrace/user.h records
 * (layout: evtrace/user_defs.h) and the front ends every carrier defines with one line,
 * EVT_USER_DEFINE_FRONT_ENDS_(b): they encode into a stack buffer and hand the record to
 * evt_<b>_user_write. Freestanding C99: <stdarg.h> only. */
#ifndef EVT_FORMATS_USER_ENC_H
#define EVT_FORMATS_USER_ENC_H

#include <stdarg.h>
#include <stdint.h>
#include "evtrace/user.h"

/* Bytes of a site's strings a SITE record carries (longer ones are cut; the decoder says so). */
#ifndef EVT_CFG_USER_SITE_MAX
#define EVT_CFG_USER_SITE_MAX 512
#endif
#define EVT_USER_SITE_WORDS_ (3u + ((EVT_CFG_USER_SITE_MAX) + 3u) / 4u)

typedef char evt_user_call_words_check_[EVT_USER_CALL_WORDS_ <= 1024u ? 1 : -1];

/* The session of registered strings (evt_user_resend); never 0, so a fresh site (sent == 0) and
 * the anchor send at their first call. */
extern uint32_t evt_user_gen_;

/* A CALL record of `site` into w (EVT_USER_CALL_WORDS_ words): the site's address, then the
 * arguments read from ap as its signature says. Returns the words used. */
uint32_t evt_user_encode_call_(const evt_user_site_hdr *site, uint32_t *w, va_list ap);
/* The SITE record of `site` into w (EVT_USER_SITE_WORDS_ words). Returns the words used. */
uint32_t evt_user_encode_site_(const evt_user_site_hdr *site, uint32_t *w);
/* The ANCHOR record (2 words). */
uint32_t evt_user_encode_anchor_(uint32_t *w);

/* Before a site's CALL: write what the session still lacks (its SITE record, or in ELF mode the
 * ANCHOR record) through write(). sent: the site's word (NULL: ELF mode). Returns 0 when that
 * record could not be written (dropped and counted by the carrier, or off): the caller then skips
 * its CALL, which the host could not read, and the next call tries again. */
int evt_user_register_(const evt_user_site_hdr *site, uint32_t *sent,
                        int (*write)(unsigned rec, const uint32_t *w, uint32_t n));

#define EVT_USER_PRE_(b, site, sent)                                                                \
    do {                                                                                            \
        uint32_t g_ = EVT_LOAD_RLX(&evt_user_gen_);                                                 \
        if (EVT_UNLIKELY((sent) ? EVT_LOAD_RLX(sent) != g_ : EVT_LOAD_RLX(&evt_user_anchor_gen_) != g_) && \
            !evt_user_register_((site), (sent), evt_##b##_user_write))                               \
            return;                                                                                 \
    } while (0)
extern uint32_t evt_user_anchor_gen_;

/* Test hook (NULL in production): called by a thread's stash that names its carrier, between its
 * two tests of the stash (tests raise a nested signal there: test_user_nest_first_stash). */
extern void (*evt_user_nest_test_hook_)(void);
/* write(rec, w, n), unless this thread is inside a user write through this function already (a
 * signal handler that interrupted it, POSIX port): then the record is stashed and the interrupted
 * write writes it through write right after its own, in order, before it returns
 * (user_nest_enc.c). For a carrier whose recorder drops a record nested in one of its own
 * context (RKH). Returns write's result, or 2 when stashed (written later: evt_user_register_
 * does not mark the site sent). Elsewhere than on the POSIX port: write's result. */
int evt_user_nested_write_(int (*write)(unsigned rec, const uint32_t *w, uint32_t n), unsigned rec,
                           const uint32_t *w, uint32_t n);
/* The same, for a carrier whose records are not the port's sections (XRay: per-thread buffers,
 * no lock): inside() returns 1 when the calling context interrupted a record of its thread (the
 * carrier's nesting guard is set), which is then when a record is stashed. */
int evt_user_nested_write_in_(int (*write)(unsigned rec, const uint32_t *w, uint32_t n), int (*inside)(void),
                              unsigned rec, const uint32_t *w, uint32_t n);

/* A CALL record of at most 4 words through carrier b's write: each carrier defines
 * `static int evt_<b>_user_write4_(n, w0, w1, w2, w3)` before EVT_USER_DEFINE_FRONT_ENDS_, this
 * one or its own shorter path (TXTB: one slot, evt_tx_user_slot_insert_). */
#define EVT_USER_DEFINE_WRITE4_VIA_WRITE_(b)                                                        \
    static int evt_##b##_user_write4_(uint32_t n, uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3) \
    {                                                                                               \
        const uint32_t w[4] = {w0, w1, w2, w3};                                                     \
        return evt_##b##_user_write(EVT_USER_R_CALL, w, n);                                         \
    }

/* The front ends of carrier b (evtrace/user.h: EVT_USER_DECLARE_BACKEND_). */
#define EVT_USER_DEFINE_FRONT_ENDS_(b)                                                              \
    void evt_##b##_user_printf_(const evt_user_site_hdr *site, uint32_t *sent, const char *fmt, ...) \
    {                                                                                               \
        uint32_t w[EVT_USER_CALL_WORDS_];                                                           \
        va_list ap;                                                                                 \
        (void)fmt;                                                                                  \
        EVT_USER_PRE_(b, site, sent);                                                               \
        va_start(ap, fmt);                                                                          \
        uint32_t n = 1u;                                                                            \
        if (EVT_LIKELY(site->flags & EVT_USER_SITE_F_INTS)) { /* one word each: no tag switch */    \
            w[0] = (uint32_t)(uintptr_t)site;                                                       \
            for (uint32_t sg_ = site->sig; sg_ != 0u; sg_ >>= EVT_USER_TAG_BITS) w[n++] = va_arg(ap, unsigned int); \
        } else {                                                                                    \
            n = evt_user_encode_call_(site, w, ap);                                                 \
        }                                                                                           \
        va_end(ap);                                                                                 \
        (void)evt_##b##_user_write(EVT_USER_R_CALL, w, n);                                          \
    }                                                                                               \
    void evt_##b##_user_u32_(const evt_user_site_hdr *site, uint32_t *sent, uint32_t v)             \
    {                                                                                               \
        EVT_USER_PRE_(b, site, sent);                                                               \
        (void)evt_##b##_user_write4_(2u, (uint32_t)(uintptr_t)site, v, 0u, 0u);                     \
    }                                                                                               \
    void evt_##b##_user_i64_(const evt_user_site_hdr *site, uint32_t *sent, int64_t v)              \
    {                                                                                               \
        EVT_USER_PRE_(b, site, sent);                                                               \
        (void)evt_##b##_user_write4_(3u, (uint32_t)(uintptr_t)site, (uint32_t)(uint64_t)v,          \
                                     (uint32_t)((uint64_t)v >> 32), 0u);                            \
    }                                                                                               \
    void evt_##b##_user_i3_(const evt_user_site_hdr *site, uint32_t *sent, uint32_t n, uint32_t a,  \
                            uint32_t c, uint32_t d)                                                 \
    {                                                                                               \
        EVT_USER_PRE_(b, site, sent);                                                               \
        (void)evt_##b##_user_write4_(n, (uint32_t)(uintptr_t)site, a, c, d);                        \
    }

#endif
