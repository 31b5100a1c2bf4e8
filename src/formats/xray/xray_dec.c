/* LLVM XRay reader: FDR versions 1-5 and basic ("naive") versions 1-3 into canonical events.
 *
 * open() makes one validating pass over the file (constant memory per record) and keeps only a
 * small index: one entry per block (FDR buffer, or basic run of one thread's records) with its
 * thread, wall time and the offset where decoding must stop (a broken record, reported with its
 * offset). A file of one thread's FDR blocks in time order (the usual recording) is read once:
 * open() reads only each block's extents and preamble, and each block's records are validated as
 * the decoder starts it, in the window it decodes it from (scan_blocks). next() then decodes every thread's blocks in time order (by the block's WalltimeMarker)
 * through a small per-thread read window, and merges the threads by timestamp. Per-thread state:
 * running TSC (re-based by NewCPUId/TSCWrap), CPU, call stack (tail exits, unmatched exits and
 * entries left open are counted). The common record, an FDR function record, takes a short path in
 * both passes (index_fn_run; fn_fast, which emits it with no call while nothing unusual is met,
 * else fn_at + emit_fn); everything else the general parse.
 * Facts: shared/formats/xray.md. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/json.h"
#include "evtrace/reader.h"
#include "formats/common/cursor.h"
#include "formats/common/name_cache.h"
#include "formats/common/text_ok.h"
#include "host/event_reset.h"
#include "host/tick_ns.h"
#include "formats/xray/xray_defs.h"
#include "evtrace/user_defs.h"
#include "formats/user/user_dec.h"

#define EVT_USER_XRAY_MAX_WORDS 4096u /* a larger typed event is not a user record */
#include "formats/xray/xray_map.h"

#define XR_WIN   1024u          /* per-thread window when threads are many (down to XR_WIN_MIN) */
#define XR_WIN_MIN 64u          /* per-thread window when there are many threads (>= a basic record) */
#define XR_WIN_BUDGET (16u << 20) /* bytes of per-thread windows in all (picks the window size) */
#define XR_WIN_BIG (16u << 10)  /* the largest block the one-pass index takes (scan_blocks) */
#define XR_WIN_TOP (128u << 10) /* window of the index pass, and per thread when threads are few... */
#define XR_WIN_BIG_BUDGET (1u << 20) /* ...as long as they take at most this in all */
#define XR_NONE  UINT32_MAX
/* Limits on the index (docs/xray.md): past them a clear error names the limit and the rest is
 * counted as lost bytes. A thread costs about 400 bytes, a block 52: at the limits about 160 MB. */
#define XR_MAX_THREADS (1u << 18)
#define XR_MAX_BLOCKS  (1u << 20)
/* Call stack per thread: ids kept for the innermost XR_MAX_STACK open calls (deeper ones are
 * counted, their ids unknown), and an exit looks for its entry among the XR_POP_SEARCH innermost
 * (else it counts as unmatched): bounded work per record. */
#define XR_MAX_STACK   (1u << 16)
#define XR_POP_SEARCH  1024u
/* Function names of ids below this are found by index (8 bytes per id up to the largest id met;
 * clang numbers functions densely from 1); larger ids by the hash of fnames. */
#define XR_FN_DENSE    (1u << 20)
/* Out of the per-event path: the first meeting of a name, a stack that grows, a general parse. */
#define XR_COLD __attribute__((noinline, cold))
#define XR_HOT_INLINE inline __attribute__((always_inline)) /* the per-event path, one function */

/* Record counters of info --json "records": metadata kinds, then function kinds, then ArgPayload. */
enum { XR_C_MD = 0, XR_C_FN = XRAY_MD_COUNT_, XR_C_ARG = XRAY_MD_COUNT_ + XRAY_FN_COUNT_, XR_C_COUNT };

static const char *const k_md_key[] = {
#define XR_MDK_(k, n, key, lo, hi) key,
    XRAY_MD_TABLE(XR_MDK_)
#undef XR_MDK_
};
static const char *const k_fn_key[] = {
#define XR_FNK_(k, n, key, dn) key,
    XRAY_FN_TABLE(XR_FNK_)
#undef XR_FNK_
};
static const char *const k_fn_name[] = {
#define XR_FNN_(k, n, key, dn) dn,
    XRAY_FN_TABLE(XR_FNN_)
#undef XR_FNN_
};

/* A read window over the source. */
typedef struct xr_win {
    uint64_t off;   /* source offset of buf[0] */
    size_t len;     /* valid bytes in buf */
    uint32_t cap;   /* size of buf (XR_WIN_TOP or smaller) */
    uint8_t *buf;
    /* A thread's window: min(off + len, stop of the block being decoded), set by fn_at_end when
     * the thread's pos was in [off, that end); 0 when not known. A refill (win_get) and a new
     * block (thread_fill) clear it; pos only grows in between: the bytes [pos, fast_end) are in
     * buf at pos - off, and in the block. */
    uint64_t fast_end;
} xr_win;

/* One block: an FDR buffer or a basic run of records of one thread. */
typedef struct xr_block {
    uint64_t start;      /* first record (NewBuffer / first basic record) */
    uint64_t end;        /* end of the block's bytes (clamped to the file) */
    uint64_t stop;       /* decoding stops here: == end, or the offset of a broken record */
    uint64_t used;       /* end of the last valid record (v1: after EndOfBuffer) */
    int64_t wall_sec;    /* WalltimeMarker (FDR) */
    int32_t wall_usec;
    uint32_t thread;     /* index in threads[] */
} xr_block;

/* One thread (pid, tid) and its decoding state. */
/* A decoded record. */
typedef struct xr_rec {
    int md;              /* 1 metadata, 0 function (or basic record) */
    unsigned kind;       /* XRAY_MD_* / XRAY_FN_* */
    uint32_t size;       /* total bytes including an event payload */
    uint32_t fid;        /* function id */
    uint32_t delta;      /* function TSC delta */
    int32_t sdelta;      /* v5 custom/typed delta */
    uint64_t u64;        /* TSC, argument, extents, seconds */
    uint32_t u32;        /* tid, pid, usec, payload size */
    uint32_t cpu;
    int has_cpu;
    uint16_t etype;      /* typed event type */
    uint64_t payload;    /* offset of the event payload */
    uint32_t tid, pid;   /* basic records */
} xr_rec;

typedef struct xr_thread {
    uint32_t tid, pid;
    uint64_t counts[XR_C_COUNT];   /* records of this thread by kind */
    uint32_t first, nblocks;       /* its blocks: order[first .. first+nblocks) */
    uint32_t bi;                   /* next block to start */
    const xr_block *blk;           /* block being decoded, or NULL */
    uint64_t pos;                  /* next record offset in blk */
    int lost_done;                 /* the lost event of blk's broken tail was emitted */
    uint64_t tsc;                  /* running TSC */
    uint32_t cpu;
    int ready, done;               /* a next event is positioned at pos (ready), no more events */
    uint64_t next_ts;              /* timestamp of that event */
    int fn;                        /* FDR: that event is a function record, of fn_kind and fn_id */
    unsigned fn_kind;
    uint32_t fn_id;
    xr_win win;
    uint32_t *stack;               /* open function ids */
    uint32_t depth, cap;
    uint32_t max_depth;
    uint64_t unmatched_exits;      /* exits with no matching entry on the stack */
    uint64_t abandoned;            /* entries popped by an exit of an outer function */
    uint64_t events;               /* events emitted */
    char name[20];                 /* ctx_name: "thread TID" (at most 17 characters) */
    xr_rec peek;                   /* the record parse_at parsed last: at peek_pos of peek_blk */
    uint64_t peek_pos;
    const xr_block *peek_blk;      /* NULL: none */
} xr_thread;


typedef struct xr_state {
    evt_reader *r;
    uint16_t version, type;
    uint32_t bits;
    uint64_t freq, bufsize, reserved;
    evt_tick_ns tns; /* ticks to ns at freq, no division per event (freq != 0) */
    evt_tick_ns_sec sec; /* time_ns: the cached second (tick_ns.h) */
    unsigned fn_flags;             /* flags of a function record's event (EVT_HAS_TNS with a clock) */
    uint64_t fsize;
    uint64_t counts[XR_C_COUNT];
    xr_block *blocks;
    uint32_t nblocks, capblocks;
    uint32_t *order;               /* block indices by (thread, time, offset) */
    uint32_t dup_blocks;           /* FDR blocks skipped as byte-identical copies of the one before */
    xr_thread *threads;
    uint32_t nthreads, capthreads;
    uint32_t last_thread;          /* lookup cache */
    uint32_t *thash;               /* open addressing: thread index + 1 by (pid, tid); 0 = empty */
    uint32_t thash_cap;            /* power of two, > 2 * nthreads */
    uint64_t over_threads;         /* blocks skipped: their thread is past XR_MAX_THREADS */
    int over_blocks;               /* XR_MAX_BLOCKS reached: indexing stopped */
    int evtrace;                   /* the header carries evtrace's recorder mark */
    uint64_t lost_buffers;         /* from evtrace's header mark: buffers overwritten */
    uint64_t dropped;              /* from evtrace's header mark: records dropped */
    int dropped_saturated;         /* that field is 0xFFFFFFFF: at least that many */
    uint64_t unattributed_lost;    /* bytes of broken blocks whose thread is unknown */
    int global_lost_state;         /* 0: buffers lost, 1: records dropped, 2: bytes lost, 3: done */
    xray_map map;
    int have_map;
    char map_path[512];
    uint8_t *scratch;              /* event payloads larger than a window */
    size_t scratch_cap;
    char fnbuf[24];
    xr_win iwin;                   /* window of the index pass */
    int lazy;                      /* the blocks' records are checked as they are decoded (scan_blocks) */
    uint32_t nchecked;             /* lazy: blocks[0 .. nchecked) are checked (index_fdr_block) */
    int started;                   /* next() was called */
    uint32_t *heap;                /* merge: ready threads, min-heap by (next_ts, index) */
    uint32_t nheap;
    int heap_built;
    xr_thread *refill;             /* thread whose event was returned last (refilled next call) */
    evt_user_dec *user;            /* evtrace/user.h records in typed events (user_dec.c) */
    uint32_t *uwords;              /* one such record's words */
    evt_name_cache fnames;         /* function names by id that may be vouched for (fill_fn) */
    const char **fn_dense;         /* the same names by id < fn_dense_n (NULL: not met yet), no hash */
    uint32_t fn_dense_n;           /* at most XR_FN_DENSE */
    const char *vouched[4];        /* the current event's strings vouched for (text_ok.h) */
    unsigned nvouched;
} xr_state;

static void user_record(xr_state *s, uint16_t type, const uint8_t *p, uint32_t len, uint64_t off, evt_event *ev);
static void time_init(xr_state *s);

static const evt_reader_option k_opts[] = {
    {"instr-map", "FILE", "XRay instrumentation map: llvm-xray extract YAML, evtrace's map, or the instrumented ELF binary"},
    {"elf", "FILE", EVT_USER_ELF_OPTION_HELP},
    {NULL, NULL, NULL},
};

static int probe(const uint8_t *head, size_t len, uint64_t file_size)
{
    if (len < XRAY_HDR_SIZE || file_size < XRAY_HDR_SIZE) return 0;
    evt_cur c;
    evt_cur_init(&c, head, len, 0, 0);
    uint16_t v = evt_cur_u16le_at(&c, XRAY_HDR_VERSION), t = evt_cur_u16le_at(&c, XRAY_HDR_TYPE);
    if (t == XRAY_TYPE_FDR && v >= XRAY_FDR_VERSION_MIN && v <= XRAY_FDR_VERSION_MAX) {
        /* v2+: a BufferExtents record follows; v1: a NewBuffer record. */
        if (len > XRAY_HDR_SIZE) {
            uint8_t b = evt_cur_u8_at(&c, XRAY_HDR_SIZE);
            if (b != XRAY_MD_BYTE0(v >= 2 ? XRAY_MD_BUFFER_EXTENTS : XRAY_MD_NEW_BUFFER)) return 30;
        }
        return 80;
    }
    if (t == XRAY_TYPE_BASIC && v >= XRAY_BASIC_VERSION_MIN && v <= XRAY_BASIC_VERSION_MAX) {
        /* The first record is a function record (type 0, kind 0-3). */
        if (len >= XRAY_HDR_SIZE + 4 &&
            (evt_cur_u16le_at(&c, XRAY_HDR_SIZE) != XRAY_BASIC_FUNCTION || evt_cur_u8_at(&c, XRAY_HDR_SIZE + XRAY_BASIC_FN_TYPE) >= XRAY_FN_COUNT_))
            return 0;
        if (evt_cur_u64le_at(&c, XRAY_HDR_FREQ) == 0) return 10;
        return ((file_size - XRAY_HDR_SIZE) % XRAY_BASIC_REC_SIZE == 0) ? 60 : 20;
    }
    return 0;
}

/* Pointer to n bytes at off through window w, or NULL when they are not in the file. */
static const uint8_t *win_get(xr_state *s, xr_win *w, uint64_t off, size_t n)
{
    if (n > w->cap || off > s->fsize || n > s->fsize - off) return NULL;
    if (w->len && off >= w->off && off - w->off + n <= w->len) return w->buf + (off - w->off);
    w->off = off;
    w->len = evt_source_read_at(&s->r->src, off, w->buf, w->cap);
    w->fast_end = 0;
    return n <= w->len ? w->buf : NULL;
}

/* A cursor over the n bytes at off through window w (base = off); 0 when they are not in the file. */
static int win_cur(xr_state *s, xr_win *w, uint64_t off, size_t n, evt_cur *c)
{
    const uint8_t *p = win_get(s, w, off, n);
    evt_cur_init(c, p, p ? n : 0, off, 0);
    return p != NULL;
}

static const char *md_key(unsigned k) { return k < XRAY_MD_COUNT_ ? k_md_key[k] : "?"; }

/* Parse the FDR record at off (bytes up to `end` belong to the block). Returns 1 on success; 0 on
 * a broken record with a message in msg. */
static int parse_fdr(xr_state *s, xr_win *w, uint64_t off, uint64_t end, xr_rec *rec, char *msg, size_t mlen)
{
    memset(rec, 0, sizeof *rec);
    evt_cur c;
    /* the common case first: a whole function record of a known kind, one window look-up */
    if (off < end && end - off >= XRAY_FN_REC_SIZE && win_cur(s, w, off, XRAY_FN_REC_SIZE, &c) &&
        !(evt_cur_peek(&c) & XRAY_MD_BIT)) {
        uint32_t word = evt_cur_u32le(&c);
        if (((word >> 1) & 7u) < XRAY_FN_COUNT_) {
            rec->kind = (word >> 1) & 7u;
            rec->fid = word >> 4;
            rec->delta = evt_cur_u32le(&c);
            rec->size = XRAY_FN_REC_SIZE;
            return 1;
        }
    }
    const char *limit = end >= s->fsize ? "the file ends" : "its block ends";
    if (!win_cur(s, w, off, 1, &c) || off >= end) { snprintf(msg, mlen, "no record at offset %" PRIu64 ": %s at %" PRIu64, off, limit, end); return 0; }
    uint8_t b0 = evt_cur_u8(&c);
    if (!(b0 & XRAY_MD_BIT)) {
        if (end - off < XRAY_FN_REC_SIZE || !win_cur(s, w, off, XRAY_FN_REC_SIZE, &c)) {
            snprintf(msg, mlen, "function record truncated: needs %u bytes, %s at offset %" PRIu64, XRAY_FN_REC_SIZE, limit, end);
            return 0;
        }
        uint32_t word = evt_cur_u32le(&c);
        rec->kind = (word >> 1) & 7u;
        rec->fid = word >> 4;
        rec->delta = evt_cur_u32le(&c);
        rec->size = XRAY_FN_REC_SIZE;
        if (rec->kind >= XRAY_FN_COUNT_) {
            snprintf(msg, mlen, "unknown function record type %u (word 0x%08" PRIx32 "; known: 0 enter, 1 exit, 2 tail exit, 3 enter with args)", rec->kind, word);
            return 0;
        }
        return 1;
    }
    rec->md = 1;
    rec->kind = b0 >> 1;
    if (end - off < XRAY_MD_REC_SIZE || !win_cur(s, w, off, XRAY_MD_REC_SIZE, &c)) {
        snprintf(msg, mlen, "%s metadata record truncated: needs 16 bytes, %s at offset %" PRIu64,
                 rec->kind < XRAY_MD_COUNT_ ? md_key(rec->kind) : "unknown", limit, end);
        return 0;
    }
    rec->size = XRAY_MD_REC_SIZE;
    switch (rec->kind) {
    case XRAY_MD_NEW_BUFFER: rec->u32 = evt_cur_u32le_at(&c, XRAY_MD_NEWBUF_TID); break;
    case XRAY_MD_END_OF_BUFFER:
        if (s->version >= 2) {
            snprintf(msg, mlen, "EndOfBuffer record in a version %u file (EndOfBuffer exists only in FDR version 1)", s->version);
            return 0;
        }
        break;
    case XRAY_MD_NEW_CPU_ID:
        rec->cpu = evt_cur_u16le_at(&c, XRAY_MD_NEWCPU_CPU);
        rec->u64 = evt_cur_u64le_at(&c, XRAY_MD_NEWCPU_TSC);
        break;
    case XRAY_MD_TSC_WRAP: rec->u64 = evt_cur_u64le_at(&c, XRAY_MD_TSCWRAP_TSC); break;
    case XRAY_MD_WALLTIME:
        rec->u64 = evt_cur_u64le_at(&c, XRAY_MD_WALL_SEC);
        rec->u32 = evt_cur_u32le_at(&c, XRAY_MD_WALL_USEC);
        break;
    case XRAY_MD_CALL_ARGUMENT: rec->u64 = evt_cur_u64le_at(&c, XRAY_MD_CALLARG_VALUE); break;
    case XRAY_MD_BUFFER_EXTENTS: rec->u64 = evt_cur_u64le_at(&c, XRAY_MD_EXTENTS_SIZE); break;
    case XRAY_MD_PID: rec->u32 = evt_cur_u32le_at(&c, XRAY_MD_PID_PID); break;
    case XRAY_MD_CUSTOM_EVENT:
    case XRAY_MD_TYPED_EVENT: {
        int32_t sz = (int32_t)evt_cur_u32le_at(&c, XRAY_MD_CUSTOM_SIZE);
        if (rec->kind == XRAY_MD_CUSTOM_EVENT) {
            if (s->version >= 5) {
                rec->sdelta = (int32_t)evt_cur_u32le_at(&c, XRAY_MD_CUSTOM_DELTA);
            } else {
                rec->u64 = evt_cur_u64le_at(&c, XRAY_MD_CUSTOM_TSC);
                if (s->version == 4) { rec->cpu = evt_cur_u16le_at(&c, XRAY_MD_CUSTOM_CPU); rec->has_cpu = 1; }
            }
        } else {
            rec->sdelta = (int32_t)evt_cur_u32le_at(&c, XRAY_MD_TYPED_DELTA);
            rec->etype = evt_cur_u16le_at(&c, XRAY_MD_TYPED_TYPE);
        }
        if (sz <= 0) {
            snprintf(msg, mlen, "%s with invalid payload size %" PRId32 " (must be > 0)", md_key(rec->kind), sz);
            return 0;
        }
        if ((uint64_t)sz > end - off - XRAY_MD_REC_SIZE) {
            snprintf(msg, mlen, "%s payload of %" PRId32 " bytes at offset %" PRIu64 " crosses the end: %s at offset %" PRIu64,
                     md_key(rec->kind), sz, off + XRAY_MD_REC_SIZE, limit, end);
            return 0;
        }
        rec->u32 = (uint32_t)sz;
        rec->payload = off + XRAY_MD_REC_SIZE;
        rec->size = XRAY_MD_REC_SIZE + (uint32_t)sz;
        break;
    }
    default:
        snprintf(msg, mlen, "unknown metadata record type %u (byte 0x%02x; known types 0-9)", rec->kind, b0);
        return 0;
    }
    return 1;
}

/* parse_fdr of t's record at t->pos in t->blk, parsed once: the look-ahead for call arguments,
 * thread_fill and thread_emit all ask for the same record in turn. */
static int parse_at(xr_state *s, xr_thread *t, xr_rec *rec, char *msg, size_t mlen)
{
    if (t->peek_blk == t->blk && t->peek_pos == t->pos) {
        *rec = t->peek;
        return 1;
    }
    if (!parse_fdr(s, &t->win, t->pos, t->blk->stop, rec, msg, mlen)) return 0;
    t->peek = *rec;
    t->peek_pos = t->pos;
    t->peek_blk = t->blk;
    return 1;
}

/* ---- threads and blocks ----------------------------------------------------------------------- */

static uint32_t thash_slot(const xr_state *s, uint32_t pid, uint32_t tid)
{
    uint64_t h = (((uint64_t)pid << 32) | tid) * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(h >> 32) & (s->thash_cap - 1);
}

/* Rebuild the hash at twice the size. Invariant: thash_cap > 2 * nthreads (load < 1/2). */
static int thash_grow(xr_state *s)
{
    uint32_t nc = s->thash_cap ? s->thash_cap * 2 : 64;
    uint32_t *v = evt_calloc(nc, sizeof *v);
    if (!v) return 0;
    evt_free(s->thash);
    s->thash = v;
    s->thash_cap = nc;
    for (uint32_t i = 0; i < s->nthreads; i++) {
        uint32_t k = thash_slot(s, s->threads[i].pid, s->threads[i].tid);
        while (s->thash[k]) k = (k + 1) & (nc - 1);
        s->thash[k] = i + 1;
    }
    return 1;
}

/* Index of thread (pid, tid), added if new. XR_NONE when memory is short; XR_MAX_THREADS (never a
 * valid index) when the thread is new and the thread limit is reached. */
static uint32_t thread_of(xr_state *s, uint32_t pid, uint32_t tid)
{
    if (s->last_thread < s->nthreads && s->threads[s->last_thread].tid == tid && s->threads[s->last_thread].pid == pid)
        return s->last_thread;
    if (s->thash_cap <= 2 * s->nthreads + 2 && !thash_grow(s)) return XR_NONE;
    uint32_t k = thash_slot(s, pid, tid);
    for (; s->thash[k]; k = (k + 1) & (s->thash_cap - 1)) {
        const xr_thread *t = &s->threads[s->thash[k] - 1];
        if (t->tid == tid && t->pid == pid) return s->last_thread = s->thash[k] - 1;
    }
    if (s->nthreads >= XR_MAX_THREADS) return XR_MAX_THREADS;
    if (s->nthreads == s->capthreads) {
        uint32_t nc = s->capthreads ? s->capthreads * 2 : 8;
        xr_thread *v = evt_realloc(s->threads, (size_t)nc * sizeof *v);
        if (!v) return XR_NONE;
        s->threads = v;
        s->capthreads = nc;
    }
    xr_thread *t = &s->threads[s->nthreads];
    memset(t, 0, sizeof *t);
    t->tid = tid;
    t->pid = pid;
    snprintf(t->name, sizeof t->name, "thread %" PRIu32, tid);
    s->thash[k] = s->nthreads + 1;
    return s->last_thread = s->nthreads++;
}

/* A new block, or NULL when memory is short or XR_MAX_BLOCKS is reached (s->over_blocks set). */
static xr_block *new_block(xr_state *s)
{
    if (s->nblocks >= XR_MAX_BLOCKS) { s->over_blocks = 1; return NULL; }
    if (s->nblocks == s->capblocks) {
        uint32_t nc = s->capblocks ? s->capblocks * 2 : 16;
        xr_block *v = evt_realloc(s->blocks, (size_t)nc * sizeof *v);
        if (!v) return NULL;
        s->blocks = v;
        s->capblocks = nc;
    }
    xr_block *b = &s->blocks[s->nblocks++];
    memset(b, 0, sizeof *b);
    b->thread = XR_NONE;
    return b;
}

/* Grammar states of one FDR block (BlockVerifier's, state = last record). */
enum { G_START, G_NEWBUF, G_WALL, G_PID, G_BODY, G_FN, G_ARG, G_EOB };
static const char *const k_gname[] = {"block start", "NewBuffer", "WalltimeMarker", "Pid", "NewCPUId/TSCWrap/event", "function record", "CallArgument", "EndOfBuffer"};

static void count(xr_state *s, xr_block *b, unsigned c)
{
    s->counts[c]++;
    if (b && b->thread != XR_NONE) s->threads[b->thread].counts[c]++;
}

/* The run of whole function records of known kinds at off in block b (the bulk of a block),
 * validated and counted without the general parse: the bytes it takes (a multiple of 8; at most one
 * window), 0 when the record at off is not one. Only where function records may follow (after
 * NewCPUId): b's thread is known there. */
static uint64_t index_fn_run(xr_state *s, xr_block *b, uint64_t off, xr_win *w)
{
    uint64_t avail = b->end - off;
    if (avail > w->cap) avail = w->cap;
    if (avail > 0xFFFFu * XRAY_FN_REC_SIZE) avail = 0xFFFFu * XRAY_FN_REC_SIZE; /* lanes below */
    avail -= avail % XRAY_FN_REC_SIZE;
    evt_cur c;
    if (avail == 0 || !win_cur(s, w, off, avail, &c)) return 0;
    /* the records of each kind, counted in a register: four 16-bit lanes (kind k in bits 16k..16k+15;
     * a run has fewer than 2^16 records, above), so that a kind met twice in a row waits for no store */
    uint64_t lanes = 0, took = 0;
    while (evt_cur_left(&c) >= XRAY_FN_REC_SIZE) {
        uint32_t word = evt_cur_u32le(&c);
        /* metadata, or kind >= XRAY_FN_COUNT_ (4: its bit 2, word bit 3): the general parse's */
        if (word & (XRAY_MD_BIT | 8u)) break;
        evt_cur_skip(&c, 4); /* the TSC delta: the decoder's */
        lanes += 1ull << ((word & 6u) << 3); /* kind (word bits 1-2) * 16 */
        took += XRAY_FN_REC_SIZE;
    }
    for (unsigned i = 0; i < XRAY_FN_COUNT_; i++) {
        uint64_t k = (lanes >> (16u * i)) & 0xFFFFu;
        s->counts[XR_C_FN + i] += k;
        if (b->thread != XR_NONE) s->threads[b->thread].counts[XR_C_FN + i] += k;
    }
    return took;
}

/* Validate the records of block b in [b->start, b->end), read through window w; sets b->stop, the
 * thread (unless known: check_block) and wall time. Returns EVT_OK, or EVT_ERR_NOMEM. */
static evt_status index_fdr_block(xr_state *s, xr_block *b, xr_win *w)
{
    int g = G_START;
    uint64_t off = b->start;
    uint32_t tid = 0, pid = 0;
    uint64_t pre[3] = {0, 0, 0}; /* counts of NewBuffer, Walltime, Pid before the thread is known */
    char msg[200];
    xr_rec rec;
    b->stop = b->end;
    while (off < b->end) {
        if (g == G_EOB) break; /* v1: the rest of the buffer is unused */
        b->used = off;
        if (g == G_BODY || g == G_FN || g == G_ARG) {
            uint64_t n = index_fn_run(s, b, off, w);
            if (n) {
                off += n;
                b->used = off;
                g = G_FN;
                continue;
            }
        }
        if (!parse_fdr(s, w, off, b->end, &rec, msg, sizeof msg)) goto bad;
        unsigned k = rec.kind;
        int ok;
        if (!rec.md) {
            ok = (g == G_BODY || g == G_FN || g == G_ARG);
            if (!ok) {
                snprintf(msg, sizeof msg, "%s function record after %s: a block needs NewBuffer, WalltimeMarker, [Pid,] NewCPUId before function records",
                         k_fn_key[k], k_gname[g]);
                goto bad;
            }
            g = G_FN;
        } else {
            switch (k) {
            case XRAY_MD_NEW_BUFFER: ok = (g == G_START); if (ok) { tid = rec.u32; g = G_NEWBUF; } break;
            case XRAY_MD_WALLTIME: ok = (g == G_NEWBUF); if (ok) { b->wall_sec = (int64_t)rec.u64; b->wall_usec = (int32_t)rec.u32; g = G_WALL; } break;
            case XRAY_MD_PID: ok = (g == G_WALL); if (ok) { pid = rec.u32; g = G_PID; } break;
            case XRAY_MD_CALL_ARGUMENT: ok = (g == G_FN || g == G_ARG); if (ok) g = G_ARG; break;
            case XRAY_MD_BUFFER_EXTENTS: ok = 0; break;
            default: /* NewCPUId, TSCWrap, events, EndOfBuffer */
                ok = (g == G_BODY || g == G_FN || g == G_ARG) || (k == XRAY_MD_NEW_CPU_ID && (g == G_WALL || g == G_PID));
                if (ok) g = (k == XRAY_MD_END_OF_BUFFER) ? G_EOB : G_BODY;
                break;
            }
            if (!ok) {
                if (g == G_START)
                    snprintf(msg, sizeof msg, "block starts with a %s record, expected NewBuffer", md_key(k));
                else
                    snprintf(msg, sizeof msg, "%s record not allowed after %s", md_key(k), k_gname[g]);
                goto bad;
            }
        }
        /* The thread is known once the preamble is complete. */
        if (b->thread == XR_NONE && (g == G_BODY || g == G_EOB)) {
            if (s->version == 2) pid = tid; /* v2 has no Pid record (llvm-xray: pid := tid) */
            b->thread = thread_of(s, pid, tid);
            if (b->thread == XR_NONE) return evt_reader_fail(s->r, EVT_ERR_NOMEM, off, "out of memory");
            if (b->thread == XR_MAX_THREADS) { /* not decoded: counted lost */
                b->thread = XR_NONE;
                b->stop = b->start;
                s->unattributed_lost += b->end - b->start;
                if (s->over_threads++ == 0)
                    evt_reader_error(s->r, b->start, "thread limit reached: more than %u threads (pid, tid); blocks of further threads are skipped and counted lost", XR_MAX_THREADS);
                return EVT_OK;
            }
            xr_thread *t = &s->threads[b->thread];
            t->counts[XR_C_MD + XRAY_MD_NEW_BUFFER] += pre[0];
            t->counts[XR_C_MD + XRAY_MD_WALLTIME] += pre[1];
            t->counts[XR_C_MD + XRAY_MD_PID] += pre[2];
        }
        if (rec.md) {
            if (b->thread == XR_NONE && (k == XRAY_MD_NEW_BUFFER || k == XRAY_MD_WALLTIME || k == XRAY_MD_PID)) {
                pre[k == XRAY_MD_NEW_BUFFER ? 0 : k == XRAY_MD_WALLTIME ? 1 : 2]++;
                s->counts[XR_C_MD + k]++;
            } else {
                count(s, b, XR_C_MD + k);
            }
        } else {
            count(s, b, XR_C_FN + k);
        }
        off += rec.size;
        b->used = off;
    }
    if (g == G_START || g == G_NEWBUF || g == G_WALL || g == G_PID) {
        snprintf(msg, sizeof msg, "block of %" PRIu64 " bytes ends after its %s record (no NewCPUId): malformed block",
                 b->end - b->start, k_gname[g]);
        off = b->end;
        goto bad_end;
    }
    return EVT_OK;
bad:
    b->stop = off;
bad_end:
    evt_reader_error(s->r, off, "%s", msg);
    if (b->thread == XR_NONE) s->unattributed_lost += b->end - b->start;
    return EVT_OK;
}

/* v1 without a usable buffer size: the next block starts at the next NewBuffer+WalltimeMarker. */
static uint64_t v1_find_block(xr_state *s, uint64_t from)
{
    for (uint64_t o = from; o + 2 * XRAY_MD_REC_SIZE <= s->fsize; o++) {
        evt_cur c;
        if (win_cur(s, &s->iwin, o, 2 * XRAY_MD_REC_SIZE, &c) && evt_cur_u8_at(&c, 0) == XRAY_MD_BYTE0(XRAY_MD_NEW_BUFFER) &&
            evt_cur_u8_at(&c, XRAY_MD_REC_SIZE) == XRAY_MD_BYTE0(XRAY_MD_WALLTIME))
            return o;
    }
    return s->fsize;
}

static evt_status index_fdr(xr_state *s)
{
    evt_reader *r = s->r;
    uint64_t off = XRAY_HDR_SIZE;
    int v1_sized = (s->version == 1 && s->bufsize >= 3 * XRAY_MD_REC_SIZE);
    while (off < s->fsize) {
        uint64_t bstart, bend;
        if (s->version >= 2) {
            evt_cur c;
            if (!win_cur(s, &s->iwin, off, 1, &c)) break;
            if (evt_cur_u8(&c) != XRAY_MD_BYTE0(XRAY_MD_BUFFER_EXTENTS)) {
                uint64_t o = off;
                while (o < s->fsize && win_cur(s, &s->iwin, o, 1, &c) && evt_cur_u8(&c) != XRAY_MD_BYTE0(XRAY_MD_BUFFER_EXTENTS)) o++;
                evt_reader_error(r, off, "%" PRIu64 " bytes that are not a BufferExtents record (0x0f) where a block must start; skipped", o - off);
                s->unattributed_lost += o - off;
                off = o;
                if (off >= s->fsize) break;
            }
            if (s->fsize - off < XRAY_MD_REC_SIZE) {
                evt_reader_error(r, off, "BufferExtents record truncated: %" PRIu64 " of 16 bytes before the end of the file", s->fsize - off);
                s->unattributed_lost += s->fsize - off;
                break;
            }
            win_cur(s, &s->iwin, off, XRAY_MD_REC_SIZE, &c); /* in the file: checked above */
            uint64_t n = evt_cur_u64le_at(&c, XRAY_MD_EXTENTS_SIZE);
            s->counts[XR_C_MD + XRAY_MD_BUFFER_EXTENTS]++;
            bstart = off + XRAY_MD_REC_SIZE;
            if (n > s->fsize - bstart) {
                evt_reader_error(r, off, "BufferExtents says %" PRIu64 " bytes follow, but the file has only %" PRIu64 " more (ends at offset %" PRIu64 ")",
                                 n, s->fsize - bstart, s->fsize);
                bend = s->fsize;
            } else {
                bend = bstart + n;
            }
            off = bend;
            if (n == 0) continue;
        } else {
            bstart = off;
            bend = v1_sized ? (s->bufsize <= s->fsize - off ? off + s->bufsize : s->fsize) : s->fsize;
            if (v1_sized && s->bufsize > s->fsize - off)
                evt_reader_error(r, off, "version 1 buffer of %" PRIu64 " bytes (header buffer size) truncated: the file ends at offset %" PRIu64,
                                 s->bufsize, s->fsize);
            off = bend;
        }
        xr_block *b = new_block(s);
        if (!b && s->over_blocks) {
            evt_reader_error(r, bstart, "block limit reached: more than %u blocks; the %" PRIu64 " bytes from offset %" PRIu64 " on are not decoded (counted lost)",
                             XR_MAX_BLOCKS, s->fsize - bstart, bstart);
            s->unattributed_lost += s->fsize - bstart;
            break;
        }
        if (!b) return evt_reader_fail(r, EVT_ERR_NOMEM, bstart, "out of memory indexing blocks");
        b->start = bstart;
        b->end = bend;
        evt_status st = index_fdr_block(s, b, &s->iwin);
        if (st != EVT_OK) return st;
        if (s->version == 1 && !v1_sized) {
            /* v1 without a usable buffer size: the block ends at its EndOfBuffer (or a broken
             * record); the next one starts at the next NewBuffer + WalltimeMarker pair. */
            if (b->stop < b->end) { off = v1_find_block(s, b->stop + 1); b->end = off; }
            else if (b->used < b->end) { off = v1_find_block(s, b->used); b->end = b->stop = off; }
        }
    }
    if (s->nblocks == 0) evt_reader_error(r, XRAY_HDR_SIZE, "no blocks: the file holds only the header (llvm-xray rejects it)");
    return EVT_OK;
}

/* The preamble of block b (NewBuffer, WalltimeMarker, [Pid,] NewCPUId: what index_fdr_block
 * needs to know the thread), read through w: 1 with b's thread and wall time set, 0 when it is
 * anything else (index_fdr_block would report it) or its thread cannot be added. Reports nothing,
 * counts nothing. */
static int scan_preamble(xr_state *s, xr_block *b, xr_win *w)
{
    static const unsigned k_want[] = {XRAY_MD_NEW_BUFFER, XRAY_MD_WALLTIME, XRAY_MD_PID, XRAY_MD_NEW_CPU_ID};
    char msg[200];
    xr_rec rec;
    uint64_t off = b->start;
    uint32_t tid = 0, pid = 0;
    for (unsigned i = 0; i < 4; i++) {
        if (!parse_fdr(s, w, off, b->end, &rec, msg, sizeof msg) || !rec.md) return 0;
        if (i == 2 && rec.kind == XRAY_MD_NEW_CPU_ID) i++; /* no Pid record */
        if (rec.kind != k_want[i]) return 0;
        if (i == 0) tid = rec.u32;
        if (i == 1) { b->wall_sec = (int64_t)rec.u64; b->wall_usec = (int32_t)rec.u32; }
        if (i == 2) pid = rec.u32;
        off += rec.size;
    }
    if (s->version == 2) pid = tid; /* as index_fdr_block */
    uint32_t th = thread_of(s, pid, tid);
    if (th == XR_NONE || th == XR_MAX_THREADS) return 0;
    b->thread = th;
    return 1;
}

/* The index of an FDR file of version 2+ that reads only each block's BufferExtents record and
 * preamble (80 bytes), not its records, when that gives what index_fdr would: the file is a chain
 * of blocks with no problem there, of one thread, in time order, each within a thread's window.
 * Then (s->lazy) each block's records are checked (index_fdr_block: b->stop, its reports, the
 * counts) when the decoder starts it, through the window it decodes it from (check_block): the
 * file is read once, and the reports come in the order index_fdr gives them, the blocks being
 * checked in file order. Returns 1 so; 0 (the index as open found it: no block, no thread, no
 * count) when index_fdr must read the file. */
static int scan_blocks(xr_state *s)
{
    uint8_t buf[XRAY_MD_REC_SIZE + 4 * XRAY_MD_REC_SIZE];
    xr_win w = {0, 0, sizeof buf, buf, 0};
    uint64_t off = XRAY_HDR_SIZE, extents = 0;
    int ok = s->version >= 2;
    while (ok && off < s->fsize) {
        evt_cur c;
        if (s->fsize - off < XRAY_MD_REC_SIZE || !win_cur(s, &w, off, XRAY_MD_REC_SIZE, &c) ||
            evt_cur_u8(&c) != XRAY_MD_BYTE0(XRAY_MD_BUFFER_EXTENTS)) { ok = 0; break; }
        uint64_t n = evt_cur_u64le_at(&c, XRAY_MD_EXTENTS_SIZE), bstart = off + XRAY_MD_REC_SIZE;
        extents++;
        if (n > s->fsize - bstart || n > XR_WIN_BIG) { ok = 0; break; }
        off = bstart + n;
        if (n == 0) continue;
        xr_block *b = new_block(s);
        if (!b) { ok = 0; break; }
        b->start = bstart;
        b->end = b->stop = off;
        const xr_block *p = s->nblocks > 1 ? b - 1 : NULL;
        ok = scan_preamble(s, b, &w) && s->nthreads == 1 &&
             (!p || p->wall_sec < b->wall_sec || (p->wall_sec == b->wall_sec && p->wall_usec <= b->wall_usec));
    }
    if (!ok || s->nblocks == 0) { /* back to nothing known */
        s->nblocks = 0;
        s->over_blocks = 0;
        s->nthreads = 0;
        s->last_thread = XR_NONE;
        if (s->thash) memset(s->thash, 0, (size_t)s->thash_cap * sizeof *s->thash);
        return 0;
    }
    s->counts[XR_C_MD + XRAY_MD_BUFFER_EXTENTS] += extents;
    s->lazy = 1;
    return 1;
}

/* Lazy index: check block b, which thread t starts, through t's window, when it is the next one
 * to check (blocks are checked in file order: check_rest may have checked it already). */
static void check_block(xr_state *s, xr_thread *t, xr_block *b)
{
    if (b != &s->blocks[s->nchecked]) return;
    s->nchecked++;
    win_get(s, &t->win, b->start, b->end - b->start); /* the whole block (scan_blocks): one read */
    index_fdr_block(s, b, &t->win); /* the thread is known: EVT_OK */
}

/* Lazy index: check every block not checked yet, through the index window: before anything else
 * is reported, or the events may stop early (so reports and counts are index_fdr's). */
static void check_rest(xr_state *s)
{
    while (s->lazy && s->nchecked < s->nblocks) index_fdr_block(s, &s->blocks[s->nchecked++], &s->iwin);
}

/* Basic mode: validate records, group runs of one thread into blocks. */
static evt_status index_basic(xr_state *s)
{
    evt_reader *r = s->r;
    uint64_t data = s->fsize - XRAY_HDR_SIZE;
    uint64_t nrec = data / XRAY_BASIC_REC_SIZE;
    s->unattributed_lost += data % XRAY_BASIC_REC_SIZE;
    if (data % XRAY_BASIC_REC_SIZE)
        evt_reader_error(r, XRAY_HDR_SIZE + nrec * XRAY_BASIC_REC_SIZE,
                         "file size %" PRIu64 " is not 32 + a multiple of 32: the last record is truncated (%" PRIu64 " bytes)",
                         s->fsize, data % XRAY_BASIC_REC_SIZE);
    if (nrec == 0) evt_reader_error(r, XRAY_HDR_SIZE, "no records after the header");
    xr_block *b = NULL;
    uint32_t prev_fid = 0, prev_tid = 0, prev_pid = 0;
    int prev_fn = 0, in_zero = 0;
    for (uint64_t i = 0; i < nrec; i++) {
        uint64_t off = XRAY_HDR_SIZE + i * XRAY_BASIC_REC_SIZE;
        evt_cur c;
        if (!win_cur(s, &s->iwin, off, XRAY_BASIC_REC_SIZE, &c)) return evt_reader_fail(r, EVT_ERR_IO, off, "read error");
        uint16_t rt = evt_cur_u16le_at(&c, XRAY_BASIC_RECTYPE);
        if (rt == XRAY_BASIC_FUNCTION) {
            unsigned k = evt_cur_u8_at(&c, XRAY_BASIC_FN_TYPE);
            uint32_t tid = evt_cur_u32le_at(&c, XRAY_BASIC_FN_TID);
            uint32_t pid = s->version >= 3 ? evt_cur_u32le_at(&c, XRAY_BASIC_FN_PID) : 0;
            if (evt_cur_u32le_at(&c, XRAY_BASIC_FN_FUNC) == 0) {
                /* ids start at 1 (the instrumentation map's first entry): a zero-filled tail or a
                   damaged record, one error per run of them (before 7 Dec 2026: events of
                   "function #0") */
                if (!in_zero)
                    evt_reader_error(r, off, "function id 0 in a basic record (ids start at 1: zero-filled or damaged); it and the records of id 0 right after it are skipped");
                in_zero = 1;
                s->unattributed_lost += XRAY_BASIC_REC_SIZE;
                prev_fn = 0;
                continue;
            }
            in_zero = 0;
            if (k >= XRAY_FN_COUNT_) {
                evt_reader_error(r, off, "unknown function record type %u in a basic record (known 0-3); record skipped", k);
                s->unattributed_lost += XRAY_BASIC_REC_SIZE;
                prev_fn = 0;
                continue;
            }
            uint32_t th = thread_of(s, pid, tid);
            if (th == XR_NONE) return evt_reader_fail(r, EVT_ERR_NOMEM, off, "out of memory");
            if (th == XR_MAX_THREADS) {
                if (s->over_threads++ == 0)
                    evt_reader_error(r, off, "thread limit reached: more than %u threads (pid, tid); records of further threads are skipped and counted lost", XR_MAX_THREADS);
                s->unattributed_lost += XRAY_BASIC_REC_SIZE;
                prev_fn = 0;
                continue;
            }
            if (!b || b->thread != th) {
                if (b) b->end = b->stop = off;
                b = new_block(s);
                if (!b && s->over_blocks) {
                    evt_reader_error(r, off, "block limit reached: more than %u runs of one thread's records; the %" PRIu64 " bytes from offset %" PRIu64 " on are not decoded (counted lost)",
                                     XR_MAX_BLOCKS, s->fsize - off, off);
                    s->unattributed_lost += XRAY_HDR_SIZE + nrec * XRAY_BASIC_REC_SIZE - off;
                    return EVT_OK;
                }
                if (!b) return evt_reader_fail(r, EVT_ERR_NOMEM, off, "out of memory");
                b->start = off;
                b->thread = th;
            }
            count(s, b, XR_C_FN + k);
            prev_fn = 1;
            prev_fid = evt_cur_u32le_at(&c, XRAY_BASIC_FN_FUNC);
            prev_tid = tid;
            prev_pid = pid;
        } else if (rt == XRAY_BASIC_ARG_PAYLOAD) {
            in_zero = 0;
            uint32_t fid = evt_cur_u32le_at(&c, XRAY_BASIC_ARG_FUNC), tid = evt_cur_u32le_at(&c, XRAY_BASIC_ARG_TID);
            uint32_t pid = s->version >= 3 ? evt_cur_u32le_at(&c, XRAY_BASIC_ARG_PID) : 0;
            if (!prev_fn || fid != prev_fid || tid != prev_tid || pid != prev_pid) {
                evt_reader_error(r, off, "argument payload (function %" PRIu32 ", thread %" PRIu32 ") does not follow a function record of the same function and thread; skipped",
                                 fid, tid);
                s->unattributed_lost += XRAY_BASIC_REC_SIZE;
                continue;
            }
            count(s, b, XR_C_ARG);
        } else {
            in_zero = 0;
            evt_reader_error(r, off, "unknown basic record type %u (known: 0 function, 1 argument payload); record skipped", rt);
            s->unattributed_lost += XRAY_BASIC_REC_SIZE;
            prev_fn = 0;
        }
    }
    if (b) b->end = b->stop = XRAY_HDR_SIZE + nrec * XRAY_BASIC_REC_SIZE;
    return EVT_OK;
}

static xr_state *g_sort_state; /* qsort has no context argument */

static int cmp_block(const void *a, const void *b)
{
    const xr_block *x = &g_sort_state->blocks[*(const uint32_t *)a], *y = &g_sort_state->blocks[*(const uint32_t *)b];
    if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
    if (g_sort_state->type == XRAY_TYPE_FDR) {
        if (x->wall_sec != y->wall_sec) return x->wall_sec < y->wall_sec ? -1 : 1;
        if (x->wall_usec != y->wall_usec) return x->wall_usec < y->wall_usec ? -1 : 1;
    }
    return (x->start > y->start) - (x->start < y->start);
}

static evt_status build_order(xr_state *s)
{
    uint32_t n = 0;
    s->order = evt_calloc(s->nblocks ? s->nblocks : 1, sizeof *s->order);
    if (!s->order) return evt_reader_fail(s->r, EVT_ERR_NOMEM, 0, "out of memory");
    for (uint32_t i = 0; i < s->nblocks; i++)
        if (s->blocks[i].thread != XR_NONE) s->order[n++] = i;
    g_sort_state = s;
    qsort(s->order, n, sizeof *s->order, cmp_block);
    g_sort_state = NULL;
    if (s->type == XRAY_TYPE_FDR && n > 1) {
        /* A block repeated byte for byte (a file concatenated with itself, a buffer flushed twice)
         * sorts next to its original (same thread and WalltimeMarker): its records would be
         * decoded twice, so it is reported and skipped. */
        uint32_t k = 1;
        for (uint32_t i = 1; i < n; i++) {
            const xr_block *p = &s->blocks[s->order[k - 1]], *b = &s->blocks[s->order[i]];
            if (p->thread == b->thread && p->wall_sec == b->wall_sec && p->wall_usec == b->wall_usec &&
                p->end - p->start == b->end - b->start && evt_source_same_bytes(&s->r->src, p->start, b->start, b->end - b->start)) {
                evt_reader_error(s->r, b->start, "block at offset %" PRIu64 " repeats the block at offset %" PRIu64
                                 " byte for byte (same thread and WalltimeMarker): skipped", b->start, p->start);
                s->dup_blocks++;
                continue;
            }
            s->order[k++] = s->order[i];
        }
        n = k;
    }
    for (uint32_t i = 0; i < n; i++) {
        xr_thread *t = &s->threads[s->blocks[s->order[i]].thread];
        if (t->nblocks == 0) t->first = i;
        t->nblocks++;
    }
    /* Every thread is read at once by the merge: its window shrinks as threads grow. */
    uint32_t wcap = XR_WIN_TOP;
    while (wcap > XR_WIN_MIN && (uint64_t)wcap * s->nthreads > (wcap > XR_WIN ? XR_WIN_BIG_BUDGET : XR_WIN_BUDGET)) wcap /= 2;
    for (uint32_t i = 0; i < s->nthreads; i++) {
        xr_thread *t = &s->threads[i];
        t->win.buf = evt_malloc(wcap);
        if (!t->win.buf) return evt_reader_fail(s->r, EVT_ERR_NOMEM, 0, "out of memory");
        t->win.cap = wcap;
    }
    s->heap = evt_calloc(s->nthreads ? s->nthreads : 1, sizeof *s->heap);
    if (!s->heap) return evt_reader_fail(s->r, EVT_ERR_NOMEM, 0, "out of memory");
    s->refill = NULL;
    return EVT_OK;
}

static evt_status open_(evt_reader *r, void **state)
{
    uint8_t h[XRAY_HDR_SIZE];
    size_t got = evt_source_read_at(&r->src, 0, h, sizeof h);
    if (got < XRAY_HDR_SIZE)
        return evt_reader_fail(r, EVT_ERR_TRUNCATED, got, "file too short for the 32-byte XRay header (%zu bytes)", got);
    xr_state *s = evt_calloc(1, sizeof *s);
    if (!s) return evt_reader_fail(r, EVT_ERR_NOMEM, 0, "out of memory");
    *state = s;
    s->r = r;
    /* function entry/exit and custom/typed events: no scheduling, interrupts or kernel services */
    r->caps = EVT_CAP_FUNCS | EVT_CAP_USER;
    r->caps_known = 1;
    s->fsize = r->src.size;
    if (!(s->user = evt_user_dec_new())) return evt_reader_fail(r, EVT_ERR_NOMEM, 0, "out of memory");
    const char *uelf = evt_opts_get(r->opts, "elf");
    if (uelf) {
        char err[256];
        if (evt_user_dec_load_elf(s->user, uelf, err, sizeof err) != 0)
            return evt_reader_fail(r, EVT_ERR_USAGE, 0, "--elf: %s", err);
    }
    evt_cur hc;
    evt_cur_init(&hc, h, sizeof h, 0, 0);
    s->version = evt_cur_u16le_at(&hc, XRAY_HDR_VERSION);
    s->type = evt_cur_u16le_at(&hc, XRAY_HDR_TYPE);
    s->bits = evt_cur_u32le_at(&hc, XRAY_HDR_BITS);
    s->freq = evt_cur_u64le_at(&hc, XRAY_HDR_FREQ);
    s->bufsize = evt_cur_u64le_at(&hc, XRAY_HDR_BUFSIZE);
    s->reserved = evt_cur_u64le_at(&hc, XRAY_HDR_RESERVED);
    s->last_thread = XR_NONE;
    if (s->type == XRAY_TYPE_FDR) {
        if (s->version < XRAY_FDR_VERSION_MIN || s->version > XRAY_FDR_VERSION_MAX)
            return evt_reader_fail(r, EVT_ERR_UNSUPPORTED, XRAY_HDR_VERSION, "unsupported FDR version %u (supported 1-5)", s->version);
    } else if (s->type == XRAY_TYPE_BASIC) {
        if (s->version < XRAY_BASIC_VERSION_MIN || s->version > XRAY_BASIC_VERSION_MAX)
            return evt_reader_fail(r, EVT_ERR_UNSUPPORTED, XRAY_HDR_VERSION, "unsupported basic-mode version %u (supported 1-3)", s->version);
    } else {
        return evt_reader_fail(r, EVT_ERR_FORMAT, XRAY_HDR_TYPE, "unknown XRay file type %u (0 basic, 1 FDR; YAML traces are not read)", s->type);
    }
    /* Only bits 0-1 are defined; compiler-rt 14's basic mode leaves bits 2-7 set (0xff): ignored. */
    if (s->freq == 0) evt_reader_error(r, XRAY_HDR_FREQ, "cycle frequency is 0: timestamps cannot be converted to time");
    r->clock_hz = s->freq;
    time_init(s);
    if (evt_cur_u32le_at(&hc, XRAY_HDR_EVT_MAGIC_OFF) == XRAY_HDR_EVT_MAGIC) { /* written by evtrace's recorder */
        s->evtrace = 1;
        s->bufsize = evt_cur_u32le_at(&hc, XRAY_HDR_BUFSIZE);
        s->lost_buffers = evt_cur_u32le_at(&hc, XRAY_HDR_EVT_LOST_OFF);
        s->dropped = evt_cur_u32le_at(&hc, XRAY_HDR_EVT_DROP_OFF);
        s->dropped_saturated = s->dropped == 0xFFFFFFFFu; /* the recorder saturates the u32 */
    }

    const char *mp = evt_opts_get(r->opts, "instr-map");
    if (mp) {
        char err[600];
        if (xray_map_load(&s->map, mp, err, sizeof err) != 0)
            return evt_reader_fail(r, EVT_ERR_USAGE, 0, "--instr-map: %s", err);
        s->have_map = 1;
        snprintf(s->map_path, sizeof s->map_path, "%s", mp);
    }
    s->iwin.buf = evt_malloc(XR_WIN_TOP);
    if (!s->iwin.buf) return evt_reader_fail(r, EVT_ERR_NOMEM, 0, "out of memory");
    s->iwin.cap = XR_WIN_TOP;
    evt_status st = s->type == XRAY_TYPE_BASIC ? index_basic(s) : scan_blocks(s) ? EVT_OK : index_fdr(s);
    if (st != EVT_OK) return st;
    return build_order(s);
}

/* ---- decoding --------------------------------------------------------------------------------- */

/* The clock's conversions: the full one (tns) and the cached second (sec, tick_ns.h), which the
 * usual function record takes. */
static void time_init(xr_state *s)
{
    evt_tick_ns_init(&s->tns, s->freq);
    s->fn_flags = EVT_HAS_CTX | EVT_HAS_CPU | (s->freq ? EVT_HAS_TNS : 0u);
    evt_tick_ns_sec_init(&s->sec, s->freq); /* span 0 until time_slow caches a second */
}

/* floor(ts * 1e9 / freq), saturated (0 without a clock), and the second of ts cached when the fast
 * form applies to it. */
static XR_COLD uint64_t time_slow(xr_state *s, uint64_t ts)
{
    if (!s->freq) return 0;
    evt_tick_ns_sec_cache(&s->sec, ts);
    return evt_tick_ns_conv(&s->tns, ts);
}

static XR_HOT_INLINE uint64_t time_ns(xr_state *s, uint64_t ts)
{
    uint64_t x = ts - s->sec.ts0; /* before ts0: huge */
    return x < s->sec.span ? evt_tick_ns_sec_at(&s->sec, x) : time_slow(s, ts);
}

static XR_HOT_INLINE void set_time(xr_state *s, evt_event *ev, uint64_t ts)
{
    ev->ts = ts;
    if (s->freq) {
        ev->t_ns = time_ns(s, ts); /* floor(ts * 1e9 / freq), saturated */
        ev->flags |= EVT_HAS_TNS;
    }
}

/* t's window's fast_end for its pos and block, when pos is in both; then 1 when a function
 * record's 8 bytes at pos lie before it. */
static XR_COLD int fn_at_end(xr_thread *t)
{
    const xr_block *b = t->blk;
    xr_win *w = &t->win;
    if (!b || t->pos < w->off || t->pos - w->off >= w->len || t->pos >= b->stop) return 0;
    w->fast_end = w->off + w->len < b->stop ? w->off + w->len : b->stop;
    return w->fast_end - t->pos >= XRAY_FN_REC_SIZE;
}

/* A whole FDR function record of a known kind at t's pos, in its block and already in its
 * window: 1 with its kind, id and TSC delta; else 0 (the general parse takes it). */
static XR_HOT_INLINE int fn_at(xr_thread *t, unsigned *kind, uint32_t *fid, uint32_t *delta)
{
    uint64_t pos = t->pos;
    if (pos + XRAY_FN_REC_SIZE > t->win.fast_end && !fn_at_end(t)) return 0;
    evt_cur c;
    evt_cur_init(&c, t->win.buf + (pos - t->win.off), XRAY_FN_REC_SIZE, pos, 0);
    evt_span rec = evt_cur_take_span(&c, XRAY_FN_REC_SIZE); /* the whole cursor: no check left */
    uint32_t word = evt_span_u32le(rec, 0);
    _Static_assert(XRAY_FN_COUNT_ == 4, "a known kind is one whose bit 2 (word bit 3) is clear");
    if (word & (XRAY_MD_BIT | 8u)) return 0; /* metadata, or kind >= XRAY_FN_COUNT_ */
    *kind = (word >> 1) & 3u;
    *fid = word >> 4;
    *delta = evt_span_u32le(rec, 4);
    return 1;
}

/* The common case of thread_fill: t (not ready) has at pos a whole FDR function record of a known
 * kind already in its window. Positions t at it and returns 1; else 0 (thread_fill's general path). */
static inline int fill_fn_record(xr_thread *t)
{
    unsigned kind;
    uint32_t fid, delta;
    if (!fn_at(t, &kind, &fid, &delta)) return 0;
    t->ready = 1;
    t->fn = 1;
    t->fn_kind = kind;
    t->fn_id = fid;
    t->next_ts = t->tsc + delta;
    return 1;
}

/* Position t at its next event (sets ready/next_ts) or mark it done. */
static void thread_fill(xr_state *s, xr_thread *t)
{
    char msg[200];
    xr_rec rec;
    if (!t->ready && s->type == XRAY_TYPE_FDR && fill_fn_record(t)) return;
    t->fn = 0;
    while (!t->ready && !t->done) {
        if (!t->blk) {
            if (t->bi >= t->nblocks) { t->done = 1; return; }
            xr_block *b = &s->blocks[s->order[t->first + t->bi++]];
            if (s->lazy) check_block(s, t, b);
            t->blk = b;
            t->win.fast_end = 0;
            t->pos = t->blk->start;
            t->lost_done = 0;
            continue;
        }
        if (t->pos >= t->blk->stop) {
            if (t->blk->stop < t->blk->end && !t->lost_done) { t->ready = 1; t->next_ts = t->tsc; return; }
            t->blk = NULL;
            t->win.fast_end = 0;
            continue;
        }
        if (s->type == XRAY_TYPE_BASIC) {
            evt_cur c;
            if (win_cur(s, &t->win, t->pos, XRAY_BASIC_REC_SIZE, &c) && evt_cur_u16le_at(&c, XRAY_BASIC_RECTYPE) == XRAY_BASIC_FUNCTION &&
                evt_cur_u8_at(&c, XRAY_BASIC_FN_TYPE) < XRAY_FN_COUNT_ && evt_cur_u32le_at(&c, XRAY_BASIC_FN_FUNC) != 0) {
                t->ready = 1;
                t->next_ts = evt_cur_u64le_at(&c, XRAY_BASIC_FN_TSC);
                return;
            }
            t->pos += XRAY_BASIC_REC_SIZE; /* reported by the index pass */
            continue;
        }
        if (!parse_at(s, t, &rec, msg, sizeof msg)) { t->pos = t->blk->stop; continue; }
        if (!rec.md) {
            t->ready = 1;
            t->fn = 1;
            t->fn_kind = rec.kind;
            t->fn_id = rec.fid;
            t->next_ts = t->tsc + rec.delta;
            return;
        }
        switch (rec.kind) {
        case XRAY_MD_NEW_CPU_ID: t->tsc = rec.u64; t->cpu = rec.cpu; break;
        case XRAY_MD_TSC_WRAP: t->tsc = rec.u64; break;
        case XRAY_MD_CUSTOM_EVENT:
            t->ready = 1;
            t->next_ts = s->version >= 5 ? t->tsc + (uint64_t)(int64_t)rec.sdelta : rec.u64;
            return;
        case XRAY_MD_TYPED_EVENT:
            t->ready = 1;
            t->next_ts = t->tsc + (uint64_t)(int64_t)rec.sdelta;
            return;
        case XRAY_MD_END_OF_BUFFER: t->pos = t->blk->stop; continue;
        default: break; /* NewBuffer, Walltime, Pid, stray CallArgument */
        }
        t->pos += rec.size;
    }
}

/* push when the stack is full: grow it (up to XR_MAX_STACK; deeper calls are only counted). */
static XR_COLD void push_grow(xr_thread *t, uint32_t fid)
{
    if (t->depth == t->cap && t->cap < XR_MAX_STACK) {
        uint32_t nc = t->cap ? t->cap * 2 : 8;
        uint32_t *v = evt_realloc(t->stack, (size_t)nc * sizeof *v);
        if (!v) { t->depth++; return; } /* depth still counted; ids beyond cap unknown */
        t->stack = v;
        t->cap = nc;
    }
    if (t->depth < t->cap) t->stack[t->depth] = fid;
    t->depth++;
    if (t->depth > t->max_depth) t->max_depth = t->depth;
}

static inline void push(xr_thread *t, uint32_t fid)
{
    if (t->depth >= t->cap) { push_grow(t, fid); return; }
    t->stack[t->depth++] = fid;
    if (t->depth > t->max_depth) t->max_depth = t->depth;
}

/* Pop up to and including fid; returns 0 when fid is not open (unmatched exit). */
static int pop_search(xr_thread *t, uint32_t fid)
{
    uint32_t lim = t->depth < t->cap ? t->depth : t->cap;
    uint32_t low = lim > XR_POP_SEARCH ? lim - XR_POP_SEARCH : 0;
    for (uint32_t i = lim; i > low; i--) {
        if (t->stack[i - 1] == fid) {
            t->abandoned += t->depth - i;
            t->depth = i - 1;
            return 1;
        }
    }
    return 0;
}

/* pop_search, its usual case first: fid is the innermost open call (and its id is kept). */
static inline int pop(xr_thread *t, uint32_t fid)
{
    uint32_t d = t->depth;
    if (d - 1 < t->cap && t->stack[d - 1] == fid) { /* 0 < d <= cap */
        t->depth = d - 1;
        return 1;
    }
    return pop_search(t, fid);
}

/* Vouch for p in the current event (text_ok.h). */
static const char *vouch(xr_state *s, const char *p)
{
    if (s->nvouched < sizeof s->vouched / sizeof s->vouched[0]) s->vouched[s->nvouched++] = p;
    return p;
}

/* Keep name nm (stable until close) for function fid < XR_FN_DENSE in fn_dense. Out of memory: not
 * kept there (fnames still has it). */
static void fn_dense_put(xr_state *s, uint32_t fid, const char *nm)
{
    if (fid >= s->fn_dense_n) {
        uint64_t n = s->fn_dense_n ? s->fn_dense_n : 1024u;
        while (n <= fid) n *= 2;
        if (n > XR_FN_DENSE) n = XR_FN_DENSE;
        const char **v = evt_realloc(s->fn_dense, (size_t)n * sizeof *v);
        if (!v) return;
        memset(v + s->fn_dense_n, 0, (size_t)(n - s->fn_dense_n) * sizeof *v);
        s->fn_dense = v;
        s->fn_dense_n = (uint32_t)n;
    }
    s->fn_dense[fid] = nm;
}

/* fn_name when fid is not in fn_dense (met for the first time, at or above XR_FN_DENSE, or a name
 * that may not be vouched for): the map's name (loaded at open, it does not change), else "#<id>";
 * kept once per id in fnames (and fn_dense) when it may be vouched for (*ok = 1). */
static XR_COLD const char *fn_name_first(xr_state *s, uint32_t fid, int *ok)
{
    const char *nm = evt_name_cache_get(&s->fnames, fid);
    *ok = nm != NULL;
    if (!nm) {
        nm = s->have_map ? xray_map_name(&s->map, fid) : NULL;
        if (!nm) { /* "#<id>" */
            char *q = s->fnbuf + sizeof s->fnbuf - 1;
            uint32_t v = fid;
            *q = 0;
            do { *--q = (char)('0' + v % 10); v /= 10; } while (v);
            *--q = '#';
            nm = q;
        }
        if (evt_text_ok(nm)) {
            const char *kept = evt_name_cache_put(&s->fnames, fid, nm, strlen(nm));
            if (kept) { nm = kept; *ok = 1; }
        }
    }
    if (*ok && fid < XR_FN_DENSE) fn_dense_put(s, fid, nm);
    return nm;
}

/* The name of function fid when it is kept by index (vouched for), else NULL. */
static inline const char *fn_name_dense(const xr_state *s, uint32_t fid)
{
    return fid < s->fn_dense_n ? s->fn_dense[fid] : NULL;
}

/* The name of function fid; *ok = 1 when it may be vouched for. By index once met. */
static inline const char *fn_name(xr_state *s, uint32_t fid, int *ok)
{
    const char *nm = fn_name_dense(s, fid);
    if (nm) { *ok = 1; return nm; }
    return fn_name_first(s, fid, ok);
}

/* ev from a function record of kind and id (an entry pushes t's call stack, an exit pops it).
 * Returns the EVT_TEXT_OK_* bits of the strings it set that are vouched for (name, and the label
 * when the function's name is: its "function" field is then vouched for too). */
static XR_HOT_INLINE unsigned fill_fn(xr_state *s, xr_thread *t, evt_event *ev, unsigned kind, uint32_t fid)
{
    ev->id = kind;
    ev->name = k_fn_name[kind];
    evt_put_arg(ev, fid);
    int ok;
    const char *nm = fn_name(s, fid, &ok);
    ev->m.has |= EVT_M_LABEL;
    ev->m.label = nm;
    unsigned unmatched = 0;
    if (kind == XRAY_FN_ENTER || kind == XRAY_FN_ENTER_ARG) {
        ev->kind = EVT_KIND_FUNC_ENTER;
        push(t, fid);
    } else {
        ev->kind = EVT_KIND_FUNC_EXIT;
        if (!pop(t, fid)) {
            t->unmatched_exits++;
            unmatched = 1;
        }
    }
    /* fields "function", "unmatched" (an exit without its entry), "pid", in that order */
    evt_field *f = evt_put_fields(ev, 2 + unmatched);
    if (f) {
        evt_field_s(f, "function", nm);
        if (!ok) evt_field_unvouch(ev, f);
        if (unmatched) evt_field_u(++f, "unmatched", 1);
        evt_field_u(f + 1, "pid", t->pid);
    } else {
        if (ok) evt_put_s(ev, "function", nm);
        else evt_event_add_field_s(ev, "function", nm);
        if (unmatched) evt_put_u(ev, "unmatched", 1);
        evt_put_u(ev, "pid", t->pid);
    }
    return EVT_TEXT_OK_NAME | (ok ? EVT_TEXT_OK_LABEL : 0u);
}

/* 1 when t's next record (at pos, in its block) may be a CallArgument: its first byte says so, or
 * it is not known to be in the window (the general parse looks). */
static inline int call_arg_next(const xr_thread *t)
{
    if (t->pos >= t->win.fast_end) return t->pos < t->blk->stop;
    evt_cur c;
    evt_cur_init(&c, t->win.buf + (t->pos - t->win.off), 1, t->pos, 0);
    return evt_span_u8(evt_cur_take_span(&c, 1), 0) == XRAY_MD_BYTE0(XRAY_MD_CALL_ARGUMENT);
}

/* The CallArgument records that follow t's FDR function record (at pos) become ev's arguments. */
static XR_COLD void call_args(xr_state *s, xr_thread *t, evt_event *ev)
{
    char msg[200];
    xr_rec rec;
    while (t->pos < t->blk->stop && parse_at(s, t, &rec, msg, sizeof msg) && rec.md && rec.kind == XRAY_MD_CALL_ARGUMENT) {
        evt_put_arg(ev, rec.u64);
        t->pos += rec.size;
    }
    if (ev->nargs > 1 && ev->id == XRAY_FN_ENTER) ev->name = k_fn_name[XRAY_FN_ENTER_ARG]; /* static: still vouched for */
}

/* The context members of t's events. */
static void set_ctx(xr_thread *t, evt_event *ev)
{
    ev->flags |= EVT_HAS_CTX;
    ev->ctx = t->tid;
    ev->ctx_class = EVT_CTX_THREAD;
    ev->ctx_name = t->name; /* "thread TID", built once: vouched for */
}

/* ev from t's FDR function record at pos: kind, fid, its name nm (ok when vouched for), time ts
 * (t_ns in ns), an exit without its entry (unmatched); t moves past the record (its call stack is
 * the caller's). ev is as evt_event_reset leaves it: what fill_fn, set_ctx and set_time would add
 * to it is written whole, in one pass, and no call (fn_fast stays a leaf). */
static XR_HOT_INLINE void fn_event(const xr_state *s, xr_thread *t, evt_event *ev, unsigned kind, uint32_t fid,
                                   uint64_t ts, uint64_t t_ns, const char *nm, int ok, uint32_t unmatched)
{
    static const evt_kind k_kind[XRAY_FN_COUNT_] = {EVT_KIND_FUNC_ENTER, EVT_KIND_FUNC_EXIT, EVT_KIND_FUNC_EXIT, EVT_KIND_FUNC_ENTER};
    uint64_t pos = t->pos;
    t->events++;
    t->tsc = ts;
    t->pos = pos + XRAY_FN_REC_SIZE;
    ev->id = kind;
    ev->name = k_fn_name[kind];
    ev->kind = k_kind[kind];
    ev->ts = ts;
    ev->t_ns = t_ns; /* 0 without a clock, as reset */
    ev->offset = pos;
    ev->flags = s->fn_flags;
    ev->ctx = t->tid;
    ev->ctx_class = EVT_CTX_THREAD;
    ev->ctx_name = t->name; /* "thread TID", built once: vouched for */
    ev->cpu = t->cpu;
    ev->nargs = 1;
    ev->args[0] = fid;
    /* fields "function", "unmatched", "pid", in that order; all vouched for but the function's
     * name when it is not (!ok) */
    evt_field_s(&ev->fields[0], "function", nm);
    uint32_t fok = ok ? ~0u : ~1u; /* bit 0: the function field */
    if (!unmatched) {
        evt_field_u(&ev->fields[1], "pid", t->pid);
        ev->nfields = 2;
        ev->fields_ok = 3u & fok;
    } else {
        evt_field_u(&ev->fields[1], "unmatched", 1);
        evt_field_u(&ev->fields[2], "pid", t->pid);
        ev->nfields = 3;
        ev->fields_ok = 7u & fok;
    }
    ev->m.has = EVT_M_LABEL;
    ev->m.label = nm;
    /* name, ctx_name and label are all this sets; the other five strings stay NULL (vouched for),
     * and so are the fields when the name is (ok): then the event is (EVT_TEXT_OK_EVENT, one test
     * in the reader framework; emit_fn adds only arguments after this) */
    ev->text_ok = ok ? EVT_TEXT_OK_ALL | EVT_TEXT_OK_EVENT : EVT_TEXT_OK_ALL & ~(unsigned)EVT_TEXT_OK_LABEL;
}

/* 1 for the kinds that push the call stack (enter, enter with arguments), 0 for exits. */
static inline int fn_enters(unsigned kind) { return kind == XRAY_FN_ENTER || kind == XRAY_FN_ENTER_ARG; }

/* ev from t's FDR function record at pos, positioned (kind, fid, timestamp ts; nm: fn_name), and
 * the CallArgument records that follow it; t's call stack moves. Any case: thread_emit's. */
static inline void emit_fn(xr_state *s, xr_thread *t, evt_event *ev, unsigned kind, uint32_t fid,
                           uint64_t ts, const char *nm, int ok)
{
    uint32_t unmatched = 0;
    if (fn_enters(kind)) push(t, fid);
    else if (!pop(t, fid)) { t->unmatched_exits++; unmatched = 1; }
    fn_event(s, t, ev, kind, fid, ts, time_ns(s, ts), nm, ok, unmatched);
    if (call_arg_next(t)) call_args(s, t, ev);
}

/* Load an event payload (may be larger than a window). */
static const uint8_t *payload(xr_state *s, xr_thread *t, uint64_t off, uint32_t n)
{
    const uint8_t *p = win_get(s, &t->win, off, n);
    if (p) return p;
    if (n > s->scratch_cap) {
        uint8_t *v = evt_realloc(s->scratch, n);
        if (!v) return NULL;
        s->scratch = v;
        s->scratch_cap = n;
    }
    return evt_source_read_at(&s->r->src, off, s->scratch, n) == n ? s->scratch : NULL;
}

static int is_text(const uint8_t *p, uint32_t n)
{
    evt_cur c;
    evt_cur_init(&c, p, n, 0, 0);
    while (evt_cur_left(&c)) {
        uint8_t b = evt_cur_u8(&c);
        if (b < 0x20 || b > 0x7E) return 0;
    }
    return 1;
}

/* Emit t's positioned event. */
static evt_status thread_emit_(xr_state *s, xr_thread *t, evt_event *ev)
{
    char msg[200];
    xr_rec rec;
    t->ready = 0;
    t->events++;
    set_ctx(t, ev);
    vouch(s, t->name);
    if (t->pos >= t->blk->stop) { /* the broken tail of a block */
        t->lost_done = 1;
        ev->name = vouch(s, "lost");
        ev->kind = EVT_KIND_LOST;
        ev->offset = t->blk->stop;
        ev->flags |= EVT_HAS_COUNT;
        ev->count = t->blk->end - t->blk->stop;
        evt_put_s(ev, "unit", "bytes");
        set_time(s, ev, t->tsc);
        return EVT_OK;
    }
    ev->offset = t->pos;
    if (s->type == XRAY_TYPE_BASIC) {
        evt_cur c;
        if (!win_cur(s, &t->win, t->pos, XRAY_BASIC_REC_SIZE, &c)) return evt_reader_fail(s->r, EVT_ERR_IO, t->pos, "read error");
        unsigned kind = evt_cur_u8_at(&c, XRAY_BASIC_FN_TYPE);
        uint32_t fid = evt_cur_u32le_at(&c, XRAY_BASIC_FN_FUNC);
        t->cpu = evt_cur_u8_at(&c, XRAY_BASIC_FN_CPU);
        set_time(s, ev, evt_cur_u64le_at(&c, XRAY_BASIC_FN_TSC));
        ev->flags |= EVT_HAS_CPU;
        ev->cpu = t->cpu;
        ev->text_ok |= fill_fn(s, t, ev, kind, fid);
        t->pos += XRAY_BASIC_REC_SIZE;
        while (t->pos < t->blk->stop && win_cur(s, &t->win, t->pos, XRAY_BASIC_REC_SIZE, &c) &&
               evt_cur_u16le_at(&c, XRAY_BASIC_RECTYPE) == XRAY_BASIC_ARG_PAYLOAD && evt_cur_u32le_at(&c, XRAY_BASIC_ARG_FUNC) == fid &&
               evt_cur_u32le_at(&c, XRAY_BASIC_ARG_TID) == t->tid) {
            evt_put_arg(ev, evt_cur_u64le_at(&c, XRAY_BASIC_ARG_VALUE));
            t->pos += XRAY_BASIC_REC_SIZE;
        }
        if (ev->nargs > 1 && kind == XRAY_FN_ENTER) ev->name = k_fn_name[XRAY_FN_ENTER_ARG]; /* static: vouched for */
        return EVT_OK;
    }
    if (!parse_at(s, t, &rec, msg, sizeof msg)) {
        check_rest(s);
        return evt_reader_fail(s->r, EVT_ERR_IO, t->pos, "record changed since it was indexed: %s", msg);
    }
    /* v1-v4 custom events carry an absolute TSC that does not re-base the thread's running TSC. */
    if (!(rec.md && rec.kind == XRAY_MD_CUSTOM_EVENT && s->version < 5)) t->tsc = t->next_ts;
    set_time(s, ev, t->next_ts);
    ev->flags |= EVT_HAS_CPU;
    ev->cpu = rec.has_cpu ? rec.cpu : t->cpu;
    t->pos += rec.size;
    if (!rec.md) { /* thread_fill sets t->fn for these: emit_fn_record takes them */
        ev->text_ok |= fill_fn(s, t, ev, rec.kind, rec.fid);
        call_args(s, t, ev);
        return EVT_OK;
    }
    const uint8_t *p = payload(s, t, rec.payload, rec.u32);
    if (!p) {
        check_rest(s);
        return evt_reader_fail(s->r, EVT_ERR_NOMEM, rec.payload, "cannot load %" PRIu32 " bytes of event payload", rec.u32);
    }
    ev->id = XRAY_MD_COUNT_ + rec.kind; /* distinct from function kinds 0-3 */
    evt_cur pc;
    evt_cur_init(&pc, p, rec.u32, rec.payload, 0);
    /* a loss record only in a file of evtrace's runtime (its header says so): another writer's
     * custom event with the same bytes is the application's */
    const uint8_t *tag = s->evtrace && rec.kind == XRAY_MD_CUSTOM_EVENT && rec.u32 == XRAY_EVT_LOSS_SIZE
                             ? evt_cur_take(&pc, XRAY_EVT_LOSS_TAG_SIZE) : NULL;
    if (tag && memcmp(tag, XRAY_EVT_LOSS_TAG, XRAY_EVT_LOSS_TAG_SIZE) == 0) {
        /* evtrace's loss record: records lost (dropped or overwritten) before this point. */
        ev->name = vouch(s, "lost");
        ev->kind = EVT_KIND_LOST;
        ev->flags |= EVT_HAS_COUNT;
        ev->count = evt_cur_u64le_at(&pc, XRAY_EVT_LOSS_COUNT);
        evt_put_s(ev, "unit", "records");
        evt_put_u(ev, "pid", t->pid);
        return EVT_OK;
    }
    ev->kind = EVT_KIND_USER;
    ev->data = p;
    ev->data_len = rec.u32;
    ev->data_is_text = is_text(p, rec.u32);
    if (rec.kind == XRAY_MD_CUSTOM_EVENT) {
        ev->name = "custom_event";
        evt_event_add_arg(ev, rec.u32);
    } else {
        ev->name = "typed_event";
        evt_event_add_arg(ev, rec.etype);
        evt_event_add_arg(ev, rec.u32);
        evt_event_add_field_u(ev, "event_type", rec.etype);
    }
    evt_event_add_field_u(ev, "pid", t->pid);
    if (rec.kind != XRAY_MD_CUSTOM_EVENT) user_record(s, rec.etype, p, rec.u32, rec.payload, ev);
    return EVT_OK;
}

/* thread_emit_, then the strings it vouched for that the event still holds skip their check. */
static evt_status thread_emit(xr_state *s, xr_thread *t, evt_event *ev)
{
    if (t->fn && t->pos < t->blk->stop) {
        int ok;
        const char *nm = fn_name(s, t->fn_id, &ok);
        t->ready = 0;
        emit_fn(s, t, ev, t->fn_kind, t->fn_id, t->next_ts, nm, ok);
        return EVT_OK;
    }
    s->nvouched = 0;
    evt_status st = thread_emit_(s, t, ev);
    if (st == EVT_OK) evt_vouch_list(ev, s->vouched, s->nvouched);
    return st;
}

/* A typed event of type EVT_USER_XRAY_TYPE + rec whose payload reads as an evtrace/user.h record
 * (little-endian words, evtrace/user_defs.h): decoded by the user decoder into ev (its payload and
 * fields stay). Other typed events are left as they are. */
static void user_record(xr_state *s, uint16_t type, const uint8_t *p, uint32_t len, uint64_t off, evt_event *ev)
{
    if (type < EVT_USER_XRAY_TYPE || type >= EVT_USER_XRAY_TYPE + EVT_USER_R_COUNT_ || len % 4u != 0 || !s->user) return;
    unsigned rec = type - EVT_USER_XRAY_TYPE;
    uint32_t n = len / 4u;
    if (n > EVT_USER_XRAY_MAX_WORDS) return;
    if (!s->uwords && !(s->uwords = evt_malloc(EVT_USER_XRAY_MAX_WORDS * sizeof *s->uwords))) return;
    evt_cur c;
    evt_cur_init(&c, p, len, off, 0);
    for (uint32_t i = 0; i < n; i++) s->uwords[i] = evt_cur_u32le(&c);
    if (!evt_user_dec_claims(s->user, rec, s->uwords, n, n)) return;
    ev->nargs = 0;
    ev->data = NULL;
    ev->data_len = 0;
    ev->data_is_text = 0;
    uint64_t doff = off;
    const char *diag = evt_user_dec_record(s->user, rec, s->uwords, n, off, ev, &doff);
    if (diag) {
        check_rest(s); /* the index's reports come first */
        evt_reader_error(s->r, doff, "%s", diag);
    }
}

/* Merge heap of thread indices by (next_ts, index). */
static int heap_less(const xr_state *s, uint32_t a, uint32_t b)
{
    const xr_thread *x = &s->threads[a], *y = &s->threads[b];
    return x->next_ts != y->next_ts ? x->next_ts < y->next_ts : a < b;
}

static void heap_down(xr_state *s, uint32_t i)
{
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->nheap && heap_less(s, s->heap[l], s->heap[m])) m = l;
        if (r < s->nheap && heap_less(s, s->heap[r], s->heap[m])) m = r;
        if (m == i) return;
        uint32_t t = s->heap[i];
        s->heap[i] = s->heap[m];
        s->heap[m] = t;
        i = m;
    }
}

static void heap_push(xr_state *s, uint32_t th)
{
    uint32_t i = s->nheap++;
    s->heap[i] = th;
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (!heap_less(s, s->heap[i], s->heap[p])) break;
        uint32_t t = s->heap[i];
        s->heap[i] = s->heap[p];
        s->heap[p] = t;
        i = p;
    }
}

/* The next of the file-wide lost events (before any thread's events) into ev: 1, or 0 when none is
 * left. */
static int global_lost(xr_state *s, evt_event *ev)
{
    while (s->global_lost_state < 3) {
        static const char *const unit[] = {"buffers", "records", "bytes"};
        int st = s->global_lost_state++;
        uint64_t n = st == 0 ? s->lost_buffers : st == 1 ? s->dropped : s->unattributed_lost;
        if (n) {
            ev->name = "lost";
            ev->kind = EVT_KIND_LOST;
            ev->flags |= EVT_HAS_COUNT;
            ev->count = n;
            ev->offset = st == 0 ? XRAY_HDR_EVT_LOST_OFF : st == 1 ? XRAY_HDR_EVT_DROP_OFF : XRAY_HDR_SIZE;
            evt_event_add_field_s(ev, "unit", unit[st]);
            if (st == 1 && s->dropped_saturated) evt_event_add_field_u(ev, "saturated", 1);
            return 1;
        }
    }
    return 0;
}

/* 1 when thread t, at the top of the heap, stays there with next_ts ts: heap_down would not move
 * it (neither child comes first). */
static XR_HOT_INLINE int top_stays(const xr_state *s, const xr_thread *t, uint64_t ts)
{
    if (s->nheap <= 1) return 1;
    uint32_t ti = (uint32_t)(t - s->threads);
    for (uint32_t c = 1; c <= 2 && c < s->nheap; c++) {
        uint32_t ci = s->heap[c];
        uint64_t cts = s->threads[ci].next_ts;
        if (cts < ts || (cts == ts && ci < ti)) return 0;
    }
    return 1;
}

/* ---- the event reset: this reader's own (EVT_READER_RESETS) -------------------------------- */

/* What evt_event_reset leaves, ev->fmt kept (the reader framework set it): every event but the
 * usual one. */
static void fresh_event(evt_event *ev)
{
    const char *fmt = ev->fmt;
    evt_event_reset(ev);
    ev->fmt = fmt;
}

/* The usual event's reset: the members emit_fn does not write are zeroed here (the args and
 * fields past their counts are not part of the event); it writes every other one whole (id, name,
 * kind, ts, t_ns, offset, flags, ctx, ctx_class, ctx_name, cpu, text_ok, fields_ok, nargs,
 * nfields, m.has, m.label), so ev reads as evt_event_reset and those writes, whatever it held. */
_Static_assert(offsetof(evt_event, prio) % 8 == 0 && offsetof(evt_event, text_ok) - offsetof(evt_event, prio) == 40,
               "fn_reset zeroes prio..target_name whole");
_Static_assert(offsetof(evt_meaning, irq) == 16 && sizeof(evt_meaning) % 8 == 0, "fn_reset zeroes m past label whole");
static XR_HOT_INLINE EVT_EVENT_RESET_FN void fn_reset(evt_event *ev)
{
    /* Each part is checked before it is cleared: it is usually zero already (the usual event
     * before this one left it so), and loads cost less than these stores (measured: clearing the
     * 216 bytes on every event took a fifth of `evtrace info`'s time on 10 M function records). */
    int clear;
    EVT_IS_CLEAR_(&ev->prio, 40, clear); /* prio, seq, count, target, target_name */
    if (!clear) ZERO_(&ev->prio, 40);
    if (ev->data || ev->data_len || ev->data_is_text) {
        ev->data = NULL;
        ev->data_len = 0;
        ev->data_is_text = 0;
    }
    EVT_IS_CLEAR_(&ev->m.irq, sizeof ev->m - offsetof(evt_meaning, irq), clear);
    if (!clear) ZERO_(&ev->m.irq, sizeof ev->m - offsetof(evt_meaning, irq)); /* has and label: emit_fn's */
}

/* next() but for its usual case: from a fresh event. */
static __attribute__((noinline)) evt_status next_slow(xr_state *s, evt_event *ev)
{
    fresh_event(ev);
    if (!s->started) { /* --begin/--end may stop the events early: the index's reports first */
        s->started = 1;
        if (s->r->range.has_begin || s->r->range.has_end) check_rest(s);
    }
    if (s->refill) {
        /* The last event's thread sits at the top: position it at its next event (its window
         * could not be touched while the caller held that event). */
        xr_thread *t = s->refill; /* not ready unless next() positioned it */
        if (!t->ready) thread_fill(s, t);
        if (t->ready) { if (s->nheap > 1) heap_down(s, 0); }
        else if (--s->nheap) { s->heap[0] = s->heap[s->nheap]; heap_down(s, 0); }
        s->refill = NULL;
    } else if (s->global_lost_state < 3 && global_lost(s, ev)) {
        return EVT_OK;
    } else if (!s->heap_built) {
        s->heap_built = 1;
        for (uint32_t i = 0; i < s->nthreads; i++) {
            thread_fill(s, &s->threads[i]);
            if (s->threads[i].ready) heap_push(s, i);
        }
    }
    if (s->nheap == 0) return EVT_END;
    s->refill = &s->threads[s->heap[0]];
    return thread_emit(s, &s->threads[s->heap[0]], ev);
}

/* The usual event, emitted with no call at all: the next record of t (the thread whose event was
 * returned last: not ready) is a function record before its window's fast_end, of a function
 * met before, t stays first in the merge, the record pushes its call stack or pops its innermost
 * entry (ids kept), its time lies in the cached second (time_ns) and no CallArgument follows it
 * (the next byte is in the window and is not one, or the block ends). Returns 1 when ev holds it;
 * else 0, t positioned at the record when it is a function record (next_slow goes on from there:
 * thread_emit and emit_fn take every case). */
static XR_HOT_INLINE EVT_EVENT_RESET_FN int fn_fast(xr_state *s, xr_thread *t, evt_event *ev)
{
    uint64_t pos = t->pos;
    const xr_win *w = &t->win;
    if (pos + XRAY_FN_REC_SIZE > w->fast_end) return 0; /* thread_fill sets fast_end or parses */
    evt_cur c; /* the record, and the next one's first byte when it is before fast_end */
    evt_cur_init(&c, w->buf + (pos - w->off), pos + XRAY_FN_REC_SIZE < w->fast_end ? XRAY_FN_REC_SIZE + 1 : XRAY_FN_REC_SIZE, pos, 0);
    evt_span rec = evt_cur_take_span(&c, XRAY_FN_REC_SIZE);
    uint32_t word = evt_span_u32le(rec, 0);
    _Static_assert(XRAY_FN_COUNT_ == 4, "a known kind is one whose bit 2 (word bit 3) is clear");
    if (word & (XRAY_MD_BIT | 8u)) return 0; /* metadata, or kind >= XRAY_FN_COUNT_ */
    unsigned kind = (word >> 1) & 3u;
    uint32_t fid = word >> 4;
    uint64_t ts = t->tsc + evt_span_u32le(rec, 4);
    const char *nm = fn_name_dense(s, fid);
    uint64_t x = ts - s->sec.ts0; /* time_ns's fast form */
    uint32_t d = t->depth;
    int enters = fn_enters(kind);
    if (!nm || x >= s->sec.span) goto positioned;
    if (enters ? d >= t->cap : (d - 1 >= t->cap || t->stack[d - 1] != fid)) goto positioned; /* else 0 < d <= cap */
    int next = evt_cur_peek(&c); /* the next record's first byte, -1 past fast_end */
    if (next == XRAY_MD_BYTE0(XRAY_MD_CALL_ARGUMENT) || (next < 0 && pos + XRAY_FN_REC_SIZE < t->blk->stop)) goto positioned;
    if (!top_stays(s, t, ts)) goto positioned;
    if (enters) {
        t->stack[d] = fid;
        t->depth = ++d;
        if (d > t->max_depth) t->max_depth = d;
    } else {
        t->depth = d - 1;
    }
    fn_reset(ev);
    /* (t->next_ts is not needed: refill sets it before the heap compares t again) */
    fn_event(s, t, ev, kind, fid, ts, evt_tick_ns_sec_at(&s->sec, x), nm, 1, 0);
    return 1;
positioned:
    t->ready = 1;
    t->fn = 1;
    t->fn_kind = kind;
    t->fn_id = fid;
    t->next_ts = ts;
    return 0;
}

/* EVT_READER_RESETS: every return leaves ev reset but for what it writes (fn_reset, next_slow). */
static EVT_EVENT_RESET_FN evt_status next(void *state, evt_event *ev)
{
    xr_state *s = state;
    xr_thread *t = s->refill; /* set only once the file-wide lost events are out */
    if (t && s->type == XRAY_TYPE_FDR && fn_fast(s, t, ev)) return EVT_OK;
    return next_slow(s, ev);
}

/* ---- info ------------------------------------------------------------------------------------- */

static void counts_json(evt_json *j, const uint64_t *c)
{
    for (unsigned k = 0; k < XRAY_MD_COUNT_; k++) evt_json_ku64(j, k_md_key[k], c[XR_C_MD + k]);
    for (unsigned k = 0; k < XRAY_FN_COUNT_; k++) evt_json_ku64(j, k_fn_key[k], c[XR_C_FN + k]);
    evt_json_ku64(j, "ArgPayload", c[XR_C_ARG]);
}

static int cmp_tid(const void *a, const void *b)
{
    const xr_thread *x = *(xr_thread *const *)a, *y = *(xr_thread *const *)b;
    if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1;
    return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Threads sorted by tid (caller frees); NULL when there are none or memory is short. */
static xr_thread **sorted_threads(xr_state *s)
{
    if (!s->nthreads) return NULL;
    xr_thread **v = evt_calloc(s->nthreads, sizeof *v);
    if (!v) return NULL;
    for (uint32_t i = 0; i < s->nthreads; i++) v[i] = &s->threads[i];
    qsort(v, s->nthreads, sizeof *v, cmp_tid);
    return v;
}

static void info_json(void *state, evt_json *j)
{
    xr_state *s = state;
    check_rest(s); /* the counts of blocks the events did not reach */
    evt_json_ku64(j, "version", s->version);
    evt_json_kstr(j, "type", s->type == XRAY_TYPE_FDR ? "fdr" : "basic");
    evt_json_ku64(j, "cycle_frequency", s->freq);
    evt_json_kbool(j, "constant_tsc", (s->bits & XRAY_BIT_CONSTANT_TSC) != 0);
    evt_json_kbool(j, "nonstop_tsc", (s->bits & XRAY_BIT_NONSTOP_TSC) != 0);
    evt_json_ku64(j, "header_bits", s->bits);
    evt_json_ku64(j, "buffer_size", s->type == XRAY_TYPE_FDR ? s->bufsize : 0);
    evt_json_ku64(j, "blocks", s->type == XRAY_TYPE_FDR ? s->nblocks : 0);
    evt_json_ku64(j, "duplicate_blocks", s->dup_blocks);
    evt_json_kbool(j, "evtrace_recorder", s->evtrace);
    evt_json_ku64(j, "lost_buffers", s->lost_buffers);
    evt_json_ku64(j, "dropped_records", s->dropped);
    evt_json_kbool(j, "dropped_records_saturated", s->dropped_saturated);
    evt_json_key(j, "instr_map");
    if (s->have_map) evt_json_str(j, s->map_path); else evt_json_null(j);
    evt_json_ku64(j, "functions_named", s->have_map ? s->map.n : 0);
    xr_thread **v = sorted_threads(s);
    evt_json_key(j, "threads");
    evt_json_arr_begin(j);
    for (uint32_t i = 0; v && i < s->nthreads; i++) evt_json_u64(j, v[i]->tid);
    evt_json_arr_end(j);
    evt_json_key(j, "records");
    evt_json_obj_begin(j);
    counts_json(j, s->counts);
    evt_json_obj_end(j);
    evt_json_key(j, "per_thread");
    evt_json_obj_begin(j);
    for (uint32_t i = 0; v && i < s->nthreads; i++) {
        char k[16];
        snprintf(k, sizeof k, "%" PRIu32, v[i]->tid);
        evt_json_key(j, k);
        evt_json_obj_begin(j);
        evt_json_ku64(j, "pid", v[i]->pid);
        evt_json_ku64(j, "events", v[i]->events);
        evt_json_ku64(j, "max_depth", v[i]->max_depth);
        evt_json_ku64(j, "open_at_end", v[i]->depth);
        evt_json_ku64(j, "unmatched_exits", v[i]->unmatched_exits);
        evt_json_ku64(j, "abandoned_entries", v[i]->abandoned);
        evt_json_key(j, "records");
        evt_json_obj_begin(j);
        counts_json(j, v[i]->counts);
        evt_json_obj_end(j);
        evt_json_obj_end(j);
    }
    evt_json_obj_end(j);
    evt_free(v);
}

static void info_text(void *state, FILE *out)
{
    xr_state *s = state;
    check_rest(s); /* the counts of blocks the events did not reach */
    fprintf(out, "xray:     %s version %u, cycle frequency %" PRIu64 " Hz, constant_tsc %u, nonstop_tsc %u\n",
            s->type == XRAY_TYPE_FDR ? "FDR" : "basic", s->version, s->freq, s->bits & 1u, (s->bits >> 1) & 1u);
    if (s->type == XRAY_TYPE_FDR)
        fprintf(out, "buffers:  %u blocks, per-thread buffer size %" PRIu64 " bytes, %" PRIu64 " buffers lost\n",
                s->nblocks, s->bufsize, s->lost_buffers);
    fprintf(out, "records: ");
    for (unsigned k = 0; k < XR_C_COUNT; k++) {
        if (!s->counts[k]) continue;
        const char *nm = k < XR_C_FN ? k_md_key[k] : k < XR_C_ARG ? k_fn_key[k - XR_C_FN] : "ArgPayload";
        fprintf(out, " %s=%" PRIu64, nm, s->counts[k]);
    }
    fputc('\n', out);
    xr_thread **v = sorted_threads(s);
    for (uint32_t i = 0; v && i < s->nthreads; i++)
        fprintf(out, "thread %" PRIu32 " (pid %" PRIu32 "): %" PRIu64 " events, max depth %" PRIu32 ", %" PRIu32
                     " open at end, %" PRIu64 " unmatched exits\n",
                v[i]->tid, v[i]->pid, v[i]->events, v[i]->max_depth, v[i]->depth, v[i]->unmatched_exits);
    evt_free(v);
}

static void close_(void *state)
{
    xr_state *s = state;
    if (!s) return;
    check_rest(s); /* the reports of blocks the events did not reach (a consumer that stopped) */
    for (uint32_t i = 0; i < s->nthreads; i++) {
        evt_free(s->threads[i].win.buf);
        evt_free(s->threads[i].stack);
    }
    evt_free(s->threads);
    evt_free(s->thash);
    evt_free(s->blocks);
    evt_name_cache_free(&s->fnames);
    evt_free(s->fn_dense);
    evt_free(s->order);
    evt_free(s->heap);
    evt_free(s->scratch);
    evt_free(s->uwords);
    evt_user_dec_free(s->user);
    evt_free(s->iwin.buf);
    if (s->have_map) xray_map_free(&s->map);
    evt_free(s);
}

const evt_reader_desc evt_reader_xray = {
    "xray", "LLVM XRay trace: FDR versions 1-5, basic versions 1-3 (--instr-map names functions)",
    probe, open_, next, info_json, info_text, close_, k_opts, EVT_READER_RESETS,
};
