/* RKH trace stream reader: unframes the byte stream (flag 0x7E, escape 0x7D), checks checksums
 * and sequence numbers, decodes every record of rkh_defs.h with the TCFG configuration (or
 * --rkh-config), resolves symbol records, and reports every problem with its byte offset:
 * checksum errors, frames aborted by escape + flag, sequence gaps (also as "lost" events with the
 * number of missing records, a lower bound since seq is 8 bits), evtrace loss records (lost events
 * with their counts; a gap and the loss record that explains it count once), bytes before the first flag,
 * trailing bytes, frames whose length does not match their event's layout, unknown ids. Gaps and
 * aborted frames that the loss records account for are losses, not errors (rkh_diag_dec.h).
 * A record destroyed by damage (a checksum error, a last frame cut short) is lost too: with
 * sequence numbers the gap at the next numbered frame counts it; when none follows, or without
 * sequence numbers, it is counted here, one record per frame (damaged_lost).
 * Streams in bounded memory: one chunk of input, one frame, the symbol tables. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/json.h"
#include "evtrace/reader.h"
#include "formats/common/cursor.h"
#include "formats/common/name_cache.h"
#include "formats/common/text_ok.h"
#include "formats/rkh/rkh_cfg_host.h"
#include "formats/rkh/rkh_clock_dec.h"
#include "formats/rkh/rkh_diag_dec.h"
#include "formats/rkh/rkh_defs.h"
#include "formats/rkh/rkh_hooks_dec.h"
#include "formats/rkh/rkh_hooks_defs.h"
#include "evtrace/user_defs.h"
#include "formats/user/user_dec.h"
#include "evtrace/hooks_defs.h"
#include "host/kernels/kernel_profile.h"

#define CHUNK 65536u
#define MAX_FRAME (1u << 20)  /* longer runs without a flag are reported and skipped */
#define MAX_ARGS 12
#define RKH_LIVE_HOLD (64u << 10) /* live streams: a gap waits this many bytes for its loss record */

/* One argument of a layout, parsed once from the table's layout string. */
typedef struct rkh_arg {
    char name[16];  /* field name */
    char name_key[24]; /* "<name>_name": the field of the value's resolved name */
    char kind;      /* letter of rkh_defs.h */
    char cond;      /* 0, 'm', 'q' or 'r' */
    uint8_t sets_ctx; /* "ao" of kind 'S': the active object the record runs in (set_ctx) */
} rkh_arg;

typedef struct rkh_evdef {
    const char *name;   /* NULL: unknown id */
    char kind;          /* O, Y, C */
    uint8_t nargs;
    rkh_arg args[MAX_ARGS];
} rkh_evdef;

/* One argument of an event's layout under the current configuration (build_plans). */
typedef struct rkh_parg {
    const char *name, *name_key; /* the layout's keys (rkh_arg) */
    struct symtab *tab;          /* the table that names the value (objects, signals), or NULL */
    uint32_t size;               /* bytes: kind_size under the configuration */
    uint8_t sets_ctx;            /* rkh_arg.sets_ctx */
} rkh_parg;

/* An event's layout as the configuration has it, built once per configuration so the per-event
 * decode neither parses the layout nor tests conditions or kinds: only for layouts whose every
 * present argument has a fixed size (no string, no rest-of-record); others take the layout loop. */
typedef struct rkh_plan {
    uint8_t fixed;        /* 1: this plan decodes the event (decode_fixed) */
    uint8_t sm_state;     /* SM_STATE or SM_TS_STATE: the state machine's new state */
    uint8_t user;         /* a user record (RKH_TE_USER..RKH_TE_USER_LAST) */
    uint8_t symbol;       /* a symbol record (kind 'Y') */
    uint8_t state_names;  /* args 0 and 1 are named from the object table (SM_STATE's ao, st) */
    uint8_t usual;        /* decode_usual may take the record: fixed and not a symbol record, or a
                             user record */
    uint8_t kind;         /* EVT_KIND_* of the record (a fixed record: OTHER or MARKER) */
    uint8_t nargs;        /* the arguments present under the configuration's conditions */
    size_t len;           /* their bytes together */
    size_t frame_len;     /* a usual fixed record: the whole frame's bytes, header and checksum
                             included; else 0 (no frame has 0 bytes) */
    rkh_parg a[MAX_ARGS];
} rkh_plan;

/* Symbol tables are bounded (docs/rkh.md): their bytes (names, entries, hash slots) stay under
 * RKH_SYM_BYTES_MAX; a symbol record past it is not kept and is reported (counted). */
#define RKH_SYM_BYTES_MAX (16u << 20)
#define RKH_SYM_ENTRY_COST 24u  /* bytes of one entry besides its name: sym + ~2 hash slots */
#define RKH_MAX_RETIRED 4       /* renames in one next() call (at most one per event) */

typedef struct sym { uint64_t key; char *name; /* name[-1]: 1 when it may be vouched for (sym_dup) */ } sym;
/* Names by key, in order of first definition (v), found through an open-addressing hash of
 * index + 1 (0 = empty; hcap a power of two > 2 * n). A redefined name replaces the old string,
 * which lives on in the state's `retired` list until the next event is pulled (the event being
 * decoded may point at it). */
#define RKH_SYM_FRONT 256u /* direct-mapped look-ups in front of the hash (sym_name) */
typedef struct symtab {
    sym *v;
    uint32_t n, cap;
    uint32_t *hash;
    uint32_t hcap;
    /* recent look-ups by key, in slot sym_front_slot(key): name NULL = the key has no name. A slot
     * is emptied (sym_front_forget: a key it never holds) whenever its key is defined or renamed
     * (sym_set), so a hit is what the hash says. Zeroed, every slot is empty but slot 0, which
     * says that key 0 has no name: true until sym_set names it. */
    struct { uint64_t key; const char *name; } front[RKH_SYM_FRONT];
} symtab;

typedef struct rkh_state {
    evt_reader *r;
    rkh_cfg cfg;
    int have_tcfg;
    uint8_t tcfg_raw[RKH_TCFG_LEN];
    int tcfg_chk;
    uint64_t tcfg_off;
    rkh_plan *plans;        /* [256] by id, for the current configuration (build_plans) */
    unsigned chk, hdr_seq, tsz; /* the configuration's checksum byte, seq byte, timestamp bytes */
    int hdr_usual;              /* hdr_seq 1, tsz 4, chk 1: the usual header (decode_usual) */
    uint64_t ts_mask;           /* 2^(8 tsz) - 1: timestamps wrap there */
    /* input */
    uint8_t *chunk;
    evt_cur in;             /* over the chunk's bytes (base = their source offset) */
    /* framer */
    int seen_flag, escaping, oversize;
    int oom;                 /* an allocation failed: the read ends with EVT_ERR_NOMEM */
    uint8_t *frame;         /* a frame's bytes unescaped when they were not in one piece */
    const uint8_t *fp;      /* the current frame's flen bytes: in `frame`, or in `chunk` when
                               they were there without escapes (valid until the next pull) */
    size_t flen, fcap;
    unsigned fsum;          /* the sum of the frame's bytes mod 256 when fsum_ok (next_frame) */
    int fsum_ok;
    uint64_t frame_off;     /* offset of the frame's first byte */
    uint64_t tail_raw;      /* raw bytes since the last flag */
    int ended;
    /* 1 when next() starts between frames with nothing pending: no redo, the first flag seen, no
     * escape or oversize run open, no frame begun (flen 0). Set as next_general returns; the usual
     * path leaves all of these as they are. */
    int between;
    /* pending frame after a lost event */
    int redo;
    /* sequence and time */
    int have_seq;
    uint8_t last_seq;
    uint32_t last_ts;
    uint64_t ts64;
    /* counters (info --json) */
    uint64_t frames, frames_ok, checksum_errors, aborted_frames, seq_gaps, missing_records;
    uint64_t trailing_bytes, bytes_before_first_flag, length_errors, unknown_ids, oversize_frames;
    uint64_t recorder_lost;  /* running total of the last evtrace loss record */
    /* Losses reported once: a sequence gap and the loss record that explains it (the recorder
     * writes it later) count once. gap_debt: gap losses no loss record has explained yet;
     * loss_credit: loss-record losses no gap has shown yet (drops never take a sequence number). */
    uint64_t gap_debt, loss_credit;
    /* Damaged frames (checksum errors, the cut-short last frame) no sequence gap has counted yet:
     * tail_drops since the numbered frame count drop_mark (numbered_ok), the first at drop_off. */
    uint64_t tail_drops, drop_mark, drop_off, damaged_lost;
    /* A TCFG record after the stream's start: the recorder was initialised again (a target reset
     * during a capture) and numbers its records from 0 again. restart_mark: numbered_ok when it
     * came; the first numbered frame after it with sequence number 0 is a restart, not a gap. */
    int restart_pending;
    uint64_t restart_mark, restarts;
    /* every diagnostic, in order; gaps and aborted frames the loss records explain are not errors */
    rkh_diag diag;
    uint64_t by_id[256];
    /* the generic hooks' records (rkh_hooks_dec.h): running thread, open interrupts */
    rkh_hooks_dec hooks;
    evt_user_dec *user;       /* evtrace/user.h records ("evtrace.user", user_dec.c) */
    uint32_t uwords[EVT_USER_RKH_MAX_WORDS];
    /* symbols */
    symtab objs, sigs, usr, pools;
    uint32_t usr_named;           /* bit n: a symbol record named user event n (maybe not kept), or
                                     the hooks table does under an RTOS --kernel (late_hooks) */
    int kernel_hint;              /* r->kernel_user as next() last saw it (it changes after open) */
    uint64_t sym_bytes;           /* bytes held by the four tables (<= RKH_SYM_BYTES_MAX) */
    uint64_t symbols_dropped;     /* symbol records not kept: the tables were full */
    uint64_t symbols_renamed;     /* symbol records that replaced a name */
    char *retired[RKH_MAX_RETIRED];
    unsigned nretired;
    /* scratch for the current event */
    char namebuf[48];
    char statebuf[24];
    char hexbuf[8192];
    size_t hexused;
    evt_name_cache keys;          /* field keys and event names built once (key_cached) */
    const char *vouched[16];      /* the current event's strings vouched for (text_ok.h) */
    unsigned nvouched;
    char keybuf[64][24];          /* field keys of the current event: [0,32) values, [32,64) names */
    /* names built once (in `keys`), by index: no look-up per event */
    const char *usr_names[RKH_TE_USER_LAST - RKH_TE_USER + 1]; /* "USR#<n>" */
    const char *ukey[32][16];     /* user field f of type t: "f<f>_<TYPE>" */
    const char *ukey_name[32][16]; /* "f<f>_<TYPE>_name" */
} rkh_state;

static const evt_reader_option k_opts[] = {
    {"rkh-config", "FILE", "RKH configuration (#define RKH_CFG_... lines, e.g. rkhcfg.h) for streams without TCFG"},
    {"elf", "FILE", EVT_USER_ELF_OPTION_HELP},
    {NULL, NULL, NULL},
};

/* ---- tables ----------------------------------------------------------------------------------- */

static void parse_layout(rkh_evdef *d, const char *lay)
{
    d->nargs = 0;
    while (*lay && d->nargs < MAX_ARGS) {
        rkh_arg *a = &d->args[d->nargs++];
        memset(a, 0, sizeof *a);
        size_t i = 0;
        while (*lay && *lay != ':' && i + 1 < sizeof a->name) a->name[i++] = *lay++;
        if (*lay == ':') lay++;
        a->kind = *lay ? *lay++ : '1';
        if (*lay == '?') { lay++; a->cond = *lay ? *lay++ : 0; }
        if (*lay == ',') lay++;
        size_t nl = strlen(a->name); /* < 16: "<name>_name" fits name_key */
        memcpy(a->name_key, a->name, nl);
        memcpy(a->name_key + nl, "_name", sizeof "_name");
        a->sets_ctx = strcmp(a->name, "ao") == 0 && a->kind == 'S';
        if (a->sets_ctx) /* the last one is the context (decode_fixed: at most one) */
            for (unsigned k = 0; k + 1 < d->nargs; k++) d->args[k].sets_ctx = 0;
    }
}

/* The event table's layouts, parsed once (pthread_once: readers open on any thread) and read-only
 * after: shared by every reader, which keeps a reader's state small (140 KB less per open). */
static rkh_evdef g_defs[256];
static pthread_once_t g_defs_once = PTHREAD_ONCE_INIT;

static void build_defs(void)
{
#define RKH_DEF_(id_, nm_, lay_, k_) \
    g_defs[id_].name = #nm_; g_defs[id_].kind = k_; parse_layout(&g_defs[id_], lay_);
    RKH_EVENT_TABLE(RKH_DEF_)
#undef RKH_DEF_
}

/* ---- symbols ----------------------------------------------------------------------------------- */

static uint32_t sym_slot(const symtab *t, uint64_t key)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (t->hcap - 1);
}

/* Index of key in t->v, or UINT32_MAX. */
static inline uint32_t sym_find(const symtab *t, uint64_t key)
{
    if (!t->hcap) return UINT32_MAX;
    for (uint32_t k = sym_slot(t, key); t->hash[k]; k = (k + 1) & (t->hcap - 1))
        if (t->v[t->hash[k] - 1].key == key) return t->hash[k] - 1;
    return UINT32_MAX;
}

static inline uint32_t sym_front_slot(uint64_t key) { return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 56); }

/* Empty key's front slot: its key becomes one whose slot is another (key 0's slot is 0, key 1's
 * is not), so the next look-up of key goes to the hash. */
_Static_assert((0x9E3779B97F4A7C15ull >> 56) != 0, "key 1 is not in front slot 0");
static inline void sym_front_forget(symtab *t, uint64_t key)
{
    uint32_t f = sym_front_slot(key);
    t->front[f].key = f ? 0u : 1u;
}

/* The name stored for key in t, or NULL: from the front slot, else the hash (then kept in front). */
static inline const char *sym_name(symtab *t, uint64_t key)
{
    _Static_assert(RKH_SYM_FRONT == 256u, "sym_front_slot gives 8 bits");
    uint32_t f = sym_front_slot(key);
    if (t->front[f].key == key) return t->front[f].name;
    uint32_t i = sym_find(t, key);
    const char *nm = i == UINT32_MAX ? NULL : t->v[i].name;
    t->front[f].key = key;
    t->front[f].name = nm;
    return nm;
}

/* bit when nm is a stored name that passed evt_text_ok (sym_dup's byte before it), else 0. */
static inline unsigned sym_ok_bit(const char *nm, unsigned bit) { return nm && nm[-1] ? bit : 0u; }

/* Vouch for p in the current event (text_ok.h: the reader's own text or a checked stored name). */
static const char *vouch(rkh_state *s, const char *p)
{
    if (p && s->nvouched < sizeof s->vouched / sizeof s->vouched[0]) s->vouched[s->nvouched++] = p;
    return p;
}

/* 1 when p was vouched for in the current event. */
static int is_vouched(const rkh_state *s, const char *p)
{
    for (unsigned i = 0; i < s->nvouched; i++)
        if (s->vouched[i] == p) return 1;
    return 0;
}

/* sym_get, vouching for a name that passed evt_text_ok when stored. */
static const char *sym_get_v(rkh_state *s, symtab *t, uint64_t key)
{
    const char *nm = sym_name(t, key);
    return nm && nm[-1] ? vouch(s, nm) : nm;
}

/* Rebuild the hash at twice the size; 0 when memory is short. */
static int sym_rehash(rkh_state *s, symtab *t)
{
    uint32_t nc = t->hcap ? t->hcap * 2 : 32;
    uint32_t *h = evt_calloc(nc, sizeof *h);
    if (!h) return 0;
    evt_free(t->hash);
    s->sym_bytes += (uint64_t)(nc - t->hcap) * sizeof *h;
    t->hash = h;
    t->hcap = nc;
    for (uint32_t i = 0; i < t->n; i++) {
        uint32_t k = sym_slot(t, t->v[i].key);
        while (t->hash[k]) k = (k + 1) & (nc - 1);
        t->hash[k] = i + 1;
    }
    return 1;
}

static void sym_drop(rkh_state *s, uint64_t key, const char *name)
{
    s->symbols_dropped++;
    rkh_diag_error(&s->diag, s->frame_off, "symbol tables full (%" PRIu64 " bytes, limit %u): symbol 0x%" PRIX64 " '%.40s' not kept (%" PRIu64 " dropped so far)",
                     s->sym_bytes, RKH_SYM_BYTES_MAX, key, name, s->symbols_dropped);
}

/* A stored copy of name (len bytes with its NUL) after one byte saying whether it may be vouched
 * for (text_ok.h); free with evt_free(copy - 1). NULL when memory is short. */
static char *sym_dup(const char *name, size_t len)
{
    char *copy = evt_malloc(len + 1);
    if (!copy) return NULL;
    memcpy(copy + 1, name, len);
    copy[0] = (char)evt_text_ok(copy + 1);
    return copy + 1;
}

/* Define or rename key. Renaming frees the old name at the next pull (see symtab). */
static void sym_set(rkh_state *s, symtab *t, uint64_t key, const char *name)
{
    size_t len = strlen(name) + 1;
    uint32_t i = sym_find(t, key);
    sym_front_forget(t, key); /* whatever follows, look the key up again */
    if (i != UINT32_MAX) {
        if (strcmp(t->v[i].name, name) == 0) return;
        size_t old = strlen(t->v[i].name) + 1;
        if (len > old && s->sym_bytes + (len - old) > RKH_SYM_BYTES_MAX) { sym_drop(s, key, name); return; }
        if (s->nretired == RKH_MAX_RETIRED) return; /* cannot happen: one rename per event */
        char *d = sym_dup(name, len);
        if (!d) { s->oom = 1; return; }
        s->retired[s->nretired++] = t->v[i].name;
        s->sym_bytes = s->sym_bytes - old + len;
        t->v[i].name = d;
        s->symbols_renamed++;
        return;
    }
    if (s->sym_bytes + len + RKH_SYM_ENTRY_COST > RKH_SYM_BYTES_MAX) { sym_drop(s, key, name); return; }
    if (t->hcap <= 2 * t->n + 2 && !sym_rehash(s, t)) {
        s->oom = 1;
        return;
    }
    if (t->n == t->cap) {
        uint32_t nc = t->cap ? t->cap * 2 : 16;
        sym *n = evt_realloc(t->v, nc * sizeof *n);
        if (!n) { s->oom = 1; return; }
        s->sym_bytes += (uint64_t)(nc - t->cap) * sizeof *n;
        t->v = n;
        t->cap = nc;
    }
    char *d = sym_dup(name, len);
    if (!d) { s->oom = 1; return; }
    s->sym_bytes += len;
    uint32_t k = sym_slot(t, key);
    while (t->hash[k]) k = (k + 1) & (t->hcap - 1);
    t->hash[k] = t->n + 1;
    t->v[t->n].key = key;
    t->v[t->n++].name = d;
}

/* Free the names replaced while the previous event was decoded (no event points at them now). */
static void sym_free_retired(rkh_state *s)
{
    for (unsigned i = 0; i < s->nretired; i++) evt_free(s->retired[i] - 1); /* sym_dup's */
    s->nretired = 0;
}

static void sym_free(symtab *t)
{
    for (uint32_t i = 0; i < t->n; i++) evt_free(t->v[i].name - 1); /* sym_dup's */
    evt_free(t->v);
    evt_free(t->hash);
}

/* ---- probe ------------------------------------------------------------------------------------- */

static int probe(const uint8_t *h, size_t len, uint64_t file_size)
{
    (void)file_size;
    evt_cur c; /* the head of the file, byte by byte */
    evt_cur_init(&c, h, len, 0, 0);
    uint8_t h0 = evt_cur_u8_at(&c, 0);
    evt_cur_at(&c, 0);
    int found = 0;
    while (!found && evt_cur_left(&c)) found = evt_cur_u8(&c) == RKH_FLAG;
    if (!found || c.pos - 1 > 64) return 0; /* no flag, or not within the first 65 bytes */
    unsigned frames = 0, good = 0, tcfg = 0;
    unsigned sum = 0, n = 0, esc = 0;
    uint8_t first = 0;
    while (evt_cur_left(&c) && frames < 16) {
        uint8_t b = evt_cur_u8(&c);
        if (b == RKH_FLAG) {
            if (n > 0 && !esc) {
                frames++;
                if ((sum & 0xFFu) == 0 && n >= 2) good++;
                if (first == RKH_TE_TCFG && (n == RKH_TCFG_LEN + 1 || n == RKH_TCFG_LEN)) tcfg++;
            }
            sum = n = esc = 0;
            continue;
        }
        if (b == RKH_ESC) { esc = 1; continue; }
        if (esc) { b ^= RKH_ESC_XOR; esc = 0; }
        if (n == 0) first = b;
        sum += b;
        n++;
    }
    if (tcfg && h0 == RKH_FLAG) return 90;
    if (frames >= 3 && good * 5 >= frames * 4) return 60;
    if (frames >= 1 && good == frames && h0 == RKH_FLAG) return 30;
    return 0;
}

/* ---- input ------------------------------------------------------------------------------------- */

static int next_byte(rkh_state *s, uint8_t *b, uint64_t *off)
{
    if (!evt_cur_left(&s->in)) {
        uint64_t at = s->in.base + s->in.len; /* the next chunk starts where this one ended */
        size_t got = evt_source_read_at(&s->r->src, at, s->chunk, CHUNK);
        evt_cur_init(&s->in, s->chunk, got, at, 0);
        if (got == 0) return 0;
    }
    *off = evt_cur_offset(&s->in);
    *b = evt_cur_u8(&s->in);
    return 1;
}

static int frame_push(rkh_state *s, uint8_t b)
{
    if (s->flen == s->fcap) {
        if (s->fcap >= MAX_FRAME) return 0;
        size_t nc = s->fcap ? s->fcap * 2 : 256;
        uint8_t *n = evt_realloc(s->frame, nc + 1);
        if (!n) { s->oom = 1; return 0; }
        s->frame = n;
        s->fcap = nc;
    }
    s->frame[s->flen++] = b;
    return 1;
}

/* Take the frame of k >= 1 bytes at the input's position, followed by its flag (k < the bytes
 * left), whose bytes sum to sum mod 256: in s->fp, s->flen, s->fsum (fsum_ok), the flag consumed. */
static inline void take_frame(rkh_state *s, size_t k, unsigned sum)
{
    s->frame_off = evt_cur_offset(&s->in);
    s->fp = evt_cur_take(&s->in, k + 1); /* the frame and its flag */
    s->flen = k;
    s->fsum = sum;
    s->fsum_ok = 1;
    s->tail_raw = 0;
}

/* Between frames, the next frame when it lies whole in the chunk and has escapes (k0 plain bytes,
 * summing to sum0 mod 256, then an escape at the input's position + k0): unescaped into s->frame,
 * as next_frame's loops would (an escape and the byte after it, not a flag, give that byte ^ 0x20),
 * its bytes in s->fp, s->flen, their sum mod 256 in s->fsum (fsum_ok), the flag consumed. Returns
 * 1 with a frame; 0, nothing consumed, when next_frame must take it: the chunk ends first, an
 * escape comes right before a flag (an aborted frame) or last in the chunk, or the frame needs
 * more room than s->frame has. Out of line: one frame in ~30 of the usual stream has an escape. */
static __attribute__((noinline)) int frame_escaped_in_chunk(rkh_state *s, size_t k0, unsigned sum0)
{
    evt_cur c = s->in; /* the scan's own: s->in moves only when the frame is taken */
    size_t o = 0, k = k0;
    unsigned tot = sum0;
    for (;;) {
        if (k > s->fcap - o) return 0;
        const uint8_t *run = evt_cur_take(&c, k); /* k <= what is left: the scan saw those bytes */
        if (k) memcpy(s->frame + o, run, k);
        o += k;
        int b = evt_cur_peek_at(&c, 0);
        if (b == RKH_FLAG) break;
        /* b is an escape (the scan stops only at a flag, an escape or the chunk's end, -1) */
        int e = evt_cur_peek_at(&c, 1);
        if (b != RKH_ESC || e < 0 || e == RKH_FLAG || o == s->fcap) return 0;
        evt_cur_skip(&c, 2);
        s->frame[o++] = (uint8_t)(e ^ RKH_ESC_XOR);
        tot += (unsigned)(e ^ RKH_ESC_XOR);
        unsigned rs;
        k = evt_cur_span_not2_sum8(&c, RKH_FLAG, RKH_ESC, evt_cur_left(&c), &rs);
        tot += rs;
    }
    s->frame_off = evt_cur_offset(&s->in);
    evt_cur_skip(&s->in, evt_cur_offset(&c) - evt_cur_offset(&s->in) + 1); /* the frame and its flag */
    s->fp = s->frame;
    s->flen = o;
    s->fsum = tot & 0xFFu;
    s->fsum_ok = 1;
    s->tail_raw = 0;
    return 1;
}

/* Between frames, the next frame when it lies whole in the chunk: without an escape, taken where
 * it is (what next_frame's byte loops do for it, without the copy); with escapes, unstuffed by
 * frame_escaped_in_chunk. Its bytes up to the flag in s->fp, s->flen, their sum mod 256 in
 * s->fsum (fsum_ok), the flag consumed. Returns 1 with a frame, 0 (nothing consumed but flags that
 * follow flags) when next_frame's loops must take what comes: the chunk ending first, an escape
 * frame_escaped_in_chunk leaves to them, or the framer inside a frame. */
static inline int frame_in_chunk(rkh_state *s)
{
    while (s->seen_flag && !(s->escaping | s->oversize) && s->flen == 0) {
        size_t left = evt_cur_left(&s->in);
        unsigned sum;
        size_t k = evt_cur_span16_not2_sum8(&s->in, RKH_FLAG, RKH_ESC, &sum);
        if (k == left) k = evt_cur_span_not2_sum8(&s->in, RKH_FLAG, RKH_ESC, left, &sum);
        if (k >= left) return 0;
        if (evt_cur_peek_at(&s->in, k) != RKH_FLAG) return frame_escaped_in_chunk(s, k, sum); /* an escape */
        if (k == 0) { /* a flag after a flag: no frame */
            evt_cur_skip(&s->in, 1);
            s->tail_raw = 0;
            continue;
        }
        take_frame(s, k, sum);
        return 1;
    }
    return 0;
}

/* Good frames that carry a sequence number so far (TCFG and loss records carry none). */
static uint64_t numbered_ok(const rkh_state *s)
{
    return s->frames_ok - s->by_id[RKH_TE_TCFG] - s->by_id[RKH_TE_EVTRACE_LOST];
}

/* A damaged frame at off whose record is lost unless a later sequence gap counts it. */
static void drop_frame(rkh_state *s, uint64_t off)
{
    uint64_t k = numbered_ok(s);
    if (k != s->drop_mark || !s->tail_drops) { /* a numbered frame since: its gap counted the older ones */
        s->tail_drops = 0;
        s->drop_mark = k;
        s->drop_off = off;
    }
    s->tail_drops++;
}

/* ev becomes a lost event of count records at off, at the stream's current time (a sequence gap,
 * or damaged frames). */
static void lost_event(rkh_state *s, evt_event *ev, uint64_t count, uint64_t off)
{
    evt_event_reset(ev);
    ev->fmt = s->r->desc->name;
    ev->kind = EVT_KIND_LOST;
    ev->name = vouch(s, "lost");
    ev->id = 0;
    ev->offset = off;
    ev->ts = s->ts64;
    ev->flags |= EVT_HAS_COUNT;
    ev->count = count;
}

/* ev becomes a lost event of count records at off (damaged frames no gap counts). */
static void damaged_lost(rkh_state *s, evt_event *ev, uint64_t count, uint64_t off)
{
    lost_event(s, ev, count, off);
    s->damaged_lost += count;
}

/* A frame with a good checksum (or none) that cannot be decoded: a length that does not match its
 * event's layout, or an unknown id. Its record is lost, as a checksum error's is: with sequence
 * numbers the next gap counts it (drop_frame; the end of the stream or the first numbered frame
 * when no gap can), without them ev becomes a lost event of one record. decode_frame's return. */
static int undecodable_frame(rkh_state *s, evt_event *ev)
{
    if (s->hdr_seq) {
        drop_frame(s, s->frame_off);
        return 0;
    }
    damaged_lost(s, ev, 1, s->frame_off);
    return 1;
}

/* Collect the next complete frame (bytes between two flags, unescaped) in s->fp, s->flen. Returns
 * 1, or 0 at the end of the input. Reports aborted frames, oversize runs, leading and trailing
 * bytes. */
static int next_frame(rkh_state *s)
{
    uint8_t b;
    uint64_t off;
    for (;;) {
        if (frame_in_chunk(s)) return 1;
        size_t left = evt_cur_left(&s->in);
        /* Inside a frame, the run of plain bytes up to the next flag or escape is copied at once
         * (what the byte loop below does for each of them). */
        size_t room = s->fcap - s->flen;
        if (s->seen_flag && !s->escaping && !s->oversize && left && room) {
            /* at most what the frame has room for (the byte loop grows it): each byte is looked
             * at once here, however long the run */
            size_t k = evt_cur_span_not2(&s->in, RKH_FLAG, RKH_ESC, room);
            if (k) {
                if (s->flen == 0) s->frame_off = evt_cur_offset(&s->in);
                memcpy(s->frame + s->flen, evt_cur_take(&s->in, k), k); /* k <= left: taken */
                s->flen += k;
                s->tail_raw += k;
                continue;
            }
        }
        if (!next_byte(s, &b, &off)) break;
        if (!s->seen_flag) {
            if (b == RKH_FLAG) {
                s->seen_flag = 1;
                if (s->bytes_before_first_flag)
                    rkh_diag_error(&s->diag, 0, "%" PRIu64 " bytes before the first flag (the stream starts mid-frame); skipped",
                                     s->bytes_before_first_flag);
                s->tail_raw = 0;
            } else {
                s->bytes_before_first_flag++;
            }
            continue;
        }
        if (b == RKH_FLAG) {
            int had = s->flen > 0 || s->escaping || s->oversize;
            uint64_t start = s->frame_off;
            int aborted = s->escaping, over = s->oversize;
            s->escaping = 0;
            s->oversize = 0;
            s->tail_raw = 0;
            if (!had) continue;
            if (aborted) {
                s->aborted_frames++;
                rkh_diag_abort(&s->diag, start, RKH_CFG_HAS(&s->cfg, RKH_BIT_NSEQ) != 0,
                               "frame aborted by an escape before the flag at offset %" PRIu64 " (%zu bytes dropped)",
                               off, s->flen);
                s->flen = 0;
                continue;
            }
            if (over && s->oom) return 0; /* not an oversize frame: no memory for it (next() fails) */
            if (over) {
                s->frames++;
                s->oversize_frames++;
                rkh_diag_error(&s->diag, start, "frame longer than %u bytes; skipped", MAX_FRAME);
                s->flen = 0;
                continue;
            }
            s->fp = s->frame;
            s->fsum_ok = 0;
            return 1;
        }
        s->tail_raw++;
        if (s->flen == 0 && !s->escaping && !s->oversize) s->frame_off = off;
        if (s->oversize) continue;
        if (b == RKH_ESC && !s->escaping) { s->escaping = 1; continue; }
        if (s->escaping) { b ^= RKH_ESC_XOR; s->escaping = 0; }
        if (!frame_push(s, b)) { s->oversize = 1; s->flen = 0; }
    }
    if (!s->ended) {
        s->ended = 1;
        if (!s->seen_flag && s->bytes_before_first_flag)
            rkh_diag_error(&s->diag, 0, "no flag byte (0x7E) in %" PRIu64 " bytes", s->bytes_before_first_flag);
        if (s->seen_flag && s->tail_raw) {
            s->trailing_bytes = s->tail_raw;
            rkh_diag_error(&s->diag, s->frame_off, "%" PRIu64 " trailing bytes without a closing flag", s->tail_raw);
            drop_frame(s, s->frame_off); /* the last record, cut short */
        }
    }
    return 0;
}

/* ---- decoding ---------------------------------------------------------------------------------- */

static unsigned kind_size(const rkh_state *s, char k)
{
    switch (k) {
    case '1': case 'I': return 1;
    case '2': return 2;
    case '4': return 4;
    case 'S': return s->cfg.sz_ptr;
    case 'F': return s->cfg.sz_fun;
    case 'G': return s->cfg.sz_sig;
    case 'E': return s->cfg.sz_nelem;
    case 'N': return s->cfg.sz_nblock;
    case 'B': return s->cfg.sz_bsize;
    case 'Z': return s->cfg.sz_esize;
    case 'T': return s->cfg.sz_ntimer;
    default: return 0;
    }
}


/* Whether the configuration puts argument g in its records (a low-water mark or the sender is
 * recorded only when its TCFG bit says so). */
static int arg_configured(const rkh_state *s, const rkh_arg *g)
{
    return !((g->cond == 'm' && !RKH_CFG_HAS(&s->cfg, RKH_BIT_MP_LWM)) ||
             (g->cond == 'q' && !RKH_CFG_HAS(&s->cfg, RKH_BIT_QUE_LWM)) ||
             (g->cond == 'r' && !RKH_CFG_HAS(&s->cfg, RKH_BIT_SNDR)));
}
/* Build s->plans from g_defs for the configuration in s->cfg; call again whenever it changes. */
static void build_plans(rkh_state *s)
{
    s->chk = RKH_CFG_HAS(&s->cfg, RKH_BIT_CHK);
    s->hdr_seq = RKH_CFG_HAS(&s->cfg, RKH_BIT_NSEQ);
    s->tsz = RKH_CFG_HAS(&s->cfg, RKH_BIT_TSTAMP) ? s->cfg.sz_ts : 0;
    s->hdr_usual = s->hdr_seq == 1 && s->tsz == 4 && s->chk == 1;
    s->ts_mask = s->tsz >= 8 ? ~0ull : ((uint64_t)1 << (8 * s->tsz)) - 1u;
    for (unsigned id = 0; id < 256; id++) {
        const rkh_evdef *d = &g_defs[id];
        rkh_plan *p = &s->plans[id];
        memset(p, 0, sizeof *p);
        p->fixed = d->name != NULL && d->kind != 'C' && d->kind != 'L' && !(id >= RKH_TE_USER && id <= RKH_TE_USER_LAST);
        for (unsigned a = 0; a < d->nargs; a++) {
            const rkh_arg *g = &d->args[a];
            if (!arg_configured(s, g)) continue;
            if (g->kind == 's' || g->kind == '*') { p->fixed = 0; break; }
            rkh_parg *x = &p->a[p->nargs++];
            x->name = g->name;
            x->name_key = g->name_key;
            x->size = kind_size(s, g->kind);
            x->tab = (g->kind == 'S' || g->kind == 'F') ? &s->objs : g->kind == 'G' ? &s->sigs : NULL;
            x->sets_ctx = g->sets_ctx;
            p->len += x->size;
        }
        p->sm_state = id == RKH_TE_SM_STATE || id == RKH_TE_SM_TS_STATE;
        p->user = id >= RKH_TE_USER && id <= RKH_TE_USER_LAST;
        p->symbol = d->kind == 'Y';
        p->state_names = p->fixed && p->nargs >= 2 && p->a[0].tab == &s->objs && p->a[1].tab == &s->objs;
        p->usual = (p->fixed && !p->symbol) || p->user;
        p->kind = p->user ? EVT_KIND_USER : d->kind == 'Y' ? EVT_KIND_MARKER : EVT_KIND_OTHER;
        p->frame_len = p->usual && !p->user ? 1 + s->hdr_seq + s->tsz + p->len + s->chk : 0;
    }
}

/* The next n-byte (1, 2, 4 or 8; else 0, skipping n) little-endian value of c: RKH's configured
 * field widths, read in order. */
static inline uint64_t ld_next(evt_cur *c, unsigned n)
{
    switch (n) {
    case 1: return evt_cur_u8(c);
    case 2: return evt_cur_u16le(c);
    case 4: return evt_cur_u32le(c);
    case 8: return evt_cur_u64le(c);
    default: evt_cur_skip(c, n); return 0;
    }
}

/* Sum of the first n bytes of c mod 256 (checksums of frames not summed while framed). */
static unsigned byte_sum8(evt_cur *c, size_t n)
{
    evt_cur_at(c, 0);
    return evt_cur_sum8(c, n) & 0xFFu;
}

/* The n-byte (1, 2, 4 or 8) little-endian value at pos of c: RKH's configured field widths. */
static uint64_t ld_le(evt_cur *c, size_t pos, unsigned n)
{
    switch (n) {
    case 1: return evt_cur_u8_at(c, pos);
    case 2: return evt_cur_u16le_at(c, pos);
    case 4: return evt_cur_u32le_at(c, pos);
    case 8: return evt_cur_u64le_at(c, pos);
    default: return 0;
    }
}

/* Hex text of the n bytes at pos of c (in the event's scratch). */
static const char *hex_of(rkh_state *s, evt_cur *c, size_t pos, size_t n)
{
    static const char hx[] = "0123456789abcdef";
    if (s->hexused + 2 * n + 1 > sizeof s->hexbuf) return "";
    char *o = s->hexbuf + s->hexused;
    evt_cur_at(c, pos);
    for (size_t i = 0; i < n; i++) { uint8_t b = evt_cur_u8(c); o[2 * i] = hx[b >> 4]; o[2 * i + 1] = hx[b & 15]; }
    o[2 * n] = 0;
    s->hexused += 2 * n + 1;
    return o;
}

static const char *key_for(rkh_state *s, unsigned i, const char *fmt, const char *a, const char *b)
{
    snprintf(s->keybuf[i], sizeof s->keybuf[i], fmt, a, b);
    return s->keybuf[i];
}

/* Tags of key_cached's keys (bits 56..63; pointers and ids below). */
#define RKH_KEY_USR_VAL (2ull << 56)   /* "f<i>_<TYPE>" of user field i */
#define RKH_KEY_USR_NAME (3ull << 56)  /* "f<i>_<TYPE>_name" */
#define RKH_KEY_USR_EVENT (4ull << 56) /* "USR#<n>" */

/* key_for's text, built once per key (it depends on the key only) and kept: no text is formatted
 * per event. */
static const char *key_cached(rkh_state *s, uint64_t key, unsigned i, const char *fmt, const char *a, const char *b)
{
    const char *k = evt_name_cache_get(&s->keys, key);
    if (k) return k;
    key_for(s, i, fmt, a, b);
    k = evt_name_cache_put(&s->keys, key, s->keybuf[i], strlen(s->keybuf[i]));
    return k ? k : s->keybuf[i];
}

/* Name a resolved value: objects/functions by address, signals by number, user events. */
static const char *resolve(rkh_state *s, char kind, uint64_t v)
{
    switch (kind) {
    case 'S': case 'F': return sym_get_v(s, &s->objs, v);
    case 'G': return sym_get_v(s, &s->sigs, v);
    default: return NULL;
    }
}

/* rkh_hooks_name_fn over the object table. */
static const char *obj_name(void *user, uint64_t obj) { rkh_state *s = user; return sym_get_v(s, &s->objs, obj); }

/* The record runs in active object ao, named nm (its sym_get_v, NULL if unnamed). */
static void set_ctx_named(evt_event *ev, uint64_t ao, const char *nm)
{
    ev->flags |= EVT_HAS_CTX;
    ev->ctx = ao;
    ev->ctx_class = EVT_CTX_THREAD;
    ev->ctx_name = nm;
}

/* "0x" and v in upper-case hex, at least 8 digits (printf's "0x%08" PRIX64), in buf (>= 19 bytes). */
static const char *hex08(char *buf, uint64_t v)
{
    static const char hx[] = "0123456789ABCDEF";
    unsigned nd = 8;
    while (nd < 16 && (v >> (4 * nd))) nd++;
    buf[0] = '0';
    buf[1] = 'x';
    for (unsigned i = 0; i < nd; i++) buf[2 + i] = hx[(v >> (4 * (nd - 1 - i))) & 15u];
    buf[2 + nd] = 0;
    return buf;
}

/* Decode the arguments of plan p from the p->len bytes of sp at off into ev: values, and the names
 * the symbol tables give them (also in names[], NULL when none); the record's active object its
 * context. Stored names are vouched for as they are put (sym_ok_bit). The caller checked that sp
 * holds p->len bytes from off (off + p->len <= sp.len), the sum of the argument sizes read here:
 * every read is inside them; and ev is as evt_event_reset left it but for the header's members
 * (no argument, field or text_ok bit yet). */
static inline void decode_fixed(evt_event *ev, const rkh_plan *p, evt_span sp, size_t off, const char **names)
{
    /* The event holds no argument or field yet (its reset) and a plan has at most MAX_ARGS
     * arguments of at most two fields each: they all fit, no check per field. */
    _Static_assert(MAX_ARGS <= EVT_MAX_ARGS && 2 * MAX_ARGS <= EVT_MAX_FIELDS && 2 * MAX_ARGS < 32,
                   "a plan's arguments fit an event (and fields_ok)");
    evt_field *f = ev->fields;
    uint32_t bad = 0; /* name fields not vouched for; the others are (the keys are the table's) */
    for (unsigned a = 0; a < p->nargs; a++) {
        const rkh_parg *g = &p->a[a];
        uint64_t v = evt_span_le(sp, off, g->size); /* 0 for a size not 1, 2, 4 or 8 */
        off += g->size;
        ev->args[a] = v;
        evt_field_u(f++, g->name, v);
        const char *nm = g->tab ? sym_name(g->tab, v) : NULL;
        if (nm) {
            if (!nm[-1]) bad |= 1u << (f - ev->fields); /* not a stored name that passed evt_text_ok (sym_dup) */
            evt_field_s(f++, g->name_key, nm);
        }
        names[a] = nm;
        if (g->sets_ctx) { /* one argument at most (parse_layout): its text_ok bit is the only one yet */
            set_ctx_named(ev, v, nm);
            ev->text_ok |= sym_ok_bit(nm, EVT_TEXT_OK_CTX_NAME);
        }
    }
    uint32_t nf = (uint32_t)(f - ev->fields);
    ev->nargs = p->nargs;
    ev->nfields = nf;
    ev->fields_ok = ((1u << nf) - 1u) & ~bad;
}

/* Decode user-record fields from the n bytes of u. Returns 0 on success, -1 if the fields overrun. */
static int decode_user(rkh_state *s, evt_event *ev, evt_cur *u)
{
    static const char *const tnames[] = {
#define RKH_UF_NAME_(t, name, k, sg) #name,
        RKH_USER_FIELD_TABLE(RKH_UF_NAME_)
#undef RKH_UF_NAME_
    };
    static const char tkinds[] = {
#define RKH_UF_KIND_(t, name, k, sg) k,
        RKH_USER_FIELD_TABLE(RKH_UF_KIND_)
#undef RKH_UF_KIND_
    };
    static const char tsigned[] = {
#define RKH_UF_SG_(t, name, k, sg) sg,
        RKH_USER_FIELD_TABLE(RKH_UF_SG_)
#undef RKH_UF_SG_
    };
    size_t i = 0, n = u->len;
    unsigned f = 0;
    while (i < n) {
        unsigned fmt = evt_cur_u8_at(u, i++);
        unsigned type = fmt & 15u;
        if (type >= sizeof tkinds) return -1;
        char k = tkinds[type];
        const char *key = "field";
        uint64_t fkey = (uint64_t)f << 8 | type;
        if (f < 32 && !(key = s->ukey[f][type])) { /* built once per field and type */
            char idx[8];
            snprintf(idx, sizeof idx, "f%u", f);
            key = key_cached(s, RKH_KEY_USR_VAL | fkey, f, "%s_%s", idx, tnames[type]);
            if (key != s->keybuf[f]) s->ukey[f][type] = key; /* kept (not the scratch: memory was short) */
        }
        f++;
        if (k == 's') {
            size_t end = i;
            while (end < n && evt_cur_u8_at(u, end)) end++;
            if (end >= n) return -1;
            const uint8_t *str = evt_cur_take_at(u, i, end - i + 1); /* NUL-terminated in the frame */
            evt_event_add_field_s(ev, key, (const char *)str);
            if (!ev->data) { ev->data = str; ev->data_len = end - i; ev->data_is_text = 1; }
            i = end + 1;
        } else if (k == 'M') {
            if (i >= n) return -1;
            size_t len = evt_cur_u8_at(u, i++);
            if (len > n - i) return -1;
            evt_event_add_field_s(ev, key, hex_of(s, u, i, len));
            if (!ev->data) { ev->data = evt_cur_take_at(u, i, len); ev->data_len = len; }
            i += len;
        } else {
            unsigned sz = kind_size(s, k);
            if (sz == 0 || sz > n - i) return -1;
            uint64_t v = ld_le(u, i, sz);
            i += sz;
            evt_put_arg(ev, v);
            if (tsigned[type]) { /* keys: the reader's own text (tnames) */
                int64_t sv = (int64_t)(v << (64 - 8 * sz)) >> (64 - 8 * sz);
                evt_put_i(ev, key, sv);
            } else {
                evt_put_u(ev, key, v);
            }
            const char *nm = resolve(s, k, v);
            if (nm && f <= 32) {
                const char *nk = s->ukey_name[f - 1][type];
                if (!nk) {
                    nk = key_cached(s, RKH_KEY_USR_NAME | fkey, 31 + f, "%s%s_name", key, "");
                    if (nk != s->keybuf[31 + f]) s->ukey_name[f - 1][type] = nk;
                }
                evt_event_add_field_s(ev, nk, nm);
            }
        }
    }
    return 0;
}

/* TCFG sends the timestamp rate cast to u16 (1 MHz arrives as 16960), so it is the clock only
 * where plausible: a whole number of microseconds per tick (1e6 % hz == 0: 1 Hz .. 62.5 kHz tick
 * rates such as 100, 1000, 10000) or 32768 Hz (a watch crystal). Otherwise the rate stays unknown
 * (--clock-hz gives it). */
static int rkh_tcfg_hz_plausible(unsigned hz) { return hz && (1000000u % hz == 0 || hz == 32768u); }

static void tcfg_record(rkh_state *s, const uint8_t *b, int chk)
{
    memcpy(s->tcfg_raw, b, RKH_TCFG_LEN);
    s->tcfg_chk = chk;
    s->tcfg_off = s->frame_off;
    s->have_tcfg = 1;
    rkh_cfg_from_tcfg(&s->cfg, b);
    build_plans(s);
    /* the clock model (reader.h); a hook.clock record found at open (rkh_clock_dec.h) wins */
    if (!s->hooks.clock_hz && rkh_tcfg_hz_plausible(s->cfg.ts_hz)) s->r->clock_hz = s->cfg.ts_hz;
}

/* An evtrace/user.h record (evtrace/user_defs.h, RKH carrier): the user fields from byte pos of
 * the frame, UI8 record type then UI32 words, decoded by the user decoder into ev. Fields of
 * another shape leave the event as the plain user record it is. */
static void user_record(rkh_state *s, evt_event *ev, evt_cur *c, size_t pos)
{
    size_t n = c->len, i = pos;
    if (!s->user || i + 2 > n || (evt_cur_u8_at(c, i) & 15u) != 1u /* UI8 */) return;
    unsigned rec = evt_cur_u8_at(c, i + 1);
    uint32_t nw = 0;
    for (i += 2; i < n && nw < EVT_USER_RKH_MAX_WORDS; i += 5) {
        if ((evt_cur_u8_at(c, i) & 15u) != 5u /* UI32 */ || i + 5 > n) return;
        s->uwords[nw++] = evt_cur_u32le_at(c, i + 1);
    }
    if (i < n || !evt_user_dec_claims(s->user, rec, s->uwords, nw, nw)) return;
    ev->nargs = 0;
    ev->nfields = 0;
    ev->fields_ok = 0;
    ev->data = NULL;
    ev->data_len = 0;
    ev->data_is_text = 0;
    uint64_t off = s->frame_off + pos + 2, doff = off;
    const char *diag = evt_user_dec_record(s->user, rec, s->uwords, nw, off, ev, &doff);
    if (diag) {
        /* word k sits at off + 5k + 1 in the (unstuffed) frame */
        uint64_t k = doff > off ? (doff - off) / 4u : 0;
        rkh_diag_error(&s->diag, off + 5u * k + 1u, "%s", diag);
    }
}

/* The frame's sequence number seq follows its predecessor's, or is the first: the diagnostics
 * told (rkh_diag_dec.h), the number taken. */
static inline void seq_accept(rkh_state *s, uint8_t seq)
{
    if (s->have_seq) rkh_diag_seq_ok(&s->diag);
    else rkh_diag_settle(&s->diag);
    s->have_seq = 1;
    s->last_seq = seq;
}

/* The frame's raw timestamp (s->tsz bytes) taken into the running time s->ts64. */
static inline void ts_accept(rkh_state *s, uint32_t rawts)
{
    /* the ticks since, modulo the wrap; the first timestamp itself, as ts64 and last_ts start at 0
     * (rawts < 2^(8 tsz): the mask keeps it whole) */
    s->ts64 += ((uint64_t)rawts - s->last_ts) & s->ts_mask;
    s->last_ts = rawts;
}

/* usr_event_name the first time: built and kept. */
static __attribute__((noinline)) const char *usr_event_name_new(rkh_state *s, unsigned id)
{
    const char *nm;
    snprintf(s->namebuf, sizeof s->namebuf, "USR#%u", id - RKH_TE_USER);
    nm = evt_name_cache_put(&s->keys, RKH_KEY_USR_EVENT | id, s->namebuf, strlen(s->namebuf));
    s->usr_names[id - RKH_TE_USER] = nm;
    return nm ? nm : s->namebuf;
}

/* "USR#<n>" of user record id, built once per id (kept in s->keys; s->namebuf when memory is short). */
static inline const char *usr_event_name(rkh_state *s, unsigned id)
{
    const char *nm = s->usr_names[id - RKH_TE_USER];
    return nm ? nm : usr_event_name_new(s, id);
}

/* The user said the stream comes from an RTOS's kernel hooks (--kernel: an RTOS profile, not RKH's
 * own nor Windows'): user records the stream never named take the hooks table's names, as in a
 * stream joined after its FWK_TUSR records (rkh_hooks_name). */
static int late_hooks(const rkh_state *s)
{
    int k = s->r->kernel_user;
    return k >= 0 && k != EVT_HOOK_KERNEL_RKH && k != EVT_HOOK_KERNEL_WINDOWS;
}

/* --kernel was set or changed (after open, before or between events): under late_hooks the hooks
 * table's numbers count as named, so the usual-frame path leaves their records to decode_frame. */
static __attribute__((noinline, cold)) void kernel_changed(rkh_state *s)
{
    s->kernel_hint = s->r->kernel_user;
#define RKH_HOOK_BIT_(n, name, str) | (1u << (n))
    if (late_hooks(s)) s->usr_named |= 0u RKH_HOOKS_TABLE(RKH_HOOK_BIT_);
#undef RKH_HOOK_BIT_
}

/* The generic hooks' records were seen: what they tell of the reader (caps, kernel, clock). */
static void hooks_seen(rkh_state *s)
{
    s->r->caps |= EVT_CAP_SCHED | EVT_CAP_ISR | EVT_CAP_SERVICES;
    if (s->hooks.kernel >= 0) s->r->kernel = s->hooks.kernel;
    if (s->hooks.clock_hz) s->r->clock_hz = s->hooks.clock_hz; /* hook.clock (a live stream) */
}

/* An SM_STATE record's meaning (ev->nargs >= 2): the state machine args[0] is now in state args[1],
 * named from FWK_STATE records, else hex; also the state_entered field. names[]: the arguments'
 * names when the plan looked them up (plan->state_names). Sets m.obj_name's and m.sm_state's
 * text_ok bits. */
static inline void sm_state_meaning(rkh_state *s, evt_event *ev, const rkh_plan *plan, const char *const *names)
{
    const char *nm = plan->state_names ? names[1] : sym_name(&s->objs, ev->args[1]);
    const char *on = plan->state_names ? names[0] : sym_name(&s->objs, ev->args[0]);
    int nm_ok = nm && nm[-1]; /* sym_dup's byte */
    if (!nm) { nm = hex08(s->statebuf, ev->args[1]); nm_ok = 1; } /* the reader's own text */
    evt_field *f = evt_put_fields(ev, 1); /* NULL: the event's fields are full (the field dropped) */
    if (f) {
        evt_field_s(f, "state_entered", nm);
        if (!nm_ok) evt_field_unvouch(ev, f);
    }
    ev->m.has |= EVT_M_SM_STATE;
    ev->m.obj = ev->args[0];
    ev->m.obj_name = on;
    ev->m.sm_state_id = ev->args[1];
    ev->m.sm_state = nm;
    /* an object without a stored name leaves m.obj_name NULL: vouched for (model.h) */
    ev->text_ok |= (nm_ok ? EVT_TEXT_OK_SM_STATE : 0u) | (on ? sym_ok_bit(on, EVT_TEXT_OK_OBJ_NAME) : EVT_TEXT_OK_OBJ_NAME);
}

/* The strings of an event neither the hooks nor the user decoder filled: this reader sets only name
 * (the table's own text or "USR#<n>" built here), ctx_name, and m.obj_name and m.sm_state in the
 * SM_STATE block (each vouched for when a stored name that passed evt_text_ok); the four others
 * stay NULL, as do those of `unset` (EVT_TEXT_OK_OBJ_NAME, _SM_STATE when no SM_STATE block set
 * them). Strings left NULL are vouched for (model.h), so the usual event has EVT_TEXT_OK_ALL. Call
 * after everything that may set them. */
static inline void text_ok_plain(evt_event *ev, unsigned unset)
{
    ev->text_ok |= EVT_TEXT_OK_NAME | EVT_TEXT_OK_TARGET_NAME | EVT_TEXT_OK_LABEL | EVT_TEXT_OK_NEXT_NAME |
                   EVT_TEXT_OK_TEXT | unset | (ev->ctx_name ? 0u : EVT_TEXT_OK_CTX_NAME);
}

/* ---- the general frame: tokenized by next_frame, parsed below in the record's order ----------
 * decode_frame reads the header, then hands each part to one step: a TCFG record (frame_tcfg), the
 * checksum (frame_checksum), evtrace's loss record (frame_loss), the fields (frame_fields), the
 * sequence number (frame_sequence) and the meaning (frame_meaning, frame_symbol). A step that
 * reports an error leaves the event reset; counters move only once the frame's length is good. */

/* A TCFG record of n bytes (RKH_TCFG_LEN, or one more: its checksum): the configuration the
 * records after it are decoded with. 1 with its event, or, when corrupt (reported; the
 * configuration stays), with a lost event of one record: it has no number a gap could count. */
static int frame_tcfg(rkh_state *s, evt_cur *c, size_t n, evt_event *ev)
{
    unsigned sum = s->fsum_ok ? s->fsum : byte_sum8(c, n);
    int chk = (n == RKH_TCFG_LEN + 1);
    if (chk && (sum & 0xFFu) != 0) {
        s->checksum_errors++;
        rkh_diag_error(&s->diag, s->frame_off, "checksum error in the TCFG record");
        damaged_lost(s, ev, 1, s->frame_off); /* unnumbered: no sequence gap can count it */
        return 1;
    }
    /* Field sizes must be 1, 2 or 4 bytes, and the pointer's 1, 2, 4 or 8 (SIZEOF_PTR 8..64,
     * a 64-bit port says 8; rkh_cfg_from_tcfg maps it to the 2 or 4 bytes sent): a record that
     * says otherwise is corrupt (its checksum may still add up) and does not replace the
     * configuration. */
    static const unsigned char ok_size[16] = {0, 1, 1, 0, 1}, ok_ptr[16] = {0, 1, 1, 0, 1, 0, 0, 0, 1};
    uint8_t z7 = evt_cur_u8_at(c, 7), z8 = evt_cur_u8(c), z9 = evt_cur_u8(c), z10 = evt_cur_u8(c), z11 = evt_cur_u8(c);
    if (!ok_size[z7 >> 4] || !ok_size[z7 & 15u] || !ok_ptr[z8 >> 4] || !ok_size[z8 & 15u] ||
        !ok_size[z9 >> 4] || !ok_size[z9 & 15u] || z10 > 4 || !ok_size[z10] || !ok_size[z11 >> 4]) {
        s->length_errors++;
        rkh_diag_error(&s->diag, s->frame_off, "TCFG record with impossible field sizes (%02x %02x %02x %02x %02x); ignored",
                         z7, z8, z9, z10, z11);
        damaged_lost(s, ev, 1, s->frame_off);
        return 1;
    }
    tcfg_record(s, evt_cur_take_at(c, 0, RKH_TCFG_LEN), chk);
    s->restart_pending = 1;
    s->restart_mark = numbered_ok(s);
    s->frames_ok++;
    s->by_id[RKH_TE_TCFG]++;
    ev->id = RKH_TE_TCFG;
    ev->name = vouch(s, "FWK_TCFG");
    ev->kind = EVT_KIND_MARKER;
    ev->ts = s->ts64;
    ev->m.has |= EVT_M_UNTIMED; /* TCFG carries no timestamp: the trace starts at its first record */
    const rkh_evdef *d = &g_defs[RKH_TE_TCFG];
    size_t pos = 1;
    for (unsigned a = 0; a < d->nargs; a++) {
        unsigned sz = kind_size(s, d->args[a].kind);
        uint64_t v = ld_le(c, pos, sz);
        pos += sz;
        evt_put_arg(ev, v);
        evt_put_u(ev, d->args[a].name, v); /* the layout table's own key */
    }
    return 1;
}

/* The frame's checksum (the configuration has one): good, *n loses the checksum byte and c is
 * the frame without it (-1: go on); else the error is reported and decode_frame returns this (0:
 * the next sequence gap counts the record; 1: a lost event, without sequence numbers). */
static int frame_checksum(rkh_state *s, evt_cur *c, size_t *n, uint8_t id, evt_event *ev)
{
    unsigned sum = s->fsum_ok ? s->fsum : byte_sum8(c, *n);
    if ((sum & 0xFFu) != 0) {
        s->checksum_errors++;
        rkh_diag_error(&s->diag, s->frame_off, "checksum error (frame of %zu bytes, id 0x%02x)", *n, id);
        if (s->hdr_seq) { drop_frame(s, s->frame_off); return 0; } /* the next gap counts it */
        damaged_lost(s, ev, 1, s->frame_off);
        return 1;
    }
    (*n)--;
    evt_cur_init(c, s->fp, *n, s->frame_off, 0);
    return -1;
}

/* evtrace's loss record (n bytes without the checksum; no seq, no timestamp): its count is the
 * loss, less what sequence gaps already reported (gap_debt), so nothing is counted twice. 1 with
 * the lost event, 0 when its length is wrong (reported). */
static int frame_loss(rkh_state *s, evt_cur *c, size_t n, uint8_t id, evt_event *ev)
{
    if (n != 9) {
        s->length_errors++;
        rkh_diag_error(&s->diag, s->frame_off, "loss record of %zu bytes (needs 9)", n);
        return 0;
    }
    s->frames_ok++;
    s->by_id[id]++;
    ev->id = id;
    ev->name = vouch(s, g_defs[id].name);
    ev->ts = s->ts64;
    uint32_t cnt = evt_cur_u32le_at(c, 1), tot = evt_cur_u32le(c); /* id, u32 count, u32 running total */
    evt_event_add_arg(ev, cnt);
    evt_event_add_arg(ev, tot);
    evt_put_u(ev, "lost", cnt);
    evt_put_u(ev, "total", tot);
    /* The running total is authoritative: a loss record that was itself overwritten is
     * accounted for by the next one. */
    uint64_t since = (tot >= s->recorder_lost) ? tot - s->recorder_lost : cnt;
    s->recorder_lost = tot;
    uint64_t explained = since < s->gap_debt ? since : s->gap_debt;
    s->gap_debt -= explained;
    s->loss_credit += since - explained;
    rkh_diag_loss(&s->diag, since);
    ev->kind = EVT_KIND_LOST;
    ev->flags |= EVT_HAS_COUNT;
    ev->count = since - explained;
    return 1;
}

/* A table-driven layout's fields (plan neither fixed nor user) from pos to n: one per configured
 * argument, a string up to its NUL, a '*' block to the end. The position after them (n + 1 when
 * one does not fit). */
static size_t layout_fields(rkh_state *s, evt_event *ev, evt_cur *c, size_t pos, size_t n, const rkh_evdef *d)
{
    for (unsigned a = 0; a < d->nargs; a++) {
        const rkh_arg *g = &d->args[a];
        if (!arg_configured(s, g)) continue;
        if (g->kind == 's') {
            size_t end = pos;
            while (end < n && evt_cur_u8_at(c, end)) end++;
            if (end >= n) return n + 1;
            const uint8_t *str = evt_cur_take_at(c, pos, end - pos + 1); /* NUL-terminated in the frame */
            evt_event_add_field_s(ev, g->name, (const char *)str);
            if (!ev->data) { ev->data = str; ev->data_len = end - pos; ev->data_is_text = 1; }
            pos = end + 1;
            continue;
        }
        if (g->kind == '*') {
            if (!ev->data) { ev->data = evt_cur_take_at(c, pos, n - pos); ev->data_len = n - pos; }
            pos = n;
            continue;
        }
        unsigned sz = kind_size(s, g->kind);
        if (sz > n - pos) return n + 1;
        uint64_t v = ld_le(c, pos, sz);
        pos += sz;
        evt_put_arg(ev, v);
        evt_put_u(ev, g->name, v); /* the layout table's own key */
        const char *nm = resolve(s, g->kind, v); /* kind I (uevt): no name */
        if (nm) { /* the key: the layout table's own text */
            if (is_vouched(s, nm)) evt_put_s(ev, g->name_key, nm);
            else evt_event_add_field_s(ev, g->name_key, nm);
        }
        if (g->sets_ctx) set_ctx_named(ev, v, nm);
    }
    return pos;
}

/* The record's fields, from pos (after the header) to n (without the checksum; chk: its byte, for
 * the messages): a user record's, a fixed layout's (names: decode_fixed's names of the arguments)
 * or a table-driven layout's. 1 when they fill the frame exactly; else 0, reported, ev reset.
 * Nothing is counted before this holds. */
static int frame_fields(rkh_state *s, evt_event *ev, evt_cur *c, size_t pos, size_t n, int chk, uint8_t id,
                        const char **names)
{
    const rkh_plan *plan = &s->plans[id];
    const rkh_evdef *d = &g_defs[id];
    if (plan->user) {
        evt_cur u;
        evt_cur_at(c, pos);
        evt_cur_sub(c, n - pos, &u);
        if (decode_user(s, ev, &u) == 0) return 1;
        s->length_errors++;
        rkh_diag_error(&s->diag, s->frame_off, "user record fields do not fit the frame (id 0x%02x)", id);
        evt_event_reset(ev);
        return 0;
    }
    size_t end;
    if (plan->fixed) {
        end = pos + plan->len; /* n when it fits (pos <= n: the header fits) */
        if (end == n) decode_fixed(ev, plan, evt_cur_take_span(c, plan->len), 0, names); /* c is at pos */
    } else {
        end = layout_fields(s, ev, c, pos, n, d);
    }
    if (end == n) return 1;
    s->length_errors++;
    if (plan->fixed || end < n) /* the layout's length is known: a fixed one, or fields that end early */
        rkh_diag_error(&s->diag, s->frame_off, "frame length %zu does not match the layout of %s (needs %zu)",
                       n + (size_t)chk, d->name, end + (size_t)chk);
    else
        rkh_diag_error(&s->diag, s->frame_off, "frame length %zu is too short for the layout of %s", n + (size_t)chk,
                       d->name);
    evt_event_reset(ev);
    return 0;
}

/* The sequence number seq of a numbered frame decoded the first time (rawts: its timestamp). 0:
 * accepted, go on; 2: a lost event is in ev and the frame is decoded again (a gap, or a damaged
 * frame just before a restart). TCFG then 0 is a restart of the recorder, not a gap. */
static int frame_sequence(rkh_state *s, evt_event *ev, uint8_t seq, uint32_t rawts)
{
    if (s->have_seq && seq == 0 && seq != (uint8_t)(s->last_seq + 1) && s->restart_pending &&
        numbered_ok(s) == s->restart_mark) {
        /* TCFG, then 0: the recorder started again (its records are numbered from 0), not a
         * gap of (0 - last - 1) mod 256 records. A damaged frame just before the restart is
         * still lost: a lost event first, then this frame again. */
        s->restarts++;
        s->restart_pending = 0;
        s->have_seq = 0; /* seq_accept below: the first numbered frame again */
        s->last_ts = rawts; /* its clock restarted too: the time goes on from here (not a wrap) */
        if (s->tail_drops && numbered_ok(s) == s->drop_mark) {
            seq_accept(s, seq);
            damaged_lost(s, ev, s->tail_drops, s->drop_off);
            s->tail_drops = 0;
            s->redo = 1;
            return 2;
        }
    } else if (s->have_seq && seq != (uint8_t)(s->last_seq + 1)) {
        uint8_t missing = (uint8_t)(seq - s->last_seq - 1);
        s->seq_gaps++;
        s->missing_records += missing;
        rkh_diag_gap(&s->diag, s->frame_off, missing, "sequence gap: %u followed by %u, %u record%s missing",
                     s->last_seq, seq, missing, missing == 1 ? "" : "s");
        s->last_seq = seq;
        s->redo = 1;
        /* only what loss records have not already reported */
        uint64_t explained = missing < s->loss_credit ? missing : s->loss_credit;
        s->loss_credit -= explained;
        s->gap_debt += missing - explained;
        lost_event(s, ev, missing - explained, s->frame_off);
        ev->flags |= EVT_HAS_SEQ;
        ev->seq = seq;
        return 2;
    } else if (!s->have_seq && s->tail_drops && numbered_ok(s) == s->drop_mark) {
        /* damaged frames before the first numbered one (of the stream, or since a restart): no
         * earlier number shows them as a gap, so they are lost here, then this frame again */
        seq_accept(s, seq);
        damaged_lost(s, ev, s->tail_drops, s->drop_off);
        s->tail_drops = 0;
        s->redo = 1;
        return 2;
    }
    seq_accept(s, seq);
    return 0;
}

/* A user record's meaning (c: the frame, its fields from pos): "USR#n", the name a FWK_TUSR record
 * (or, under --kernel, the hooks table) gave it, the generic hooks' meaning when it is theirs or a
 * hook context is open, a printf-style user event when it is the carrier. 1 when the hooks or the
 * user decoder filled the event. */
static int user_meaning(rkh_state *s, evt_event *ev, uint8_t id, evt_cur *c, size_t pos)
{
    int rich = 0;
    ev->name = vouch(s, usr_event_name(s, id)); /* "USR#n", built here */
    ev->kind = EVT_KIND_USER;
    const char *un = sym_get_v(s, &s->usr, id - RKH_TE_USER);
    if (!un && late_hooks(s)) un = vouch(s, rkh_hooks_name(id - RKH_TE_USER)); /* --kernel RTOS: joined late */
    if (un && is_vouched(s, un)) evt_put_s(ev, "user_event", un);
    else if (un) evt_event_add_field_s(ev, "user_event", un);
    if (un || s->hooks.isr_depth || s->hooks.thread) {
        /* (an unnamed record with no thread or interrupt running: the hooks leave it as it is
         * -- no hook name, no context to give, and a user record opens or ends no wait) */
        s->hooks.profile = s->r->kernel_user >= 0 ? evt_reader_profile(s->r) : NULL;
        rkh_hooks_dec_apply(&s->hooks, ev, un, obj_name, s);
        rich = 1;
    }
    if (un && strcmp(un, EVT_USER_RKH_NAME) == 0) { /* by its name: 31, or 24 before 30 Nov 2026 (user_defs.h) */
        user_record(s, ev, c, pos);
        rich = 1;
    }
    if (s->hooks.seen) hooks_seen(s);
    return rich;
}

/* A symbol record (ev->nargs >= 1, its name in ev->data): the name of a signal, user record, pool
 * or object for the records after it. */
static void frame_symbol(rkh_state *s, evt_event *ev, uint8_t id)
{
    const char *nm = (const char *)ev->data;
    switch (id) {
    case RKH_TE_FWK_SIG: sym_set(s, &s->sigs, ev->args[0], nm); break;
    case RKH_TE_FWK_TUSR:
        sym_set(s, &s->usr, ev->args[0], nm);
        if (ev->args[0] < 32) s->usr_named |= 1u << ev->args[0]; /* (also when not kept: a hint) */
        break;
    case RKH_TE_FWK_EPOOL: sym_set(s, &s->pools, ev->args[0], nm); break;
    case RKH_TE_FWK_STATE: case RKH_TE_FWK_PSTATE: sym_set(s, &s->objs, ev->args[1], nm); break; /* the state */
    default: sym_set(s, &s->objs, ev->args[0], nm); break;
    }
    if ((ev->flags & EVT_HAS_CTX) && !ev->ctx_name) ev->ctx_name = sym_get_v(s, &s->objs, ev->ctx);
    /* a hooks stream writes a symbol record where the running code creates an object (the
     * FWK_OBJ before obj_create): it ran in that code's context, not in none (else the next
     * record of the running thread counted as a switch into it) */
    if (s->hooks.seen && !(ev->flags & EVT_HAS_CTX)) rkh_hooks_dec_context(&s->hooks, ev, obj_name, s);
}

/* The meaning of an accepted record (its fields in ev; c: the frame, the fields from pos; names:
 * frame_fields'): its name and kind, a user record's meaning, a state change's, a symbol's. */
static void frame_meaning(rkh_state *s, evt_event *ev, uint8_t id, evt_cur *c, size_t pos, const char *const *names)
{
    const rkh_plan *plan = &s->plans[id];
    const rkh_evdef *d = &g_defs[id];
    int rich = 0; /* the hooks or the user decoder filled the event */
    unsigned unset = EVT_TEXT_OK_OBJ_NAME | EVT_TEXT_OK_SM_STATE; /* m.obj_name, m.sm_state: set only below */
    ev->id = id;
    if (plan->user) {
        rich = user_meaning(s, ev, id, c, pos);
    } else {
        ev->name = d->name; /* the table's own text */
        ev->text_ok |= EVT_TEXT_OK_NAME;
        ev->kind = d->kind == 'Y' ? EVT_KIND_MARKER : EVT_KIND_OTHER;
    }
    ev->ts = s->ts64;
    if (plan->sm_state && ev->nargs >= 2) {
        sm_state_meaning(s, ev, plan, names);
        unset = 0;
    }
    if (plan->symbol && ev->nargs >= 1 && ev->data) frame_symbol(s, ev, id);
    if (!rich) text_ok_plain(ev, unset);
}

/* Decode the frame at s->fp (s->flen >= 1 bytes, next_frame) into ev. Returns 1 with an event, 0
 * if the frame produced none (error reported), 2 when a lost event was produced and the frame
 * must be decoded again. */
static int decode_frame(rkh_state *s, evt_event *ev)
{
    size_t n = s->flen;
    evt_cur c; /* the unstuffed frame; shortened to exclude the checksum once it is checked */
    evt_cur_init(&c, s->fp, n, s->frame_off, 0);
    uint8_t id = evt_cur_u8_at(&c, 0);
    int redo = s->redo;
    s->redo = 0;
    if (!redo) s->frames++;
    rkh_diag_progress(&s->diag, s->frame_off);
    ev->offset = s->frame_off;

    if (id == RKH_TE_TCFG && (n == RKH_TCFG_LEN || n == RKH_TCFG_LEN + 1)) return frame_tcfg(s, &c, n, ev);
    int chk = (int)s->chk;
    if (chk) {
        int rc = frame_checksum(s, &c, &n, id, ev);
        if (rc >= 0) return rc;
    }
    const rkh_plan *plan = &s->plans[id]; /* fixed: a known id, neither loss nor user record */
    const rkh_evdef *d = &g_defs[id];
    if (!plan->fixed && !d->name && !plan->user) {
        s->unknown_ids++;
        rkh_diag_error(&s->diag, s->frame_off, "unknown event id %u (0x%02x)", id, id);
        return undecodable_frame(s, ev);
    }
    if (!plan->fixed && d->kind == 'L') return frame_loss(s, &c, n, id, ev);

    /* the header: id, seq, timestamp */
    unsigned hdr_seq = s->hdr_seq, tsz = s->tsz;
    if (n < 1 + hdr_seq + tsz) {
        s->length_errors++;
        rkh_diag_error(&s->diag, s->frame_off, "frame of %zu bytes too short for its header (id 0x%02x)", n, id);
        return undecodable_frame(s, ev);
    }
    evt_cur_at(&c, 1); /* the header fits (checked above) */
    uint8_t seq = hdr_seq ? evt_cur_u8(&c) : 0;
    uint32_t rawts = (uint32_t)ld_next(&c, tsz); /* 0 when tsz is 0 */
    size_t pos = 1 + hdr_seq + tsz;

    const char *names[MAX_ARGS]; /* decode_fixed's names of the arguments */
    if (!frame_fields(s, ev, &c, pos, n, chk, id, names)) return undecodable_frame(s, ev);
    if (hdr_seq && !redo) {
        int rc = frame_sequence(s, ev, seq, rawts);
        if (rc) return rc;
    }
    if (tsz) ts_accept(s, rawts);
    s->frames_ok++;
    s->by_id[id]++;
    frame_meaning(s, ev, id, &c, pos, names);
    if (hdr_seq) { ev->flags |= EVT_HAS_SEQ; ev->seq = seq; }
    return 1;
}

/* ---- the usual frame --------------------------------------------------------------------------- */

/* decode_user for fields that are all integers of 1, 2 or 4 bytes (types I8 .. X32: their size does
 * not depend on the configuration, and no table names them) whose keys were built before (the
 * first field of a type at an index goes through decode_user): the same fields, from the bytes of
 * u (all of them). 0 when another field comes or a field does not fit (ev has some of the fields
 * then: the caller resets it). */
static inline int user_fields_plain(rkh_state *s, evt_event *ev, evt_span u)
{
    static const uint8_t size[16] = {
#define RKH_UF_SIZE_(t, name, k, sg) [t] = k == '1' ? 1 : k == '2' ? 2 : k == '4' ? 4 : 0,
        RKH_USER_FIELD_TABLE(RKH_UF_SIZE_)
#undef RKH_UF_SIZE_
    };
    static const uint8_t is_signed[16] = {
#define RKH_UF_SG_(t, name, k, sg) [t] = sg,
        RKH_USER_FIELD_TABLE(RKH_UF_SG_)
#undef RKH_UF_SG_
    };
    size_t i = 0, n = u.len;
    for (unsigned f = 0; i < n; f++) {
        unsigned type = evt_span_u8(u, i++) & 15u, sz = size[type];
        const char *key = f < 32 ? s->ukey[f][type] : NULL;
        if (!sz || sz > n - i || !key) return 0;
        uint64_t v = evt_span_le(u, i, sz); /* sz <= n - i: inside the fields */
        i += sz;
        evt_put_arg(ev, v);
        if (is_signed[type]) evt_put_i(ev, key, (int64_t)(v << (64 - 8 * sz)) >> (64 - 8 * sz));
        else evt_put_u(ev, key, v);
    }
    return 1;
}

/* usual_user's fields when user_fields_plain does not take them all: decode_user over them (the
 * span's bytes at source offset base), from a reset event. 1 when they fit, else 0 with ev reset. */
static __attribute__((noinline)) int user_fields_any(rkh_state *s, evt_event *ev, evt_span fields, uint64_t base)
{
    evt_event_reset(ev); /* some fields of another kind: decode_user takes them all */
    ev->fmt = s->r->desc->name;
    evt_cur u;
    evt_span_cur(fields, 0, fields.len, base, &u);
    s->hexused = 0;
    if (decode_user(s, ev, &u) == 0) return 1;
    evt_event_reset(ev);
    ev->fmt = s->r->desc->name;
    return 0;
}

/* A user record's fields (fields: the frame's own bytes after the header, before the checksum, at
 * source offset base) when no symbol record named the record (s->usr_named: no name, so no hook
 * and no user decoder takes it) and no hook context is open: what decode_frame does for it then.
 * 1 with the fields; 0 when they do not fit (ev reset: decode_frame reports it). */
static inline int usual_user(rkh_state *s, evt_event *ev, evt_span fields, uint64_t base)
{
    return user_fields_plain(s, ev, fields) || user_fields_any(s, ev, fields, base);
}

/* Decode the frame of n >= 1 bytes at q (without escapes; their sum mod 256 is sum), at source
 * offset off, when it is a usual one: a record of a fixed layout (rkh_plan.fixed, not a symbol
 * record) of exactly its plan's length, or a user record as usual_user takes it; its checksum good;
 * its sequence number the next one (or the first). What decode_frame does with such a frame, in the
 * same order, straight from its bytes (the length checked first: every read below is inside them).
 * Returns 1 with the event, 0 when the frame is another or in error: nothing counted, ev as it was
 * (or reset), and the general path takes the frame. */
static inline __attribute__((always_inline)) int decode_usual_cfg(rkh_state *s, evt_event *ev, const uint8_t *q, size_t n,
                                                                  unsigned sum, uint64_t off, unsigned hdr_seq, unsigned tsz,
                                                                  unsigned chk)
{
    evt_cur c; /* the frame without its checksum byte (n >= 1 + chk: a frame has its id) */
    evt_cur_init(&c, q, n - (n > chk ? chk : 0), off, 0);
    evt_span fr = evt_cur_take_span(&c, n - (n > chk ? chk : 0)); /* all of it: the reads below are inside */
    unsigned id = evt_span_u8(fr, 0);
    const rkh_plan *plan = &s->plans[id];
    size_t hdr = 1 + hdr_seq + tsz; /* id, seq, timestamp */
    if (n != plan->frame_len && !(plan->user && n >= hdr + chk)) return 0; /* not usual, or its length is wrong */
    /* a user record a symbol record named (the generic hooks' are), or with a hook context open:
     * decode_frame gives it to the hooks */
    if (plan->user && ((s->usr_named >> (id - RKH_TE_USER)) & 1u || s->hooks.isr_depth || s->hooks.thread)) return 0;
    if (chk && sum != 0) return 0; /* a checksum error (sum < 256) */
    /* the header fits: n >= hdr + chk (checked above) */
    uint8_t seq = hdr_seq ? evt_span_u8(fr, 1) : 0;
    if (hdr_seq && s->have_seq && seq != (uint8_t)(s->last_seq + 1)) return 0; /* a gap */
    if (hdr_seq && !s->have_seq && s->tail_drops) return 0; /* damaged frames before the first number: decode_frame counts them */
    uint32_t rawts = (uint32_t)evt_span_le(fr, 1 + hdr_seq, tsz); /* 0 when tsz is 0 */
    if (plan->user) { /* its fields first: they may not fit (a fixed record's always do) */
        evt_cur uc; /* the fields: n >= hdr + chk (checked above), inside fr */
        evt_span_cur(fr, hdr, n - hdr - chk, off, &uc);
        if (!usual_user(s, ev, evt_cur_take_span(&uc, n - hdr - chk), off + hdr)) return 0;
        ev->name = usr_event_name(s, id); /* "USR#n", built here: vouched for by text_ok_plain */
    }
    /* the frame is taken: counted, its sequence number and time accepted, then the event (the
     * header's values die here, before decode_fixed) */
    s->frame_off = off;
    s->frames++;
    if (hdr_seq && s->have_seq) { /* the usual case: seq_accept's, with rkh_diag_progress */
        rkh_diag_progress_seq_ok(&s->diag, off);
        s->last_seq = seq;
    } else {
        rkh_diag_progress(&s->diag, off);
        if (hdr_seq) seq_accept(s, seq);
    }
    if (tsz) ts_accept(s, rawts);
    s->frames_ok++;
    s->by_id[id]++;
    ev->offset = off; /* ev->fmt: set by evt_reader_next, as this reader sets it */
    ev->id = id;
    ev->kind = plan->kind;
    ev->ts = s->ts64;
    if (hdr_seq) { ev->flags |= EVT_HAS_SEQ; ev->seq = seq; }
    const char *names[MAX_ARGS]; /* decode_fixed's names of the arguments */
    if (!plan->user) {
        decode_fixed(ev, plan, fr, hdr, names); /* plan->len bytes from hdr: n == plan->frame_len */
        ev->name = g_defs[id].name; /* the table's own text */
    }
    unsigned unset = EVT_TEXT_OK_OBJ_NAME | EVT_TEXT_OK_SM_STATE; /* m.obj_name, m.sm_state */
    if (plan->user) {
        if (s->hooks.seen) hooks_seen(s);
    } else if (plan->sm_state && ev->nargs >= 2) {
        sm_state_meaning(s, ev, plan, names);
        unset = 0;
    }
    text_ok_plain(ev, unset);
    return 1;
}

/* decode_usual_cfg with the configuration's header; the usual one (a seq byte, a 4-byte timestamp,
 * a checksum: RKH's template) with them constant. */
static inline __attribute__((always_inline)) int decode_usual(rkh_state *s, evt_event *ev, const uint8_t *q, size_t n,
                                                              unsigned sum, uint64_t off)
{
    if (s->hdr_usual) return decode_usual_cfg(s, ev, q, n, sum, off, 1, 4, 1);
    return decode_usual_cfg(s, ev, q, n, sum, off, s->hdr_seq, s->tsz, s->chk);
}

/* decode_usual out of line, for the general path. */
static __attribute__((noinline)) int decode_usual_out(rkh_state *s, evt_event *ev, const uint8_t *q, size_t n, unsigned sum,
                                                      uint64_t off)
{
    return decode_usual(s, ev, q, n, sum, off);
}

/* ---- reader API -------------------------------------------------------------------------------- */

static evt_status open_(evt_reader *r, void **state)
{
    rkh_state *s = evt_calloc(1, sizeof *s);
    if (!s) return evt_reader_fail(r, EVT_ERR_NOMEM, 0, "out of memory");
    *state = s;
    s->r = r;
    s->kernel_hint = -1; /* evt_reader_open's: no --kernel yet */
    if (!(s->user = evt_user_dec_new())) return evt_reader_fail(r, EVT_ERR_NOMEM, 0, "out of memory");
    const char *uelf = evt_opts_get(r->opts, "elf");
    if (uelf) {
        char uerr[256];
        if (evt_user_dec_load_elf(s->user, uelf, uerr, sizeof uerr) != 0)
            return evt_reader_fail(r, EVT_ERR_USAGE, 0, "--elf: %s", uerr);
    }
    rkh_hooks_dec_init(&s->hooks);
    if (!r->src.is_stream) { /* the hooks' hook.clock record: the time base and kernel from the start */
        uint8_t head[RKH_CLOCK_SCAN_BYTES];
        uint32_t k;
        if (rkh_clock_scan(head, evt_source_read_at(&r->src, 0, head, sizeof head), &k, &s->hooks.clock_hz) &&
            k < EVT_HOOK_KERNEL_COUNT_)
            s->hooks.kernel = (int)k;
    }
    /* RKH's own records: state machines, events, queues, user records; the generic hooks' records
     * add scheduling, interrupts and services when the stream has them (next) */
    r->caps = EVT_CAP_OBJECTS | EVT_CAP_USER;
    r->caps_known = 1;
    r->kernel = s->hooks.kernel >= 0 ? s->hooks.kernel : EVT_HOOK_KERNEL_RKH;
    if (s->hooks.clock_hz) r->clock_hz = s->hooks.clock_hz;
    rkh_diag_init(&s->diag, r);
    if (r->src.is_stream) rkh_diag_set_hold(&s->diag, RKH_LIVE_HOLD);
    s->chunk = evt_malloc(CHUNK);
    s->plans = evt_malloc(256 * sizeof *s->plans);
    if (!s->chunk || !s->plans) return evt_reader_fail(r, EVT_ERR_NOMEM, 0, "out of memory");
    pthread_once(&g_defs_once, build_defs);
    rkh_cfg_default(&s->cfg);
    const char *cfgpath = evt_opts_get(r->opts, "rkh-config");
    if (cfgpath) {
        char err[300];
        if (rkh_cfg_load(&s->cfg, cfgpath, err, sizeof err) != 0)
            return evt_reader_fail(r, EVT_ERR_USAGE, 0, "%s", err);
    }
    build_plans(s);
    return EVT_OK;
}

/* The sum mod 256 of the current frame's bytes (s->fp, s->flen): summed while framed, or now. */
static unsigned frame_sum8(rkh_state *s)
{
    if (s->fsum_ok) return s->fsum;
    evt_cur c; /* the unstuffed frame */
    evt_cur_init(&c, s->fp, s->flen, s->frame_off, 0);
    return byte_sum8(&c, s->flen);
}

/* next's general path: every frame, whatever it holds. have: a frame is at hand already (taken
 * by next after decode_usual declined it). */
static evt_status next_frames(rkh_state *s, evt_event *ev, int have)
{
    for (;; have = 0) {
        if (!have && !s->redo && !next_frame(s) && !s->oom) {
            if (s->tail_drops && (!s->hdr_seq || numbered_ok(s) == s->drop_mark)) {
                s->nvouched = 0;
                damaged_lost(s, ev, s->tail_drops, s->drop_off); /* no numbered frame after them */
                s->tail_drops = 0;
                evt_vouch_list(ev, s->vouched, s->nvouched);
                return EVT_OK;
            }
            rkh_diag_end(&s->diag);
            return EVT_END;
        }
        if (s->oom) return evt_reader_fail(s->r, EVT_ERR_NOMEM, s->frame_off, "out of memory");
        if (!have && !s->redo && decode_usual_out(s, ev, s->fp, s->flen, frame_sum8(s), s->frame_off)) {
            s->flen = 0; /* a usual frame that had escapes, or lay across chunks */
            return EVT_OK;
        }
        s->hexused = 0;
        s->nvouched = 0;
        int rc = decode_frame(s, ev);
        if (s->oom) return evt_reader_fail(s->r, EVT_ERR_NOMEM, s->frame_off, "out of memory for symbol tables");
        s->flen = s->redo ? s->flen : 0;
        if (rc == 1 || rc == 2) {
            ev->fmt = s->r->desc->name;
            if (s->nvouched && (ev->text_ok & EVT_TEXT_OK_ALL) != EVT_TEXT_OK_ALL) evt_vouch_list(ev, s->vouched, s->nvouched);
            return EVT_OK;
        }
        evt_event_reset(ev);
        ev->fmt = s->r->desc->name;
    }
}

/* next_frames (have: as there), and whether the next call starts between frames (rkh_state.between). Out of line:
 * it keeps registers busy that the usual frame's path does not need. */
static __attribute__((noinline)) evt_status next_general(rkh_state *s, evt_event *ev, int have)
{
    evt_status st = next_frames(s, ev, have);
    s->between = !s->redo && s->seen_flag && !(s->escaping | s->oversize) && s->flen == 0;
    return st;
}

static evt_status next(void *state, evt_event *ev)
{
    rkh_state *s = state;
    if (s->nretired) sym_free_retired(s);
    if (__builtin_expect(s->kernel_hint != s->r->kernel_user, 0)) kernel_changed(s);
    /* The usual frame: the framer between frames, the frame and its flag in the chunk's whole
     * 16-byte steps, no escape. Decoded straight (decode_usual), then taken; anything else is left
     * as it is for the general path (which finds the same frame first). */
    if (s->between) {
        const uint8_t *q = evt_cur_here(&s->in);
        size_t left = evt_cur_left(&s->in);
        unsigned sum = 0;
        size_t k = evt_cur_span16_not2_sum8(&s->in, RKH_FLAG, RKH_ESC, &sum); /* q[k] is readable when k < left */
        if (k - 1u < left - 1u && evt_cur_peek_at(&s->in, k) == RKH_FLAG) {
            if (decode_usual(s, ev, q, k, sum, evt_cur_offset(&s->in))) {
                evt_cur_skip(&s->in, k + 1); /* the frame and its flag: k + 1 <= left */
                s->tail_raw = 0;
                return EVT_OK;
            }
            take_frame(s, k, sum); /* another frame: the general path decodes it, not scanned again */
            return next_general(s, ev, 1);
        }
    }
    return next_general(s, ev, 0);
}

static void sym_json(evt_json *j, const char *key, const symtab *t, int hex)
{
    evt_json_key(j, key);
    evt_json_obj_begin(j);
    for (uint32_t i = 0; i < t->n; i++) {
        char k[24];
        if (hex) snprintf(k, sizeof k, "0x%08" PRIX64, t->v[i].key);
        else snprintf(k, sizeof k, "%" PRIu64, t->v[i].key);
        evt_json_kstr(j, k, t->v[i].name);
    }
    evt_json_obj_end(j);
}

static void info_json(void *state, evt_json *j)
{
    rkh_state *s = state;
    evt_json_ku64(j, "frames", s->frames);
    evt_json_ku64(j, "frames_ok", s->frames_ok);
    evt_json_ku64(j, "checksum_errors", s->checksum_errors);
    evt_json_ku64(j, "aborted_frames", s->aborted_frames);
    evt_json_ku64(j, "seq_gaps", s->seq_gaps);
    evt_json_ku64(j, "missing_records", s->missing_records);
    evt_json_ku64(j, "damaged_lost", s->damaged_lost);
    evt_json_ku64(j, "restarts", s->restarts);
    evt_json_ku64(j, "trailing_bytes", s->trailing_bytes);
    evt_json_ku64(j, "bytes_before_first_flag", s->bytes_before_first_flag);
    evt_json_ku64(j, "length_errors", s->length_errors);
    evt_json_ku64(j, "unknown_ids", s->unknown_ids);
    evt_json_ku64(j, "recorder_lost", s->recorder_lost);
    evt_json_ku64(j, "seq_gaps_explained", s->diag.explained_gaps);
    evt_json_ku64(j, "aborted_frames_explained", s->diag.explained_aborts);
    evt_json_key(j, "tcfg");
    if (!s->have_tcfg) {
        evt_json_null(j);
    } else {
        rkh_cfg t; /* the TCFG record's fields */
        memset(&t, 0, sizeof t);
        rkh_cfg_from_tcfg_raw(&t, s->tcfg_raw);
        uint16_t ver = (uint16_t)t.version;
        uint32_t fl = t.flags;
        char vs[16];
        snprintf(vs, sizeof vs, "%x.%x.%x%x", (ver >> 12) & 15u, (ver >> 8) & 15u, (ver >> 4) & 15u, ver & 15u);
        evt_json_obj_begin(j);
        evt_json_ku64(j, "offset", s->tcfg_off);
        char vc[8], fh[12];
        snprintf(vc, sizeof vc, "0x%04X", (unsigned)ver);
        snprintf(fh, sizeof fh, "0x%08" PRIX32, fl);
        evt_json_kstr(j, "version_code", vc);  /* as in the answer keys: "0x3400" */
        evt_json_kstr(j, "version", vs);
        evt_json_ku64(j, "flags", fl);
        evt_json_kstr(j, "flags_u32", fh);     /* the same word in hex, "0x0003E78A" */
        evt_json_kbool(j, "checksum_present", s->tcfg_chk);
#define RKH_FLAG_JSON_(bit, name) evt_json_ku64(j, #name, (fl >> (bit)) & 1u);
        RKH_TCFG_FLAG_TABLE(RKH_FLAG_JSON_)
#undef RKH_FLAG_JSON_
        evt_json_ku64(j, "SIZEOF_EVT_bits", 8u * t.sz_sig);
        evt_json_ku64(j, "SIZEOF_TSTAMP_bits", 8u * t.sz_ts);
        evt_json_ku64(j, "SIZEOF_PTR_bits", 8u * t.sz_ptr);
        evt_json_ku64(j, "SIZEOF_NTIMER_bits", 8u * t.sz_ntimer);
        evt_json_ku64(j, "SIZEOF_NBLOCK_bits", 8u * t.sz_nblock);
        evt_json_ku64(j, "SIZEOF_NELEM_bits", 8u * t.sz_nelem);
        evt_json_ku64(j, "SIZEOF_EVT_SIZE_bits", 8u * t.sz_esize);
        evt_json_ku64(j, "SIZEOF_BSIZE_bits", 8u * t.sz_bsize);
        evt_json_ku64(j, "MAX_EVT_POOL", t.max_pool);
        evt_json_ku64(j, "tstamp_hz_u16", t.ts_hz);
        evt_json_kbool(j, "tstamp_hz_used", rkh_tcfg_hz_plausible(t.ts_hz)); /* taken as clock_hz */
        evt_json_obj_end(j);
    }
    evt_json_key(j, "events_by_name");
    evt_json_obj_begin(j);
    for (unsigned id = 0; id < 256; id++) {
        if (!s->by_id[id]) continue;
        char nb[16];
        const char *nm = g_defs[id].name;
        if (id >= RKH_TE_USER && id <= RKH_TE_USER_LAST) { snprintf(nb, sizeof nb, "USR#%u", id - RKH_TE_USER); nm = nb; }
        evt_json_ku64(j, nm ? nm : "?", s->by_id[id]);
    }
    evt_json_obj_end(j);
    evt_json_ku64(j, "symbols", s->objs.n);
    evt_json_ku64(j, "symbol_bytes", s->sym_bytes);
    evt_json_ku64(j, "symbols_renamed", s->symbols_renamed);
    evt_json_ku64(j, "symbols_dropped", s->symbols_dropped);
    sym_json(j, "objects", &s->objs, 1);
    sym_json(j, "signals", &s->sigs, 0);
    sym_json(j, "user_events", &s->usr, 0);
    sym_json(j, "event_pools", &s->pools, 0);
}

static void info_text(void *state, FILE *out)
{
    rkh_state *s = state;
    fprintf(out, "frames:   %" PRIu64 " (%" PRIu64 " ok), %" PRIu64 " checksum errors, %" PRIu64 " aborted\n",
            s->frames, s->frames_ok, s->checksum_errors, s->aborted_frames);
    fprintf(out, "sequence: %" PRIu64 " gaps, %" PRIu64 " records missing (at least)\n", s->seq_gaps, s->missing_records);
    fprintf(out, "bytes:    %" PRIu64 " before the first flag, %" PRIu64 " trailing\n", s->bytes_before_first_flag, s->trailing_bytes);
    if (s->have_tcfg)
        fprintf(out, "config:   TCFG, RKH %x.%x.%02x, flags 0x%08" PRIX32 "\n", s->cfg.version >> 12, (s->cfg.version >> 8) & 15u,
                s->cfg.version & 0xFFu, s->cfg.flags);
    else
        fprintf(out, "config:   no TCFG record (%s)\n", evt_opts_get(s->r->opts, "rkh-config") ? "--rkh-config" : "RKH template defaults");
    fprintf(out, "symbols:  %u objects, %u signals, %u user events\n", s->objs.n, s->sigs.n, s->usr.n);
}

static void close_(void *state)
{
    rkh_state *s = state;
    if (!s) return;
    evt_user_dec_free(s->user);
    rkh_diag_free(&s->diag);
    evt_name_cache_free(&s->keys);
    sym_free(&s->objs);
    sym_free(&s->sigs);
    sym_free(&s->usr);
    sym_free(&s->pools);
    sym_free_retired(s);
    evt_free(s->frame);
    evt_free(s->chunk);
    evt_free(s->plans);
    evt_free(s);
}

const evt_reader_desc evt_reader_rkh = {
    "rkh", "RKH trace stream (0x7E-framed, TCFG or --rkh-config)",
    probe, open_, next, info_json, info_text, close_, k_opts, EVT_READER_STREAMS,
};
