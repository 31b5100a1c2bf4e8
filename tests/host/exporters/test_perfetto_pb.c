/* The Perfetto exporter's building blocks: the protobuf wire writer (src/host/exporters/pb.c: exact
 * bytes of varints at their limits, tags of high field numbers, fixed64/double little-endian,
 * nested messages, in-place messages, appended fields, sticky out-of-memory), the packet writer's
 * fast paths (cached TrackEvent heads and timestamp high bytes give the general encoder's bytes;
 * names and keys in a rewritten buffer are interned by their text) and the CPU load samples it writes, which
 * come from the analyses' load windows (src/host/analyses/load.c, computed once: busy fractions
 * per window without ISR time, samples at window starts, a 0 after a context stops). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>
#include "evt_test.h"
#include "evtrace/alloc.h"
#include "host/exporters/pb.h"
#include "host/exporters/perfetto_pkt.h"
#include "host/analyses/load.h"

static void assert_bytes_(const evt_pb *b, const uint8_t *want, size_t n)
{
    assert_int_equal(b->n, n);
    assert_memory_equal(b->p, want, n);
}

static void varints_and_tags(void **state)
{
    (void)state;
    evt_pb b = {0};
    evt_pb_uint(&b, 1, 0); /* empty buffer: the growing path */
    evt_pb_uint(&b, 2, 127);
    evt_pb_uint(&b, 3, 128);
    evt_pb_uint(&b, 16, 300);       /* field 16: a two-byte tag */
    evt_pb_int(&b, 4, -1);          /* int64 -1: ten bytes */
    evt_pb_uint(&b, 5, UINT64_MAX); /* ten bytes, last 0x01 */
    static const uint8_t want[] = {
        0x08, 0x00, 0x10, 0x7f, 0x18, 0x80, 0x01, 0x80, 0x01, 0xac, 0x02,
        0x20, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
        0x28, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
    };
    assert_bytes_(&b, want, sizeof want);
    /* many fields through the inline path and across growth: the same bytes as one at a time */
    evt_pb_clear(&b);
    for (uint32_t i = 0; i < 1000; i++) evt_pb_uint(&b, 1 + i % 40, (uint64_t)i * 2654435761u);
    size_t n = b.n;
    uint8_t *copy = test_malloc(n);
    memcpy(copy, b.p, n);
    evt_pb c = {0};
    for (uint32_t i = 0; i < 1000; i++) {
        evt_pb one = {0};
        evt_pb_uint(&one, 1 + i % 40, (uint64_t)i * 2654435761u);
        evt_pb_append(&c, &one);
        evt_pb_free(&one);
    }
    assert_bytes_(&c, copy, n);
    test_free(copy);
    evt_pb_free(&c);
    evt_pb_free(&b);
}

static void fixed_bytes_and_messages(void **state)
{
    (void)state;
    evt_pb b = {0}, child = {0};
    evt_pb_fixed64(&b, 47, 0x0102030405060708ull); /* tag (47 << 3) | 1 = 0x179 */
    evt_pb_double(&b, 44, 1.0);                    /* 0x3ff0000000000000 little-endian */
    evt_pb_str(&b, 2, "ab");
    evt_pb_uint(&child, 1, 5);
    evt_pb_msg(&b, 11, &child);
    evt_pb_bytes(&b, 3, "", 0);
    static const uint8_t want[] = {
        0xf9, 0x02, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
        0xe1, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x3f,
        0x12, 0x02, 'a', 'b',
        0x5a, 0x02, 0x08, 0x05,
        0x1a, 0x00,
    };
    assert_bytes_(&b, want, sizeof want);
    evt_pb_free(&child);
    evt_pb_free(&b);
}

/* Messages written in place (evt_pb_open/close) equal those built in a child and copied: short
 * (one length byte), 127/128/16384-byte lengths (the fields moved for a longer varint), nested,
 * a high field number (two-byte tag), empty. */
static void in_place_messages(void **state)
{
    (void)state;
    static const size_t lens[] = {0, 1, 124, 125, 126, 127, 128, 300, 16381, 16384, 70000};
    for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        evt_pb a = {0}, b = {0}, child = {0}, inner = {0};
        uint8_t *blob = test_malloc(lens[k] + 1);
        for (size_t i = 0; i < lens[k]; i++) blob[i] = (uint8_t)(i * 7);
        /* copied: outer{ uint 1, bytes 2 = blob, inner{ uint 1 } } under field 60 */
        evt_pb_uint(&inner, 1, 9);
        evt_pb_uint(&child, 1, 42);
        evt_pb_bytes(&child, 2, blob, lens[k]);
        evt_pb_msg(&child, 3, &inner);
        evt_pb_uint(&a, 8, 7);
        evt_pb_msg(&a, 60, &child);
        evt_pb_uint(&a, 9, 1);
        /* in place */
        evt_pb_uint(&b, 8, 7);
        size_t at = evt_pb_open(&b, 60);
        evt_pb_uint(&b, 1, 42);
        evt_pb_bytes(&b, 2, blob, lens[k]);
        size_t in = evt_pb_open(&b, 3);
        evt_pb_uint(&b, 1, 9);
        evt_pb_close(&b, in);
        evt_pb_close(&b, at);
        evt_pb_uint(&b, 9, 1);
        assert_false(b.oom);
        assert_bytes_(&b, a.p, a.n);
        test_free(blob);
        evt_pb_free(&a);
        evt_pb_free(&b);
        evt_pb_free(&child);
        evt_pb_free(&inner);
    }
    evt_pb e = {0};
    size_t at = evt_pb_open(&e, 4);
    evt_pb_close(&e, at);
    static const uint8_t want[] = {0x22, 0x00};
    assert_bytes_(&e, want, sizeof want);
    evt_pb_free(&e);
}

static void out_of_memory_is_sticky(void **state)
{
    (void)state;
    evt_pb b = {0}, child = {0};
    evt_alloc_fail_after(1, 1);
    evt_pb_uint(&b, 1, 1); /* the first allocation fails */
    evt_alloc_fail_after(0, 0);
    assert_true(b.oom);
    assert_int_equal(b.n, 0);
    evt_pb_uint(&child, 1, 1);
    evt_pb_msg(&child, 2, &b); /* a failed child makes its parent failed */
    assert_true(child.oom);
    evt_pb_free(&b);
    evt_pb_free(&child);
}

/* ---- CPU load windows ---- */

typedef struct sample {
    uint32_t ctx;
    uint64_t t;
    double pct;
    int first;
} sample;

typedef struct samples {
    sample v[2048];
    size_t n;
} samples;

static void collect_(void *user, uint32_t ctx, uint64_t t, double pct, int first)
{
    samples *s = user;
    assert_true(s->n < sizeof s->v / sizeof s->v[0]);
    s->v[s->n++] = (sample){ctx, t, pct, first};
}

/* A runs [0, 0.6 ms) with an ISR inside [0.1, 0.2 ms), B [0.6, 1 ms), idle, A [1.5, 2 ms); the
 * trace ends at 2.5 ms; 1 ms windows; samples only at event times. */
static void load_samples(void **state)
{
    (void)state;
    static samples s;
    s.n = 0;
    evt_tl tl;
    memset(&tl, 0, sizeof tl);
    tl.have_t = 1;
    tl.first = 0;
    tl.last = 2500000;
    tl.ncpus = 1;
    evt_an_load l;
    evt_an_load_init(&l, 1000000);
    const evt_tl_state_iv run[] = {
        {0, EVT_TL_RUNNING, 0, 0, 600000, EVT_TL_NONE, NULL, 0},
        {1, EVT_TL_RUNNING, 0, 600000, 1000000, EVT_TL_NONE, NULL, 0},
        {0, EVT_TL_RUNNING, 0, 1500000, 2000000, EVT_TL_NONE, NULL, 0},
    };
    for (size_t i = 0; i < 3; i++) evt_an_load_state(&l, &tl, &run[i]);
    evt_tl_isr isr;
    memset(&isr, 0, sizeof isr);
    isr.t0 = 100000;
    isr.t1 = 200000;
    isr.interrupted = 0;
    evt_an_load_isr(&l, &tl, &isr);
    evt_an_load_finish(&l, &tl);
    evt_an_load_samples(&l, &tl, collect_, &s);
    /* each sample at the window's first event time (window 1: A's start at 1.5 ms); window 2 holds
     * no event: no sample there, A's 0 comes at the last time */
    const sample want[] = {
        {0, 0, 50.0, 1}, {0, 1500000, 50.0, 0}, {0, 2500000, 0.0, 0}, /* the ISR's 0.1 ms is not A's */
        {1, 0, 40.0, 1}, {1, 1500000, 0.0, 0},
    };
    assert_int_equal(s.n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < s.n; i++) {
        assert_int_equal(s.v[i].ctx, want[i].ctx);
        assert_int_equal(s.v[i].t, want[i].t);
        assert_true(s.v[i].pct > want[i].pct - 1e-9 && s.v[i].pct < want[i].pct + 1e-9);
        assert_int_equal(s.v[i].first, want[i].first);
    }
    assert_false(l.oom);
    evt_an_load_free(&l);
}


/* A timestamp written with its cached high bytes equals its plain varint, across the 2^21 split,
 * when the high part changes, and at the top of the range. */
static void timestamp_varints(void **state)
{
    (void)state;
    static pf_w w; /* large: not on the stack */
    pf_w_init(&w, NULL);
    const uint64_t vals[] = {0, 1, 127, 128, (1u << 21) - 1, 1u << 21, (1u << 21) + 1, (1u << 22) + 5, (1u << 22) + 6,
                             (1ull << 28) - 1, 1ull << 28, 123456789012ull, 123456789013ull, 123456789012ull + (1u << 21),
                             (1ull << 63) - 1, UINT64_MAX, UINT64_MAX - 1, 5};
    for (int round = 0; round < 2; round++) /* the second round finds most high parts cached */
        for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
            uint8_t got[32], want[32];
            memset(got, 0xEE, sizeof got);
            size_t ng = (size_t)(pf_ts_put_(&w, got, vals[i]) - got);
            size_t nw = (size_t)(pf_vput_(want, vals[i]) - want);
            assert_int_equal(ng, nw);
            assert_memory_equal(got, want, nw);
        }
    pf_w_free(&w);
}

/* TrackEvents from the inline path (heads cached per (type, track), colliding slots included) are
 * the bytes of the same messages built field by field with evt_pb. */
/* The TracePacket {timestamp, sequence 1, flags 2, track_event te} into pkt: its size. */
static size_t te_packet_(evt_pb *pkt, uint64_t ts, const evt_pb *te)
{
    evt_pb_clear(pkt);
    evt_pb_uint(pkt, 8, ts);
    evt_pb_uint(pkt, 10, 1);
    evt_pb_uint(pkt, 13, 2);
    evt_pb_msg(pkt, 11, te);
    return pkt->n;
}

/* Flushes w and checks that its file f holds want's bytes (exact), or begins with them and has
 * more (!exact); closes f and frees w. */
static void finish_writer_(pf_w *w, FILE *f, const evt_pb *want, int exact)
{
    pf_w_flush(w);
    assert_false(pf_w_failed(w));
    if (exact) assert_int_equal((size_t)ftell(f), want->n);
    else assert_true((size_t)ftell(f) > want->n);
    uint8_t *got = evt_malloc(want->n);
    assert_non_null(got);
    rewind(f);
    assert_int_equal(fread(got, 1, want->n, f), want->n);
    assert_memory_equal(got, want->p, want->n);
    evt_free(got);
    fclose(f);
    pf_w_free(w);
}

/* A writer on a new temporary file: the file. */
static FILE *writer_on_tmpfile_(pf_w *w)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    pf_w_init(w, f);
    return f;
}

static void track_event_heads(void **state)
{
    (void)state;
    static pf_w w;
    FILE *f = writer_on_tmpfile_(&w);
    evt_pb want = {0}, pkt = {0}, te = {0};
    uint64_t ts = 1000;
    for (uint32_t i = 0; i < 3000; i++) {
        int type = 1 + (int)(i % 4);
        uint64_t track = (i % 7 == 0) ? (1ull << 32) + i % 300 : (i % 5) * 0x100 + (uint64_t)(i % 3) * (1ull << 40);
        ts += (i * 7919u) % 5000000u; /* crosses many 2^21 boundaries */
        pf_te_begin(&w, type, track, ts);
        pf_te_emit(&w);
        evt_pb_clear(&te);
        evt_pb_uint(&te, 9, (uint64_t)type);
        evt_pb_uint(&te, 11, track);
        te_packet_(&pkt, ts, &te);
        evt_pb_msg(&want, 1, &pkt);
    }
    finish_writer_(&w, f, &want, 1);
    evt_pb_free(&want);
    evt_pb_free(&pkt);
    evt_pb_free(&te);
}

/* A counter value added to the TrackEvent just emitted (extra_counter_track_uuids 31, values 12):
 * the same bytes as an encoder that writes those fields into that TrackEvent; refused (nothing
 * written) at another time, after other bytes, after a flush, on a TYPE_COUNTER event, past 8
 * values, after a value of 0 (what trace_processor reads: perfetto_pkt.h), and when the packet
 * would reach 128 bytes. */
static void extra_counters(void **state)
{
    (void)state;
    static pf_w w;
    FILE *f = writer_on_tmpfile_(&w);
    evt_pb want = {0}, pkt = {0}, te = {0}, trial = {0};
    uint64_t ts = 5000;
    size_t added = 0, refused[4] = {0}; /* full, 8 values, after a 0, a counter event */
    for (uint32_t i = 0; i < 3000; i++) {
        uint64_t track = 0x10 + i % 9;
        int type = i % 10 == 3 ? PF_COUNTER : PF_INSTANT;
        ts += 1 + (i * 7919u) % 3000000u;
        pf_te_begin(&w, type, track, ts);
        if (type == PF_COUNTER) pf_te_counter(&w, 42);
        pf_te_emit(&w);
        evt_pb_clear(&te);
        evt_pb_uint(&te, 9, (uint64_t)type);
        evt_pb_uint(&te, 11, track);
        if (type == PF_COUNTER) evt_pb_int(&te, 30, 42);
        if (i % 50 == 7) pf_w_flush(&w); /* written out: nothing left to add to */
        assert_false(pf_te_extra_counter(&w, ts + 1, 99, 5)); /* another time */
        uint32_t nx = 0;
        int zero = 0;
        for (uint32_t k = 0; k < 1 + i % 13; k++) {
            uint64_t ctr = i % 3 ? 0x1000 + k * 0x333 : (1ull << 40) + k; /* large ones fill the packet */
            int64_t v = (k * 5 + i) % 23 == 0 ? 0 : (k % 3 == 0) ? -(int64_t)(i + k) : (int64_t)(i * 1000003ull * (k + 1));
            evt_pb_clear(&trial);
            evt_pb_append(&trial, &te);
            evt_pb_uint(&trial, 31, ctr);
            evt_pb_int(&trial, 12, v);
            int fits = te_packet_(&pkt, ts, &trial) < 128;
            int ok = i % 50 != 7 && type != PF_COUNTER && nx < PF_EXTRA_COUNTERS_MAX && !zero && fits;
            assert_int_equal(pf_te_extra_counter(&w, ts, ctr, v), ok);
            if (ok) {
                evt_pb_clear(&te);
                evt_pb_append(&te, &trial);
                nx++;
                zero = v == 0;
                added++;
            } else if (i % 50 != 7) {
                refused[type == PF_COUNTER ? 3 : zero ? 2 : nx >= PF_EXTRA_COUNTERS_MAX ? 1 : 0]++;
            }
        }
        assert_true(te_packet_(&pkt, ts, &te) < 128); /* the one-byte length held */
        evt_pb_msg(&want, 1, &pkt);
    }
    pf_track(&w, 0x77, 0, "after", 1); /* other bytes after the last TrackEvent */
    assert_false(pf_te_extra_counter(&w, ts, 0x1000, 1));
    assert_true(added > 3000); /* every way was taken */
    for (int r = 0; r < 4; r++) assert_true(refused[r] > 20);
    finish_writer_(&w, f, &want, 0); /* the track descriptor after want's bytes */
    evt_pb_free(&want);
    evt_pb_free(&pkt);
    evt_pb_free(&te);
    evt_pb_free(&trial);
}

/* The annotation events of write_texts_: round r names the event and its one field key texts[r],
 * either from one writable buffer rewritten each round (reuse: a reader's buffer, the same address
 * with other text) or from a heap copy per round. Returns the bytes written (caller frees). */
static const char *const texts_[] = {"alpha", "beta", "alpha", "gamma", "beta"};
static uint8_t *write_texts_(int reuse, size_t *len)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    static pf_w w;
    pf_w_init(&w, f);
    enum { N = sizeof texts_ / sizeof texts_[0] };
    char *buf[N];
    for (unsigned r = 0; r < N; r++) {
        buf[r] = reuse && r ? buf[0] : evt_malloc(16);
        assert_non_null(buf[r]);
        strcpy(buf[r], texts_[r]);
        assert_false(pf_ro(&w, buf[r])); /* heap text is never trusted by address */
        evt_event ev;
        evt_event_reset(&ev);
        evt_event_add_field_u(&ev, buf[r], r);
        for (unsigned rep = 0; rep < 3; rep++) { /* the repeats take the caches' fast paths */
            pf_te_begin(&w, PF_INSTANT, 0x14, 1000 + 10 * r + rep);
            pf_te_name(&w, buf[r], 0, "cat");
            pf_ann_event(&w, &ev);
            pf_te_emit(&w);
        }
        assert_int_not_equal(evt_strtab_find(&w.dbgnames, texts_[r], strlen(texts_[r])), 0);
    }
#if defined(__linux__) && defined(__ELF__)
    assert_true(pf_ro(&w, texts_[0])); /* a literal: in the program's read-only image */
#endif
    pf_w_flush(&w);
    assert_false(pf_w_failed(&w));
    *len = (size_t)ftell(f);
    uint8_t *got = evt_malloc(*len);
    assert_non_null(got);
    rewind(f);
    assert_int_equal(fread(got, 1, *len, f), *len);
    fclose(f);
    pf_w_free(&w);
    for (unsigned r = 0; r < N; r++)
        if (!reuse || !r) evt_free(buf[r]);
    return got;
}

/* Event names and annotation keys in a buffer a reader rewrites: the pointer caches compare the
 * text of any string outside the program's read-only image, so the trace is byte for byte the one
 * written from a fresh copy of each text (a cache that trusted the address would name "beta" and
 * "gamma" "alpha"). */
static void reused_buffers_named_by_text(void **state)
{
    (void)state;
    size_t n_fresh, n_reuse;
    uint8_t *fresh = write_texts_(0, &n_fresh), *reused = write_texts_(1, &n_reuse);
    assert_int_equal(n_reuse, n_fresh);
    assert_memory_equal(reused, fresh, n_fresh);
    evt_free(fresh);
    evt_free(reused);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(varints_and_tags),
        cmocka_unit_test(fixed_bytes_and_messages),
        cmocka_unit_test(in_place_messages),
        cmocka_unit_test(out_of_memory_is_sticky),
        cmocka_unit_test(timestamp_varints),
        cmocka_unit_test(track_event_heads),
        cmocka_unit_test(extra_counters),
        cmocka_unit_test(reused_buffers_named_by_text),
        cmocka_unit_test(load_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
