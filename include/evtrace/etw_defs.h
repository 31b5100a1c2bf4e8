/* ETW classic events and the .etl file: the one source of truth for byte layouts, header types,
 * flags and constants, shared by the recorder/writer (etw_enc.c) and the reader (etw_dec.c).
 * Facts: shared/formats/etw.md (sections cited as §n). Freestanding: no libc. All little-endian.
 *
 * .etl file = buffers back to back, no file header (§5.1):
 *   [buffer 0: WMI_BUFFER_HEADER(72) | SYSTEM record: TRACE_LOGFILE_HEADER + 2 UTF-16 names | ...]
 *   [buffer 1: WMI_BUFFER_HEADER(72) | record | record | ... | 0xFF fill ]   (next at +BufferSize)
 *
 * WMI_BUFFER_HEADER (72 = 0x48 bytes, x86 and x64, §3)
 *  0x00 u32 BufferSize (stride in the file)   0x04 u32 SavedOffset (unreliable)
 *  0x08 u32 CurrentOffset (ignore)            0x0C u32 ReferenceCount (ignore)
 *  0x10 u64 TimeStamp (flush time)            0x18 u64 SequenceNumber
 *  0x20 u64 ClockType:3/Frequency:61 | links  0x28 u16 ProcessorIndex (u8 ProcessorNumber without
 *  0x2A u16 LoggerId                               flag PROC_INDEX) -- ETW_BUFFER_CONTEXT
 *  0x2C u32 State (3 = flushed)               0x30 u32 Offset = FilledBytes incl. this header
 *  0x34 u16 BufferFlag                        0x36 u16 BufferType
 *  0x38 16 bytes union (kernel pointers; ignore)
 *  records occupy [0x48, Offset); with BufferFlag COMPRESSED bytes [0x48, BufferSize) are MS-XCA
 *  plain LZ77 and inflate to Offset - 0x48 bytes (§5.6).
 *
 * Every record starts with a 32-bit marker (§4): byte 3 = 0xC0 (TRACE_HEADER_FLAG 0x80 |
 * EVENT_TRACE 0x40) and byte 2 = header type; or byte 3 & 0x10 = TRACE_MESSAGE (WPP).
 * 0xFFFFFFFF ends the records of a buffer. Records are padded: next = (off + size + 7) & ~7.
 *
 * EVENT_TRACE_HEADER = FULL_HEADER32/64 record (48 = 0x30 bytes, §2.1)
 *  0x00 u16 Size (header + payload)  0x02 u8 HeaderType (0x0A/0x14)  0x03 u8 MarkerFlags (0xC0)
 *  0x04 u8 Class.Type  0x05 u8 Class.Level  0x06 u16 Class.Version
 *  0x08 u32 ThreadId   0x0C u32 ProcessId   0x10 u64 TimeStamp
 *  0x18 GUID[16] (or u64 GuidPtr with WNODE_FLAG_USE_GUID_PTR, never on disk)
 *  0x28 u32 KernelTime 0x2C u32 UserTime (on input: u32 ClientContext, u32 Flags = WNODE_FLAG_*)
 *  then the payload (MOF data, gathered from MOF_FIELDs with WNODE_FLAG_USE_MOF_PTR)
 *
 * SYSTEM_TRACE_HEADER = SYSTEM32/64 record (0x20 bytes, §4); COMPACT drops the last 8 bytes
 *  0x00 u16 Version  0x02 u8 HeaderType (1/2)  0x03 u8 0xC0  0x04 u16 Size
 *  0x06 u16 HookId = Group << 8 | Type   0x08 u32 ThreadId   0x0C u32 ProcessId
 *  0x10 u64 SystemTime   0x18 u32 KernelTime   0x1C u32 UserTime
 * PERFINFO32/64 (0x10 bytes): 0x00 u16 Version 0x02 u8 type 0x03 u8 flags 0x04 u16 Size
 *  0x06 u16 HookId  0x08 u64 SystemTime; + 8 if Version & 0x8000, + 8 * ((Version >> 8) & 7)
 *
 * EVENT_HEADER = EVENT_HEADER32/64 record (80 = 0x50 bytes, §2.2)
 *  0x00 u16 Size  0x02 u16 HeaderType (0xC012/0xC013)  0x04 u16 Flags  0x06 u16 EventProperty
 *  0x08 u32 ThreadId  0x0C u32 ProcessId  0x10 u64 TimeStamp  0x18 GUID ProviderId
 *  0x28 EVENT_DESCRIPTOR: u16 Id, u8 Version, u8 Channel, u8 Level, u8 Opcode, u16 Task, u64 Keyword
 *  0x38 u64 ProcessorTime (Kernel u32, User u32)  0x40 GUID ActivityId
 *  if Flags & EXTENDED_INFO: items {u16 ItemSize (incl. 8-byte head, multiple of 8), u16 ExtType,
 *  u16 Linkage (bit 0: another item follows), u16 DataSize, data} then the user data.
 *
 * TRACE_LOGFILE_HEADER: payload of the first SYSTEM record of buffer 0 (HookId 0, Version 2);
 * 272 bytes after SYSTEM32, 280 after SYSTEM64 (table below), then 2 NUL-terminated UTF-16LE
 * strings: logger name, log file name (§2.4). */
#ifndef EVT_ETW_DEFS_H
#define EVT_ETW_DEFS_H

#include <stdint.h>

#define ETW_BUFFER_HEADER_SIZE   0x48u     /* WMI_BUFFER_HEADER */
#define ETW_TRACE_HEADER_SIZE    0x30u     /* EVENT_TRACE_HEADER */
#define ETW_SYSTEM_HEADER_SIZE   0x20u     /* SYSTEM_TRACE_HEADER */
#define ETW_COMPACT_HEADER_SIZE  0x18u
#define ETW_PERFINFO_HEADER_SIZE 0x10u
#define ETW_EVENT_HEADER_SIZE    0x50u     /* EVENT_HEADER */
#define ETW_INSTANCE_HEADER_SIZE 0x48u     /* INSTANCE32/64 on disk (dissect only) */
#define ETW_EXT_ITEM_HEAD_SIZE   8u
#define ETW_MOF_FIELD_SIZE       16u       /* MOF_FIELD: u64 DataPtr, u32 Length, u32 DataType */
#define ETW_MAX_MOF_FIELDS       16u
#define ETW_RECORD_ALIGN         8u
#define ETW_MARKER_END           0xFFFFFFFFu
#define ETW_MARKER_FLAGS         0xC0u     /* byte 3: TRACE_HEADER_FLAG | TRACE_HEADER_EVENT_TRACE */
#define ETW_MARKER_HEADER_FLAG   0x80u
#define ETW_MARKER_EVENT_TRACE   0x40u
#define ETW_MARKER_MESSAGE       0x10u
#define ETW_MAX_EVENT_SIZE       0xFFFFu   /* Size is a u16 */
#define ETW_LOGFILE_HDR_VERSION  2u        /* SYSTEM version of the logfile-header record */
#define ETW_MIN_BUFFER_KB        4u
#define ETW_MAX_BUFFER_KB        16384u
#define ETW_FILETIME_UNIX_EPOCH  116444736000000000ull /* 100 ns ticks 1601-01-01 .. 1970-01-01 */

/* WMI_BUFFER_HEADER fields. X(NAME, offset, size) */
#define ETW_BUFHDR_TABLE(X)          \
    X(BUFFER_SIZE,      0x00, 4)     \
    X(SAVED_OFFSET,     0x04, 4)     \
    X(CURRENT_OFFSET,   0x08, 4)     \
    X(REFERENCE_COUNT,  0x0C, 4)     \
    X(TIMESTAMP,        0x10, 8)     \
    X(SEQUENCE,         0x18, 8)     \
    X(CLOCK_FREQ,       0x20, 8)     \
    X(PROCESSOR,        0x28, 2)     \
    X(LOGGER_ID,        0x2A, 2)     \
    X(STATE,            0x2C, 4)     \
    X(OFFSET,           0x30, 4)     \
    X(BUFFER_FLAG,      0x34, 2)     \
    X(BUFFER_TYPE,      0x36, 2)     \
    X(PADDING,          0x38, 16)
enum etw_bufhdr_off {
#define ETW_BH_ENUM_(n, off, sz) ETW_BH_##n = off,
    ETW_BUFHDR_TABLE(ETW_BH_ENUM_)
#undef ETW_BH_ENUM_
};

/* ETW_BUFFER_STATE (State @0x2C). */
#define ETW_BUFFER_STATE_FLUSH         3u
#define ETW_BUFFER_STATE_COMPRESSED    5u

/* BufferFlag bits. X(NAME, value) */
#define ETW_BUFFER_FLAG_TABLE(X)     \
    X(FLUSH_MARKER,     0x0001)      \
    X(EVENTS_LOST,      0x0002)      \
    X(BUFFER_LOST,      0x0004)      \
    X(RTBACKUP_CORRUPT, 0x0008)      \
    X(RTBACKUP,         0x0010)      \
    X(PROC_INDEX,       0x0020)      \
    X(COMPRESSED,       0x0040)
enum etw_buffer_flag {
#define ETW_BF_ENUM_(n, v) ETW_BUFFER_FLAG_##n = v,
    ETW_BUFFER_FLAG_TABLE(ETW_BF_ENUM_)
#undef ETW_BF_ENUM_
};

/* BufferType values. X(NAME, value) */
#define ETW_BUFFER_TYPE_TABLE(X)     \
    X(GENERIC,      0)               \
    X(RUNDOWN,      1)               \
    X(CTX_SWAP,     2)               \
    X(REFTIME,      3)               \
    X(HEADER,       4)               \
    X(BATCHED,      5)               \
    X(EMPTY_MARKER, 6)               \
    X(DBG_INFO,     7)
enum etw_buffer_type {
#define ETW_BT_ENUM_(n, v) ETW_BUFFER_TYPE_##n = v,
    ETW_BUFFER_TYPE_TABLE(ETW_BT_ENUM_)
#undef ETW_BT_ENUM_
};

/* Record header types (marker byte 2), §4. X(value, NAME, fixed header bytes, offset of the u16
 * size field, offset of the u64 timestamp (0xFF: none), family).
 * Families: S = SYSTEM-like (HookId @6), F = classic full header, I = instance, E = EVENT_HEADER,
 * M = WPP message, U = layout unknown (cannot be walked). */
#define ETW_HT_FAM_SYSTEM   1
#define ETW_HT_FAM_FULL     2
#define ETW_HT_FAM_INSTANCE 3
#define ETW_HT_FAM_EVENT    4
#define ETW_HT_FAM_MESSAGE  5
#define ETW_HT_FAM_PERFINFO 6
#define ETW_HT_FAM_UNKNOWN  7
#define ETW_HEADER_TYPE_TABLE(X)                                                  \
    X(0x01, SYSTEM32,        0x20, 4, 0x10, ETW_HT_FAM_SYSTEM)                    \
    X(0x02, SYSTEM64,        0x20, 4, 0x10, ETW_HT_FAM_SYSTEM)                    \
    X(0x03, COMPACT32,       0x18, 4, 0x10, ETW_HT_FAM_SYSTEM)                    \
    X(0x04, COMPACT64,       0x18, 4, 0x10, ETW_HT_FAM_SYSTEM)                    \
    X(0x0A, FULL_HEADER32,   0x30, 0, 0x10, ETW_HT_FAM_FULL)                      \
    X(0x0B, INSTANCE32,      0x48, 0, 0x10, ETW_HT_FAM_INSTANCE)                  \
    X(0x0C, TIMED,           0x00, 0, 0xFF, ETW_HT_FAM_UNKNOWN)                   \
    X(0x0D, ERROR,           0x08, 0, 0xFF, ETW_HT_FAM_INSTANCE)                  \
    X(0x0E, WNODE_HEADER,    0x00, 0, 0xFF, ETW_HT_FAM_UNKNOWN)                   \
    X(0x0F, MESSAGE,         0x08, 0, 0xFF, ETW_HT_FAM_MESSAGE)                   \
    X(0x10, PERFINFO32,      0x10, 4, 0x08, ETW_HT_FAM_PERFINFO)                  \
    X(0x11, PERFINFO64,      0x10, 4, 0x08, ETW_HT_FAM_PERFINFO)                  \
    X(0x12, EVENT_HEADER32,  0x50, 0, 0x10, ETW_HT_FAM_EVENT)                     \
    X(0x13, EVENT_HEADER64,  0x50, 0, 0x10, ETW_HT_FAM_EVENT)                     \
    X(0x14, FULL_HEADER64,   0x30, 0, 0x10, ETW_HT_FAM_FULL)                      \
    X(0x15, INSTANCE64,      0x48, 0, 0x10, ETW_HT_FAM_INSTANCE)
enum etw_header_type {
#define ETW_HT_ENUM_(v, n, fixed, szoff, tsoff, fam) ETW_HT_##n = v,
    ETW_HEADER_TYPE_TABLE(ETW_HT_ENUM_)
#undef ETW_HT_ENUM_
};

/* EVENT_TRACE_HEADER fields. X(NAME, offset, size) */
#define ETW_TRACE_HEADER_TABLE(X)    \
    X(SIZE,          0x00, 2)        \
    X(HEADER_TYPE,   0x02, 1)        \
    X(MARKER_FLAGS,  0x03, 1)        \
    X(CLASS_TYPE,    0x04, 1)        \
    X(CLASS_LEVEL,   0x05, 1)        \
    X(CLASS_VERSION, 0x06, 2)        \
    X(THREAD_ID,     0x08, 4)        \
    X(PROCESS_ID,    0x0C, 4)        \
    X(TIMESTAMP,     0x10, 8)        \
    X(GUID,          0x18, 16)       \
    X(KERNEL_TIME,   0x28, 4)        \
    X(USER_TIME,     0x2C, 4)
enum etw_trace_header_off {
#define ETW_TH_ENUM_(n, off, sz) ETW_TH_##n = off,
    ETW_TRACE_HEADER_TABLE(ETW_TH_ENUM_)
#undef ETW_TH_ENUM_
};
#define ETW_TH_CLIENT_CONTEXT ETW_TH_KERNEL_TIME /* on input (TraceEvent): ClientContext */
#define ETW_TH_FLAGS          ETW_TH_USER_TIME   /* on input (TraceEvent): WNODE_FLAG_* */

/* SYSTEM_TRACE_HEADER fields (COMPACT stops at 0x18). X(NAME, offset, size) */
#define ETW_SYSTEM_HEADER_TABLE(X)   \
    X(VERSION,      0x00, 2)         \
    X(HEADER_TYPE,  0x02, 1)         \
    X(FLAGS,        0x03, 1)         \
    X(SIZE,         0x04, 2)         \
    X(HOOK_ID,      0x06, 2)         \
    X(THREAD_ID,    0x08, 4)         \
    X(PROCESS_ID,   0x0C, 4)         \
    X(SYSTEM_TIME,  0x10, 8)         \
    X(KERNEL_TIME,  0x18, 4)         \
    X(USER_TIME,    0x1C, 4)
enum etw_system_header_off {
#define ETW_SH_ENUM_(n, off, sz) ETW_SH_##n = off,
    ETW_SYSTEM_HEADER_TABLE(ETW_SH_ENUM_)
#undef ETW_SH_ENUM_
};
#define ETW_PERFINFO_TIME       0x08u    /* PERFINFO: u64 SystemTime @0x08 */
#define ETW_PERFINFO_PEBS_BIT   0x8000u  /* Version bit: an 8-byte PEBS index follows */

/* EVENT_HEADER fields. X(NAME, offset, size) */
#define ETW_EVENT_HEADER_TABLE(X)    \
    X(SIZE,           0x00, 2)       \
    X(HEADER_TYPE,    0x02, 2)       \
    X(FLAGS,          0x04, 2)       \
    X(EVENT_PROPERTY, 0x06, 2)       \
    X(THREAD_ID,      0x08, 4)       \
    X(PROCESS_ID,     0x0C, 4)       \
    X(TIMESTAMP,      0x10, 8)       \
    X(PROVIDER_ID,    0x18, 16)      \
    X(ID,             0x28, 2)       \
    X(VERSION,        0x2A, 1)       \
    X(CHANNEL,        0x2B, 1)       \
    X(LEVEL,          0x2C, 1)       \
    X(OPCODE,         0x2D, 1)       \
    X(TASK,           0x2E, 2)       \
    X(KEYWORD,        0x30, 8)       \
    X(KERNEL_TIME,    0x38, 4)       \
    X(USER_TIME,      0x3C, 4)       \
    X(ACTIVITY_ID,    0x40, 16)
enum etw_event_header_off {
#define ETW_EH_ENUM_(n, off, sz) ETW_EH_##n = off,
    ETW_EVENT_HEADER_TABLE(ETW_EH_ENUM_)
#undef ETW_EH_ENUM_
};

/* EVENT_HEADER.Flags. X(NAME, value) */
#define ETW_EH_FLAG_TABLE(X)         \
    X(EXTENDED_INFO,   0x0001)       \
    X(PRIVATE_SESSION, 0x0002)       \
    X(STRING_ONLY,     0x0004)       \
    X(TRACE_MESSAGE,   0x0008)       \
    X(NO_CPUTIME,      0x0010)       \
    X(32_BIT_HEADER,   0x0020)       \
    X(64_BIT_HEADER,   0x0040)       \
    X(CLASSIC_HEADER,  0x0100)       \
    X(PROCESSOR_INDEX, 0x0200)
enum etw_eh_flag {
#define ETW_EHF_ENUM_(n, v) ETW_EH_FLAG_##n = v,
    ETW_EH_FLAG_TABLE(ETW_EHF_ENUM_)
#undef ETW_EHF_ENUM_
};

/* Extended data item types (§4). X(value, NAME) */
#define ETW_EXT_TYPE_TABLE(X)        \
    X(1,  RELATED_ACTIVITYID)        \
    X(2,  SID)                       \
    X(3,  TS_ID)                     \
    X(4,  INSTANCE_INFO)             \
    X(5,  STACK_TRACE32)             \
    X(6,  STACK_TRACE64)             \
    X(7,  PEBS_INDEX)                \
    X(8,  PMC_COUNTERS)              \
    X(9,  PSM_KEY)                   \
    X(10, EVENT_KEY)                 \
    X(11, EVENT_SCHEMA_TL)           \
    X(12, PROV_TRAITS)               \
    X(13, PROCESS_START_KEY)
enum etw_ext_type {
#define ETW_EXT_ENUM_(v, n) ETW_EXT_##n = v,
    ETW_EXT_TYPE_TABLE(ETW_EXT_ENUM_)
#undef ETW_EXT_ENUM_
};
#define ETW_EXT_LINKAGE_MORE 0x0001u

/* TRACE_LOGFILE_HEADER fields. X(NAME, offset after SYSTEM32, offset after SYSTEM64, size) */
#define ETW_LOGFILE_HEADER_TABLE(X)              \
    X(BUFFER_SIZE,        0x00,  0x00,  4)       \
    X(VERSION,            0x04,  0x04,  4)       \
    X(PROVIDER_VERSION,   0x08,  0x08,  4)       \
    X(NUMBER_OF_CPUS,     0x0C,  0x0C,  4)       \
    X(END_TIME,           0x10,  0x10,  8)       \
    X(TIMER_RESOLUTION,   0x18,  0x18,  4)       \
    X(MAXIMUM_FILE_SIZE,  0x1C,  0x1C,  4)       \
    X(LOG_FILE_MODE,      0x20,  0x20,  4)       \
    X(BUFFERS_WRITTEN,    0x24,  0x24,  4)       \
    X(START_BUFFERS,      0x28,  0x28,  4)       \
    X(POINTER_SIZE,       0x2C,  0x2C,  4)       \
    X(EVENTS_LOST,        0x30,  0x30,  4)       \
    X(CPU_SPEED_MHZ,      0x34,  0x34,  4)       \
    X(LOGGER_NAME_PTR,    0x38,  0x38,  0)       \
    X(LOG_FILE_NAME_PTR,  0x3C,  0x40,  0)       \
    X(TIME_ZONE,          0x40,  0x48,  176)     \
    X(BOOT_TIME,          0xF0,  0xF8,  8)       \
    X(PERF_FREQ,          0xF8,  0x100, 8)       \
    X(START_TIME,         0x100, 0x108, 8)       \
    X(RESERVED_FLAGS,     0x108, 0x110, 4)       \
    X(BUFFERS_LOST,       0x10C, 0x114, 4)
enum etw_logfile_off32 {
#define ETW_LF32_ENUM_(n, o32, o64, sz) ETW_LF32_##n = o32,
    ETW_LOGFILE_HEADER_TABLE(ETW_LF32_ENUM_)
#undef ETW_LF32_ENUM_
};
enum etw_logfile_off64 {
#define ETW_LF64_ENUM_(n, o32, o64, sz) ETW_LF64_##n = o64,
    ETW_LOGFILE_HEADER_TABLE(ETW_LF64_ENUM_)
#undef ETW_LF64_ENUM_
};
#define ETW_LOGFILE_HEADER_SIZE32 0x110u  /* 272 */
#define ETW_LOGFILE_HEADER_SIZE64 0x118u  /* 280 */
#define ETW_TIME_ZONE_SIZE        172u    /* TIME_ZONE_INFORMATION (+4 bytes padding) */

/* Clock types (TRACE_LOGFILE_HEADER.ReservedFlags = WNODE_HEADER.ClientContext, §1.4).
 * X(value, NAME, "json name") */
#define ETW_CLOCK_TABLE(X)                       \
    X(0, RAW,         "raw")                     \
    X(1, QPC,         "qpc")                     \
    X(2, SYSTEM_TIME, "system_time")             \
    X(3, CPU_CYCLES,  "cpu_cycles")
enum etw_clock {
#define ETW_CLK_ENUM_(v, n, s) ETW_CLOCK_##n = v,
    ETW_CLOCK_TABLE(ETW_CLK_ENUM_)
#undef ETW_CLK_ENUM_
};

/* LogFileMode bits (§1.2). X(NAME, value) */
#define ETW_LOGFILE_MODE_TABLE(X)                     \
    X(FILE_MODE_SEQUENTIAL,        0x00000001u)        \
    X(FILE_MODE_CIRCULAR,          0x00000002u)        \
    X(FILE_MODE_APPEND,            0x00000004u)        \
    X(FILE_MODE_NEWFILE,           0x00000008u)        \
    X(FILE_MODE_PREALLOCATE,       0x00000020u)        \
    X(NONSTOPPABLE_MODE,           0x00000040u)        \
    X(SECURE_MODE,                 0x00000080u)        \
    X(REAL_TIME_MODE,              0x00000100u)        \
    X(DELAY_OPEN_FILE_MODE,        0x00000200u)        \
    X(BUFFERING_MODE,              0x00000400u)        \
    X(PRIVATE_LOGGER_MODE,         0x00000800u)        \
    X(ADD_HEADER_MODE,             0x00001000u)        \
    X(USE_KBYTES_FOR_SIZE,         0x00002000u)        \
    X(USE_GLOBAL_SEQUENCE,         0x00004000u)        \
    X(USE_LOCAL_SEQUENCE,          0x00008000u)        \
    X(RELOG_MODE,                  0x00010000u)        \
    X(PRIVATE_IN_PROC,             0x00020000u)        \
    X(USE_PAGED_MEMORY,            0x01000000u)        \
    X(SYSTEM_LOGGER_MODE,          0x02000000u)        \
    X(COMPRESSED_MODE,             0x04000000u)        \
    X(INDEPENDENT_SESSION_MODE,    0x08000000u)        \
    X(NO_PER_PROCESSOR_BUFFERING,  0x10000000u)        \
    X(ADDTO_TRIAGE_DUMP,           0x80000000u)
enum etw_logfile_mode {
#define ETW_LFM_ENUM_(n, v) ETW_##n = v,
    ETW_LOGFILE_MODE_TABLE(ETW_LFM_ENUM_)
#undef ETW_LFM_ENUM_
};

/* WNODE_FLAG_* / TRACE_HEADER_FLAG_* used with TraceEvent (§2.2). X(NAME, value) */
#define ETW_WNODE_FLAG_TABLE(X)                       \
    X(USE_TIMESTAMP,   0x00000200u)                    \
    X(TRACED_GUID,     0x00020000u)                    \
    X(LOG_WNODE,       0x00040000u)                    \
    X(USE_GUID_PTR,    0x00080000u)                    \
    X(USE_MOF_PTR,     0x00100000u)                    \
    X(NO_HEADER,       0x00200000u)
enum etw_wnode_flag {
#define ETW_WF_ENUM_(n, v) ETW_WNODE_FLAG_##n = v,
    ETW_WNODE_FLAG_TABLE(ETW_WF_ENUM_)
#undef ETW_WF_ENUM_
};
#define ETW_USE_PROCTIME   0x0001u  /* EVENT_TRACE_USE_PROCTIME */
#define ETW_USE_NOCPUTIME  0x0002u  /* EVENT_TRACE_USE_NOCPUTIME */

/* Trace levels (§1.1). X(value, NAME, "name") */
#define ETW_LEVEL_TABLE(X)                            \
    X(0, NONE,        "none")                          \
    X(1, CRITICAL,    "critical")                      \
    X(2, ERROR,       "error")                         \
    X(3, WARNING,     "warning")                       \
    X(4, INFORMATION, "information")                   \
    X(5, VERBOSE,     "verbose")
enum etw_level {
#define ETW_LV_ENUM_(v, n, s) ETW_LEVEL_##n = v,
    ETW_LEVEL_TABLE(ETW_LV_ENUM_)
#undef ETW_LV_ENUM_
};

/* EVENT_TRACE_TYPE_* (Class.Type, §2.3); class-specific types start at 10. X(value, NAME, "Name") */
#define ETW_TRACE_TYPE_TABLE(X)                       \
    X(0x00, INFO,           "Info")                    \
    X(0x01, START,          "Start")                   \
    X(0x02, END,            "End")                     \
    X(0x03, DC_START,       "DCStart")                 \
    X(0x04, DC_END,         "DCEnd")                   \
    X(0x05, EXTENSION,      "Extension")               \
    X(0x06, REPLY,          "Reply")                   \
    X(0x07, DEQUEUE,        "Dequeue")                 \
    X(0x08, CHECKPOINT,     "Checkpoint")              \
    X(0x09, WINEVT_SEND,    "WinevtSend")              \
    X(0xF0, WINEVT_RECEIVE, "WinevtReceive")
enum etw_trace_type {
#define ETW_TT_ENUM_(v, n, s) ETW_TYPE_##n = v,
    ETW_TRACE_TYPE_TABLE(ETW_TT_ENUM_)
#undef ETW_TT_ENUM_
};
#define ETW_TYPE_STOP     ETW_TYPE_END
#define ETW_TYPE_RESUME   ETW_TYPE_DEQUEUE
#define ETW_TYPE_SUSPEND  ETW_TYPE_CHECKPOINT
#define ETW_TYPE_USER_MIN 0x0Au  /* first class-specific (user) type */

/* Kernel-logger groups (HookId high byte) with names (§4, §5.5). X(group, "Name") */
#define ETW_GROUP_TABLE(X)            \
    X(0x00, "EventTrace")             \
    X(0x01, "DiskIo")                 \
    X(0x02, "PageFault")              \
    X(0x03, "Process")                \
    X(0x04, "FileIo")                 \
    X(0x05, "Thread")                 \
    X(0x06, "TcpIp")                  \
    X(0x14, "Image")                  \
    X(0x18, "StackWalk")              \
    X(0x1E, "HypervisorX")

/* Opcodes of group 0 ("EventTrace", §5.5). X(opcode, "Name") */
#define ETW_GROUP0_OPCODE_TABLE(X)    \
    X(0,  "Header")                   \
    X(5,  "Extension")                \
    X(8,  "RDComplete")               \
    X(32, "EndExtension")             \
    X(64, "DbgIdRSDS")                \
    X(66, "BuildInfo")                \
    X(67, "ProviderBinaryPath")       \
    X(80, "PartitionInfoExtension")
#define ETW_GROUP0_HEADER       0x00u
#define ETW_HOOK_LOGFILE_HEADER 0x0000u  /* HookId of the logfile-header record */
#define ETW_HOOK_PARTITION_INFO 0x0050u

/* Well-known GUIDs as {Data1, Data2, Data3, Data4[8]} (§2.3). X(NAME, "canonical", d1, d2, d3, b0..b7) */
#define ETW_EVTRACE_LOSS_DATA1 0x65767472u /* "evtr": the recorder's inline check (etw.h) tests these two */
#define ETW_EVTRACE_LOSS_DATA2 0x6f6cu     /* "lo" */
#define ETW_GUID_TABLE(X)                                                                      \
    X(EVENT_TRACE,   "68fdd900-4a3e-11d1-84f4-0000f80464e3", 0x68fdd900u, 0x4a3e, 0x11d1,        \
      0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3)                                           \
    X(SYSTEM_TRACE,  "9e814aad-3204-11d2-9a82-006008a86939", 0x9e814aadu, 0x3204, 0x11d2,        \
      0x9a, 0x82, 0x00, 0x60, 0x08, 0xa8, 0x69, 0x39)                                           \
    X(EVENT_TRACE_CONFIG, "01853a65-418f-4f36-aefc-dc0f1d2fd235", 0x01853a65u, 0x418f, 0x4f36,   \
      0xae, 0xfc, 0xdc, 0x0f, 0x1d, 0x2f, 0xd2, 0x35)                                           \
    X(EVTRACE_LOSS, "65767472-6f6c-7373-8000-657674726163", ETW_EVTRACE_LOSS_DATA1,               \
      ETW_EVTRACE_LOSS_DATA2, 0x7373,                                                           \
      0x80, 0x00, 0x65, 0x76, 0x74, 0x72, 0x61, 0x63)                                           \
    X(EVTRACE_USER, "65767472-7375-7265-8000-657674726163", 0x65767472u, 0x7375, 0x7265,         \
      0x80, 0x00, 0x65, 0x76, 0x74, 0x72, 0x61, 0x63)

/* evtrace's loss record (recorder, include/evtrace/etw.h): a classic FULL_HEADER event of the
 * EVTRACE_LOSS class above, Class.Type ETW_EVT_LOSS_TYPE, payload a u64le count of events lost
 * (dropped, or in buffers overwritten or not written) before it. A file whose logfile header
 * holds ETW_EVT_LOSS_MARK in the (on-disk meaningless) LoggerName pointer field carries every
 * loss in such records plus EventsLost (losses still pending at stop): its BuffersLost and
 * overwritten buffers are then already counted in events. */
#define ETW_EVT_LOSS_TYPE       32u          /* as RT_LostEvent */
#define ETW_EVT_LOSS_PAYLOAD    8u
#define ETW_EVT_LOSS_MARK       0x4c747665u  /* "evtL" little-endian */

/* Event control codes (EnableTraceEx2) and ControlTrace codes (§1). */
#define ETW_CONTROL_DISABLE_PROVIDER 0u
#define ETW_CONTROL_ENABLE_PROVIDER  1u
#define ETW_CONTROL_CAPTURE_STATE    2u

#endif
