/* The RKH reader tells the recorder's declared losses from damage (src/formats/rkh/rkh_diag_dec.h,
 * D1-D5): streams built from the recorder's own frames, with records left out (sequence gaps),
 * frames cut by escape + flag (aborted) and loss records placed before or after them. A gap or an
 * aborted frame that the loss records account for is a counted loss, not an error; one they do not
 * account for is an error; diagnostics stay in offset order; lost is never counted twice. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evt_reader_test.h"
#include "evt_counter_clock.h"
#include "formats/rkh/rkh_diag_dec.h"
#include "evt_test.h"
#include "evtrace/alloc.h"
#include "evtrace/reader.h"
#include "evtrace/rkh.h"
#include "evtrace/source.h"

#define NREC (2 * RKH_DIAG_MAX + 200)

/* ---- the recorder's frames ----------------------------------------------------------------------- */
typedef struct chunk { uint8_t b[64]; size_t n; } chunk;
static chunk g_tcfg;         /* leading flag + TCFG + flag */
static chunk g_rec[NREC];    /* record k (timestamp k): its bytes and closing flag */
static size_t g_nrec;
static int g_in_tcfg;

static void sink(void *user, const uint8_t *p, uint32_t n)
{
    (void)user;
    chunk *c = g_in_tcfg ? &g_tcfg : &g_rec[g_nrec++];
    assert_true(c->n + n <= sizeof c->b);
    memcpy(c->b + c->n, p, n);
    c->n += n;
}

/* TCFG and NREC SM_STATE records (two 4-byte fields), with or without sequence numbers. */
static void record_frames(int seq)
{
    static uint8_t ring[512];
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    if (!seq) c.flags &= ~EVT_RKH_F_TRC_NSEQ_EN;
    evt_rkh_recorder r;
    memset(&g_tcfg, 0, sizeof g_tcfg);
    memset(g_rec, 0, sizeof g_rec);
    g_nrec = 0;
    g_in_tcfg = 1;
    evt_test_ticks = 0x01010101u; /* timestamps without bytes to stuff */
    evt_rkh_init(&r, &c, ring, sizeof ring, evt_test_clock32, 1000);
    evt_rkh_filter_all(&r, 1);
    evt_rkh_set_sink(&r, sink, NULL);
    g_in_tcfg = 0;
    assert_int_equal(g_tcfg.b[0], 0x7E);
    for (uint32_t k = 0; k < NREC; k++) {
        assert_true(evt_rkh_begin_ao(&r, 0x63, 1));
        evt_rkh_sym(&r, 0x20001000u);
        evt_rkh_sym(&r, 0x20002000u + k);
        evt_rkh_end(&r);
        assert_int_equal(g_nrec, k + 1);
        assert_int_equal(g_rec[k].b[g_rec[k].n - 1], 0x7E);
    }
}

/* ---- building a stream --------------------------------------------------------------------------- */
typedef struct stream { uint8_t *p; size_t n, cap; uint32_t lost_total; } stream;

static void put(stream *s, const void *p, size_t n)
{
    if (s->n + n > s->cap) {
        s->cap = (s->n + n) * 2 + 256;
        s->p = realloc(s->p, s->cap);
        assert_non_null(s->p);
    }
    memcpy(s->p + s->n, p, n);
    s->n += n;
}
static void put_byte(stream *s, uint8_t b) { put(s, &b, 1); }
static void start(stream *s) { memset(s, 0, sizeof *s); put(s, g_tcfg.b, g_tcfg.n); }
static size_t put_rec(stream *s, size_t k) { size_t at = s->n; put(s, g_rec[k].b, g_rec[k].n); return at; }
/* Records [lo, hi). */
static void put_recs(stream *s, size_t lo, size_t hi) { for (size_t k = lo; k < hi; k++) put_rec(s, k); }
/* The first 5 bytes of record k, then escape + flag: the recorder's abort (docs/rkh.md). */
static size_t put_abort(stream *s, size_t k)
{
    size_t at = s->n;
    put(s, g_rec[k].b, 5);
    put_byte(s, 0x7D);
    put_byte(s, 0x7E);
    return at;
}
static void put_stuffed(stream *s, uint8_t b)
{
    if (b == 0x7D || b == 0x7E) { put_byte(s, 0x7D); put_byte(s, b ^ 0x20u); }
    else put_byte(s, b);
}
/* A loss record (EVT_RKH_TE_LOST: u32 count, u32 running total, checksum) for n more records. */
static size_t put_loss(stream *s, uint32_t n)
{
    size_t at = s->n;
    s->lost_total += n;
    uint8_t b[9] = {EVT_RKH_TE_LOST};
    for (int i = 0; i < 4; i++) {
        b[1 + i] = (uint8_t)(n >> (8 * i));
        b[5 + i] = (uint8_t)(s->lost_total >> (8 * i));
    }
    unsigned sum = 0;
    for (int i = 0; i < 9; i++) { put_stuffed(s, b[i]); sum += b[i]; }
    put_stuffed(s, (uint8_t)(0u - sum));
    put_byte(s, 0x7E);
    return at;
}

/* ---- decoding ------------------------------------------------------------------------------------ */
typedef struct result {
    uint64_t errors, lost, events;
    evt_test_diags d;
    char *info;
} result;

/* Read s from memory, or (live) as a stream source over a file: a live stream holds a gap for at
 * most 64 KiB (D6). */
static void decode_as(const stream *s, result *res, int live)
{
    memset(res, 0, sizeof *res);
    char err[256];
    evt_reader *rd;
    if (live) {
        char path[512];
        snprintf(path, sizeof path, "%s/live.rkh", evt_test_tmpdir());
        assert_int_equal(evt_test_write_file(path, s->p, s->n), 0);
        int fd = open(path, O_RDONLY);
        assert_true(fd >= 0);
        evt_source src;
        assert_int_equal(evt_source_open_stream(&src, fd, path, 0, 0), EVT_OK);
        assert_int_equal(evt_reader_open_stream(&src, "rkh", NULL, evt_test_diag_collect, &res->d, &rd, err, sizeof err),
                         EVT_OK);
    } else {
        assert_int_equal(evt_reader_open_mem(s->p, s->n, "rkh", NULL, evt_test_diag_collect, &res->d, &rd, err, sizeof err),
                         EVT_OK);
    }
    evt_event ev;
    evt_status st;
    while ((st = evt_reader_next(rd, &ev)) == EVT_OK) res->events += ev.kind != EVT_KIND_LOST;
    assert_int_equal(st, EVT_END);
    res->errors = rd->errors;
    res->lost = rd->lost;
    res->info = evt_test_info_json(rd);
    evt_reader_close(rd);
    assert_int_equal(res->d.n, res->errors); /* every error reported once, nothing else reported */
    for (unsigned i = 1; i < res->d.n && i < EVT_TEST_DIAG_MAX; i++)
        if (res->d.off[i] < res->d.off[i - 1])
            fail_msg("diagnostic %u at offset %llu after one at %llu", i, (unsigned long long)res->d.off[i],
                     (unsigned long long)res->d.off[i - 1]);
}

static void decode(const stream *s, result *res) { decode_as(s, res, 0); }

static void want(const result *res, const char *key, uint64_t v)
{
    char pat[96];
    snprintf(pat, sizeof pat, "\"%s\":%llu", key, (unsigned long long)v);
    const char *p = strstr(res->info, pat);
    if (!p || (p[strlen(pat)] != ',' && p[strlen(pat)] != '}')) fail_msg("want %s in %s", pat, res->info);
}

static void want_diag(const result *res, unsigned i, uint64_t off, const char *word)
{
    assert_true(i < res->d.n);
    if (res->d.off[i] != off || !strstr(res->d.msg[i], word))
        fail_msg("diagnostic %u: want '%s' at %llu, got '%s' at %llu", i, word, (unsigned long long)off,
                 res->d.msg[i], (unsigned long long)res->d.off[i]);
}

static void done(stream *s, result *res) { free(s->p); free(res->info); }

/* ---- with sequence numbers ----------------------------------------------------------------------- */
static int setup_seq(void **st) { (void)st; record_frames(1); return 0; }
static int setup_noseq(void **st) { (void)st; record_frames(0); return 0; }

/* Records 10..14 evicted, the loss record written after the gap (a drain resumed past them). */
static void test_gap_then_loss_record(void **st)
{
    (void)st;
    stream s;
    result res;
    start(&s);
    put_recs(&s, 0, 10);
    put_recs(&s, 15, 30);
    put_loss(&s, 5);
    put_recs(&s, 30, 40);
    decode(&s, &res);
    assert_int_equal(res.errors, 0);
    assert_int_equal(res.lost, 5);           /* the gap and its loss record count once */
    assert_int_equal(res.events, 1 + 35);    /* TCFG + data */
    want(&res, "seq_gaps", 1);
    want(&res, "seq_gaps_explained", 1);
    done(&s, &res);
}

/* The loss record before the gap it explains (written as the first thing after the eviction). */
static void test_loss_record_then_gap(void **st)
{
    (void)st;
    stream s;
    result res;
    start(&s);
    put_recs(&s, 0, 10);
    put_loss(&s, 3);
    put_recs(&s, 13, 20);
    decode(&s, &res);
    assert_int_equal(res.errors, 0);
    assert_int_equal(res.lost, 3);
    want(&res, "seq_gaps_explained", 1);
    done(&s, &res);
}

/* No loss record: damage. The gap is an error at its own offset, reported before a later checksum
 * error although it was decided only at the end of the stream. */
static void test_unexplained_gap_is_error_in_order(void **st)
{
    (void)st;
    stream s;
    result res;
    start(&s);
    put_recs(&s, 0, 10);
    size_t gap_at = put_rec(&s, 12);
    put_recs(&s, 13, 20);
    size_t bad_at = put_rec(&s, 20);
    s.p[bad_at + 8] ^= 0x01; /* an argument byte (no stuffing in it): checksum error */
    put_recs(&s, 21, 30);
    decode(&s, &res);
    assert_int_equal(res.errors, 3); /* the gap, the checksum error, the gap it leaves */
    want_diag(&res, 0, gap_at, "sequence gap");
    want_diag(&res, 1, bad_at, "checksum error");
    want_diag(&res, 2, bad_at + g_rec[20].n, "sequence gap");
    want(&res, "seq_gaps_explained", 0);
    assert_int_equal(res.lost, 3);
    done(&s, &res);
}

/* A loss record that counts fewer records than the gap shows: the gap stays an error. */
static void test_loss_record_short_of_gap(void **st)
{
    (void)st;
    stream s;
    result res;
    start(&s);
    put_recs(&s, 0, 10);
    size_t gap_at = put_rec(&s, 13);
    put_recs(&s, 14, 20);
    put_loss(&s, 2);
    put_recs(&s, 20, 25);
    decode(&s, &res);
    assert_int_equal(res.errors, 1);
    want_diag(&res, 0, gap_at, "3 records missing");
    assert_int_equal(res.lost, 3);
    done(&s, &res);
}

/* Credit pays the oldest gaps first; what the loss records counted beyond the gaps carries on. */
static void test_credit_oldest_first(void **st)
{
    (void)st;
    stream s;
    result res;
    start(&s);
    put_recs(&s, 0, 5);
    put_recs(&s, 7, 10);  /* gap of 2 */
    put_recs(&s, 11, 15); /* gap of 1 */
    size_t third = put_rec(&s, 19); /* gap of 4 */
    put_recs(&s, 20, 25);
    put_loss(&s, 3);      /* pays the first two */
    put_recs(&s, 25, 30);
    decode(&s, &res);
    assert_int_equal(res.errors, 1);
    want_diag(&res, 0, third, "4 records missing");
    want(&res, "seq_gaps_explained", 2);
    done(&s, &res);
}

/* The recorder's abort: a drained start, the rest evicted with 4 more records, the escape before
 * the next flag, the loss record later. Neither the aborted frame nor its gap is an error. */
static void test_abort_gap_explained(void **st)
{
    (void)st;
    stream s;
    result res;
    start(&s);
    put_recs(&s, 0, 10);
    put_abort(&s, 10);
    put_recs(&s, 15, 20);
    put_loss(&s, 5);
    put_recs(&s, 20, 22);
    decode(&s, &res);
    assert_int_equal(res.errors, 0);
    assert_int_equal(res.lost, 5);
    want(&res, "aborted_frames", 1);
    want(&res, "aborted_frames_explained", 1);
    want(&res, "seq_gaps_explained", 1);
    done(&s, &res);
}

/* The same without the loss record: both are errors, in order (D4: decided with the gap). */
static void test_abort_gap_unexplained(void **st)
{
    (void)st;
    stream s;
    result res;
    start(&s);
    put_recs(&s, 0, 10);
    size_t ab = put_abort(&s, 10);
    size_t gap = put_rec(&s, 15);
    put_recs(&s, 16, 20);
    decode(&s, &res);
    assert_int_equal(res.errors, 2);
    want_diag(&res, 0, ab, "aborted");
    want_diag(&res, 1, gap, "5 records missing");
    done(&s, &res);
}

/* An aborted frame with no record missing after it (an aborted loss record): not an error. */
static void test_abort_without_gap(void **st)
{
    (void)st;
    stream s;
    result res;
    start(&s);
    put_recs(&s, 0, 10);
    size_t at = s.n;
    put_loss(&s, 0);
    s.n = at + 4; /* keep its start */
    put_byte(&s, 0x7D);
    put_byte(&s, 0x7E);
    put_recs(&s, 10, 20);
    decode(&s, &res);
    assert_int_equal(res.errors, 0);
    want(&res, "aborted_frames", 1);
    done(&s, &res);
}

/* An aborted frame last in the stream: explained by a loss record after it, else an error. */
static void test_abort_at_end(void **st)
{
    (void)st;
    stream s;
    result res;
    start(&s);
    put_recs(&s, 0, 10);
    put_abort(&s, 10);
    put_loss(&s, 1);
    decode(&s, &res);
    assert_int_equal(res.errors, 0);
    assert_int_equal(res.lost, 1);
    done(&s, &res);

    start(&s);
    put_recs(&s, 0, 10);
    size_t ab = put_abort(&s, 10);
    decode(&s, &res);
    assert_int_equal(res.errors, 1);
    want_diag(&res, 0, ab, "aborted");
    done(&s, &res);
}

/* More held than the reader keeps (D5): RKH_DIAG_MAX + 99 unexplained gaps, each an error, in order, bounded. */
static void test_many_unexplained_gaps(void **st)
{
    (void)st;
    stream s;
    result res;
    start(&s);
    for (size_t k = 0; k + 1 < NREC; k += 2) put_rec(&s, k); /* every other record: a gap each */
    decode(&s, &res);
    assert_int_equal(res.errors, NREC / 2 - 1);
    assert_int_equal(res.lost, NREC / 2 - 1);
    done(&s, &res);

    /* and with one loss record at the very end that counts them all: none is an error */
    start(&s);
    for (size_t k = 0; k + 1 < NREC; k += 2) put_rec(&s, k);
    put_loss(&s, NREC / 2 - 1);
    decode(&s, &res);
    /* the oldest (NREC / 2 - 1) - RKH_DIAG_MAX were decided before the loss record came (D5) */
    assert_int_equal(res.errors, NREC / 2 - 1 - RKH_DIAG_MAX);
    assert_int_equal(res.lost, NREC / 2 - 1);
    done(&s, &res);
}

/* The held diagnostics grow as they come (D5): when growing fails, the items held are the bound and
 * a diagnostic with no room is decided at once as an error. Whichever allocation after the open
 * fails, every gap is counted once (an error or explained), lost is exact, and nothing crashes or
 * leaks (ASan); the read either ends or stops with EVT_ERR_NOMEM. */
static void test_held_ring_alloc_failure(void **st)
{
    (void)st;
    stream s;
    start(&s);
    for (size_t k = 0; k < 80; k += 2) put_rec(&s, k); /* 39 gaps */
    put_loss(&s, 39);
    int decided_early = 0, completed = 0;
    for (unsigned long nth = 1; nth <= 40; nth++) {
        evt_test_diags d;
        memset(&d, 0, sizeof d);
        char err[256];
        evt_reader *rd;
        assert_int_equal(evt_reader_open_mem(s.p, s.n, "rkh", NULL, evt_test_diag_collect, &d, &rd, err, sizeof err), EVT_OK);
        evt_alloc_fail_after(nth, 1);
        evt_event ev;
        evt_status stt;
        while ((stt = evt_reader_next(rd, &ev)) == EVT_OK) {
        }
        evt_alloc_fail_after(0, 0);
        if (stt == EVT_END) {
            completed++;
            char *info = evt_test_info_json(rd);
            result res = {.errors = rd->errors, .lost = rd->lost, .info = info};
            assert_int_equal(res.lost, 39);
            assert_int_equal(d.n, res.errors);
            want(&res, "seq_gaps", 39);
            want(&res, "seq_gaps_explained", 39 - res.errors);
            decided_early += res.errors > 0;
            free(info);
        } else {
            assert_int_equal(stt, EVT_ERR_NOMEM);
        }
        evt_reader_close(rd);
    }
    assert_true(completed > 0);
    assert_true(decided_early > 0); /* some failure hit the ring's growth */
    free(s.p);
}

/* A live stream holds a gap for 64 KiB (D6): with its loss record 80 KiB later, a file reads it as
 * explained, a live stream has reported it as an error by then; the lost count is the same. */
static void test_live_stream_hold_bound(void **st)
{
    (void)st;
    stream s;
    result res;
    start(&s);
    put_recs(&s, 0, 10);
    size_t gap = put_rec(&s, 15);
    size_t k = 16;
    while (s.n < gap + (80u << 10)) put_rec(&s, k++ % 256u); /* record k + 256 has record k's number */
    put_loss(&s, 5);
    decode(&s, &res);
    assert_int_equal(res.errors, 0);
    assert_int_equal(res.lost, 5);
    free(res.info);
    decode_as(&s, &res, 1);
    assert_int_equal(res.lost, 5);
    assert_int_equal(res.errors, 1);
    want_diag(&res, 0, gap, "5 records missing");
    done(&s, &res);
}

/* ---- without sequence numbers: an aborted frame needs a loss record of its own ------------------ */
static void test_noseq_abort(void **st)
{
    (void)st;
    stream s;
    result res;
    start(&s);
    put_recs(&s, 0, 10);
    put_abort(&s, 10);
    put_recs(&s, 15, 20);
    put_loss(&s, 5);
    decode(&s, &res);
    assert_int_equal(res.errors, 0);
    assert_int_equal(res.lost, 5);
    want(&res, "aborted_frames_explained", 1);
    done(&s, &res);

    start(&s);
    put_recs(&s, 0, 10);
    size_t ab = put_abort(&s, 10);
    put_recs(&s, 15, 20);
    decode(&s, &res);
    assert_int_equal(res.errors, 1);
    want_diag(&res, 0, ab, "aborted");
    done(&s, &res);
}

int main(void)
{
    const struct CMUnitTest seq[] = {
        cmocka_unit_test(test_gap_then_loss_record),
        cmocka_unit_test(test_loss_record_then_gap),
        cmocka_unit_test(test_unexplained_gap_is_error_in_order),
        cmocka_unit_test(test_loss_record_short_of_gap),
        cmocka_unit_test(test_credit_oldest_first),
        cmocka_unit_test(test_abort_gap_explained),
        cmocka_unit_test(test_abort_gap_unexplained),
        cmocka_unit_test(test_abort_without_gap),
        cmocka_unit_test(test_abort_at_end),
        cmocka_unit_test(test_many_unexplained_gaps),
        cmocka_unit_test(test_live_stream_hold_bound),
        cmocka_unit_test(test_held_ring_alloc_failure),
    };
    const struct CMUnitTest noseq[] = {
        cmocka_unit_test(test_noseq_abort),
    };
    int rc = cmocka_run_group_tests_name("rkh_diag_seq", seq, setup_seq, NULL);
    return rc | cmocka_run_group_tests_name("rkh_diag_noseq", noseq, setup_noseq, NULL);
}
