/* Forwarding header: the ETW layouts and constants live in include/evtrace/etw_defs.h (installed
 * with the public recorder header evtrace/etw.h, which needs them). One source of truth. */
#include "evtrace/etw_defs.h"
