/* RKH recorder, flight ring eviction: records of varying length (one to three fields, symbol
 * records with names, user records with stuffed bytes), nested begins that are dropped (so loss
 * records sit in the ring and get evicted too), with and without sequence numbers and checksum,
 * in rings of several sizes wrapped many times. After a flush the ring (after a TCFG record of the
 * same configuration: the ring's own was evicted) decodes without error to
 * exactly what was issued (data records + reported losses), and the recorder's overwrite count
 * is the records written and not decoded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include "evt_counter_clock.h"
#include "evt_rkh_test.h"
#include "evt_test.h"
#include "evtrace/rkh.h"
#include "formats/rkh/rkh_defs.h"

static evt_rkh_recorder g_r;
static uint8_t g_ring[16384];
static evt_rkh_test_buf g_out;

/* One record of a kind picked by x; returns the records issued (a dropped nested one included). */
static unsigned one_record(uint32_t x, unsigned i)
{
    static const char *const names[] = {"a", "blinky", "&RKH_UPCAST(RKH_SMA_T, me)->equeue", ""};
    switch ((x >> 8) % 8u) {
    case 0:
    case 1:
    case 2: /* the usual 2-field record; stuffed bytes now and then */
        if (!evt_rkh_begin_ao(&g_r, RKH_TE_SM_STATE, 1)) return 1;
        evt_rkh_sym(&g_r, (x & 0x100u) ? 0x7E7D0000u + i : 0x20001000u);
        evt_rkh_sym(&g_r, 0x20002000u + (i & 0xFFu));
        evt_rkh_end(&g_r);
        return 1;
    case 3: /* three fields */
        if (!evt_rkh_begin_ao(&g_r, RKH_TE_SM_TRN, 1)) return 1;
        evt_rkh_sym(&g_r, 0x20001000u);
        evt_rkh_sym(&g_r, x);
        evt_rkh_sym(&g_r, i);
        evt_rkh_end(&g_r);
        return 1;
    case 4: /* one field */
        if (!evt_rkh_begin_ao(&g_r, RKH_TE_SM_EVT_PROC, 1)) return 1;
        evt_rkh_sym(&g_r, x ^ i);
        evt_rkh_end(&g_r);
        return 1;
    case 5: /* a symbol record with a name of 0..34 characters */
        evt_rkh_sym_obj(&g_r, 0x30000000u + i, names[(x >> 12) % 4u]);
        return 1;
    case 6: /* a user record: an integer field, a string, bytes to stuff */
        if (!evt_rkh_begin(&g_r, RKH_TE_USER + 1u)) return 1;
        evt_rkh_usr_int(&g_r, 3u, 0u, x); /* U32 */
        evt_rkh_usr_str(&g_r, names[(x >> 14) % 4u]);
        {
            const uint8_t mem[5] = {0x7E, 0x7D, (uint8_t)i, (uint8_t)x, 0x7E};
            evt_rkh_usr_mem(&g_r, mem, (uint8_t)((x >> 16) % 6u));
        }
        evt_rkh_end(&g_r);
        return 1;
    default: /* a begin nested in an open record (a handler would do it): dropped, counted */
        if (!evt_rkh_begin_ao(&g_r, RKH_TE_SM_STATE, 1)) return 1;
        assert_false(evt_rkh_begin_ao(&g_r, RKH_TE_SM_STATE, 1));
        evt_rkh_sym(&g_r, 0x20001000u);
        evt_rkh_sym(&g_r, i);
        evt_rkh_end(&g_r);
        return 2;
    }
}

/* A fresh recorder on g_ring: RKH's template configuration less flags_off, every record emitted,
 * the counter clock from 0. */
static void start(evt_rkh_config *c, uint32_t flags_off, uint32_t ring_size)
{
    evt_rkh_config_default(c);
    c->flags &= ~flags_off;
    evt_test_ticks = 0;
    evt_rkh_init(&g_r, c, g_ring, ring_size, evt_test_clock32, 1000000u);
    evt_rkh_filter_all(&g_r, 1);
}

/* Flush the ring and decode it. Its TCFG record was evicted: the same configuration's TCFG first,
 * from a fresh recorder, tells the reader the configuration (the ring's bytes start at a flag). */
static void flush_and_decode(const evt_rkh_config *c, evt_rkh_decoded *d)
{
    evt_rkh_flush(&g_r);
    evt_rkh_test_buf_free(&g_out);
    evt_rkh_test_buf_init(&g_out, 1u << 16);
    evt_rkh_recorder cfg_rec;
    uint8_t cfg_ring[64];
    evt_rkh_init(&cfg_rec, c, cfg_ring, sizeof cfg_ring, evt_test_clock32, 1000000u);
    g_out.n = evt_rkh_get_whole_block(&cfg_rec, g_out.p, (uint32_t)g_out.cap);
    assert_true(g_out.n > 14u);
    g_out.n += evt_rkh_get_whole_block(&g_r, g_out.p + g_out.n, (uint32_t)(g_out.cap - g_out.n));
    assert_int_equal(evt_rkh_test_decode(g_out.p, g_out.n, d), 0);
}

static void run(uint32_t flags_off, uint32_t ring_size, unsigned records, uint32_t seed)
{
    evt_rkh_config c;
    start(&c, flags_off, ring_size);
    uint64_t issued = 0;
    uint32_t x = seed;
    for (unsigned i = 0; i < records; i++) {
        x = x * 1103515245u + 12345u;
        issued += one_record(x, i);
    }
    evt_rkh_decoded d;
    flush_and_decode(&c, &d);
    evt_rec_stats s;
    evt_rkh_get_stats(&g_r, &s);
    if (d.errors || d.data + d.lost != issued || s.overwritten != s.written - d.data || s.pending)
        fail_msg("flags off 0x%X, ring %u, seed %u: errors %llu, decoded %llu + lost %llu vs issued %llu; "
                 "written %llu, overwritten %llu, dropped %llu, pending %llu",
                 (unsigned)flags_off, (unsigned)ring_size, (unsigned)seed, (unsigned long long)d.errors,
                 (unsigned long long)d.data, (unsigned long long)d.lost, (unsigned long long)issued,
                 (unsigned long long)s.written, (unsigned long long)s.overwritten,
                 (unsigned long long)s.dropped, (unsigned long long)s.pending);
    assert_true(s.overwritten > 0); /* the ring wrapped */
    assert_true(s.dropped > 0);     /* and loss records were written */
    assert_int_equal(s.written + s.dropped, issued);
}

/* The smallest data records (a user record without fields: id, seq, the timestamp and the
 * checksum as configured, and its flag) in a ring large enough for the largest eviction batch
 * (1024 bytes): a batch then holds as many records as evict_by_seq's sequence-number window
 * allows (255 * the smallest record's bytes), and a window one record too wide would count a
 * batch of 256 as 0. Exact: decoded + lost = issued, the recorder's overwritten = written -
 * decoded. */
static void run_smallest(uint32_t flags_off, uint32_t ring_size)
{
    evt_rkh_config c;
    start(&c, flags_off, ring_size);
    const unsigned records = 20000;
    for (unsigned i = 0; i < records; i++) {
        assert_true(evt_rkh_begin(&g_r, RKH_TE_USER));
        evt_rkh_end(&g_r);
    }
    evt_rkh_decoded d;
    flush_and_decode(&c, &d);
    evt_rec_stats s;
    evt_rkh_get_stats(&g_r, &s);
    if (d.errors || d.data + d.lost != records || s.overwritten != s.written - d.data || s.pending ||
        s.written != records || d.data < ring_size / 2u / 8u) /* 3/4 of the ring, less stuffing and loss records */
        fail_msg("smallest records, flags off 0x%X, ring %u: errors %llu, decoded %llu + lost %llu vs issued %u; "
                 "written %llu, overwritten %llu, pending %llu", (unsigned)flags_off, (unsigned)ring_size,
                 (unsigned long long)d.errors, (unsigned long long)d.data, (unsigned long long)d.lost, records,
                 (unsigned long long)s.written, (unsigned long long)s.overwritten, (unsigned long long)s.pending);
}

static void test_flight_smallest_records(void **st)
{
    (void)st;
    static const uint32_t sizes[] = {4096, 5000, 16384};
    for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        run_smallest(0, sizes[k]);                                                   /* 8 bytes */
        run_smallest(EVT_RKH_F_TRC_CHK_EN, sizes[k]);                                /* 7 */
        run_smallest(EVT_RKH_F_TRC_TSTAMP_EN, sizes[k]);                             /* 4 */
        run_smallest(EVT_RKH_F_TRC_TSTAMP_EN | EVT_RKH_F_TRC_CHK_EN, sizes[k]);      /* 3 */
    }
}

static const uint32_t g_sizes[] = {128, 300, 1000, 4096};

static void test_flight_default(void **st)
{
    (void)st;
    for (unsigned k = 0; k < sizeof g_sizes / sizeof g_sizes[0]; k++)
        for (uint32_t seed = 1; seed <= 3; seed++) run(0, g_sizes[k], 6000, seed);
}

static void test_flight_no_seq(void **st)
{
    (void)st;
    for (unsigned k = 0; k < sizeof g_sizes / sizeof g_sizes[0]; k++) run(EVT_RKH_F_TRC_NSEQ_EN, g_sizes[k], 6000, 7);
}

static void test_flight_bare(void **st)
{
    (void)st;
    const uint32_t off = EVT_RKH_F_TRC_TSTAMP_EN | EVT_RKH_F_TRC_CHK_EN;
    for (unsigned k = 0; k < sizeof g_sizes / sizeof g_sizes[0]; k++) run(off, g_sizes[k], 6000, 11);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flight_default),
        cmocka_unit_test(test_flight_no_seq),
        cmocka_unit_test(test_flight_bare),
        cmocka_unit_test(test_flight_smallest_records),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    evt_rkh_test_buf_free(&g_out);
    return rc;
}
