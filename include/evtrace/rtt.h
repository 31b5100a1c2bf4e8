/* RTT up-buffer transport (target side): a control block in RAM with the public layout of SEGGER's
 * Real-Time Transfer, so a debug probe's RTT server (J-Link, OpenOCD `rtt`, pyOCD) or any GDB
 * server (evtrace --gdb --rtt) finds it and reads the trace while the core runs:
 *
 *   offset  size  field (32-bit target: pointers are 4 bytes; every field little-endian there)
 *        0    16  id: "SEGGER RTT", NUL padded -- written last by evt_rtt_init, so a host scanning
 *                 RAM never finds a half-made block
 *       16     4  number of up buffers (target -> host): EVT_RTT_UP
 *       20     4  number of down buffers (host -> target): EVT_RTT_DOWN
 *       24    24  up buffer 0 descriptor, then the down descriptor(s). A descriptor: name pointer,
 *                 buffer pointer, size, WrOff (written by the writer), RdOff (written by the
 *                 reader), flags (bits 0-1: the mode below)
 *
 * The up buffer is a byte ring: empty when RdOff == WrOff, full when WrOff + 1 == RdOff (mod size):
 * one byte stays unused. The target writes bytes, then advances WrOff; the host reads, then
 * advances RdOff. Nothing else is shared, so no lock between host and target is needed.
 *
 * evt_rtt_write never blocks by default: a write that does not fit is dropped whole (SKIP, the
 * default, which keeps RKH framing intact: the host sees a sequence gap and reports the records as
 * lost) or cut to what fits (TRIM); both are counted in lost_writes / lost_bytes, which sit right
 * after the control block so a host reading target memory can report them too. BLOCK waits for
 * the host (only for a link that must never lose, and never from an interrupt).
 *
 * Freestanding C99: no libc, no malloc; the caller owns the block and the buffer. Calls to
 * evt_rtt_write must be serialised: as the RKH recorder's sink (evt_rtt_rkh_sink) it runs inside
 * that recorder's critical section. Facts: docs/live.md. */
#ifndef EVTRACE_RTT_H
#define EVTRACE_RTT_H

#include <stdint.h>

#define EVT_RTT_UP 1u   /* up buffers in the control block */
#define EVT_RTT_DOWN 1u /* down buffers (present for tools that expect one; size 0, unused) */

/* Flags bits 0-1: what a write does when the up buffer is full. */
#define EVT_RTT_MODE_SKIP 0u  /* drop the whole write, count it (default) */
#define EVT_RTT_MODE_TRIM 1u  /* write what fits, count the rest */
#define EVT_RTT_MODE_BLOCK 2u /* wait until the host made room (never from an interrupt) */
#define EVT_RTT_MODE_MASK 3u

/* One buffer descriptor, as in SEGGER's layout (24 bytes on a 32-bit target). */
typedef struct evt_rtt_desc {
    const char *name;      /* "evtrace": what RTT viewers list */
    uint8_t *buf;          /* the ring */
    uint32_t size;         /* bytes of the ring (one stays unused) */
    volatile uint32_t wr;  /* WrOff: next byte the writer stores */
    volatile uint32_t rd;  /* RdOff: next byte the reader takes */
    uint32_t flags;        /* EVT_RTT_MODE_* in bits 0-1 */
} evt_rtt_desc;

/* The control block (SEGGER_RTT_CB's layout with one up and one down buffer). */
typedef struct evt_rtt_cb {
    char id[16];
    int32_t max_up;
    int32_t max_down;
    evt_rtt_desc up[EVT_RTT_UP];
    evt_rtt_desc down[EVT_RTT_DOWN];
} evt_rtt_cb;

/* The transport: the control block first (the symbol's address is the block's; name the object
 * _SEGGER_RTT so probe tools and `evtrace --gdb --rtt --elf` find it by symbol), then the loss
 * counters. */
typedef struct evt_rtt {
    evt_rtt_cb cb;
    volatile uint32_t lost_writes; /* writes dropped or trimmed because the host had not read */
    volatile uint32_t lost_bytes;  /* bytes those writes did not store */
} evt_rtt;

/* Set up t with buf (size >= 2 bytes) as up buffer 0 and mode EVT_RTT_MODE_*; the id is written
 * last. Call before anything writes, with the host not yet reading (or reading the old block). */
void evt_rtt_init(evt_rtt *t, uint8_t *buf, uint32_t size, uint32_t mode);
/* Store n bytes in up buffer 0 (serialised by the caller). Returns the bytes stored: n, or fewer
 * (0 in SKIP mode) when the host has not made room; the shortfall is counted. */
uint32_t evt_rtt_write(evt_rtt *t, const uint8_t *p, uint32_t n);
/* Bytes the host has not read yet. */
uint32_t evt_rtt_pending(const evt_rtt *t);
/* An RKH recorder sink (evt_rkh_set_sink(&rec, evt_rtt_rkh_sink, &rtt)): every record into RTT,
 * called inside the recorder's critical section. */
void evt_rtt_rkh_sink(void *user, const uint8_t *p, uint32_t n);

#endif
