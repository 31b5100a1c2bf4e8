/* ETW test helpers shared by the recorder's multithreaded tests: the classic event header of a
 * traced-GUID event whose payload is two MOF fields given by pointer (EVENT_TRACE_HEADER,
 * 48 bytes, plus two 16-byte MOF_FIELD entries: /work/shared/formats/etw.md). */
#ifndef EVT_ETW_TEST_H
#define EVT_ETW_TEST_H

#include <string.h>
#include "evtrace/etw.h"

/* Fill *h: type 10, level 4, the given GUID, two MOF fields by pointer. */
static inline void evt_etw_test_header2(evt_etw_trace_header *h, const evt_etw_guid *guid)
{
    memset(h, 0, sizeof *h);
    h->size = 48 + 2 * 16;
    h->type = 10;
    h->level = 4;
    h->guid = *guid;
    h->flags = ETW_WNODE_FLAG_TRACED_GUID | ETW_WNODE_FLAG_USE_MOF_PTR;
}

#endif
