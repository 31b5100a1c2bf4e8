/* LLVM XRay trace files (FDR v1-v5, basic v1-v3) and instrumentation maps: the one source of truth
 * for record kinds, layouts and field offsets, shared by the recorder (xray_enc.c) and the reader
 * (xray_dec.c). Facts: shared/formats/xray.md (clang/compiler-rt/llvm-xray 14). Freestanding.
 * All multi-byte fields are little-endian (the producing x86-64/aarch64 machine's order).
 *
 * File header (32 bytes, FDR and basic)
 *   0 u16 version (FDR 1..5, clang 14 writes 5; basic 1..3, clang 14 writes 3)
 *   2 u16 type (0 basic/"naive", 1 FDR)
 *   4 u32 bits: bit0 constant_tsc, bit1 nonstop_tsc
 *   8 u64 cycle_frequency (Hz of the TSC values)
 *  16 u64 FDR: per-thread buffer size in bytes (v1: size of every block); basic: 0
 *  24 u64 reserved (0)
 *  evtrace's recorder: 16 u32 buffer size, 20 u32 "evtr", 24 u32 buffers lost, 28 u32 records dropped
 *
 * FDR block (v2..v5)                       FDR block (v1: buffer_size bytes, no extents)
 *   BufferExtents(n) | n bytes:              NewBuffer WalltimeMarker NewCPUId Item*
 *   NewBuffer WalltimeMarker [Pid]           EndOfBuffer  garbage up to buffer_size
 *   NewCPUId Item*
 *
 * Function record (8 bytes)                Metadata record (16 bytes)
 *   0 u32 w: bit0 = 0                        0 u8: bit0 = 1, bits1-7 = kind
 *          bits1-3 kind (XRAY_FN_TABLE)      1..15 payload (offsets below), padding ignored
 *          bits4-31 function id (28 bits)      (custom/typed events: `size` payload bytes follow)
 *   4 u32 TSC delta since the thread's previous TSC-carrying record
 *
 * Basic record (32 bytes)
 *   function:     0 u16 record_type 0 | 2 u8 cpu | 3 u8 type (XRAY_FN_TABLE) | 4 i32 func_id
 *                 8 u64 tsc (absolute) | 16 u32 tid | 20 u32 pid (v3) | 24 pad
 *   arg payload:  0 u16 record_type 1 | 2 pad | 4 i32 func_id | 8 u32 tid | 12 u32 pid (v3)
 *                16 u64 arg | 24 pad
 *
 * ELF xray_instr_map entry (32 bytes, 64-bit targets)
 *   0 u64 sled address | 8 u64 function address | 16 u8 kind | 17 u8 always_instrument
 *  18 u8 version (2: both addresses PC-relative: sled to entry+0, function to entry+8) | 19 pad
 */
#ifndef EVT_XRAY_DEFS_H
#define EVT_XRAY_DEFS_H

#include <stdint.h>

/* ---- file header ------------------------------------------------------------------------------ */
#define XRAY_HDR_SIZE           32u
#define XRAY_HDR_VERSION        0u
#define XRAY_HDR_TYPE           2u
#define XRAY_HDR_BITS           4u
#define XRAY_HDR_FREQ           8u
#define XRAY_HDR_BUFSIZE        16u
#define XRAY_HDR_RESERVED       24u
/* evtrace's recorder marks its files in the free-form bytes (llvm-xray ignores them): 16 u32 buffer
 * size, 20 u32 XRAY_HDR_EVT_MAGIC, 24 u32 whole buffers lost (overwritten by newer ones), 28 u32
 * records dropped (no buffer free). */
#define XRAY_HDR_EVT_MAGIC_OFF  20u
#define XRAY_HDR_EVT_LOST_OFF   24u
#define XRAY_HDR_EVT_DROP_OFF   28u
#define XRAY_HDR_EVT_MAGIC      0x72747665u  /* "evtr" little-endian */
/* evtrace's loss record: a custom event (accepted by llvm-xray) whose 16-byte payload is the tag
 * "evtrLOSS" then a u64le count of records lost before it (dropped or overwritten). */
#define XRAY_EVT_LOSS_TAG       "evtrLOSS"
#define XRAY_EVT_LOSS_TAG_SIZE  8u
#define XRAY_EVT_LOSS_COUNT     8u   /* payload offset of the u64le count */
#define XRAY_EVT_LOSS_SIZE      16u  /* payload bytes */
#define XRAY_BIT_CONSTANT_TSC   0x1u
#define XRAY_BIT_NONSTOP_TSC    0x2u

/* File types. X(value, NAME, json name) */
#define XRAY_TYPE_TABLE(X)   \
    X(0, BASIC, "basic")     \
    X(1, FDR,   "fdr")

enum xray_file_type {
#define XRAY_TYPE_ENUM_(v, n, s) XRAY_TYPE_##n = v,
    XRAY_TYPE_TABLE(XRAY_TYPE_ENUM_)
#undef XRAY_TYPE_ENUM_
};

#define XRAY_FDR_VERSION_MIN    1u
#define XRAY_FDR_VERSION_MAX    5u
#define XRAY_FDR_VERSION        5u   /* what the recorder writes (= clang 14) */
#define XRAY_BASIC_VERSION_MIN  1u
#define XRAY_BASIC_VERSION_MAX  3u

/* ---- FDR records ------------------------------------------------------------------------------ */
#define XRAY_FN_REC_SIZE        8u
#define XRAY_MD_REC_SIZE        16u
#define XRAY_MD_BIT             0x01u  /* byte 0 bit 0: metadata record */
#define XRAY_FN_ID_BITS         28u
#define XRAY_FN_ID_MAX          ((1u << XRAY_FN_ID_BITS) - 1u)

/* Function record kinds (bits 1-3 of w; also the basic record's `type` byte and compiler-rt's
 * XRayEntryType 0-3). X(kind, NAME, info --json key, dump name) */
#define XRAY_FN_TABLE(X)                                              \
    X(0, ENTER,     "FunctionEnter",    "enter")                      \
    X(1, EXIT,      "FunctionExit",     "exit")                       \
    X(2, TAIL_EXIT, "FunctionTailExit", "tail_exit")                  \
    X(3, ENTER_ARG, "FunctionEnterArg", "enter_args")

enum xray_fn_kind {
#define XRAY_FN_ENUM_(k, n, key, dn) XRAY_FN_##n = k,
    XRAY_FN_TABLE(XRAY_FN_ENUM_)
#undef XRAY_FN_ENUM_
    XRAY_FN_COUNT_
};

/* Metadata record kinds (byte 0 >> 1). X(kind, NAME, info --json key, min FDR version, max FDR
 * version). EndOfBuffer exists only in v1; Pid from v3; payloads per version noted below. */
#define XRAY_MD_TABLE(X)                                              \
    X(0, NEW_BUFFER,     "NewBuffer",         1, 5)                   \
    X(1, END_OF_BUFFER,  "EndOfBuffer",       1, 1)                   \
    X(2, NEW_CPU_ID,     "NewCPUId",          1, 5)                   \
    X(3, TSC_WRAP,       "TSCWrap",           1, 5)                   \
    X(4, WALLTIME,       "WalltimeMarker",    1, 5)                   \
    X(5, CUSTOM_EVENT,   "CustomEventMarker", 1, 5)                   \
    X(6, CALL_ARGUMENT,  "CallArgument",      1, 5)                   \
    X(7, BUFFER_EXTENTS, "BufferExtents",     2, 5)                   \
    X(8, TYPED_EVENT,    "TypedEventMarker",  1, 5)                   \
    X(9, PID,            "Pid",               1, 5)

enum xray_md_kind {
#define XRAY_MD_ENUM_(k, n, key, lo, hi) XRAY_MD_##n = k,
    XRAY_MD_TABLE(XRAY_MD_ENUM_)
#undef XRAY_MD_ENUM_
    XRAY_MD_COUNT_
};

/* Metadata payload offsets (from byte 0 of the record). */
#define XRAY_MD_NEWBUF_TID      1u  /* i32 thread id */
#define XRAY_MD_NEWCPU_CPU      1u  /* u16 cpu */
#define XRAY_MD_NEWCPU_TSC      3u  /* u64 absolute TSC: re-bases the thread's running TSC */
#define XRAY_MD_TSCWRAP_TSC     1u  /* u64 absolute TSC: re-bases */
#define XRAY_MD_WALL_SEC        1u  /* i64 seconds (CLOCK_MONOTONIC in clang 14) */
#define XRAY_MD_WALL_USEC       9u  /* i32 microseconds */
#define XRAY_MD_CUSTOM_SIZE     1u  /* i32 payload size (> 0) */
#define XRAY_MD_CUSTOM_TSC      5u  /* v1-v4: u64 absolute TSC */
#define XRAY_MD_CUSTOM_CPU      13u /* v4: u16 cpu */
#define XRAY_MD_CUSTOM_DELTA    5u  /* v5: i32 TSC delta */
#define XRAY_MD_CALLARG_VALUE   1u  /* u64 argument */
#define XRAY_MD_EXTENTS_SIZE    1u  /* u64 bytes of the block after this record */
#define XRAY_MD_TYPED_SIZE      1u  /* i32 payload size (> 0) */
#define XRAY_MD_TYPED_DELTA     5u  /* i32 TSC delta */
#define XRAY_MD_TYPED_TYPE      9u  /* u16 event type */
#define XRAY_MD_PID_PID         1u  /* i32 process id */

/* First byte of a metadata record of kind k. */
#define XRAY_MD_BYTE0(k)        ((uint8_t)(((unsigned)(k) << 1) | XRAY_MD_BIT))
/* Function record word w from kind and id. */
#define XRAY_FN_WORD(kind, id)  ((((uint32_t)(id) & XRAY_FN_ID_MAX) << 4) | ((uint32_t)(kind) << 1))

/* Runtime rule: a TSCWrap is written when a delta would exceed INT32_MAX (not UINT32_MAX). */
#define XRAY_MAX_DELTA          0x7FFFFFFFu

/* ---- basic ("naive") records ------------------------------------------------------------------ */
#define XRAY_BASIC_REC_SIZE     32u
/* Basic record types. X(value, NAME, info --json key) */
#define XRAY_BASIC_TABLE(X)                         \
    X(0, FUNCTION,    NULL)                         \
    X(1, ARG_PAYLOAD, "ArgPayload")

enum xray_basic_type {
#define XRAY_BASIC_ENUM_(v, n, key) XRAY_BASIC_##n = v,
    XRAY_BASIC_TABLE(XRAY_BASIC_ENUM_)
#undef XRAY_BASIC_ENUM_
};

#define XRAY_BASIC_RECTYPE      0u  /* u16 */
#define XRAY_BASIC_FN_CPU       2u  /* u8 */
#define XRAY_BASIC_FN_TYPE      3u  /* u8 XRAY_FN_* */
#define XRAY_BASIC_FN_FUNC      4u  /* i32 */
#define XRAY_BASIC_FN_TSC       8u  /* u64 */
#define XRAY_BASIC_FN_TID       16u /* u32 */
#define XRAY_BASIC_FN_PID       20u /* u32 (v3) */
#define XRAY_BASIC_ARG_FUNC     4u  /* i32 */
#define XRAY_BASIC_ARG_TID      8u  /* u32 */
#define XRAY_BASIC_ARG_PID      12u /* u32 (v3) */
#define XRAY_BASIC_ARG_VALUE    16u /* u64 */

/* ---- instrumentation map (ELF section xray_instr_map) ----------------------------------------- */
#define XRAY_MAP_ENTRY_SIZE     32u
#define XRAY_MAP_SLED           0u
#define XRAY_MAP_FUNCTION       8u
#define XRAY_MAP_KIND           16u
#define XRAY_MAP_ALWAYS         17u
#define XRAY_MAP_VERSION        18u
#define XRAY_MAP_SECTION        "xray_instr_map"

/* Sled kinds (= compiler-rt XRayEntryType). X(value, NAME, llvm-xray YAML name) */
#define XRAY_SLED_TABLE(X)                          \
    X(0, ENTRY,          "function-enter")          \
    X(1, EXIT,           "function-exit")           \
    X(2, TAIL,           "tail-exit")               \
    X(3, LOG_ARGS_ENTRY, "log-args-enter")          \
    X(4, CUSTOM_EVENT,   "custom-event")            \
    X(5, TYPED_EVENT,    "typed-event")

enum xray_sled_kind {
#define XRAY_SLED_ENUM_(v, n, s) XRAY_SLED_##n = v,
    XRAY_SLED_TABLE(XRAY_SLED_ENUM_)
#undef XRAY_SLED_ENUM_
};

/* evtrace's map for -finstrument-functions traces is llvm-xray's YAML form (one line per function:
 * "- { id: N, address: 0x.., function: 0x.., kind: function-enter, always-instrument: false,
 * function-name: NAME }"), so one parser reads both. */

#endif
