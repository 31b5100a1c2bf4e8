/* XRay FDR v5 recorder core (freestanding: no libc, C99 + GCC/clang __atomic builtins): a pool of
 * buffers handed to threads with one CAS per buffer, whole-buffer rotation when the pool runs out
 * (the oldest full buffer is overwritten and counted as lost), and the record writers. Each buffer
 * is written only by its owning thread; `extents` is release-stored after every record so a file
 * writer sees whole records. Layouts: xray_defs.h; contract: include/evtrace/xray.h.
 *
 * Loss invariants (the pool's evt_loss, all members atomic):
 *  L1 every record a front end issued is written, or counted in loss.dropped (nested in a record
 *     of its thread, no free buffer, too big), exactly once;
 *  L2 taking a FULL buffer adds its data records to loss.overwritten and the counts of its loss
 *     records to loss.repended (they leave the file), so the loss records that survive plus what
 *     is pending always add up to every loss;
 *  L3 a writer claims pending losses (reported += n by compare-and-swap) only when the loss
 *     record carrying n fits in its buffer, and writes it before its next data record. */
#include "evtrace/xray.h"
#include "formats/common/bytes.h"
#include "formats/xray/xray_defs.h"

#if UINTPTR_MAX > 0xFFFFFFFFu
/* One pool entry per 64-byte line on 64-bit hosts (evtrace/xray.h): without it two threads writing
 * neighbouring buffers moved one line between their cores on every record (bench_xray, two
 * threads: 1.30-1.42x against 1.12x padded, alternating runs on a Zen 5 VM, 28 Nov). */
typedef char xray_buf_is_one_line[sizeof(evt_xray_buf) == 64u ? 1 : -1];
#endif

#define PREAMBLE_SIZE (4u * XRAY_MD_REC_SIZE) /* NewBuffer WalltimeMarker Pid NewCPUId */
#define LOSS_REC_SIZE (XRAY_MD_REC_SIZE + XRAY_EVT_LOSS_SIZE) /* custom event + tag + count */

int evt_xray_pool_init(evt_xray_pool *p, void *mem, uint32_t mem_size, evt_xray_buf *bufs,
                       uint32_t nbufs, uint32_t pid, evt_xray_walltime_fn walltime)
{
    if (!p || !mem || !bufs || nbufs == 0) return -1;
    uint32_t bs = (mem_size / nbufs) & ~7u;
    if (bs < EVT_XRAY_MIN_BUF) return -1;
    p->mem = (uint8_t *)mem;
    p->bufs = bufs;
    p->buf_size = bs;
    p->nbufs = nbufs;
    for (uint32_t i = 0; i < nbufs; i++) {
        bufs[i].state = EVT_XRAY_BUF_FREE;
        bufs[i].extents = 0;
        bufs[i].seq = 0;
        bufs[i].tid = 0;
        bufs[i].records = 0;
        bufs[i].loss = 0;
    }
    evt_loss_reset(&p->loss);
    __atomic_store_n(&p->next, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&p->lost, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&p->dropped, 0, __ATOMIC_RELAXED);
    p->pid = pid;
    p->walltime = walltime;
    __atomic_add_fetch(&p->generation, 1, __ATOMIC_RELEASE);
    return 0;
}

/* Zero a metadata record and set its kind byte. */
static uint8_t *md_begin(uint8_t *q, unsigned kind)
{
    evt_put_u32le(q, 0);
    evt_put_u32le(q + 4, 0);
    evt_put_u32le(q + 8, 0);
    evt_put_u32le(q + 12, 0);
    q[0] = XRAY_MD_BYTE0(kind);
    return q;
}

static void put_newcpu(uint8_t *q, uint32_t cpu, uint64_t tsc)
{
    md_begin(q, XRAY_MD_NEW_CPU_ID);
    evt_put_u16le(q + XRAY_MD_NEWCPU_CPU, (uint16_t)cpu);
    evt_put_u64le(q + XRAY_MD_NEWCPU_TSC, tsc);
}

/* External in hosted builds (the POSIX runtime writes an empty session's block with it, xray.h);
 * in a freestanding image it stays static, inlined into take_buffer: no text of its own (the
 * Cortex-M figure of core + XRay, scripts/footprint.def). */
#if __STDC_HOSTED__
#define XRAY_PREAMBLE_LINKAGE
#else
#define XRAY_PREAMBLE_LINKAGE static
#endif
XRAY_PREAMBLE_LINKAGE void evt_xray_preamble(uint8_t *out, const evt_xray_pool *p, uint32_t tid, uint32_t cpu, uint64_t tsc)
{
    int64_t sec = 0;
    int32_t usec = 0;
    if (p->walltime) p->walltime(&sec, &usec);
    uint8_t *q = out;
    evt_put_u32le(md_begin(q, XRAY_MD_NEW_BUFFER) + XRAY_MD_NEWBUF_TID, tid);
    q += XRAY_MD_REC_SIZE;
    md_begin(q, XRAY_MD_WALLTIME);
    evt_put_u64le(q + XRAY_MD_WALL_SEC, (uint64_t)sec);
    evt_put_u32le(q + XRAY_MD_WALL_USEC, (uint32_t)usec);
    q += XRAY_MD_REC_SIZE;
    evt_put_u32le(md_begin(q, XRAY_MD_PID) + XRAY_MD_PID_PID, p->pid);
    put_newcpu(q + XRAY_MD_REC_SIZE, cpu, tsc);
}

static void publish(evt_xray_writer *w)
{
    __atomic_store_n(&w->buf->extents, (uint32_t)(w->pos - w->base), __ATOMIC_RELEASE);
}

/* Hand the current buffer back as FULL with its counts (L2 reads them after taking it). */
static void release(evt_xray_writer *w)
{
    if (w->buf && w->pool && w->generation == w->pool->generation) {
        w->buf->records = w->nrec;
        w->buf->loss = w->nloss;
        EVT_ADD_RLX(&w->pool->loss.written, (evt_rec_count)w->nrec);
        __atomic_store_n(&w->buf->state, EVT_XRAY_BUF_FULL, __ATOMIC_RELEASE);
    }
    w->buf = 0;
    w->pos = w->base = w->end = 0;
    w->nrec = 0;
    w->nloss = 0;
}

void evt_xray_writer_release(evt_xray_writer *w) { release(w); }

void evt_xray_pool_rec_stats(const evt_xray_pool *p, evt_rec_stats *out) { evt_loss_stats(&p->loss, out); }

/* Claim the pending losses (L3): returns the count now carried by the caller's loss record. */
static evt_rec_count claim_losses(evt_xray_pool *p)
{
    evt_rec_count r = __atomic_load_n(&p->loss.reported, __ATOMIC_RELAXED);
    for (;;) {
        evt_rec_count n = (evt_rec_count)(EVT_LOAD_RLX(&p->loss.dropped) + EVT_LOAD_RLX(&p->loss.overwritten) +
                                          EVT_LOAD_RLX(&p->loss.repended) - r);
        if (n == 0) return 0;
        if (__atomic_compare_exchange_n(&p->loss.reported, &r, r + n, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
            EVT_ADD_RLX(&p->loss.loss_records, 1u);
            return n;
        }
    }
}

/* The loss record: a custom event with the tag and the count, at tsc (already the base). */
static void put_loss(evt_xray_writer *w, evt_rec_count n, uint64_t tsc)
{
    uint8_t *q = w->pos;
    md_begin(q, XRAY_MD_CUSTOM_EVENT);
    evt_put_u32le(q + XRAY_MD_CUSTOM_SIZE, XRAY_EVT_LOSS_SIZE);
    evt_put_u32le(q + XRAY_MD_CUSTOM_DELTA, (uint32_t)(tsc - w->last_tsc));
    q += XRAY_MD_REC_SIZE;
    const char *tag = XRAY_EVT_LOSS_TAG;
    for (unsigned i = 0; i < XRAY_EVT_LOSS_TAG_SIZE; i++) q[i] = (uint8_t)tag[i];
    evt_put_u64le(q + XRAY_EVT_LOSS_COUNT, (uint64_t)n);
    w->pos = q + XRAY_EVT_LOSS_SIZE;
    w->last_tsc = tsc;
    w->nloss += n;
}

/* Release the current buffer and take the next one of the pool (FREE, or FULL = overwrite the
 * oldest); writes the block preamble. Returns 0, or -1 when every buffer is in use. */
static int take_buffer(evt_xray_writer *w, evt_xray_pool *p, uint64_t tsc, uint32_t cpu)
{
    release(w);
    w->pool = p;
    w->generation = __atomic_load_n(&p->generation, __ATOMIC_ACQUIRE);
    for (uint32_t tries = 0; tries < p->nbufs; tries++) {
        uint32_t seq = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED);
        evt_xray_buf *b = &p->bufs[seq % p->nbufs];
        uint32_t st = __atomic_load_n(&b->state, __ATOMIC_ACQUIRE);
        if (st == EVT_XRAY_BUF_INUSE) continue;
        if (!__atomic_compare_exchange_n(&b->state, &st, EVT_XRAY_BUF_INUSE, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
            continue;
        if (st == EVT_XRAY_BUF_FULL) { /* L2: its records and loss counts leave the file */
            __atomic_add_fetch(&p->lost, 1, __ATOMIC_RELAXED);
            EVT_ADD_RLX(&p->loss.overwritten, (evt_rec_count)b->records);
            EVT_ADD_RLX(&p->loss.repended, b->loss);
        }
        b->records = 0;
        b->loss = 0;
        b->seq = seq;
        b->tid = w->tid;
        __atomic_store_n(&b->extents, 0, __ATOMIC_RELEASE);
        w->buf = b;
        w->base = w->pos = p->mem + (uint64_t)(seq % p->nbufs) * p->buf_size;
        w->end = w->base + p->buf_size;
        evt_xray_preamble(w->pos, p, w->tid, cpu, tsc);
        w->pos += PREAMBLE_SIZE;
        w->cpu = cpu;
        w->last_tsc = tsc;
        publish(w);
        return 0;
    }
    return -1;
}

static void drop(evt_xray_pool *p)
{
    __atomic_add_fetch(&p->dropped, 1, __ATOMIC_RELAXED);
    evt_loss_drop(&p->loss);
}

/* Make room for `need` bytes of records plus a possible NewCPUId/TSCWrap and loss record, write
 * the re-basing record when due, then the loss record when losses are pending (L3). Returns 0,
 * or -1 (dropped, counted). */
static int prepare(evt_xray_writer *w, evt_xray_pool *p, uint32_t need, uint64_t tsc, uint32_t cpu)
{
    if (need + PREAMBLE_SIZE + LOSS_REC_SIZE > p->buf_size) {
        drop(p);
        return -1;
    }
    uint64_t reserve = (uint64_t)need + XRAY_MD_REC_SIZE + (evt_xray_loss_pending(p) ? LOSS_REC_SIZE : 0u);
    if (!w->buf || w->generation != p->generation || (uint64_t)(w->end - w->pos) < reserve) {
        if (take_buffer(w, p, tsc, cpu) != 0) {
            drop(p);
            return -1;
        }
        /* the preamble's NewCPUId is the base */
    } else if (cpu != w->cpu) {
        put_newcpu(w->pos, cpu, tsc);
        w->pos += XRAY_MD_REC_SIZE;
        w->cpu = cpu;
        w->last_tsc = tsc;
    } else if (tsc - w->last_tsc > XRAY_MAX_DELTA) { /* also when the TSC went back */
        evt_put_u64le(md_begin(w->pos, XRAY_MD_TSC_WRAP) + XRAY_MD_TSCWRAP_TSC, tsc);
        w->pos += XRAY_MD_REC_SIZE;
        w->last_tsc = tsc;
    }
    if (evt_xray_loss_pending(p) && (uint64_t)(w->end - w->pos) >= (uint64_t)need + LOSS_REC_SIZE) {
        evt_rec_count n = claim_losses(p);
        if (n) put_loss(w, n, tsc);
    }
    return 0;
}

int evt_xray_rec_fn(evt_xray_writer *w, evt_xray_pool *p, unsigned kind, uint32_t fid,
                    uint64_t tsc, uint32_t cpu, unsigned nargs, const uint64_t *args)
{
    if (kind >= XRAY_FN_COUNT_) return -1;
    if (prepare(w, p, XRAY_FN_REC_SIZE + nargs * XRAY_MD_REC_SIZE, tsc, cpu) != 0) return -1;
    uint8_t *q = w->pos;
    evt_put_u32le(q, XRAY_FN_WORD(kind, fid));
    evt_put_u32le(q + 4, (uint32_t)(tsc - w->last_tsc));
    q += XRAY_FN_REC_SIZE;
    for (unsigned i = 0; i < nargs; i++) {
        evt_put_u64le(md_begin(q, XRAY_MD_CALL_ARGUMENT) + XRAY_MD_CALLARG_VALUE, args[i]);
        q += XRAY_MD_REC_SIZE;
    }
    w->pos = q;
    w->last_tsc = tsc;
    w->nrec++;
    publish(w);
    return 0;
}

int evt_xray_rec_event(evt_xray_writer *w, evt_xray_pool *p, int32_t type, const void *data,
                       uint32_t size, uint64_t tsc, uint32_t cpu)
{
    if (size == 0 || size > 0x7FFFFFFFu || (size > 0 && !data)) return -1;
    /* The application's copy of a loss record (16 bytes, the tag first) would read back as a
     * loss: refused, dropped and counted (docs/xray.md). */
    if (type < 0 && size == XRAY_EVT_LOSS_SIZE) {
        const uint8_t *d = (const uint8_t *)data;
        unsigned i = 0;
        while (i < XRAY_EVT_LOSS_TAG_SIZE && d[i] == (uint8_t)XRAY_EVT_LOSS_TAG[i]) i++;
        if (i == XRAY_EVT_LOSS_TAG_SIZE) {
            drop(p);
            return -1;
        }
    }
    if (prepare(w, p, XRAY_MD_REC_SIZE + size, tsc, cpu) != 0) return -1;
    uint8_t *q = w->pos;
    uint32_t delta = (uint32_t)(tsc - w->last_tsc);
    if (type < 0) {
        md_begin(q, XRAY_MD_CUSTOM_EVENT);
        evt_put_u32le(q + XRAY_MD_CUSTOM_SIZE, size);
        evt_put_u32le(q + XRAY_MD_CUSTOM_DELTA, delta);
    } else {
        md_begin(q, XRAY_MD_TYPED_EVENT);
        evt_put_u32le(q + XRAY_MD_TYPED_SIZE, size);
        evt_put_u32le(q + XRAY_MD_TYPED_DELTA, delta);
        evt_put_u16le(q + XRAY_MD_TYPED_TYPE, (uint16_t)type);
    }
    q += XRAY_MD_REC_SIZE;
    /* volatile: keeps the compiler from turning the loop into a memcpy call (no libc here) */
    volatile uint8_t *d = q;
    const uint8_t *s = (const uint8_t *)data;
    for (uint32_t i = 0; i < size; i++) d[i] = s[i];
    w->pos = q + size;
    w->last_tsc = tsc;
    w->nrec++;
    publish(w);
    return 0;
}

void evt_xray_file_header(uint8_t out[32], uint64_t cycle_hz, int constant_tsc, int nonstop_tsc,
                          uint32_t buf_size, uint32_t lost_buffers, uint32_t dropped_records)
{
    volatile uint8_t *z = out; /* volatile: no memset call */
    for (unsigned i = 0; i < XRAY_HDR_SIZE; i++) z[i] = 0;
    evt_put_u16le(out + XRAY_HDR_VERSION, XRAY_FDR_VERSION);
    evt_put_u16le(out + XRAY_HDR_TYPE, XRAY_TYPE_FDR);
    evt_put_u32le(out + XRAY_HDR_BITS, (constant_tsc ? XRAY_BIT_CONSTANT_TSC : 0u) | (nonstop_tsc ? XRAY_BIT_NONSTOP_TSC : 0u));
    evt_put_u64le(out + XRAY_HDR_FREQ, cycle_hz);
    evt_put_u32le(out + XRAY_HDR_BUFSIZE, buf_size);
    evt_put_u32le(out + XRAY_HDR_EVT_MAGIC_OFF, XRAY_HDR_EVT_MAGIC);
    evt_put_u32le(out + XRAY_HDR_EVT_LOST_OFF, lost_buffers);
    evt_put_u32le(out + XRAY_HDR_EVT_DROP_OFF, dropped_records);
}

void evt_xray_extents_record(uint8_t out[16], uint64_t n)
{
    evt_put_u64le(md_begin(out, XRAY_MD_BUFFER_EXTENTS) + XRAY_MD_EXTENTS_SIZE, n);
}
