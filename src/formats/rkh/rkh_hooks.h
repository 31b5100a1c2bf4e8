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
#include "evtrace/hooks_backends.h" /* the public start calls */
#include "evtrace/rkh.h"
#include "formats/rkh/rkh_hooks_defs.h"

#endif
