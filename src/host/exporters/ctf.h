/* Internal interface of the CTF exporter (ctf.c writes the streams, ctf_class.c keeps the event
 * classes, ctf_meta.c writes the TSDL metadata, ctf_uuid.c names the trace, ctf_sched.c turns the
 * timeline's switches, wake-ups and ISRs into LTTng's scheduling events).
 *
 * Stream layout (little-endian, byte-aligned except the 32-bit compact event header), as LTTng
 * lays out its per-CPU ring buffers:
 *
 *   packet header   off  0  uint32 magic 0xC1FC1FC1
 *                       4  uint8  uuid[16]           the trace UUID (metadata trace.uuid)
 *                      20  uint32 stream_id          always 0 (one stream class)
 *                      24  uint64 stream_instance_id the CPU number
 *   packet context     32  uint64 timestamp_begin    clock value of the first event
 *                      40  uint64 timestamp_end      clock value of the last event
 *                      48  uint64 content_size       bits (== packet_size: no padding)
 *                      56  uint64 packet_size        bits
 *                      64  uint64 packet_seq_num     0, 1, 2... per stream
 *                      72  uint64 events_discarded   cumulative lost count of this CPU
 *                      80  uint32 cpu_id
 *   events             84  header + payload, back to back
 *
 * Event header: a 32-bit word, bits 0-4 the class id (0..30) and bits 5-31 the low 27 bits of
 * the clock value ("compact"); or, when the id is >= 31 or the clock moved by 2^27 or more since
 * the stream's last value, a byte 31 ("extended") followed by uint32 id and uint64 clock value.
 *
 * Besides the reader's events, a stream holds built-in events (CTF_BUILTIN_TABLE): the name
 * events and the scheduling records of the one timeline (ctf_sched.c). */
#ifndef EVT_EXPORTERS_CTF_H
#define EVT_EXPORTERS_CTF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "evtrace/reader.h"
#include "host/strtab.h"
#include "host/timeline/timeline.h"

#define CTF_MAGIC 0xC1FC1FC1u
#define CTF_HDR_SIZE 84             /* packet header + packet context, bytes */
#define CTF_COMPACT_MAX_ID 30       /* ids 0..30 fit the 5-bit compact header */
#define CTF_COMPACT_TS_BITS 27
#define CTF_EXTENDED_SIZE 13        /* extended header bytes: tag, uint32 id, uint64 clock */

/* Short strings of the reader's fields (state names, object names, GUIDs) are written as an
 * index into one table of labels, declared in the metadata as CTF enumerations (babeltrace2
 * prints the label): at most CTF_LABEL_MAX labels of 1..CTF_LABEL_LEN bytes without quote,
 * backslash or control bytes; other strings are written whole. */
#define CTF_LABEL_MAX 4096
#define CTF_LABEL_LEN 64
#define CTF_WLOG_STRING 3           /* a STRING field's wlog: 0/1 = label index over uint8/uint16, 3 = the bytes */

/* Field types of an event class. Integers are 8 << wlog bits wide (wlog 0..3). */
typedef enum ctf_ftype {
    CTF_FT_UINT,
    CTF_FT_SINT,
    CTF_FT_STRING,  /* wlog 0/1: label index (enum evtrace_label8_t/16_t); 3: NUL-terminated UTF-8 */
    CTF_FT_BYTES    /* uint32 <ident>_len, then uint8 <ident>[<ident>_len] */
} ctf_ftype;

/* What a field holds: a value (prio, seq, count, target, a reader field), one of the event's raw
 * args, or an index that is no value of the trace (ctx). An arg whose value equals a value
 * field's (the reader decoded it) is an alias of that field: not written, and the metadata's
 * model.emf.uri says `args=target,arg1,...` so the raw words can be rebuilt. */
typedef enum ctf_role { CTF_ROLE_VALUE, CTF_ROLE_ARG, CTF_ROLE_INDEX } ctf_role;

typedef struct ctf_field {
    const char *ident;  /* TSDL identifier without the leading '_' (a class's: owned by the class);
                         * in the proto of ctf_class_for, a non-literal field's raw key instead */
    uint8_t type;       /* ctf_ftype */
    uint8_t wlog;       /* integers: width 8 << wlog bits; strings: see CTF_WLOG_STRING */
    uint8_t role;       /* ctf_role; args[j] is field `argJ` */
    int8_t alias;       /* CTF_ROLE_ARG: index of the value field it equals, not written; -1: written */
    uint8_t lit;        /* ident is a string literal (static, never changes): a class keeps the
                         * pointer, and the same pointer means the same identifier */
} ctf_field;

/* An event's values are two arrays in field order (the integers in a row, for the writer's
 * loops): u[i] an integer (two's complement for SINT) or a STRING's label index when it has one;
 * b[i] (ctf_bytes) a STRING's or BYTES' bytes (a string's len: the bytes before its first NUL). */
typedef struct ctf_bytes {
    const void *p;
    size_t len;
} ctf_bytes;

#define CTF_MAX_FIELDS (6 + EVT_MAX_ARGS + EVT_MAX_FIELDS) /* ctx prio seq count target args fields data */
#define CTF_IDENT_MAX 96 /* a reader field's identifier (longer keys are cut, then made unique) */

/* An event class: what the metadata declares and the writer follows. */
typedef struct ctf_class {
    char *name;         /* event name */
    char *emf;          /* model.emf.uri, or NULL */
    uint32_t fixed;     /* payload bytes of its fields of fixed size (integers, label indexes) */
    uint32_t nvar;      /* fields written at their value's length (whole strings, bytes) */
    uint32_t nf;
    ctf_field f[CTF_MAX_FIELDS];
    /* The write plan: the fields written (not aliases), in order: field i, its byte width w
     * (integers and label indexes; 0 for whole strings and bytes, written at their value's
     * length) and the values it holds, as ctf_class_for decides (ctf.c writes an event of a
     * known layout without asking it): those u with (u + add) & out == 0, i.e. u + add below
     * 2^bits (add 2^(bits-1) for a signed field; a string's u is its label index, CTF_WHOLE when
     * written whole; out 0: any value). */
    uint32_t nw;
    struct ctf_put { uint64_t add, out; uint8_t i, w; } put[CTF_MAX_FIELDS];
    uint32_t nal;
    struct ctf_alias { uint8_t i, a; } al[CTF_MAX_FIELDS]; /* the aliases: field i equals field a */
    const char *key[CTF_MAX_FIELDS]; /* raw key of a non-literal field (owned), NULL for a literal */
} ctf_class;

#define CTF_WHOLE UINT64_MAX /* the u of a reader's string field written whole (no label) */

/* Built-in event classes (not from the reader's events): X(enum, name, fields) where fields is a
 * list of F(ident, type, wlog); STRING fields take wlog CTF_WLOG_STRING. A class gets its id the
 * first time it is emitted; adding one is one line here and a call to ctf.c's builtin_() (or,
 * from another file, ctf_put_builtin()) with the values in field order. Integer widths are fixed
 * here (the timeline's records use LTTng's: int32, prev_state int64). */
#define CTF_BUILTIN_TABLE(X, F)                                                                     \
    X(CTF_B_CTX_NAME, "evtrace_ctx_name",                                                           \
      F(ctx, CTF_FT_UINT, 2) F(ctx_id, CTF_FT_UINT, 3) F(ctx_class, CTF_FT_UINT, 0) F(name, CTF_FT_STRING, 3)) \
    X(CTF_B_OBJ_NAME, "evtrace_obj_name", F(target, CTF_FT_UINT, 3) F(name, CTF_FT_STRING, 3))       \
    /* the timeline's records (ctf_sched.c) with LTTng's kernel event names and fields */          \
    X(CTF_B_SCHED_SWITCH, "sched_switch",                                                           \
      F(prev_comm, CTF_FT_STRING, 3) F(prev_tid, CTF_FT_SINT, 2) F(prev_prio, CTF_FT_SINT, 2)        \
      F(prev_state, CTF_FT_SINT, 3) F(next_comm, CTF_FT_STRING, 3) F(next_tid, CTF_FT_SINT, 2)       \
      F(next_prio, CTF_FT_SINT, 2))                                                                 \
    X(CTF_B_SCHED_WAKING, "sched_waking",                                                           \
      F(comm, CTF_FT_STRING, 3) F(tid, CTF_FT_SINT, 2) F(prio, CTF_FT_SINT, 2) F(target_cpu, CTF_FT_SINT, 2)) \
    X(CTF_B_IRQ_ENTRY, "irq_handler_entry", F(irq, CTF_FT_SINT, 2) F(name, CTF_FT_STRING, 3))        \
    X(CTF_B_IRQ_EXIT, "irq_handler_exit", F(irq, CTF_FT_SINT, 2) F(ret, CTF_FT_SINT, 2))

typedef enum ctf_builtin {
#define CTF_B_ENUM_(e, n, fields) e,
#define CTF_F_NONE_(i, t, w)
    CTF_BUILTIN_TABLE(CTF_B_ENUM_, CTF_F_NONE_)
#undef CTF_B_ENUM_
#undef CTF_F_NONE_
    CTF_B_COUNT_
} ctf_builtin;

/* The event classes seen so far. Reader events are grouped by layout (name, kind, format id and
 * the list of fields with their types); a layout's class has integer widths sized to the values
 * seen, and a value that does not fit makes a new class of that layout with the widths grown
 * (at most 3 times per field: 8 -> 16 -> 32 -> 64 bits; a string: label8 -> label16 -> bytes;
 * an alias -> written), so the number of classes grows with the number of layouts only. */
typedef struct ctf_classes {
    ctf_class **cls;    /* cls[id] */
    uint32_t n, cap;
    evt_strtab layouts; /* layout signature -> layout id (1..) */
    uint32_t *cur;      /* cur[layout id - 1] = its newest class id */
    uint32_t curcap;
    uint32_t builtin[CTF_B_COUNT_]; /* class id + 1, 0 until first used */
    char *sig;          /* scratch: layout signature */
    size_t sigcap;
    /* layout of a recent hint (ctf_class_for), checked against that layout's class before use */
    struct { uint64_t hint; uint32_t lid; } recent[256];
    char ident[CTF_MAX_FIELDS][CTF_IDENT_MAX]; /* scratch: identifiers of a new layout's fields */
} ctf_classes;

/* Class id for an event of this layout (name, emf and proto: its fields with the widths its
 * values v need, alias -1; a non-literal field's ident is its raw key, made a TSDL identifier
 * here: [A-Za-z0-9_] kept, others '_', cut to fit, then unique among the fields before it,
 * suffix _2, _3...; a bytes field also claims <ident>_len). A new layout's args become aliases where the first event's values
 * allow; a later value that breaks an alias or needs a wider integer makes a new class of the
 * layout. hint: a key that usually picks the same layout (the event's kind and id), and that
 * decides emf (the caller passes the same emf text with the same hint: ctf.c formats it from
 * the hint); the layout it last picked is compared field by field first (raw keys against its
 * class's raw keys: equal keys make equal identifiers; no signature built, nothing hashed; emf
 * not compared), any hint gives the same result. *layout: the class's layout id (1..), which
 * ctf_classes.cur maps to the layout's newest class. Returns -1 when out of memory. */
int64_t ctf_class_for(ctf_classes *c, uint64_t hint, const char *name, const char *emf, const ctf_field *proto,
                      const uint64_t *v, uint32_t nf, uint32_t *layout);
/* Class id of a built-in class (created on first use); -1 when out of memory. */
int64_t ctf_class_builtin(ctf_classes *c, ctf_builtin b);
void ctf_classes_free(ctf_classes *c);
/* Smallest wlog holding v as unsigned / as signed (two's complement in u). */
static inline uint8_t ctf_wlog_u(uint64_t v)
{
    return v <= 0xFFu ? 0 : v <= 0xFFFFu ? 1 : v <= 0xFFFFFFFFu ? 2 : 3;
}
static inline uint8_t ctf_wlog_s(uint64_t u)
{
    int64_t v = (int64_t)u;
    return (v >= -128 && v <= 127) ? 0 : (v >= -32768 && v <= 32767) ? 1
         : (v >= -2147483647 - 1 && v <= 2147483647) ? 2 : 3;
}

/* Write the TSDL metadata: the trace (uuid), env, clock, the label enumerations (labels: label
 * index + 1 = strtab id), stream and every class. hz 0: ticks. clamped: env.sched_clamped, the
 * timeline records written at a later time than their own (ctf_sched.c). time_clamped:
 * env.time_clamped, clock values past INT64_MAX - 1 written as that (ctf.c,
 * CTF_CLOCK_MAX: the largest babeltrace2 reads). */
int ctf_write_metadata(FILE *f, const ctf_classes *c, const evt_strtab *labels, const evt_reader *r, uint64_t hz,
                       const uint8_t uuid[16], const char *trace_name, uint64_t clamped,
                       uint64_t time_clamped);

/* ---- the timeline's records (ctf_sched.c) ------------------------------------------------- */
/* The writer of ctf.c (its state is private there). */
typedef struct ctf_state ctf_state;
/* Append a built-in event with values u, b in its fields' order to CPU cpu's stream at clock
 * value t (ctf.c). *clamped is set to 1 when t is before the stream's last clock value (then
 * written at that value: a stream never goes back in time), else 0. */
evt_status ctf_put_builtin(ctf_state *s, uint32_t cpu, uint64_t t, ctf_builtin bi, const uint64_t *u, const ctf_bytes *b,
                           int *clamped);

/* Scheduling records from the one timeline (src/host/timeline/timeline.h), as LTTng's kernel
 * tracer writes them: sched_switch, sched_waking, irq_handler_entry and irq_handler_exit, in the
 * stream of the CPU they happen on, at the time of the callback's instant (switch at sw->t,
 * waking at w->t, irq entry at the ISR's t0, exit at its t1). Every record is made while the
 * event that caused it is fed, so it is written before that event, at a time the timeline has
 * already clamped to its CPU's latest time: only a record on another CPU than the event's (a
 * thread stopped or migrated from there) can find that stream later; it is then written at the
 * stream's time and counted in `clamped`. */
typedef struct ctf_sched {
    evt_tl tl;
    ctf_state *out;
    uint32_t cpu;            /* stream of the timeline's last slot (CPUs >= 63): the first such
                              * CPU seen, 0 until then */
    evt_status st;           /* first error of a record (the sink cannot return one) */
    uint64_t records;        /* records written */
    uint64_t clamped;        /* records written later than their own time */
} ctf_sched;

/* Start feeding records to out; hz as the timeline's (0: ticks). Returns 0 when out of memory. */
int ctf_sched_init(ctf_sched *k, ctf_state *out, uint64_t hz);
/* Feed one event (before the event itself is written): writes the records it causes. Inline:
 * every event comes here. */
static inline evt_status ctf_sched_add(ctf_sched *k, const evt_event *ev)
{
    if (!k->cpu && (ev->flags & EVT_HAS_CPU) && ev->cpu >= EVT_TL_MAX_CPUS - 1) k->cpu = ev->cpu;
    (void)evt_tl_add(&k->tl, ev);
    if (k->tl.oom && k->st == EVT_OK) k->st = EVT_ERR_NOMEM;
    return k->st;
}
void ctf_sched_free(ctf_sched *k);

/* The trace UUID: a hash of the input's bytes and format name for a file or memory source (reruns
 * give the same UUID), random for a sequential stream (which cannot be read twice). Returns 0
 * when no randomness is available for a stream. */
int ctf_trace_uuid(evt_reader *r, uint8_t uuid[16]);
/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" into out (37 bytes). */
void ctf_uuid_str(const uint8_t uuid[16], char out[37]);

#endif
