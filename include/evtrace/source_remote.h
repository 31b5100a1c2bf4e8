/* Live sources that reach a target through a debug server: a TCP byte stream (the RTT servers of
 * OpenOCD, pyOCD and J-Link, or anything that sends the trace over TCP), and the RTT up buffer
 * read through any GDB server's remote protocol (OpenOCD, pyOCD, J-Link GDB server, QEMU -gdb).
 * Both become an ordinary stream source (evtrace/source.h): readers decode them as they arrive. */
#ifndef EVTRACE_SOURCE_REMOTE_H
#define EVTRACE_SOURCE_REMOTE_H

#include <stddef.h>
#include <stdint.h>
#include "evtrace/source.h"

/* Connect to HOST:PORT ([v6]:PORT; HOST may be a name) and read the connection as a stream. No
 * reconnect: when the server closes, the stream ends. idle_ms (0 = none) bounds the connect and,
 * as for every stream, the time without data. EVT_ERR_USAGE for a bad spec, EVT_ERR_IO otherwise
 * (err filled). */
evt_status evt_source_connect(evt_source *src, const char *spec, unsigned idle_ms, char *err, size_t errlen);

/* Where the RTT control block is. */
typedef struct evt_rtt_where {
    uint64_t addr;        /* the control block's address, when has_addr */
    int has_addr;
    uint64_t search_lo;   /* otherwise: search [search_lo, search_lo + search_len) for the id */
    uint64_t search_len;  /* 0: the default range (EVT_RTT_SEARCH_DEFAULT_*) */
    unsigned channel;     /* up buffer number (0) */
    unsigned poll_ms;     /* interval between reads of the up buffer (0: 10 ms) */
} evt_rtt_where;

#define EVT_RTT_SEARCH_DEFAULT_LO 0x20000000u /* Cortex-M SRAM */
#define EVT_RTT_SEARCH_DEFAULT_LEN 0x10000u   /* its first 64 KiB */

/* Parse the --rtt value: "" (search the default range), "ADDR" (the block is at ADDR) or
 * "ADDR:LEN" (search that range); numbers in decimal or 0x hex. Returns 0 on a bad value. */
int evt_rtt_where_parse(const char *s, evt_rtt_where *w);

/* Connect to the GDB server at HOST:PORT, find the RTT control block (by w), and stream up buffer
 * w->channel: a thread polls it every w->poll_ms, hands the bytes on and advances RdOff. A server
 * that cannot read memory while the target runs (it stops the target when spoken to: QEMU,
 * OpenOCD and J-Link in all-stop mode) is handled by interrupt, read, continue on each poll; one
 * that can is only read. The stream ends when the target exits, the server closes, or the source
 * is closed (the target is then detached and runs on). note(user, msg) reports what happened
 * (mode, block found, end), from the polling thread; may be NULL. idle_ms bounds the connect and
 * the search for the block (0: 10 s for the search). */
evt_status evt_source_gdb_rtt(evt_source *src, const char *spec, const evt_rtt_where *w, unsigned idle_ms,
                              void (*note)(void *user, const char *msg), void *user, char *err, size_t errlen);

/* Wait until every GDB polling thread has left its target (detached, or found it gone), at most
 * timeout_ms. Returns 1 when none is left. Call before the process exits after closing the
 * sources, so a target is never left halted. */
int evt_source_gdb_wait(unsigned timeout_ms);

/* Look up a symbol's value in an ELF file (32- or 64-bit, either byte order; .symtab then
 * .dynsym). Returns 1 and sets *value; 0 when absent (err says why: not ELF, no symbol table,
 * no such symbol, a damaged header with its byte offset). */
int evt_elf_symbol(const char *path, const char *name, uint64_t *value, char *err, size_t errlen);

#endif
