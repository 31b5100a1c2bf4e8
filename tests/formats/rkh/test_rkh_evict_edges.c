/* RKH recorder, eviction edge cases found by an outside stress run (small rings, drains, records
 * larger than the ring), each reduced to a deterministic sequence. Every case decodes the whole
 * stream (drained bytes first, then the ring after evt_rkh_flush) with the host reader: no reader
 * error, data records + reported lost == issued.
 *  - A record larger than the ring evicts everything older, including the rest of a record whose
 *    start a drain took: the abort escape R2b writes before the next flag must survive the
 *    discarded record (it used to be dropped with it: the reader decoded the truncated frame).
 *  - A loss record evicted (whole, or its rest after a drain took its start) with no data record
 *    after it: the next flush writes a loss record even with nothing pending, carrying the
 *    running total (R4; it used to write none, and the ring reported no loss at all). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "evt_counter_clock.h"
#include "evt_rkh_test.h"
#include "evtrace/rkh.h"
#include "formats/rkh/rkh_defs.h"

static evt_rkh_recorder g_r;
static uint8_t g_ring[256];
static evt_rkh_test_buf g_out;
static unsigned g_issued;
static evt_rkh_config g_cfg;
#define ANY UINT64_MAX /* check's want_data: any count (the sum is still exact) */

static void start(uint32_t ring_size)
{
    evt_rkh_config_default(&g_cfg);
    evt_test_ticks = 0;
    g_issued = 0;
    evt_rkh_test_buf_free(&g_out);
    evt_rkh_test_buf_init(&g_out, 1u << 16);
    evt_rkh_init(&g_r, &g_cfg, g_ring, ring_size, evt_test_clock32, 1000000u);
    evt_rkh_filter_all(&g_r, 1);
}

/* Drain up to n bytes into the output (the reader's view of the stream). */
static void drain(uint32_t n)
{
    uint8_t tmp[512];
    while (n) {
        uint32_t k = evt_rkh_get_whole_block(&g_r, tmp, n < sizeof tmp ? n : (uint32_t)sizeof tmp);
        if (!k) break;
        evt_rkh_test_buf_add(&g_out, tmp, k);
        n -= k;
    }
}

/* SM_STATE (2 pointers: 15 bytes and the flag with the default configuration) or SM_TRN (3). */
static void rec(unsigned nptr)
{
    g_issued++;
    if (!evt_rkh_begin_ao(&g_r, nptr == 3u ? RKH_TE_SM_TRN : RKH_TE_SM_STATE, 1)) return;
    for (unsigned i = 0; i < nptr; i++) evt_rkh_sym(&g_r, 0x20001000u + g_issued);
    evt_rkh_end(&g_r);
}

/* A record with a nested begin (what a handler does mid-record): one written, one dropped. */
static void rec_with_drop(void)
{
    g_issued += 2;
    assert_true(evt_rkh_begin_ao(&g_r, RKH_TE_SM_STATE, 1));
    assert_false(evt_rkh_begin_ao(&g_r, RKH_TE_SM_STATE, 1));
    evt_rkh_sym(&g_r, 0x20001000u);
    evt_rkh_sym(&g_r, 0x20002000u);
    evt_rkh_end(&g_r);
}

/* A user record of 200 bytes: larger than the ring, discarded at end and counted dropped. */
static void rec_too_large(void)
{
    static const uint8_t mem[200];
    g_issued++;
    assert_true(evt_rkh_begin(&g_r, RKH_TE_USER));
    evt_rkh_usr_mem(&g_r, mem, sizeof mem);
    evt_rkh_end(&g_r);
}

/* Flush, drain the rest, decode: exact, without reader errors, want_data data records (or ANY). with_tcfg: the ring's TCFG was
 * evicted before any drain: a fresh recorder's TCFG first tells the reader the configuration. */
static void check(const char *what, int with_tcfg, uint64_t want_data)
{
    evt_rkh_flush(&g_r);
    drain(~0u);
    const uint8_t *p = g_out.p;
    size_t n = g_out.n;
    evt_rkh_test_buf all;
    evt_rkh_test_buf_init(&all, 1u << 16);
    if (with_tcfg) {
        evt_rkh_recorder cfg_rec;
        uint8_t cfg_ring[64];
        evt_rkh_init(&cfg_rec, &g_cfg, cfg_ring, sizeof cfg_ring, evt_test_clock32, 1000000u);
        all.n = evt_rkh_get_whole_block(&cfg_rec, all.p, (uint32_t)all.cap);
        evt_rkh_test_buf_add(&all, g_out.p, g_out.n);
        p = all.p;
        n = all.n;
    }
    evt_rkh_decoded d;
    assert_int_equal(evt_rkh_test_decode(p, n, &d), 0);
    evt_rec_stats s;
    evt_rkh_get_stats(&g_r, &s);
    if (d.errors || d.data + d.lost != g_issued || (want_data != ANY && d.data != want_data) || s.pending ||
        s.written + s.dropped != g_issued || d.lost != s.lost_reported)
        fail_msg("%s: errors %llu, decoded %llu (want %llu) + lost %llu vs issued %u; recorder lost %llu, "
                 "pending %llu", what, (unsigned long long)d.errors, (unsigned long long)d.data,
                 (unsigned long long)want_data, (unsigned long long)d.lost, g_issued,
                 (unsigned long long)s.lost_reported, (unsigned long long)s.pending);
    evt_rkh_test_buf_free(&all);
}

/* A drain takes TCFG and the first `take` bytes of a record (flag included); a record larger
 * than the ring then evicts the record's rest: the reader must see escape + flag (an aborted
 * frame), not the truncated frame. Every cut point inside the record. */
static void test_too_large_after_partial_drain(void **st)
{
    (void)st;
    for (uint32_t take = 1; take <= 16; take++) {
        char what[64];
        snprintf(what, sizeof what, "too large after a drain of %u bytes", (unsigned)take);
        start(64);
        drain(~0u); /* the initial flag and TCFG */
        rec(2);     /* 15 bytes and its flag */
        drain(take);
        rec_too_large();
        check(what, 0, take >= 15u ? 1u : 0u); /* all but the flag drained: the frame is whole */
    }
}

/* The same with a loss record among the records a drain cuts: every cut point. */
static void test_too_large_after_partial_loss_record(void **st)
{
    (void)st;
    for (uint32_t take = 1; take <= 40; take++) {
        char what[64];
        snprintf(what, sizeof what, "loss record, drain of %u bytes", (unsigned)take);
        start(64);
        drain(~0u);
        rec_with_drop(); /* the loss record comes before the next record */
        rec(2);
        drain(take);
        rec_too_large();
        check(what, 0, ANY);
    }
}

/* One record of kind k: 0..2 a record of k + 1 pointers (SM_EVT_PROC, SM_STATE, SM_TRN: 11, 15,
 * 19 bytes and the flag), 3 one larger than the ring, 4 one with a nested begin (dropped). */
static void rec_kind(unsigned k)
{
    if (k < 3u) {
        g_issued++;
        static const unsigned ids[3] = {RKH_TE_SM_EVT_PROC, RKH_TE_SM_STATE, RKH_TE_SM_TRN};
        if (!evt_rkh_begin_ao(&g_r, ids[k], 1)) return;
        for (unsigned i = 0; i <= k; i++) evt_rkh_sym(&g_r, 0x20001000u + g_issued);
        evt_rkh_end(&g_r);
    } else if (k == 3u) {
        rec_too_large();
    } else {
        rec_with_drop();
    }
}

/* Flight ring: a record larger than the ring empties it, the next record writes the loss record
 * at the head, and the record after it evicts the loss record alone (a record makes 52 bytes of
 * 80 free first: the open room, 32, and a quarter of the ring). The flush must write a loss record
 * again (nothing is pending): without one the ring reported no loss. Then every sequence of 6
 * record kinds in rings of 64, 65, 80, 100 and 127. */
static void test_flight_loss_record_evicted_alone(void **st)
{
    (void)st;
    start(80);
    rec_kind(3); /* evicts everything, dropped */
    rec_kind(1); /* the loss record, then this one */
    rec_kind(0); /* evicts the loss record only */
    check("loss record evicted alone", 1, 2u);
    static const uint32_t sizes[] = {64, 65, 80, 100, 127};
    for (unsigned z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (unsigned code = 0; code < 5u * 5u * 5u * 5u * 5u * 5u; code++) {
            char what[64];
            snprintf(what, sizeof what, "ring %u, sequence %u", (unsigned)sizes[z], code);
            start(sizes[z]);
            for (unsigned x = code, i = 0; i < 6u; i++, x /= 5u) rec_kind(x % 5u);
            check(what, 1, ANY);
        }
}

/* Drained ring: a drain takes the start of the last loss record (or any other cut point), the
 * next records' room evicts its rest (R2b: an aborted frame), with or without data records: the
 * flush writes the total again when no loss record reached the reader whole. */
static void test_drained_loss_record_cut(void **st)
{
    (void)st;
    for (uint32_t size = 64; size <= 100; size += 36)
        for (unsigned more = 1; more <= 3; more++)
            for (uint32_t take = 1; take <= 48; take++) {
                char what[80];
                snprintf(what, sizeof what, "ring %u, drain of %u bytes, %u records after", (unsigned)size,
                         (unsigned)take, more);
                start(size);
                drain(~0u);
                rec_with_drop();
                rec(2); /* the loss record, then this one */
                drain(take);
                for (unsigned i = 0; i < more; i++) rec(2u + (i & 1u));
                check(what, 0, ANY);
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_too_large_after_partial_drain),
        cmocka_unit_test(test_too_large_after_partial_loss_record),
        cmocka_unit_test(test_flight_loss_record_evicted_alone),
        cmocka_unit_test(test_drained_loss_record_cut),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    evt_rkh_test_buf_free(&g_out);
    return rc;
}
