/* .etl reader (Windows ETW trace files, formats/etw.md §3-5): buffer index, per-CPU streams and
 * their k-way merge by timestamp, compressed buffers, lost-data accounting and `info`.
 *
 * open(): walks the 72-byte buffer headers only (BufferSize is the stride: compressed buffers are
 * packed back to back, unaligned), keeps a small index per buffer, parses the logfile header record
 * of buffer 0, and groups the other buffers into one stream per ProcessorIndex ordered by
 * SequenceNumber. next(): buffer 0 first (file header records), then the stream whose next record
 * has the smallest raw timestamp (ties: lower stream). Memory: the index (32 bytes per buffer) and
 * one decoded buffer per stream (<= the session BufferSize), never a function of the event count. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "evtrace/alloc.h"
#include "evtrace/hooks_defs.h"
#include "evtrace/json.h"
#include "formats/common/cursor.h"
#include "formats/etw/etw_dec.h"
#include "formats/user/user_dec.h"
#include "formats/etw/xpress.h"
#include "host/event_reset.h"
#include "host/safe_text.h"

#define ETW_MAX_SESSION_BUFFER (ETW_MAX_BUFFER_KB * 1024u)  /* Windows' maximum BufferSize, 16 MiB */
#define ETW_MAX_HELD (128ull * 1024u * 1024u)               /* decoded buffers held by all streams */

static const evt_reader_option k_opts[] = {{"elf", "FILE", EVT_USER_ELF_OPTION_HELP}, {NULL, NULL, NULL}};

static int probe(const uint8_t *h, size_t len, uint64_t file_size)
{
    if (len < ETW_BUFFER_HEADER_SIZE + ETW_SYSTEM_HEADER_SIZE) return 0;
    evt_cur c, m; /* buffer 0's header, then its first record (the logfile header's SYSTEM header) */
    evt_cur_init(&c, h, len, 0, 0);
    uint32_t stride = evt_cur_u32le_at(&c, ETW_BH_BUFFER_SIZE), filled = evt_cur_u32le_at(&c, ETW_BH_OFFSET);
    evt_cur_at(&c, ETW_BUFFER_HEADER_SIZE);
    evt_cur_sub(&c, ETW_SYSTEM_HEADER_SIZE, &m);
    if (stride < ETW_BUFFER_HEADER_SIZE + ETW_SYSTEM_HEADER_SIZE || filled < ETW_BUFFER_HEADER_SIZE + ETW_SYSTEM_HEADER_SIZE) return 0;
    uint8_t ht = evt_cur_u8_at(&m, 2), flags = evt_cur_u8_at(&m, 3); /* marker bytes 2, 3 */
    if (flags != ETW_MARKER_FLAGS || (ht != ETW_HT_SYSTEM32 && ht != ETW_HT_SYSTEM64)) return 0;
    if (evt_cur_u16le_at(&m, ETW_SH_VERSION) != ETW_LOGFILE_HDR_VERSION || evt_cur_u16le_at(&m, ETW_SH_HOOK_ID) != ETW_HOOK_LOGFILE_HEADER) return 0;
    (void)file_size;
    return 90;
}

/* ---- buffer index ------------------------------------------------------------------------- */

static int add_buf(etw_state *s, const etw_buf *b)
{
    if (s->nbufs == s->capbufs) {
        /* callers stop at ETW_MAX_BUFFERS */
        uint32_t nc = s->capbufs ? s->capbufs * 2 : 64;
        etw_buf *n = evt_realloc(s->bufs, (size_t)nc * sizeof *n);
        if (!n) return 0;
        s->bufs = n;
        s->capbufs = nc;
    }
    s->bufs[s->nbufs++] = *b;
    return 1;
}

/* Returns the item queued, or NULL when the queue is full. */
static etw_item *push_pending(etw_state *s, const char *name, uint64_t count, uint64_t bytes, uint64_t off)
{
    if (s->npending >= ETW_MAX_PENDING) return NULL;
    etw_item *it = &s->pending[s->npending++];
    memset(it, 0, sizeof *it);
    it->kind = ETW_ITEM_LOST;
    it->lost_name = name;
    it->lost_count = count;
    it->lost_bytes = bytes;
    it->offset = off;
    return it;
}

/* Walk the buffer headers of the whole file. */
static evt_status scan_buffers(etw_state *s)
{
    evt_reader *r = s->r;
    uint64_t off = 0, size = r->src.size;
    uint8_t h0[ETW_BUFFER_HEADER_SIZE]; /* buffer 0's header (a copy of it is a repeat, not a file) */
    while (off < size) {
        uint8_t h[ETW_BUFFER_HEADER_SIZE + ETW_SYSTEM_HEADER_SIZE]; /* and its first record's header */
        size_t got = evt_source_read_at(&r->src, off, h, sizeof h);
        if (got < ETW_BUFFER_HEADER_SIZE) {
            evt_reader_error(r, off, "%zu trailing bytes after the last buffer are too short for a 72-byte buffer header", got);
            push_pending(s, "TruncatedBuffer", 1, got, off);
            break;
        }
        if (s->nbufs == ETW_MAX_BUFFERS) {
            evt_reader_error(r, off, "buffer limit reached: more than %u buffers; the %" PRIu64 " bytes from here are not decoded", ETW_MAX_BUFFERS, size - off);
            push_pending(s, "BufferLimit", 1, size - off, off);
            break;
        }
        etw_buf b;
        memset(&b, 0, sizeof b);
        b.off = off;
        evt_cur c; /* WMI_BUFFER_HEADER */
        evt_cur_init(&c, h, ETW_BUFFER_HEADER_SIZE, off, 0);
        uint32_t stride = evt_cur_u32le_at(&c, ETW_BH_BUFFER_SIZE);
        b.filled = evt_cur_u32le_at(&c, ETW_BH_OFFSET);
        b.seq = evt_cur_u64le_at(&c, ETW_BH_SEQUENCE);
        b.flags = evt_cur_u16le_at(&c, ETW_BH_BUFFER_FLAG);
        b.type = evt_cur_u16le_at(&c, ETW_BH_BUFFER_TYPE);
        b.proc = (b.flags & ETW_BUFFER_FLAG_PROC_INDEX) ? evt_cur_u16le_at(&c, ETW_BH_PROCESSOR) : evt_cur_u8_at(&c, ETW_BH_PROCESSOR);
        if (stride < ETW_BUFFER_HEADER_SIZE || stride > ETW_MAX_SESSION_BUFFER) {
            if (s->nbufs == 0)
                return evt_reader_fail(r, EVT_ERR_CORRUPT, off, "buffer 0 has BufferSize %" PRIu32 " (must be 72 .. 16 MiB)", stride);
            evt_reader_error(r, off, "buffer %" PRIu32 " has BufferSize %" PRIu32 " (must be 72 .. 16 MiB): the %" PRIu64 " bytes from here cannot be walked", s->nbufs, stride, size - off);
            push_pending(s, "CorruptBuffer", 1, size - off, off);
            break;
        }
        if (stride > size - off) {
            evt_reader_error(r, off, "buffer %" PRIu32 " is truncated: BufferSize %" PRIu32 " but only %" PRIu64 " bytes left in the file", s->nbufs, stride, size - off);
            b.truncated = 1;
            stride = (uint32_t)(size - off);
        }
        b.stride = stride;
        if (!off) memcpy(h0, h, sizeof h0);
        if (off && !(b.flags & ETW_BUFFER_FLAG_COMPRESSED) && probe(h, got, size) && memcmp(h, h0, sizeof h0) != 0) {
            /* only a file's first buffer starts with the logfile header: another session's file
               follows (files joined with cat), with its own clock and loss counts; before 7 Dec
               2026 its buffers were merged into this session's and its losses dropped */
            evt_reader_error(r, off + ETW_BUFFER_HEADER_SIZE, "buffer %" PRIu32 " starts with a second logfile header: another .etl file follows from offset %" PRIu64 "; its %" PRIu64 " bytes are not decoded",
                             s->nbufs, off, size - off);
            push_pending(s, "AppendedFile", 0, size - off, off);
            break;
        }
        if (b.flags & ETW_BUFFER_FLAG_COMPRESSED) s->ncompressed++;
        if (!add_buf(s, &b)) return evt_reader_fail(r, EVT_ERR_NOMEM, off, "out of memory for the buffer index");
        off += stride;
    }
    if (s->nbufs == 0) return evt_reader_fail(r, EVT_ERR_TRUNCATED, 0, "no complete buffer in the file");
    return EVT_OK;
}

/* ---- loading a buffer's record area -------------------------------------------------------- */

static int ensure(uint8_t **p, size_t *cap, size_t n)
{
    if (n <= *cap) return 1;
    uint8_t *q = evt_realloc(*p, n ? n : 1);
    if (!q) return 0;
    *p = q;
    *cap = n;
    return 1;
}

/* Load buffer st->order[next_buf] into the stream; 0 when the stream has no more buffers. A buffer
 * that cannot be decoded sets st->lost_after and loads as empty. */
/* The bytes after an uncompressed buffer's filled size (Offset): Windows pads them with 0xFF (every
 * real file we hold; evtrace's writer too), others leave zeros. Anything else where the next
 * record would start means the Offset cuts records off (a damaged Offset): an error, and the rest
 * of the buffer counted lost (before 7 Dec 2026 such records vanished with exit 0). */
static void check_padding(etw_state *s, etw_stream *st, const etw_buf *b, uint32_t bi)
{
    uint64_t at = ((uint64_t)b->filled + 7u) & ~(uint64_t)7u; /* records are 8-byte aligned */
    uint8_t w[4];
    if (b->truncated || at + sizeof w > b->stride) return;
    if (evt_source_read_at(&s->r->src, b->off + at, w, sizeof w) != sizeof w) return;
    evt_cur c;
    evt_cur_init(&c, w, sizeof w, b->off + at, 0);
    uint32_t v = evt_cur_u32le_at(&c, 0);
    if (v == 0xFFFFFFFFu || v == 0) return;
    evt_reader_error(s->r, b->off + at, "buffer %" PRIu32 ": the bytes after its filled size (Offset %" PRIu32 ") are not padding (0xFF or 0): records the Offset leaves out? The %" PRIu32 " bytes to the buffer's end are not decoded",
                     bi, b->filled, b->stride - b->filled);
    if (st->lost_after.kind == ETW_ITEM_NONE)
        st->lost_after = (etw_item){.kind = ETW_ITEM_LOST, .lost_name = "BytesAfterOffset", .lost_count = 0,
                                    .lost_bytes = b->stride - b->filled, .offset = b->off + at};
}

static int load_next_buffer(etw_state *s, etw_stream *st)
{
    evt_reader *r = s->r;
    if (st->next_buf >= st->count) { st->loaded = 0; return 0; }
    uint32_t bi = s->order[st->first + st->next_buf++];
    const etw_buf *b = &s->bufs[bi];
    st->cur_buf = bi;
    st->proc = b->proc;
    st->buf_off = b->off;
    st->loaded = 1;
    st->pos = 0;
    st->len = 0;
    st->compressed = 0;
    uint64_t area = b->off + ETW_BUFFER_HEADER_SIZE;
    if (b->filled < ETW_BUFFER_HEADER_SIZE || b->filled > s->buffer_size) {
        evt_reader_error(r, b->off + ETW_BH_OFFSET, "buffer %" PRIu32 ": filled size (Offset) %" PRIu32 " is outside [72, BufferSize %" PRIu32 "]", bi, b->filled, s->buffer_size);
        st->lost_after = (etw_item){.kind = ETW_ITEM_LOST, .lost_name = "CorruptBuffer", .lost_count = 1,
                                    .lost_bytes = b->stride, .offset = b->off};
        return 1;
    }
    size_t want = b->filled - ETW_BUFFER_HEADER_SIZE;
    if (!(b->flags & ETW_BUFFER_FLAG_COMPRESSED) && b->filled > b->stride) want = b->stride - ETW_BUFFER_HEADER_SIZE;
    size_t old_cap = st->cap;
    if (want > st->cap && s->held - old_cap + want > ETW_MAX_HELD) {
        evt_reader_error(r, b->off, "buffer %" PRIu32 ": holding %zu more bytes would exceed the reader's limit of %llu bytes of decoded buffers", bi, want, (unsigned long long)ETW_MAX_HELD);
        st->lost_after = (etw_item){.kind = ETW_ITEM_LOST, .lost_name = "CorruptBuffer", .lost_count = 1, .lost_bytes = want, .offset = b->off};
        return 1;
    }
    if (!ensure(&st->data, &st->cap, want)) {
        evt_reader_error(r, b->off, "out of memory for a %zu-byte buffer", want);
        st->lost_after = (etw_item){.kind = ETW_ITEM_LOST, .lost_name = "CorruptBuffer", .lost_count = 1, .lost_bytes = want, .offset = b->off};
        return 1;
    }
    s->held = s->held - old_cap + st->cap;
    if (b->flags & ETW_BUFFER_FLAG_COMPRESSED) {
        size_t zlen = b->stride - ETW_BUFFER_HEADER_SIZE;
        st->compressed = 1;
        if (!ensure(&s->zbuf, &s->zcap, zlen)) {
            evt_reader_error(r, b->off, "out of memory for %zu compressed bytes", zlen);
            st->lost_after = (etw_item){.kind = ETW_ITEM_LOST, .lost_name = "CorruptBuffer", .lost_count = 1, .lost_bytes = zlen, .offset = b->off};
            return 1;
        }
        size_t got = evt_source_read_at(&r->src, area, s->zbuf, zlen);
        size_t outn = 0, epos = 0;
        etw_xpress_status zs = etw_xpress_decompress(s->zbuf, got, st->data, want, &outn, &epos);
        if (zs != ETW_XPRESS_OK || outn != want) {
            if (zs != ETW_XPRESS_OK)
                evt_reader_error(r, area + epos, "buffer %" PRIu32 " (compressed, %zu bytes): %s; %zu of %zu bytes recovered", bi, got, etw_xpress_message(zs), outn, want);
            else
                evt_reader_error(r, area + got, "buffer %" PRIu32 " (compressed, %zu bytes) inflates to %zu bytes, expected Offset-72 = %zu", bi, got, outn, want);
            st->lost_after = (etw_item){.kind = ETW_ITEM_LOST, .lost_name = "CorruptBuffer", .lost_count = 1,
                                        .lost_bytes = want - (outn < want ? outn : want), .offset = b->off};
        }
        st->len = outn;
    } else {
        if (b->filled > b->stride) {
            if (!b->truncated)
                evt_reader_error(r, b->off + ETW_BH_OFFSET, "buffer %" PRIu32 ": filled size %" PRIu32 " exceeds its BufferSize %" PRIu32, bi, b->filled, b->stride);
            st->lost_after = (etw_item){.kind = ETW_ITEM_LOST, .lost_name = "TruncatedBuffer", .lost_count = 1,
                                        .lost_bytes = b->filled - b->stride, .offset = b->off + b->stride};
            want = b->stride - ETW_BUFFER_HEADER_SIZE;
        }
        st->len = evt_source_read_at(&r->src, area, st->data, want);
        check_padding(s, st, b, bi);
    }
    if (b->flags & (ETW_BUFFER_FLAG_EVENTS_LOST | ETW_BUFFER_FLAG_BUFFER_LOST)) {
        /* The buffer says data was lost before it; the logfile header holds the totals. */
        if (st->lost_after.kind == ETW_ITEM_NONE)
            st->lost_after = (etw_item){.kind = ETW_ITEM_LOST,
                                        .lost_name = (b->flags & ETW_BUFFER_FLAG_BUFFER_LOST) ? "BufferLostFlag" : "EventsLostFlag",
                                        .lost_count = 0, .offset = b->off + ETW_BH_BUFFER_FLAG};
    }
    return 1;
}

/* ---- the record walk (one item ahead per stream) ------------------------------------------- */

static void count_header_type(etw_state *s, unsigned ht) { s->ht_count[ht & 0xFFu]++; }

/* Records walked: every one is counted under its header type. */
static uint64_t records_walked(const etw_state *s)
{
    uint64_t n = 0;
    for (unsigned t = 0; t < 256; t++) n += s->ht_count[t];
    return n;
}

/* Stop walking the stream's buffer: `name` (CorruptRecords, UnknownRecords) notes the `left`
 * bytes at file offset roff as lost. */
static void lose_rest(etw_stream *st, const char *name, size_t left, uint64_t roff)
{
    st->lost_after = (etw_item){.kind = ETW_ITEM_LOST, .lost_name = name, .lost_count = 1, .lost_bytes = left, .offset = roff};
    st->pos = st->len;
}

/* The common case of the walk: the loaded buffer's next bytes are a well-formed record whose
 * fixed header holds its timestamp (ETW_WALK_FIXED). Makes it the stream's item and returns 1;
 * returns 0, changing nothing, for anything else (advance() handles it, the end marker included:
 * header type 0xFF has no layout). */
ETW_INLINE_ int walk_record(etw_state *s, etw_stream *st)
{
    if (!st->loaded || st->lost_after.kind != ETW_ITEM_NONE) return 0;
    evt_cur bc, c; /* the buffer's decoded records; the record's fixed header */
    evt_cur_init(&bc, st->data, st->len, 0, 0);
    evt_cur_at(&bc, st->pos);
    uint32_t marker = evt_cur_u32le(&bc); /* bytes 2 (header type) and 3 (flags); 0 past the end */
    unsigned ht = marker >> 16 & 0xFFu;
    const etw_ht_desc *d = &etw_ht_descs[ht];
    if ((marker >> 24 & ETW_MARKER_FLAGS) != ETW_MARKER_FLAGS || d->walk != ETW_WALK_FIXED) return 0;
    evt_cur_at(&bc, st->pos);
    if (!evt_cur_sub(&bc, d->need, &c)) return 0; /* its size and timestamp lie inside (etw_text_dec.c asserts it) */
    uint32_t size = evt_cur_u16le_at(&c, d->size_at);
    if (size < d->need || size > st->len - st->pos) return 0;
    count_header_type(s, ht);
    st->item.kind = ETW_ITEM_RECORD;
    st->item.pos = st->pos;
    st->item.rec = c.p;
    st->item.size = size;
    st->item.htype = (uint8_t)ht;
    st->item.offset = st->compressed ? st->buf_off : st->buf_off + ETW_BUFFER_HEADER_SIZE + st->pos;
    st->item.ts = evt_cur_u64le_at(&c, d->ts_at);
    size_t next = (st->pos + size + (ETW_RECORD_ALIGN - 1)) & ~(size_t)(ETW_RECORD_ALIGN - 1);
    st->pos = next > st->len ? st->len : next;
    return 1;
}

/* Find the stream's next item. Sets st->item.kind = NONE when the stream is exhausted. The record
 * is read from the checked span q of the `left` bytes from st->pos: every field read below lies
 * inside it (left >= 4 for the marker, >= size_at + 2 for the size, ts_at + 8 for the timestamp). */
static void advance(etw_state *s, etw_stream *st)
{
    evt_reader *r = s->r;
    st->item.kind = ETW_ITEM_NONE;
    for (;;) {
        if (st->lost_after.kind != ETW_ITEM_NONE) {
            uint64_t last_ts = st->item.ts;
            st->item = st->lost_after;
            st->item.ts = last_ts;
            st->lost_after.kind = ETW_ITEM_NONE;
            return;
        }
        if (!st->loaded || st->pos >= st->len) {
            if (!load_next_buffer(s, st)) return;
            continue;
        }
        if (walk_record(s, st)) return;
        size_t left = st->len - st->pos;
        if (left < 4) { st->pos = st->len; continue; }
        evt_cur bc, c; /* the buffer's decoded records; the rest of them from st->pos */
        evt_cur_init(&bc, st->data, st->len, 0, 0);
        evt_cur_at(&bc, st->pos);
        evt_cur_sub(&bc, left, &c);
        uint64_t roff = st->compressed ? st->buf_off : st->buf_off + ETW_BUFFER_HEADER_SIZE + st->pos;
        uint32_t marker = evt_cur_u32le_at(&c, 0);
        if (marker == ETW_MARKER_END) { st->pos = st->len; continue; }
        unsigned ht;
        uint8_t b3 = evt_cur_u8_at(&c, 3);
        if ((b3 & ETW_MARKER_FLAGS) == ETW_MARKER_FLAGS) {
            ht = evt_cur_u8_at(&c, 2);
        } else if ((b3 & ETW_MARKER_HEADER_FLAG) && (b3 & ETW_MARKER_MESSAGE)) {
            ht = ETW_HT_MESSAGE;
        } else if (marker == 0) {
            int nonempty = 0; /* a byte other than 0 / 0xFF after the zero marker */
            evt_cur_at(&c, 0);
            while (!nonempty && evt_cur_left(&c)) { uint8_t v = evt_cur_u8(&c); nonempty = v != 0 && v != 0xFF; }
            if (nonempty) {
                evt_reader_error(r, roff, "zero marker inside buffer %" PRIu32 " with %zu non-empty bytes after it", st->cur_buf, left);
                lose_rest(st, "CorruptRecords", left, roff);
            }
            st->pos = st->len;
            continue;
        } else {
            evt_reader_error(r, roff, "no trace-header marker (0x%08" PRIx32 ") at +0x%zx of buffer %" PRIu32 "; %zu bytes of the buffer skipped", marker, st->pos, st->cur_buf, left);
            lose_rest(st, "CorruptRecords", left, roff);
            continue;
        }
        const etw_ht_desc *d = &etw_ht_descs[ht];
        if (d->walk == ETW_WALK_NONE) {
            count_header_type(s, ht);
            evt_reader_error(r, roff, "record header type 0x%02x has no known layout; %zu bytes of buffer %" PRIu32 " skipped", ht, left, st->cur_buf);
            lose_rest(st, "UnknownRecords", left, roff);
            continue;
        }
        if (left < d->size_at + 2u) {
            evt_reader_error(r, roff, "%s record marker at +0x%zx of buffer %" PRIu32 " with only %zu bytes left", d->name, st->pos, st->cur_buf, left);
            lose_rest(st, "CorruptRecords", left, roff);
            continue;
        }
        uint32_t size = evt_cur_u16le_at(&c, d->size_at);
        uint32_t need = d->need; /* INSTANCE, MESSAGE: 8 (skipped, layout unverified: only the walk must make progress) */
        if (d->walk == ETW_WALK_PERFINFO) {
            unsigned ver = evt_cur_u16le_at(&c, 0);
            need += ((ver & ETW_PERFINFO_PEBS_BIT) ? 8u : 0u) + 8u * ((ver >> 8) & 7u);
        }
        if (size < need || size > left) {
            evt_reader_error(r, roff, "%s record at +0x%zx of buffer %" PRIu32 " has size %" PRIu32 " (header %u, %zu bytes left); rest of the buffer skipped",
                             d->name, st->pos, st->cur_buf, size, need, left);
            lose_rest(st, "CorruptRecords", left, roff);
            continue;
        }
        count_header_type(s, ht);
        st->item.kind = ETW_ITEM_RECORD;
        st->item.pos = st->pos;
        st->item.rec = c.p; /* the `left` >= size bytes from st->pos */
        st->item.size = size;
        st->item.htype = (uint8_t)ht;
        st->item.offset = roff;
        /* a skipped kind's timestamp may lie past the record (need 8): 0 past the buffer */
        if (d->ts_at != 0xFF) st->item.ts = evt_cur_u64le_at(&c, d->ts_at); /* 0 past the buffer; else the last one */
        size_t next = (st->pos + size + (ETW_RECORD_ALIGN - 1)) & ~(size_t)(ETW_RECORD_ALIGN - 1);
        st->pos = next > st->len ? st->len : next;
        return;
    }
}

/* ---- merge: a loser tree over the data streams ------------------------------------------ */

ETW_INLINE_ int key_less(etw_key a, etw_key b) { return a.ts < b.ts || (a.ts == b.ts && a.rank < b.rank); }

/* The key of leaf `leaf` from its stream's item. */
static etw_key leaf_key(const etw_state *s, uint32_t leaf)
{
    const etw_stream *st = leaf + 1 < s->nstreams ? &s->streams[leaf + 1] : NULL;
    if (st && st->item.kind != ETW_ITEM_NONE) return (etw_key){st->item.ts, leaf};
    return (etw_key){UINT64_MAX, s->nleaves + leaf};
}

/* Leaf w has the new key wk (it was the winner): it plays up the tree against the loser of each
 * match on its path, ceil(log2 nleaves) comparisons, and the final winner is the smallest key.
 * The branch on which key wins is left to the predictor, which learns the usual patterns (a CPU's
 * run of records, per-thread buffers in turn): measured (from memory, best of 20-30) faster than
 * conditional moves on the bench file (28 vs 31 ns/event) and on bursty 8-stream files (58 vs 67),
 * slower only when every record comes from a random stream (72 vs 65). */
ETW_INLINE_ void tree_replay(etw_state *s, uint32_t w, etw_key wk)
{
    for (uint32_t node = (w + s->nleaves) >> 1; node; node >>= 1) {
        etw_key *n = &s->tree[node];
        if (key_less(*n, wk)) { /* the stored loser wins this match: it goes on, wk stays */
            etw_key t = *n;
            *n = wk;
            wk = t;
        }
    }
    s->tree[0].rank = wk.rank; /* only the winner's rank is read (tree_winner) */
}

/* The data stream of the winning key (valid while nlive > 0). */
ETW_INLINE_ int tree_winner(const etw_state *s) { return (int)(s->tree[0].rank & (s->nleaves - 1)) + 1; }

/* Every match played once from the leaves' keys (after each stream's first item). */
static evt_status tree_build(etw_state *s)
{
    uint32_t k = 1, ndata = s->nstreams - 1;
    while (k < ndata) k <<= 1;
    s->nleaves = k;
    s->tree = evt_calloc(k, sizeof *s->tree);
    etw_key *win = evt_calloc(2 * (size_t)k, sizeof *win); /* winner of each match, leaves at k.. */
    if (!s->tree || !win) {
        evt_free(win);
        return evt_reader_fail(s->r, EVT_ERR_NOMEM, 0, "out of memory for %" PRIu32 " streams", s->nstreams);
    }
    for (uint32_t j = 0; j < k; j++) {
        win[k + j] = leaf_key(s, j);
        s->nlive += win[k + j].rank < k;
    }
    for (uint32_t n = k; n-- > 1;) {
        etw_key a = win[2 * n], b = win[2 * n + 1];
        int b_wins = key_less(b, a);
        win[n] = b_wins ? b : a;
        s->tree[n] = b_wins ? a : b;
    }
    s->tree[0] = win[1]; /* the final winner (with one leaf: its own key) */
    evt_free(win);
    return EVT_OK;
}

/* ---- open ---------------------------------------------------------------------------------- */

/* Sort key of a data buffer: streams by processor, buffers in SequenceNumber then file order. */
typedef struct order_key { uint64_t seq, off; uint32_t idx; uint16_t proc; } order_key;

static int cmp_order(const void *a, const void *b)
{
    const order_key *x = a, *y = b;
    if (x->proc != y->proc) return x->proc < y->proc ? -1 : 1;
    if (x->seq != y->seq) return x->seq < y->seq ? -1 : 1;
    return x->off < y->off ? -1 : (x->off > y->off);
}

static evt_status build_streams(etw_state *s)
{
    evt_reader *r = s->r;
    uint32_t nord = s->nbufs; /* buffers in the order: all but the duplicates */
    s->order = evt_malloc((size_t)s->nbufs * sizeof *s->order);
    if (!s->order) return evt_reader_fail(r, EVT_ERR_NOMEM, 0, "out of memory");
    s->order[0] = 0;
    if (s->nbufs > 1) {
        order_key *k = evt_malloc((size_t)(s->nbufs - 1) * sizeof *k);
        if (!k) return evt_reader_fail(r, EVT_ERR_NOMEM, 0, "out of memory");
        for (uint32_t i = 1; i < s->nbufs; i++)
            k[i - 1] = (order_key){s->bufs[i].seq, s->bufs[i].off, i, s->bufs[i].proc};
        qsort(k, s->nbufs - 1, sizeof *k, cmp_order);
        nord = 1;
        for (uint32_t i = 1; i < s->nbufs; i++) {
            const etw_buf *b = &s->bufs[k[i - 1].idx], *p = &s->bufs[s->order[nord - 1]];
            /* a byte-identical copy of the previous buffer of its stream or of buffer 0 (same CPU and
             * SequenceNumber, which Windows never repeats): its events would be decoded twice */
            if (!(p->proc == b->proc && p->seq == b->seq)) p = &s->bufs[0];
            if (p->proc == b->proc && p->seq == b->seq && p->stride == b->stride &&
                evt_source_same_bytes(&r->src, p->off, b->off, b->stride)) {
                evt_reader_error(r, b->off, "buffer %" PRIu32 " repeats the buffer at offset %" PRIu64
                                 " byte for byte (CPU %u, SequenceNumber %" PRIu64 "): skipped",
                                 k[i - 1].idx, p->off, (unsigned)b->proc, b->seq);
                s->dup_bufs++;
                continue;
            }
            s->order[nord++] = k[i - 1].idx;
        }
        evt_free(k);
    }
    uint32_t n = 1;
    for (uint32_t i = 2; i < nord; i++)
        if (s->bufs[s->order[i]].proc != s->bufs[s->order[i - 1]].proc) n++;
    s->nstreams = 1 + (nord > 1 ? n : 0);
    s->streams = evt_calloc(s->nstreams, sizeof *s->streams);
    if (!s->streams) return evt_reader_fail(r, EVT_ERR_NOMEM, 0, "out of memory for %" PRIu32 " streams", s->nstreams);
    s->streams[0].first = 0;
    s->streams[0].count = 1;
    uint32_t k = 0;
    for (uint32_t i = 1; i < nord; i++) {
        if (i == 1 || s->bufs[s->order[i]].proc != s->bufs[s->order[i - 1]].proc) {
            k++;
            s->streams[k].first = i;
        }
        s->streams[k].count++;
    }
    return EVT_OK;
}

/* Parse TRACE_LOGFILE_HEADER from the first record of buffer 0 (already walked into stream 0). */
static evt_status parse_logfile_header(etw_state *s)
{
    evt_reader *r = s->r;
    etw_stream *st = &s->streams[0];
    const etw_item *it = &st->item;
    uint64_t roff = ETW_BUFFER_HEADER_SIZE;
    if (it->kind != ETW_ITEM_RECORD || (it->htype != ETW_HT_SYSTEM32 && it->htype != ETW_HT_SYSTEM64))
        return evt_reader_fail(r, EVT_ERR_FORMAT, roff, "the first record of buffer 0 is not a SYSTEM32/64 logfile-header record");
    evt_cur bc, c; /* buffer 0's records; the logfile-header record (the walk checked its size) */
    evt_cur_init(&bc, st->data, st->len, ETW_BUFFER_HEADER_SIZE, 0);
    evt_cur_at(&bc, it->pos);
    evt_cur_sub(&bc, it->size, &c);
    if (evt_cur_u16le_at(&c, ETW_SH_HOOK_ID) != ETW_HOOK_LOGFILE_HEADER || evt_cur_u16le_at(&c, ETW_SH_VERSION) != ETW_LOGFILE_HDR_VERSION)
        return evt_reader_fail(r, EVT_ERR_FORMAT, roff, "the first record of buffer 0 has HookId 0x%04x version %u, not the logfile header (HookId 0, version 2)",
                               evt_cur_u16le_at(&c, ETW_SH_HOOK_ID), evt_cur_u16le_at(&c, ETW_SH_VERSION));
    s->ptr64 = it->htype == ETW_HT_SYSTEM64;
    size_t fixed = s->ptr64 ? ETW_LOGFILE_HEADER_SIZE64 : ETW_LOGFILE_HEADER_SIZE32;
    if (it->size < ETW_SYSTEM_HEADER_SIZE + fixed)
        return evt_reader_fail(r, EVT_ERR_CORRUPT, roff, "logfile-header record has %" PRIu32 " bytes, needs %zu for TRACE_LOGFILE_HEADER", it->size, ETW_SYSTEM_HEADER_SIZE + fixed);
#define LF(n) (s->ptr64 ? (size_t)ETW_LF64_##n : (size_t)ETW_LF32_##n)
    s->buffer_size = evt_cur_u32le_at(&c, ETW_SYSTEM_HEADER_SIZE + LF(BUFFER_SIZE));
    s->version = evt_cur_u32le_at(&c, ETW_SYSTEM_HEADER_SIZE + LF(VERSION));
    s->provider_version = evt_cur_u32le_at(&c, ETW_SYSTEM_HEADER_SIZE + LF(PROVIDER_VERSION));
    s->ncpus = evt_cur_u32le_at(&c, ETW_SYSTEM_HEADER_SIZE + LF(NUMBER_OF_CPUS));
    s->end_time = evt_cur_u64le_at(&c, ETW_SYSTEM_HEADER_SIZE + LF(END_TIME));
    s->timer_res = evt_cur_u32le_at(&c, ETW_SYSTEM_HEADER_SIZE + LF(TIMER_RESOLUTION));
    s->max_file_size = evt_cur_u32le_at(&c, ETW_SYSTEM_HEADER_SIZE + LF(MAXIMUM_FILE_SIZE));
    s->log_file_mode = evt_cur_u32le_at(&c, ETW_SYSTEM_HEADER_SIZE + LF(LOG_FILE_MODE));
    s->buffers_written = evt_cur_u32le_at(&c, ETW_SYSTEM_HEADER_SIZE + LF(BUFFERS_WRITTEN));
    s->pointer_size = evt_cur_u32le_at(&c, ETW_SYSTEM_HEADER_SIZE + LF(POINTER_SIZE));
    s->events_lost = evt_cur_u32le_at(&c, ETW_SYSTEM_HEADER_SIZE + LF(EVENTS_LOST));
    s->cpu_mhz = evt_cur_u32le_at(&c, ETW_SYSTEM_HEADER_SIZE + LF(CPU_SPEED_MHZ));
    s->boot_time = evt_cur_u64le_at(&c, ETW_SYSTEM_HEADER_SIZE + LF(BOOT_TIME));
    s->perf_freq = evt_cur_u64le_at(&c, ETW_SYSTEM_HEADER_SIZE + LF(PERF_FREQ));
    s->start_time = evt_cur_u64le_at(&c, ETW_SYSTEM_HEADER_SIZE + LF(START_TIME));
    s->clock_type = evt_cur_u32le_at(&c, ETW_SYSTEM_HEADER_SIZE + LF(RESERVED_FLAGS));
    s->buffers_lost = evt_cur_u32le_at(&c, ETW_SYSTEM_HEADER_SIZE + LF(BUFFERS_LOST));
    /* evtrace's recorder: losses travel in loss records (events), not in buffer counts */
    s->evt_loss_records = evt_cur_u32le_at(&c, ETW_SYSTEM_HEADER_SIZE + LF(LOGGER_NAME_PTR)) == ETW_EVT_LOSS_MARK;
    /* evtrace's recorder saturates the ULONG (a Windows logger's meaning of the value is unknown) */
    s->events_lost_saturated = s->evt_loss_records && s->events_lost == 0xFFFFFFFFu;
#undef LF
    s->t0 = evt_cur_u64le_at(&c, ETW_SH_SYSTEM_TIME);
    size_t npos = ETW_SYSTEM_HEADER_SIZE + fixed, rest = it->size - npos;
    const uint8_t *names = evt_cur_take_at(&c, npos, rest); /* LoggerName, LogFileName (UTF-16) */
    size_t used = names ? etw_utf16_to_utf8(names, rest, s->logger_name, sizeof s->logger_name) : 0;
    evt_cur nc;
    evt_cur_init(&nc, names, names ? rest : 0, 0, 0);
    const uint8_t *second = evt_cur_take_at(&nc, used, rest - used);
    if (second) etw_utf16_to_utf8(second, rest - used, s->log_file_name, sizeof s->log_file_name);
    if (s->buffer_size < ETW_BUFFER_HEADER_SIZE || s->buffer_size > ETW_MAX_SESSION_BUFFER)
        return evt_reader_fail(r, EVT_ERR_CORRUPT, roff + ETW_SYSTEM_HEADER_SIZE, "TRACE_LOGFILE_HEADER.BufferSize %" PRIu32 " outside 72 .. 16 MiB", s->buffer_size);
    if (s->pointer_size != 4 && s->pointer_size != 8)
        evt_reader_error(r, roff + ETW_SYSTEM_HEADER_SIZE, "PointerSize %" PRIu32 " is neither 4 nor 8", s->pointer_size);
    switch (s->clock_type) {
    case ETW_CLOCK_SYSTEM_TIME: s->hz = 10000000u; break;
    case ETW_CLOCK_CPU_CYCLES: s->hz = (uint64_t)s->cpu_mhz * 1000000u; break;
    default: s->hz = s->perf_freq; break; /* QPC, and "raw" (0) which real tools treat as QPC */
    }
    r->clock_hz = s->hz;
    return EVT_OK;
}

static void close_(void *state);

static evt_status open_(evt_reader *r, void **state)
{
    uint8_t h[ETW_BUFFER_HEADER_SIZE + ETW_SYSTEM_HEADER_SIZE];
    size_t got = evt_source_read_at(&r->src, 0, h, sizeof h);
    if (got < sizeof h)
        return evt_reader_fail(r, EVT_ERR_TRUNCATED, got, "file too short for a buffer header and the logfile-header record (%zu bytes)", got);
    if (!probe(h, got, r->src.size))
        return evt_reader_fail(r, EVT_ERR_FORMAT, ETW_BUFFER_HEADER_SIZE, "not an .etl file: buffer 0 does not start with a SYSTEM32/64 logfile-header record (HookId 0, version 2)");
    etw_state *s = evt_calloc(1, sizeof *s);
    if (!s) return evt_reader_fail(r, EVT_ERR_NOMEM, 0, "out of memory");
    *state = s;
    s->r = r;
    /* the reader decodes no kernel context-switch (CSwitch) or interrupt events: providers' events
     * only; Windows priorities: a larger number is more urgent */
    r->caps = EVT_CAP_USER;
    r->caps_known = 1;
    r->kernel = EVT_HOOK_KERNEL_WINDOWS;
    s->dirty = -1;
    s->buffer_size = ETW_MAX_SESSION_BUFFER; /* until the logfile header is read */
    evt_status st = etw_user_open(s);
    if (st != EVT_OK) return st;
    st = scan_buffers(s);
    if (st != EVT_OK) return st;
    st = build_streams(s);
    if (st != EVT_OK) return st;
    advance(s, &s->streams[0]);
    st = parse_logfile_header(s);
    if (st != EVT_OK) return st;
    etw_time_init(s);
    uint32_t data_bufs = s->nbufs - s->dup_bufs;
    if (!(s->log_file_mode & ETW_FILE_MODE_CIRCULAR) && s->buffers_written > data_bufs) {
        evt_reader_error(r, r->src.size, "the logfile header says %" PRIu32 " buffers were written but the file holds %" PRIu32, s->buffers_written, data_bufs);
        push_pending(s, "BuffersMissing", s->buffers_written - data_bufs, 0, r->src.size);
    }
    if ((s->log_file_mode & ETW_FILE_MODE_CIRCULAR) && s->buffers_written > data_bufs) {
        /* A circular file keeps the newest buffers: the older ones were overwritten. */
        /* evtrace's recorder counts their events in its loss records: a marker without count */
        push_pending(s, "BuffersOverwritten", s->evt_loss_records ? 0 : s->buffers_written - data_bufs, 0, 0);
    }
    for (uint32_t i = 1; i < s->nstreams; i++) advance(s, &s->streams[i]);
    return tree_build(s);
}

/* ---- next ---------------------------------------------------------------------------------- */

static void emit_lost(etw_state *s, const etw_item *it, evt_event *ev)
{
    ev->id = 0;
    ev->name = it->lost_name;
    ev->kind = EVT_KIND_LOST;
    etw_set_time(s, ev, it->ts);
    ev->offset = it->offset;
    if (it->lost_count) { ev->flags |= EVT_HAS_COUNT; ev->count = it->lost_count; }
    if (it->lost_bytes) evt_event_add_field_u(ev, "bytes", it->lost_bytes);
    if (it->lost_at_least) evt_event_add_field_u(ev, "saturated", 1);
}

/* The stream whose item was emitted last (s->dirty) walks on, and takes its place in the merge.
 * The caller sets s->dirty again (-1 or the next winner). */
ETW_INLINE_ void refill(etw_state *s)
{
    etw_stream *d = &s->streams[s->dirty];
    if (!walk_record(s, d)) advance(s, d);
    if (s->dirty > 0) { /* the winner of the merge: its new key plays up the tree */
        uint32_t leaf = (uint32_t)s->dirty - 1;
        etw_key k = {d->item.ts, leaf};
        if (d->item.kind == ETW_ITEM_NONE) {
            k = (etw_key){UINT64_MAX, s->nleaves + leaf};
            s->nlive--;
            evt_free(d->data);
            s->held -= d->cap;
            d->data = NULL;
            d->cap = 0;
        }
        tree_replay(s, leaf, k);
    }
}

/* ---- the event reset: this reader's own (EVT_READER_RESETS) -------------------------------- */

/* Every item but the usual record starts from evt_event_reset's event (ev->fmt kept: the reader
 * framework set it). Out of line: the usual record resets in usual_reset. */
static __attribute__((noinline)) void fresh_event(evt_event *ev)
{
    const char *fmt = ev->fmt;
    evt_event_reset(ev);
    ev->fmt = fmt;
}

/* The usual record's reset: the members decode_usual does not write are zeroed here; it writes
 * every other one whole (flags and t_ns too: etw_set_time_fresh), so ev reads as evt_event_reset
 * and those writes, whatever it held. The meaning block (192 bytes), which a classic record never
 * fills, is checked by loads and cleared only when something (an event before, the caller) set it:
 * 12 stores fewer per event than a reset, and the stores bound this reader's speed. */
ETW_INLINE_ void usual_reset(evt_event *ev)
{
    ev->ctx_name = NULL;
    ev->prio = 0;
    ev->seq = 0;
    ev->count = 0;
    ev->target = 0;
    ev->target_name = NULL;
    ev->nargs = 0;
    ev->data_is_text = 0;
    if (!evt_meaning_is_clear(&ev->m)) evt_meaning_reset_inline(&ev->m);
}

/* The usual record of the merge: a classic FULL_HEADER record of the provider of the record before
 * (an ordinary one: not evtrace's loss or user records) whose name is built already. Decodes it as
 * etw_decode_record does, without its dispatch, into ev, which it resets itself (usual_reset), and
 * returns 1; returns 0, changing nothing, for anything else. */
ETW_INLINE_ int decode_usual(etw_state *s, const etw_stream *st, evt_event *ev, int keys_set)
{
    const etw_item *it = &st->item;
    const etw_ht_desc *d = &etw_ht_descs[it->htype];
    if (it->kind != ETW_ITEM_RECORD || d->family != ETW_HT_FAM_FULL) return 0;
    evt_cur c; /* its fixed header: it->rec holds it->size >= 48 bytes (a FULL record's `need`) */
    evt_cur_init(&c, it->rec, ETW_TRACE_HEADER_SIZE, it->offset, 0); /* constant size: its reads need no check */
    const uint8_t *guid = evt_cur_take_at(&c, ETW_TH_GUID, 16);
    etw_provider *p = s->prov_last;
    if (!p || !guid || memcmp(p->guid, guid, 16) != 0 || (p->known & (ETW_PK_LOSS | ETW_PK_USER))) return 0;
    unsigned type = evt_cur_u8_at(&c, ETW_TH_CLASS_TYPE);
    _Static_assert(ETW_PK_EVENT_TRACE == 1, "classic_names[is_et]");
    const char *name = s->classic_names[p->known & ETW_PK_EVENT_TRACE][type];
    if (!name) return 0; /* built by the first record of its kind (etw_record_dec.c) */
    p->count++;
    usual_reset(ev);
    ev->offset = it->offset;
    ev->cpu = st->proc;
    etw_set_time_fresh(s, ev, evt_cur_u64le_at(&c, ETW_TH_TIMESTAMP), EVT_HAS_CPU | EVT_HAS_CTX);
    ev->id = type;
    etw_classic_fill(ev, it->rec, it->size, p, name, d->name, keys_set);
    /* the name is the cache's, the other strings NULL (as etw_decode_record); the ten fields the
     * reader's (nfields 10, written by etw_classic_fill): both words written whole, in one store.
     * Its data is bytes, never text, and buffer_pos below a number under a literal key: the
     * reader vouches for the whole event (EVT_TEXT_OK_EVENT: the framework checks nothing). */
    ev->text_ok = EVT_TEXT_OK_ALL | EVT_TEXT_OK_EVENT;
    ev->fields_ok = 0x3FFu;
    if (st->compressed) evt_put_u(ev, "buffer_pos", ETW_BUFFER_HEADER_SIZE + it->pos);
    return 1;
}

/* EVT_READER_RESETS: every return leaves ev reset but for what it writes (the end too: fresh). */
static EVT_EVENT_RESET_FN evt_status next(void *state, evt_event *ev)
{
    etw_state *s = state;
    /* ev's ten classic field keys are in place when decode_usual filled it last (the reader
     * framework and the callers leave an event's fields as the reader wrote them) */
    /* ...and, since a caller may clear or reuse its event between calls (`evt_event ev = {0}` in
     * a loop has one address), the first and last keys still those decode_usual wrote */
    int keys_set = s->keys_ev == ev && ev->fields[0].key == s->keys_first && ev->fields[9].key == s->keys_last;
    if (!s->merging) s->keys_ev = NULL; /* the merge clears it itself, when it returns anything else */
    while (!s->merging) { /* buffer 0 first: the logfile header, the lost notes queued with it, its other records */
        if (s->dirty >= 0) {
            refill(s);
            s->dirty = -1;
        }
        if (s->header_emitted && s->pending_pos < s->npending) {
            etw_item it = s->pending[s->pending_pos++];
            it.ts = s->t0;
            fresh_event(ev);
            emit_lost(s, &it, ev);
            return EVT_OK;
        }
        int si = 0;
        if (s->streams[0].item.kind == ETW_ITEM_NONE) {
            s->merging = s->header_emitted; /* nothing queues notes after the header, buffer 0 stays done */
            if (s->merging) break;
            if (!s->nlive) { fresh_event(ev); return EVT_END; }
            si = tree_winner(s);
        }
        etw_stream *st = &s->streams[si];
        s->dirty = si;
        fresh_event(ev);
        if (st->item.kind == ETW_ITEM_LOST) {
            emit_lost(s, &st->item, ev);
            return EVT_OK;
        }
        int first = !s->header_emitted;
        s->header_emitted = 1;
        if (etw_decode_record(s, st, &st->item, ev)) {
            if (first) {
                /* The logfile header: its totals of lost events/buffers follow as lost events. */
                etw_item *el = s->events_lost ? push_pending(s, "EventsLost", s->events_lost, 0, ETW_BUFFER_HEADER_SIZE) : NULL;
                if (el) el->lost_at_least = s->events_lost_saturated;
                if (s->buffers_lost)
                    push_pending(s, "BuffersLost", s->evt_loss_records ? 0 : s->buffers_lost, 0, ETW_BUFFER_HEADER_SIZE);
            }
            return EVT_OK;
        }
    }
    for (;;) { /* the merge of the data streams */
        if (s->dirty >= 0) refill(s); /* dirty stays: it is set again below, or cleared at the end */
        if (!s->nlive) {
            s->dirty = -1;
            s->keys_ev = NULL;
            fresh_event(ev);
            return EVT_END;
        }
        int si = tree_winner(s);
        etw_stream *st = &s->streams[si];
        s->dirty = si;
        if (decode_usual(s, st, ev, keys_set)) {
            if (!keys_set) {
                s->keys_ev = ev;
                s->keys_first = ev->fields[0].key;
                s->keys_last = ev->fields[9].key;
            }
            return EVT_OK;
        }
        s->keys_ev = NULL; /* anything else may write ev's fields */
        keys_set = 0;
        fresh_event(ev);
        if (st->item.kind == ETW_ITEM_LOST) {
            emit_lost(s, &st->item, ev);
            return EVT_OK;
        }
        if (etw_decode_record(s, st, &st->item, ev)) return EVT_OK;
    }
}

/* ---- info ---------------------------------------------------------------------------------- */

static void filetime_iso(uint64_t ft, char *out, size_t cap)
{
    if (ft < ETW_FILETIME_UNIX_EPOCH) { snprintf(out, cap, "%s", ""); return; }
    uint64_t u = ft - ETW_FILETIME_UNIX_EPOCH;
    time_t secs = (time_t)(u / 10000000u);
    struct tm tm;
    if (!gmtime_r(&secs, &tm)) { out[0] = 0; return; }
    snprintf(out, cap, "%04d-%02d-%02dT%02d:%02d:%02d.%07uZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
             tm.tm_min, tm.tm_sec, (unsigned)(u % 10000000u));
}

static void info_json(void *state, evt_json *j)
{
    etw_state *s = state;
    char tb[64], g[37];
    evt_json_ku64(j, "buffers", s->nbufs);
    evt_json_ku64(j, "duplicate_buffers", s->dup_bufs);
    evt_json_ku64(j, "pointer_size", s->pointer_size);
    evt_json_ku64(j, "clock_type", s->clock_type);
    evt_json_kstr(j, "clock_name", etw_clock_name(s->clock_type));
    evt_json_ku64(j, "perf_freq", s->perf_freq);
    evt_json_ku64(j, "events_lost", s->events_lost);
    evt_json_ku64(j, "buffers_lost", s->buffers_lost);
    evt_json_kbool(j, "events_lost_saturated", s->events_lost_saturated);
    evt_json_key(j, "providers");
    evt_json_obj_begin(j);
    for (uint32_t i = 0; i < s->nprov; i++) {
        etw_guid_str(s->prov[i].guid, g);
        evt_json_ku64(j, g, s->prov[i].count);
    }
    evt_json_obj_end(j);
    if (s->prov_untracked) evt_json_ku64(j, "providers_untracked", s->prov_untracked);
    evt_json_key(j, "header_types");
    evt_json_obj_begin(j);
    for (unsigned t = 0; t < 256; t++) {
        if (!s->ht_count[t]) continue;
        const char *n = etw_header_type_name(t);
        if (!n) { snprintf(tb, sizeof tb, "UNKNOWN_0x%02X", t); n = tb; }
        evt_json_ku64(j, n, s->ht_count[t]);
    }
    evt_json_obj_end(j);
    evt_json_ku64(j, "records", records_walked(s));
    evt_json_ku64(j, "skipped_records", s->skipped);
    evt_json_ku64(j, "compressed_buffers", s->ncompressed);
    evt_json_ku64(j, "streams", s->nstreams ? s->nstreams - 1 : 0);
    evt_json_ku64(j, "buffer_size", s->buffer_size);
    evt_json_ku64(j, "buffers_written", s->buffers_written);
    evt_json_ku64(j, "log_file_mode", s->log_file_mode);
    evt_json_ku64(j, "number_of_processors", s->ncpus);
    evt_json_ku64(j, "os_build", s->provider_version);
    snprintf(tb, sizeof tb, "%u.%u", s->version & 0xFFu, (s->version >> 8) & 0xFFu);
    evt_json_kstr(j, "os_version", tb);
    evt_json_ku64(j, "timer_resolution", s->timer_res);
    evt_json_ku64(j, "cpu_speed_mhz", s->cpu_mhz);
    evt_json_ku64(j, "start_time", s->start_time);
    filetime_iso(s->start_time, tb, sizeof tb);
    evt_json_kstr(j, "start_time_utc", tb);
    evt_json_ku64(j, "end_time", s->end_time);
    evt_json_ku64(j, "boot_time", s->boot_time);
    evt_json_ku64(j, "header_timestamp", s->t0);
    evt_json_kstr(j, "logger_name", s->logger_name);
    evt_json_kstr(j, "log_file_name", s->log_file_name);
}

static void info_text(void *state, FILE *out)
{
    etw_state *s = state;
    char tb[64];
    fputs("logger:   ", out); /* names from the file, terminal-safe (host/safe_text.h) */
    evt_text_fput(s->logger_name, strlen(s->logger_name), out);
    fputs(" -> ", out);
    evt_text_fput(s->log_file_name, strlen(s->log_file_name), out);
    fputc('\n', out);
    fprintf(out, "windows:  %u.%u build %" PRIu32 ", %" PRIu32 " CPUs, %" PRIu32 "-bit logger (pointer size %" PRIu32 ")\n",
            s->version & 0xFFu, (s->version >> 8) & 0xFFu, s->provider_version, s->ncpus, s->ptr64 ? 64u : 32u, s->pointer_size);
    fprintf(out, "buffers:  %" PRIu32 " in the file (%" PRIu32 " compressed, %" PRIu32 " written per header), BufferSize %" PRIu32 ", %" PRIu32 " CPU streams\n",
            s->nbufs, s->ncompressed, s->buffers_written, s->buffer_size, s->nstreams ? s->nstreams - 1 : 0);
    fprintf(out, "mode:     LogFileMode 0x%08" PRIx32 "\n", s->log_file_mode);
    filetime_iso(s->start_time, tb, sizeof tb);
    fprintf(out, "clock:    type %" PRIu32 " (%s), PerfFreq %" PRIu64 ", start %s\n", s->clock_type, etw_clock_name(s->clock_type), s->perf_freq, tb);
    fprintf(out, "lost:     %s%" PRIu32 " events, %" PRIu32 " buffers (logfile header)\n",
            s->events_lost_saturated ? "at least " : "", s->events_lost, s->buffers_lost);
    fprintf(out, "records:  %" PRIu64 " (%" PRIu64 " skipped)\n", records_walked(s), s->skipped);
    for (unsigned t = 0; t < 256; t++) {
        if (!s->ht_count[t]) continue;
        const char *n = etw_header_type_name(t);
        fprintf(out, "  %-16s %" PRIu64 "\n", n ? n : "UNKNOWN", s->ht_count[t]);
    }
    fprintf(out, "providers:\n");
    for (uint32_t i = 0; i < s->nprov; i++) {
        char g[37];
        etw_guid_str(s->prov[i].guid, g);
        fprintf(out, "  %s %" PRIu64 "\n", g, s->prov[i].count);
    }
}

static void close_(void *state)
{
    etw_state *s = state;
    if (!s) return;
    for (uint32_t i = 0; s->streams && i < s->nstreams; i++) evt_free(s->streams[i].data);
    evt_free(s->streams);
    evt_free(s->tree);
    evt_free(s->order);
    evt_free(s->bufs);
    evt_free(s->zbuf);
    evt_free(s->prov);
    evt_free(s->prov_hash);
    etw_user_close(s);
    evt_name_cache_free(&s->names);
    evt_free(s);
}

const evt_reader_desc evt_reader_etw = {
    "etw", "Windows ETW trace log (.etl): classic, kernel and manifest/TraceLogging records",
    probe, open_, next, info_json, info_text, close_, k_opts, EVT_READER_RESETS,
};
