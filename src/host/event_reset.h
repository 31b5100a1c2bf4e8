/* evt_event_reset's body, inline for the reader framework's per-event path (reader.c) and the
 * public function (model.c). Host side. */
#ifndef EVT_HOST_EVENT_RESET_H
#define EVT_HOST_EVENT_RESET_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "evtrace/model.h"

/* Zeroes n bytes at p (n a multiple of 8, p 8-aligned) with plain 16-byte stores. Every reader
 * calls evt_event_reset once per event: for these ~350 bytes, the `rep stos` a compiler makes of a
 * memset costs more to start than the stores themselves (a third of the event's decode time on an
 * AMD EPYC), and the fixed sizes let it unroll this loop. A macro, not a function: GCC's attribute
 * that keeps the loop from becoming a memset again must sit on the function that holds it. */
#if defined(__GNUC__)
typedef uint64_t evt_zero_v_ __attribute__((vector_size(16), aligned(8), may_alias));
#define ZERO_(p, n)                                                                              \
    do {                                                                                         \
        unsigned char *c_ = (unsigned char *)(p);                                                \
        size_t i_ = 0;                                                                           \
        _Pragma("GCC unroll 32")                                                                 \
        for (; i_ + 16 <= (n); i_ += 16) *(evt_zero_v_ *)(void *)(c_ + i_) = (evt_zero_v_){0, 0}; \
        if (i_ < (n)) *(uint64_t *)(void *)(c_ + i_) = 0;                                        \
    } while (0)
#if defined(__clang__)
#define NO_MEMSET_
#else
#define NO_MEMSET_ __attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
#else
#define ZERO_(p, n) memset((p), 0, (n))
#define NO_MEMSET_
#endif

_Static_assert(offsetof(evt_event, args) % 8 == 0 && offsetof(evt_event, m) % 8 == 0 &&
                   sizeof(evt_meaning) % 8 == 0,
               "evt_event_reset clears whole 8-byte words");

/* evt_event_reset (model.h). A caller that inlines it needs EVT_EVENT_RESET_FN on itself, so
 * that its zeroing loop stays plain stores (see ZERO_). */
#define EVT_EVENT_RESET_FN NO_MEMSET_
static inline NO_MEMSET_ void evt_event_reset_inline(evt_event *ev)
{
    /* Clear only the header part; args/fields arrays are guarded by their counts. */
    ZERO_(ev, offsetof(evt_event, args));
    ev->nfields = 0;
    ev->data = NULL;
    ev->data_len = 0;
    ev->data_is_text = 0;
    ZERO_(&ev->m, sizeof ev->m);
}

/* 1 when the n bytes at p (n a multiple of 8, p 8-aligned) are all zero bits: loads only, no
 * store. For a reader that resets its own events (reader.h EVT_READER_RESETS): checking a block
 * its usual event leaves zero costs fewer stores than clearing it, and is exact whatever the
 * caller left in it. A macro for the fixed sizes' unrolling, as ZERO_; sets int `out`. */
#if defined(__GNUC__)
#define EVT_IS_CLEAR_(p, n, out)                                                                 \
    do {                                                                                         \
        const unsigned char *c_ = (const unsigned char *)(p);                                    \
        size_t i_ = 0;                                                                           \
        evt_zero_v_ acc_ = {0, 0};                                                               \
        _Pragma("GCC unroll 16")                                                                 \
        for (; i_ + 16 <= (n); i_ += 16) acc_ |= *(const evt_zero_v_ *)(const void *)(c_ + i_);  \
        uint64_t any_ = acc_[0] | acc_[1];                                                       \
        if (i_ < (n)) any_ |= *(const uint64_t *)(const void *)(c_ + i_);                       \
        (out) = any_ == 0;                                                                       \
    } while (0)
#else
#define EVT_IS_CLEAR_(p, n, out)                                                                 \
    do {                                                                                         \
        const unsigned char *c_ = (const unsigned char *)(p);                                    \
        uint64_t any_ = 0;                                                                       \
        for (size_t i_ = 0; i_ < (n); i_ += 8) {                                                 \
            uint64_t w_;                                                                         \
            memcpy(&w_, c_ + i_, 8);                                                             \
            any_ |= w_;                                                                          \
        }                                                                                        \
        (out) = any_ == 0;                                                                       \
    } while (0)
#endif

/* 1 when the meaning block is all zero bits, as evt_event_reset leaves it (EVT_IS_CLEAR_). */
static inline int evt_meaning_is_clear(const evt_meaning *m)
{
    int clear;
    EVT_IS_CLEAR_(m, sizeof *m, clear);
    return clear;
}

/* Zero the meaning block as evt_event_reset does (the caller is EVT_EVENT_RESET_FN). */
static inline NO_MEMSET_ void evt_meaning_reset_inline(evt_meaning *m) { ZERO_(m, sizeof *m); }

#endif
