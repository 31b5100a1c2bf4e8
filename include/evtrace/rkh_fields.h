/* RKH user-record field types (RKH 3.4.00's RKH_I8_T .. RKH_ESIG_T): a user field is written as a
 * format byte, (width << 4) | type, then its value. The one source of truth for the types: the
 * recorder (evt_rkh_usr_int), the hooks backend and the reader all use this table, and a user of
 * the recorder names a type with its EVT_RKH_USR_* constant. Freestanding: no includes. */
#ifndef EVTRACE_RKH_FIELDS_H
#define EVTRACE_RKH_FIELDS_H

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
