/* RKH trace recorder (target side): RKH 3.4.00's trace stream, byte for byte — records framed with
 * 0x7E, escaped with 0x7D ^ 0x20, two's-complement checksum, optional 8-bit sequence number and
 * 8/16/32-bit timestamp — with RKH's runtime filters, the TCFG and symbol records, a byte ring with
 * RKH's drain API, and, unlike RKH, a count of the records the ring overwrote. Freestanding C99: no
 * libc, no malloc; the caller owns the recorder and the ring. Facts: shared/formats/rkh.md; ids and
 * layouts: src/formats/rkh/rkh_defs.h. The configuration is a runtime struct (RKH uses #defines),
 * so one build can write every configuration (tests do). */
#ifndef EVTRACE_RKH_H
#define EVTRACE_RKH_H

#include <stdint.h>
#include "evtrace/recorder.h"
#include "evtrace/rkh_stream.h"

/* Compile-time switches (docs/rkh.md, "Footprint switches"); define them alike for the recorder and
 * every file that includes this header:
 *  EVT_RKH_FAST   1 (default): the fast paths (the default header as one store, 4-byte fields
 *                 stored whole into the record's contiguous room, end's inline close). 0: every
 *                 byte through one checked writer: the same bytes, fewer of them in code, slower.
 *  EVT_RKH_FLIGHT 1 (default): a full ring evicts its oldest records (a flight ring, overwrites
 *                 counted). 0: streamed only: a record that does not fit in the ring's free
 *                 room is dropped and counted (drain the ring, or set a sink, to keep up). */
#ifndef EVT_RKH_FAST
#define EVT_RKH_FAST 1
#endif
#ifndef EVT_RKH_FLIGHT
#define EVT_RKH_FLIGHT 1
#endif
/* EVT_RKH_OWNED=1: thread-owned recorders (evt_rkh_own: the owner records without the lock), on
 * the POSIX port with GCC/Clang (elsewhere it stays 0: a port whose lock masks interrupts has
 * nothing cheaper to offer). Off by default: its tests cost every locked record ~10 instructions
 * (202 -> 212 per streamed record, 1.27x -> 1.32x of the baseline on the Zen 5 VM). Like the
 * other switches it changes the recorder's layout: compile the library and the application with
 * the same value. */
#ifndef EVT_RKH_OWNED
#define EVT_RKH_OWNED 0
#endif
#if EVT_RKH_OWNED && !(defined(EVT_PORT_POSIX) && (defined(__GNUC__) || defined(__clang__)))
#undef EVT_RKH_OWNED
#define EVT_RKH_OWNED 0
#endif

/* GCC/Clang with C99 inline semantics: begin, begin_ao and begin_ao_sig are inline functions (fast
 * path at the end of this file); elsewhere, or with -DEVT_RKH_NO_INLINE, plain functions. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__GNUC_GNU_INLINE__) && \
    !defined(__cplusplus) && !defined(EVT_RKH_NO_INLINE)
#define EVT_RKH_INLINE_FAST 1
#define EVT_RKH_FAST_ inline
#else
#define EVT_RKH_FAST_
#endif
/* On 64-bit hosts end's fast path is inline too (about 50 bytes more at every trace point, one
 * call fewer per record); 32-bit targets (Cortex-M) keep it out of line, for code size. Define
 * EVT_RKH_NO_INLINE_END to keep it out of line everywhere. */
#if defined(EVT_RKH_INLINE_FAST) && UINTPTR_MAX > 0xFFFFFFFFu && !defined(EVT_RKH_NO_INLINE_END) && EVT_RKH_FAST
#define EVT_RKH_INLINE_END 1
#endif
/* With it, begin's fast path (lock, guard, clock, the default header) is inline as well: no call,
 * the recorder's address and the record id known at the trace point (about 250 bytes more there).
 * Define EVT_RKH_NO_INLINE_OPEN to keep it out of line (the filter decision stays inline). */
#if defined(EVT_RKH_INLINE_END) && !defined(EVT_RKH_NO_INLINE_OPEN)
#define EVT_RKH_INLINE_OPEN 1
#endif

/* TCFG flag bits (value 1 = option enabled), as RKH_CFG_<name>. */
#define EVT_RKH_F_SMA_TRC_SNDR_EN     (1u << 0)
#define EVT_RKH_F_TRC_RTFIL_EN        (1u << 1)
#define EVT_RKH_F_TRC_USER_TRACE_EN   (1u << 2)
#define EVT_RKH_F_TRC_ALL_EN          (1u << 3)
#define EVT_RKH_F_TRC_MP_EN           (1u << 4)
#define EVT_RKH_F_TRC_QUE_EN          (1u << 5)
#define EVT_RKH_F_TRC_SMA_EN          (1u << 6)
#define EVT_RKH_F_TRC_TMR_EN          (1u << 7)
#define EVT_RKH_F_TRC_SM_EN           (1u << 8)
#define EVT_RKH_F_TRC_FWK_EN          (1u << 9)
#define EVT_RKH_F_TRC_ASSERT_EN       (1u << 10)
#define EVT_RKH_F_QUE_GET_LWMARK_EN   (1u << 11)
#define EVT_RKH_F_MP_GET_LWM_EN       (1u << 12)
#define EVT_RKH_F_TRC_RTFIL_SMA_EN    (1u << 13)
#define EVT_RKH_F_TRC_RTFIL_SIGNAL_EN (1u << 14)
#define EVT_RKH_F_TRC_NSEQ_EN         (1u << 15)
#define EVT_RKH_F_TRC_TSTAMP_EN       (1u << 16)
#define EVT_RKH_F_TRC_CHK_EN          (1u << 17)

/* evtrace's loss record (not RKH's): id 0xBF (FWK event 31, unused by RKH 3.4.00), written with no
 * sequence number and no timestamp (like TCFG): u32 records lost since the previous loss record,
 * u32 running total, checksum when enabled. Written before the next record that gets through after
 * records were dropped (a nested begin, a record larger than the ring), after a drain made room
 * following overwrites, once per ring's worth of bytes while a full ring keeps overwriting, and by
 * evt_rkh_flush / a drain that empties the ring (also with nothing pending, count 0, when the last
 * loss record written was evicted before a reader got it whole: its total must reach the stream). Trazer reports it as an unknown event and goes
 * on; evtrace adds the counts to the losses it reports. Its id and TCFG's (0xAC) are the
 * recorder's own: no begin passes them (filtered, whatever the filters say). */
#define EVT_RKH_TE_LOST 0xBFu

/* Stream configuration (RKH_CFG_* / RKH_CFGPORT_* equivalents). Sizes in bytes (1, 2 or 4); a
 * larger one (an 8-byte pointer) is written, and announced in TCFG, as 4 (RKH's rule). */
typedef struct evt_rkh_config {
    uint32_t flags;     /* EVT_RKH_F_* */
    uint16_t version;   /* RKH_VERSION_CODE written in TCFG (0x3400) */
    uint8_t sz_sig;     /* RKH_CFG_FWK_SIZEOF_EVT */
    uint8_t sz_ts;      /* RKH_CFGPORT_TRC_SIZEOF_TSTAMP */
    uint8_t sz_ptr;     /* RKH_CFGPORT_TRC_SIZEOF_PTR: 2 or 4 (any other is written as 4, RKH's rule) */
    uint8_t sz_fun;     /* RKH_CFGPORT_TRC_SIZEOF_FUN_PTR (not in TCFG): the same rule */
    uint8_t sz_ntimer;  /* RKH_CFG_TMR_SIZEOF_NTIMER */
    uint8_t sz_nblock;  /* RKH_CFG_MP_SIZEOF_NBLOCK */
    uint8_t sz_nelem;   /* RKH_CFG_QUE_SIZEOF_NELEM */
    uint8_t sz_esize;   /* RKH_CFG_FWK_SIZEOF_EVT_SIZE */
    uint8_t sz_bsize;   /* RKH_CFG_MP_SIZEOF_BSIZE */
    uint8_t max_pool;   /* RKH_CFG_FWK_MAX_EVT_POOL */
} evt_rkh_config;

typedef uint32_t (*evt_rkh_ts_fn)(void);                              /* rkh_trc_getts() */
typedef void (*evt_rkh_sink_fn)(void *user, const uint8_t *p, uint32_t n); /* stream output */

/* The bits of evt_rkh_recorder.head (private), one byte so that the streamed end sets the state
 * after its drain with one store. */
#define EVT_RKH_HEAD_START   0x01u /* the oldest ring byte starts a record (the drain took its flag) */
#define EVT_RKH_HEAD_PARTIAL 0x02u /* the oldest ring byte continues a record whose start was drained */
#define EVT_RKH_HEAD_PDATA   0x04u /* ... and that record is a data record (counted when evicted) */
#define EVT_RKH_HEAD_ESC     0x08u /* the last byte drained was an escape (the reader is inside one) */
#define EVT_RKH_HEAD_DRAINED 0x10u /* bytes were drained since the last loss record */

/* The states of evt_rkh_recorder.lr (private): where the last loss record written is. */
#define EVT_RKH_LR_LIVE  0x01u /* whole in the ring at lr_at, not yet drained */
#define EVT_RKH_LR_DRAIN 0x02u /* a drain took its start (its rest may still be in the ring) */
#define EVT_RKH_LR_GONE  0x04u /* an eviction removed it, or its rest after a drain took its start:
                                  the next flush (or a drain that empties the ring) writes a loss
                                  record even with nothing pending, to carry the running total */

/* On 64-bit hosts (GCC/Clang) a recorder is aligned and padded to whole 128-byte blocks, so two
 * recorders side by side (an array, two globals) share no cache line nor an adjacent-line prefetch
 * pair: threads recording into different recorders do not slow each other down. Small targets keep
 * the natural layout (RAM). */
#ifndef EVT_RKH_REC_ALIGN_
#if (defined(__GNUC__) || defined(__clang__)) && UINTPTR_MAX > 0xFFFFFFFFu
#define EVT_RKH_REC_ALIGN_ __attribute__((aligned(128)))
#else
#define EVT_RKH_REC_ALIGN_
#endif
#endif

/* One recorder. Members are private to rkh_enc.c (the fields the inline begin reads are marked
 * "hot"); the struct is public so callers can own it. Threads recording into different recorders
 * share nothing (EVT_RKH_REC_ALIGN_ above; the ring is the caller's: give each its own lines). */
typedef struct EVT_RKH_REC_ALIGN_ evt_rkh_recorder {
    /* hot: the lock, the nesting guard, the filter decision and the ring cursor */
    evt_rec_lock lock;        /* this recorder's critical section (begin..end, drains, filters) */
    evt_port_crit_t crit;     /* saved critical-section state of the open record (every record
                                 writes it: here, not beside the cold tail another recorder may
                                 follow) */
    evt_nest nest;            /* set while a record is written or the ring drained: nested = drop
                                 (unused where the lock's state is the guard: evt_rec_guard_enter) */
    uint8_t seq;              /* next sequence number */
    uint8_t open;             /* 2: a record is open and a slow path ran (qty, open_at and
                                 seq_open are up to date); else 0: no record open when lim is 0,
                                 or (lim != 0) one every byte of which a fast path wrote (they
                                 are not yet): no begin writes it, every end sets 0 (R6) */
    uint8_t trunc;            /* the open record does not fit in the ring: discarded at end */
    uint8_t seq_open;         /* seq before the open record (restored when it is discarded) */
    uint8_t ao_test;          /* hot: the AO runtime filter applies (RTFIL and RTFIL_SMA) */
    uint8_t sig_test;         /* hot: the signal runtime filter applies (RTFIL and RTFIL_SIGNAL) */
    uint8_t head;             /* the ring's oldest end after drains: EVT_RKH_HEAD_* bits */
    uint8_t hdr6;             /* id, seq and a 4-byte timestamp from ts: the default header (init) */
    uint8_t chk_en;           /* hot: records carry a checksum (CHK_EN) */
    uint8_t *ring;            /* the byte ring (caller's memory) */
    uint32_t size, in, out;
    uint32_t lim;             /* while a record is open: [in, lim) is contiguous free room, lim <=
                                 size (a fast field writer stores 4 bytes when in + 4 + 3 <= lim:
                                 the closing checksum and flag always fit after it; end tests
                                 in + 3 <= lim); a slow path sets it again; 0 while no record
                                 is open */
    uint32_t nlim;            /* while no record is open: [in, nlim) is contiguous free room (at
                                 most ROOM_CAP bytes), or nlim < in + OPEN_ROOM (0: not known),
                                 where begin works the room out again; set by end's fast close
                                 (min(fend, in + ROOM_CAP), or lim0 after a streamed record), 0
                                 by every other path that moves in (R7) */
    uint32_t lim0;            /* nlim of an empty ring whose in is 0 (init: min(size, ROOM_CAP)) */
    uint32_t sum;             /* checksum of the open record: byte sums in two 16-bit lanes, the
                                 byte written is -(lane 0 + lane 1); a slow path folds it to one
                                 byte first */
    uint32_t qty;             /* bytes in the ring, as of mark while a record is open */
    uint32_t mark;            /* in when qty was last brought up to date (not beside sum: two
                                 stores at begin, not one vector store built from both) */
    uint32_t open_at;         /* ring index of the open record's first byte (open == 2) */
    uint32_t qty_open;        /* qty when the open record began (open == 2): streamed only, a
                                 discarded record gives the ring back as it found it */
    uint32_t tsum;            /* the timestamp's checksum lanes, apart from sum when the inline
                                 open wrote the header (else 0): the record's lanes are sum + tsum,
                                 so the fields' additions to sum do not wait for the clock; a
                                 slow path folds it into sum */
    evt_rkh_sink_fn sink;     /* drained to after every record, if set (lock held) */
    void *sink_user;
    evt_rkh_ts_fn ts;         /* timestamp source */
    evt_clock32 clock;        /* the core's 32-bit clock over ts */
    evt_loss loss;            /* the loss account (dropped, overwritten, reported) */
    evt_rec_count drops_seen; /* loss.dropped when the last loss record was written */
    uint32_t evicted;         /* bytes evicted by wraps since the last loss record */
    uint32_t ow_pend;         /* records overwritten, not yet in the loss account: moved there once
                                 a loss record may be due for them (R4) */
    uint32_t emit[32];        /* hot: bit (id & 7) of emit[id >> 3] set = group built in and not
                                 filtered by group/event; bits 8-31 count the cell's publishes
                                 (so a stale publish is refused by CAS, see publish_emit). After
                                 the cursor fields, whose offsets stay short on Thumb */
    /* cold */
    evt_rkh_config cfg;
    uint8_t grp_filter;       /* bit g set = group g emitted */
    uint8_t ev_filter[32];    /* bit id set = event emitted */
    uint8_t ao_filter[8];     /* hot: bit prio set = AO emitted (priorities 0..63) */
    uint8_t sig_filter[32];   /* hot: bit sig set = signal emitted (signals 0..255) */
    uint8_t lr;               /* the last loss record written: EVT_RKH_LR_* (R4) */
    uint32_t lr_at;           /* ... its ring index (its id byte) while EVT_RKH_LR_LIVE */
    uint32_t lost_total;      /* losses carried by the loss records written since init (the last
                                 loss record's running total) */
    uint32_t fend;            /* [in, fend) is contiguous free room when fend > in (at most all
                                 of it: end's fast close takes nlim from it in a flight ring, R7;
                                 here, not among the hot fields: put beside nlim, it moved them
                                 by 4 bytes and the streamed record took 1.37x instead of 1.27x
                                 on the Zen 5 VM, with the same instructions) */
#if EVT_RKH_OWNED
    /* thread ownership (evt_rkh_own; rkh_enc.c O1-O6) */
    uintptr_t own;            /* the owner thread's flag (&evt_rkh_obusy_ of that thread), or 0:
                                 every context locks */
    uint32_t claim;           /* 1 while another thread holds the lock and waits for / holds
                                 the recorder without the owner (O3) */
#endif
} evt_rkh_recorder;

/* RKH's template configuration (doc/rkhcfg.h with the Linux port's 32-bit pointers/timestamps). */
void evt_rkh_config_default(evt_rkh_config *c);
/* rkh_trc_init + RKH_TRC_SEND_CFG: reset ring, seq, filters (all suppressed, as RKH) and the loss
 * account, write the initial flag and the TCFG record with ts_hz. ring_size 1..2^31 - 1 (a larger
 * ring is used up to that size); a loss record needs up to 21 bytes, so rings of 64 bytes or more
 * are meant (smaller ones keep losses pending in the stats). A NULL ring or ring_size 0 gives an inert recorder: every begin returns 0
 * as if filtered, drains return nothing. Call before the recorder is shared. */
void evt_rkh_init(evt_rkh_recorder *r, const evt_rkh_config *cfg, uint8_t *ring, uint32_t ring_size,
                  evt_rkh_ts_fn ts, uint32_t ts_hz);
/* Replace r's timestamp source (same rate, same width): the next record reads the new one. Call
 * while nothing records into r (before it is used or between uses); the FreeRTOS integration
 * wraps the source this way while it streams (freertos_rec.c). */
void evt_rkh_set_ts(evt_rkh_recorder *r, evt_rkh_ts_fn ts);
/* Output: a sink gets every complete record as soon as it ends (streaming; called with the
 * recorder's lock held, so calls are serialised; a record the sink itself begins on this recorder
 * is dropped and counted), or the ring is drained with the RKH-like calls below (each under the
 * lock; when the ring is empty, a drain first appends the pending loss record). In a ring that keeps
 * overwriting while other contexts record, prefer get_whole_block (a copy made under the lock):
 * the bytes get_block points at may be overwritten once it returns. */
void evt_rkh_set_sink(evt_rkh_recorder *r, evt_rkh_sink_fn fn, void *user);
int evt_rkh_get_byte(evt_rkh_recorder *r, uint8_t *b);                 /* 1 if a byte was taken */
const uint8_t *evt_rkh_get_block(evt_rkh_recorder *r, uint32_t *n);     /* largest contiguous run <= *n */
uint32_t evt_rkh_get_whole_block(evt_rkh_recorder *r, uint8_t *dst, uint32_t n); /* across the wrap */
/* Write the pending loss record now (stop, before reading a flight ring, at the end of a session)
 * and pass it to the sink if one is set. Call it from a normal context; nested in a record of the
 * same recorder it does nothing. */
void evt_rkh_flush(evt_rkh_recorder *r);
/* Thread ownership (the POSIX port, compiled with EVT_RKH_OWNED=1; docs/rkh.md): evt_rkh_own
 * makes r the calling thread's own recorder. Its records (and drains, flushes) then take no lock
 * but a flag of the thread, which its signal handlers also test: a handler that lands inside one
 * of its records (of any recorder the thread owns) drops its record and counts it, as the lock's
 * nesting guard does, port simulated ISRs included (not held off: the owner is in no port
 * section); its user events are stashed and written after it (docs/user-events.md). Every other
 * thread still may record, drain, flush or change filters: it takes the lock and then claims the
 * recorder from its owner (a process-wide barrier, membarrier(2), and a wait for the owner's
 * record in progress), a few microseconds per call: meant for the occasional drain, flush or
 * stats call, not for a second writer. Returns 1, or 0 when not available (built without
 * EVT_RKH_OWNED, no membarrier(2), an inert recorder, 8 recorders owned by this thread already,
 * or called nested in a record of r). evt_rkh_disown (any thread) makes r a locked recorder
 * again; the owner's exit does it too (pthread_exit or returning from the thread's function).
 * evt_rkh_init resets it. A recorder a thread took must stay valid until that thread gives it up
 * itself (evt_rkh_disown) or exits: the thread's exit looks at it. */
int evt_rkh_own(evt_rkh_recorder *r);
void evt_rkh_disown(evt_rkh_recorder *r);
/* The core's stats (evtrace/recorder.h): data records written, dropped (nested begin, lock not
 * available to a nested context, record larger than the ring), overwritten by wraps, pending,
 * loss records and the losses they carried. */
void evt_rkh_get_stats(const evt_rkh_recorder *r, evt_rec_stats *out);
void evt_rkh_get_rec_stats(const evt_rkh_recorder *r, evt_rec_stats *out); /* the same (core naming) */

/* Runtime filters, RKH naming ("on" = suppress, "off" = emit). Groups 0..7, ids 0..255. Each
 * change is made under the recorder's lock and takes effect for the next begin; called from a
 * nested context (a handler) while another thread holds the lock for long, it is not applied. */
void evt_rkh_filter_on_group(evt_rkh_recorder *r, unsigned grp);
void evt_rkh_filter_off_group(evt_rkh_recorder *r, unsigned grp);
void evt_rkh_filter_on_group_all_events(evt_rkh_recorder *r, unsigned grp);
void evt_rkh_filter_off_group_all_events(evt_rkh_recorder *r, unsigned grp);
void evt_rkh_filter_on_event(evt_rkh_recorder *r, unsigned id);
void evt_rkh_filter_off_event(evt_rkh_recorder *r, unsigned id);     /* also sets its group bit */
void evt_rkh_filter_on_sma(evt_rkh_recorder *r, unsigned prio);
void evt_rkh_filter_off_sma(evt_rkh_recorder *r, unsigned prio);
void evt_rkh_filter_on_signal(evt_rkh_recorder *r, unsigned sig);
void evt_rkh_filter_off_signal(evt_rkh_recorder *r, unsigned sig);
void evt_rkh_filter_all(evt_rkh_recorder *r, int emit);              /* every group, event, AO, signal */

/* Records. begin returns 1 when the record passes the filters and the recorder's critical section
 * is entered (it is then held until evt_rkh_end); writers and end must only be called after a
 * begin that returned 1. begin returns 0 for a filtered record (nothing touched, no clock read)
 * and for a dropped one (counted, reported by a loss record): a begin nested in an open record of
 * the same recorder (an interrupt or signal handler, the sink), or a nested context that could
 * only have entered by waiting for another thread. Any context may call begin..end.
 *   begin         event/group filter only (E)
 *   begin_ao      + AO filter by priority (E+AO); prio < 0: no AO test
 *   begin_ao_sig  + signal filter (E+AO+SIG); sig < 0: no signal test
 *   begin_nofilt  symbol records: never filtered, still seq + timestamp */
EVT_RKH_FAST_ int evt_rkh_begin(evt_rkh_recorder *r, unsigned id);
EVT_RKH_FAST_ int evt_rkh_begin_ao(evt_rkh_recorder *r, unsigned id, int prio);
EVT_RKH_FAST_ int evt_rkh_begin_ao_sig(evt_rkh_recorder *r, unsigned id, int prio, int sig);
int evt_rkh_begin_nofilt(evt_rkh_recorder *r, unsigned id);
void evt_rkh_end(evt_rkh_recorder *r);
/* Argument writers (sizes from the configuration). */
void evt_rkh_ui8(evt_rkh_recorder *r, uint8_t v);
void evt_rkh_ui16(evt_rkh_recorder *r, uint16_t v);
EVT_RKH_FAST_ void evt_rkh_ui32(evt_rkh_recorder *r, uint32_t v);
EVT_RKH_FAST_ void evt_rkh_sym(evt_rkh_recorder *r, uintptr_t p);   /* SYM: object pointer, low bytes */
EVT_RKH_FAST_ void evt_rkh_fun(evt_rkh_recorder *r, uintptr_t p);   /* FUN */
void evt_rkh_sig(evt_rkh_recorder *r, uint32_t v);    /* SIG */
void evt_rkh_ne(evt_rkh_recorder *r, uint32_t v);     /* NE (queue elements) */
void evt_rkh_nblk(evt_rkh_recorder *r, uint32_t v);   /* NBLK */
void evt_rkh_bsize(evt_rkh_recorder *r, uint32_t v);  /* BSIZE */
void evt_rkh_esize(evt_rkh_recorder *r, uint32_t v);  /* ESIZE */
void evt_rkh_ntick(evt_rkh_recorder *r, uint32_t v);  /* NTICK */
void evt_rkh_str(evt_rkh_recorder *r, const char *s); /* characters then NUL */
/* User-record fields: format byte (width << 4 | type) then the value. type: EVT_RKH_USR_I8 ..
 * EVT_RKH_USR_ESIG (evtrace/rkh_stream.h, RKH's RKH_I8_T ..); width: RKH's display width, 0..15. */
void evt_rkh_usr_int(evt_rkh_recorder *r, unsigned type, unsigned width, uint32_t v); /* I8..X32, OBJ, FUN, ESIG */
void evt_rkh_usr_str(evt_rkh_recorder *r, const char *s);
void evt_rkh_usr_mem(evt_rkh_recorder *r, const uint8_t *p, uint8_t n);

/* Symbol records (never filtered; RKH's RKH_TR_FWK_* symbol macros). Each is one whole record. */
void evt_rkh_sym_obj(evt_rkh_recorder *r, uintptr_t obj, const char *name);            /* FWK_OBJ */
void evt_rkh_sym_sig(evt_rkh_recorder *r, uint32_t sig, const char *name);             /* FWK_SIG */
void evt_rkh_sym_fun(evt_rkh_recorder *r, uintptr_t fn, const char *name);             /* FWK_FUN */
void evt_rkh_sym_tusr(evt_rkh_recorder *r, unsigned user_event, const char *name);     /* FWK_TUSR */
void evt_rkh_sym_ao(evt_rkh_recorder *r, uintptr_t ao, const char *name);              /* FWK_AO */
void evt_rkh_sym_state(evt_rkh_recorder *r, uintptr_t ao, uintptr_t st, const char *name);  /* FWK_STATE */
void evt_rkh_sym_pstate(evt_rkh_recorder *r, uintptr_t ao, uintptr_t st, const char *name); /* FWK_PSTATE */
void evt_rkh_sym_timer(evt_rkh_recorder *r, uintptr_t t, const char *name);            /* FWK_TIMER */
void evt_rkh_sym_epool(evt_rkh_recorder *r, unsigned pool, const char *name);          /* FWK_EPOOL */
void evt_rkh_sym_queue(evt_rkh_recorder *r, uintptr_t q, const char *name);            /* FWK_QUEUE */
void evt_rkh_sym_actor(evt_rkh_recorder *r, uintptr_t actor, const char *name);        /* FWK_ACTOR */

/* ---- inline fast path ------------------------------------------------------------------------------
 * With GCC/Clang (C99 inline semantics) begin, begin_ao and begin_ao_sig decide the filters here,
 * without a call, and the 4-byte writers (ui32, and sym/fun with 4-byte pointers) store a value
 * none of whose bytes needs stuffing straight into the ring when it has contiguous room (external
 * definitions in rkh_enc.c); define EVT_RKH_NO_INLINE for plain calls. Internals: not part of the
 * API. */
int evt_rkh_open_(evt_rkh_recorder *r, unsigned id); /* enter, nest, loss record, id/seq/ts */
int evt_rkh_open_rest_(evt_rkh_recorder *r, unsigned id); /* open_ once entered (lock, guard) */
int evt_rkh_hdr6_(evt_rkh_recorder *r, unsigned id, uint32_t t); /* the default header, any room */
/* the default header w, with a byte to stuff, at in (room >= EVT_RKH_OPEN_ROOM_); sum: its lanes */
int evt_rkh_hdr6_stuffed_(evt_rkh_recorder *r, uint64_t w, uint32_t in, uint32_t room, uint32_t sum);
/* A record whose room at begin is less than this makes room first (a flight ring evicts in
 * batches, so the records after it take the fast paths). */
#define EVT_RKH_OPEN_ROOM_ 32u
/* The most fast room one record may use (its checksum's 16-bit lanes cannot overflow: each byte
 * adds at most 255 to one lane): a record's lim is at most this past its start. */
#define EVT_RKH_ROOM_CAP_ 240u
void evt_rkh_put_(evt_rkh_recorder *r, uint32_t v, unsigned n); /* n bytes, any ring state */
int evt_rkh_end_slow_(evt_rkh_recorder *r); /* end off the fast close; 0: no record was open */
void evt_rkh_drain_(evt_rkh_recorder *r);   /* the ring, then a pending loss record, to the sink */

/* Entering the recorder (a record, a drain, a flush) and leaving it. *st / r->crit: the lock's
 * state (0-2, evt_port_lock_enter), or, for a thread-owned recorder, EVT_RKH_ST_OWNER (the owner,
 * no lock: rkh_enc.c O2) or the lock's state with EVT_RKH_ST_OWNLK (the owner through the lock, a
 * claim was in progress) or EVT_RKH_ST_CLAIM (another thread, holding the claim) added. */
#define EVT_RKH_ST_CLAIM 4u
#define EVT_RKH_ST_OWNLK 8u
#define EVT_RKH_ST_OWNER 16u
#if EVT_RKH_OWNED
/* 1 while this thread is inside a recorder it owns (rkh_enc.c O2); its address is the thread's
 * owner token (own). */
extern _Thread_local uint32_t evt_rkh_obusy_;
/* Every entry but the owner's own, and its part after the lock (ls: the lock's state): the
 * entry's state, or EVT_RKH_ST_REFUSED (nothing held). By value: a state passed by address would
 * keep every record's state in memory (+11 instructions per record). */
#define EVT_RKH_ST_REFUSED 0xFFFFFFFFu
evt_port_crit_t evt_rkh_enter_slow_(evt_rkh_recorder *r);
evt_port_crit_t evt_rkh_enter_locked_(evt_rkh_recorder *r, evt_port_crit_t ls);
void evt_rkh_exit_slow_(evt_rkh_recorder *r, evt_port_crit_t st); /* their exit */
#endif
static inline int evt_rkh_enter_(evt_rkh_recorder *r, evt_port_crit_t *st)
{
#if EVT_RKH_OWNED
    uintptr_t own = EVT_LOAD_RLX(&r->own);
    if (EVT_UNLIKELY(own != 0u)) {
        if (own != (uintptr_t)&evt_rkh_obusy_) return (*st = evt_rkh_enter_slow_(r)) != EVT_RKH_ST_REFUSED;
        /* O2: the owner, or one of its handlers (which finds the flag set inside the owner's record) */
        if (EVT_UNLIKELY(EVT_LOAD_RLX(&evt_rkh_obusy_) != 0u)) return 0;
        EVT_STORE_RLX(&evt_rkh_obusy_, 1u);
        __atomic_signal_fence(__ATOMIC_SEQ_CST); /* the CPU's order: the claimer's membarrier (O3) */
        /* still its own after the claim's test (acquire: a claimer that gave it to another
           thread stored own before it cleared claim) */
        if (EVT_LIKELY(EVT_LOAD_ACQ(&r->claim) == 0u) && EVT_LIKELY(EVT_LOAD_RLX(&r->own) == own)) {
            *st = EVT_RKH_ST_OWNER;
            return 1;
        }
        EVT_STORE_REL(&evt_rkh_obusy_, 0u); /* claimed, or owned by another now: through the lock */
        return (*st = evt_rkh_enter_slow_(r)) != EVT_RKH_ST_REFUSED;
    }
#endif
    if (EVT_UNLIKELY(!evt_rec_lock_enter(&r->lock, st))) return 0;
    if (EVT_UNLIKELY(!evt_rec_guard_enter(&r->nest, *st))) {
        evt_rec_lock_exit(&r->lock, *st);
        return 0;
    }
#if EVT_RKH_OWNED
    /* O1: own leaves 0 only inside the lock: 0 here and no thread owns r while we hold it
       (acquire: an owner that gave it up in its own entry wrote its records before) */
    if (EVT_UNLIKELY(EVT_LOAD_ACQ(&r->own) != 0u)) return (*st = evt_rkh_enter_locked_(r, *st)) != EVT_RKH_ST_REFUSED;
#endif
    return 1;
}
static inline void evt_rkh_exit_(evt_rkh_recorder *r, evt_port_crit_t st)
{
#if EVT_RKH_OWNED
    if (EVT_UNLIKELY(st >= EVT_RKH_ST_CLAIM)) {
        if (EVT_LIKELY(st == EVT_RKH_ST_OWNER)) {
            EVT_STORE_REL(&evt_rkh_obusy_, 0u);
            evt_posix_after_record(); /* what a handler left for the record's end (a stashed line) */
        } else {
            evt_rkh_exit_slow_(r, st);
        }
        return;
    }
#endif
    evt_rec_guard_exit(&r->nest);
    evt_rec_lock_exit(&r->lock, st);
}

/* v's four bytes at q in little-endian order: one store on a little-endian GCC/Clang target
 * (fewer, wider stores make the lock that follows cheaper), else byte by byte. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define EVT_RKH_ST32LE_(q, v)                                                                       \
    do {                                                                                            \
        uint32_t w_ = (v);                                                                          \
        __builtin_memcpy((q), &w_, 4);                                                              \
    } while (0)
#else
#define EVT_RKH_ST32LE_(q, v)                                                                       \
    do {                                                                                            \
        (q)[0] = (uint8_t)(v); (q)[1] = (uint8_t)((v) >> 8);                                        \
        (q)[2] = (uint8_t)((v) >> 16); (q)[3] = (uint8_t)((v) >> 24);                               \
    } while (0)
#endif

/* Append v's four bytes and return from the calling writer when no byte is in 0x7C..0x7F
 * (0x7D/0x7E need stuffing; the test is one word operation; rkh_enc.c checks that the flag and
 * escape are in that range) and the open record has fast room
 * (lim): one store, the cursor, and v's bytes added to the checksum's two lanes (no fold). */
#define EVT_RKH_PUT4_FAST_(r, v)                                                                    \
    do {                                                                                            \
        uint32_t x_ = ((v) | 0x03030303u) ^ 0x7F7F7F7Fu, in_ = (r)->in, s_ = (r)->sum;              \
        if (!((x_ - 0x01010101u) & ~x_ & 0x80808080u) && in_ + 7u <= (r)->lim) {                    \
            EVT_RKH_ST32LE_((r)->ring + in_, v);                                                    \
            (r)->sum = s_ + ((v) & 0x00FF00FFu) + (((v) >> 8) & 0x00FF00FFu);                       \
            (r)->in = in_ + 4u;                                                                     \
            return;                                                                                 \
        }                                                                                           \
    } while (0)

/* The runtime filters of a begin (id &= 255 done): the id's emit bit, then the AO filter when prio
 * >= 0 and the signal filter when sig >= 0, each only while it filters anything. A macro: both
 * begins below use it, one of them an inline definition with external linkage, which may not
 * call a static function. */
#define EVT_RKH_FILTERS_PASS_(r, id, prio, sig)                                                        \
    (((EVT_LOAD_RLX(&(r)->emit[(id) >> 3]) >> ((id) & 7u)) & 1u) &&                                    \
     !((prio) >= 0 && (r)->ao_test &&                                                                  \
       !((EVT_LOAD_RLX(&(r)->ao_filter[((unsigned)(prio) & 63u) >> 3]) >> ((unsigned)(prio) & 7u)) & 1u)) && \
     !((sig) >= 0 && (r)->sig_test &&                                                                  \
       !((EVT_LOAD_RLX(&(r)->sig_filter[((unsigned)(sig) & 255u) >> 3]) >> ((unsigned)(sig) & 7u)) & 1u)))

#ifdef EVT_RKH_INLINE_FAST
inline int evt_rkh_begin_ao_sig(evt_rkh_recorder *r, unsigned id, int prio, int sig)
{
    id &= 255u;
    if (!EVT_RKH_FILTERS_PASS_(r, id, prio, sig)) return 0;
    return evt_rkh_open_(r, id);
}
#if EVT_RKH_FAST
inline void evt_rkh_ui32(evt_rkh_recorder *r, uint32_t v)
{
    EVT_RKH_PUT4_FAST_(r, v);
    evt_rkh_put_(r, v, 4u);
}
inline void evt_rkh_sym(evt_rkh_recorder *r, uintptr_t p)
{
    uint32_t v = (uint32_t)p;
    if (r->cfg.sz_ptr == 4u) EVT_RKH_PUT4_FAST_(r, v);
    evt_rkh_put_(r, v, r->cfg.sz_ptr);
}
inline void evt_rkh_fun(evt_rkh_recorder *r, uintptr_t p)
{
    uint32_t v = (uint32_t)p;
    if (r->cfg.sz_fun == 4u) EVT_RKH_PUT4_FAST_(r, v);
    evt_rkh_put_(r, v, r->cfg.sz_fun);
}
#else /* no fast paths: plain calls */
inline void evt_rkh_ui32(evt_rkh_recorder *r, uint32_t v) { evt_rkh_put_(r, v, 4u); }
inline void evt_rkh_sym(evt_rkh_recorder *r, uintptr_t p) { evt_rkh_put_(r, (uint32_t)p, r->cfg.sz_ptr); }
inline void evt_rkh_fun(evt_rkh_recorder *r, uintptr_t p) { evt_rkh_put_(r, (uint32_t)p, r->cfg.sz_fun); }
#endif
inline int evt_rkh_begin(evt_rkh_recorder *r, unsigned id) { return evt_rkh_begin_ao_sig(r, id, -1, -1); }
inline int evt_rkh_begin_ao(evt_rkh_recorder *r, unsigned id, int prio) { return evt_rkh_begin_ao_sig(r, id, prio, -1); }
#endif

#ifdef EVT_RKH_INLINE_OPEN
/* evt_rkh_open_'s fast path, inline (EVT_RKH_INLINE_OPEN): lock, guard, then, with nothing
 * pending and the default header (hdr6: id, seq, 4-byte timestamp), the clock and the header as
 * one 8-byte store into the room the previous record's end left (nlim), when it has at least
 * EVT_RKH_OPEN_ROOM_ bytes and no header byte needs stuffing (the test: rkh_enc.c, header6_at);
 * every other case out of line. The same state as evt_rkh_open_ (rkh_enc.c, R6). */
static inline int evt_rkh_open_body_(evt_rkh_recorder *r, unsigned id)
{
    evt_port_crit_t st;
    if (EVT_UNLIKELY(!evt_rkh_enter_(r, &st))) {
        evt_loss_drop(&r->loss);
        return 0;
    }
    r->crit = st;
    if (EVT_UNLIKELY(evt_loss_pending(&r->loss) || !r->hdr6)) return evt_rkh_open_rest_(r, id);
    uint32_t t = r->ts();
    uint32_t in = r->in, lim = r->nlim, seq = r->seq;
    uint64_t w = (uint8_t)id | seq << 8 | (uint64_t)t << 16;
    uint64_t a = w ^ 0x7E7E7E7E7E7E7E7Eull, x = a ^ (a & 0x0101010101010101ull) * 3u;
    if (EVT_UNLIKELY(lim < in + EVT_RKH_OPEN_ROOM_)) return evt_rkh_hdr6_(r, id, t);
    uint32_t sum = (uint8_t)id + seq, tsum = (t & 0x00FF00FFu) + ((t >> 8) & 0x00FF00FFu);
    r->seq = (uint8_t)(seq + 1u);
    if (EVT_UNLIKELY((x - 0x0101010101010101ull) & ~x & 0x0000808080808080ull))
        return evt_rkh_hdr6_stuffed_(r, w, in, lim - in, sum + tsum);
    uint8_t *q = r->ring + in;
    EVT_RKH_ST32LE_(q, (uint32_t)w);
    EVT_RKH_ST32LE_(q + 4, (uint32_t)(w >> 32));
    r->sum = sum; /* the clock's lanes apart (tsum): the fields' sums need not wait for it */
    r->tsum = tsum;
    r->mark = in;
    r->in = in + 6u;
    r->lim = lim;
    return 1;
}
static inline int evt_rkh_begin_body_(evt_rkh_recorder *r, unsigned id, int prio, int sig)
{
    id &= 255u;
    if (!EVT_RKH_FILTERS_PASS_(r, id, prio, sig)) return 0;
    return evt_rkh_open_body_(r, id);
}
#define evt_rkh_begin_ao_sig(r, id, prio, sig) evt_rkh_begin_body_((r), (id), (prio), (sig))
#define evt_rkh_begin_ao(r, id, prio) evt_rkh_begin_body_((r), (id), (prio), -1)
#define evt_rkh_begin(r, id) evt_rkh_begin_body_((r), (id), -1, -1)
#endif


/* end's body: evt_rkh_end is this, inline, with EVT_RKH_INLINE_END (a macro: the core's lock and
 * guard are static inline functions, which only a static inline function may call), and rkh_enc.c
 * (which defines EVT_RKH_END_DEFINE_) makes the external definition of it. The fast close applies when only fast paths wrote the
 * record (in + 3 <= lim; lim is 0 when no record is open): checksum (two 16-bit lanes folded,
 * stuffed) and flag into the room the fast paths keep for them. With a sink and a ring that held
 * nothing before the record (the usual stream: the ring was emptied after the previous record)
 * the record goes to the sink and the ring starts again at index 0 (its first bytes stay in
 * cache); anything else takes the general drain. The room left after the record is the next
 * record's (nlim), so begin need not work it out. Flag, escape, ^ 0x20: evtrace/rkh_stream.h. */
#if (defined(EVT_RKH_INLINE_END) || defined(EVT_RKH_END_DEFINE_)) && EVT_RKH_FAST
static inline void evt_rkh_end_body_(evt_rkh_recorder *r)
{
    uint32_t in = r->in, lim = r->lim;
    if (EVT_LIKELY(in + 3u <= lim)) {
        uint8_t *p = r->ring + in;
        uint32_t s = r->sum + r->tsum, ck = r->chk_en; /* ck: 1 with a checksum, else 0 */
        uint8_t c = (uint8_t)(0u - (s + (s >> 16)));
        if (EVT_UNLIKELY(c == EVT_RKH_FLAG || c == EVT_RKH_ESC) && ck) {
            *p++ = EVT_RKH_ESC;
            c = (uint8_t)(c ^ EVT_RKH_ESC_XOR);
            in++;
        }
        p[0] = c;              /* the checksum, or (ck 0) a byte the flag overwrites */
        p[ck] = EVT_RKH_FLAG;
        in += ck + 1u;
        uint32_t qty = r->qty, mark = r->mark, out = r->out;
        evt_loss_written(&r->loss, 1u);
        r->open = 0; /* a slow path may have run (it leaves fast room for the close) */
        r->lim = 0;
        if (r->sink && out + qty == mark) {
            /* the ring's bytes (qty as of mark) are one run from out to in: to the sink, and the
               ring starts again at 0 */
            r->in = r->out = r->qty = 0;
            r->nlim = r->lim0; /* fend stays: the ring is empty, any fend <= size is true (R7) */
            r->head = EVT_RKH_HEAD_START | EVT_RKH_HEAD_DRAINED; /* whole records drained */
            r->sink(r->sink_user, r->ring + out, in - out);
            if (EVT_UNLIKELY(evt_loss_pending(&r->loss))) evt_rkh_drain_(r);
        } else {
            /* [in, fend) is still free: the next record's room, at most ROOM_CAP of it (fend was
               size too when in is: the next begin works its room out from index 0) */
            uint32_t nl = r->fend;
            r->qty = qty + (in - mark);
            if (nl > in + EVT_RKH_ROOM_CAP_) nl = in + EVT_RKH_ROOM_CAP_;
            if (in == r->size) in = nl = 0u;
            r->in = in;
            r->nlim = nl;
            if (r->sink) evt_rkh_drain_(r);
        }
    } else if (!evt_rkh_end_slow_(r)) {
        return;
    }
    /* read after the sink call (one value fewer kept across it) and before the guard opens: a
       handler may record after that */
    evt_rkh_exit_(r, r->crit);
}
#endif
#ifdef EVT_RKH_INLINE_END
#define evt_rkh_end(r) evt_rkh_end_body_(r)
#endif

#endif
