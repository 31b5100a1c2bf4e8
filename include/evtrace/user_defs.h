/* User events (evtrace/user.h): the one description of their encoding, shared by the recorder's
 * encoder (src/formats/user/user_enc.c, the carriers) and the host decoder (user_dec.c). No code.
 *
 * A user record is a sequence of 32-bit words ("payload"), carried whole by one record of the
 * recorder's format (TXTB: consecutive slots; XRay: one typed event; docs/user-events.md). Words
 * are values, not bytes: each carrier writes them in its own byte order and its reader gives
 * them back as numbers. Record types (EVT_USER_REC_TABLE):
 *
 *   CALL   w0 = site address (low 32 bits), then the arguments as the site's signature says
 *   SITE   w0 = site address, w1 = signature, w2 = kind | channel length << 8 | (text length << 20),
 *          then channel bytes (NUL included) and text bytes (NUL included), packed 4 to a word,
 *          first byte in the low bits ("registered once": the strings a CALL refers to)
 *   ANCHOR w0 = run-time address of evt_user_anchor_ (low 32 bits), w1 = high 32 bits: the host
 *          relocates site addresses found in an ELF file (--elf) by the difference
 *
 * A site (one per call site, or one per state machine) is const data the macros of user.h build:
 * evt_user_site_hdr, then the channel string, then the text (printf format, state names "a,b,c",
 * or "" for values and intervals). Its address names it in every CALL.
 *
 * Arguments (X(NAME, value, words)): 4-bit tags, the first argument's in bits 0-3 of the
 * signature, up to EVT_USER_MAX_ARGS; the first tag 0 ends the list. A 64-bit value is two words,
 * low word first. A string is a header word (length in bytes, bit 31 set when it was cut to
 * EVT_CFG_USER_STR_MAX, bit 30 set for a NULL pointer) then its bytes (no NUL) packed like the
 * SITE strings, the last word padded with zero bytes. */
#ifndef EVTRACE_USER_DEFS_H
#define EVTRACE_USER_DEFS_H

#include <stdint.h>

#define EVT_USER_TAG_TABLE(X)                                                            \
    X(END,   0, 0) /* no more arguments */                                               \
    X(I32,   1, 1) /* int and everything promoted to it (char, short, _Bool, enums) */   \
    X(U32,   2, 1) /* unsigned int (and unsigned long on ILP32) */                       \
    X(I64,   3, 2) /* long long (and long on LP64) */                                    \
    X(U64,   4, 2) /* unsigned long long (and unsigned long on LP64) */                  \
    X(F64,   5, 2) /* double (and float, promoted); IEEE-754 bits */                     \
    X(PTR32, 6, 1) /* a pointer on a 32-bit target */                                    \
    X(PTR64, 7, 2) /* a pointer on a 64-bit target */                                    \
    X(STR,   8, 1) /* char *: header word + bytes (words: 1 + ceil(len / 4)) */          \
    X(LDBL,  9, 2) /* long double, recorded as a double (formatted with its L modifier) */

typedef enum evt_user_tag {
#define EVT_USER_TAG_ENUM_(n, v, w) EVT_USER_T_##n = v,
    EVT_USER_TAG_TABLE(EVT_USER_TAG_ENUM_)
#undef EVT_USER_TAG_ENUM_
    EVT_USER_T_COUNT_
} evt_user_tag;

#define EVT_USER_MAX_ARGS 8u      /* tags in a 32-bit signature */
#define EVT_USER_TAG_BITS 4u
#define EVT_USER_STR_CUT  0x80000000u /* string header: cut to EVT_CFG_USER_STR_MAX */
#define EVT_USER_STR_NULL 0x40000000u /* string header: the pointer was NULL */
#define EVT_USER_STR_LEN  0x0000FFFFu /* string header: length in bytes */

/* What a site records. X(NAME, value, text): text is the public name (JSON "user_kind"). */
#define EVT_USER_KIND_TABLE(X)                                                       \
    X(PRINTF,  1, "printf")         /* text = format; arguments per signature */     \
    X(VALUE,   2, "value")          /* one I64: a sample of the channel */           \
    X(IBEGIN,  3, "interval_begin") /* one U32: id of an interval of the channel */  \
    X(IEND,    4, "interval_end")   /* one U32: the id it ends */                    \
    X(STATE,   5, "state")          /* one U32: index into the comma-separated names */

typedef enum evt_user_kind {
#define EVT_USER_KIND_ENUM_(n, v, s) EVT_USER_K_##n = v,
    EVT_USER_KIND_TABLE(EVT_USER_KIND_ENUM_)
#undef EVT_USER_KIND_ENUM_
    EVT_USER_K_COUNT_
} evt_user_kind;

/* Record types. X(NAME, value) */
#define EVT_USER_REC_TABLE(X) \
    X(CALL,   0)              \
    X(SITE,   1)              \
    X(ANCHOR, 2)

typedef enum evt_user_rec {
#define EVT_USER_REC_ENUM_(n, v) EVT_USER_R_##n = v,
    EVT_USER_REC_TABLE(EVT_USER_REC_ENUM_)
#undef EVT_USER_REC_ENUM_
    EVT_USER_R_COUNT_
} evt_user_rec;

/* The fixed head of a site. Strings follow it: channel (ch_len bytes with its NUL), then the text
 * (text_len bytes with its NUL). Built by the macros of user.h from string literals: no pointer,
 * so the site reads the same from the ELF file as from memory. */
typedef struct evt_user_site_hdr {
    uint32_t magic;    /* EVT_USER_SITE_MAGIC: lets the host check an address it looks up */
    uint32_t sig;      /* argument tags */
    uint16_t ch_len;   /* sizeof the channel literal */
    uint16_t text_len; /* sizeof the text literal */
    uint8_t kind;      /* evt_user_kind */
    uint8_t flags;     /* EVT_USER_SITE_F_*: facts of sig found at compile time */
    uint8_t pad[2];
} evt_user_site_hdr;
#define EVT_USER_SITE_F_INTS 0x01u /* every argument is one word (I32/U32): the encoder's short path */
#define EVT_USER_SITE_MAGIC 0x55545645u /* "EVTU" little-endian */
#define EVT_USER_SITE_HDR_SIZE 16u

/* The SITE record's third word: kind | ch_len << 8 | text_len << 20 (ch_len < 4096, text_len <
 * 4096: longer strings are a compile error in user.h). */
#define EVT_USER_SITE_W2(kind, ch_len, text_len) \
    ((uint32_t)(kind) | (uint32_t)(ch_len) << 8 | (uint32_t)(text_len) << 20)
#define EVT_USER_STRLEN_MAX 4095u

/* TXTB carrier (docs/user-events.md): the first slot's id is EVT_USER_TXTB_BASE | rec << 10 | n
 * (n = payload words, 1..EVT_USER_TXTB_MAX_WORDS), its info1..4 the words 0..3; each further slot
 * k = 1.. has id EVT_USER_TXTB_CONT | (k & 0x3FF) and the next four words (zero-padded). All slots
 * of one record are consecutive and share context and timestamp. Ids 61440..65535 are in ThreadX's
 * user range: applications mixing their own user events keep them below 61440. */
#define EVT_USER_TXTB_BASE      0xF000u
#define EVT_USER_TXTB_CONT      0xFC00u
#define EVT_USER_TXTB_MAX_WORDS 1023u

/* XRay carrier: one typed event of type EVT_USER_XRAY_TYPE + rec, payload = the words in
 * little-endian order. */
#define EVT_USER_XRAY_TYPE 0x7500u

/* RKH carrier: one user record RKH_TE_USER + EVT_USER_RKH_NUM (0xC0 + 31) named "evtrace.user" by
 * its FWK_TUSR symbol (written by evt_rkh_user_attach), fields: UI8 record type, then one UI32 field
 * per word (RKH's typed user fields: its tools show them as numbers). The number is RKH's last user
 * event, none of the kernel hooks' (src/formats/rkh/rkh_hooks_defs.h: 0-9, 20-26), which share the
 * stream of a FreeRTOS integration; it was 24, hook.obj_op's, until 30 Nov 2026: the reader knows
 * the carrier by its name, so streams with either number decode. */
#define EVT_USER_RKH_NUM  31u
#define EVT_USER_RKH_NAME "evtrace.user"
#define EVT_USER_RKH_MAX_WORDS 200u /* 1 + 5 bytes each: fits a record of a 1 KiB ring */

/* ETW carrier: one classic event (TraceEvent, FULL_HEADER) of evtrace's user event class (GUID
 * 65767472-7375-7265-8000-657674726163, ETW_GUID_TABLE row EVTRACE_USER), Class.Type
 * EVT_USER_ETW_TYPE + rec, three MOF fields: the event name EVT_USER_ETW_NAME (ASCII with its NUL),
 * a u32le word count n, then the n words u32le. The provider (control GUID the same) is
 * evt_etw_user_provider (evtrace/user.h). */
#define EVT_USER_ETW_TYPE      10u /* ETW's class-specific types start at 10 */
#define EVT_USER_ETW_NAME      "evtrace.user"
#define EVT_USER_ETW_MAX_WORDS 4096u /* a larger record of that class is not a user record */

/* Largest payload the encoder builds (words): site + 8 arguments of at most 2 words, or strings. */
#define EVT_USER_PAYLOAD_MAX 256u

#endif
