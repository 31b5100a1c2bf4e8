/* The RKH reader's diagnostics, in stream order, with the losses the recorder itself declared kept
 * apart from damage. A sequence gap or an aborted frame whose records the recorder's loss records
 * (EVT_RKH_TE_LOST) count is a counted loss, not an error: the recorder evicted those records and
 * said so. One the loss records do not account for, by the end of the stream, is an error.
 * Because a loss record may come before or after the gap it explains, such candidates are held
 * (with every diagnostic after them, so stderr stays in offset order) until a loss record pays for
 * them or the stream ends. Host library, used by rkh_dec.c.
 *
 * Invariants:
 *  D1 Every problem is counted in r->errors exactly once, or explained exactly once; after
 *     rkh_diag_end nothing is held.
 *  D2 Diagnostics reach r's diag callback in the order they were found (byte-offset order).
 *  D3 Credit (records the loss records counted, not yet matched) pays held candidates oldest
 *     first; credit left over pays later candidates as they are found (the recorder's drops take
 *     no sequence number, so some credit never meets a gap).
 *  D4 With sequence numbers on, an aborted frame is decided with the sequence gap after it (the
 *     aborted record's number is missing there, so the gap already counts it); no gap before the
 *     next numbered frame: nothing is missing, not an error. Before the first numbered frame, at
 *     the end, or with sequence numbers off, an aborted frame needs one record of credit.
 *  D5 At most RKH_DIAG_MAX diagnostics are held; one more decides the oldest held candidate as an
 *     error, so memory stays bounded on any input. The ring grows to that bound as items are held
 *     (a reader that holds none allocates nothing); when growing fails, the items held so far are
 *     the bound.
 *  D6 On a live stream (hold > 0) a candidate is decided as an error once the stream is `hold`
 *     bytes past it, so diagnostics keep coming. The recorder writes the loss record for a gap
 *     within one ring's worth of bytes after it, so this is exact for rings up to `hold` bytes. */
#ifndef EVT_RKH_DIAG_DEC_H
#define EVT_RKH_DIAG_DEC_H

#include <stdint.h>
#include "evtrace/reader.h"

#define RKH_DIAG_MAX 4096 /* a ring drained byte by byte while it overflows aborts hundreds of frames between loss records */
#define RKH_DIAG_MSG 208

typedef struct rkh_diag_item {
    uint64_t off;     /* byte offset reported */
    uint64_t need;    /* records of credit still needed (RKH_DIAG_PEND) */
    uint64_t gap_id;  /* RKH_DIAG_LINKED: id of the gap item it is decided with */
    uint8_t st;       /* RKH_DIAG_* state */
    uint8_t gap;      /* 1: a sequence gap, 0: an aborted frame or a plain error */
    char msg[RKH_DIAG_MSG];
} rkh_diag_item;

typedef struct rkh_diag {
    evt_reader *r;
    rkh_diag_item *q;              /* held diagnostics, a ring of cap items: q[head] has id head_id */
    unsigned head, n, cap;         /* cap: 0 or a power of two <= RKH_DIAG_MAX */
    uint64_t head_id;
    uint64_t hold_id;              /* items from this id on were pushed since the last numbered
                                      frame: only they can be HOLD (D4), so each is visited once */
    uint64_t credit;               /* D3 */
    uint64_t hold;                 /* D6: bytes a candidate is held on a live stream (0: to the end) */
    uint64_t explained_gaps;       /* gaps the loss records accounted for (info --json) */
    uint64_t explained_aborts;     /* aborted frames likewise */
} rkh_diag;

void rkh_diag_init(rkh_diag *d, evt_reader *r);
/* Live streams: hold candidates for at most `bytes` of stream (D6). */
void rkh_diag_set_hold(rkh_diag *d, uint64_t bytes);
/* The reader is at byte offset off (a frame's start): decide what D6 says is due. Called per frame:
 * nothing to do unless a live stream holds something (the out-of-line part). */
void rkh_diag_progress_held(rkh_diag *d, uint64_t off);
static inline void rkh_diag_progress(rkh_diag *d, uint64_t off)
{
    if (d->hold && d->n) rkh_diag_progress_held(d, off);
}
/* A problem that is an error whatever follows; reported now, or after what is held before it. */
void rkh_diag_error(rkh_diag *d, uint64_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A sequence gap of `missing` records (decides the aborted frames held for it, D4). */
void rkh_diag_gap(rkh_diag *d, uint64_t off, uint64_t missing, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* An aborted frame; seq: the stream has sequence numbers (D4). */
void rkh_diag_abort(rkh_diag *d, uint64_t off, int seq, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A numbered frame that follows its predecessor without a gap: held aborted frames explained (D4).
 * Called per frame: with nothing held it only marks the holds decided (what the full one does then). */
void rkh_diag_seq_ok_held(rkh_diag *d);
static inline void rkh_diag_seq_ok(rkh_diag *d)
{
    if (d->n) rkh_diag_seq_ok_held(d);
    else d->hold_id = d->head_id; /* holds_decided with n == 0 */
}
/* rkh_diag_progress then rkh_diag_seq_ok (a numbered frame after another, at off): with nothing
 * held, one test (neither has anything to do but mark the holds decided). */
static inline void rkh_diag_progress_seq_ok(rkh_diag *d, uint64_t off)
{
    if (!d->n) {
        d->hold_id = d->head_id;
        return;
    }
    rkh_diag_progress(d, off);
    rkh_diag_seq_ok(d);
}
/* The first numbered frame: nothing tells what aborted frames before it held; each needs one record
 * of credit (D4). */
void rkh_diag_settle(rkh_diag *d);
/* A loss record counted `records` more lost records. */
void rkh_diag_loss(rkh_diag *d, uint64_t records);
/* The end of the stream: what is still held is an error (D1). */
void rkh_diag_end(rkh_diag *d);
/* Release the ring (the state may be initialised again after). */
void rkh_diag_free(rkh_diag *d);

#endif
