/* RKH recorder, configurations outside the template: field sizes larger than 4 bytes (an 8-byte
 * pointer or timestamp, as a 64-bit port would say) are written as 4 bytes, RKH's rule, and the
 * TCFG record says so, so the host reader decodes every record (before: TCFG said 8, the records
 * held 4, and the reader counted almost every record as an error or a loss). Each configuration
 * is recorded through a sink, with stuffed bytes and nested drops, and decoded back:
 * decoded + lost == issued, no error. Pointers follow RKH's SYM rule (16 bits -> 2 bytes, anything
 * else -> 4), in the recorder and in the reader of a real 64-bit port's TCFG
 * (test_tcfg_pointer_nibble_8). And no ring at all (test_no_ring). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include "evt_counter_clock.h"
#include "evt_rkh_test.h"
#include "evtrace/rkh.h"
#include "formats/rkh/rkh_defs.h"

static evt_rkh_recorder g_r;
static uint8_t g_ring[512];

/* Records of several layouts; returns the records issued (a dropped nested begin included). */
static unsigned one_record(uint32_t x, unsigned i)
{
    switch (x % 4u) {
    case 0:
        if (!evt_rkh_begin_ao(&g_r, RKH_TE_SM_STATE, 1)) return 1;
        evt_rkh_sym(&g_r, (x & 0x100u) ? 0x7E7D7E7Du : 0x20001000u);
        evt_rkh_sym(&g_r, 0x7Eu + i);
        evt_rkh_end(&g_r);
        return 1;
    case 1:
        if (!evt_rkh_begin(&g_r, RKH_TE_TMR_START)) return 1;
        evt_rkh_sym(&g_r, x);
        evt_rkh_sym(&g_r, x >> 1);
        evt_rkh_ntick(&g_r, x);
        evt_rkh_ntick(&g_r, 0x7E7E7E7Eu);
        evt_rkh_end(&g_r);
        return 1;
    case 2:
        evt_rkh_sym_obj(&g_r, 0x30000000u + i, (x & 0x10u) ? "blinky" : "");
        return 1;
    default:
        if (!evt_rkh_begin(&g_r, RKH_TE_USER + 1u)) return 1;
        assert_false(evt_rkh_begin(&g_r, RKH_TE_USER + 1u)); /* nested: dropped, counted */
        evt_rkh_usr_int(&g_r, EVT_RKH_USR_OBJ, 0u, x);
        evt_rkh_usr_int(&g_r, EVT_RKH_USR_FUN, 0u, x >> 3);
        evt_rkh_end(&g_r);
        return 2;
    }
}

static void run(uint8_t sz_ts, uint8_t sz_ptr, uint8_t sz_int, uint32_t flags_off)
{
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    c.flags &= ~flags_off;
    c.sz_ts = sz_ts;
    c.sz_ptr = c.sz_fun = sz_ptr;
    c.sz_sig = c.sz_ntimer = c.sz_nelem = c.sz_nblock = c.sz_bsize = sz_int;
    evt_test_ticks = 0x7E7D00u;
    evt_rkh_test_buf out;
    evt_rkh_test_buf_init(&out, 1u << 20);
    evt_rkh_init(&g_r, &c, g_ring, sizeof g_ring, evt_test_clock32, 1000u);
    evt_rkh_filter_all(&g_r, 1);
    evt_rkh_set_sink(&g_r, evt_rkh_test_sink, &out);
    uint64_t issued = 0;
    uint32_t x = 12345u;
    for (unsigned i = 0; i < 2000u; i++) {
        x = x * 1103515245u + 12345u;
        issued += one_record(x >> 8, i);
    }
    evt_rkh_flush(&g_r);
    assert_false(out.overflow);
    evt_rkh_decoded d;
    assert_int_equal(evt_rkh_test_decode(out.p, out.n, &d), 0);
    if (d.errors || d.data + d.lost != issued)
        fail_msg("ts %u, ptr %u, ints %u, flags off 0x%X: errors %llu, decoded %llu + lost %llu vs issued %llu",
                 sz_ts, sz_ptr, sz_int, (unsigned)flags_off, (unsigned long long)d.errors,
                 (unsigned long long)d.data, (unsigned long long)d.lost, (unsigned long long)issued);
    /* TCFG: the sizes written (bytes 8 and 9 of the stream: flag, id, version, flags, then
     * sig << 4 | ts and ptr << 4 | ntimer), none above 4, a pointer 2 or 4 */
    assert_true(out.n > 10u);
    assert_true((out.p[8] >> 4) <= 4u && (out.p[8] & 15u) <= 4u);
    assert_true((out.p[9] >> 4) == (sz_ptr == 2u ? 2u : 4u) && (out.p[9] & 15u) <= 4u);
    evt_rkh_test_buf_free(&out);
}

static void test_eight_byte_pointers(void **st)
{
    (void)st;
    run(4, 8, 1, 0);
    run(2, 8, 2, EVT_RKH_F_TRC_CHK_EN);
    run(1, 8, 4, EVT_RKH_F_TRC_NSEQ_EN);
    run(4, 1, 1, 0); /* RKH: an 8-bit pointer is written as 4 bytes too */
    run(4, 3, 2, EVT_RKH_F_TRC_CHK_EN);
}

/* A stream as real RKH writes it on a 64-bit port (RKH_CFGPORT_TRC_SIZEOF_PTR 64): TCFG says 8,
 * the pointers are 4 bytes (16 -> 2, anything else -> 4). The reader takes the pointer size by
 * that rule, not the nibble: every record decodes (before: read as 8-byte pointers, errors). The
 * stream is ours with TCFG's pointer nibble set to 8 and its checksum adjusted. */
static void test_tcfg_pointer_nibble_8(void **st)
{
    (void)st;
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    evt_rkh_test_buf out;
    evt_rkh_test_buf_init(&out, 1u << 16);
    evt_rkh_init(&g_r, &c, g_ring, sizeof g_ring, evt_test_clock32, 1000u);
    evt_rkh_filter_all(&g_r, 1);
    evt_rkh_set_sink(&g_r, evt_rkh_test_sink, &out);
    for (unsigned i = 0; i < 300u; i++) {
        assert_true(evt_rkh_begin_ao(&g_r, RKH_TE_SM_STATE, 1));
        evt_rkh_sym(&g_r, 0x20001000u + i);
        evt_rkh_sym(&g_r, 0x20002000u);
        evt_rkh_end(&g_r);
    }
    evt_rkh_flush(&g_r);
    /* TCFG: 7E, id, version (2), flags (4), sig|ts, ptr|ntimer at 9, ... checksum, 7E */
    size_t end = 1;
    while (end < out.n && out.p[end] != RKH_FLAG) end++;
    assert_true(end < out.n);
    for (size_t i = 1; i < end; i++) assert_int_not_equal(out.p[i], RKH_ESC); /* nothing stuffed */
    assert_int_equal(out.p[9] >> 4, 4);
    out.p[9] = (uint8_t)(out.p[9] + 0x40u); /* pointer nibble 4 -> 8, then the checksum */
    uint8_t chk = (uint8_t)(out.p[end - 1] - 0x40u);
    evt_rkh_test_buf fixed;
    evt_rkh_test_buf_init(&fixed, out.n + 1u);
    evt_rkh_test_buf_add(&fixed, out.p, end - 1u);
    if (chk == RKH_FLAG || chk == RKH_ESC) {
        const uint8_t esc[2] = {RKH_ESC, (uint8_t)(chk ^ RKH_ESC_XOR)};
        evt_rkh_test_buf_add(&fixed, esc, 2);
    } else {
        evt_rkh_test_buf_add(&fixed, &chk, 1);
    }
    evt_rkh_test_buf_add(&fixed, out.p + end, out.n - end);
    evt_rkh_decoded d;
    assert_int_equal(evt_rkh_test_decode(fixed.p, fixed.n, &d), 0);
    evt_rkh_test_buf_free(&fixed);
    assert_int_equal(d.errors, 0);
    assert_int_equal(d.lost, 0);
    assert_int_equal(d.data, 300);
    assert_int_equal(d.by_id[RKH_TE_SM_STATE], 300);
    evt_rkh_test_buf_free(&out);
}

static void test_eight_byte_timestamps(void **st)
{
    (void)st;
    run(8, 4, 1, 0);                     /* the default header path */
    run(8, 2, 1, EVT_RKH_F_TRC_NSEQ_EN); /* the general header */
    run(8, 8, 8, 0);
}

/* No ring (ring_size 0, or a NULL ring): an inert recorder. Before, init wrote the flag and the
 * TCFG record into the zero-size ring (past its end) and a NULL ring crashed. */
static void test_no_ring(void **st)
{
    (void)st;
    static uint8_t guard[64];
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    for (int k = 0; k < 2; k++) {
        for (unsigned i = 0; i < sizeof guard; i++) guard[i] = 0xA5u;
        evt_rkh_init(&g_r, &c, k ? NULL : guard, k ? 4096u : 0u, evt_test_clock32, 1000u);
        evt_rkh_filter_all(&g_r, 1);
        evt_rkh_filter_off_event(&g_r, RKH_TE_SM_STATE);
        for (unsigned i = 0; i < 100u; i++) {
            assert_false(evt_rkh_begin_ao(&g_r, RKH_TE_SM_STATE, 1));
            evt_rkh_sym_obj(&g_r, i, "x");
        }
        evt_rkh_flush(&g_r);
        uint8_t b[16], byte;
        uint32_t n = sizeof b;
        assert_int_equal(evt_rkh_get_whole_block(&g_r, b, sizeof b), 0);
        assert_false(evt_rkh_get_byte(&g_r, &byte));
        (void)evt_rkh_get_block(&g_r, &n);
        assert_int_equal(n, 0);
        evt_rec_stats s;
        evt_rkh_get_stats(&g_r, &s);
        assert_int_equal(s.written + s.dropped + s.pending, 0);
        for (unsigned i = 0; i < sizeof guard; i++) assert_int_equal(guard[i], 0xA5u);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_ring),
        cmocka_unit_test(test_eight_byte_pointers),
        cmocka_unit_test(test_eight_byte_timestamps),
        cmocka_unit_test(test_tcfg_pointer_nibble_8),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
