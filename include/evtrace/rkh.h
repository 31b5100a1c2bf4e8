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
 * sequence number and no timestamp (like TCFG), before the first record recorded after the ring
 * overwrote older records: u32 records lost since the previous loss record, u32 total, checksum
 * when enabled. Trazer reports it as an unknown event and goes on; evtrace reads it. */
#define EVT_RKH_TE_LOST 0xBFu

/* Stream configuration (RKH_CFG_* / RKH_CFGPORT_* equivalents). Sizes in bytes (1, 2 or 4). */
typedef struct evt_rkh_config {
    uint32_t flags;     /* EVT_RKH_F_* */
    uint16_t version;   /* RKH_VERSION_CODE written in TCFG (0x3400) */
    uint8_t sz_sig;     /* RKH_CFG_FWK_SIZEOF_EVT */
    uint8_t sz_ts;      /* RKH_CFGPORT_TRC_SIZEOF_TSTAMP */
    uint8_t sz_ptr;     /* RKH_CFGPORT_TRC_SIZEOF_PTR */
    uint8_t sz_fun;     /* RKH_CFGPORT_TRC_SIZEOF_FUN_PTR (not in TCFG) */
    uint8_t sz_ntimer;  /* RKH_CFG_TMR_SIZEOF_NTIMER */
    uint8_t sz_nblock;  /* RKH_CFG_MP_SIZEOF_NBLOCK */
    uint8_t sz_nelem;   /* RKH_CFG_QUE_SIZEOF_NELEM */
    uint8_t sz_esize;   /* RKH_CFG_FWK_SIZEOF_EVT_SIZE */
    uint8_t sz_bsize;   /* RKH_CFG_MP_SIZEOF_BSIZE */
    uint8_t max_pool;   /* RKH_CFG_FWK_MAX_EVT_POOL */
} evt_rkh_config;

typedef uint32_t (*evt_rkh_ts_fn)(void);                              /* rkh_trc_getts() */
typedef void (*evt_rkh_sink_fn)(void *user, const uint8_t *p, uint32_t n); /* stream output */

/* One recorder. Members are private to rkh_enc.c; the struct is public so callers can own it. */
typedef struct evt_rkh_recorder {
    evt_rkh_config cfg;
    uint8_t *ring;            /* the byte ring (caller's memory) */
    uint32_t size, in, out, qty;
    uint8_t seq;              /* next sequence number */
    uint8_t chk;              /* running checksum of the open record */
    uint8_t open;             /* a record is open (begin called, end not yet) */
    uint8_t head_is_start;    /* the oldest ring byte starts a record (the drain took its flag) */
    uint8_t head_partial;     /* the oldest ring byte continues a record whose start was drained */
    uint8_t grp_filter;       /* bit g set = group g emitted */
    uint8_t ev_filter[32];    /* bit id set = event emitted */
    uint8_t ao_filter[8];     /* bit prio set = AO emitted (priorities 0..63) */
    uint8_t sig_filter[32];   /* bit sig set = signal emitted (signals 0..255) */
    evt_rkh_ts_fn ts;         /* timestamp source */
    evt_rkh_sink_fn sink;     /* drained to after every record, if set */
    void *sink_user;
    uint32_t lost_pending;    /* records overwritten, not yet reported by a loss record */
    uint32_t lost_total;      /* records overwritten since init */
    uint32_t written;         /* records written since init (all kinds) */
    uint32_t crit;            /* saved critical-section state */
} evt_rkh_recorder;

/* RKH's template configuration (doc/rkhcfg.h with the Linux port's 32-bit pointers/timestamps). */
void evt_rkh_config_default(evt_rkh_config *c);
/* rkh_trc_init + RKH_TRC_SEND_CFG: reset ring, seq and filters (all suppressed, as RKH), write the
 * initial flag and the TCFG record with ts_hz. ring_size 1..65535. */
void evt_rkh_init(evt_rkh_recorder *r, const evt_rkh_config *cfg, uint8_t *ring, uint32_t ring_size,
                  evt_rkh_ts_fn ts, uint32_t ts_hz);
/* Output: a sink gets every complete record as soon as it ends (streaming), or the ring is drained
 * with the RKH-like calls below. */
void evt_rkh_set_sink(evt_rkh_recorder *r, evt_rkh_sink_fn fn, void *user);
int evt_rkh_get_byte(evt_rkh_recorder *r, uint8_t *b);                 /* 1 if a byte was taken */
const uint8_t *evt_rkh_get_block(evt_rkh_recorder *r, uint32_t *n);     /* largest contiguous run <= *n */
uint32_t evt_rkh_get_whole_block(evt_rkh_recorder *r, uint8_t *dst, uint32_t n); /* across the wrap */

/* Runtime filters, RKH naming ("on" = suppress, "off" = emit). Groups 0..7, ids 0..255. */
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

/* Records. begin returns 1 when the record passes the filters (the critical section is then held
 * until evt_rkh_end); writers and end must only be called after a begin that returned 1.
 *   begin         event/group filter only (E)
 *   begin_ao      + AO filter by priority (E+AO); prio < 0: no AO test
 *   begin_ao_sig  + signal filter (E+AO+SIG); sig < 0: no signal test
 *   begin_nofilt  symbol records: never filtered, still seq + timestamp */
int evt_rkh_begin(evt_rkh_recorder *r, unsigned id);
int evt_rkh_begin_ao(evt_rkh_recorder *r, unsigned id, int prio);
int evt_rkh_begin_ao_sig(evt_rkh_recorder *r, unsigned id, int prio, int sig);
int evt_rkh_begin_nofilt(evt_rkh_recorder *r, unsigned id);
void evt_rkh_end(evt_rkh_recorder *r);
/* Argument writers (sizes from the configuration). */
void evt_rkh_ui8(evt_rkh_recorder *r, uint8_t v);
void evt_rkh_ui16(evt_rkh_recorder *r, uint16_t v);
void evt_rkh_ui32(evt_rkh_recorder *r, uint32_t v);
void evt_rkh_sym(evt_rkh_recorder *r, uintptr_t p);   /* SYM: object pointer, low bytes */
void evt_rkh_fun(evt_rkh_recorder *r, uintptr_t p);   /* FUN */
void evt_rkh_sig(evt_rkh_recorder *r, uint32_t v);    /* SIG */
void evt_rkh_ne(evt_rkh_recorder *r, uint32_t v);     /* NE (queue elements) */
void evt_rkh_nblk(evt_rkh_recorder *r, uint32_t v);   /* NBLK */
void evt_rkh_bsize(evt_rkh_recorder *r, uint32_t v);  /* BSIZE */
void evt_rkh_esize(evt_rkh_recorder *r, uint32_t v);  /* ESIZE */
void evt_rkh_ntick(evt_rkh_recorder *r, uint32_t v);  /* NTICK */
void evt_rkh_str(evt_rkh_recorder *r, const char *s); /* characters then NUL */
/* User-record fields: format byte (width << 4 | type) then the value. type: rkh_defs.h table. */
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

#endif
