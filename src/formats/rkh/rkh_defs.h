/* RKH trace stream (RKH 3.4.00): the one source of truth for framing, the TCFG configuration
 * record, every trace event id with its argument layout, and the user-record field types.
 * Facts: shared/formats/rkh.md. Freestanding: no libc.
 *
 * Stream:  7E rec 7E rec 7E ...   one raw flag before the first record and after each record.
 * Record (before stuffing):
 *   +------+-------+-----------+------------------+-----+
 *   | id 1 | seq 1 | ts 1/2/4  | args (table)     | chk |   seq/ts/chk per configuration;
 *   +------+-------+-----------+------------------+-----+   TCFG never has seq or ts.
 * Stuffing: every byte of a record except the closing flag: 7E -> 7D 5E, 7D -> 7D 5D.
 * Checksum: chk = (0 - sum of the unescaped bytes) mod 256; a frame is valid when the sum of all
 * its unescaped bytes, checksum included, is 0 mod 256. All values little-endian.
 * Event id (8 bits) = group << 5 | event.
 *
 * TCFG (id 0xAC), 14 bytes + checksum:
 *   0 id | 1 u16 version code | 3 u32 flags (bit table below) | 7 evt<<4|tstamp (bytes)
 *   8 ptr<<4|ntimer | 9 nblock<<4|nelem | 10 evt size | 11 bsize<<4|max evt pools | 12 u16 ts hz
 */
#ifndef EVT_RKH_DEFS_H
#define EVT_RKH_DEFS_H

#include "evtrace/rkh_stream.h"

#define RKH_FLAG      EVT_RKH_FLAG
#define RKH_ESC       EVT_RKH_ESC
#define RKH_ESC_XOR   EVT_RKH_ESC_XOR

#define RKH_TE_TCFG   0xACu
#define RKH_TE_USER   0xC0u   /* user records 0xC0..0xDF: user event n = id - 0xC0 */
#define RKH_TE_USER_LAST 0xDFu
#define RKH_TCFG_LEN  14u     /* unescaped bytes without the checksum */

/* Groups. X(value, NAME, Trazer's short name) */
#define RKH_GROUP_TABLE(X) \
    X(0, MP, "MP") X(1, QUE, "RQ") X(2, SMA, "SMA") X(3, SM, "SM") \
    X(4, TMR, "TIM") X(5, FWK, "FWK") X(6, USR, "USR") X(7, UT, "UT")

/* TCFG flag bits. X(bit, NAME) -- NAME is the RKH_CFG_ option without its RKH_CFG_ prefix. */
#define RKH_TCFG_FLAG_TABLE(X)                                                                      \
    X(0, SMA_TRC_SNDR_EN) X(1, TRC_RTFIL_EN) X(2, TRC_USER_TRACE_EN) X(3, TRC_ALL_EN)               \
    X(4, TRC_MP_EN) X(5, TRC_QUE_EN) X(6, TRC_SMA_EN) X(7, TRC_TMR_EN) X(8, TRC_SM_EN)              \
    X(9, TRC_FWK_EN) X(10, TRC_ASSERT_EN) X(11, QUE_GET_LWMARK_EN) X(12, MP_GET_LWM_EN)             \
    X(13, TRC_RTFIL_SMA_EN) X(14, TRC_RTFIL_SIGNAL_EN) X(15, TRC_NSEQ_EN) X(16, TRC_TSTAMP_EN)      \
    X(17, TRC_CHK_EN)

/* Argument kinds, one letter each in the layouts below:
 *   1, 2, 4  unsigned 8/16/32-bit      S  object pointer (SIZEOF_PTR)   F  function pointer (FUN_PTR)
 *   G  signal (SIZEOF_EVT)             E  queue element count (NELEM)   N  pool block count (NBLOCK)
 *   B  pool block size (BSIZE)         Z  event size (EVT_SIZE)         T  timer ticks (NTIMER)
 *   I  trace event id (1 byte)         s  string, NUL-terminated        *  rest of the record (data)
 * A layout is "name:K,name:K,..."; a trailing "?m" / "?q" / "?r" makes the argument present only when
 * MP_GET_LWM_EN / QUE_GET_LWMARK_EN / SMA_TRC_SNDR_EN is on. */

/* Event table. X(id, NAME without RKH_TE_, layout, kind) ; kind: O other, Y symbol, C config,
 * L evtrace loss record (no seq, no timestamp, like TCFG) */
#define RKH_EVENT_TABLE(X)                                                                         \
    X(0x00, MP_INIT,        "mp:S,nblk:N,bsize:B", 'O')                                            \
    X(0x01, MP_GET,         "mp:S,nfree:N,nmin:N?m", 'O')                                          \
    X(0x02, MP_PUT,         "mp:S,nfree:N", 'O')                                                   \
    X(0x20, QUE_INIT,       "q:S,ao:S,nelem:E", 'O')                                               \
    X(0x21, QUE_GET,        "q:S,nelem:E", 'O')                                                    \
    X(0x22, QUE_FIFO,       "q:S,nelem:E,nmin:E?q", 'O')                                           \
    X(0x23, QUE_LIFO,       "q:S,nelem:E,nmin:E?q", 'O')                                           \
    X(0x24, QUE_FULL,       "q:S", 'O')                                                            \
    X(0x25, QUE_DPT,        "q:S", 'O')                                                            \
    X(0x26, QUE_GET_LAST,   "q:S", 'O')                                                            \
    X(0x40, SMA_ACT,        "ao:S,prio:1,qsize:1", 'O')                                            \
    X(0x41, SMA_TERM,       "ao:S,prio:1", 'O')                                                    \
    X(0x42, SMA_GET,        "ao:S,sig:G,pool:1,nref:1,nelem:E,nmin:E?q", 'O')                      \
    X(0x43, SMA_FIFO,       "ao:S,sig:G,sender:S?r,pool:1,nref:1,nelem:E,nmin:E?q", 'O')           \
    X(0x44, SMA_LIFO,       "ao:S,sig:G,sender:S?r,pool:1,nref:1,nelem:E,nmin:E?q", 'O')           \
    X(0x45, SMA_REG,        "ao:S,prio:1", 'O')                                                    \
    X(0x46, SMA_UNREG,      "ao:S,prio:1", 'O')                                                    \
    X(0x47, SMA_DEFER,      "q:S,sig:G", 'O')                                                      \
    X(0x48, SMA_RCALL,      "ao:S,sig:G", 'O')                                                     \
    X(0x60, SM_INIT,        "ao:S,ist:S", 'O')                                                     \
    X(0x61, SM_CLRH,        "ao:S,h:S", 'O')                                                       \
    X(0x62, SM_TRN,         "ao:S,sst:S,tst:S", 'O')                                               \
    X(0x63, SM_STATE,       "ao:S,st:S", 'O')                                                      \
    X(0x64, SM_ENSTATE,     "ao:S,st:S", 'O')                                                      \
    X(0x65, SM_EXSTATE,     "ao:S,st:S", 'O')                                                      \
    X(0x66, SM_NENEX,       "ao:S,nen:1,nex:1", 'O')                                               \
    X(0x67, SM_NTRNACT,     "ao:S,nta:1,nts:1", 'O')                                               \
    X(0x68, SM_TS_STATE,    "ao:S,st:S", 'O')                                                      \
    X(0x69, SM_EVT_PROC,    "ao:S", 'O')                                                           \
    X(0x6A, SM_EVT_NFOUND,  "ao:S,sig:G", 'O')                                                     \
    X(0x6B, SM_GRD_FALSE,   "ao:S", 'O')                                                           \
    X(0x6C, SM_CND_NFOUND,  "ao:S", 'O')                                                           \
    X(0x6D, SM_UNKN_STATE,  "ao:S", 'O')                                                           \
    X(0x6E, SM_EX_HLEVEL,   "ao:S", 'O')                                                           \
    X(0x6F, SM_EX_TSEG,     "ao:S", 'O')                                                           \
    X(0x70, SM_EXE_ACT,     "acttype:1,ao:S,st:S,fn:F", 'O')                                       \
    X(0x71, SM_DCH,         "ao:S,sig:G,st:S", 'O')                                                \
    X(0x80, TMR_INIT,       "t:S,sig:G", 'O')                                                      \
    X(0x81, TMR_START,      "t:S,ao:S,ntick:T,period:T", 'O')                                      \
    X(0x82, TMR_STOP,       "t:S,ntick:T,period:T", 'O')                                           \
    X(0x83, TMR_TOUT,       "t:S,sig:G,ao:S", 'O')                                                 \
    X(0x84, TMR_REM,        "t:S", 'O')                                                            \
    X(0xA0, FWK_EN,         "", 'O')                                                               \
    X(0xA1, FWK_EX,         "", 'O')                                                               \
    X(0xA2, FWK_EPREG,      "ep:1,ssize:4,esize:Z,poolsize:N", 'O')                                \
    X(0xA3, FWK_AE,         "esize:Z,sig:G,pool:1,nref:1,nused:N,nmin:N?m,sender:S", 'O')          \
    X(0xA4, FWK_GC,         "sig:G,pool:1,nref:1", 'O')                                            \
    X(0xA5, FWK_GCR,        "sig:G,pool:1,nref:1,nused:N,nmin:N?m,sender:S", 'O')                  \
    X(0xA6, FWK_OBJ,        "obj:S,name:s", 'Y')                                                   \
    X(0xA7, FWK_SIG,        "sig:G,name:s", 'Y')                                                   \
    X(0xA8, FWK_FUN,        "fn:S,name:s", 'Y')                                                    \
    X(0xA9, FWK_EXE_FUN,    "fn:F", 'O')                                                           \
    X(0xAA, FWK_SYNC_EVT,   "fn:F,sender:S?r,receiver:S?r", 'O')                                   \
    X(0xAB, FWK_TUSR,       "uevt:I,name:s", 'Y')                                                  \
    X(0xAC, FWK_TCFG,       "version:2,flags:4,sizes1:1,sizes2:1,sizes3:1,evtsize:1,sizes4:1,tshz:2", 'C') \
    X(0xAD, FWK_ASSERT,     "module:s,line:2", 'O')                                                \
    X(0xAE, FWK_AO,         "ao:S,name:s", 'Y')                                                    \
    X(0xAF, FWK_STATE,      "ao:S,st:S,name:s", 'Y')                                               \
    X(0xB0, FWK_PSTATE,     "ao:S,st:S,name:s", 'Y')                                               \
    X(0xB1, FWK_TIMER,      "t:S,name:s", 'Y')                                                     \
    X(0xB2, FWK_EPOOL,      "pool:1,name:s", 'Y')                                                  \
    X(0xB3, FWK_QUEUE,      "q:S,name:s", 'Y')                                                     \
    X(0xB4, FWK_ACTOR,      "actor:S,name:s", 'Y')                                                 \
    X(0xBF, EVTRACE_LOST,   "lost:4,total:4", 'L')  /* evtrace's loss record (include/evtrace/rkh.h) */ \
    X(0xE0, UT_INIT,        "line:4", 'O')                                                         \
    X(0xE1, UT_CLEANUP,     "line:4", 'O')                                                         \
    X(0xE2, UT_VERIFY,      "line:4", 'O')                                                         \
    X(0xE3, UT_IGNORE_GROUP, "line:4,group:1", 'O')                                                \
    X(0xE4, UT_EXPECT,      "line:4,teid:I,expected:*", 'O')                                       \
    X(0xE5, UT_EXPECT_ANYARGS, "line:4,teid:I", 'O')                                               \
    X(0xE6, UT_IGNORE,      "line:4,teid:I", 'O')                                                  \
    X(0xE7, UT_IGNORE_ARG,  "line:4,teid:I,arg:1", 'O')                                            \
    X(0xE8, UT_SUCCESS,     "line:4", 'O')                                                         \
    X(0xE9, UT_FAIL,        "line:4", 'O')

/* Event ids by name: RKH_TE_SM_STATE, RKH_TE_FWK_OBJ, ... (the same table). */
enum rkh_te_id {
#define RKH_TE_ENUM_(id_, nm_, lay_, k_) RKH_TE_##nm_ = id_,
    RKH_EVENT_TABLE(RKH_TE_ENUM_)
#undef RKH_TE_ENUM_
};

/* User-record field types: format byte = (width << 4) | type. X(type, NAME, kind letter, signed);
 * the table is public (evtrace/rkh_stream.h: EVT_RKH_USR_* for evt_rkh_usr_int). */
#define RKH_USER_FIELD_TABLE(X) EVT_RKH_USER_FIELD_TABLE(X)

#endif
