/* RKH reader damage tests on a long stream written by the evtrace RKH recorder (counter clock, so a
 * record's timestamp names it): one flipped bit, 300 bytes cut out mid-frame, an escape inserted
 * before a flag, a truncated tail, a start in mid-frame (with and without --rkh-config), a frame two
 * bytes short of its layout in streams without a checksum (with and without sequence numbers). Each case
 * must be reported exactly (error kind, offset, gap and missing count) and every other record must
 * still decode with its own timestamp and arguments. */
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

#define NREC 1500         /* data records after the symbol records */
#define NSYM 4            /* symbol records written first */
#define AO   0x20007E00u  /* pointers that need escaping */
#define ST0  0x20007D40u
#define TMR  0x2000117Eu

/* ---- the recorded streams ----------------------------------------------------------------------- */
typedef struct stream {
    uint8_t *s; /* stream bytes */
    size_t n, cap;
    size_t start[NSYM + NREC]; /* offset of each record's first byte (after its leading flag) */
    size_t end[NSYM + NREC];   /* offset of each record's closing flag */
} stream;
static stream g_main; /* the template's header: sequence numbers, 32-bit timestamps, checksums */
static stream g_alt;  /* a test's own configuration (record_stream's clear) */

static void sink(void *user, const uint8_t *p, uint32_t n)
{
    stream *o = user;
    if (o->n + n > o->cap) {
        o->cap = (o->n + n) * 2 + 4096;
        o->s = realloc(o->s, o->cap);
        assert_non_null(o->s);
    }
    memcpy(o->s + o->n, p, n);
    o->n += n;
}

/* Record k's timestamp is k (TCFG reads no clock). clear: configuration flags turned off besides
 * those below (EVT_RKH_F_TRC_NSEQ_EN, EVT_RKH_F_TRC_CHK_EN). */
static void record_stream(stream *o, uint32_t clear)
{
    static uint8_t ring[2048];
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    c.sz_sig = 2;      /* non-template sizes: a mid-way start needs --rkh-config */
    c.sz_ntimer = 2;
    c.flags &= ~(EVT_RKH_F_SMA_TRC_SNDR_EN | EVT_RKH_F_QUE_GET_LWMARK_EN | EVT_RKH_F_MP_GET_LWM_EN | clear);
    evt_rkh_recorder r;
    o->n = 0;
    evt_test_ticks = 0;
    evt_rkh_init(&r, &c, ring, sizeof ring, evt_test_clock32, 1000);
    evt_rkh_filter_all(&r, 1);
    evt_rkh_set_sink(&r, sink, o);
    size_t k = 0;
#define MARK_BEGIN() (o->start[k] = o->n)
#define MARK_END() (o->end[k] = o->n - 1, k++)
    MARK_BEGIN(); evt_rkh_sym_ao(&r, AO, "blinky"); MARK_END();
    MARK_BEGIN(); evt_rkh_sym_state(&r, AO, ST0, "ledOn"); MARK_END();
    MARK_BEGIN(); evt_rkh_sym_timer(&r, TMR, "&me->timer"); MARK_END();
    MARK_BEGIN(); evt_rkh_sym_sig(&r, 0x7D, "TIMEOUT"); MARK_END();
    for (uint32_t i = 0; i < NREC; i++) {
        MARK_BEGIN();
        if (i % 2 == 0) {
            assert_true(evt_rkh_begin_ao(&r, 0x63, 1));        /* SM_STATE ao st */
            evt_rkh_sym(&r, AO);
            evt_rkh_sym(&r, ST0 + 0x10u * (i % 16));
        } else {
            assert_true(evt_rkh_begin_ao_sig(&r, 0x83, 1, 0x7D)); /* TMR_TOUT t sig ao */
            evt_rkh_sym(&r, TMR);
            evt_rkh_sig(&r, 0x7D);
            evt_rkh_sym(&r, AO);
        }
        evt_rkh_end(&r);
        MARK_END();
    }
#undef MARK_BEGIN
#undef MARK_END
    assert_int_equal(k, NSYM + NREC);
    assert_int_equal(o->s[0], 0x7E);
    assert_int_equal(o->s[o->n - 1], 0x7E);
}

/* ---- decoding one (damaged) copy ----------------------------------------------------------------- */
typedef struct result {
    int status_ok;
    char *info;                   /* info --json body */
    uint8_t seen[NSYM + NREC];    /* record k decoded (by its timestamp), with the right arguments */
    unsigned ndata;               /* decoded records with a timestamp */
    unsigned bad_args;            /* records whose arguments differ from what was recorded */
    uint64_t lost_sum;            /* sum of the counts of lost events */
    unsigned nlost;
    evt_test_diags diags;
} result;

static void check_args(result *res, const evt_event *ev, uint64_t k)
{
    if (k < NSYM) return;
    uint32_t i = (uint32_t)(k - NSYM);
    int ok;
    if (i % 2 == 0)
        ok = ev->id == 0x63 && ev->nargs == 2 && ev->args[0] == AO && ev->args[1] == ST0 + 0x10u * (i % 16);
    else
        ok = ev->id == 0x83 && ev->nargs == 3 && ev->args[0] == TMR && ev->args[1] == 0x7D && ev->args[2] == AO;
    if (!ok) res->bad_args++;
}

static void decode(const uint8_t *p, size_t n, const char *cfg_path, result *res)
{
    memset(res, 0, sizeof *res);
    evt_open_opts o = {0};
    if (cfg_path) { o.n = 1; o.key[0] = "rkh-config"; o.val[0] = cfg_path; }
    char err[256];
    evt_reader *rd;
    assert_int_equal(evt_reader_open_mem(p, n, "rkh", &o, evt_test_diag_collect, &res->diags, &rd, err, sizeof err), EVT_OK);
    evt_event ev;
    evt_status st;
    while ((st = evt_reader_next(rd, &ev)) == EVT_OK) {
        if (ev.kind == EVT_KIND_LOST) { res->nlost++; res->lost_sum += ev.count; continue; }
        if (ev.id == 0xAC) continue; /* TCFG: no timestamp */
        if (ev.ts < NSYM + NREC && !res->seen[ev.ts]) {
            res->seen[ev.ts] = 1;
            res->ndata++;
            check_args(res, &ev, ev.ts);
        }
    }
    res->status_ok = st == EVT_END;
    res->info = evt_test_info_json(rd);
    evt_reader_close(rd);
}

/* info --json key must have this exact numeric value. */
static void want(const result *res, const char *key, uint64_t v)
{
    char pat[96];
    snprintf(pat, sizeof pat, "\"%s\":%llu", key, (unsigned long long)v);
    const char *p = strstr(res->info, pat);
    if (!p || (p[strlen(pat)] != ',' && p[strlen(pat)] != '}'))
        fail_msg("want %s in %s", pat, res->info);
}

/* Every record except those in [lo, hi] decoded, with its own arguments. */
static void want_all_but(const result *res, size_t lo, size_t hi)
{
    unsigned missing_wrong = 0;
    for (size_t k = 0; k < NSYM + NREC; k++) {
        int gone = k >= lo && k <= hi;
        if (res->seen[k] == gone) missing_wrong++;
    }
    if (missing_wrong) fail_msg("%u records decoded/lost wrongly (expected lost %zu..%zu)", missing_wrong, lo, hi);
    assert_int_equal(res->bad_args, 0);
}

static int has_diag(const result *res, uint64_t off, const char *word)
{
    return evt_test_diag_has(&res->diags, off, word);
}

static uint8_t *copy(size_t extra) { uint8_t *b = malloc(g_main.n + extra + 1); assert_non_null(b); memcpy(b, g_main.s, g_main.n); return b; }
static const size_t NFRAMES = 1 + NSYM + NREC; /* TCFG + records */

static int setup(void **st) { (void)st; record_stream(&g_main, 0); return 0; }
static int teardown(void **st) { (void)st; free(g_main.s); free(g_alt.s); g_main.s = g_alt.s = NULL; return 0; }

static void test_clean(void **st)
{
    (void)st;
    result res;
    decode(g_main.s, g_main.n, NULL, &res);
    assert_true(res.status_ok);
    want(&res, "frames", NFRAMES);
    want(&res, "frames_ok", NFRAMES);
    want(&res, "checksum_errors", 0);
    want(&res, "aborted_frames", 0);
    want(&res, "seq_gaps", 0);
    want(&res, "missing_records", 0);
    want(&res, "trailing_bytes", 0);
    assert_int_equal(res.diags.n, 0);
    assert_int_equal(res.nlost, 0);
    want_all_but(&res, 1, 0);
    free(res.info);
}

static void test_flipped_bit(void **st)
{
    (void)st;
    size_t k = NSYM + 700, p = g_main.start[k] + 7;
    while (g_main.s[p - 1] == 0x7D || g_main.s[p] == 0x7D || ((g_main.s[p] ^ 0x04) == 0x7E) || ((g_main.s[p] ^ 0x04) == 0x7D)) p++;
    assert_true(p < g_main.end[k]);
    uint8_t *b = copy(0);
    b[p] ^= 0x04;
    result res;
    decode(b, g_main.n, NULL, &res);
    assert_true(res.status_ok);
    want(&res, "frames", NFRAMES);
    want(&res, "frames_ok", NFRAMES - 1);
    want(&res, "checksum_errors", 1);
    want(&res, "aborted_frames", 0);
    want(&res, "seq_gaps", 1);
    want(&res, "missing_records", 1);
    assert_true(has_diag(&res, g_main.start[k], "checksum"));
    assert_int_equal(res.nlost, 1);
    assert_int_equal(res.lost_sum, 1);
    want_all_but(&res, k, k);
    free(res.info);
    free(b);
}

static void test_cut_300(void **st)
{
    (void)st;
    size_t a = NSYM + 900, from = g_main.start[a] + 5;
    while (g_main.s[from - 1] == 0x7D) from++;
    size_t to = from + 300, b = a;
    while (g_main.end[b] < to) b++;             /* record b holds the first byte after the cut */
    assert_true(to > g_main.start[b] && g_main.s[to - 1] != 0x7D);
    uint8_t *d = malloc(g_main.n);
    memcpy(d, g_main.s, from);
    memcpy(d + from, g_main.s + to, g_main.n - to);
    result res;
    decode(d, g_main.n - 300, NULL, &res);
    size_t lost = b - a + 1;
    assert_true(lost > 10 && lost < 256);
    want(&res, "frames", NFRAMES - (b - a));
    want(&res, "frames_ok", NFRAMES - lost);
    want(&res, "checksum_errors", 1);
    want(&res, "seq_gaps", 1);
    want(&res, "missing_records", lost);
    assert_true(has_diag(&res, g_main.start[a], "checksum"));
    assert_int_equal(res.lost_sum, lost);
    want_all_but(&res, a, b);
    free(res.info);
    free(d);
}

static void test_escape_before_flag(void **st)
{
    (void)st;
    size_t k = NSYM + 1100, f = g_main.end[k];
    uint8_t *d = malloc(g_main.n + 1);
    memcpy(d, g_main.s, f);
    d[f] = 0x7D;
    memcpy(d + f + 1, g_main.s + f, g_main.n - f);
    result res;
    decode(d, g_main.n + 1, NULL, &res);
    want(&res, "frames", NFRAMES - 1);
    want(&res, "frames_ok", NFRAMES - 1);
    want(&res, "aborted_frames", 1);
    want(&res, "checksum_errors", 0);
    want(&res, "seq_gaps", 1);
    want(&res, "missing_records", 1);
    assert_true(has_diag(&res, g_main.start[k], "aborted"));
    assert_int_equal(res.lost_sum, 1);
    want_all_but(&res, k, k);
    free(res.info);
    free(d);
}

static void test_truncated_tail(void **st)
{
    (void)st;
    size_t k = NSYM + NREC - 1, n = g_main.start[k] + 6;
    result res;
    decode(g_main.s, n, NULL, &res);
    want(&res, "frames", NFRAMES - 1);
    want(&res, "frames_ok", NFRAMES - 1);
    want(&res, "trailing_bytes", 6);
    want(&res, "checksum_errors", 0);
    want(&res, "seq_gaps", 0);
    assert_true(has_diag(&res, g_main.start[k], "trailing"));
    want_all_but(&res, k, k);
    free(res.info);
}

static void test_start_mid_frame(void **st)
{
    (void)st;
    size_t k = NSYM + 300, cut = g_main.start[k] + 4;  /* TCFG, symbols and records < k: gone; k: partial */
    const uint8_t *p = g_main.s + cut;
    size_t n = g_main.n - cut, before = g_main.end[k] - cut;
    /* without TCFG or a configuration: the template's 1-byte signals do not fit this stream */
    result res;
    decode(p, n, NULL, &res);
    want(&res, "bytes_before_first_flag", before);
    assert_non_null(strstr(res.info, "\"tcfg\":null"));
    assert_true(has_diag(&res, 0, "before the first flag"));
    free(res.info);
    /* with the target's rkhcfg.h given out of band: every complete record decodes */
    char cfg[512];
    snprintf(cfg, sizeof cfg, "%s/rkhcfg.h", evt_test_tmpdir());
    const char *text = "/* the target's own configuration */\n"
                       "#define RKH_CFG_FWK_SIZEOF_EVT          16u\n"
                       "#define RKH_CFG_TMR_SIZEOF_NTIMER       16\n"
                       "#define RKH_CFG_SMA_TRC_SNDR_EN         RKH_DISABLED\n"
                       "#define RKH_CFG_QUE_GET_LWMARK_EN       0\n"
                       "#define RKH_CFG_MP_GET_LWM_EN           0\n";
    assert_int_equal(evt_test_write_file(cfg, text, strlen(text)), 0);
    decode(p, n, cfg, &res);
    assert_true(res.status_ok);
    size_t rest = NSYM + NREC - (k + 1);
    want(&res, "bytes_before_first_flag", before);
    want(&res, "frames", rest);
    want(&res, "frames_ok", rest);
    want(&res, "checksum_errors", 0);
    want(&res, "length_errors", 0);
    want(&res, "seq_gaps", 0);         /* the first valid frame only sets the baseline */
    want(&res, "missing_records", 0);
    assert_int_equal(res.ndata, rest);
    want_all_but(&res, 0, k);
    free(res.info);
}

/* g_alt with two bytes taken out of record k's arguments (none of them an escape or escaped): its
 * frame is 2 bytes shorter than its layout, with nothing else wrong. */
static uint8_t *alt_short(size_t k, size_t *n)
{
    size_t p = g_alt.start[k] + 6;
    while (g_alt.s[p - 1] == 0x7D || g_alt.s[p] == 0x7D || g_alt.s[p + 1] == 0x7D) p++;
    assert_true(p + 2 < g_alt.end[k]);
    uint8_t *d = malloc(g_alt.n);
    assert_non_null(d);
    memcpy(d, g_alt.s, p);
    memcpy(d + p, g_alt.s + p + 2, g_alt.n - p - 2);
    *n = g_alt.n - 2;
    return d;
}

/* No sequence numbers, no checksum: a frame whose length does not match its layout is one lost
 * record (until 6 Dec it was only an error, and lost stayed 0), and its message gives the layout's
 * length. */
static void test_length_error_unnumbered(void **st)
{
    (void)st;
    record_stream(&g_alt, EVT_RKH_F_TRC_NSEQ_EN | EVT_RKH_F_TRC_CHK_EN);
    size_t k = NSYM + 500, n; /* SM_STATE: id, 4-byte timestamp, two 4-byte pointers */
    uint8_t *d = alt_short(k, &n);
    result res;
    decode(d, n, NULL, &res);
    assert_true(res.status_ok);
    want(&res, "frames", NFRAMES);
    want(&res, "frames_ok", NFRAMES - 1);
    want(&res, "length_errors", 1);
    want(&res, "damaged_lost", 1);
    assert_true(has_diag(&res, g_alt.start[k], "frame length 11 does not match the layout of SM_STATE (needs 13)"));
    assert_int_equal(res.nlost, 1);
    assert_int_equal(res.lost_sum, 1);
    want_all_but(&res, k, k);
    free(res.info);
    free(d);
}

/* Sequence numbers, no checksum: a short frame amid the stream is counted by the gap after it
 * (once: damaged_lost 0); the last frame of the stream, which no gap follows, is counted at the end
 * (until 6 Dec it was not counted at all). */
static void test_length_error_numbered(void **st)
{
    (void)st;
    record_stream(&g_alt, EVT_RKH_F_TRC_CHK_EN);
    size_t k = NSYM + 700, n;
    uint8_t *d = alt_short(k, &n);
    result res;
    decode(d, n, NULL, &res);
    want(&res, "length_errors", 1);
    want(&res, "seq_gaps", 1);
    want(&res, "missing_records", 1);
    want(&res, "damaged_lost", 0);
    assert_int_equal(res.lost_sum, 1);
    want_all_but(&res, k, k);
    free(res.info);
    free(d);
    k = NSYM + NREC - 1; /* TMR_TOUT: id, seq, timestamp, timer, 2-byte signal, ao */
    d = alt_short(k, &n);
    decode(d, n, NULL, &res);
    assert_true(res.status_ok);
    want(&res, "length_errors", 1);
    want(&res, "seq_gaps", 0);
    want(&res, "damaged_lost", 1);
    assert_true(has_diag(&res, g_alt.start[k], "(needs 16)"));
    assert_int_equal(res.nlost, 1);
    assert_int_equal(res.lost_sum, 1);
    want_all_but(&res, k, k);
    free(res.info);
    free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clean),
        cmocka_unit_test(test_flipped_bit),
        cmocka_unit_test(test_cut_300),
        cmocka_unit_test(test_escape_before_flag),
        cmocka_unit_test(test_truncated_tail),
        cmocka_unit_test(test_start_mid_frame),
        cmocka_unit_test(test_length_error_unnumbered),
        cmocka_unit_test(test_length_error_numbered),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
