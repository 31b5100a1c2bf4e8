/* Internals shared by the .etl reader's files (host side): reader state, per-CPU streams, the
 * record decoder and the name/GUID/UTF-16 helpers. Not a public header. */
#ifndef EVT_ETW_DEC_H
#define EVT_ETW_DEC_H

#include <stddef.h>
#include <stdint.h>
#include "evtrace/model.h"
#include "evtrace/reader.h"
#include "formats/common/name_cache.h"
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

/* Something a stream has ready to emit: a record of its current buffer or a lost-data note. */
enum { ETW_ITEM_NONE = 0, ETW_ITEM_RECORD, ETW_ITEM_LOST };
typedef struct etw_item {
    int kind;            /* ETW_ITEM_* */
    uint64_t ts;         /* merge key: record timestamp (raw clock) or the stream's last one */
    size_t pos;          /* record: position in the stream's record area */
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
    int loaded;             /* a buffer is loaded */
    int compressed;         /* the loaded buffer was decompressed (offsets are not file offsets) */
    uint8_t *data;          /* record area [0x48, Offset) of the loaded buffer */
    size_t len, cap;        /* bytes in data, allocated bytes */
    size_t pos;             /* next record position in data */
    uint64_t last_ts;       /* timestamp of the last record emitted or peeked */
    etw_item item;          /* what it has ready (kind NONE = exhausted) */
    etw_item lost_after;    /* lost note to emit before scanning on (kind NONE = none) */
} etw_stream;

/* Distinct GUID and its record count ("providers" of info). */
typedef struct etw_provider { uint8_t guid[16]; uint64_t count; } etw_provider;

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
    char logger_name[128], log_file_name[256];
    /* buffers */
    etw_buf *bufs;               /* in file order */
    uint32_t nbufs, capbufs;
    uint32_t *order;             /* buffer indexes grouped by stream */
    uint32_t ncompressed;
    etw_stream *streams;
    uint32_t nstreams;
    uint32_t *heap;              /* stream indexes, min-heap on (item.ts, stream) */
    uint32_t nheap;
    int dirty;                   /* stream index to advance before the next pick, or -1 */
    uint8_t *zbuf;               /* compressed bytes of one buffer */
    size_t zcap;
    uint64_t held;               /* bytes allocated by all streams' data */
    /* synthetic events emitted before the next record */
    etw_item pending[ETW_MAX_PENDING];
    unsigned npending, pending_pos;
    int header_emitted;
    /* counters */
    uint64_t ht_count[256];      /* records per header type */
    uint64_t skipped;            /* records walked but not decoded (INSTANCE, ERROR, MESSAGE) */
    uint64_t records;
    etw_provider *prov;          /* in order of first record */
    uint32_t nprov, capprov, prov_hint;
    uint32_t *prov_hash;         /* open addressing: index + 1 into prov, 0 = empty */
    uint32_t prov_hcap;          /* power of two > 2 * nprov */
    uint64_t prov_untracked;     /* records of providers past ETW_MAX_PROVIDERS */
    /* evtrace/user.h records (etw_user_dec.c) */
    struct evt_user_dec *user;   /* the carrier-neutral user decoder */
    uint32_t *uwords;            /* one such record's words */
    /* per-event text owned by the reader */
    char name[96], guid[40], provname[96], evname[96], actid[40];
    evt_name_cache names;        /* event names that depend on the record's ids only, built once */
    struct { uint8_t g[16]; char str[40]; int used; } gtext[16]; /* GUID text of recent GUIDs */
    const char *ok_name;          /* the current event's name when vouched for (text_ok.h) */
} etw_state;

/* Decode the record of `it` (in stream st) into ev; counts the provider. Returns 0 if the record
 * is not decoded (skipped kinds) after counting it in s->skipped. */
int etw_decode_record(etw_state *s, const etw_stream *st, const etw_item *it, evt_event *ev);
/* Record walk facts of a header type: fixed size, position of the u16 size field and of the u64
 * timestamp (0xFF none), family; returns 0 for an unknown type. */
int etw_header_type_info(unsigned ht, unsigned *fixed, unsigned *size_at, unsigned *ts_at, int *family);
/* Name of a header type ("SYSTEM64"); NULL if unknown. */
const char *etw_header_type_name(unsigned ht);
/* Canonical lowercase GUID text of 16 on-disk bytes into out[37]. */
void etw_guid_str(const uint8_t g[16], char out[37]);
/* UTF-16LE (n bytes, stops at NUL) to UTF-8 into out[cap] (NUL-terminated, truncated to fit);
 * returns the bytes consumed including the NUL (n if none). */
size_t etw_utf16_to_utf8(const uint8_t *p, size_t n, char *out, size_t cap);
/* Name of a clock type ("qpc"), "unknown" otherwise. */
const char *etw_clock_name(uint32_t c);
/* Set ev->ts (raw) and, when the clock is known, ev->t_ns (ns since the Unix epoch). */
void etw_set_time(const etw_state *s, evt_event *ev, uint64_t ts);
/* Count a record for a provider GUID. */
void etw_count_provider(etw_state *s, const uint8_t g[16]);
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
