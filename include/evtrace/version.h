/* evtrace version. */
#ifndef EVTRACE_VERSION_H
#define EVTRACE_VERSION_H
#define EVT_VERSION_MAJOR 0
#define EVT_VERSION_MINOR 1
#define EVT_VERSION_PATCH 0
#define EVT_VERSION_STRING "0.1.0"
#endif
