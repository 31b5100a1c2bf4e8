/* Internals shared by the .etl reader's files (host side): reader state, per-CPU streams, the
 * record decoder and the name/GUID/UTF-16 helpers. Not a public header. */
#ifndef EVT_ETW_DEC_H
#define EVT_ETW_DEC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "evtrace/model.h"
#include "evtrace/reader.h"
#include "formats/common/cursor.h"
#include "formats/common/name_cache.h"
#include "formats/common/text_ok.h"
#include "formats/etw/etw_defs.h"

/* One buffer of the file, found by the index scan at open (72-byte headers only). */
typedef struct etw_buf {
    uint64_t off;        /* file offset of its WMI_BUFFER_HEADER */
    uint32_t stride;     /* BufferSize: bytes it occupies in the file (clipped at a truncated end) */
    uint32_t filled;     /* Offset @0x30: bytes used incl. the 72-byte header */
    uint64_t seq;        /* SequenceNumber */
    uint16_t proc;       /* ProcessorIndex (or ProcessorNumber without PROC_INDEX) */
    uint16_t flags;      /* BufferFlag */
    uint16_t type;       /* BufferType */
    uint16_t truncated;  /* 1: the file ends inside this buffer */
} etw_buf;

/* A small function of the per-record path, inlined into each caller. */
#if defined(__GNUC__)
#define ETW_INLINE_ static inline __attribute__((always_inline))
#define ETW_NOINLINE_ static __attribute__((noinline)) /* keeps a record kind's registers off the hot path */
#else
#define ETW_INLINE_ static inline
#define ETW_NOINLINE_ static
#endif

/* Walk and decode facts of one header type (ETW_HEADER_TYPE_TABLE), indexed by the type byte:
 * fixed header bytes, position of the u16 size field and of the u64 timestamp (0xFF none), family
 * (0 = not in the table), the least record size the walk accepts (before a PERFINFO record's
 * extension), how the walk reads it (ETW_WALK_*), name (NULL = not in the table). */
enum {
    ETW_WALK_NONE = 0, /* no known layout */
    ETW_WALK_FIXED,    /* decoded; the fixed header holds the timestamp (ts_at + 8 <= fixed) */
    ETW_WALK_SKIPPED,  /* counted and skipped (INSTANCE, ERROR, MESSAGE): need 8 bytes */
    ETW_WALK_PERFINFO, /* decoded; the fixed header grows by the version's extension */
};
typedef struct etw_ht_desc { uint8_t fixed, size_at, ts_at, family, need, walk; const char *name; } etw_ht_desc;
extern const etw_ht_desc etw_ht_descs[256];

/* Something a stream has ready to emit: a record of its current buffer or a lost-data note. */
enum { ETW_ITEM_NONE = 0, ETW_ITEM_RECORD, ETW_ITEM_LOST };
typedef struct etw_item {
    int kind;            /* ETW_ITEM_* */
    uint64_t ts;         /* merge key: record timestamp (raw clock) or the stream's last one */
    size_t pos;          /* record: position in the stream's record area */
    const uint8_t *rec;  /* record: its bytes in the record area, taken through the buffer's cursor by
                          * the walk: size of them, size >= its header type's `need` */
    uint32_t size;       /* record: its Size field */
    uint8_t htype;       /* record: header type (ETW_HT_*, or ETW_HT_MESSAGE for WPP) */
    const char *lost_name; /* lost: event name */
    uint64_t lost_count; /* lost: records (or buffers) lost, at least 1 */
    uint64_t lost_bytes; /* lost: bytes that could not be decoded (0 if unknown) */
    int lost_at_least;   /* lost: the count is a saturated 32-bit field (at least lost_count) */
    uint64_t offset;     /* file offset the item refers to */
} etw_item;

/* One time-ordered stream: the buffers of one processor in SequenceNumber order; the header
 * buffer (buffer 0) is its own stream, emitted first. Holds one decoded buffer at a time. */
typedef struct etw_stream {
    uint32_t first, count;  /* its buffers: s->order[first .. first+count) */
    uint32_t next_buf;      /* next buffer (0..count) to load */
    uint32_t cur_buf;       /* index into s->bufs of the loaded buffer */
    uint16_t proc;          /* its processor */
    uint64_t buf_off;       /* its file offset */
    int loaded;             /* a buffer is loaded */
    int compressed;         /* the loaded buffer was decompressed (offsets are not file offsets) */
    uint8_t *data;          /* record area [0x48, Offset) of the loaded buffer */
    size_t len, cap;        /* bytes in data, allocated bytes */
    size_t pos;             /* next record position in data */
    etw_item item;          /* what it has ready (kind NONE = exhausted); its ts stays the timestamp
                             * of the last record walked (0 before one), which a lost note takes */
    etw_item lost_after;    /* lost note to emit before scanning on (kind NONE = none) */
} etw_stream;

/* Distinct GUID and its record count ("providers" of info), with what the decoder needs of it
 * per record, worked out once when the GUID is first met: its text and which of the GUIDs the
 * reader knows it is (ETW_PK_*). */
enum { ETW_PK_EVENT_TRACE = 1u, ETW_PK_LOSS = 2u, ETW_PK_USER = 4u };
typedef struct etw_provider {
    uint8_t guid[16];
    uint64_t count;
    char text[37];       /* canonical lowercase GUID text */
    uint8_t known;       /* ETW_PK_* bits */
} etw_provider;

/* Merge key of a leaf of the loser tree (data stream i is leaf i - 1): the timestamp of the item
 * the stream has ready (copied from the item so that a comparison reads the keys only) and its
 * rank, the leaf; an exhausted stream, and a leaf without one, ranks after every stream
 * (ts UINT64_MAX, rank nleaves + leaf). Ordered by (ts, rank): by (ts, stream). The leaf is
 * rank & (nleaves - 1). */
typedef struct etw_key { uint64_t ts; uint32_t rank; } etw_key;

#define ETW_MAX_PENDING 4
/* Limits (docs/etw.md): buffers indexed (40 bytes each while sorting), distinct provider GUIDs
 * counted for info (further ones in providers_untracked). */
#define ETW_MAX_BUFFERS   (1u << 20)
#define ETW_MAX_PROVIDERS (1u << 16)

/* Reader state. */
typedef struct etw_state {
    evt_reader *r;
    /* logfile header (TRACE_LOGFILE_HEADER of the first record) */
    int ptr64;                   /* header record SYSTEM64 (1) or SYSTEM32 (0) */
    uint32_t buffer_size, version, provider_version, ncpus, timer_res, max_file_size;
    uint32_t log_file_mode, buffers_written, pointer_size, events_lost, cpu_mhz;
    uint32_t clock_type, buffers_lost;
    int evt_loss_records;       /* written by evtrace's recorder: loss records carry every loss */
    int events_lost_saturated;  /* evtrace's recorder wrote EventsLost as 0xFFFFFFFF: at least that */
    uint64_t end_time, boot_time, perf_freq, start_time;
    uint64_t t0;                 /* raw timestamp of the header record (anchor of start_time) */
    uint64_t hz;                 /* raw ticks per second (0 = unknown) */
    /* raw ticks -> ns since the Unix epoch without a division per event (etw_time_init) */
    int time_ok;                 /* hz known and start_time at or after 1970 */
    uint64_t start_ns;           /* start_time in ns since the Unix epoch */
    uint64_t ns_hi, ns_lo;       /* floor(1e9 * 2^64 / hz): ns per tick, 64.64 fixed point */
    uint64_t ns_fast_max;        /* deltas up to this convert by multiplication (result <= 2^63; 0 when hz > 2^63) */
    uint64_t ns_fast_lim;        /* ts - t0 below this: t_ns = start_ns + that by multiplication (0: never) */
    char logger_name[128], log_file_name[256];
    /* buffers */
    etw_buf *bufs;               /* in file order */
    uint32_t nbufs, capbufs;
    uint32_t *order;             /* buffer indexes grouped by stream (without duplicates) */
    uint32_t dup_bufs;           /* buffers skipped as byte-identical copies of another (same CPU and
                                  * SequenceNumber): a file spliced or a block written twice */
    uint32_t ncompressed;
    etw_stream *streams;
    uint32_t nstreams;
    etw_key *tree;               /* loser tree: [0] the winner's key, [1..nleaves) the loser's key of each match */
    uint32_t nleaves;            /* a power of two >= the data streams, at least 1 */
    uint32_t nlive;              /* data streams with an item (0: the merge is done) */
    int dirty;                   /* stream index to advance before the next pick, or -1 */
    uint8_t *zbuf;               /* compressed bytes of one buffer */
    size_t zcap;
    uint64_t held;               /* bytes allocated by all streams' data */
    /* synthetic events emitted before the next record */
    etw_item pending[ETW_MAX_PENDING];
    unsigned npending, pending_pos;
    int header_emitted;
    int merging;                 /* header emitted, pending notes out, buffer 0 done: next() merges only */
    /* counters */
    uint64_t ht_count[256];      /* records per header type */
    uint64_t skipped;            /* records walked but not decoded (INSTANCE, ERROR, MESSAGE) */
    etw_provider *prov;          /* in order of first record */
    uint32_t nprov, capprov;
    const evt_event *keys_ev;    /* the event decode_usual filled last, when nothing else wrote to it since */
    const char *keys_first, *keys_last; /* the keys it wrote at fields[0] and fields[9] then */
    etw_provider *prov_last;     /* in prov: the provider of the last record counted there, or NULL */
    etw_provider prov_other;     /* a provider past ETW_MAX_PROVIDERS (or out of memory): not counted */
    uint32_t *prov_hash;         /* open addressing: index + 1 into prov, 0 = empty */
    uint32_t prov_hcap;          /* power of two > 2 * nprov */
    uint64_t prov_untracked;     /* records of providers past ETW_MAX_PROVIDERS */
    /* evtrace/user.h records (etw_user_dec.c) */
    struct evt_user_dec *user;   /* the carrier-neutral user decoder */
    uint32_t *uwords;            /* one such record's words */
    /* per-event text owned by the reader */
    char name[96], guid[40], provname[96], evname[96], actid[40];
    evt_name_cache names;        /* event names that depend on the record's ids only, built once */
    const char *classic_names[2][256]; /* "EventTrace/<type>", "Classic/<type>" once built (names) */
    const char *ok_name;          /* the current event's name when vouched for (text_ok.h) */
} etw_state;

/* Decode the record of `it` (in stream st) into ev; counts the provider. Returns 0 if the record
 * is not decoded (skipped kinds) after counting it in s->skipped. */
int etw_decode_record(etw_state *s, const etw_stream *st, const etw_item *it, evt_event *ev);
/* Name of a header type ("SYSTEM64"); NULL if unknown. */
static inline const char *etw_header_type_name(unsigned ht) { return etw_ht_descs[ht & 0xFFu].name; }
/* Canonical lowercase GUID text of 16 on-disk bytes into out[37]. */
void etw_guid_str(const uint8_t g[16], char out[37]);
/* UTF-16LE (n bytes, stops at NUL) to UTF-8 into out[cap] (NUL-terminated, truncated to fit);
 * returns the bytes consumed including the NUL (n if none). */
size_t etw_utf16_to_utf8(const uint8_t *p, size_t n, char *out, size_t cap);
/* Name of a clock type ("qpc"), "unknown" otherwise. */
const char *etw_clock_name(uint32_t c);
/* Prepare etw_set_time once hz, start_time and t0 are known (after the logfile header). */
void etw_time_init(etw_state *s);
/* (delta * 1e9) / hz, saturated at UINT64_MAX, by a division (etw_ticks_to_ns past ns_fast_max). */
uint64_t etw_ticks_to_ns_div(uint64_t delta, uint64_t hz);

/* floor(delta * 1e9 / hz) for delta <= ns_fast_max (then hz <= 2^63: etw_time_init), by the 64.64
 * fixed-point ns per tick f = floor(2^64 * 1e9 / hz): q = floor(delta * f / 2^64) is the exact
 * quotient or one less (f is short of 2^64 * 1e9 / hz by under 1, so delta * f by under delta <
 * 2^64). The remainder delta * 1e9 - q * hz is then below 2 * hz <= 2^64: its low 64 bits, two
 * 64-bit products, are all of it, and tell which. */
#ifdef __SIZEOF_INT128__
static inline uint64_t etw_ticks_to_ns_fast_(const etw_state *s, uint64_t delta)
{
    uint64_t q = delta * s->ns_hi + (uint64_t)(((unsigned __int128)delta * s->ns_lo) >> 64);
    uint64_t rem = delta * 1000000000u - q * s->hz;
    return q + (rem >= s->hz);
}
#endif

/* floor(delta * 1e9 / hz), the same value as etw_ticks_to_ns_div: by multiplication up to
 * ns_fast_max (result <= 2^63), by the division past it. */
static inline uint64_t etw_ticks_to_ns(const etw_state *s, uint64_t delta)
{
#ifdef __SIZEOF_INT128__
    if (delta <= s->ns_fast_max) return etw_ticks_to_ns_fast_(s, delta);
#endif
    return etw_ticks_to_ns_div(delta, s->hz);
}

/* etw_set_time past the fast case. */
void etw_set_time_slow(const etw_state *s, evt_event *ev, uint64_t ts);

/* Set ev->ts (raw) and, when the clock is known, ev->t_ns (ns since the Unix epoch), and add
 * `flags` (EVT_HAS_*) to ev->flags with EVT_HAS_TNS in one store. The usual record, at or after
 * the header record within ns_fast_lim ticks: no check can fail. */
static inline void etw_set_time_and(const etw_state *s, evt_event *ev, uint64_t ts, unsigned flags)
{
    uint64_t delta = ts - s->t0; /* wraps to a large number before the header record */
#ifdef __SIZEOF_INT128__
    if (delta < s->ns_fast_lim) { /* ns_fast_lim <= ns_fast_max + 1 */
        ev->ts = ts;
        ev->t_ns = s->start_ns + etw_ticks_to_ns_fast_(s, delta);
        ev->flags |= flags | EVT_HAS_TNS;
        return;
    }
#endif
    ev->flags |= flags;
    etw_set_time_slow(s, ev, ts);
}
static inline void etw_set_time(const etw_state *s, evt_event *ev, uint64_t ts) { etw_set_time_and(s, ev, ts, 0); }
/* etw_set_time_and for an event the reader resets itself (etw_dec.c decode_usual): ev->flags and
 * ev->t_ns are written, not merged into (flags = `flags` and EVT_HAS_TNS when the time is known,
 * t_ns 0 when not), as on a reset event. */
static inline void etw_set_time_fresh(const etw_state *s, evt_event *ev, uint64_t ts, unsigned flags)
{
    uint64_t delta = ts - s->t0; /* wraps to a large number before the header record */
#ifdef __SIZEOF_INT128__
    if (delta < s->ns_fast_lim) {
        ev->ts = ts;
        ev->t_ns = s->start_ns + etw_ticks_to_ns_fast_(s, delta);
        ev->flags = flags | EVT_HAS_TNS;
        return;
    }
#endif
    (void)delta;
    ev->t_ns = 0;
    ev->flags = flags;
    etw_set_time_slow(s, ev, ts);
}
/* Count a record for a provider GUID; returns its entry (s->prov_other, uncounted past the
 * limit), valid until the next call. */
const etw_provider *etw_count_provider_slow(etw_state *s, const uint8_t g[16]);
static inline const etw_provider *etw_count_provider(etw_state *s, const uint8_t g[16])
{
    /* most records come from the provider of the record before */
    etw_provider *p = s->prov_last;
    if (p && memcmp(p->guid, g, 16) == 0) {
        p->count++;
        return p;
    }
    return etw_count_provider_slow(s, g);
}
/* ---- the usual classic record (FULL_HEADER32/64 of an ordinary provider) ------------------ */

/* Every EVENT_TRACE_HEADER field lies inside its 48 bytes: a cursor over the whole fixed header
 * (taken at once from the record's) reads each at its constant offset without a check at run time. */
#define ETW_TH_INSIDE_(n, off, sz) \
    _Static_assert((off) + (sz) <= ETW_TRACE_HEADER_SIZE, "EVENT_TRACE_HEADER." #n " outside the fixed header");
ETW_TRACE_HEADER_TABLE(ETW_TH_INSIDE_)
#undef ETW_TH_INSIDE_

/* A field written whole, as text_ok.h's evt_field_u / evt_field_s write it, in two 16-byte stores
 * where GCC's vector extensions allow rather than four 8-byte ones: a classic record writes ten
 * fields, and the stores, not the instructions, bound how fast it decodes. The halves are
 * {key, is_str and is_signed} and {num, str} (the layout is asserted; a NULL pointer is all zero
 * bits, as the event reset's memset assumes too). */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && UINTPTR_MAX == UINT64_MAX
typedef uint64_t etw_half_ __attribute__((vector_size(16)));
_Static_assert(offsetof(evt_field, is_str) == 8 && offsetof(evt_field, is_signed) == 12 && sizeof(int) == 4 &&
                   offsetof(evt_field, num) == 16 && offsetof(evt_field, str) == 24 && sizeof(evt_field) == 32,
               "evt_field: {key, is_str, is_signed} and {num, str} are 16 bytes each");
ETW_INLINE_ void etw_field_u(evt_field *f, const char *key, uint64_t v)
{
    etw_half_ a = {(uint64_t)(uintptr_t)key, 0}, b = {v, 0}; /* is_str 0, is_signed 0; str NULL */
    memcpy(&f->key, &a, 16);
    memcpy(&f->num, &b, 16);
}
ETW_INLINE_ void etw_field_s(evt_field *f, const char *key, const char *v)
{
    etw_half_ a = {(uint64_t)(uintptr_t)key, 1}, b = {0, (uint64_t)(uintptr_t)v}; /* is_str 1 (low half), is_signed 0 */
    memcpy(&f->key, &a, 16);
    memcpy(&f->num, &b, 16);
}
/* Only the value half {num, str} of a field whose key half is in place already. */
ETW_INLINE_ void etw_value_u(evt_field *f, uint64_t v)
{
    etw_half_ b = {v, 0};
    memcpy(&f->num, &b, 16);
}
ETW_INLINE_ void etw_value_s(evt_field *f, const char *v)
{
    etw_half_ b = {0, (uint64_t)(uintptr_t)v};
    memcpy(&f->num, &b, 16);
}
#else
#define etw_field_u evt_field_u
#define etw_field_s evt_field_s
ETW_INLINE_ void etw_value_u(evt_field *f, uint64_t v) { f->num = v; f->str = NULL; }
ETW_INLINE_ void etw_value_s(evt_field *f, const char *v) { f->num = 0; f->str = v; }
#endif

/* The eight fields every record has, at f[0..8) (keys and strings the reader's own: vouched for). */
ETW_INLINE_ void etw_common_at(evt_field *f, const etw_provider *p, unsigned level, unsigned version, uint32_t pid,
                               uint32_t tid, uint32_t ktime, uint32_t utime, const char *hn)
{
    etw_field_s(&f[0], "guid", p->text);
    etw_field_u(&f[1], "level", level);
    etw_field_u(&f[2], "version", version);
    etw_field_u(&f[3], "pid", pid);
    etw_field_u(&f[4], "tid", tid);
    etw_field_u(&f[5], "kernel_time", ktime);
    etw_field_u(&f[6], "user_time", utime);
    etw_field_s(&f[7], "header_type", hn);
}

/* A usual classic record's name, kind, ten fields (the caller sets their fields_ok bits) (at f[0..10): ev has none yet), thread context
 * (but for its flag) and payload. h: its fixed header (ETW_TRACE_HEADER_SIZE bytes) and the n - ETW_TRACE_HEADER_SIZE
 * payload bytes after it (n >= ETW_TRACE_HEADER_SIZE); p: its provider; hn: its header type's name.
 * keys_set: the ten fields' key halves hold what this function writes there already (the event
 * before, in the same evt_event, was filled by it): only the values are written. */
ETW_INLINE_ void etw_classic_fill(evt_event *ev, const uint8_t *h, uint32_t n, const etw_provider *p, const char *name,
                                  const char *hn, int keys_set)
{
    _Static_assert(EVT_MAX_FIELDS >= 10, "a classic event has ten fields");
    evt_cur c; /* the fixed header, of constant size: its reads at constant offsets need no check */
    evt_cur_init(&c, h, ETW_TRACE_HEADER_SIZE, 0, 0);
    uint32_t tid = evt_cur_u32le_at(&c, ETW_TH_THREAD_ID);
    evt_field *f = ev->fields;
    ev->name = name;
    ev->kind = (p->known & ETW_PK_EVENT_TRACE) ? EVT_KIND_MARKER : EVT_KIND_USER;
    if (keys_set) { /* ten stores fewer: the keys are those of etw_common_at and the two after */
        etw_value_s(&f[0], p->text);
        etw_value_u(&f[1], evt_cur_u8_at(&c, ETW_TH_CLASS_LEVEL));
        etw_value_u(&f[2], evt_cur_u16le_at(&c, ETW_TH_CLASS_VERSION));
        etw_value_u(&f[3], evt_cur_u32le_at(&c, ETW_TH_PROCESS_ID));
        etw_value_u(&f[4], tid);
        etw_value_u(&f[5], evt_cur_u32le_at(&c, ETW_TH_KERNEL_TIME));
        etw_value_u(&f[6], evt_cur_u32le_at(&c, ETW_TH_USER_TIME));
        etw_value_s(&f[7], hn);
        etw_value_u(&f[8], evt_cur_u8_at(&c, ETW_TH_CLASS_TYPE));
        etw_value_u(&f[9], n);
    } else {
        etw_common_at(f, p, evt_cur_u8_at(&c, ETW_TH_CLASS_LEVEL), evt_cur_u16le_at(&c, ETW_TH_CLASS_VERSION),
                      evt_cur_u32le_at(&c, ETW_TH_PROCESS_ID), tid, evt_cur_u32le_at(&c, ETW_TH_KERNEL_TIME),
                      evt_cur_u32le_at(&c, ETW_TH_USER_TIME), hn);
        etw_field_u(&f[8], "type", evt_cur_u8_at(&c, ETW_TH_CLASS_TYPE));
        etw_field_u(&f[9], "size", n);
    }
    ev->nfields = 10; /* the caller vouches for them (fields_ok bits 0..9) */
    ev->ctx = tid; /* the caller sets EVT_HAS_CTX */
    ev->ctx_class = EVT_CTX_THREAD;
    evt_cur rc; /* the whole record: the payload after the fixed header */
    evt_cur_init(&rc, h, n, 0, 0);
    ev->data = evt_cur_take_at(&rc, ETW_TRACE_HEADER_SIZE, n - ETW_TRACE_HEADER_SIZE);
    ev->data_len = ev->data ? n - ETW_TRACE_HEADER_SIZE : 0;
}

/* On-disk bytes of a well-known GUID (index into ETW_GUID_TABLE order). */
void etw_known_guid(int which, uint8_t out[16]);
enum { ETW_GUID_IDX_EVENT_TRACE = 0, ETW_GUID_IDX_SYSTEM_TRACE = 1 };

/* evtrace/user.h records (etw_user_dec.c). open: the user decoder (and the sites of --elf);
 * close frees it. record: if the classic event of class `guid`, Class.Type `type`, whose n bytes
 * c reads, is a user record, decode it into ev (whose offset, time and context are set) and return
 * 1; else 0 and ev is untouched. */
evt_status etw_user_open(etw_state *s);
void etw_user_close(etw_state *s);
struct evt_cur;
int etw_user_record(etw_state *s, const uint8_t guid[16], unsigned type, struct evt_cur *c, uint32_t n, evt_event *ev);

#endif
