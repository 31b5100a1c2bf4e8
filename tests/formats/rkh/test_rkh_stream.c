/* RKH recorder, in whatever switch configuration it is compiled with (EVT_RKH_FAST, EVT_RKH_FLIGHT:
 * the default library build here, and the "small" build of switches.cmake, streamed only and
 * without fast paths): (1) a streamed recorder with a sink writes the same bytes record by record
 * as a reference encoder in this file (id, sequence number, 4-byte timestamp, arguments, checksum,
 * flag, stuffed), for arguments with and without bytes to stuff; (2) a ring read with the drain
 * calls that fills up loses records exactly as the build says: overwritten (flight ring) or
 * dropped (streamed only), and the drained stream decodes to data + lost == issued; (3) a record
 * larger than the ring is dropped and its sequence number given back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>
#include "evt_counter_clock.h"
#include "evt_rkh_test.h"
#include "evtrace/rkh.h"
#include "formats/rkh/rkh_defs.h"

static evt_rkh_recorder g_r;
static uint8_t g_ring[1024];
static evt_rkh_test_buf g_out;

static void start(uint32_t ring_size, int with_sink)
{
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    evt_test_ticks = 0;
    evt_rkh_test_buf_free(&g_out);
    evt_rkh_test_buf_init(&g_out, 1u << 20);
    evt_rkh_init(&g_r, &c, g_ring, ring_size, evt_test_clock32, 1000000u);
    evt_rkh_filter_all(&g_r, 1);
    if (with_sink) evt_rkh_set_sink(&g_r, evt_rkh_test_sink, &g_out);
}

/* ---- the reference encoder (RKH 3.4.00's framing, written independently of rkh_enc.c) ---------- */
typedef struct ref {
    uint8_t b[64];
    size_t n;
    uint8_t sum;
} ref;
static void ref_byte(ref *f, uint8_t v)
{
    f->sum = (uint8_t)(f->sum + v);
    if (v == 0x7Eu || v == 0x7Du) {
        f->b[f->n++] = 0x7Du;
        v = (uint8_t)(v ^ 0x20u);
    }
    f->b[f->n++] = v;
}
static void ref_u32(ref *f, uint32_t v)
{
    for (int i = 0; i < 4; i++) ref_byte(f, (uint8_t)(v >> (8 * i)));
}
/* id, seq, ts, a, b, checksum (stuffed), flag */
static void ref_record(ref *f, uint8_t id, uint8_t seq, uint32_t ts, uint32_t a, uint32_t b)
{
    f->n = 0;
    f->sum = 0;
    ref_byte(f, id);
    ref_byte(f, seq);
    ref_u32(f, ts);
    ref_u32(f, a);
    ref_u32(f, b);
    uint8_t c = (uint8_t)(0u - f->sum);
    ref_byte(f, c);
    f->b[f->n++] = 0x7Eu;
}

/* One SM_STATE record (ao, state); returns begin's result. */
static int state_rec(uint32_t ao, uint32_t st)
{
    if (!evt_rkh_begin_ao(&g_r, RKH_TE_SM_STATE, 1)) return 0;
    evt_rkh_sym(&g_r, ao);
    evt_rkh_sym(&g_r, st);
    evt_rkh_end(&g_r);
    return 1;
}

/* ---- 1. streamed, byte for byte ------------------------------------------------------------------ */
static void test_streamed_bytes(void **st)
{
    (void)st;
    start(sizeof g_ring, 1);
    size_t at = g_out.n; /* after the initial flag and TCFG */
    assert_true(at > 0);
    /* arguments and timestamps with 0x7D/0x7E in every byte position, and plain ones */
    static const uint32_t vals[] = {0x20001000u, 0x7E000000u, 0x007D0000u, 0x00007E00u, 0x0000007Du,
                                    0x7E7D7E7Du, 0x12345678u, 0xFFFFFFFFu, 0u, 0x7C7F7B80u};
    const size_t nv = sizeof vals / sizeof vals[0];
    for (unsigned k = 0; k < 600u; k++) {
        uint32_t a = vals[k % nv], b = vals[(k / nv) % nv] ^ k;
        evt_test_ticks = (uint64_t)vals[(k * 7u) % nv] + (k & 1u); /* the record's timestamp */
        uint32_t ts = (uint32_t)evt_test_ticks;
        assert_true(state_rec(a, b));
        ref f;
        ref_record(&f, RKH_TE_SM_STATE, (uint8_t)(k + 0u), ts, a, b);
        assert_true(g_out.n - at == f.n);
        if (memcmp(g_out.p + at, f.b, f.n) != 0) fail_msg("record %u differs from the reference", k);
        at = g_out.n;
    }
    evt_rec_stats s;
    evt_rkh_get_stats(&g_r, &s);
    assert_int_equal(s.written, 600);
    assert_int_equal(s.dropped + s.overwritten + s.pending, 0);
}

/* ---- 2. a drained ring that fills up --------------------------------------------------------- */
static void test_full_ring_drained(void **st)
{
    (void)st;
    start(256, 0);
    unsigned issued = 0;
    uint8_t tmp[97];
    for (unsigned round = 0; round < 40u; round++) {
        for (unsigned k = 0; k < 9u + round % 7u; k++) { /* more than the ring holds, some rounds */
            issued++;
            evt_test_ticks = 1000u * issued;
            assert_true(state_rec(0x20000000u + issued, 0x7E7D0000u | issued));
        }
        uint32_t got = evt_rkh_get_whole_block(&g_r, tmp, sizeof tmp - round % 50u);
        evt_rkh_test_buf_add(&g_out, tmp, got);
    }
    evt_rkh_flush(&g_r);
    for (uint32_t got; (got = evt_rkh_get_whole_block(&g_r, tmp, sizeof tmp)) != 0;) evt_rkh_test_buf_add(&g_out, tmp, got);
    evt_rec_stats s;
    evt_rkh_get_stats(&g_r, &s);
    assert_int_equal(s.written + s.dropped, issued);
    assert_int_equal(s.pending, 0);
#if EVT_RKH_FLIGHT
    assert_true(s.overwritten > 0); /* the flight ring overwrote its oldest records */
    assert_int_equal(s.dropped, 0);
#else
    assert_true(s.dropped > 0); /* streamed only: records that found the ring full were dropped */
    assert_int_equal(s.overwritten, 0);
#endif
    evt_rkh_decoded d;
    assert_int_equal(evt_rkh_test_decode(g_out.p, g_out.n, &d), 0);
    if (d.data + d.lost != issued)
        fail_msg("decoded %llu + lost %llu (%llu loss records, %llu errors) != issued %u; recorder: written %llu dropped %llu loss records %llu reported %llu",
                 (unsigned long long)d.data, (unsigned long long)d.lost, (unsigned long long)d.loss_records,
                 (unsigned long long)d.errors, issued, (unsigned long long)s.written, (unsigned long long)s.dropped,
                 (unsigned long long)s.loss_records, (unsigned long long)s.lost_reported);
    assert_int_equal(d.lost, s.dropped + s.overwritten);
}

/* ---- 3. a record larger than the ring --------------------------------------------------------- */
static void test_record_larger_than_ring(void **st)
{
    (void)st;
    start(64, 1);
    assert_true(state_rec(1u, 2u));
    char name[200];
    memset(name, 'x', sizeof name - 1u);
    name[sizeof name - 1u] = '\0';
    assert_true(evt_rkh_begin_nofilt(&g_r, RKH_TE_FWK_OBJ));
    evt_rkh_sym(&g_r, 0x1234u);
    evt_rkh_str(&g_r, name);
    evt_rkh_end(&g_r); /* does not fit: dropped */
    assert_true(state_rec(3u, 4u));
    evt_rkh_flush(&g_r);
    evt_rec_stats s;
    evt_rkh_get_stats(&g_r, &s);
    assert_int_equal(s.written, 2);
    assert_int_equal(s.dropped, 1);
    assert_int_equal(s.pending, 0);
    evt_rkh_decoded d;
    assert_int_equal(evt_rkh_test_decode(g_out.p, g_out.n, &d), 0);
    assert_int_equal(d.data, 2);
    assert_int_equal(d.lost, 1);
    assert_int_equal(d.errors, 0); /* the sequence number was given back: no gap */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_streamed_bytes),
        cmocka_unit_test(test_full_ring_drained),
        cmocka_unit_test(test_record_larger_than_ring),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    evt_rkh_test_buf_free(&g_out);
    return rc;
}
