/* ETW recorder internals shared by its objects (etw_enc.c, etw_ctl_enc.c); not a public API. */
#ifndef EVTRACE_ETW_ENC_INT_H
#define EVTRACE_ETW_ENC_INT_H

#include "evtrace/etw.h"

/* Data records written into THREAD_OWNED slots so far (each slot's counter, relaxed loads); 0
 * when that mode is compiled out. */
evt_rec_count evt_etw_owned_written_(const evt_etw_session *s);

/* THREAD_OWNED: 1 if the caller is nested in a record of its own thread's slot (a signal handler
 * that interrupted it: that record holds the slot's guard until it ends); 0 otherwise, and in the
 * other slot modes. Any context. */
int evt_etw_own_record_open_(evt_etw_session *s);

#ifdef EVT_PORT_POSIX /* (evtrace/port.h included before this header) */
/* evt_etw_posix_thread_id's per-thread cache (src/ports/posix/etw_file.c): the thread's kernel id,
 * 0 until the hook ran once on the thread (and in a fork child). The record reads it inline when
 * cfg.thread_id is that hook. */
extern _Thread_local uint32_t evt_etw_posix_tid_;
#endif

#endif
