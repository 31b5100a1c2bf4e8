/* Names and messages of evt_status, generated from the table in status.h. */
#include "evtrace/status.h"

const char *evt_status_name(evt_status s)
{
    switch (s) {
#define EVT_STATUS_NAME_(name, value, msg) case name: return #name;
        EVT_STATUS_TABLE(EVT_STATUS_NAME_)
#undef EVT_STATUS_NAME_
    }
    return "EVT_UNKNOWN_STATUS";
}

const char *evt_status_message(evt_status s)
{
    switch (s) {
#define EVT_STATUS_MSG_(name, value, msg) case name: return msg;
        EVT_STATUS_TABLE(EVT_STATUS_MSG_)
#undef EVT_STATUS_MSG_
    }
    return "unknown status";
}
