/* ETW test helpers shared by the recorder's tests: the classic event header of a traced-GUID
 * event whose payload is two MOF fields given by pointer (EVENT_TRACE_HEADER, 48 bytes, plus two
 * 16-byte MOF_FIELD entries: /work/shared/formats/etw.md) or a flat payload; a session's
 * configuration. */
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

/* Fill *h: type 10, the given GUID, a flat payload of `payload` bytes after the header. */
static inline void evt_etw_test_header_flat(evt_etw_trace_header *h, const evt_etw_guid *guid, uint32_t payload)
{
    memset(h, 0, sizeof *h);
    h->size = (uint16_t)(48u + payload);
    h->type = 10;
    h->guid = *guid;
    h->flags = ETW_WNODE_FLAG_TRACED_GUID;
}

/* A POSIX session's configuration for the multithreaded tests: `buffers` slots of `buffer_size`
 * in slot mode `per_thread`, written through `write` (user NULL); a circular file of
 * `max_file_buffers` (header included) when that is non-zero, else sequential; POSIX thread and
 * process ids and the writers' barrier. */
static inline void evt_etw_test_config(evt_etw_session_config *c, int per_thread, uint32_t buffer_size,
                                       uint32_t buffers, uint32_t max_file_buffers,
                                       int (*write)(void *, uint64_t, const void *, uint32_t))
{
    memset(c, 0, sizeof *c);
    c->buffer_size = buffer_size;
    c->buffers = buffers;
    c->per_thread = per_thread;
    c->log_file_mode = max_file_buffers ? ETW_FILE_MODE_CIRCULAR : ETW_FILE_MODE_SEQUENTIAL;
    c->max_file_buffers = max_file_buffers;
    c->write = write;
    c->thread_id = evt_etw_posix_thread_id;
    c->process_id = evt_etw_posix_process_id;
    c->sync_writers = evt_etw_posix_sync_writers;
}

#endif
