/* RKH-stream backend of the generic kernel hooks (include/evtrace/hooks.h): every hook becomes
 * one RKH user record, so hooks travel live over a byte link (UART, TCP) in RKH framing -- flag
 * bytes to resynchronise after damage, a checksum per record, a sequence number to count what
 * the link lost -- and any RKH stream reader decodes them. Build with EVT_CFG_HOOKS_BACKEND=rkh.
 *
 * Record ids: user event n = RKH_TE_USER + n, named by FWK_TUSR symbol records that
 * evt_rkh_hooks_attach() writes ("hook.thread_in", ...). Thread and object handles are OBJ fields,
 * named by the FWK_OBJ records obj_create writes. Record layouts: rkh_hooks_defs.h. */
#ifndef EVT_RKH_HOOKS_H
#define EVT_RKH_HOOKS_H

#include <stdint.h>
#include "evtrace/hooks.h"
#include "evtrace/rkh.h"
#include "formats/rkh/rkh_hooks_defs.h"

/* Make r (initialised with evt_rkh_init) the recorder the hooks write to: enables the hook user
 * records in its filters and writes their FWK_TUSR names, then attaches (hooks record from then
 * on, all of them). Call from a normal context. NULL detaches (hooks then record nothing). */
void evt_rkh_hooks_attach(evt_rkh_recorder *r);

/* Record the stream's timestamp rate (Hz, 64-bit) and kernel profile (EVT_HOOK_KERNEL_*) as one
 * hook.clock record (rkh_hooks_defs.h), so the reader needs no --clock-hz and no --kernel. Call
 * right after evt_rkh_hooks_attach (the reader looks for it in the stream's first 8 KiB). hz 0:
 * nothing is written. rkh_clock_enc.c: a recorder that never calls it links none of it. */
void evt_rkh_hooks_clock(uint32_t kernel, uint64_t hz);

#endif
