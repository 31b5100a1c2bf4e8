/* RKH recorder test helpers: a preallocated sink buffer and a counting decode (evt_rkh_test.h). */
#include "evt_rkh_test.h"
#include <time.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evtrace/reader.h"

void evt_rkh_test_buf_init(evt_rkh_test_buf *b, size_t cap)
{
    b->p = malloc(cap ? cap : 1);
    if (!b->p) { fprintf(stderr, "evt_rkh_test_buf_init: out of memory (%zu bytes)\n", cap); abort(); }
    b->n = 0;
    b->cap = cap;
    b->overflow = 0;
}

void evt_rkh_test_streamed(evt_rkh_recorder *r, uint8_t *ring, uint32_t size, evt_rkh_ts_fn ts, uint32_t hz,
                           evt_rkh_test_buf *out, size_t cap)
{
    evt_rkh_test_buf_init(out, cap);
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    evt_rkh_init(r, &c, ring, size, ts, hz);
    evt_rkh_set_sink(r, evt_rkh_test_sink, out);
}

void evt_rkh_test_buf_free(evt_rkh_test_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
}

void evt_rkh_test_buf_add(evt_rkh_test_buf *b, const uint8_t *p, size_t n)
{
    if (n > b->cap - b->n) { b->overflow = 1; return; }
    memcpy(b->p + b->n, p, n);
    b->n += n;
}

void evt_rkh_test_sink(void *user, const uint8_t *p, uint32_t n) { evt_rkh_test_buf_add(user, p, n); }

int evt_rkh_test_decode(const uint8_t *p, size_t n, evt_rkh_decoded *out)
{
    memset(out, 0, sizeof *out);
    char err[256];
    evt_reader *r;
    if (evt_reader_open_mem(p, n, "rkh", NULL, NULL, NULL, &r, err, sizeof err) != EVT_OK) {
        fprintf(stderr, "evt_rkh_test_decode: %s\n", err);
        return -1;
    }
    evt_event ev;
    while (evt_reader_next(r, &ev) == EVT_OK) {
        if (ev.kind == EVT_KIND_LOST) {
            if (ev.id == 0xBFu) out->loss_records++;
            continue;
        }
        if (ev.id == 0xACu) continue; /* TCFG */
        out->data++;
        out->by_id[ev.id & 255u]++;
    }
    out->lost = r->lost;
    out->errors = r->errors;
    evt_reader_close(r);
    return 0;
}

uint32_t evt_rkh_test_clock_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint32_t)((uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u);
}
