/* Internal interface of the CTF exporter (ctf.c writes the streams, ctf_class.c keeps the event
 * classes, ctf_meta.c writes the TSDL metadata, ctf_uuid.c names the trace).
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
 * the stream's last value, a byte 31 ("extended") followed by uint32 id and uint64 clock value. */
#ifndef EVT_EXPORTERS_CTF_H
#define EVT_EXPORTERS_CTF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "evtrace/reader.h"
#include "host/analysis/strtab.h"

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
    const char *ident;  /* TSDL identifier without the leading '_' (a class's: owned by the class) */
    uint8_t type;       /* ctf_ftype */
    uint8_t wlog;       /* integers: width 8 << wlog bits; strings: see CTF_WLOG_STRING */
    uint8_t role;       /* ctf_role; args[j] is field `argJ` */
    int8_t alias;       /* CTF_ROLE_ARG: index of the value field it equals, not written; -1: written */
} ctf_field;

/* The value of one field: integers in u (two's complement for SINT); STRING p/len (len bytes
 * before the first NUL) and u its label index when it has one; BYTES p/len. */
typedef struct ctf_value {
    uint64_t u;
    const void *p;
    size_t len;
} ctf_value;

#define CTF_MAX_FIELDS (6 + EVT_MAX_ARGS + EVT_MAX_FIELDS) /* ctx prio seq count target args fields data */

/* An event class: what the metadata declares and the writer follows. */
typedef struct ctf_class {
    char *name;         /* event name */
    char *emf;          /* model.emf.uri, or NULL */
    uint32_t nf;
    ctf_field f[CTF_MAX_FIELDS];
} ctf_class;

/* Built-in event classes (not from the reader's events): X(enum, name, fields) where fields is a
 * list of F(ident, type, wlog); STRING fields take wlog CTF_WLOG_STRING. A class gets its id the
 * first time it is emitted; adding one (a sched_switch from a timeline, say) is one line here and
 * a call to ctf.c's builtin_() with the values in field order. */
#define CTF_BUILTIN_TABLE(X, F)                                                                     \
    X(CTF_B_CTX_NAME, "evtrace_ctx_name",                                                           \
      F(ctx, CTF_FT_UINT, 2) F(ctx_id, CTF_FT_UINT, 3) F(ctx_class, CTF_FT_UINT, 0) F(name, CTF_FT_STRING, 3)) \
    X(CTF_B_OBJ_NAME, "evtrace_obj_name", F(target, CTF_FT_UINT, 3) F(name, CTF_FT_STRING, 3))

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
} ctf_classes;

/* Class id for an event of this layout (name, emf and proto: its fields with the widths its
 * values v need, alias -1). A new layout's args become aliases where the first event's values
 * allow; a later value that breaks an alias or needs a wider integer makes a new class of the
 * layout. Returns -1 when out of memory. */
int64_t ctf_class_for(ctf_classes *c, const char *name, const char *emf, const ctf_field *proto, const ctf_value *v,
                      uint32_t nf);
/* Class id of a built-in class (created on first use); -1 when out of memory. */
int64_t ctf_class_builtin(ctf_classes *c, ctf_builtin b);
void ctf_classes_free(ctf_classes *c);
/* Smallest wlog holding v as unsigned / as signed (two's complement in u). */
uint8_t ctf_wlog_u(uint64_t v);
uint8_t ctf_wlog_s(uint64_t v);

/* Write the TSDL metadata: the trace (uuid), env, clock, the label enumerations (labels: label
 * index + 1 = strtab id), stream and every class. hz 0: ticks. */
int ctf_write_metadata(FILE *f, const ctf_classes *c, const evt_strtab *labels, const evt_reader *r, uint64_t hz,
                       const uint8_t uuid[16], const char *trace_name);

/* The trace UUID: a hash of the input's bytes and format name for a file or memory source (reruns
 * give the same UUID), random for a sequential stream (which cannot be read twice). Returns 0
 * when no randomness is available for a stream. */
int ctf_trace_uuid(evt_reader *r, uint8_t uuid[16]);
/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" into out (37 bytes). */
void ctf_uuid_str(const uint8_t uuid[16], char out[37]);

#endif
