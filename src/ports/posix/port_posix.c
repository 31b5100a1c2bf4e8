/* POSIX port state: the recorder lock and per-thread flags. */
#include "evtrace/port.h"

#include <pthread.h>

atomic_flag evt_posix_lock = ATOMIC_FLAG_INIT;
_Thread_local int evt_posix_in_isr;
_Thread_local unsigned evt_posix_crit_depth;

uintptr_t evt_posix_context_id(void) { return (uintptr_t)pthread_self(); }
