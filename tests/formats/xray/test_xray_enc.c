/* Unit tests of the XRay recorder core (xray_enc.c): golden bytes of the block preamble, function
 * records, NewCPUId/TSCWrap re-basing, call arguments, custom/typed events and the file header;
 * round trips through the reader; whole-buffer rotation (newest buffers kept, every overwritten
 * record carried by loss records) and exhaustion (records dropped, counted, loss record before
 * the next record); the POSIX explicit API writing a file the reader reads; a signal handler
 * recording in the middle of a record (dropped, counted, loss record in place: exact); the
 * explicit API's usual path (loss record first, NewCPUId on a CPU change). */
#define _GNU_SOURCE
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "evt_test.h"
#include "evtrace/port.h"
#include "evtrace/reader.h"
#include "evtrace/xray.h"
#include "formats/common/bytes.h"
#include "formats/xray/xray_defs.h"

static void fixed_wall(int64_t *sec, int32_t *usec) { *sec = 1004; *usec = 292489; }

/* Serialise a pool as a file (what evt_xray_write_file does) into out; returns its size. */
static size_t to_file(const evt_xray_pool *p, uint8_t *out, uint64_t hz)
{
    size_t n = 0;
    evt_xray_file_header(out, hz, 1, 1, p->buf_size, 0, evt_xray_header_dropped(p));
    n = 32;
    for (uint32_t s = 0; s < p->next + p->nbufs; s++) { /* acquisition order */
        for (uint32_t i = 0; i < p->nbufs; i++) {
            const evt_xray_buf *b = &p->bufs[i];
            if (b->seq != s || b->extents == 0) continue;
            evt_xray_extents_record(out + n, b->extents);
            n += 16;
            memcpy(out + n, p->mem + (size_t)i * p->buf_size, b->extents);
            n += b->extents;
        }
    }
    return n;
}

static void test_golden_bytes(void **st)
{
    (void)st;
    static uint8_t mem[1024];
    evt_xray_buf bufs[2];
    evt_xray_pool p;
    memset(&p, 0, sizeof p);
    assert_int_equal(evt_xray_pool_init(&p, mem, sizeof mem, bufs, 2, 23597, fixed_wall), 0);
    assert_int_equal(p.buf_size, 512);
    evt_xray_writer w;
    memset(&w, 0, sizeof w);
    w.tid = 23601;
    assert_int_equal(evt_xray_fn_fast(&w, &p, XRAY_FN_ENTER, 8, 0x18ea4cd8557a22a9ull, 0), 0);
    /* the sample's block start (formats/xray.md §4.3), with zeroed padding */
    static const uint8_t want[] = {
        0x01, 0x31, 0x5c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,                         /* NewBuffer 23601 */
        0x09, 0xec, 0x03, 0, 0, 0, 0, 0, 0, 0x89, 0x76, 0x04, 0, 0, 0, 0,                /* Walltime 1004 s 292489 us */
        0x13, 0x2d, 0x5c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,                         /* Pid 23597 */
        0x05, 0x00, 0x00, 0xa9, 0x22, 0x7a, 0x55, 0xd8, 0x4c, 0xea, 0x18, 0, 0, 0, 0, 0, /* NewCPUId 0 */
        0x80, 0, 0, 0, 0, 0, 0, 0,                                                       /* Enter #8 +0 */
    };
    assert_int_equal(bufs[0].extents, sizeof want);
    assert_memory_equal(mem, want, sizeof want);
    /* sample offset 0x120: EnterArg #3 +110, CallArgument 1000 */
    uint64_t arg = 1000;
    assert_int_equal(evt_xray_rec_fn(&w, &p, XRAY_FN_ENTER_ARG, 3, 0x18ea4cd8557a22a9ull + 110, 0, 1, &arg), 0);
    static const uint8_t want2[] = {0x36, 0, 0, 0, 0x6e, 0, 0, 0, 0x0d, 0xe8, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_memory_equal(mem + sizeof want, want2, sizeof want2);
    size_t o = sizeof want + sizeof want2;
    /* another CPU: NewCPUId then the record with delta 0 */
    assert_int_equal(evt_xray_fn_fast(&w, &p, XRAY_FN_EXIT, 3, 5000, 1), 0);
    static const uint8_t want3[] = {0x05, 0x01, 0x00, 0x88, 0x13, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x32, 0, 0, 0, 0, 0, 0, 0};
    assert_memory_equal(mem + o, want3, sizeof want3);
    o += sizeof want3;
    /* a delta above INT32_MAX: TSCWrap */
    assert_int_equal(evt_xray_fn_fast(&w, &p, XRAY_FN_TAIL_EXIT, 0x0FFFFFFF, 5000 + 0x80000000ull, 1), 0);
    static const uint8_t want4[] = {0x07, 0x88, 0x13, 0, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xf4, 0xff, 0xff, 0xff, 0, 0, 0, 0};
    assert_memory_equal(mem + o, want4, sizeof want4);
    o += sizeof want4;
    /* custom (v5: size, delta) and typed (size, delta, type) events with their payloads */
    assert_int_equal(evt_xray_rec_event(&w, &p, -1, "ev t1 i0", 8, 5000 + 0x80000000ull + 0x123, 1), 0);
    static const uint8_t want5[] = {0x0b, 8, 0, 0, 0, 0x23, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 'e', 'v', ' ', 't', '1', ' ', 'i', '0'};
    assert_memory_equal(mem + o, want5, sizeof want5);
    o += sizeof want5;
    assert_int_equal(evt_xray_rec_event(&w, &p, 7, "xy", 2, 5000 + 0x80000000ull + 0x124, 1), 0);
    static const uint8_t want6[] = {0x11, 2, 0, 0, 0, 1, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 'x', 'y'};
    assert_memory_equal(mem + o, want6, sizeof want6);
    o += sizeof want6;
    assert_int_equal(bufs[0].extents, o);
    /* header */
    uint8_t h[32];
    evt_xray_file_header(h, 1000000000u, 1, 1, 16384, 2, 3);
    static const uint8_t wanth[] = {5, 0, 1, 0, 3, 0, 0, 0, 0x00, 0xca, 0x9a, 0x3b, 0, 0, 0, 0,
                                    0x00, 0x40, 0, 0, 'e', 'v', 't', 'r', 2, 0, 0, 0, 3, 0, 0, 0};
    assert_memory_equal(h, wanth, 32);
    uint8_t e[16];
    evt_xray_extents_record(e, 888);
    static const uint8_t wante[] = {0x0f, 0x78, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_memory_equal(e, wante, 16);
}

typedef struct rd {
    unsigned n, lost_events;
    uint64_t lost_sum;
    uint64_t lost_count[4];
    char lost_unit[4][16];
    int lost_saturated[4]; /* the lost event has fields.saturated = 1 */
    uint32_t fid[4096];
    uint64_t ts[4096];
    uint64_t ctx[4096];
    uint64_t errors;
} rd;

static rd *read_back(const uint8_t *file, size_t n)
{
    rd *g = calloc(1, sizeof *g);
    evt_reader *r = NULL;
    char err[256];
    assert_int_equal(evt_reader_open_mem(file, n, NULL, NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    assert_string_equal(r->desc->name, "xray");
    evt_event ev;
    evt_status s;
    while ((s = evt_reader_next(r, &ev)) == EVT_OK) {
        if (ev.kind == EVT_KIND_LOST) {
            g->lost_sum += ev.count;
            if (g->lost_events < 4) {
                g->lost_count[g->lost_events] = ev.count;
                snprintf(g->lost_unit[g->lost_events], 16, "%s", ev.fields[0].str);
                for (uint32_t i = 1; i < ev.nfields; i++)
                    if (strcmp(ev.fields[i].key, "saturated") == 0) g->lost_saturated[g->lost_events] = (int)ev.fields[i].num;
            }
            g->lost_events++;
            continue;
        }
        if (g->n < 4096) { g->fid[g->n] = (uint32_t)ev.args[0]; g->ts[g->n] = ev.ts; g->ctx[g->n] = ev.ctx; }
        g->n++;
    }
    assert_int_equal(s, EVT_END);
    g->errors = r->errors;
    evt_reader_close(r);
    return g;
}

static void test_roundtrip_two_threads(void **st)
{
    (void)st;
    static uint8_t mem[4096], file[8192];
    evt_xray_buf bufs[4];
    evt_xray_pool p;
    memset(&p, 0, sizeof p);
    assert_int_equal(evt_xray_pool_init(&p, mem, sizeof mem, bufs, 4, 10, fixed_wall), 0);
    evt_xray_writer a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.tid = 11;
    b.tid = 12;
    for (uint32_t i = 0; i < 20; i++) {
        assert_int_equal(evt_xray_fn_fast(&a, &p, XRAY_FN_ENTER, i + 1, 1000 + 10 * i, 0), 0);
        assert_int_equal(evt_xray_fn_fast(&b, &p, XRAY_FN_ENTER, i + 100, 1005 + 10 * i, 1), 0);
    }
    size_t n = to_file(&p, file, 1000000000u);
    rd *g = read_back(file, n);
    assert_int_equal(g->errors, 0);
    assert_int_equal(g->lost_events, 0);
    assert_int_equal(g->n, 40);
    for (unsigned i = 0; i < 40; i++) { /* merged by time: a, b, a, b, ... */
        assert_true(g->ts[i] == 1000 + 5 * i);
        assert_int_equal(g->ctx[i], i % 2 ? 12 : 11);
        assert_int_equal(g->fid[i], i % 2 ? i / 2 + 100 : i / 2 + 1);
    }
    free(g);
}

/* 4 buffers of 256 bytes (64-byte preamble + 24 records, or a 32-byte loss record + 20), one
 * thread writing 200 records: the newest 4 buffers survive; the loss records in them plus the
 * header's pending count carry every overwritten record, exactly. */
static void test_rotation_keeps_newest(void **st)
{
    (void)st;
    static uint8_t mem[1024], file[4096];
    evt_xray_buf bufs[4];
    evt_xray_pool p;
    memset(&p, 0, sizeof p);
    assert_int_equal(evt_xray_pool_init(&p, mem, sizeof mem, bufs, 4, 1, NULL), 0);
    evt_xray_writer w;
    memset(&w, 0, sizeof w);
    w.tid = 1;
    for (uint32_t i = 1; i <= 200; i++) assert_int_equal(evt_xray_fn_fast(&w, &p, XRAY_FN_ENTER, i, i, 0), 0);
    /* 4 buffers of 24, then buffers of a loss record + 20: 10 taken, the first 6 overwritten */
    assert_int_equal(p.next, 10);
    assert_int_equal(p.lost, 6);
    assert_int_equal(p.dropped, 0);
    evt_rec_stats rs;
    evt_xray_pool_rec_stats(&p, &rs);
    assert_int_equal(rs.dropped, 0);
    assert_int_equal(rs.overwritten, 4 * 24 + 2 * 20); /* records of the 6 overwritten buffers */
    assert_int_equal(rs.dropped + rs.overwritten, rs.lost_reported + rs.pending);
    size_t n = to_file(&p, file, 1000);
    rd *g = read_back(file, n);
    assert_int_equal(g->errors, 0);
    assert_int_equal(g->n, 200 - 4 * 24 - 2 * 20);
    assert_int_equal(g->n + g->lost_sum, 200); /* exact */
    assert_string_equal(g->lost_unit[0], "records");
    for (unsigned i = 0; i < g->n; i++) assert_int_equal(g->fid[i], 200 - g->n + 1 + i); /* newest records, in order */
    free(g);
}

static void test_exhaustion_drops_and_counts(void **st)
{
    (void)st;
    static uint8_t mem[256], file[1024];
    evt_xray_buf bufs[1];
    evt_xray_pool p;
    memset(&p, 0, sizeof p);
    assert_int_equal(evt_xray_pool_init(&p, mem, sizeof mem, bufs, 1, 1, NULL), 0);
    evt_xray_writer a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.tid = 1;
    b.tid = 2;
    assert_int_equal(evt_xray_fn_fast(&a, &p, XRAY_FN_ENTER, 1, 10, 0), 0);
    assert_int_equal(evt_xray_fn_fast(&b, &p, XRAY_FN_ENTER, 2, 11, 0), -1); /* a owns the only buffer */
    assert_int_equal(evt_xray_rec_event(&b, &p, -1, "x", 1, 12, 0), -1);
    char big[300] = {0};
    assert_int_equal(evt_xray_rec_event(&a, &p, -1, big, sizeof big, 13, 0), -1); /* larger than a buffer */
    assert_int_equal(p.dropped, 3);
    assert_int_equal(evt_xray_fn_fast(&a, &p, XRAY_FN_EXIT, 1, 20, 0), 0);
    size_t n = to_file(&p, file, 1000);
    rd *g = read_back(file, n);
    assert_int_equal(g->n, 2);
    assert_int_equal(g->lost_events, 1); /* the loss record written before the exit */
    assert_true(g->lost_count[0] == 3);
    assert_string_equal(g->lost_unit[0], "records");
    assert_int_equal(evt_xray_loss_pending(&p), 0);
    free(g);
    /* bad configurations */
    assert_int_equal(evt_xray_pool_init(&p, mem, sizeof mem, bufs, 0, 1, NULL), -1);
    assert_int_equal(evt_xray_pool_init(&p, mem, 100, bufs, 1, 1, NULL), -1);
}

/* An application custom event of 16 bytes that starts with the loss record's tag would read back
 * as a loss record (its event gone, its bytes 8-15 taken as a count: 123456789 lost from 2 events
 * issued, found by an outside stress run): the recorder refuses it, dropped and counted (the next
 * loss record carries it: decoded + lost == issued); one byte shorter or with another tag, and a
 * typed event with those bytes, are written as they are. A file of another writer (no "evtr" in
 * its header: compiler-rt's) keeps such an event as the application's custom event. */
static void test_loss_lookalike_refused(void **st)
{
    (void)st;
    static uint8_t mem[1024], file[2048];
    evt_xray_buf bufs[2];
    evt_xray_pool p;
    memset(&p, 0, sizeof p);
    assert_int_equal(evt_xray_pool_init(&p, mem, sizeof mem, bufs, 2, 1, NULL), 0);
    evt_xray_writer w;
    memset(&w, 0, sizeof w);
    w.tid = 5;
    uint8_t fake[16];
    memcpy(fake, XRAY_EVT_LOSS_TAG, 8);
    evt_put_u64le(fake + 8, 123456789u);
    assert_int_equal(evt_xray_rec_event(&w, &p, -1, "hello", 5, 10, 0), 0);
    assert_int_equal(evt_xray_rec_event(&w, &p, -1, fake, 16, 11, 0), -1); /* refused */
    assert_int_equal(p.dropped, 1);
    assert_int_equal(evt_xray_rec_event(&w, &p, -1, fake, 15, 12, 0), 0);  /* not 16 bytes */
    assert_int_equal(evt_xray_rec_event(&w, &p, 3, fake, 16, 13, 0), 0);   /* typed */
    fake[0] = 'E';
    assert_int_equal(evt_xray_rec_event(&w, &p, -1, fake, 16, 14, 0), 0);  /* another tag */
    size_t n = to_file(&p, file, 1000);
    rd *g = read_back(file, n);
    assert_int_equal(g->errors, 0);
    assert_int_equal(g->n, 4);              /* hello, the 15 bytes, the typed event, "Evtr..." */
    assert_int_equal(g->lost_sum, 1);       /* the refused one */
    free(g);
    /* the same bytes as another writer's custom event (written with 'E', made 'e' in the file):
     * with evtrace's header mark it is a loss record; without it (compiler-rt's header), the
     * application's event */
    memset(&p, 0, sizeof p);
    assert_int_equal(evt_xray_pool_init(&p, mem, sizeof mem, bufs, 2, 1, NULL), 0);
    memset(&w, 0, sizeof w);
    w.tid = 5;
    assert_int_equal(evt_xray_rec_event(&w, &p, -1, fake, 16, 10, 0), 0);
    n = to_file(&p, file, 1000);
    size_t at = 0;
    for (size_t i = 32; i + 16 <= n; i++)
        if (memcmp(file + i, "EvtrLOSS", 8) == 0) { at = i; break; }
    assert_true(at != 0);
    file[at] = 'e';
    g = read_back(file, n);
    assert_int_equal(g->lost_sum, 123456789u);
    free(g);
    evt_put_u32le(file + XRAY_HDR_EVT_MAGIC_OFF, 0);
    g = read_back(file, n);
    assert_int_equal(g->errors, 0);
    assert_int_equal(g->lost_events, 0);
    assert_int_equal(g->n, 1);
    free(g);
}

/* The header's records-dropped field is a u32: more than 2^32 - 1 pending drops are written as
 * 0xFFFFFFFF and read as at least that many (fields.saturated), not wrapped to a small count
 * (2^32 + 3 read as 3 before). The drops are added to the account directly: 4 billion calls
 * would take minutes. */
static void test_header_dropped_saturates(void **st)
{
    (void)st;
    if (sizeof(evt_rec_count) < 8) skip();
    static uint8_t mem[256], file[1024];
    evt_xray_buf bufs[1];
    evt_xray_pool p;
    memset(&p, 0, sizeof p);
    assert_int_equal(evt_xray_pool_init(&p, mem, sizeof mem, bufs, 1, 1, NULL), 0);
    const uint64_t counts[] = {((uint64_t)1 << 32) + 3u, 0xFFFFFFFEu};
    for (unsigned k = 0; k < 2; k++) {
        p.loss.dropped = (evt_rec_count)counts[k];
        size_t n = to_file(&p, file, 1000);
        assert_int_equal(n, 32); /* no buffer holds data: the header carries every loss */
        rd *g = read_back(file, n);
        assert_int_equal(g->lost_events, 1);
        assert_string_equal(g->lost_unit[0], "records");
        assert_int_equal(g->lost_count[0], k == 0 ? 0xFFFFFFFFu : counts[k]);
        assert_int_equal(g->lost_saturated[0], k == 0);
        free(g);
    }
}

/* The POSIX explicit API (no XRay runtime in this test program: the handlers are skipped). */
static void test_posix_explicit_api(void **st)
{
    (void)st;
    evt_xray_config cfg = {4096, 8, 0};
    assert_int_equal(evt_xray_start(&cfg), 0);
    assert_int_equal(evt_xray_start(&cfg), -1); /* already started */
    evt_xray_enter(1);
    evt_xray_enter_arg(2, 77);
    evt_xray_custom_event("hello", 5);
    evt_xray_typed_event(9, "ab", 2);
    evt_xray_exit(2);
    evt_xray_tail_exit(1);
    assert_int_equal(evt_xray_stop(), 0);
    evt_xray_enter(3); /* not recording */
    char path[512];
    snprintf(path, sizeof path, "%s/explicit.xray", evt_test_tmpdir());
    assert_int_equal(evt_xray_write_file(path), 0);
    assert_true(evt_xray_cycle_hz() > 0);
    char cmd[1200], *out = NULL;
    snprintf(cmd, sizeof cmd, "%s dump --json %s", evt_test_bin(), path);
    assert_int_equal(evt_test_run(cmd, &out, NULL), 0);
    const char *want[] = {"\"name\":\"enter\"", "\"name\":\"enter_args\"", "\"args\":[2,77]", "\"text\":\"hello\"",
                          "\"name\":\"typed_event\"", "\"name\":\"exit\"", "\"name\":\"tail_exit\""};
    const char *q = out;
    for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++) {
        const char *f = strstr(q, want[i]);
        if (!f) fail_msg("missing %s in:\n%s", want[i], out);
        q = f;
    }
    assert_null(strstr(out, "\"args\":[3]"));
    free(out);
}

/* ---- a signal handler recording in the middle of a record ----------------------------------- */

static volatile int g_arm;      /* signal to raise at the next in-record hook, 0 = none */
static void in_record(void)
{
    int sig = g_arm;
    if (sig) { g_arm = 0; raise(sig); }
}
static void raw_handler(int sig) /* installed with sigaction: not held off by the port */
{
    (void)sig;
    evt_xray_enter(100);
    evt_xray_exit(100);
}
static void port_isr(int sig) /* installed with evt_posix_isr_install: a simulated ISR */
{
    (void)sig;
    evt_xray_enter(300);
}

/* A raw signal handler (2 records) lands inside enter(2), a port ISR (1 record) inside exit(1):
 * both find the thread's record in progress, are dropped and counted, and a loss record carrying
 * each count precedes the next record that gets through (the interrupted one, which had not
 * written anything yet). 9 issued = 6 read + 3 lost, exactly. */
static void test_posix_nested_signal(void **st)
{
    (void)st;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = raw_handler;
    sigemptyset(&sa.sa_mask);
    assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
    assert_int_equal(evt_posix_isr_install(SIGUSR2, port_isr), 0);
    evt_xray_config cfg = {4096, 8, 1};
    assert_int_equal(evt_xray_start(&cfg), 0);
    evt_xray_test_in_record_hook = in_record;
    evt_xray_enter(1);
    g_arm = SIGUSR1;
    evt_xray_enter(2);
    assert_int_equal(g_arm, 0); /* the signal was raised inside the record */
    evt_xray_exit(2);
    g_arm = SIGUSR2;
    evt_xray_exit(1);
    assert_int_equal(g_arm, 0);
    evt_xray_enter(3);
    evt_xray_exit(3);
    evt_xray_test_in_record_hook = NULL;
    assert_int_equal(evt_xray_stop(), 0);
    evt_rec_stats rs;
    evt_xray_get_rec_stats(&rs);
    assert_int_equal(rs.dropped, 3);
    assert_int_equal(evt_xray_records_dropped(), rs.dropped); /* the older counter agrees (issue 31) */
    assert_int_equal(rs.loss_records, 2);
    assert_int_equal(rs.lost_reported, 3);
    assert_int_equal(rs.pending, 0);
    char path[512];
    snprintf(path, sizeof path, "%s/nested.xray", evt_test_tmpdir());
    assert_int_equal(evt_xray_write_file(path), 0);
    evt_reader *r = NULL;
    char err[256];
    assert_int_equal(evt_reader_open_file(path, "xray", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    static const struct { int lost; uint64_t fid_or_count; } want[] = {
        {0, 1}, {1, 2}, {0, 2}, {0, 2}, {1, 1}, {0, 1}, {0, 3}, {0, 3}};
    evt_event ev;
    unsigned n = 0;
    uint64_t data = 0, lost = 0;
    while (evt_reader_next(r, &ev) == EVT_OK) {
        assert_true(n < sizeof want / sizeof want[0]);
        assert_int_equal(ev.kind == EVT_KIND_LOST, want[n].lost);
        if (want[n].lost) lost += ev.count;
        else data++;
        assert_int_equal(want[n].lost ? ev.count : ev.args[0], want[n].fid_or_count);
        n++;
    }
    assert_int_equal(r->errors, 0);
    evt_reader_close(r);
    assert_int_equal(n, sizeof want / sizeof want[0]);
    assert_int_equal(data + lost, 9);
    signal(SIGUSR1, SIG_DFL);
    signal(SIGUSR2, SIG_DFL);
}

/* ---- the explicit API's usual path ------------------------------------------------------------ */

/* Pin the calling thread to cpu; returns 0 or -1. */
static int pin_to(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set);
}

/* evt_xray_fn_on's usual path (no test hook: the path every program takes) keeps the record
 * contract: a loss counted between two records (a custom event too large to record: dropped and
 * counted, nothing written) is carried by a loss record written before the next record, and a
 * record made on another CPU than the writer's last is preceded by NewCPUId, so each event reads
 * back with the CPU it ran on. On a machine with a single usable CPU the CPU half says so and
 * checks the one CPU. */
static void test_posix_usual_path(void **st)
{
    (void)st;
    cpu_set_t orig;
    assert_int_equal(sched_getaffinity(0, sizeof orig, &orig), 0);
    int cpus[2] = {-1, -1}, ncpu = 0;
    for (int c = 0; c < CPU_SETSIZE && ncpu < 2; c++)
        if (CPU_ISSET(c, &orig)) cpus[ncpu++] = c;
    if (ncpu < 2) {
        fprintf(stderr, "test_posix_usual_path: one usable CPU: the CPU change is not exercised\n");
        cpus[1] = cpus[0];
    }
    evt_xray_config cfg = {4096, 8, 1};
    assert_int_equal(evt_xray_start(&cfg), 0);
    evt_xray_enter(11); /* the writer's first record of this session takes the general path */
    evt_xray_exit(11);
    evt_xray_custom_event("x", (size_t)0x80000000u); /* above 2^31 - 1: dropped, counted */
    evt_xray_enter(12);                              /* loss record first */
    evt_xray_exit(12);
    assert_int_equal(pin_to(cpus[0]), 0);
    evt_xray_enter(13);
    assert_int_equal(pin_to(cpus[1]), 0);
    evt_xray_exit(13);
    assert_int_equal(sched_setaffinity(0, sizeof orig, &orig), 0);
    assert_int_equal(evt_xray_stop(), 0);
    char path[512];
    snprintf(path, sizeof path, "%s/usual.xray", evt_test_tmpdir());
    assert_int_equal(evt_xray_write_file(path), 0);
    evt_reader *r = NULL;
    char err[256];
    assert_int_equal(evt_reader_open_file(path, "xray", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    static const struct { int lost; uint64_t fid_or_count; } want[] = {
        {0, 11}, {0, 11}, {1, 1}, {0, 12}, {0, 12}, {0, 13}, {0, 13}};
    evt_event ev;
    unsigned n = 0;
    while (evt_reader_next(r, &ev) == EVT_OK) {
        assert_true(n < sizeof want / sizeof want[0]);
        assert_int_equal(ev.kind == EVT_KIND_LOST, want[n].lost);
        assert_int_equal(want[n].lost ? ev.count : ev.args[0], want[n].fid_or_count);
        if (n >= 5) { /* enter(13) on cpus[0], exit(13) on cpus[1] */
            assert_true(ev.flags & EVT_HAS_CPU);
            assert_int_equal(ev.cpu, (unsigned)cpus[n - 5]);
        }
        n++;
    }
    assert_int_equal(r->errors, 0);
    evt_reader_close(r);
    assert_int_equal(n, sizeof want / sizeof want[0]);
}

/* Stopped: the explicit API and the hooks record nothing and do not reach the runtime. */
static void test_posix_stopped_gate(void **st)
{
    (void)st;
    assert_int_equal(evt_gate_bits(&evt_xray_gate), 0);
    evt_xray_test_in_record_hook = in_record;
    g_arm = SIGUSR1; /* would be raised if a record were started */
    evt_xray_enter(7);
    evt_xray_exit(7);
    assert_int_equal(g_arm, SIGUSR1);
    g_arm = 0;
    evt_xray_test_in_record_hook = NULL;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_bytes),
        cmocka_unit_test(test_roundtrip_two_threads),
        cmocka_unit_test(test_rotation_keeps_newest),
        cmocka_unit_test(test_exhaustion_drops_and_counts),
        cmocka_unit_test(test_loss_lookalike_refused),
        cmocka_unit_test(test_header_dropped_saturates),
        cmocka_unit_test(test_posix_explicit_api),
        cmocka_unit_test(test_posix_nested_signal),
        cmocka_unit_test(test_posix_stopped_gate),
        cmocka_unit_test(test_posix_usual_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
