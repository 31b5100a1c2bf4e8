/* Reader side of the RKH hooks' hook.clock record (rkh_hooks_defs.h, rkh_clock_enc.c): find it in
 * the first bytes of a stream before any record is decoded, so the reader knows the timestamp rate
 * and kernel profile from its first event on. Host library, used by rkh_dec.c. */
#ifndef EVT_RKH_CLOCK_DEC_H
#define EVT_RKH_CLOCK_DEC_H

#include <stddef.h>
#include <stdint.h>

#define RKH_CLOCK_SCAN_BYTES 8192 /* how far into the stream the record is looked for */

/* Look for a hook.clock record in the raw (framed, escaped) stream bytes b[0..n): its fields, UI32
 * magic RKH_HOOKS_CLOCK_MAGIC then UI32 kernel, hz low, hz high, inside one frame. Returns 1 and
 * sets *kernel, *hz (non-zero) for the first one found, else 0. Bounded: n bytes, no allocation. */
int rkh_clock_scan(const uint8_t *b, size_t n, uint32_t *kernel, uint64_t *hz);

#endif
