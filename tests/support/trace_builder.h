/* Trace builder for tests: describe a ThreadX trace (registry objects and event records with exact
 * timestamps, contexts and info words), get the byte-exact TXTB (.trx) buffer. The bytes are
 * written by the project's own TXTB recorder (evtrace/txtb.h, src/formats/threadx/txtb_enc.c),
 * driven with the builder's contexts and timestamps, so layouts live only in txtb_defs.h.
 *
 * Usage:
 *   tb_trace *t = tb_new();
 *   tb_thread(t, A, "A", 10, 0x20010000, 1024);           // registry: thread, prio, stack
 *   tb_object(t, TXTB_OBJ_QUEUE, Q, "Q", 0, 0);          // registry: any other object
 *   tb_rec(t, 100, A, tb_prio(10), TXTB_EVENT_QUEUE_SEND, Q, 0, 0, 1);  // one raw record
 *   tb_block(t, 120, A, TB_STATE_QUEUE, B);               // helpers for common sequences
 *   size_t len; uint8_t *buf = tb_bytes(t, &len);         // or tb_write(t, path)
 *   ... evt_reader_open_mem(buf, len, "threadx", ...) ...; free(buf); tb_free(t);
 *
 * What the file holds, exactly:
 * - header, then one registry entry per tb_thread/tb_object in call order (slot 0, 1, ...), the
 *   registry sized to them plus `spare_registry` free slots (default 0; at least 1 slot);
 * - the two RUNNING (6) records that tx_trace_enable writes, in initialisation context (context
 *   0xF0F0F0F0, priority word 0) at the first record's timestamp (0 when there is none), then
 *   every record in call order, then one never-written slot (the buffer does not wrap, nothing
 *   is lost);
 * - timestamps are written raw (32 bits) and the header's timer mask is `time_mask` (default
 *   0xFFFFFFFF); byte order `big_endian` (default 0: little-endian); trace base 0x20000000.
 * - "stk" info words: helpers put `stk` (default 0) where the ThreadX table has a stack sample.
 * The recorder is one per program: build one trace at a time (tests are single-threaded), and not
 * while a test has the TXTB recorder enabled itself. */
#ifndef EVT_TRACE_BUILDER_H
#define EVT_TRACE_BUILDER_H

#include <stddef.h>
#include <stdint.h>
#include "formats/threadx/txtb_defs.h"

#define TB_CTX_ISR  TXTB_CTX_ISR   /* context word of a record made in an ISR */
#define TB_CTX_INIT TXTB_CTX_INIT  /* context word of a record made during initialisation */

/* ThreadX thread states (THREAD_RESUME/SUSPEND info2; threadx.md §3). */
enum {
    TB_STATE_READY = 0, TB_STATE_COMPLETED = 1, TB_STATE_TERMINATED = 2, TB_STATE_SUSPENDED = 3,
    TB_STATE_SLEEP = 4, TB_STATE_QUEUE = 5, TB_STATE_SEMAPHORE = 6, TB_STATE_EVENT_FLAG = 7,
    TB_STATE_BLOCK_MEMORY = 8, TB_STATE_BYTE_MEMORY = 9, TB_STATE_MUTEX = 13,
    TB_STATE_PRIORITY_CHANGE = 14
};

typedef struct tb_trace tb_trace;

/* Options, fields of the builder (set after tb_new, before tb_bytes). */
typedef struct tb_options {
    int big_endian;          /* 1 big-endian, 0 little-endian (default) */
    uint32_t time_mask;      /* header timer mask, default 0xFFFFFFFF */
    uint32_t spare_registry; /* extra never-used registry slots */
    uint32_t stk;            /* stack sample the helpers write in "stk" info words */
    uint32_t slots;          /* event slots (0: every record fits); fewer make the buffer wrap */
} tb_options;

tb_trace *tb_new(void);    /* aborts the test process when out of memory */
void tb_free(tb_trace *t);
tb_options *tb_opts(tb_trace *t);

/* Registry. Thread: priority, stack start and size (ThreadX param1/param2). */
void tb_thread(tb_trace *t, uint32_t addr, const char *name, uint32_t prio, uint32_t stack_start,
               uint32_t stack_size);
/* Any object: type TXTB_OBJ_* (queue, semaphore, mutex, event flags, pools, ...), params per
 * threadx.md §4 (0 when unsure). */
void tb_object(tb_trace *t, uint8_t type, uint32_t addr, const char *name, uint32_t param1, uint32_t param2);

/* Priority word of a thread record: 0x80000000 | threshold << 16 | prio (threshold = prio). */
uint32_t tb_prio(uint32_t prio);
/* Priority word of thread `ctx` from its registry priority (0x80000000 | p << 16 | p); for
 * TB_CTX_INIT 0. A thread not registered gets 0x80000000. */
uint32_t tb_prio_of(const tb_trace *t, uint32_t ctx);

/* One record: timestamp (raw), context word, priority word, event id, info 1..4. */
void tb_rec(tb_trace *t, uint32_t ts, uint32_t ctx, uint32_t prio_word, uint32_t id,
            uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4);
/* A record of thread (or init) context `ctx` with its registry priority word. */
void tb_ev(tb_trace *t, uint32_t ts, uint32_t ctx, uint32_t id, uint32_t i1, uint32_t i2,
           uint32_t i3, uint32_t i4);

/* Common sequences (one record each unless said). `by` is the recording context (a thread,
 * TB_CTX_INIT, or TB_CTX_ISR: then the priority word is `interrupted`, see tb_isr_*). */
/* THREAD_RESUME of `thread` (info2 its previous state, info3 stk, info4 next thread to run). */
void tb_resume(tb_trace *t, uint32_t ts, uint32_t by, uint32_t thread, uint32_t prev_state, uint32_t next);
/* THREAD_SUSPEND of `thread` into `state` (info4 next thread to run, 0 = idle). */
void tb_suspend(tb_trace *t, uint32_t ts, uint32_t by, uint32_t thread, uint32_t state, uint32_t next);
/* `thread` blocks: THREAD_SUSPEND by itself into state, next thread `next` (call the service
 * first: QUEUE_RECEIVE / SEMAPHORE_GET / MUTEX_GET / EVENT_FLAGS_GET, as ThreadX records it). */
void tb_block(tb_trace *t, uint32_t ts, uint32_t thread, uint32_t state, uint32_t next);
/* ISR_ENTER / ISR_EXIT of interrupt isr_id, interrupting thread `interrupted` (0 = idle):
 * context 0xFFFFFFFF, priority word = interrupted, info1 stk, info3 system state 1, info4 0. */
void tb_isr_enter(tb_trace *t, uint32_t ts, uint32_t isr_id, uint32_t interrupted);
void tb_isr_exit(tb_trace *t, uint32_t ts, uint32_t isr_id, uint32_t interrupted);
/* MUTEX_GET by `thread`: info2 wait option (TX_WAIT_FOREVER), info3 owner before the call (0
 * free), info4 ownership count before. MUTEX_PUT: info2 owner (the caller), info3 count, info4 stk. */
void tb_mutex_get(tb_trace *t, uint32_t ts, uint32_t thread, uint32_t mutex, uint32_t owner, uint32_t count);
void tb_mutex_put(tb_trace *t, uint32_t ts, uint32_t thread, uint32_t mutex, uint32_t count);
/* QUEUE_SEND / QUEUE_RECEIVE by ctx (thread or TB_CTX_ISR with interrupted 0): info2 message
 * pointer 0, info3 wait option TX_WAIT_FOREVER, info4 enqueued before the call. */
void tb_queue_send(tb_trace *t, uint32_t ts, uint32_t ctx, uint32_t queue, uint32_t enqueued);
void tb_queue_receive(tb_trace *t, uint32_t ts, uint32_t ctx, uint32_t queue, uint32_t enqueued);
/* SEMAPHORE_GET (info2 wait forever, info3 count before, info4 stk) / SEMAPHORE_PUT (info2 count
 * before, info3 suspended count, info4 stk). */
void tb_sem_get(tb_trace *t, uint32_t ts, uint32_t ctx, uint32_t sem, uint32_t count);
void tb_sem_put(tb_trace *t, uint32_t ts, uint32_t ctx, uint32_t sem, uint32_t count, uint32_t suspended);

/* The TXTB bytes (malloc'd, caller frees); aborts the test process on failure. */
uint8_t *tb_bytes(tb_trace *t, size_t *len);
/* tb_bytes written to path; returns 0 on success. */
int tb_write(tb_trace *t, const char *path);

#endif
