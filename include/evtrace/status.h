/* evtrace status codes: one X-macro table gives the enum, the names and the messages. */
#ifndef EVTRACE_STATUS_H
#define EVTRACE_STATUS_H

/*        name                 value  message */
#define EVT_STATUS_TABLE(X)                                                        \
    X(EVT_OK,                    0,  "success")                                     \
    X(EVT_END,                   1,  "end of trace")                                \
    X(EVT_ERR_USAGE,            -1,  "invalid argument")                            \
    X(EVT_ERR_IO,               -2,  "input/output error")                          \
    X(EVT_ERR_NOMEM,            -3,  "out of memory")                               \
    X(EVT_ERR_FORMAT,           -4,  "unrecognised or unsupported format")          \
    X(EVT_ERR_TRUNCATED,        -5,  "input truncated")                             \
    X(EVT_ERR_CORRUPT,          -6,  "input corrupt")                               \
    X(EVT_ERR_SIZE,             -7,  "buffer too small")                            \
    X(EVT_ERR_STATE,            -8,  "operation not allowed in this state")         \
    X(EVT_ERR_UNSUPPORTED,      -9,  "not supported")

typedef enum evt_status {
#define EVT_STATUS_ENUM_(name, value, msg) name = value,
    EVT_STATUS_TABLE(EVT_STATUS_ENUM_)
#undef EVT_STATUS_ENUM_
} evt_status;

/* Name ("EVT_ERR_IO") and message of a status; never NULL. Host library only. */
const char *evt_status_name(evt_status s);
const char *evt_status_message(evt_status s);

#endif
