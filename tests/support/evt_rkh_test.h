/* Test helpers for the RKH recorder tests: an output buffer a sink appends to (preallocated, so
 * the sink is async-signal-safe: a signal handler's record may reach it), and a decode of a
 * recorded stream with the host reader that counts data records, loss records and the lost count
 * the reader reports. */
#ifndef EVT_RKH_TEST_H
#define EVT_RKH_TEST_H

#include <stddef.h>
#include <stdint.h>
#include "evtrace/rkh.h"
#include "formats/rkh/rkh_defs.h"

typedef struct evt_rkh_test_buf {
    uint8_t *p;
    size_t n, cap;
    int overflow; /* a sink call did not fit (the test must fail) */
} evt_rkh_test_buf;

/* One record of shape kind % 3 from tag, through the public API (inline: compiled with the
 * caller's switches): 0 SM_STATE (begin_ao, priority 1, two pointers, the first with bytes that
 * need stuffing), 1 a user record (RKH_TE_USER + 3: an integer and 1-24 bytes, half of them 0x7E),
 * 2 FWK_OBJ (begin_nofilt: a pointer and a string that needs stuffing). Returns 1 when written, 0
 * when begin refused it (filtered, or dropped and counted). EVT_RKH_TEST_ID(kind): its RKH id. */
#define EVT_RKH_TEST_ID(kind) ((kind) % 3u == 0u ? RKH_TE_SM_STATE : (kind) % 3u == 1u ? RKH_TE_USER + 3u : RKH_TE_FWK_OBJ)
static inline int evt_rkh_test_record(evt_rkh_recorder *r, unsigned kind, uint32_t tag)
{
    switch (kind % 3u) {
    case 0:
        if (!evt_rkh_begin_ao(r, RKH_TE_SM_STATE, 1)) return 0;
        evt_rkh_sym(r, 0x7E7D0000u | (tag & 0xFFFFu));
        evt_rkh_sym(r, tag);
        break;
    case 1: {
        uint8_t mem[24];
        unsigned n = 1u + tag % 24u;
        for (unsigned i = 0; i < n; i++) mem[i] = (uint8_t)(i & 1u ? 0x7Eu : tag + i);
        if (!evt_rkh_begin(r, RKH_TE_USER + 3u)) return 0;
        evt_rkh_usr_int(r, 5, 0, tag);
        evt_rkh_usr_mem(r, mem, (uint8_t)n);
        break;
    }
    default:
        if (!evt_rkh_begin_nofilt(r, RKH_TE_FWK_OBJ)) return 0;
        evt_rkh_sym(r, tag);
        evt_rkh_str(r, "obj~}");
        break;
    }
    evt_rkh_end(r);
    return 1;
}

/* cap bytes, allocated now (aborts if it cannot). */
void evt_rkh_test_buf_init(evt_rkh_test_buf *b, size_t cap);
void evt_rkh_test_buf_free(evt_rkh_test_buf *b);
/* An evt_rkh_sink_fn: user is an evt_rkh_test_buf. No allocation, no libc call but memcpy. */
void evt_rkh_test_sink(void *user, const uint8_t *p, uint32_t n);
/* Append bytes (drains by the caller). */
void evt_rkh_test_buf_add(evt_rkh_test_buf *b, const uint8_t *p, size_t n);
/* A streamed recorder on ring[size] with RKH's template configuration and time source ts at hz,
 * its sink appending to out (initialised here with cap bytes). Compiled with the default switches:
 * not for the switch variants of tests/formats/rkh/switches.cmake (their recorder's layout differs). */
void evt_rkh_test_streamed(evt_rkh_recorder *r, uint8_t *ring, uint32_t size, evt_rkh_ts_fn ts, uint32_t hz,
                           evt_rkh_test_buf *out, size_t cap);
/* A recorder time source: CLOCK_MONOTONIC in µs (1 MHz), async-signal-safe. */
uint32_t evt_rkh_test_clock_us(void);

typedef struct evt_rkh_decoded {
    uint64_t data;         /* events that are records of the recorder's callers (not TCFG, not loss) */
    uint64_t loss_records; /* EVTRACE_LOST records decoded */
    uint64_t lost;         /* the reader's `lost` (sum of the lost events' counts) */
    uint64_t errors;       /* the reader's error count */
    uint64_t by_id[256];   /* data events per RKH id */
} evt_rkh_decoded;

/* Decode p[0..n) as an RKH stream. Returns 0, or -1 if the reader could not open it. */
int evt_rkh_test_decode(const uint8_t *p, size_t n, evt_rkh_decoded *out);

#endif
