/* Recording the generic kernel hooks (evtrace/hooks.h) in a test, through either backend into
 * memory, on the test counter clock (evt_counter_clock.h): a TXTB snapshot buffer, or an RKH stream
 * (1 kHz timestamps, hook.kernel_info first) captured by a sink. The script calls the backend's
 * evt_txtb_hook_* / evt_rkh_hook_*; the check then reads the bytes (fmt: the reader expected). */
#ifndef EVT_HOOKS_TEST_H
#define EVT_HOOKS_TEST_H

#include <stddef.h>
#include <stdint.h>
#include "evtrace/hooks_backends.h"

typedef void (*evt_hooks_test_script)(void);
typedef void (*evt_hooks_test_check)(const uint8_t *p, size_t n, const char *fmt);

/* Run script with the TXTB backend enabled (kernel profile `kernel`, EVT_HOOK_KERNEL_*; 8 registry
 * entries, 16 KiB), then check(buffer, "threadx"). Fails the test if the backend cannot start. */
void evt_hooks_test_txtb(uint32_t kernel, evt_hooks_test_script script, evt_hooks_test_check check);
/* Run script with the RKH backend attached (profile `kernel`), then check(stream, "rkh"). Fails the
 * test if the stream outgrew its 64 KiB. */
void evt_hooks_test_rkh(uint32_t kernel, evt_hooks_test_script script, evt_hooks_test_check check);

#endif
