/* The size of the TXTB recorder's nested stash (txtb_enc.c I9), a compile-time switch: here so
 * that the tests that overflow it on purpose follow its default. Freestanding. */
#ifndef EVT_TXTB_STASH_H
#define EVT_TXTB_STASH_H

#include "evtrace/port.h"

/* I9: the stash of records nested in a record of their own context. Default: on where a handler
 * can land inside a record (a port whose nested contexts do not mask the section: POSIX signals);
 * on a port whose section masks interrupts only a recursing callback nests, and is dropped.
 * POSIX size: a thread starved of CPU inside one record can take handler after handler there
 * before it drains (signals keep coming while it waits for a CPU). In the user-events signal test
 * beside three CPU hogs (29 Nov) the most one record's handlers reserved was 2,977 words in 141
 * runs, and about 6,000-7,000 in the one run of 320 that overflowed a half of 4,096 (147 records
 * of 2-3 slots did not fit); halves of 65,536 words leave about ten times that. The array is
 * zero-initialized static storage (512 KB): a host maps its pages only when a burst touches them.
 * Small targets keep 0 (no RAM). */
#ifndef EVT_TX_NEST_STASH_WORDS
#if defined(EVT_PORT_POSIX) && (defined(__GNUC__) || defined(__clang__))
#define EVT_TX_NEST_STASH_WORDS 131072u
#else
#define EVT_TX_NEST_STASH_WORDS 0u
#endif
#endif

#endif
