/* Chrome trace-event JSON exporter (opens in ui.perfetto.dev and chrome://tracing): the one timeline
 * (src/host/timeline/timeline.h) as trace events. Nothing is paired here: running stretches, ISRs,
 * service/function slices, flows and counters are the timeline's records.
 *
 * One process (pid 1). Context index i is tid i + 2, named from the trace as in the Perfetto export
 * (thread_name again when a later name shows up); tid 0 holds global instants (lost data); each CPU
 * has an "ISR cpu N" track (tid ISR_TID_BASE + cpu) with the timeline's ISR intervals, named by its
 * label. A thread's track holds a "running" slice per running interval (cat "sched"), and inside
 * them its service/function slices: B/E pieces, because B/E must nest per track, a call that
 * blocks shows as pieces, each inside a running slice, the later ones with args.resumed; a
 * service recorded as one instant (the timeline's zero-length slice) is its instant. An ISR
 * context's slices are drawn whole. Every other event is an instant on its context's track
 * (`cat` = the kind, `args` = id, args, object, fields, text); flows are "s"/"f" pairs (cat "flow",
 * named by the flow's kind: wake, message, signal; the "s" has args.object/object_id of the
 * object it went through) binding to the enclosing slices; a blocked interval is an "X" slice
 * "blocked on <object>" (cat "blocked", args.object/object_id/service) on the context's
 * "<context> (blocked)" track (tid BLOCKED_TID_BASE + its tid); counters
 * (queue depth, semaphore count, ...) are "C" events named "<object> <counter>", CPU load per
 * context "C" events "CPU load % <context>" (the analyses' load windows, analyses/load.h); a loss is a
 * global instant "lost events" with args.count. Events that enter a state-machine state (meaning EVT_M_SM_STATE: state
 * machines) also draw state-occupancy slices on a "<context> (state)" track.
 * Times ("ts", "dur" in microseconds) are the timeline's: its ns written exactly as integer µs plus
 * up to 3 decimals when the clock is known; otherwise one tick is shown as one microsecond and
 * otherData says "time_unit":"ticks".
 * Speed: records are assembled in a 64 KiB output buffer (constant keys copied whole, integers
 * formatted in groups of 8 digits two at a time, plain-ASCII strings copied) and written in chunks;
 * only strings that need escaping or UTF-8 repair go through the JSON writer. A record's opening
 * up to "ts" (phase, name, tid) is made once and copied from a cache matched by the name's content
 * (see common); the prefixes a track repeats (its "E", "running", "blocked", its slice and ISR
 * labels, whose addresses are the timeline's and stable) are copied from per-track memos without
 * a look-up (memo_open_, lbl_open_). Strings in the program's read-only image (host/ro_image.h:
 * the readers' literals, whose bytes never change) are trusted by address: a field's key or string
 * value is copied from a memo of its quoted text and an event's name measured there (qs_str_),
 * a counter record's text up to "ts" is copied from a memo by (name, object) (ctr_put_); any other
 * string (a reader's buffer) is measured and checked every time. An event's integers of 9 digits
 * and more (addresses) are copied from a memo by value (arg_put_). A time in the same µs as the
 * previous one reuses its digits, and one with the same digits above the last four rewrites only
 * those (buf_time_room_). The header is written at the first event, when the reader's clock is
 * known. Memory: the timeline's, plus per context its open slices (MAX_DEPTH entries) and its
 * prefix memos (under 1 KiB), and the fixed caches (pfx, qs, ctr, num: about 170 KiB). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/exporter.h"
#include "evtrace/json.h"
#include "evtrace/out.h"
#include "host/json_fast.h"
#include "host/ro_image.h"
#include "host/strtab.h"
#include "host/timeline/timeline.h"
#include "host/timeline/user_tracks.h"
#include "host/u64map.h"
#include "host/analyses/load.h"

#define GLOBAL_TID 0           /* global instants (lost data) */
#define TID_OF(idx) ((uint64_t)(idx) + 2) /* context index -> tid, as in the Perfetto export */
#define ISR_TID_BASE 2000000u  /* ISR track of CPU n: ISR_TID_BASE + n */
#define STATE_TID_BASE 1000000u /* state tracks: STATE_TID_BASE + the context's tid */
#define USM_TID_BASE 3000000u  /* user state machines (user_tracks.h): USM_TID_BASE + machine name id */
#define BLOCKED_TID_BASE 4000000u /* blocked tracks: BLOCKED_TID_BASE + the context's tid */
#define MAX_DEPTH 32  /* open service/function slices drawn per context; deeper ones are counted */
#define OUT_CAP 65536 /* output buffer (see buf_flush_) */

/* One open service/function slice of a context. */
typedef struct open_slice {
    const char *name;                  /* the timeline's label (stable: owned by the timeline) */
    uint64_t t0;                       /* begin */
    int drawn;                         /* a B of its current piece is written (not yet its E) */
} open_slice;

/* One kept record prefix (see common): ,\n{"ph":"P"[,"name":"NAME"],"pid":1,"tid":TID,"ts": */
#define PFX_SET_BITS 8 /* 256 sets */
#define PFX_WAYS 4      /* slots per set */
#define PFX_SLOTS (PFX_WAYS << PFX_SET_BITS)
#define PFX_TXT 112     /* room for the text: 11 + 8 + 2 + PFX_NAME_MAX + 15 + 20 + 6 */
#define PFX_NAME_AT 20  /* the name's bytes in txt: after ,\n{"ph":"P","name":" */
#define PFX_NAME_MAX 50 /* longer names are written each time */
#define PFX_NONAME 255  /* nlen of a record without a name */
#define PFX_TID_LIMIT (1ull << 48) /* larger tids are not kept (none so far: see the *_TID_BASEs) */
#define LBL_SLOTS 64 /* label lengths kept by address (lbl_len_) */
typedef struct pfx_slot {
    uint64_t key;                      /* pfx_key_ of (ph, name length, tid); 0: empty */
    uint8_t len;                       /* the text's length */
    char txt[PFX_TXT];
} pfx_slot;

/* A string of the program's read-only image (a reader's key or value literal) as JSON text, made
 * once, by its address (qs_key_, qs_str_): ,"STR": (its form as a key; from txt + 1 and without the
 * last byte, "STR", its form as a value). len 0: a string that is not kept (not in the read-only
 * image, or longer than QS_MAX, or not plain): written as any other (see qs_key_). */
#define QS_BITS 8  /* 256 slots, direct-mapped */
#define QS_COPY 32 /* bytes copied whole (either form) */
#define QS_MAX (QS_COPY - 4) /* the longest string kept: its key form fills QS_COPY */
typedef struct qs_slot {
    const char *p;                     /* NULL: empty */
    uint8_t len;                       /* the key form's length (0: not kept) */
    char txt[QS_COPY + 1];             /* the value form's copy reads one byte past the key form's */
} qs_slot;

/* The decimal text of a large integer (arg_put_), by its value. */
#define NUM_BITS 8      /* 256 slots, direct-mapped */
#define NUM_MIN 100000000 /* kept from 9 digits on (addresses, stack pointers: few values, repeated);
                            * smaller ones are put_u8_'s */
typedef struct num_slot {
    uint64_t v;                        /* >= NUM_MIN; 0: empty */
    char txt[20];
    uint8_t len;
} num_slot;

/* The text of a counter record up to its time, ,\n{"ph":"C","name":"LABEL","pid":1,"ts":, for one
 * (counter name, object) (ctr_put_): name is the timeline's name pointer, kept only when it lies
 * in the read-only image (evt_level_name's literals), so the pointer names the text for good. */
#define CTR_BITS 7  /* 128 slots, direct-mapped */
#define CTR_TXT 96  /* the text of a label of at most 61 bytes (35 more) */
typedef struct ctr_slot {
    const char *name;                  /* NULL: empty */
    uint32_t obj;                      /* the object index (EVT_TL_NONE: none) */
    uint8_t len;
    char txt[CTR_TXT];
} ctr_slot;

/* A record prefix one context's track repeats (see memo_open_): its text, made at its first use. */
#define MEMO_TXT 96 /* >= the longest memo text: a slice label's (LBL_MEMO_NAME_MAX), 82 bytes */
typedef struct rec_memo {
    uint8_t len;                       /* 0 until made */
    char txt[MEMO_TXT];
} rec_memo;

/* A "B" prefix of a slice or ISR label on one track (lbl_open_), by the label's address: the
 * timeline's labels are interned copies, never changed nor freed before the export ends (see
 * lbl_len_), so the address names the text. usable 0: the label is not memoized (too long for
 * MEMO_TXT, or not plain). */
#define LBL_MEMOS 4
#define LBL_MEMO_NAME_MAX 30 /* ,\n{"ph":"B" ,"name":"LABEL" ,"pid":1,"tid": TID ,"ts": is
                                * 11 + 8 + 2 + 30 + 15 + 10 (a context tid < 2^32 + 2) + 6 = 82 */
typedef struct lbl_memo {
    const char *name;                  /* NULL: empty */
    size_t nlen;                       /* its length */
    int usable;
    rec_memo m;
} lbl_memo;
typedef struct lbl_memos {
    lbl_memo e[LBL_MEMOS];             /* the labels lately drawn on the track */
    unsigned victim;                   /* the entry the next new label replaces */
} lbl_memos;

/* Drawing state of one context (by timeline index). */
typedef struct ctx_draw {
    int named;                         /* a thread_name is written */
    int running;                       /* a running slice is open on its track */
    int whole;                         /* an ISR context: slices drawn whole (it never runs) */
    int depth;                         /* open slices tracked (<= MAX_DEPTH) */
    int overflow;                      /* open slices beyond MAX_DEPTH */
    int state_open;                    /* a state-occupancy slice is open on its state track */
    int state_named;                   /* the state track's thread_name was written */
    int blocked_named;                 /* the blocked track's thread_name was written */
    rec_memo end_memo;                 /* its track's "E" prefix */
    rec_memo run_memo;                 /* its track's "B" "running" prefix */
    rec_memo blocked_memo;             /* its blocked track's "X" "blocked" prefix */
    lbl_memos slice_memos;             /* its track's "B" prefixes of slice labels */
    open_slice open[MAX_DEPTH];        /* bottom first */
} ctx_draw;

typedef struct chrome_state {
    FILE *out;
    evt_reader *r;                     /* open until end(): its clock is read at the first event */
    int started;                       /* the header is written and the timeline started (start_) */
    evt_json j;
    uint64_t hz;
    int ns;                            /* 1: times are ns (clock known), 0: ticks */
    size_t n;                          /* bytes pending in buf */
    char buf[OUT_CAP];
    uint64_t thi;                      /* buf_time_: µs / 10000 of the previous time (0: none) */
    char thi_txt[24];                  /* its digits */
    size_t thi_len;
    uint64_t thi_base;                 /* thi * 10000 */
    uint64_t us_last;                  /* buf_time_: integer µs of the previous time */
    char us_txt[24];                   /* its digits (us_len of them) */
    uint8_t us_len;
    char frac[1000][4];                /* frac[f]: ".ddd" of f ns (1..999), trailing zeros dropped */
    uint8_t frac_len[1000];
    pfx_slot pfx[PFX_SLOTS];           /* record prefixes (common) */
    struct { const char *p; size_t len; } lbl[LBL_SLOTS]; /* lengths of the timeline's labels (lbl_len_) */
    unsigned pfx_victim;               /* the way the next new prefix replaces (round robin) */
    char kind_txt[EVT_KIND_COUNT_ + 1][48]; /* instant_cat_: ,"s":"t","cat":"<kind>" per kind (and any
                                        * out-of-range kind: "other") */
    uint8_t kind_len[EVT_KIND_COUNT_ + 1]; /* its length, 0 until made */
    evt_ro_image ro;                   /* the program's read-only segments (qs, ctr) */
    qs_slot qs[1u << QS_BITS];         /* quoted read-only strings by address (qs_str_) */
    ctr_slot ctr[1u << CTR_BITS];      /* counter record prefixes (ctr_put_) */
    num_slot num[1u << NUM_BITS];      /* large integers' text (arg_put_) */
    evt_tl tl;
    ctx_draw **ctxs;                   /* by context index (NULL until seen) */
    uint32_t nctx;
    uint64_t isr_named[(EVT_TL_MAX_CPUS + 63) / 64]; /* bit per CPU: its ISR track is named */
    uint32_t isr_open[EVT_TL_MAX_CPUS]; /* ISR slices begun per CPU */
    rec_memo isr_end_memo[EVT_TL_MAX_CPUS]; /* each ISR track's "E" prefix (memo_open_) */
    lbl_memos isr_memos[EVT_TL_MAX_CPUS]; /* each ISR track's "B" prefixes of ISR labels (lbl_open_) */
    evt_u64map counters;               /* (object index + 1) << 32 | name id -> counter name id */
    evt_strtab cnames;                 /* counter names and "<object> <counter>" labels */
    uint64_t last_ts;                  /* time of the latest event (exporter's unit) */
    evt_an_load load;                  /* CPU load windows per context (analyses/load.h, as Perfetto) */
    evt_ut ut;                         /* user tracks: values, intervals, state machines */
    uint64_t usm_named[1024];          /* bit per machine name id (< 65536): its track is named */
    int oom;
    int wrote;                         /* the file was written to since event() last asked ferror */
} chrome_state;

/* Output buffer: records are assembled here (constant text and integers) and written in
 * OUT_CAP chunks. Invariant: before any evt_json call the buffer is flushed (buf_flush_), so the
 * bytes reach the file in order. */
#define OUT_SLACK 512 /* room every buf_reserve_ guarantees: > any record prefix or one number */
#define BUF_LIT(s, lit) buf_put_((s), (lit), sizeof(lit) - 1)
static void buf_flush_(chrome_state *s)
{
    if (s->n) fwrite(s->buf, 1, s->n, s->out);
    s->n = 0;
    s->wrote = 1;
}
static void buf_reserve_(chrome_state *s)
{
    if (OUT_CAP - s->n < OUT_SLACK) buf_flush_(s);
}
static void buf_put_slow_(chrome_state *s, const char *p, size_t n)
{
    buf_flush_(s);
    if (n > OUT_CAP) { fwrite(p, 1, n, s->out); return; }
    memcpy(s->buf, p, n);
    s->n = n;
}
static inline void buf_put_(chrome_state *s, const char *p, size_t n)
{
    if (n > OUT_CAP - s->n) { buf_put_slow_(s, p, n); return; }
    memcpy(s->buf + s->n, p, n);
    s->n += n;
}
/* Decimal digits, two at a time (k_d2: "00".."99"), written backwards into a 20-byte scratch. */
static const char k_d2[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";
static __attribute__((noinline)) void buf_u64_long_(chrome_state *s, uint64_t v);
/* Decimal v: under 100 (tids, ids, small values: the usual) from the pair table directly. */
static inline void buf_u64_(chrome_state *s, uint64_t v)
{
    if (v >= 100 || OUT_CAP - s->n < 2) { buf_u64_long_(s, v); return; }
    char *o = s->buf + s->n;
    if (v < 10) { o[0] = (char)('0' + v); s->n++; return; }
    o[0] = k_d2[2 * v];
    o[1] = k_d2[2 * v + 1];
    s->n += 2;
}
/* Digits in groups (host/json_fast.h): exactly 4 (put4_), without leading zeros below 10^4
 * (put_u4_) and 10^8 (put_u8_), any (put_u64_long_, out of line: the long numbers are rare). */
#define put4_ evt_jf_put4_
#define put_u4_ evt_jf_u4_
#define put_u8_ evt_jf_u8_
static __attribute__((noinline)) size_t put_u64_long_(char *o, uint64_t v) { return evt_jf_u64_(o, v); }
/* Decimal v at o (20 bytes of room); returns its length. Under 10000 inline. */
static inline size_t put_u64_(char *o, uint64_t v)
{
    return v < 10000 ? put_u4_(o, (uint32_t)v) : put_u64_long_(o, v);
}
static void buf_u64_long_(chrome_state *s, uint64_t v)
{
    if (OUT_CAP - s->n >= 20) {
        s->n += put_u64_long_(s->buf + s->n, v);
        return;
    }
    char d[20];
    buf_put_(s, d, put_u64_long_(d, v));
}
static void buf_i64_(chrome_state *s, int64_t v)
{
    if (v < 0) { BUF_LIT(s, "-"); buf_u64_(s, 0 - (uint64_t)v); }
    else buf_u64_(s, (uint64_t)v);
}
/* buf_time_'s digits above the last four: hi's, kept as text (out of line: they change rarely). */
static __attribute__((noinline)) void time_hi_(chrome_state *s, uint64_t hi)
{
    s->thi_len = put_u64_long_(s->thi_txt, hi);
    s->thi = hi;
    s->thi_base = hi * 10000;
}
/* Integer µs as text at o (room: 24 bytes and the fixed-size copy's 16); returns its length. Times
 * move slowly: the digits above the last four are those of the previous call more often than
 * not, kept as text (thi, 0 = none). */
static inline size_t put_us_(chrome_state *s, char *o, uint64_t us)
{
    if (us < 10000) return put_u64_(o, us);
    uint64_t lo64 = us - s->thi_base; /* the usual: the same hi as before, no division */
    if (lo64 >= 10000) { /* another hi (or none yet: thi_base 0); us < thi_base wraps here too */
        time_hi_(s, us / 10000); /* >= 1, at most 16 digits */
        lo64 = us - s->thi_base;
    }
    memcpy(o, s->thi_txt, 16); /* fixed-size copy; bytes past thi_len are overwritten next */
    put4_(o + s->thi_len, (uint32_t)lo64);
    return s->thi_len + 4;
}
/* A time or a duration t in the exporter's unit at o as "ts" shows it, given its integer µs us
 * (room: 48 bytes); returns its length. ns: up to three decimals (trailing zeros dropped). */
static inline size_t put_frac_(const chrome_state *s, char *o, uint64_t t, uint64_t us)
{
    if (!s->ns) return 0;
    unsigned f = (unsigned)(t - us * 1000); /* frac_len[0] = 0: no decimals */
    memcpy(o, s->frac[f], 4); /* fixed-size copy; bytes past the length are overwritten next */
    return s->frac_len[f];
}
/* buf_time_ when the buffer is low or the µs differ from the previous time's: flushes when
 * needed, makes the µs text (us_last, us_txt, us_len: start_ makes them valid) and writes t. Out
 * of line, so that the usual path calls nothing (no registers to save). */
static __attribute__((noinline)) void buf_time_slow_(chrome_state *s, uint64_t t, uint64_t us)
{
    if (OUT_CAP - s->n < 48) buf_flush_(s); /* room for the longest (24) and the fixed-size copies */
    if (us != s->us_last) {
        s->us_len = (uint8_t)put_us_(s, s->us_txt, us); /* at most 20 bytes written */
        s->us_last = us;
    }
    char *o = s->buf + s->n;
    memcpy(o, s->us_txt, sizeof s->us_txt);
    size_t k = s->us_len;
    k += put_frac_(s, o + k, t, us);
    s->n += k;
}
/* The µs text (us_txt) made for us in place when us and the previous time's us_last have the same
 * digits above the last four, those of thi: us_txt is then thi_txt and us_last's last four, so
 * only the four change (put_us_ would write the same bytes). Returns 0, having changed nothing,
 * otherwise (or when us_last is below 10000: its text is not thi's). thi_base is 0 (none) or at
 * least 10000, and both differences wrap to large values below it. */
static inline int us_step_(chrome_state *s, uint64_t us)
{
    uint64_t lo = us - s->thi_base, prev = s->us_last - s->thi_base;
    if (lo >= 10000 || prev >= 10000 || s->us_last < 10000) return 0;
    put4_(s->us_txt + s->thi_len, (uint32_t)lo);
    s->us_last = us;
    return 1;
}
/* "ts" value in µs: ns as integer µs and up to three decimals (trailing zeros dropped); ticks as
 * integer µs (1 tick = 1 µs). Exact: no floating point. Several records in a row fall in the same
 * µs: its text is the previous time's (us_txt), or the previous one's with its last four digits
 * changed (us_step_). room: the caller knows 48 bytes are free. */
static inline void buf_time_room_(chrome_state *s, uint64_t t, int room)
{
    uint64_t us = s->ns ? t / 1000 : t;
    if ((us != s->us_last && !us_step_(s, us)) || (!room && OUT_CAP - s->n < 48)) {
        buf_time_slow_(s, t, us);
        return;
    }
    char *o = s->buf + s->n; /* a local cursor: no reload of s->n after each store */
    memcpy(o, s->us_txt, sizeof s->us_txt); /* fixed-size copy; bytes past us_len are overwritten next */
    size_t k = s->us_len;
    k += put_frac_(s, o + k, t, us);
    s->n += k;
}
static void buf_time_(chrome_state *s, uint64_t t) { buf_time_room_(s, t, 0); }
/* A duration ("dur"), as buf_time_ writes a time, without its cache (a duration is not near the
 * times around it). */
static void buf_dur_(chrome_state *s, uint64_t d)
{
    if (OUT_CAP - s->n < 48) buf_flush_(s);
    char *o = s->buf + s->n;
    uint64_t us = s->ns ? d / 1000 : d;
    size_t k = put_us_(s, o, us);
    k += put_frac_(s, o + k, d, us);
    s->n += k;
}
/* The decimals of buf_time_ (frac, frac_len), made once. */
static void frac_init_(chrome_state *s)
{
    memset(s->frac[0], 0, sizeof s->frac[0]);
    s->frac_len[0] = 0;
    for (unsigned f = 1; f < 1000; f++) {
        unsigned r = f % 100; /* the last two digits from the pair table */
        char d[4] = {'.', (char)('0' + f / 100), k_d2[2 * r], k_d2[2 * r + 1]};
        memcpy(s->frac[f], d, 4);
        s->frac_len[f] = (uint8_t)(r == 0 ? 2 : d[3] == '0' ? 3 : 4);
    }
}
/* A JSON string: printable ASCII without '"' or '\\' (names, keys: the usual case) is copied as it
 * is; anything else goes through the JSON writer (UTF-8 checks, escapes). */
#define ONES_ 0x0101010101010101ull
#define HIGH_ 0x8080808080808080ull
/* Nonzero when one of the 8 bytes of w needs the JSON writer: < 0x20, >= 0x7F, '"' or '\\'
 * (exact as a yes/no: the borrow tricks' false bits only follow a true one). */
static inline uint64_t has_zero_(uint64_t v) { return (v - ONES_) & ~v & HIGH_; }
static inline uint64_t word_unsafe_(uint64_t w)
{
    return ((w - ONES_ * 0x20) & ~w & HIGH_) | has_zero_(w ^ (ONES_ * '"')) | has_zero_(w ^ (ONES_ * '\\')) |
           has_zero_(w ^ (ONES_ * 0x7F)) | (w & HIGH_);
}
/* p[0..n) is printable ASCII without '"' or '\\': 8 bytes per step. */
static inline int plain_(const char *p, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        if (word_unsafe_(w)) return 0;
    }
    for (; i < n; i++) { /* the tail, byte by byte (a variable-size copy costs more) */
        unsigned char ch = (unsigned char)p[i];
        if (ch < 0x20 || ch >= 0x7F || ch == '"' || ch == '\\') return 0;
    }
    return 1;
}
/* Bit ch of k_unsafe: byte ch needs the JSON writer (< 0x20, '"' (34), '\\' (92), >= 0x7F). */
static const uint64_t k_unsafe[4] = {0x00000004FFFFFFFFull, 0x8000000010000000ull, ~0ull, ~0ull};
/* put_plain_: the usual string at o (room: n + 2 bytes), plain: copied while checked (8 bytes per
 * step, the last 8 again when n is not a multiple; under 8 bytes, two overlapping 4-byte words or
 * 3 bytes: overlapping bytes are written twice, the same) and quoted; returns its length with the
 * quotes, or 0 when it is not plain (bytes at o are then garbage, not committed). */
static inline size_t put_plain_(char *o, const char *p, size_t n)
{
    o++;
    uint64_t bad = 0;
    if (n >= 8) {
        size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            uint64_t w;
            memcpy(&w, p + i, 8);
            bad |= word_unsafe_(w);
            memcpy(o + i, &w, 8);
        }
        if (i < n) {
            uint64_t w;
            memcpy(&w, p + n - 8, 8);
            bad |= word_unsafe_(w);
            memcpy(o + n - 8, &w, 8);
        }
    } else if (n >= 4) { /* the first and the last 4 bytes (overlapping), checked as one word */
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
        bad = word_unsafe_((uint64_t)a | (uint64_t)b << 32);
        memcpy(o, &a, 4);
        memcpy(o + n - 4, &b, 4);
    } else if (n) { /* bytes 0, n/2 and n-1 cover all of 1..3 */
        unsigned char a = (unsigned char)p[0], b = (unsigned char)p[n / 2], c = (unsigned char)p[n - 1];
        bad = ((k_unsafe[a >> 6] >> (a & 63)) | (k_unsafe[b >> 6] >> (b & 63)) | (k_unsafe[c >> 6] >> (c & 63))) & 1;
        o[0] = (char)a;
        o[n / 2] = (char)b;
        o[n - 1] = (char)c;
    }
    if (bad) return 0;
    o[-1] = '"';
    o[n] = '"';
    return n + 2;
}
/* The usual string into the buffer: plain, and room for it and its quotes; returns 0 having
 * committed nothing otherwise. */
static inline int buf_plain_fast_(chrome_state *s, const char *p, size_t n)
{
    if (n + 2 > OUT_CAP - s->n) return 0;
    size_t w = put_plain_(s->buf + s->n, p, n);
    s->n += w;
    return w != 0;
}
/* buf_strn_ for a string that needs the JSON writer or a flush first. */
static void buf_strn_slow_(chrome_state *s, const char *p, size_t n)
{
    if (!plain_(p, n)) {
        buf_flush_(s);
        evt_json_init(&s->j, s->out, 0);
        s->j.after_key = 1; /* the string alone: no separator */
        evt_json_strn(&s->j, p, n);
        s->wrote = 1;
        return;
    }
    BUF_LIT(s, "\"");
    buf_put_(s, p, n);
    BUF_LIT(s, "\"");
}
static inline void buf_strn_(chrome_state *s, const char *p, size_t n)
{
    if (!buf_plain_fast_(s, p, n)) buf_strn_slow_(s, p, n);
}
static void buf_str_(chrome_state *s, const char *p) { buf_strn_(s, p, strlen(p)); }

/* n bytes at a and b are equal: 8 bytes per step, the last 8 again when n is
 * not a multiple; under 8 bytes two overlapping 4-byte words or three bytes. Reads n bytes of each. */
static inline int same_(const char *a, const char *b, size_t n)
{
    uint64_t x, y, diff = 0;
    if (n >= 8) {
        size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            memcpy(&x, a + i, 8);
            memcpy(&y, b + i, 8);
            diff |= x ^ y;
        }
        if (i < n) {
            memcpy(&x, a + n - 8, 8);
            memcpy(&y, b + n - 8, 8);
            diff |= x ^ y;
        }
        return !diff;
    }
    if (n >= 4) {
        uint32_t a0, a1, b0, b1;
        memcpy(&a0, a, 4);
        memcpy(&a1, a + n - 4, 4);
        memcpy(&b0, b, 4);
        memcpy(&b1, b + n - 4, 4);
        return !((a0 ^ b0) | (a1 ^ b1));
    }
    return !n || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]);
}

/* ---- a record's tail through a cursor ------------------------------------------------------
 * o points into the buffer past the committed bytes (s->n); every cur_* call returns the cursor
 * with at least CUR_ROOM bytes of room after it (room for any literal key and one number, or one
 * field whose key and value come from qs_str_), and
 * the caller commits with s->n = o - s->buf. */
#define CUR_ROOM 96

/* The cursor with CUR_ROOM bytes of room: the bytes before it flushed when it runs low. */
static inline char *cur_room_(chrome_state *s, char *o)
{
    if ((size_t)(s->buf + OUT_CAP - o) >= CUR_ROOM) return o;
    s->n = (size_t)(o - s->buf);
    buf_flush_(s);
    return s->buf;
}

/* String p (n bytes) at the cursor: copied when plain and it fits with CUR_ROOM to spare; else
 * the bytes before it committed and it goes through buf_strn_ (JSON writer, flushes). */
static inline char *cur_strn_(chrome_state *s, char *o, const char *p, size_t n)
{
    if ((size_t)(s->buf + OUT_CAP - o) >= n + 2 + CUR_ROOM) {
        size_t w = put_plain_(o, p, n);
        if (w) return o + w;
    }
    s->n = (size_t)(o - s->buf);
    buf_strn_(s, p, n);
    buf_reserve_(s);
    return s->buf + s->n;
}
static inline char *cur_str_(chrome_state *s, char *o, const char *p) { return cur_strn_(s, o, p, strlen(p)); }
#define CUR_LIT(o, lit) (memcpy((o), (lit), sizeof(lit) - 1), (o) + sizeof(lit) - 1)

/* qs_key_, qs_str_ ------------------------------------------------------------------------------
 * The keys and string values of a reader's fields are mostly its own literals, the same every
 * event ("priority", "state", "SLEEP"): by the address of such a string its text as a key or a
 * value is copied whole, with no strlen and no check. The address is trusted only inside the program's read-only
 * image (its bytes never change); any other (a reader's buffer, which may hold other text at the
 * same address later) takes a slot with len 0 and is written as usual, never from the slot. */
static inline qs_slot *qs_slot_(chrome_state *s, const char *p)
{
    return &s->qs[((uintptr_t)p * 0x9E3779B97F4A7C15ull) >> (64 - QS_BITS)];
}
/* The slot of p made for it (qs_get_ found another address there): kept when trusted. */
static __attribute__((noinline)) const qs_slot *qs_fill_(qs_slot *e, const evt_ro_image *ro, const char *p)
{
    size_t n = strlen(p);
    e->p = p;
    e->len = 0;
    if (n <= QS_MAX && evt_ro_image_has(ro, p) && plain_(p, n)) {
        memcpy(e->txt, ",\"", 2);
        memcpy(e->txt + 2, p, n);
        memcpy(e->txt + 2 + n, "\":", 2);
        e->len = (uint8_t)(n + 4);
    }
    return e;
}
/* The slot of string p: len 0, or its texts (p lies in the read-only image). */
static inline const qs_slot *qs_get_(chrome_state *s, const char *p)
{
    qs_slot *e = qs_slot_(s, p);
    return e->p == p ? e : qs_fill_(e, &s->ro, p);
}
/* strlen(p), from p's slot when it is kept. */
static inline size_t qs_len_(chrome_state *s, const char *p)
{
    const qs_slot *e = qs_get_(s, p);
    return e->len ? (size_t)e->len - 4 : strlen(p);
}
/* ,"p": (a field's key) and "p" (a string value) at the cursor, which has CUR_ROOM bytes of room:
 * a kept one's text is copied whole (QS_COPY bytes; those past its length are overwritten next),
 * any other written as cur_str_ writes it. */
static inline char *qs_key_(chrome_state *s, char *o, const char *p)
{
    const qs_slot *e = qs_get_(s, p);
    if (!e->len) {
        *o++ = ',';
        o = cur_str_(s, o, p);
        *o = ':';
        return o + 1;
    }
    memcpy(o, e->txt, QS_COPY);
    return o + e->len;
}
static inline char *qs_str_(chrome_state *s, char *o, const char *p)
{
    const qs_slot *e = qs_get_(s, p);
    if (!e->len) return cur_str_(s, o, p);
    memcpy(o, e->txt + 1, QS_COPY);
    return o + e->len - 2;
}

/* An event's number (an arg or a field) at o (20 bytes of room), as put_u64_ writes it; one of 9
 * digits or more copied from its slot (num_fill_ makes it when the slot holds another value). */
static __attribute__((noinline)) void num_fill_(num_slot *e, uint64_t v)
{
    e->v = v;
    e->len = (uint8_t)put_u64_long_(e->txt, v);
}
static inline size_t arg_put_(chrome_state *s, char *o, uint64_t v)
{
    if (v < NUM_MIN) return put_u8_(o, (uint32_t)v);
    num_slot *e = &s->num[(v * 0x9E3779B97F4A7C15ull) >> (64 - NUM_BITS)];
    if (e->v != v) num_fill_(e, v);
    memcpy(o, e->txt, sizeof e->txt); /* fixed-size copy; bytes past len are overwritten next */
    return e->len;
}

/* ,"args":{"id":N,"args":[...],"object":...,fields...,"text":...}} — the second brace closes the
 * record (args are always a record's last member). */
_Static_assert(2 * QS_COPY <= CUR_ROOM, "args_end_: a field of kept strings fits in CUR_ROOM");
_Static_assert(16 + 20 + 9 + EVT_MAX_ARGS * 21 + 1 + CUR_ROOM <= OUT_SLACK, "args_end_: the args fit without a check");
static void args_end_(chrome_state *s, const evt_event *ev)
{
    buf_reserve_(s); /* OUT_SLACK: the id and every arg, then CUR_ROOM */
    char *o = CUR_LIT(s->buf + s->n, ",\"args\":{\"id\":");
    o += put_u64_(o, ev->id);
    o = CUR_LIT(o, ",\"args\":[");
    if (ev->nargs) o += arg_put_(s, o, ev->args[0]);
    for (uint32_t i = 1; i < ev->nargs; i++) {
        *o++ = ',';
        o += arg_put_(s, o, ev->args[i]);
    }
    *o++ = ']';
    if (ev->target_name) {
        o = CUR_LIT(o, ",\"object\":");
        o = cur_str_(s, o, ev->target_name);
    }
    for (uint32_t i = 0; i < ev->nfields; i++) {
        const evt_field *f = &ev->fields[i];
        o = qs_key_(s, o, f->key); /* room: CUR_ROOM >= QS_COPY (the key) + QS_COPY or 21 (the value) */
        if (f->is_str && f->str) o = qs_str_(s, o, f->str);
        else if (f->is_str) o = CUR_LIT(o, "null");
        else if (f->is_signed && (int64_t)f->num < 0) {
            *o++ = '-';
            o += arg_put_(s, o, 0 - f->num);
        } else o += arg_put_(s, o, f->num);
        o = cur_room_(s, o);
    }
    if (ev->data && ev->data_is_text) {
        o = CUR_LIT(o, ",\"text\":");
        o = cur_strn_(s, o, (const char *)ev->data, ev->data_len);
    }
    memcpy(o, "}}", 2);
    s->n = (size_t)(o + 2 - s->buf);
}

/* The state a state machine entered (the meaning block's EVT_M_SM_STATE), or NULL. */
static const char *state_of(const evt_event *ev)
{
    return (ev->m.has & EVT_M_SM_STATE) ? ev->m.sm_state : NULL;
}

/* ,"pid":1,"tid":TID,"ts": — written through a local cursor (stores through the buffer's char
 * pointer would make the compiler reload s->n after each). Needs 41 bytes of room. */
static inline void buf_tid_ts_(chrome_state *s, uint64_t tid)
{
    char *o = s->buf + s->n;
    memcpy(o, ",\"pid\":1,\"tid\":", 15);
    size_t k = 15 + put_u64_(o + 15, tid);
    memcpy(o + k, ",\"ts\":", 6);
    s->n += k + 6;
}

/* ---- record prefixes ------------------------------------------------------------------------
 * ,\n{"ph":"P"[,"name":"NAME"],"pid":1,"tid":TID,"ts": is made once per (ph, tid, name) and then
 * copied whole: a cache of PFX_WAYS-way sets (pfx). The name is matched by CONTENT (its length and bytes,
 * compared with the copy inside the slot's text), never trusted by address: a reader's strings
 * live only until its next event and another string may sit at the same address later (the
 * address only picks the slot). Only plain names (no JSON escapes) of at most PFX_NAME_MAX bytes
 * are kept: the text then holds the name's bytes as they are, at PFX_NAME_AT. */

/* The key of a prefix: ph (nonzero), nlen (<= PFX_NAME_MAX, or PFX_NONAME) and tid
 * (< PFX_TID_LIMIT) in one word, so that a slot is matched by one compare before its name's bytes. */
static inline uint64_t pfx_key_(char ph, size_t nlen, uint64_t tid)
{
    return (uint64_t)(unsigned char)ph << 56 | (uint64_t)nlen << 48 | tid;
}

/* The set of PFX_WAYS slots for key and the name's address: a hash of them. */
static inline pfx_slot *pfx_set_(chrome_state *s, uint64_t key, const char *name)
{
    /* one multiply: every input bit reaches the top bits (the key's high bits only them, but ph
     * and nlen are few values) */
    uint64_t h = ((uint64_t)(uintptr_t)name ^ key) * 0x9E3779B97F4A7C15ull;
    return &s->pfx[(h >> (64 - PFX_SET_BITS)) * PFX_WAYS];
}

/* The slot of set holding the prefix of key and name (its bytes compared), NULL. */
static inline const pfx_slot *pfx_find_(const pfx_slot *set, uint64_t key, const char *name, size_t nlen)
{
    for (int w = 0; w < PFX_WAYS; w++)
        if (set[w].key == key && (!name || same_(set[w].txt + PFX_NAME_AT, name, nlen))) return &set[w];
    return NULL;
}

/* A prefix not in its set: written piece by piece, then kept in set (NULL: not to be kept) when it
 * may be (a plain name). The buffer has OUT_SLACK bytes of room (no flush happens for a plain
 * name of at most PFX_NAME_MAX bytes). */
static __attribute__((noinline)) void pfx_make_(chrome_state *s, pfx_slot *set, char ph, const char *name,
                                                size_t nlen, uint64_t tid)
{
    size_t n0 = s->n;
    char *o = s->buf + s->n;
    memcpy(o, ",\n{\"ph\":\"", 9);
    o[9] = ph;
    o[10] = '"';
    s->n += 11;
    int keep = set != NULL;
    if (name) {
        BUF_LIT(s, ",\"name\":");
        keep = keep && plain_(name, nlen);
        buf_strn_(s, name, nlen);
        /* room for buf_tid_ts_ (41) and the time (48) after a long name; a kept name leaves more
         * (no flush: n0 holds) */
        if (OUT_CAP - s->n < 96) buf_flush_(s);
    }
    buf_tid_ts_(s, tid);
    if (!keep) return;
    pfx_slot *e = NULL; /* an empty way, else the next in turn */
    for (int w = 0; w < PFX_WAYS && !e; w++)
        if (!set[w].key) e = &set[w];
    if (!e) e = &set[s->pfx_victim++ % PFX_WAYS];
    e->key = pfx_key_(ph, nlen, tid);
    e->len = (uint8_t)(s->n - n0);
    memcpy(e->txt, s->buf + n0, e->len);
}

/* Opens a record: {"ph":PH[,"name":NAME],"pid":1,"tid":TID,"ts":T — the object stays open. PH is
 * one letter (every caller's). nlen: strlen(name) (any value when name is NULL): callers that
 * know it pass it (common_lit_, lbl_len_), the others go through common. pfx_put_ writes the
 * text up to "ts": (the prefix), common_n the time after it. */
static inline void pfx_put_(chrome_state *s, const char *ph, const char *name, size_t nlen, uint64_t tid)
{
    buf_reserve_(s); /* OUT_SLACK: a slot's whole text fits */
    if (!name) nlen = PFX_NONAME;
    pfx_slot *set = NULL; /* stays NULL for a prefix never kept */
    const pfx_slot *e = NULL;
    if (tid < PFX_TID_LIMIT && (!name || nlen <= PFX_NAME_MAX)) {
        uint64_t key = pfx_key_(ph[0], nlen, tid);
        set = pfx_set_(s, key, name);
        e = pfx_find_(set, key, name, nlen);
    }
    if (e) {
        /* fixed-size copies; bytes past len are overwritten next */
        if (e->len <= 64) memcpy(s->buf + s->n, e->txt, 64);
        else memcpy(s->buf + s->n, e->txt, PFX_TXT);
        s->n += e->len;
    } else {
        pfx_make_(s, set, ph[0], name, nlen, tid);
    }
}
static inline void common_n(chrome_state *s, const char *ph, const char *name, size_t nlen, uint64_t tid, uint64_t t)
{
    pfx_put_(s, ph, name, nlen, tid);
    buf_time_room_(s, t, 1); /* room: OUT_SLACK - PFX_TXT after a kept prefix, 48 after pfx_make_ */
}
/* common_n out of line: for the records that are not each event's (inline, it would be copied into
 * every one of their callers). */
static __attribute__((noinline)) void common_nl_(chrome_state *s, const char *ph, const char *name, size_t nlen,
                                                 uint64_t tid, uint64_t t)
{
    common_n(s, ph, name, nlen, tid, t);
}
/* common_n for a name of unknown length. */
static void common(chrome_state *s, const char *ph, const char *name, uint64_t tid, uint64_t t)
{
    common_n(s, ph, name, name ? strlen(name) : 0, tid, t);
}
/* common for an event's name (an instant's: the reader's string), its length from qs_len_ (no
 * strlen for a read-only one). */
static inline void common_ev_(chrome_state *s, const char *ph, const char *name, uint64_t tid, uint64_t t)
{
    common_n(s, ph, name, name ? qs_len_(s, name) : 0, tid, t);
}
/* common for a string literal name: its length known at compile time. */
#define common_lit_(s, ph, lit, tid, t) common_nl_((s), (ph), (lit), sizeof(lit) - 1, (tid), (t))

/* memo_open_ the first time: the prefix written by pfx_put_ (no flush: see memo_open_) and kept. */
static __attribute__((noinline)) void memo_make_(chrome_state *s, rec_memo *m, const char *ph, const char *name,
                                                 size_t nlen, uint64_t tid)
{
    size_t n0 = s->n;
    pfx_put_(s, ph, name, nlen, tid);
    m->len = (uint8_t)(s->n - n0);
    memcpy(m->txt, s->buf + n0, m->len);
}
/* common_n for a prefix a context's track repeats, kept in m: the same (ph, name, tid) every time
 * (the caller's invariant: one memo per track and record kind, or per label address: lbl_open_),
 * so the bytes are those common_n would write, copied without a look-up. name: NULL, or plain
 * and at most LBL_MEMO_NAME_MAX bytes (a literal, or a label lbl_open_ checked), so pfx_put_
 * writes the prefix whole into the buffer (no flush: memo_make_'s n0 holds) and it fits in
 * MEMO_TXT. */
static inline void memo_open_(chrome_state *s, rec_memo *m, const char *ph, const char *name, size_t nlen,
                              uint64_t tid, uint64_t t)
{
    buf_reserve_(s); /* OUT_SLACK: the fixed-size copy and the time fit */
    if (m->len) {
        /* fixed-size copies; bytes past len are overwritten next */
        if (m->len <= 64) memcpy(s->buf + s->n, m->txt, 64);
        else memcpy(s->buf + s->n, m->txt, MEMO_TXT);
        s->n += m->len;
    } else {
        memo_make_(s, m, ph, name, nlen, tid);
    }
    buf_time_room_(s, t, 1);
}

/* strlen of a label owned by the timeline (slice and ISR names) or a literal: kept by address. Safe
 * only for those: the timeline's strings are interned copies, never changed nor freed before evt_tl_free,
 * so an address seen once holds the same text for the whole export (a reader's strings are not:
 * common matches them by content). */
static inline size_t lbl_len_(chrome_state *s, const char *p)
{
    unsigned k = (unsigned)(((uintptr_t)p >> 3) ^ ((uintptr_t)p >> 9)) % LBL_SLOTS;
    if (s->lbl[k].p != p) {
        s->lbl[k].p = p;
        s->lbl[k].len = strlen(p);
    }
    return s->lbl[k].len;
}

static void thread_name(chrome_state *s, uint64_t tid, const char *name)
{
    common_lit_(s, "M", "thread_name", tid, 0);
    BUF_LIT(s, ",\"args\":{\"name\":");
    buf_str_(s, name);
    BUF_LIT(s, "}}");
}

static void simple(chrome_state *s, const char *ph, const char *name, uint64_t tid, uint64_t ts)
{
    common(s, ph, name, tid, ts);
    BUF_LIT(s, "}");
}

/* {"ph":"E",...}: the most frequent record. */
static void end_(chrome_state *s, uint64_t tid, uint64_t ts)
{
    common(s, "E", NULL, tid, ts);
    BUF_LIT(s, "}");
}
/* end_ on the track of context idx (d its drawing state), through its memo. */
static void end_ctx_(chrome_state *s, ctx_draw *d, uint32_t idx, uint64_t ts)
{
    memo_open_(s, &d->end_memo, "E", NULL, 0, TID_OF(idx), ts);
    BUF_LIT(s, "}");
}

/* ---- contexts ------------------------------------------------------------------------------ */

/* draw_ for a context not seen yet (or EVT_TL_NONE): grows the table, makes its state. */
static __attribute__((noinline)) ctx_draw *draw_new_(chrome_state *s, uint32_t idx)
{
    if (idx == EVT_TL_NONE) return NULL;
    if (idx >= s->nctx) {
        uint32_t n = s->nctx ? s->nctx : 32;
        while (n <= idx) n *= 2;
        ctx_draw **v = evt_realloc(s->ctxs, (size_t)n * sizeof *v);
        if (!v) { s->oom = 1; return NULL; }
        memset(v + s->nctx, 0, (size_t)(n - s->nctx) * sizeof *v);
        s->ctxs = v;
        s->nctx = n;
    }
    if (!s->ctxs[idx]) {
        ctx_draw *d = evt_calloc(1, sizeof *d);
        if (!d) { s->oom = 1; return NULL; }
        const evt_tl_ctx *c = evt_tl_ctx_at(&s->tl, idx);
        d->whole = c && c->cls == EVT_CTX_ISR;
        s->ctxs[idx] = d;
    }
    return s->ctxs[idx];
}

/* The drawing state of context idx (made at its first use), NULL for EVT_TL_NONE or out of memory. */
static inline ctx_draw *draw_(chrome_state *s, uint32_t idx)
{
    if (idx < s->nctx && s->ctxs[idx]) return s->ctxs[idx]; /* EVT_TL_NONE >= nctx */
    return draw_new_(s, idx);
}

static void name_ctx_(chrome_state *s, const evt_tl_ctx *c)
{
    ctx_draw *d = draw_(s, c->index);
    if (!d) return;
    char lb[96];
    thread_name(s, TID_OF(c->index), evt_tl_ctx_label(c, lb, sizeof lb));
    d->named = 1;
}

static void on_ctx_new(void *user, const evt_tl_ctx *c) { name_ctx_(user, c); }
static void on_ctx_name(void *user, const evt_tl_ctx *c) { name_ctx_(user, c); }

/* track_ for a context whose track is not named yet (or not seen). */
static __attribute__((noinline)) ctx_draw *track_name_(chrome_state *s, uint32_t idx)
{
    ctx_draw *d = draw_(s, idx);
    if (d && !d->named) {
        const evt_tl_ctx *c = evt_tl_ctx_at(&s->tl, idx);
        if (c) name_ctx_(s, c);
    }
    return d;
}
/* The context's drawing state, its track named; NULL for EVT_TL_NONE or out of memory. */
static inline ctx_draw *track_(chrome_state *s, uint32_t idx)
{
    if (idx < s->nctx && s->ctxs[idx] && s->ctxs[idx]->named) return s->ctxs[idx]; /* the usual */
    return track_name_(s, idx);
}

/* ---- running and slice pieces -------------------------------------------------------------- */

/* common_n(s, "B", name, ...) on the track of tid, whose labels' memos are in set: name is the
 * timeline's label or a literal (a stable address, see lbl_len_). Found by address, else an entry
 * is taken for it, usable when the prefix qualifies for memo_open_ (plain, short). */
static void lbl_open_(chrome_state *s, lbl_memos *set, const char *name, uint64_t tid, uint64_t t)
{
    lbl_memo *e = NULL;
    for (int i = 0; i < LBL_MEMOS && !e; i++)
        if (set->e[i].name == name) e = &set->e[i];
    if (!e) {
        e = &set->e[set->victim++ % LBL_MEMOS];
        e->name = name;
        e->nlen = lbl_len_(s, name);
        e->usable = e->nlen <= LBL_MEMO_NAME_MAX && plain_(name, e->nlen);
        e->m.len = 0;
    }
    if (e->usable) memo_open_(s, &e->m, "B", name, e->nlen, tid, t);
    else common_nl_(s, "B", name, e->nlen, tid, t);
}

static void piece_begin_(chrome_state *s, ctx_draw *d, uint32_t idx, open_slice *o, uint64_t t, const evt_event *ev)
{
    lbl_open_(s, &d->slice_memos, o->name, TID_OF(idx), t); /* o->name: the timeline's, or "?" */
    if (t > o->t0) BUF_LIT(s, ",\"args\":{\"resumed\":true}}");
    else if (ev) args_end_(s, ev);
    else BUF_LIT(s, "}");
    o->drawn = 1;
}

/* Whether d's slices are drawn whole: an ISR context, or no running to draw them in (no scheduling
 * recorded yet: an RKH stream turns it on at its first scheduling record, after contexts were
 * seen). */
static int whole_(const chrome_state *s, const ctx_draw *d) { return d->whole || !s->tl.sched; }

/* idx starts running at t: its running slice, then its open slices again (those not drawn whole
 * before scheduling was recorded). */
static void run_in_(chrome_state *s, uint32_t idx, uint64_t t)
{
    ctx_draw *d = track_(s, idx);
    if (!d || d->running || whole_(s, d)) return;
    memo_open_(s, &d->run_memo, "B", "running", sizeof "running" - 1, TID_OF(idx), t);
    BUF_LIT(s, ",\"cat\":\"sched\"}");
    d->running = 1;
    for (int i = 0; i < d->depth; i++)
        if (!d->open[i].drawn) piece_begin_(s, d, idx, &d->open[i], t, NULL);
}

/* idx stops running at t: close its open slices' pieces (top first), then its running slice. */
static void run_out_(chrome_state *s, uint32_t idx, uint64_t t)
{
    ctx_draw *d = draw_(s, idx);
    if (!d || !d->running) return;
    for (int i = d->depth - 1; i >= 0; i--)
        if (d->open[i].drawn) { end_ctx_(s, d, idx, t); d->open[i].drawn = 0; }
    end_ctx_(s, d, idx, t);
    d->running = 0;
}

static void on_switch(void *user, const evt_tl_switch *sw)
{
    chrome_state *s = user;
    if (sw->prev != EVT_TL_NONE) run_out_(s, sw->prev, sw->t);
    if (sw->next != EVT_TL_NONE) run_in_(s, sw->next, sw->t);
    evt_an_load_switch(&s->load, &s->tl, sw);
}

/* A blocked interval: an "X" slice "blocked on <object>" (or "blocked"), cat "blocked", on the
 * context's "<context> (blocked)" track (its own track: running slices and their B/E pieces stay
 * alone on the thread's), args object (the name, else the id in hex), object_id (the id, as
 * SQLite's thread_states.object), service (the call that blocked it), open_end. */
/* "0x" and v in lowercase hex (as "0x%" PRIx64) at o (>= 19 bytes); NUL-terminated. */
static void hex_id_(char *o, uint64_t v)
{
    o[0] = '0';
    o[1] = 'x';
    o[2 + evt_jf_hex_(o + 2, v)] = '\0';
}

/* nb (size n) = "blocked on " + on, cut as snprintf cuts it (no formatting per record); returns
 * its length. */
static size_t blocked_on_(char *nb, size_t n, const char *on)
{
    static const char k_pre[] = "blocked on ";
    size_t len = strlen(on), room = n - sizeof k_pre; /* bytes left for on, its NUL counted */
    if (len > room) len = room;
    memcpy(nb, k_pre, sizeof k_pre - 1);
    memcpy(nb + sizeof k_pre - 1, on, len);
    nb[sizeof k_pre - 1 + len] = '\0';
    return sizeof k_pre - 1 + len;
}

static void blocked_(chrome_state *s, const evt_tl_state_iv *iv)
{
    ctx_draw *d = draw_(s, iv->ctx);
    const evt_tl_ctx *c = evt_tl_ctx_at(&s->tl, iv->ctx);
    if (!d || !c) return;
    char lb[96], nb[160];
    if (!d->blocked_named) {
        snprintf(nb, sizeof nb, "%s (blocked)", evt_tl_ctx_label(c, lb, sizeof lb));
        thread_name(s, BLOCKED_TID_BASE + TID_OF(iv->ctx), nb);
        d->blocked_named = 1;
    }
    const evt_tl_obj *o = evt_tl_obj_at(&s->tl, iv->obj);
    char ib[24] = "";
    if (o && !o->name) hex_id_(ib, o->id);
    const char *on = o ? (o->name ? o->name : ib) : NULL;
    uint64_t btid = BLOCKED_TID_BASE + TID_OF(iv->ctx);
    if (on) common_nl_(s, "X", nb, blocked_on_(nb, sizeof nb, on), btid, iv->t0);
    else memo_open_(s, &d->blocked_memo, "X", "blocked", sizeof "blocked" - 1, btid, iv->t0);
    BUF_LIT(s, ",\"dur\":");
    buf_dur_(s, iv->t1 - iv->t0);
    BUF_LIT(s, ",\"cat\":\"blocked\",\"args\":{\"state\":\"blocked\"");
    if (on) {
        BUF_LIT(s, ",\"object\":");
        buf_str_(s, on);
        BUF_LIT(s, ",\"object_id\":");
        buf_u64_(s, o->id);
    }
    if (iv->service) {
        BUF_LIT(s, ",\"service\":");
        buf_str_(s, iv->service);
    }
    if (iv->open_end) BUF_LIT(s, ",\"open_end\":true");
    BUF_LIT(s, "}}");
}

static void on_state(void *user, const evt_tl_state_iv *iv)
{
    chrome_state *s = user;
    if (iv->state == EVT_TL_BLOCKED) {
        blocked_(s, iv);
        return;
    }
    if (iv->state == EVT_TL_ACTIVE) { /* a trace without scheduling: when the context was active */
        common_lit_(s, "X", "active", TID_OF(iv->ctx), iv->t0);
        BUF_LIT(s, ",\"dur\":");
        buf_dur_(s, iv->t1 - iv->t0);
        BUF_LIT(s, ",\"cat\":\"activity\"}");
        return;
    }
    if (iv->state != EVT_TL_RUNNING) return;
    run_out_(s, iv->ctx, iv->t1); /* no-op after a switch-out */
    evt_an_load_state(&s->load, &s->tl, iv);
}

static void on_slice_begin(void *user, const evt_tl_slice *sl)
{
    chrome_state *s = user;
    const evt_event *ev = s->tl.cur;
    if (ev && ev->kind == EVT_KIND_SVC) return; /* zero-length: its instant ("i", cat svc) shows it */
    ctx_draw *d = track_(s, sl->ctx);
    if (!d) return;
    if (d->depth >= MAX_DEPTH) { d->overflow++; return; }
    open_slice *o = &d->open[d->depth++];
    o->name = sl->name ? sl->name : "?";
    o->t0 = sl->t0;
    o->drawn = 0;
    if (d->running || whole_(s, d)) {
        piece_begin_(s, d, sl->ctx, o, sl->t0, ev && s->tl.cur_t == sl->t0 ? ev : NULL);
    }
}

static void on_slice(void *user, const evt_tl_slice *sl)
{
    chrome_state *s = user;
    ctx_draw *d = draw_(s, sl->ctx);
    if (!d) return;
    if (d->overflow && (int)sl->depth >= MAX_DEPTH) { d->overflow--; return; }
    while (d->depth > (int)sl->depth) { /* the slice and any the timeline did not close above it */
        open_slice *o = &d->open[--d->depth];
        if (o->drawn) end_ctx_(s, d, sl->ctx, sl->t1);
    }
}

/* ---- ISRs ---------------------------------------------------------------------------------- */

static uint64_t isr_tid_(chrome_state *s, uint32_t cpu)
{
    if (!(s->isr_named[cpu / 64] & (1ull << (cpu % 64)))) {
        char nb[32];
        snprintf(nb, sizeof nb, "ISR cpu %u", cpu);
        thread_name(s, ISR_TID_BASE + cpu, nb);
        s->isr_named[cpu / 64] |= 1ull << (cpu % 64);
    }
    return ISR_TID_BASE + cpu;
}

static void isr_b_(chrome_state *s, const evt_tl_isr *iv)
{
    lbl_open_(s, &s->isr_memos[iv->cpu], iv->name ? iv->name : "ISR", isr_tid_(s, iv->cpu), iv->t0);
    BUF_LIT(s, ",\"cat\":\"isr\"");
    const evt_event *ev = s->tl.cur;
    if (ev && ev->kind == EVT_KIND_ISR_ENTER) args_end_(s, ev);
    else BUF_LIT(s, "}");
}

static void on_isr_begin(void *user, const evt_tl_isr *iv)
{
    chrome_state *s = user;
    isr_b_(s, iv);
    s->isr_open[iv->cpu]++;
}

static void on_isr(void *user, const evt_tl_isr *iv)
{
    chrome_state *s = user;
    evt_an_load_isr(&s->load, &s->tl, iv);
    if (s->isr_open[iv->cpu] <= iv->depth) isr_b_(s, iv); /* reported closed only */
    else s->isr_open[iv->cpu] = iv->depth;
    memo_open_(s, &s->isr_end_memo[iv->cpu], "E", NULL, 0, isr_tid_(s, iv->cpu), iv->t1); /* end_ */
    BUF_LIT(s, "}");
}

/* ---- flows, counters, losses --------------------------------------------------------------- */

static uint64_t flow_tid_(chrome_state *s, uint32_t idx)
{
    return track_(s, idx) ? TID_OF(idx) : GLOBAL_TID;
}

static void on_flow(void *user, const evt_tl_flow *f)
{
    chrome_state *s = user;
    const char *kind = f->kind ? f->kind : "flow";
    common(s, "s", kind, flow_tid_(s, f->from_ctx), f->t0);
    BUF_LIT(s, ",\"cat\":\"flow\",\"id\":");
    buf_u64_(s, f->id);
    const evt_tl_obj *o = evt_tl_obj_at(&s->tl, f->obj); /* what it went through (a wake-up: the blocked-on object) */
    if (o) {
        char ib[24];
        if (!o->name) hex_id_(ib, o->id);
        BUF_LIT(s, ",\"args\":{\"object\":");
        buf_str_(s, o->name ? o->name : ib);
        BUF_LIT(s, ",\"object_id\":");
        buf_u64_(s, o->id);
        BUF_LIT(s, "}");
    }
    BUF_LIT(s, "}");
    common(s, "f", kind, flow_tid_(s, f->to_ctx), f->t1);
    BUF_LIT(s, ",\"cat\":\"flow\",\"bp\":\"e\",\"id\":");
    buf_u64_(s, f->id);
    BUF_LIT(s, "}");
}

/* The slot of counter name cname on object obj. */
static inline ctr_slot *ctr_slot_(chrome_state *s, const char *cname, uint32_t obj)
{
    uint64_t h = ((uint64_t)(uintptr_t)cname ^ (uint64_t)obj << 40) * 0x9E3779B97F4A7C15ull;
    return &s->ctr[h >> (64 - CTR_BITS)];
}
/* ctr_put_ for a (name, object) not in its slot: the label of the counter "<object> <name>", made
 * at its first use per (object, name text) and kept (cnames, counters), written; the text is kept
 * in the slot e when cname is in the read-only image and the label is plain and short. The buffer
 * has OUT_SLACK bytes of room. Returns 0 when out of memory. */
static __attribute__((noinline)) int ctr_make_(chrome_state *s, ctr_slot *e, const char *cname, uint32_t obj)
{
    uint32_t nid = evt_strtab_intern(&s->cnames, cname, strlen(cname), NULL);
    if (!nid) { s->oom = 1; return 0; }
    uint64_t key = ((uint64_t)(obj == EVT_TL_NONE ? 0 : obj + 1) << 32) | nid;
    uint32_t lid;
    if (!evt_u64map_get(&s->counters, key, &lid)) {
        char nb[256];
        const evt_tl_obj *o = evt_tl_obj_at(&s->tl, obj);
        if (!o) snprintf(nb, sizeof nb, "%s", cname);
        else if (o->name) snprintf(nb, sizeof nb, "%s %s", o->name, cname);
        else snprintf(nb, sizeof nb, "object 0x%" PRIx64 " %s", o->id, cname);
        lid = evt_strtab_intern(&s->cnames, nb, strlen(nb), NULL);
        if (!lid || !evt_u64map_put(&s->counters, key, lid)) { s->oom = 1; return 0; }
    }
    const char *label = evt_strtab_str(&s->cnames, lid);
    size_t n = strlen(label), n0 = s->n;
    int keep = evt_ro_image_has(&s->ro, cname) && plain_(label, n);
    BUF_LIT(s, ",\n{\"ph\":\"C\",\"name\":");
    buf_strn_(s, label, n);
    BUF_LIT(s, ",\"pid\":1,\"ts\":");
    /* a plain label (at most 255 bytes: nb) was written whole, without a flush: the bytes since n0
     * are the text */
    if (keep && s->n - n0 <= CTR_TXT) {
        e->name = cname;
        e->obj = obj;
        e->len = (uint8_t)(s->n - n0);
        memcpy(e->txt, s->buf + n0, e->len);
    }
    buf_reserve_(s);
    return 1;
}
/* A counter record's text up to its time (the buffer has OUT_SLACK bytes of room): from its
 * slot (one compare of the name pointer and the object), else made. Returns 0 when out of memory. */
static inline int ctr_put_(chrome_state *s, const char *cname, uint32_t obj)
{
    ctr_slot *e = ctr_slot_(s, cname, obj);
    if (e->name != cname || e->obj != obj) return ctr_make_(s, e, cname, obj);
    memcpy(s->buf + s->n, e->txt, CTR_TXT); /* fixed-size copy; bytes past len are overwritten next */
    s->n += e->len;
    return 1;
}

static void on_counter(void *user, const evt_tl_counter *c)
{
    chrome_state *s = user;
    buf_reserve_(s);
    if (!ctr_put_(s, c->name ? c->name : "counter", c->obj)) return;
    buf_time_room_(s, c->t, 1); /* room: OUT_SLACK - CTR_TXT */
    BUF_LIT(s, ",\"args\":{\"value\":");
    buf_u64_(s, c->value);
    BUF_LIT(s, "}}");
}

/* A priority change (the timeline's prio record): "C" named "priority <context>", the new value. */
static void on_prio(void *user, const evt_tl_prio *p)
{
    chrome_state *s = user;
    char lb[96], nb[128];
    const evt_tl_ctx *c = evt_tl_ctx_at(&s->tl, p->ctx);
    snprintf(nb, sizeof nb, "priority %s", c ? evt_tl_ctx_label(c, lb, sizeof lb) : "?");
    buf_reserve_(s);
    BUF_LIT(s, ",\n{\"ph\":\"C\",\"name\":");
    buf_str_(s, nb);
    BUF_LIT(s, ",\"pid\":1,\"ts\":");
    buf_time_(s, p->t);
    BUF_LIT(s, ",\"args\":{\"value\":");
    buf_u64_(s, p->prio);
    BUF_LIT(s, "}}");
}

/* A CPU load sample (evt_an_load_samples): "C" named "CPU load % <context>", the percentage with two
 * decimals (as the Perfetto export's counter, rounded). */
static void on_load(void *user, uint32_t ctx, uint64_t t, double pct, int first)
{
    (void)first;
    chrome_state *s = user;
    char lb[96], nb[128];
    const evt_tl_ctx *c = evt_tl_ctx_at(&s->tl, ctx);
    snprintf(nb, sizeof nb, "CPU load %% %s", c ? evt_tl_ctx_label(c, lb, sizeof lb) : "?");
    uint64_t h = (uint64_t)(pct * 100.0 + 0.5);
    char frac[3] = {'.', (char)('0' + h % 100 / 10), (char)('0' + h % 10)};
    buf_reserve_(s);
    BUF_LIT(s, ",\n{\"ph\":\"C\",\"name\":");
    buf_str_(s, nb);
    BUF_LIT(s, ",\"pid\":1,\"ts\":");
    buf_time_(s, t);
    BUF_LIT(s, ",\"args\":{\"value\":");
    buf_u64_(s, h / 100);
    buf_put_(s, frac, sizeof frac);
    BUF_LIT(s, "}}");
}

static void on_lost(void *user, const evt_tl_lost *l)
{
    chrome_state *s = user;
    const evt_event *ev = s->tl.cur;
    common_lit_(s, "i", "lost events", GLOBAL_TID, l->t1);
    BUF_LIT(s, ",\"s\":\"g\",\"cat\":\"lost\",\"args\":{\"count\":");
    if (l->has_count) buf_u64_(s, l->count);
    else BUF_LIT(s, "null");
    BUF_LIT(s, ",\"since\":");
    buf_time_(s, l->t0);
    if (ev && ev->name) {
        BUF_LIT(s, ",\"event\":");
        buf_str_(s, ev->name);
    }
    BUF_LIT(s, "}}");
}

/* ---- user tracks (host/timeline/user_tracks.h) ------------------------------------------------
 * Value channels are "C" counters named by the channel; intervals async "b"/"e" pairs (cat "user",
 * name = channel, id = the interval's id: overlapping ones of a channel stay apart); each state
 * machine a track "<machine> (state machine)" of "X" slices named by the state. Printf events stay
 * the instants (with their text in args) every event is. */

static void u_value(void *user, uint32_t ch, uint64_t t, int64_t v, const evt_event *ev)
{
    chrome_state *s = user;
    (void)ev;
    buf_reserve_(s);
    BUF_LIT(s, ",\n{\"ph\":\"C\",\"name\":");
    buf_str_(s, evt_strtab_str(&s->ut.names, ch));
    BUF_LIT(s, ",\"pid\":1,\"ts\":");
    buf_time_(s, t);
    BUF_LIT(s, ",\"args\":{\"value\":");
    buf_i64_(s, v);
    BUF_LIT(s, "}}");
}

static void u_async(chrome_state *s, const char *ph, const char *name, uint64_t id, uint64_t t, int open_end)
{
    common(s, ph, name, GLOBAL_TID, t);
    BUF_LIT(s, ",\"cat\":\"user\",\"id2\":{\"local\":\"");
    buf_u64_(s, id);
    BUF_LIT(s, "\"}");
    if (open_end) BUF_LIT(s, ",\"args\":{\"open_end\":true}");
    BUF_LIT(s, "}");
}

static void u_interval(void *user, uint32_t ch, uint64_t id, uint64_t t0, uint64_t t1, int open_end)
{
    chrome_state *s = user;
    const char *name = evt_strtab_str(&s->ut.names, ch);
    u_async(s, "b", name, id, t0, 0);
    u_async(s, "e", name, id, t1, open_end);
}

static void u_state(void *user, uint32_t sm, uint64_t obj, uint32_t st, uint64_t st_id, uint64_t t0, uint64_t t1,
                    int open_end)
{
    chrome_state *s = user;
    (void)obj;
    uint64_t tid = USM_TID_BASE + sm;
    if (sm < 65536u && !(s->usm_named[sm / 64] >> (sm % 64) & 1u)) {
        char nb[160];
        snprintf(nb, sizeof nb, "%s (state machine)", sm ? evt_strtab_str(&s->ut.names, sm) : "state machine");
        thread_name(s, tid, nb);
        s->usm_named[sm / 64] |= 1ull << (sm % 64);
    }
    char sb[32];
    const char *name = st ? evt_strtab_str(&s->ut.names, st) : NULL;
    if (!name) {
        snprintf(sb, sizeof sb, "state %" PRIu64, st_id);
        name = sb;
    }
    common(s, "X", name, tid, t0);
    BUF_LIT(s, ",\"dur\":");
    buf_dur_(s, t1 - t0);
    BUF_LIT(s, ",\"cat\":\"state\",\"args\":{\"state_id\":");
    buf_u64_(s, st_id);
    if (open_end) BUF_LIT(s, ",\"open_end\":true");
    BUF_LIT(s, "}}");
}

/* ---- exporter ------------------------------------------------------------------------------ */

static evt_status begin(const char *path, evt_reader *r, void **state, char *err, size_t errlen)
{
    chrome_state *s = evt_calloc(1, sizeof *s);
    if (!s) { snprintf(err, errlen, "out of memory"); return EVT_ERR_NOMEM; }
    s->out = evt_out_fopen(path, "w");
    if (!s->out) { snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno)); evt_free(s); return EVT_ERR_IO; }
    s->r = r;
    evt_ro_image_init(&s->ro);
    *state = s;
    return EVT_OK;
}

/* The header and the timeline, at the first event (or the end): the time unit is fixed by the
 * reader's clock as known then (a reader may learn its rate from its first record, e.g. RKH's
 * TCFG). Returns 0 when out of memory. */
static int start_(chrome_state *s)
{
    evt_reader *r = s->r;
    s->started = 1;
    s->hz = r->clock_hz;
    s->ns = s->hz != 0;
    frac_init_(s);
    s->us_len = (uint8_t)put_u64_(s->us_txt, 0); /* us_last (0) and us_txt agree from here on */
    evt_tl_sink sink = {
        s, on_ctx_new, on_ctx_name, NULL, NULL, on_state, on_switch, NULL, on_isr_begin, on_isr,
        on_slice_begin, on_slice, on_counter, on_flow, on_lost, on_prio,
    };
    if (!evt_tl_init(&s->tl, s->hz, &sink)) { s->oom = 1; return 0; }
    evt_tl_set_reader(&s->tl, r);
    evt_an_load_init(&s->load, 0); /* automatic window, as `stats` */
    evt_ut_sink us = {s, NULL, u_value, u_interval, u_state};
    evt_ut_init(&s->ut, &us);
    /* otherData says what "ts" means: real time (time_unit "ns": ts = t_ns / 1000) or ticks of an
     * unknown rate (time_unit "ticks": one tick is shown as one µs). */
    fprintf(s->out, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":\"evtrace\",\"format\":\"%s\","
                    "\"clock_hz\":%" PRIu64 ",\"clock_source\":\"%s\",\"time_unit\":\"%s\"%s},\n\"traceEvents\":[\n",
            r->desc->name, s->hz, evt_clock_source_name(evt_reader_clock_source(r)), s->ns ? "ns" : "ticks",
            s->ns ? "" : ",\"time_note\":\"clock rate unknown: 1 tick is shown as 1 us (give it with --clock-hz HZ)\"");
    evt_json_init(&s->j, s->out, 0);
    evt_json_obj_begin(&s->j);
    evt_json_kstr(&s->j, "ph", "M");
    evt_json_kstr(&s->j, "name", "process_name");
    evt_json_ku64(&s->j, "pid", 1);
    evt_json_key(&s->j, "args");
    evt_json_obj_begin(&s->j);
    evt_json_kstr(&s->j, "name", r->src.path);
    evt_json_obj_end(&s->j);
    evt_json_obj_end(&s->j);
    s->wrote = 1;
    return 1;
}

/* State occupancy (state machines, e.g. RKH SM_STATE): one slice per state on a state track
 * beside the context's track. */
static void state_track_(chrome_state *s, uint32_t idx, const evt_event *ev, const char *st_name, uint64_t tm)
{
    ctx_draw *d = track_(s, idx);
    if (!d) return;
    uint64_t stid = STATE_TID_BASE + TID_OF(idx);
    if (!d->state_named) {
        char nb[96];
        snprintf(nb, sizeof nb, "%s (state)", ev->ctx_name ? ev->ctx_name : "context");
        thread_name(s, stid, nb);
        d->state_named = 1;
    }
    if (d->state_open) end_(s, stid, tm);
    simple(s, "B", st_name, stid, tm);
    d->state_open = 1;
}

/* ,"s":"t","cat":"<kind>" of a context's instant: the text of each kind made once (kind_txt),
 * then copied. */
static void instant_cat_(chrome_state *s, evt_kind kind)
{
    unsigned k = (unsigned)kind < EVT_KIND_COUNT_ ? (unsigned)kind : EVT_KIND_COUNT_;
    buf_reserve_(s); /* OUT_SLACK: the text and its fixed-size copy fit */
    if (!s->kind_len[k]) {
        size_t n0 = s->n;
        BUF_LIT(s, ",\"s\":\"t\",\"cat\":");
        buf_str_(s, evt_kind_name(kind));
        /* kept when written whole into the buffer (a plain name: no flush, no JSON writer) */
        if (s->n > n0 && s->n - n0 <= sizeof s->kind_txt[k]) {
            memcpy(s->kind_txt[k], s->buf + n0, s->n - n0);
            s->kind_len[k] = (uint8_t)(s->n - n0);
        }
        return;
    }
    memcpy(s->buf + s->n, s->kind_txt[k], sizeof s->kind_txt[k]); /* fixed-size copy; bytes past the length are overwritten next */
    s->n += s->kind_len[k];
}

static evt_status event(void *state, const evt_event *ev)
{
    chrome_state *s = state;
    if (!s->started && !start_(s)) return EVT_ERR_NOMEM;
    uint32_t idx = evt_tl_add(&s->tl, ev); /* EVT_TL_NONE: a loss (on_lost wrote it), or out of memory */
    if (s->tl.oom || s->oom) return EVT_ERR_NOMEM;
    uint64_t tm = s->tl.cur_t; /* evt_tl_time(&s->tl, ev), as evt_tl_add made it */
    s->last_ts = tm;
    /* user events only: other state machines (RKH) have their state tracks below (state_track_) */
    if (ev->kind == EVT_KIND_USER && evt_ut_relevant(ev) && !evt_ut_event(&s->ut, ev, tm)) return EVT_ERR_NOMEM;
    if (idx != EVT_TL_NONE && evt_span_cat_fast(ev->kind) == EVT_SPAN_NONE) { /* an instant */
        const char *st_name = state_of(ev);
        if (st_name && (ev->flags & EVT_HAS_CTX)) state_track_(s, idx, ev, st_name, tm);
        if (!track_(s, idx)) return EVT_ERR_NOMEM;
        common_ev_(s, "i", ev->name, TID_OF(idx), tm);
        instant_cat_(s, ev->kind);
        args_end_(s, ev);
    } else if (idx == EVT_TL_NONE && (ev->m.has & EVT_M_UNTIMED) && ev->kind != EVT_KIND_LOST) {
        /* a record without a time of its own before the trace's first (RKH's TCFG): a global
         * instant at the time it carries, outside every context */
        common(s, "i", ev->name, 1, tm);
        BUF_LIT(s, ",\"s\":\"g\",\"cat\":");
        buf_str_(s, evt_kind_name(ev->kind));
        args_end_(s, ev);
    }
    if (!s->wrote) return EVT_OK; /* only buffered: no new error to see (ferror is sticky) */
    s->wrote = 0;
    return ferror(s->out) ? EVT_ERR_IO : EVT_OK;
}

static void free_state(chrome_state *s)
{
    for (uint32_t i = 0; i < s->nctx; i++) evt_free(s->ctxs[i]);
    evt_free(s->ctxs);
    if (s->started) evt_tl_free(&s->tl);
    if (s->started) evt_ut_free(&s->ut);
    evt_an_load_free(&s->load);
    evt_u64map_free(&s->counters);
    evt_strtab_free(&s->cnames);
    evt_free(s);
}

static evt_status end(void *state, evt_reader *r, char *err, size_t errlen)
{
    (void)r;
    chrome_state *s = state;
    if (s->started || start_(s)) {
        evt_tl_finish(&s->tl);
        evt_an_load_finish(&s->load, &s->tl);
        evt_an_load_samples(&s->load, &s->tl, on_load, s);
        evt_ut_finish(&s->ut, s->tl.last);
        for (uint32_t i = 0; i < s->nctx; i++) {
            ctx_draw *d = s->ctxs[i];
            if (d && d->state_open) end_(s, STATE_TID_BASE + TID_OF(i), s->tl.last);
            /* a switch-in at the last time is a zero-length running state the timeline does
             * not report (on_state never closes it): its B needs its E */
            run_out_(s, i, s->tl.last);
        }
    }
    BUF_LIT(s, "\n]}\n");
    buf_flush_(s);
    int bad = ferror(s->out);
    int oom = s->oom || s->tl.oom || s->load.oom || s->ut.oom;
    if (fclose(s->out) != 0) bad = 1;
    free_state(s);
    if (oom) { snprintf(err, errlen, "out of memory"); return EVT_ERR_NOMEM; }
    if (bad) { snprintf(err, errlen, "write error"); return EVT_ERR_IO; }
    return EVT_OK;
}

static void abort_(void *state)
{
    chrome_state *s = state;
    fclose(s->out);
    free_state(s);
}

const evt_exporter_desc evt_exporter_chrome = {
    "chrome", ".json", "Chrome trace-event JSON (ui.perfetto.dev, chrome://tracing)", 0,
    begin, event, end, abort_, 1,
};
