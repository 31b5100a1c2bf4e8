/* Out-of-tree program built against the installed recorder library (tests/install): records a
 * small ThreadX trace buffer (TXTB) with a registered thread and EVENTS user events, then writes
 * the buffer to the file named on the command line. consumer_host reads it back.
 * Usage: consumer_recorder OUT.trx */
#include <stdint.h>
#include <stdio.h>

#include <evtrace/txtb.h>

#include "consumer_script.h"

#define REGISTRY_ENTRIES 4u
#define EVENT_SLOTS      64u   /* more than the 2 RUNNING events enable writes + EVENTS */

/* TXTB layout: 48-byte header, 48-byte registry entries (32-byte names), 32-byte event slots. */
static uint8_t trace_buf[48u + 48u * REGISTRY_ENTRIES + 32u * EVENT_SLOTS];
static int worker_thread;   /* stands for a thread control block: only its address is recorded */

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUT.trx\n", argv[0]);
        return 2;
    }
    if (evt_tx_trace_enable(trace_buf, sizeof trace_buf, REGISTRY_ENTRIES) != EVT_TX_SUCCESS) {
        fprintf(stderr, "consumer_recorder: evt_tx_trace_enable failed\n");
        return 1;
    }
    evt_tx_trace_thread_register(&worker_thread, CONSUMER_THREAD_NAME, 0, 0, 10);
    for (uint32_t i = 0; i < CONSUMER_EVENTS; i++)
        evt_tx_trace_user_event_insert(CONSUMER_EVENT_ID0 + i, i, i * i, CONSUMER_MAGIC, 0);
    evt_tx_trace_disable();

    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(trace_buf, 1, sizeof trace_buf, f) != sizeof trace_buf || fclose(f) != 0) {
        fprintf(stderr, "consumer_recorder: cannot write %s\n", argv[1]);
        return 1;
    }
    printf("consumer_recorder: wrote %u user events to %s\n", CONSUMER_EVENTS, argv[1]);
    return 0;
}
