/* evtrace's XRay flight data recorder: per-thread buffers of LLVM XRay FDR version 5 records that
 * `llvm-xray` reads, written as a file of 32-byte header + BufferExtents-framed blocks.
 *
 * Two layers:
 *  - the freestanding core (src/formats/xray/xray_enc.c, in evtrace_rec): a pool of fixed-size
 *    buffers handed to threads lock-free (one CAS per buffer, never per record), whole-buffer
 *    rotation when the pool is exhausted (the oldest full buffer is overwritten and counted), and
 *    the record writers. The caller supplies timestamps, CPU numbers and thread ids.
 *  - the POSIX runtime (src/ports/posix/xray_runtime.c + xray_cyg.c, in the recorder library
 *    evtrace_rec): evt_xray_start()/stop()/write_file(), the XRay handlers for clang
 *    -fxray-instrument programs (entry/exit/tail, arg1, custom and typed events), the
 *    -finstrument-functions hooks with an address -> id map, and the explicit enter/exit API below.
 *
 * On the recorder core (evtrace/recorder.h): each writer (one per thread) has a nesting guard, so a
 * signal handler or interrupt that records while its thread is in the middle of a record is dropped
 * and counted, never spliced; the pool's loss account (evt_loss) counts those drops, records that
 * found no free buffer, and the records of buffers overwritten by the rotation (incl. the counts of
 * the loss records they held). Every loss reaches the file: a loss record (a custom event tagged
 * XRAY_EVT_LOSS_TAG carrying the count) is written before the next record that gets through, and
 * what is still pending when the file is written goes into the header's dropped-records field.
 * The explicit API and the -finstrument-functions hooks test the gate inline: while stopped they
 * cost one relaxed load and read no clock.
 * Facts: shared/formats/xray.md; layouts: src/formats/xray/xray_defs.h. */
#ifndef EVTRACE_XRAY_H
#define EVTRACE_XRAY_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include "evtrace/recorder.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- freestanding core (C only: it needs the recorder core and the port header) --------------- */
#ifndef __cplusplus

/* Buffer states (evt_xray_buf.state). */
enum { EVT_XRAY_BUF_FREE = 0, EVT_XRAY_BUF_INUSE = 1, EVT_XRAY_BUF_FULL = 2 };

/* Bookkeeping of one pool buffer. */
typedef struct evt_xray_buf {
    uint32_t state;    /* EVT_XRAY_BUF_* (atomic) */
    uint32_t extents;  /* bytes of records written (atomic, release-stored after each record) */
    uint32_t seq;      /* acquisition number: file order */
    uint32_t tid;      /* owning thread */
    uint32_t records;  /* data records in it: set when its owner releases it (state FULL) */
    evt_rec_count loss;/* losses carried by the loss records in it: set with `records` */
#if UINTPTR_MAX > 0xFFFFFFFFu
    uint8_t line_pad_[32]; /* 64-bit hosts: one entry per 64-byte cache line, so the owner's
                              release store of `extents` after every record does not take the line
                              from the thread writing the neighbouring buffer */
#endif
} evt_xray_buf;

/* Wall-clock source for the WalltimeMarker at the start of each buffer (may be NULL: zeros). */
typedef void (*evt_xray_walltime_fn)(int64_t *sec, int32_t *usec);

/* The shared pool. */
typedef struct evt_xray_pool {
    uint8_t *mem;              /* nbufs * buf_size bytes */
    evt_xray_buf *bufs;        /* nbufs entries */
    uint32_t buf_size;         /* bytes per buffer (multiple of 8, >= EVT_XRAY_MIN_BUF) */
    uint32_t nbufs;
    uint32_t next;             /* atomic: buffers handed out so far */
    uint32_t lost;             /* atomic: full buffers overwritten (flight-recorder rotation) */
    uint32_t dropped;          /* atomic: records dropped because no buffer was free */
    uint32_t pid;              /* written in every buffer's Pid record */
    uint32_t generation;       /* bumped by evt_xray_pool_init: writers of an older pool restart */
    evt_xray_walltime_fn walltime;
    /* Loss account shared by all writers; the members used are updated atomically here (there is
     * no lock): dropped (any context), overwritten and repended (the writer that takes a FULL
     * buffer adds its records, and the counts of its loss records), reported (claimed by
     * compare-and-swap by the writer of a loss record), written (records of released buffers),
     * loss_records. pending = dropped + overwritten + repended - reported. */
    evt_loss loss;
} evt_xray_pool;

/* Per-thread writer state (lives in thread-local storage; zero-initialised). */
typedef struct evt_xray_writer {
    evt_xray_pool *pool;       /* pool of the current buffer */
    uint32_t generation;       /* pool->generation when the buffer was taken */
    evt_xray_buf *buf;         /* current buffer, NULL if none */
    uint8_t *base, *pos, *end; /* its bytes: start, next record, end */
    uint64_t last_tsc;         /* TSC of the last TSC-carrying record */
    uint32_t cpu;              /* CPU of the last NewCPUId */
    uint32_t tid;              /* thread id written in NewBuffer */
    evt_nest nest;             /* a record of this writer is being written (front ends hold it) */
    uint32_t nrec;             /* data records in the current buffer */
    evt_rec_count nloss;       /* losses carried by loss records in the current buffer */
} evt_xray_writer;

#define EVT_XRAY_MIN_BUF 256u  /* a buffer must hold the 64-byte preamble and some records */

/* Initialise pool over caller memory: mem (mem_size bytes) is cut into nbufs buffers; bufs has
 * nbufs entries. Returns 0, or -1 when a buffer would be smaller than EVT_XRAY_MIN_BUF. */
int evt_xray_pool_init(evt_xray_pool *p, void *mem, uint32_t mem_size, evt_xray_buf *bufs,
                       uint32_t nbufs, uint32_t pid, evt_xray_walltime_fn walltime);

/* Losses not yet carried by a loss record (any thread; relaxed loads, a moment old). */
static inline evt_rec_count evt_xray_loss_pending(const evt_xray_pool *p)
{
    return (evt_rec_count)(EVT_LOAD_RLX(&p->loss.dropped) + EVT_LOAD_RLX(&p->loss.overwritten) +
                           EVT_LOAD_RLX(&p->loss.repended) - EVT_LOAD_RLX(&p->loss.reported));
}
/* Count one record dropped (any context, e.g. a nested handler that found the writer busy). */
static inline void evt_xray_drop(evt_xray_pool *p) { evt_loss_drop(&p->loss); }
/* Hand the writer's buffer back as FULL (thread exit, restart): its records count as written. */
void evt_xray_writer_release(evt_xray_writer *w);
/* The common stats of the pool (evtrace/recorder.h): written counts the records of released
 * buffers (a buffer still held by a thread is counted when it is released). */
void evt_xray_pool_rec_stats(const evt_xray_pool *p, evt_rec_stats *out);

/* The record writers below are called by the writer's own thread with w->nest held (a front end
 * enters it before reading the clock). Each first writes a loss record when losses are pending. */

/* Append a function record (kind 0 enter, 1 exit, 2 tail exit, 3 enter with args) for function
 * id fid at tsc on cpu, followed by nargs CallArgument records. Writes NewCPUId when the CPU
 * changed and TSCWrap when the delta exceeds INT32_MAX (or the TSC went back). Takes a new buffer
 * when this one is full. Returns 0, or -1 when the record was dropped (counted in the pool). */
int evt_xray_rec_fn(evt_xray_writer *w, evt_xray_pool *p, unsigned kind, uint32_t fid,
                    uint64_t tsc, uint32_t cpu, unsigned nargs, const uint64_t *args);

/* Append a custom event (type < 0) or a typed event (type 0..65535) with size payload bytes.
 * Returns 0, or -1 when dropped (payload larger than a buffer can hold, or no buffer free). */
int evt_xray_rec_event(evt_xray_writer *w, evt_xray_pool *p, int32_t type, const void *data,
                       uint32_t size, uint64_t tsc, uint32_t cpu);

/* Store the 8-byte function record of first word `word` at q (w->pos, with room) and advance the
 * writer: delta is tsc - w->last_tsc and fits in 31 bits. Internal to evt_xray_fn_fast and the
 * POSIX runtime's entry points. */
static inline void evt_xray_fn_store_(evt_xray_writer *w, uint8_t *q, uint32_t word, uint64_t delta, uint64_t tsc)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t rec = (uint64_t)word | (delta << 32); /* the record is two little-endian u32 */
    __builtin_memcpy(q, &rec, 8);                  /* one unaligned 8-byte store */
#else
    q[0] = (uint8_t)word; q[1] = (uint8_t)(word >> 8); q[2] = (uint8_t)(word >> 16); q[3] = (uint8_t)(word >> 24);
    q[4] = (uint8_t)delta; q[5] = (uint8_t)(delta >> 8); q[6] = (uint8_t)(delta >> 16); q[7] = (uint8_t)(delta >> 24);
#endif
    w->pos = q + 8;
    w->last_tsc = tsc;
    w->nrec++;
    __atomic_store_n(&w->buf->extents, (uint32_t)(w->pos - w->base), __ATOMIC_RELEASE);
}

/* A function record's first word: kind 0..3, id 1..2^28-1 (higher bits dropped, as the format's). */
static inline uint32_t evt_xray_fn_word_(unsigned kind, uint32_t fid)
{
    return ((fid & 0x0FFFFFFFu) << 4) | ((uint32_t)kind << 1);
}

/* Fast path for the common case (same buffer, CPU and a small delta, no loss pending): writes
 * the 8-byte function record inline; otherwise calls evt_xray_rec_fn. Same result contract. */
static inline int evt_xray_fn_fast(evt_xray_writer *w, evt_xray_pool *p, unsigned kind,
                                   uint32_t fid, uint64_t tsc, uint32_t cpu)
{
    uint64_t delta = tsc - w->last_tsc;
    uint8_t *q = w->pos;
    if (__builtin_expect(q != 0 && w->end - q >= 8 && cpu == w->cpu && delta <= 0x7FFFFFFFu &&
                         w->generation == p->generation && evt_xray_loss_pending(p) == 0, 1)) {
        evt_xray_fn_store_(w, q, evt_xray_fn_word_(kind, fid), delta, tsc);
        return 0;
    }
    return evt_xray_rec_fn(w, p, kind, fid, tsc, cpu, 0, (const uint64_t *)0);
}

/* The header's records-dropped value for a pool being written: its pending losses, saturated at
 * 0xFFFFFFFF (the field is a u32: at least that many) rather than wrapped to a small count. */
static inline uint32_t evt_xray_header_dropped(const evt_xray_pool *p) { return evt_loss_u32(evt_xray_loss_pending(p)); }

/* The 32-byte FDR v5 file header: cycle frequency, constant/nonstop TSC bits, buffer size and
 * evtrace's loss counters in the free-form bytes. */
void evt_xray_file_header(uint8_t out[32], uint64_t cycle_hz, int constant_tsc, int nonstop_tsc,
                          uint32_t buf_size, uint32_t lost_buffers, uint32_t dropped_records);
/* The BufferExtents record that precedes a block of n bytes. */
void evt_xray_extents_record(uint8_t out[16], uint64_t n);
/* A block's 64-byte preamble at out: NewBuffer (tid), WalltimeMarker (p's clock), Pid (p's),
 * NewCPUId (cpu, tsc). Every buffer starts with it; after a BufferExtents of 64 it is also a
 * whole block with no records, which a writer puts in a file that would otherwise hold no block
 * (llvm-xray rejects a file that ends after its header; it reads such a block as no records). */
#if __STDC_HOSTED__ /* hosted builds only (xray_enc.c) */
void evt_xray_preamble(uint8_t *out, const evt_xray_pool *p, uint32_t tid, uint32_t cpu, uint64_t tsc);
#endif
#endif /* !__cplusplus */

/* ---- POSIX runtime (evtrace_rec, src/ports/posix/xray_runtime.c) ---------------------------- */

/* Recorder configuration (zeros = defaults). */
typedef struct evt_xray_config {
    uint32_t buffer_size;   /* bytes per buffer (default 16384, like compiler-rt) */
    uint32_t buffer_count;  /* buffers in the pool (default 100) */
    int no_xray_handlers;   /* 1: do not install XRay handlers (explicit API / -finstrument-functions only) */
} evt_xray_config;

/* Allocate the pool and start recording; installs the XRay handlers (entry/exit/tail, arg1,
 * custom, typed) and patches the sleds when the program has the XRay runtime. Returns 0, or -1
 * (bad configuration, no memory, already started). Environment: EVT_XRAY_BUFFER_SIZE and
 * EVT_XRAY_BUFFER_COUNT override zeros in cfg. */
int evt_xray_start(const evt_xray_config *cfg);
/* Stop recording (removes the XRay handlers; later calls record nothing). Waits for the records
 * other threads are writing (a call that passed the gate completes first, or finds the recorder
 * stopped and records nothing) and hands every thread's buffer back, so after it returns the stats
 * are final (written + dropped == records issued) and evt_xray_write_file holds every record
 * counted; a restart may then free the pool. Call it from thread context (from a signal handler
 * that interrupted a record of its own thread, that record is not waited for). Returns 0 or -1. */
int evt_xray_stop(void);
/* Write the recorded buffers as an FDR v5 file (header + blocks in acquisition order); for
 * -finstrument-functions traces also write the id map to "<path>.map.yaml". Returns 0 or -1. */
int evt_xray_write_file(const char *path);
/* Whole buffers overwritten and records dropped so far. */
uint64_t evt_xray_buffers_lost(void);
uint64_t evt_xray_records_dropped(void);
/* The common recorder stats (evtrace/recorder.h) of the running or last session (while running,
 * written lags by the records in buffers threads still hold; after evt_xray_stop it is exact). */
struct evt_rec_stats;
void evt_xray_get_rec_stats(struct evt_rec_stats *out);
/* The cycle frequency written in the header (TSC Hz, calibrated at start). */
uint64_t evt_xray_cycle_hz(void);

/* Explicit markers (function ids are the caller's, 1..2^28-1). No-ops when not recording: the
 * macros below test the gate inline (one relaxed load, no clock read) and call the recorder only
 * while it runs; the functions (same names) remain for callers that take their address. */
void evt_xray_enter(uint32_t fid);
void evt_xray_exit(uint32_t fid);
void evt_xray_tail_exit(uint32_t fid);
void evt_xray_enter_arg(uint32_t fid, uint64_t arg);
/* The recording path behind the inline gate test (kind: 0 enter, 1 exit, 2 tail exit). */
void evt_xray_fn_on(unsigned kind, uint32_t fid);
#ifndef __cplusplus /* C++ callers use the functions (the gate is tested inside) */
/* The runtime's gate: bits 1 while recording, 0 while stopped. */
extern evt_gate evt_xray_gate;
#if defined(__GNUC__) || defined(__clang__)
#define EVT_XRAY_NOINST_ __attribute__((no_instrument_function)) /* no -finstrument-functions hook */
#else
#define EVT_XRAY_NOINST_
#endif
static inline EVT_XRAY_NOINST_ void evt_xray_fn_gated_(unsigned kind, uint32_t fid)
{
    if (EVT_LOAD_RLX(&evt_xray_gate.bits)) evt_xray_fn_on(kind, fid); /* = evt_gate_bits() */
}
#define evt_xray_enter(fid) evt_xray_fn_gated_(0u, (fid))
#define evt_xray_exit(fid) evt_xray_fn_gated_(1u, (fid))
#define evt_xray_tail_exit(fid) evt_xray_fn_gated_(2u, (fid))
#endif /* !__cplusplus */
/* Custom and typed events (what __xray_customevent / __xray_typedevent hand the handler). size 0
 * writes nothing and counts nothing: the format has no empty custom event (llvm-xray rejects a
 * size <= 0 as "Invalid size for custom event"). A size above 2^31 - 1 is dropped and counted, and
 * so is a custom event of 16 bytes that starts with "evtrLOSS" (it would read back as the
 * runtime's loss record, docs/xray.md). */
void evt_xray_custom_event(const void *data, size_t size);
void evt_xray_typed_event(uint16_t type, const void *data, size_t size);
/* 1 when the calling context interrupted a record of its own thread (a signal handler landing
 * inside one: its writer's nesting guard is set), else 0. Internal: the user-event carrier's stash
 * (src/formats/user/user_nest_enc.c). */
int evt_xray_in_record_(void);
/* A new file "<path>.tmp.<pid>.<n>" beside path, opened for writing (its name in tmp); the
 * descriptor or -1. Internal: the POSIX runtime writes the trace and the map through it and
 * renames it over path once whole. */
int evt_xray_open_tmp_(const char *path, char *tmp, size_t size);

/* Test hook (NULL in production): called by the POSIX runtime inside a record, after the thread's
 * nesting guard is taken and before the clock is read (tests raise a signal there). */
extern void (*evt_xray_test_in_record_hook)(void);

/* -finstrument-functions: write the address -> id map (llvm-xray YAML form) to path. Returns 0 or
 * -1. evt_xray_write_file() calls it for "<path>.map.yaml" when the hooks recorded anything. */
int evt_xray_write_map(const char *path);

#ifdef __cplusplus
}
#endif

#endif
