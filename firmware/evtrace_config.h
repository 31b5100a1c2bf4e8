/* evtrace firmware kit: the one configuration header of the recorder source drop.
 *
 * Order (DESIGN.md §3): your settings first, then the #ifndef defaults below, then #error checks.
 * Give your settings in any of three ways: edit the block marked "your settings", pass -D flags,
 * or name a header of your own with -DEVT_APP_CONFIG='"my_trace_config.h"'. The kit's build
 * fragment (evtrace.mk) passes -DEVT_CFG_USER_HEADER='"evtrace_config.h"', so the recorder's own
 * headers (evtrace/hooks_config.h) read this file first. Freestanding C99: macros only. */
#ifndef EVTRACE_CONFIG_H
#define EVTRACE_CONFIG_H

#ifdef EVT_APP_CONFIG
#include EVT_APP_CONFIG
#endif

/* ---- your settings ---------------------------------------------------------------------------- */
/* #define EVT_CFG_STREAM 1 */
/* #define EVT_CFG_TIMESTAMP_HZ 25000000u */
/* ----------------------------------------------------------------------------------------------- */

/* How the trace leaves the target. 0: a snapshot buffer in RAM (ThreadX TXTB, what TraceX and
 * evtrace read), fetched with a debugger or a memory dump. 1: a live byte stream (RKH framing)
 * that the application drains to a UART, USB or socket. Picks the generic hooks' backend. */
#ifndef EVT_CFG_STREAM
#define EVT_CFG_STREAM 0
#endif
#ifndef EVT_CFG_HOOKS_BACKEND
#if EVT_CFG_STREAM
#define EVT_CFG_HOOKS_BACKEND rkh
#else
#define EVT_CFG_HOOKS_BACKEND txtb
#endif
#endif

/* Frequency of the timestamps the application's time source returns, in Hz (0: unknown, the
 * host then shows ticks). */
#ifndef EVT_CFG_TIMESTAMP_HZ
#define EVT_CFG_TIMESTAMP_HZ 0u
#endif

/* Snapshot buffer (EVT_CFG_STREAM 0): total bytes and object-registry entries (names of threads,
 * queues, ...). Layout: 48-byte header, 48 bytes per registry entry, 32 bytes per event. */
#ifndef EVT_CFG_TXTB_REGISTRY_ENTRIES
#define EVT_CFG_TXTB_REGISTRY_ENTRIES 16u
#endif
#ifndef EVT_CFG_TXTB_BUFFER_SIZE
#define EVT_CFG_TXTB_BUFFER_SIZE 8192u
#endif

/* Live stream (EVT_CFG_STREAM 1): bytes of the ring between recording and draining. */
#ifndef EVT_CFG_RKH_RING_SIZE
#define EVT_CFG_RKH_RING_SIZE 1024u
#endif

/* RTT transport (include/evtrace/rtt.h): bytes of the up buffer a debug probe or GDB server
 * reads, and what a write does when the host has not made room: 0 drop it whole and count it
 * (never blocks), 1 write what fits and count the rest, 2 wait for the host (never in an ISR). */
#ifndef EVT_CFG_RTT_BUFFER_SIZE
#define EVT_CFG_RTT_BUFFER_SIZE 1024u
#endif
#ifndef EVT_CFG_RTT_MODE
#define EVT_CFG_RTT_MODE 0u
#endif

/* Number of CPUs the hooks keep state for (current thread, ISR depth). */
#ifndef EVT_CFG_HOOKS_CPUS
#define EVT_CFG_HOOKS_CPUS 1
#endif

#if EVT_CFG_STREAM != 0 && EVT_CFG_STREAM != 1
#error "EVT_CFG_STREAM must be 0 (snapshot buffer) or 1 (live stream)"
#endif
#if EVT_CFG_TXTB_REGISTRY_ENTRIES < 1
#error "EVT_CFG_TXTB_REGISTRY_ENTRIES must be at least 1"
#endif
#if EVT_CFG_TXTB_BUFFER_SIZE < 48u + 48u * EVT_CFG_TXTB_REGISTRY_ENTRIES + 32u * 8u
#error "EVT_CFG_TXTB_BUFFER_SIZE holds fewer than 8 events after the header and registry"
#endif
#if EVT_CFG_RTT_BUFFER_SIZE < 16u
#error "EVT_CFG_RTT_BUFFER_SIZE must be at least 16 bytes"
#endif
#if EVT_CFG_RTT_MODE > 2u
#error "EVT_CFG_RTT_MODE must be 0 (skip), 1 (trim) or 2 (block)"
#endif
#if EVT_CFG_RKH_RING_SIZE < 64u || EVT_CFG_RKH_RING_SIZE > 65535u
#error "EVT_CFG_RKH_RING_SIZE must be 64..65535 bytes"
#endif

#endif
