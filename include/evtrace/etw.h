/* ETW-classic recorder: providers registered by GUID, sessions that enable them with a level and
 * keyword masks (formats/etw.md §1.1), a TraceEvent equivalent that writes the 48-byte
 * EVENT_TRACE_HEADER exactly as Windows stores it (FULL_HEADER32/64 records), per-CPU or
 * per-thread buffers with the 72-byte WMI_BUFFER_HEADER, and an .etl file (sequential or
 * circular) laid out as Windows writes it: buffer 0 = logfile-header record, then data buffers.
 * Freestanding (no malloc, no libc): the caller owns the buffer memory and supplies the file
 * writes through a callback; src/ports/posix/etw_file.c has the POSIX file/clock glue.
 * Layouts and constants: evtrace/etw_defs.h (ETW_WNODE_FLAG_*, ETW_TYPE_*, ETW_LEVEL_*).
 *
 * On the recorder core (evtrace/recorder.h): each session has its own lock and nesting guard (no
 * lock shared with other sessions or recorders), its loss account and clock. A signal handler or
 * interrupt that records while its thread is writing into the same session is dropped and counted
 * (never spliced); every loss reaches the file as a loss record (an event of evtrace's own
 * EVTRACE_LOSS class carrying the count, ETW_EVT_LOSS_TYPE) written before the next event that
 * gets through, and at stop; what cannot be written any more (sequential file full) is the
 * logfile header's EventsLost. Events in buffers that leave the file (circular overwrite, file
 * full, failed write) count as lost too, so events read + lost reported == events issued.
 * evt_etw_write tests the provider's gate inline: a disabled or filtered call costs one relaxed
 * load and a compare, no clock read, no lock. */
#ifndef EVTRACE_ETW_H
#define EVTRACE_ETW_H

#include <stdint.h>
#include "evtrace/etw_defs.h"
#include "evtrace/recorder.h"

/* Compile-time switches: features a firmware image can leave out (docs/etw.md lists them with
 * their Cortex-M4 text sizes). Each is 1 (compiled in) unless defined otherwise, the same for the
 * recorder's objects and every file that includes this header. A feature left out is refused at
 * run time with EVT_ETW_ERROR_INVALID_PARAMETER (start: its slot mode, circular file mode or
 * pointer size; TraceEvent: USE_MOF_PTR). */
#ifndef EVT_ETW_OWNED_SLOTS
#define EVT_ETW_OWNED_SLOTS 1  /* EVT_ETW_SLOTS_THREAD_OWNED (lock-free per-thread slots) */
#endif
#ifndef EVT_ETW_THREAD_SLOTS
#define EVT_ETW_THREAD_SLOTS 1 /* EVT_ETW_SLOTS_PER_THREAD (a slot per thread id, under the lock) */
#endif
#ifndef EVT_ETW_CIRCULAR
#define EVT_ETW_CIRCULAR 1     /* ETW_FILE_MODE_CIRCULAR */
#endif
#ifndef EVT_ETW_MOF
#define EVT_ETW_MOF 1          /* ETW_WNODE_FLAG_USE_MOF_PTR payloads */
#endif
#ifndef EVT_ETW_CPU_TIMES
#define EVT_ETW_CPU_TIMES 1    /* cfg.cpu_times (KernelTime/UserTime); 0: always 0 */
#endif
#ifndef EVT_ETW_CLOCK_HOOKS
#define EVT_ETW_CLOCK_HOOKS 1  /* cfg.clock and the FILETIME record clock; 0: the port's counter */
#endif
#ifndef EVT_ETW_UTF8_NAMES
#define EVT_ETW_UTF8_NAMES 1   /* UTF-8 logger/file names; 0: ASCII (other bytes U+FFFD) */
#endif
#ifndef EVT_ETW_POINTER_SIZE
#define EVT_ETW_POINTER_SIZE 0 /* 0: cfg.pointer_size 4 or 8 at run time; 4 or 8: that layout only */
#endif

/* Win32 status codes TraceEvent returns (same values). */
#define EVT_ETW_SUCCESS                0u
#define EVT_ETW_ERROR_INVALID_HANDLE   6u    /* provider not enabled by a session */
#define EVT_ETW_ERROR_NOT_ENOUGH_MEMORY 8u   /* no buffer: per-thread slots exhausted or file full */
#define EVT_ETW_ERROR_INVALID_PARAMETER 87u  /* bad Size / MOF field count / NULL data */
#define EVT_ETW_ERROR_MORE_DATA        234u  /* event of BufferSize - 72 bytes or more, or > 65535 */
#define EVT_ETW_ERROR_ALREADY_EXISTS   183u  /* start on a session that is running */
#define EVT_ETW_ERROR_BUSY             170u  /* THREAD_OWNED stop from a handler (or callback) nested
                                                in a record of its own thread: that record cannot
                                                end before the stop returns; stop after it */
#define EVT_ETW_ERROR_INVALID_FLAGS    1004u /* WNODE_FLAG_TRACED_GUID missing */

#ifndef EVT_ETW_MAX_SLOTS
#define EVT_ETW_MAX_SLOTS   64u   /* in-memory buffers (per-CPU or per-thread) of one session; a
                                     smaller value shrinks evt_etw_session (RAM) on small targets */
#endif
#define EVT_ETW_MAX_NAME    63u   /* UTF-16 units kept of the logger / log-file names */

/* A GUID by its members; stored on disk as Data1 u32le, Data2 u16le, Data3 u16le, Data4[8]. */
typedef struct evt_etw_guid {
    uint32_t data1;
    uint16_t data2;
    uint16_t data3;
    uint8_t data4[8];
} evt_etw_guid;

/* MOF_FIELD: one piece of payload gathered into the record with ETW_WNODE_FLAG_USE_MOF_PTR. */
typedef struct evt_etw_mof_field {
    const void *data;   /* DataPtr */
    uint32_t length;    /* Length in bytes */
    uint32_t type;      /* DataType (not stored on disk) */
} evt_etw_mof_field;

/* The EVENT_TRACE_HEADER members a TraceEvent caller fills (the rest ETW fills in). */
typedef struct evt_etw_trace_header {
    uint16_t size;          /* 48 + payload bytes, or 48 + n * 16 with USE_MOF_PTR (n <= 16) */
    uint8_t type;           /* Class.Type: ETW_TYPE_* or a class-specific type >= 10 */
    uint8_t level;          /* Class.Level: ETW_LEVEL_* */
    uint16_t version;       /* Class.Version */
    uint64_t timestamp;     /* used only with ETW_WNODE_FLAG_USE_TIMESTAMP (raw session clock) */
    evt_etw_guid guid;      /* event-class GUID (unless USE_GUID_PTR) */
    uint64_t guid_ptr;      /* with ETW_WNODE_FLAG_USE_GUID_PTR: (uintptr_t) of an evt_etw_guid */
    uint32_t flags;         /* ETW_WNODE_FLAG_*: TRACED_GUID mandatory */
} evt_etw_trace_header;

/* File writes of a session: write len bytes at offset; return 0 on success. A buffer is written as
 * calls at rising offsets from its start; when one fails the buffer's events are counted lost, so
 * a writer that cannot undo the buffer's earlier bytes leaves a part of it for a reader to find
 * (the POSIX glue truncates a failed buffer that was growing the file). In a circular file a
 * failed write that wrote nothing leaves the position's older buffer in place, still counted as
 * there (the next buffer tries the position again); one that failed after changing part of it
 * leaves a buffer part new, part old, and the loss count is then not exact for that buffer. On the POSIX port the
 * thread's signals are held around the call only once a signal handler of the process has
 * recorded inside a record of its own thread (docs/etw.md): until then a handler may run during
 * it, so a write that can be interrupted must retry on EINTR and on a short count (the glue's
 * does). */
typedef int (*evt_etw_write_fn)(void *user, uint64_t offset, const void *data, uint32_t len);

/* Session properties (EVENT_TRACE_PROPERTIES + platform hooks). Zero = default where stated. */
typedef struct evt_etw_session_config {
    uint32_t buffer_size;      /* bytes per buffer; 4096 .. 16 MiB, multiple of 8 */
    uint32_t buffers;          /* in-memory buffers = slots (1 .. EVT_ETW_MAX_SLOTS) */
    int per_thread;            /* slot mode: EVT_ETW_SLOTS_DEFAULT (0, a zero-initialised config):
                                  THREAD_OWNED where that is safe, else per-CPU (below);
                                  EVT_ETW_SLOTS_PER_CPU (3): slot = CPU (evt_port_cpu() % buffers);
                                  EVT_ETW_SLOTS_PER_THREAD (1): one slot per thread id, under the lock;
                                  EVT_ETW_SLOTS_THREAD_OWNED (2): each thread owns its slot, no lock
                                  per event (see below) */
    uint32_t log_file_mode;    /* ETW_FILE_MODE_SEQUENTIAL or ETW_FILE_MODE_CIRCULAR (+ other bits) */
    uint32_t max_file_buffers; /* file limit in buffers incl. the header buffer; 0 = none
                                  (sequential only; circular needs >= 2) */
    uint32_t clock_type;       /* ETW_CLOCK_QPC (default), ETW_CLOCK_SYSTEM_TIME, ETW_CLOCK_CPU_CYCLES */
    uint64_t clock_hz;         /* QPC: PerfFreq (0 = evt_port_timestamp_hz()) */
    uint32_t cpu_mhz;          /* CpuSpeedInMHz (CPU_CYCLES clock: ticks per us) */
    uint32_t timer_resolution; /* 100 ns units (0 = 156250, 15.625 ms); unit of Kernel/UserTime */
    uint32_t pointer_size;     /* 4 or 8 (FULL_HEADER32/64, SYSTEM32/64); 0 = sizeof(void *) */
    uint32_t ncpus;            /* NumberOfProcessors recorded (0 = buffers) */
    uint16_t logger_id;        /* LoggerId in every buffer's ETW_BUFFER_CONTEXT */
    const char *logger_name;   /* ASCII/UTF-8, NULL = "evtrace" */
    const char *log_file_name; /* ASCII/UTF-8, NULL = "" */
    evt_etw_write_fn write;    /* mandatory */
    void *write_user;
    uint64_t (*clock)(void);     /* raw timestamp; NULL = filetime() for ETW_CLOCK_SYSTEM_TIME,
                                    else evt_port_timestamp() */
    uint64_t (*filetime)(void);  /* wall clock as FILETIME (StartTime/EndTime); NULL = 0 */
    void (*cpu_times)(uint64_t *kernel_100ns, uint64_t *user_100ns); /* calling thread; NULL = 0.
                                    THREAD_OWNED slots call it on a thread's first record and then
                                    only when the record timestamp has moved at least one
                                    timer_resolution (in clock ticks) past the last call: between
                                    calls the records carry the cached KernelTime/UserTime, which
                                    lag the thread's CPU time by at most one timer_resolution of
                                    wall time, i.e. at most one unit, as Windows' per-tick
                                    counters do. The other slot modes call it per record. */
    uint32_t (*thread_id)(void); /* NULL = (uint32_t)evt_port_context_id() */
    uint32_t (*process_id)(void);/* NULL = 0 */
    void (*sync_writers)(void);  /* THREAD_OWNED: a full memory barrier on every thread of the
                                    process (POSIX: evt_etw_posix_sync_writers, membarrier), run
                                    by stop before it waits for records in flight; NULL = none
                                    (enough on one core) */
} evt_etw_session_config;

/* Slot modes (evt_etw_session_config.per_thread).
 * THREAD_OWNED: a thread claims a slot once (by thread id, a CAS on its first event) and then writes
 * its records into it with plain stores, guarded only by the slot's nesting guard (a signal handler
 * or interrupt on the same thread that records mid-record is dropped and counted); the session lock
 * is taken per BUFFER (flush, loss record), never per event. The thread-id hook must give threads
 * that run at the same time different ids (the default, evt_port_context_id, does). Flush writes
 * every slot's published records; stop closes the session, waits for records in flight (after
 * cfg.sync_writers) and writes what every slot holds, incl. the partial buffers of threads that
 * exited. A thread that will not record again may give its slot back (evt_etw_thread_detach), else
 * the slot stays its id's. A stop nested in a record of its own thread (a signal handler, a
 * callback) returns EVT_ETW_ERROR_BUSY and changes nothing; in a fork child its wait for a slot
 * whose owner vanished at the fork is bounded. Stop must not be called where it would starve a
 * record in flight of another context (a task that out-prioritises a recorder on one core). */
/* DEFAULT (0, what a zero-initialised config asks for): THREAD_OWNED with one slot kept back as a
 * shared slot under the session lock, for the threads that find no slot of their own (so no thread
 * loses its events for want of a slot, as an explicit THREAD_OWNED session's would), when it is
 * safe: the POSIX port (preemptive, time-sliced threads; a thread that interrupts a record is a
 * signal handler, which is dropped and counted as in every mode), thread ids that differ between
 * threads running at once (cfg.thread_id NULL or evt_etw_posix_thread_id), buffers >= 2 and the
 * mode compiled in; cfg.sync_writers NULL is then evt_etw_posix_sync_writers. Otherwise (other
 * ports: an interrupt or a higher-priority task could starve stop's wait; a caller's own thread-id
 * hook, which may give two threads one id) it is PER_CPU. Both write correct files; ProcessorIndex
 * is then the slot, not the CPU. PER_CPU was 0 until 29 Nov 2026: a caller that names it gets the
 * per-CPU mode as before; one built with the old value gets the default. */
#define EVT_ETW_SLOTS_DEFAULT      0
#define EVT_ETW_SLOTS_PER_THREAD   1
#define EVT_ETW_SLOTS_THREAD_OWNED 2
#define EVT_ETW_SLOTS_PER_CPU      3

#if UINTPTR_MAX > 0xFFFFFFFFu
#define EVT_ETW_SLOT_PAD_ 128u
#else
#define EVT_ETW_SLOT_PAD_ 104u
#endif
/* One in-memory buffer of a session. The members a THREAD_OWNED record touches come first, within
 * 48 bytes (at most two cache lines wherever the session is placed). */
typedef struct evt_etw_slot {
    evt_clock clk;          /* THREAD_OWNED, owner: this slot's record timestamps (clk.last is hot) */
    uint8_t *buf;           /* buffer_size bytes of caller memory */
    uint32_t used;          /* bytes filled incl. the 72-byte header */
    /* THREAD_OWNED (members the owner writes on every record; `base` is the lock holder's): */
    uint32_t tkey;          /* owning thread id + 1 (0 = free): CAS on claim, release on detach */
    uint32_t active;        /* owner: 1 while a record (or detach) of the slot is open: stop waits
                               for 0, and it is the slot's nesting guard (a same-thread handler
                               finding it set is dropped) */
    uint32_t committed;     /* owner, release: records [base, committed) are complete */
    evt_rec_count written;  /* owner, relaxed stores: data records stored in this slot */
    uint64_t cpu_word;      /* owner: KernelTime | UserTime << 32 of the owner's thread, cached */
    uint64_t cpu_at;        /* owner: the record timestamp at which cpu_word was read */
    uint64_t cpu_res;       /* owner: session cpu_res once cpu_word is read; 0 = read at the next
                               record (a slot just claimed) */
    uint32_t base;          /* lock holder: records before it were written to the file */
    evt_rec_count wbase;    /* lock holder: `written` of the records before `base` */
    /* per-CPU and per-thread slots under the session lock: */
    uint64_t owner;         /* per-thread: owning thread id + 1 (0 = free) */
    uint32_t events;        /* records in the buffer */
    int lost_since_flush;   /* events were lost while this buffer was current */
    evt_rec_count loss_in;  /* losses carried by the loss records in the buffer (THREAD_OWNED: in
                               [base, used), lock holder) */
    uint8_t pad_[EVT_ETW_SLOT_PAD_]; /* keeps neighbouring slots' owners off each other's cache lines
                                        (and a slot 256 bytes on 64-bit hosts: its index a shift) */
} evt_etw_slot;

/* A logging session (controller side). All members are private to the recorder. */
typedef struct evt_etw_session {
    evt_etw_session_config cfg;
    evt_etw_slot slots[EVT_ETW_MAX_SLOTS];
    uint32_t nslots;
    uint32_t nown;          /* THREAD_OWNED: slots threads may claim ([0, nown)); slot nown, if < nslots,
                               is the shared slot (EVT_ETW_SLOTS_DEFAULT), written under the lock */
    int running;            /* started and not stopped */
    int file_full;          /* sequential file reached max_file_buffers: logging stopped */
    uint64_t seq;           /* SequenceNumber of the last flushed buffer */
    uint64_t data_written;  /* data buffers flushed (incl. overwritten ones) */
    uint64_t events_lost;   /* EventsLost */
    uint64_t buffers_lost;  /* BuffersLost (could not be written) */
    uint64_t overwritten;   /* circular: oldest buffers overwritten */
    uint64_t start_ts;      /* raw timestamp of the logfile-header record */
    uint64_t start_time;    /* FILETIME at start */
    uint64_t events;        /* (unused: evt_etw_session_stats reads the loss account) */
    uint8_t hot_pad_a[64];  /* keeps the members written on every event (below) off the cache */
    evt_rec_lock lock;      /* the session's critical section (its own, P1-P4) */
    evt_nest nest;          /* a record, flush or stop of this session is in progress */
    evt_loss loss;          /* dropped / overwritten / reported (evtrace/recorder.h) */
    evt_clock clk;          /* record timestamps, clamped monotonic */
    uint8_t hot_pad_b[64];  /* ... lines of a neighbouring object (another session's config) */
    struct evt_etw_provider *providers; /* enabled by this session (their gates close at stop) */
    evt_rec_count *ring;    /* circular: per file position, the events and the loss counts of its buffer */
    uint32_t pid;           /* process id, read once at start */
    uint32_t hdr_bits;      /* HeaderType << 16 | MarkerFlags << 24 of every record (set at start) */
    uint32_t size_limit;    /* largest record Size accepted: min(65535, buffer_size - 73) */
    uint32_t pt_flags;      /* THREAD_OWNED: ETW_PT_CLOSED | ETW_PT_LOSS (0: the fast path may run);
                               read by every record, written on drops and by the lock holder */
    int owned_early;        /* THREAD_OWNED with the port's 64-bit counter: read at the call, clamped
                               to the slot's last timestamp inside the guard (set at start) */
    int path;               /* record path of the call-site words (set at start): 0 locked, 1
                               THREAD_OWNED, 2-5 THREAD_OWNED leaf (owned_early, the thread id read
                               inline; 4-5 with the CPU-time hook: its cached word) */
    int tid_src;            /* how records read the thread id (set at start): 0 the hook or the
                               port call, else inline (POSIX port: see etw_enc.c, ETW_TID_*) */
    uint32_t tid_mask;      /* ETW_TID_POSIX: all ones (the cache read inline), else 0 */
    uint32_t open;          /* running and the file not full (written with them, inside the
                               section): the locked record's one test of both */
    int clk_port64;         /* the session clock is the port's 64-bit counter (no callback) */
    uint64_t hw0;           /* 48 | hdr_bits: + a call site's Class word = the record's first 8 bytes */
    uint64_t pid_hi;        /* pid << 32: | thread id = the record's ThreadId/ProcessId word */
    uint64_t cpu_res;       /* THREAD_OWNED with cfg.cpu_times: timer_resolution in record
                               timestamp ticks (set at start; see cfg.cpu_times) */
    /* the record of call-site words for this session's path (set at start; evt_etw_commit_x_) */
    uint32_t (*rec_w)(struct evt_etw_session *, const struct evt_etw_trace_header *, uint64_t, uint64_t, uint64_t,
                      uint64_t);
} evt_etw_session;

/* A classic provider (RegisterTraceGuids). */
typedef struct evt_etw_provider {
    evt_etw_guid guid;              /* control GUID */
    evt_etw_session *session;       /* enabling session (logger handle); NULL = disabled */
    uint8_t level;                  /* enable level (GetTraceEnableLevel) */
    uint64_t match_any, match_all;  /* keyword masks; low 32 bits of match_any = enable flags */
    void (*control)(struct evt_etw_provider *p, uint32_t code, void *ctx); /* enable callback */
    void *control_ctx;
    evt_gate gate;                  /* ETW_GATE_ON | level while enabled by a running session */
    struct evt_etw_provider *next_enabled; /* the session's list of enabled providers */
} evt_etw_provider;
#define ETW_GATE_ON 0x100u          /* gate bit: enabled (the low 8 bits: the enable level) */

/* Counters of a session (what its log header records). */
typedef struct evt_etw_stats {
    uint64_t events, events_lost, buffers_written, buffers_lost, buffers_overwritten;
} evt_etw_stats;

/* StartTrace: validate cfg, take `buffers` buffers from mem (needs buffers * buffer_size bytes,
 * plus (max_file_buffers - 1) * 2 * sizeof(evt_rec_count) for a circular file: the per-position
 * event and loss counts that keep the loss count exact; mem aligned to sizeof(evt_rec_count)), write the
 * logfile-header buffer (buffer 0). Returns EVT_ETW_SUCCESS or ..._INVALID_PARAMETER
 * (bad config, too little memory) or ..._NOT_ENOUGH_MEMORY (the header could not be written), or
 * ..._ALREADY_EXISTS when s is running (started, not stopped: stop it first). s may be
 * uninitialised memory otherwise. */
uint32_t evt_etw_session_start(evt_etw_session *s, const evt_etw_session_config *cfg, void *mem, uint32_t mem_size);
/* ControlTrace(STOP): flush every non-empty buffer, rewrite buffer 0 with the final counts
 * (BuffersWritten, EventsLost, BuffersLost, EndTime); providers enabled by it are disabled.
 * ..._INVALID_HANDLE when the session is not running, also when a stop racing this one took the
 * session first (exactly one of concurrent stops succeeds). ..._NOT_ENOUGH_MEMORY, changing
 * nothing, when called nested in a record, flush or stop of this session on its own thread (a
 * signal handler, a callback) in the locked slot modes (THREAD_OWNED: ..._BUSY, above), or when the
 * rewrite of buffer 0 failed. A data buffer whose write failed is counted lost (BuffersLost, its
 * events in EventsLost or a loss record) without failing stop; the POSIX glue's
 * evt_etw_file_close reports it. On success it returns once no other thread is still inside a
 * TraceEvent, flush, detach or enable that reached this session, so the object may be started
 * again at once while other threads keep calling them (a stop made in a signal handler does not
 * wait for the call its own thread was making). */
uint32_t evt_etw_session_stop(evt_etw_session *s);
/* ControlTrace(FLUSH): write out every non-empty buffer now. ..._INVALID_HANDLE when the session is
 * not running, also when a racing stop took the session first (nothing is written after stop's
 * final header). */
uint32_t evt_etw_session_flush(evt_etw_session *s);
/* ControlTrace(QUERY): the counters (events = written, events_lost = dropped). */
void evt_etw_session_stats(const evt_etw_session *s, evt_etw_stats *out);
/* The common recorder stats (evtrace/recorder.h): written, dropped, overwritten (events of
 * buffers that left the file, incl. loss counts they carried), pending, loss records. */
void evt_etw_get_rec_stats(const evt_etw_session *s, evt_rec_stats *out);

/* THREAD_OWNED: write the calling thread's records to the file and give its slot back (for a thread
 * about to exit; another thread may claim the slot). EVT_ETW_SUCCESS (also when the thread had no
 * slot), ..._INVALID_HANDLE (session not running or another mode), ..._NOT_ENOUGH_MEMORY (called
 * nested in a record of the same slot, or the lock unavailable to a nested context). */
uint32_t evt_etw_thread_detach(evt_etw_session *s);

/* RegisterTraceGuids: a provider with its control GUID and optional enable callback. */
void evt_etw_register(evt_etw_provider *p, const evt_etw_guid *guid,
                      void (*control)(evt_etw_provider *, uint32_t, void *), void *ctx);
/* EnableTraceEx2: code ETW_CONTROL_ENABLE_PROVIDER / DISABLE_PROVIDER / CAPTURE_STATE, the level
 * and keyword masks; calls the provider's callback with the code, once the session is left (it
 * may stop a session). ..._INVALID_HANDLE (ENABLE) when s is not running; safe against a stop and
 * a start of s on other threads, as TraceEvent is. A call racing an enable that changes the
 * keyword masks is filtered by the old masks or the new ones. */
uint32_t evt_etw_enable(evt_etw_session *s, evt_etw_provider *p, uint32_t code, uint8_t level,
                        uint64_t match_any, uint64_t match_all);
/* GetTraceEnableLevel / GetTraceEnableFlags (low 32 bits of MatchAnyKeyword). */
uint8_t evt_etw_enable_level(const evt_etw_provider *p);
uint32_t evt_etw_enable_flags(const evt_etw_provider *p);
/* ETW's rule (§1.1): enabled, and level passes (level <= session level, or session level 0), and
 * keyword passes (keyword 0, or (keyword & any) != 0 and (keyword & all) == all). */
int evt_etw_event_enabled(const evt_etw_provider *p, uint8_t level, uint64_t keyword);
/* TraceEvent: write hdr (+ payload bytes, or payload = const evt_etw_mof_field[n] with
 * USE_MOF_PTR) as one record. Not filtered: the provider checks its level/flags itself.
 * Returns ..._NOT_ENOUGH_MEMORY when the event was dropped (counted: nested in a record of the
 * same session, no buffer, file full), ..._INVALID_PARAMETER (not issued) for an event of
 * evtrace's own loss class (EVTRACE_LOSS, etw_defs.h: read back it would be a loss record). May
 * be called from a signal handler or interrupt. */
uint32_t evt_etw_trace_event(evt_etw_provider *p, const evt_etw_trace_header *hdr, const void *payload);
/* evt_etw_event_enabled(p, hdr->level, keyword) then TraceEvent; a filtered call returns
 * EVT_ETW_SUCCESS without reading the clock. The macro below inlines the test; the function
 * (same name) remains for callers that take its address. */
uint32_t evt_etw_write(evt_etw_provider *p, uint64_t keyword, const evt_etw_trace_header *hdr, const void *payload);

/* ETW's rule, inline: one relaxed load of the gate (0 = disabled or session stopped), the level
 * from its low byte, the keyword masks only for a non-zero keyword. */
static inline int evt_etw_event_enabled_inline(const evt_etw_provider *p, uint8_t level, uint64_t keyword)
{
    uint32_t b = evt_gate_bits(&p->gate), lvl = b & 0xFFu;
    if (!b || (lvl && level > lvl)) return 0;
    if (keyword == 0) return 1;
    /* written by evt_etw_enable under its session's lock, read here without it (relaxed: a call
       racing an enable may see the old masks or the new ones) */
    uint64_t any = EVT_LOAD64_RLX(&p->match_any), all = EVT_LOAD64_RLX(&p->match_all);
    return (keyword & any) != 0 && (keyword & all) == all;
}
#ifndef EVT_ETW_CALLSITE_GATHER
#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && \
    UINTPTR_MAX > 0xFFFFFFFFu
#define EVT_ETW_CALLSITE_GATHER 1
#else
#define EVT_ETW_CALLSITE_GATHER 0
#endif
#endif
#define EVT_ETW_GATHER_MAX 24u
#if EVT_ETW_CALLSITE_GATHER
#define EVT_ETW_ALWAYS_INLINE_ __attribute__((always_inline)) /* the plan's constants must reach the call */
#else
#define EVT_ETW_ALWAYS_INLINE_
#endif
/* TraceEvent's parameter checks at the call site: a call they accept goes straight to
 * evt_etw_commit_ with its payload length; anything unusual (gate closed, NULL, GUID pointer, bad
 * sizes) takes the out-of-line evt_etw_trace_event, which returns the exact error. Same results as
 * the function. When the header's size and flags are compile-time constants (GCC/clang), the
 * checks run before the gate's atomic load, where the compiler still sees the caller's stores
 * and folds them away (an atomic load ends that knowledge); otherwise they run after the gate,
 * so a filtered call never pays for them. (A constant header whose MOF fields the compiler
 * cannot see costs a filtered call the loads of the fields' pointers and lengths.) */
uint32_t evt_etw_commit_(evt_etw_provider *p, const evt_etw_trace_header *hdr, const void *payload, uint32_t payload_len);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push /* the MOF branch reads payload as fields only when the flags say so; */
#pragma GCC diagnostic ignored "-Warray-bounds" /* GCC judges it for flat payloads too */
#endif
/* 1 with *len = payload bytes if hdr/payload need none of TraceEvent's error paths. */
static inline EVT_ETW_ALWAYS_INLINE_ int evt_etw_check_(const evt_etw_trace_header *hdr, const void *payload, uint32_t *len)
{
    uint32_t f = hdr->flags, extra = (uint32_t)hdr->size - ETW_TRACE_HEADER_SIZE;
    /* evtrace's loss class (data1 "evtr", data2 "lo": etw_defs.h EVTRACE_LOSS) goes out of line,
     * which refuses it */
    int ok = hdr->size >= ETW_TRACE_HEADER_SIZE &&
             (f & (ETW_WNODE_FLAG_TRACED_GUID | ETW_WNODE_FLAG_USE_GUID_PTR)) == ETW_WNODE_FLAG_TRACED_GUID &&
             !(hdr->guid.data1 == ETW_EVTRACE_LOSS_DATA1 && hdr->guid.data2 == ETW_EVTRACE_LOSS_DATA2);
    *len = extra;
    if (ok && (f & ETW_WNODE_FLAG_USE_MOF_PTR)) {
        if (!EVT_ETW_MOF) return 0; /* compiled out: the out-of-line call refuses it */
        const evt_etw_mof_field *m = (const evt_etw_mof_field *)payload;
        ok = payload && !(extra % ETW_MOF_FIELD_SIZE) && extra <= ETW_MAX_MOF_FIELDS * ETW_MOF_FIELD_SIZE;
        *len = 0;
        for (uint32_t i = 0; ok && i < extra / ETW_MOF_FIELD_SIZE; i++) {
            ok = m[i].data && m[i].length <= ETW_MAX_EVENT_SIZE; /* 16 such lengths cannot wrap */
            *len += m[i].length;
        }
    } else if (ok) {
        ok = !extra || payload;
    }
    return ok;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
static inline uint32_t evt_etw_checked_(evt_etw_provider *p, const evt_etw_trace_header *hdr, const void *payload)
{
    uint32_t len;
    return evt_etw_check_(hdr, payload, &len) ? evt_etw_commit_(p, hdr, payload, len) : (evt_etw_trace_event)(p, hdr, payload);
}
#if defined(__GNUC__) || defined(__clang__)
#define EVT_ETW_CONST_HDR_(hdr) (__builtin_constant_p((hdr)->flags) && __builtin_constant_p((hdr)->size))
#else
#define EVT_ETW_CONST_HDR_(hdr) 0
#endif
/* Call-site gather (EVT_ETW_CALLSITE_GATHER; default 1 with GCC/clang on 64-bit little-endian
 * hosts): in the constant-header path, when the payload is flat or up to 4 MOF fields whose
 * lengths the compiler sees (1, 2, 4 or 8 bytes each), and at most EVT_ETW_GATHER_MAX (24) bytes,
 * the call site loads the pieces and composes the record's payload words in registers (shifts and
 * ors of constants), zero-padded to the record's 8-byte alignment, and passes them by value
 * (evt_etw_commit_x_): the recorder stores whole words, no per-field loop, no loads of the
 * caller's bytes (no store-forwarding stall on values just stored). The plan (pointers, constant
 * lengths) is taken before the gate's atomic load, while the compiler still sees the caller's
 * stores; the loads run after it, so a filtered call pays for none. */
#define EVT_ETW_WORDS_ 0x80000000u /* (in the length passed inside the recorder: payload as words) */
/* A checked record (hdr's guid, payload_len <= EVT_ETW_GATHER_MAX) with its payload as 3
 * little-endian words, zero beyond payload_len, and the Class word composed at the call site
 * (where hdr's fields are usually constants): cls = payload_len | (uint64_t)type << 32 |
 * (uint64_t)level << 40 | (uint64_t)version << 48, the record's first 8 bytes but Size and the
 * session's HeaderType/MarkerFlags. Same results as TraceEvent. (Internal: called by the inline
 * path below only; it replaced evt_etw_commit_w_, which took the payload length alone.) */
uint32_t evt_etw_commit_x_(evt_etw_provider *p, const evt_etw_trace_header *hdr, uint64_t cls, uint64_t w0, uint64_t w1,
                           uint64_t w2);
typedef struct evt_etw_gather_plan_ {
    int on;               /* gather at the call site */
    uint32_t len;         /* payload bytes */
    const void *p[4];     /* pieces (flat: one) */
    uint32_t n[4];        /* their lengths (compile-time constants when on) */
    int cls_on;           /* cls holds hdr's Class word (evt_etw_commit_x_), a compile-time constant */
    uint64_t cls;
} evt_etw_gather_plan_;
#define EVT_ETW_CLS_(hdr) ((uint64_t)(hdr)->type << 32 | (uint64_t)(hdr)->level << 40 | (uint64_t)(hdr)->version << 48)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push /* as evt_etw_check_: the MOF fields are judged for flat payloads too */
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif
#define EVT_ETW_SCALAR_(n) ((n) == 1u || (n) == 2u || (n) == 4u || (n) == 8u)
#define EVT_ETW_CONST_SCALAR_(n) (__builtin_constant_p(n) && EVT_ETW_SCALAR_(n))
/* The plan of a checked record (ok) in the constant-header path; .on is a compile-time constant
 * (each field tested by name: a loop would be unrolled only after __builtin_constant_p is decided). */
static inline EVT_ETW_ALWAYS_INLINE_ evt_etw_gather_plan_ evt_etw_plan_(const evt_etw_trace_header *hdr, const void *payload, uint32_t len, int ok)
{
    evt_etw_gather_plan_ g = {0, len, {0, 0, 0, 0}, {0, 0, 0, 0}, 0, 0};
#if EVT_ETW_CALLSITE_GATHER
    const evt_etw_mof_field *m = (const evt_etw_mof_field *)payload;
    if (__builtin_constant_p(EVT_ETW_CLS_(hdr))) g.cls_on = 1, g.cls = EVT_ETW_CLS_(hdr); /* else read after the gate */
    uint32_t k = ((uint32_t)hdr->size - ETW_TRACE_HEADER_SIZE) / ETW_MOF_FIELD_SIZE;
    if (!ok || len > EVT_ETW_GATHER_MAX) return g;
    if (!(hdr->flags & ETW_WNODE_FLAG_USE_MOF_PTR)) { /* len = Size - 48: a constant here */
        if (len > 16u || (len & 7u)) {
            if (!EVT_ETW_SCALAR_(len) && len != 0u) return g;
        }
        g.on = 1; /* 0, 1, 2, 4, 8 or 16 bytes: one or two word loads */
        if (len == 16u) g.p[0] = payload, g.n[0] = 8u, g.p[1] = (const uint8_t *)payload + 8, g.n[1] = 8u;
        else if (len) g.p[0] = payload, g.n[0] = len;
        return g;
    }
    if (k > 4u || (k > 0u && !EVT_ETW_CONST_SCALAR_(m[0].length)) || (k > 1u && !EVT_ETW_CONST_SCALAR_(m[1].length)) ||
        (k > 2u && !EVT_ETW_CONST_SCALAR_(m[2].length)) || (k > 3u && !EVT_ETW_CONST_SCALAR_(m[3].length)))
        return g;
    if (k > 0u) g.p[0] = m[0].data, g.n[0] = m[0].length;
    if (k > 1u) g.p[1] = m[1].data, g.n[1] = m[1].length;
    if (k > 2u) g.p[2] = m[2].data, g.n[2] = m[2].length;
    if (k > 3u) g.p[3] = m[3].data, g.n[3] = m[3].length;
    g.on = 1;
#else
    (void)hdr;
    (void)payload;
    (void)ok;
#endif
    return g;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#if EVT_ETW_CALLSITE_GATHER
/* Piece i (n = 1, 2, 4 or 8 bytes, a constant) or'ed into the words at byte offset o (a constant). */
#define EVT_ETW_PIECE_(w, o, g, i)                                                                 \
    do {                                                                                           \
        uint64_t evt_v_ = 0;                                                                       \
        uint32_t evt_n_ = (g).n[i];                                                                \
        if (evt_n_ == 1u) { uint8_t evt_x_; __builtin_memcpy(&evt_x_, (g).p[i], 1); evt_v_ = evt_x_; }       \
        else if (evt_n_ == 2u) { uint16_t evt_x_; __builtin_memcpy(&evt_x_, (g).p[i], 2); evt_v_ = evt_x_; } \
        else if (evt_n_ == 4u) { uint32_t evt_x_; __builtin_memcpy(&evt_x_, (g).p[i], 4); evt_v_ = evt_x_; } \
        else if (evt_n_ == 8u) __builtin_memcpy(&evt_v_, (g).p[i], 8);                             \
        if (evt_n_) {                                                                              \
            uint32_t evt_b_ = 8u * ((o) & 7u);                                                     \
            w[(o) / 8u] |= evt_v_ << evt_b_;                                                       \
            if (evt_b_ && evt_b_ + 8u * evt_n_ > 64u) w[(o) / 8u + 1u] |= evt_v_ >> (64u - evt_b_); \
            (o) += evt_n_;                                                                         \
        }                                                                                          \
    } while (0)
#endif
/* commit_ of a checked record by its plan: the composed words, or the payload as it is. */
static inline EVT_ETW_ALWAYS_INLINE_ uint32_t evt_etw_commit_plan_(evt_etw_provider *p, const evt_etw_trace_header *hdr, const void *payload,
                                            evt_etw_gather_plan_ g)
{
#if EVT_ETW_CALLSITE_GATHER
    if (g.on) {
        uint64_t w[4] = {0, 0, 0, 0};
        uint32_t o = 0;
        EVT_ETW_PIECE_(w, o, g, 0);
        EVT_ETW_PIECE_(w, o, g, 1);
        EVT_ETW_PIECE_(w, o, g, 2);
        EVT_ETW_PIECE_(w, o, g, 3);
        return evt_etw_commit_x_(p, hdr, (uint64_t)g.len | (g.cls_on ? g.cls : EVT_ETW_CLS_(hdr)), w[0], w[1], w[2]);
    }
#endif
    return evt_etw_commit_(p, hdr, payload, g.len);
}
static inline EVT_ETW_ALWAYS_INLINE_ uint32_t evt_etw_trace_event_inline_(evt_etw_provider *p, const evt_etw_trace_header *hdr, const void *payload)
{
    if (p && hdr && EVT_ETW_CONST_HDR_(hdr)) {
        uint32_t len;
        int ok = evt_etw_check_(hdr, payload, &len);
        evt_etw_gather_plan_ g = evt_etw_plan_(hdr, payload, len, ok);
        if (ok && evt_gate_bits(&p->gate)) return evt_etw_commit_plan_(p, hdr, payload, g);
        return (evt_etw_trace_event)(p, hdr, payload);
    }
    if (!p || !hdr || !evt_gate_bits(&p->gate)) return (evt_etw_trace_event)(p, hdr, payload);
    return evt_etw_checked_(p, hdr, payload);
}
static inline EVT_ETW_ALWAYS_INLINE_ uint32_t evt_etw_write_gated_(evt_etw_provider *p, uint64_t keyword, const evt_etw_trace_header *hdr,
                                            const void *payload)
{
    if (!p || !hdr) return (evt_etw_trace_event)(p, hdr, payload); /* folded away for &provider, &header */
    if (EVT_ETW_CONST_HDR_(hdr)) {
        uint32_t len;
        int ok = evt_etw_check_(hdr, payload, &len);
        evt_etw_gather_plan_ g = evt_etw_plan_(hdr, payload, len, ok);
        if (!evt_etw_event_enabled_inline(p, hdr->level, keyword)) return EVT_ETW_SUCCESS;
        return ok ? evt_etw_commit_plan_(p, hdr, payload, g) : (evt_etw_trace_event)(p, hdr, payload);
    }
    if (!evt_etw_event_enabled_inline(p, hdr->level, keyword)) return EVT_ETW_SUCCESS;
    return evt_etw_checked_(p, hdr, payload);
}
#define evt_etw_write(p, keyword, hdr, payload) evt_etw_write_gated_((p), (keyword), (hdr), (payload))
#define evt_etw_trace_event(p, hdr, payload) evt_etw_trace_event_inline_((p), (hdr), (payload))

/* ---- POSIX glue (recorder library, POSIX port: src/ports/posix/etw_file.c) ------------------- */
struct evt_etw_file;
/* Open path for writing (truncated); fills cfg->write/write_user and, if NULL, the POSIX clock,
 * FILETIME, CPU-time, thread and process hooks. Returns NULL on failure (errno set). */
struct evt_etw_file *evt_etw_file_open(const char *path, evt_etw_session_config *cfg);
/* Close the file (after evt_etw_session_stop); returns 0, or -1 if a write or close failed. */
int evt_etw_file_close(struct evt_etw_file *f);
/* POSIX hooks: the calling thread's kernel/user CPU time (getrusage RUSAGE_THREAD, else
 * CLOCK_THREAD_CPUTIME_ID as user time: a system call, which THREAD_OWNED sessions make once per
 * thread per timer_resolution, see cfg.cpu_times), wall clock as FILETIME, kernel thread id,
 * process id. */
void evt_etw_posix_cpu_times(uint64_t *kernel_100ns, uint64_t *user_100ns);
uint64_t evt_etw_posix_filetime(void);
uint32_t evt_etw_posix_thread_id(void);
uint32_t evt_etw_posix_process_id(void);
/* evt_etw_session_config.sync_writers for POSIX: membarrier(PRIVATE_EXPEDITED) (registered on first
 * use), else membarrier(GLOBAL), else a sequentially consistent fence (then stop relies on the
 * recording threads' stores draining while it waits). */
void evt_etw_posix_sync_writers(void);

#endif
