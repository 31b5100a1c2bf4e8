/* ETW recorder internals shared by its objects (etw_enc.c, etw_ctl_enc.c); not a public API. */
#ifndef EVTRACE_ETW_ENC_INT_H
#define EVTRACE_ETW_ENC_INT_H

#include "evtrace/etw.h"

/* Data records written into THREAD_OWNED slots so far (each slot's counter, relaxed loads); 0
 * when that mode is compiled out. */
evt_rec_count evt_etw_owned_written_(const evt_etw_session *s);

#endif
