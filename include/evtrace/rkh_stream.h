/* The RKH 3.4.00 stream facts the public recorder header (evtrace/rkh.h, whose inline paths frame
 * records) shares with the writer and the reader (src/formats/rkh/rkh_defs.h holds the rest): the
 * framing bytes and the user-record field types. The one source of truth for both. Freestanding:
 * no includes. */
#ifndef EVTRACE_RKH_STREAM_H
#define EVTRACE_RKH_STREAM_H

/* Framing: every record is followed by a flag; inside a record a flag or escape byte b is sent as
 * ESC, b ^ ESC_XOR. */
#define EVT_RKH_FLAG    0x7Eu
#define EVT_RKH_ESC     0x7Du
#define EVT_RKH_ESC_XOR 0x20u

/* User-record field types (RKH_I8_T .. RKH_ESIG_T): a user field is written as a format byte,
 * (width << 4) | type, then its value; a user of the recorder names a type with its EVT_RKH_USR_*
 * constant (evt_rkh_usr_int). */
/* X(type, NAME, kind letter, signed): kind '1' '2' '4' = integer bytes, 's' string, 'M' memory
 * block, 'S' object pointer, 'F' function pointer, 'G' event signal. */
#define EVT_RKH_USER_FIELD_TABLE(X)                                                                \
    X(0, I8, '1', 1) X(1, UI8, '1', 0) X(2, I16, '2', 1) X(3, UI16, '2', 0) X(4, I32, '4', 1)       \
    X(5, UI32, '4', 0) X(6, X32, '4', 0) X(7, STR, 's', 0) X(8, MEM, 'M', 0) X(9, OBJ, 'S', 0)     \
    X(10, FUN, 'F', 0) X(11, ESIG, 'G', 0)

/* EVT_RKH_USR_I8 = 0 .. EVT_RKH_USR_ESIG = 11: evt_rkh_usr_int's `type`. */
enum evt_rkh_usr_type {
#define EVT_RKH_USR_ENUM_(type_, name_, kind_, signed_) EVT_RKH_USR_##name_ = type_,
    EVT_RKH_USER_FIELD_TABLE(EVT_RKH_USR_ENUM_)
#undef EVT_RKH_USR_ENUM_
};

#endif
