/* RKH reader framing across its input chunks: a stream of several 64 KiB chunks whose frames mix
 * plain ones (taken in place, checksum summed while scanned) and escaped ones (unescaped in place
 * when whole in a chunk, frame_escaped_in_chunk, else by the byte loop), decoded with the chunk
 * boundaries at every alignment against the frames (empty frames, i.e. extra flags, shift it). Every record must come out once, in order, with its own
 * arguments, timestamp and byte offset, and no diagnostic; a checksum error in a plain frame and in
 * an escaped one that straddle a boundary is reported at the frame's offset, its neighbours intact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evt_reader_test.h"
#include "evt_counter_clock.h"
#include "evt_test.h"
#include "evtrace/reader.h"
#include "evtrace/rkh.h"
#include "evt_rkh_test.h"

#define NREC 12000u        /* records after the symbol record: about 3.3 chunks */
#define AO   0x20001000u   /* plain pointer */
#define ST_PLAIN 0x08001000u
#define ST_ESC   0x08007E7Du /* needs two escapes */
#define CHUNK 65536u       /* the reader's input chunk (rkh_dec.c) */

static evt_rkh_test_buf g_out; /* the recorded stream (preallocated: NREC records fit) */
static size_t g_start[NREC + 1]; /* offset of each record's first byte (after its leading flag) */
static size_t g_end[NREC + 1];   /* offset of its closing flag */

/* Record i's state: escaped every third record, plain otherwise (i indexes data records). */
static uint32_t state_of(uint32_t i) { return i % 3 == 0 ? ST_ESC : ST_PLAIN + i % 7; }

/* The stream: TCFG, one symbol record, then NREC SM_STATE / TMR_TOUT records (timestamp = index). */
static void record_stream(void)
{
    static uint8_t ring[4096];
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    evt_rkh_recorder r;
    if (!g_out.p) evt_rkh_test_buf_init(&g_out, 1u << 20);
    g_out.n = 0;
    evt_test_ticks = 0;
    evt_rkh_init(&r, &c, ring, sizeof ring, evt_test_clock32, 1000);
    evt_rkh_filter_all(&r, 1);
    evt_rkh_set_sink(&r, evt_rkh_test_sink, &g_out);
    g_start[0] = g_out.n;
    evt_rkh_sym_ao(&r, AO, "blinky");
    g_end[0] = g_out.n - 1;
    for (uint32_t i = 0; i < NREC; i++) {
        g_start[i + 1] = g_out.n;
        if (i % 2 == 0) {
            assert_true(evt_rkh_begin_ao(&r, 0x63, 1)); /* SM_STATE ao st */
            evt_rkh_sym(&r, AO);
            evt_rkh_sym(&r, state_of(i));
        } else {
            assert_true(evt_rkh_begin_ao_sig(&r, 0x83, 1, 0x7E)); /* TMR_TOUT t sig ao: sig escaped */
            evt_rkh_sym(&r, state_of(i));
            evt_rkh_sig(&r, 0x7E);
            evt_rkh_sym(&r, AO);
        }
        evt_rkh_end(&r);
        g_end[i + 1] = g_out.n - 1;
    }
    assert_false(g_out.overflow);
    assert_true(g_out.n > 3 * CHUNK);
    assert_int_equal(g_out.p[g_out.n - 1], 0x7E);
}

/* 1 when record i's arguments are the ones recorded. */
static int args_ok(const evt_event *ev, uint32_t i)
{
    if (i % 2 == 0) return ev->id == 0x63 && ev->nargs == 2 && ev->args[0] == AO && ev->args[1] == state_of(i);
    return ev->id == 0x83 && ev->nargs == 3 && ev->args[0] == state_of(i) && ev->args[1] == 0x7E && ev->args[2] == AO;
}

typedef struct result {
    unsigned ndata, bad, out_of_order, bad_offset, nlost;
    int status_ok;
    evt_test_diags diags;
} result;

/* Decode p (the stream with `shift` extra flags in front); records are checked against their
 * recorded offsets plus shift. bad_rec: a record expected missing (checksum error), or -1. */
static void decode(const uint8_t *p, size_t n, size_t shift, long bad_rec, result *res)
{
    memset(res, 0, sizeof *res);
    char err[256];
    evt_reader *rd;
    assert_int_equal(evt_reader_open_mem(p, n, "rkh", NULL, evt_test_diag_collect, &res->diags, &rd, err, sizeof err), EVT_OK);
    evt_event ev;
    evt_status st;
    long next = 0; /* the data record expected next */
    while ((st = evt_reader_next(rd, &ev)) == EVT_OK) {
        if (ev.kind == EVT_KIND_LOST) { res->nlost++; continue; }
        if (ev.id == 0xAC || ev.id == 0xAE) continue; /* TCFG, the symbol record */
        if (next == bad_rec) next++;
        if ((long)ev.ts != next + 1) res->out_of_order++; /* the symbol record took timestamp 0 */
        uint32_t i = (uint32_t)(ev.ts - 1);
        if (i < NREC) {
            if (!args_ok(&ev, i)) res->bad++;
            if (ev.offset != g_start[i + 1] + shift) res->bad_offset++;
        }
        res->ndata++;
        next = (long)ev.ts;
    }
    res->status_ok = st == EVT_END;
    evt_reader_close(rd);
}

/* The stream with `shift` flags in front. */
static uint8_t *shifted(size_t shift, size_t *n)
{
    uint8_t *p = malloc(g_out.n + shift);
    assert_non_null(p);
    memset(p, 0x7E, shift);
    memcpy(p + shift, g_out.p, g_out.n);
    *n = g_out.n + shift;
    return p;
}

static void test_every_alignment(void **st)
{
    (void)st;
    record_stream();
    for (size_t shift = 0; shift < 40; shift++) { /* longer than any frame: every alignment */
        size_t n;
        uint8_t *p = shifted(shift, &n);
        result res;
        decode(p, n, shift, -1, &res);
        assert_true(res.status_ok);
        assert_int_equal(res.ndata, NREC);
        assert_int_equal(res.bad, 0);
        assert_int_equal(res.out_of_order, 0);
        assert_int_equal(res.bad_offset, 0);
        assert_int_equal(res.nlost, 0);
        assert_int_equal(res.diags.n, 0);
        free(p);
    }
}

/* The data record whose frame holds byte `at` (its first byte to its closing flag). */
static uint32_t record_at(size_t at)
{
    for (uint32_t i = 0; i < NREC; i++)
        if (g_start[i + 1] <= at && at <= g_end[i + 1]) return i;
    fail_msg("no record at %zu", at);
    return 0;
}

/* A checksum error in a frame that straddles the first chunk boundary, of a record that is plain
 * (esc 0) or escaped (esc 1): reported once at the frame's offset; that record is missing, so the next
 * one shows a sequence gap of one (a lost event); the rest are intact. */
static void checksum_case(int esc)
{
    uint32_t i = record_at(CHUNK - 3);
    while ((state_of(i) == ST_ESC || i % 2) != esc) i--; /* SM_STATE plain, or any escaped record */
    size_t first = g_start[i + 1];
    size_t n, shift = CHUNK - 3 - first; /* the chunk boundary 3 bytes into the frame */
    uint8_t *p = shifted(shift, &n);
    first += shift;
    size_t flip = first + 1; /* a byte after the id that is no escape, not escaped, and stays so */
    while (flip < g_end[i + 1] + shift && (p[flip] == 0x7D || p[flip - 1] == 0x7D || (p[flip] ^ 0x01) == 0x7E || (p[flip] ^ 0x01) == 0x7D))
        flip++;
    assert_true(flip < g_end[i + 1] + shift);
    p[flip] ^= 0x01;
    result res;
    decode(p, n, shift, (long)i, &res);
    assert_true(res.status_ok);
    assert_int_equal(res.ndata, NREC - 1);
    assert_int_equal(res.bad, 0);
    assert_int_equal(res.out_of_order, 0);
    assert_int_equal(res.bad_offset, 0);
    assert_int_equal(res.nlost, 1); /* its sequence number is missing after it */
    assert_int_equal(res.diags.n, 2);
    assert_true(evt_test_diag_has(&res.diags, first, "checksum error"));
    assert_true(evt_test_diag_has(&res.diags, g_start[i + 2] + shift, "sequence gap"));
    free(p);
}

static void test_checksum_plain(void **st)
{
    (void)st;
    record_stream();
    checksum_case(0);
}

static void test_checksum_escaped(void **st)
{
    (void)st;
    record_stream();
    checksum_case(1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_alignment),
        cmocka_unit_test(test_checksum_plain),
        cmocka_unit_test(test_checksum_escaped),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    evt_rkh_test_buf_free(&g_out);
    return rc;
}
