/* .etl reader against the real Windows-written samples: every record of each file, printed in
 * the answer key's own notation, must equal the key's record lines (as a multiset: the reader
 * merges per-CPU buffers by time, the key lists file order); plus info keys, merge order, time
 * conversion, and malformed variants (truncation, corrupt compression, bad records). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evt_test.h"
#include "evtrace/json.h"
#include "evtrace/reader.h"

#define SAMPLE(n) EVT_TEST_DATA_DIR "/etw/" n

static const evt_field *field(const evt_event *ev, const char *key)
{
    for (uint32_t i = 0; i < ev->nfields; i++)
        if (strcmp(ev->fields[i].key, key) == 0) return &ev->fields[i];
    return NULL;
}
static uint64_t fu(const evt_event *ev, const char *key)
{
    const evt_field *f = field(ev, key);
    if (!f || f->is_str) fail_msg("event %s has no numeric field %s", ev->name, key);
    return f->num;
}
static const char *fs(const evt_event *ev, const char *key)
{
    const evt_field *f = field(ev, key);
    if (!f || !f->is_str) fail_msg("event %s has no string field %s", ev->name, key);
    return f->str;
}

/* The event in the answer key's notation (see the *.expected.txt files). */
static void key_line(const evt_event *ev, char *out, size_t cap)
{
    const char *ht = fs(ev, "header_type");
    if (strncmp(ht, "SYSTEM", 6) == 0) {
        snprintf(out, cap, "%s size=%" PRIu64 " ver=%" PRIu64 " group=0x%02" PRIx64 " type(opcode)=%" PRIu64 " tid=%" PRIu64 " pid=%" PRIu64 " ts=%" PRIu64,
                 ht, fu(ev, "size"), fu(ev, "version"), fu(ev, "group"), fu(ev, "type"), fu(ev, "tid"), fu(ev, "pid"), ev->ts);
    } else if (strncmp(ht, "FULL_HEADER", 11) == 0) {
        snprintf(out, cap, "%s size=%" PRIu64 " guid=%s class.type=%" PRIu64 " class.level=%" PRIu64 " class.version=%" PRIu64 " tid=%" PRIu64 " pid=%" PRIu64 " ts=%" PRIu64 " kernel=%" PRIu64 " user=%" PRIu64 " payload=%zu",
                 ht, fu(ev, "size"), fs(ev, "guid"), fu(ev, "type"), fu(ev, "level"), fu(ev, "version"), fu(ev, "tid"), fu(ev, "pid"), ev->ts,
                 fu(ev, "kernel_time"), fu(ev, "user_time"), ev->data_len);
        assert_int_equal(ev->id, fu(ev, "type"));
    } else {
        snprintf(out, cap, "%s size=%" PRIu64 " flags=0x%" PRIx64 " prop=0x%" PRIx64 " provider=%s id=%u ver=%" PRIu64 " ch=%" PRIu64 " level=%" PRIu64 " opcode=%" PRIu64 " task=%" PRIu64 " kw=0x%" PRIx64 " tid=%" PRIu64 " pid=%" PRIu64 " ts=%" PRIu64,
                 ht, fu(ev, "size"), fu(ev, "flags"), fu(ev, "event_property"), fs(ev, "guid"), (unsigned)ev->id, fu(ev, "version"), fu(ev, "channel"),
                 fu(ev, "level"), fu(ev, "opcode"), fu(ev, "task"), fu(ev, "keyword"), fu(ev, "tid"), fu(ev, "pid"), ev->ts);
    }
    assert_true(ev->flags & EVT_HAS_CTX);
    assert_int_equal(ev->ctx, fu(ev, "tid"));
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

typedef struct run_result {
    char *lines[64];
    size_t n;
    uint64_t ts[64];
    uint32_t cpu[64];
    char info[8192];
    uint64_t errors;
} run_result;

static void run_reader(const char *path, run_result *rr)
{
    memset(rr, 0, sizeof *rr);
    evt_reader *r = NULL;
    char err[512];
    assert_int_equal(evt_reader_open_file(path, NULL, NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    assert_string_equal(r->desc->name, "etw");
    evt_event ev;
    evt_status st;
    char buf[512];
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        assert_true(rr->n < 64);
        key_line(&ev, buf, sizeof buf);
        rr->lines[rr->n] = strdup(buf);
        rr->ts[rr->n] = ev.ts;
        rr->cpu[rr->n] = ev.cpu;
        rr->n++;
    }
    assert_int_equal(st, EVT_END);
    rr->errors = r->errors;
    FILE *m = fmemopen(rr->info, sizeof rr->info - 1, "w");
    evt_json j;
    evt_json_init(&j, m, 0);
    evt_json_obj_begin(&j);
    r->desc->info(r->state, &j);
    evt_json_obj_end(&j);
    fclose(m);
    evt_reader_close(r);
}

static void free_run(run_result *rr)
{
    for (size_t i = 0; i < rr->n; i++) free(rr->lines[i]);
}

/* Compare with the answer key: same record lines, same buffer and compressed-buffer counts. */
static void check_against_key(const char *etl, const char *key, run_result *rr)
{
    run_reader(etl, rr);
    size_t len;
    char *txt = (char *)evt_test_read_file(key, &len);
    char *exp[64];
    size_t ne = 0, nbuf = 0, ncomp = 0;
    for (char *line = strtok(txt, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "buffer ", 7) == 0) nbuf++;
        if (strstr(line, "compressed:")) ncomp++;
        if (strncmp(line, "  +0x", 5) == 0) {
            char *sp = strchr(line + 3, ' ');
            assert_non_null(sp);
            assert_true(ne < 64);
            exp[ne++] = sp + 1;
        }
    }
    assert_int_equal(rr->n, ne);
    assert_int_equal(rr->errors, 0);
    char *got[64];
    memcpy(got, rr->lines, rr->n * sizeof *got);
    qsort(got, rr->n, sizeof *got, cmp_str);
    qsort(exp, ne, sizeof *exp, cmp_str);
    for (size_t i = 0; i < ne; i++) assert_string_equal(got[i], exp[i]);
    char k[64];
    snprintf(k, sizeof k, "\"buffers\":%zu,", nbuf);
    assert_non_null(strstr(rr->info, k));
    snprintf(k, sizeof k, "\"compressed_buffers\":%zu,", ncomp);
    assert_non_null(strstr(rr->info, k));
    free(txt);
}

static void test_lxcore(void **st)
{
    (void)st;
    run_result rr;
    check_against_key(SAMPLE("etl-parser_lxcore_kernel.etl"), SAMPLE("etl-parser_lxcore_kernel.expected.txt"), &rr);
    /* File order is not time order: buffer 2 (CPU 5) holds the earlier event. */
    assert_int_equal(rr.n, 4);
    assert_int_equal(rr.ts[2], 111046465597ull);
    assert_int_equal(rr.cpu[2], 5);
    assert_int_equal(rr.ts[3], 111046477804ull);
    assert_int_equal(rr.cpu[3], 3);
    assert_non_null(strstr(rr.info, "\"header_types\":{\"SYSTEM64\":2,\"EVENT_HEADER64\":2}"));
    assert_non_null(strstr(rr.info, "\"pointer_size\":8,\"clock_type\":1,"));
    assert_non_null(strstr(rr.info, "\"perf_freq\":10000000,\"events_lost\":0,\"buffers_lost\":0,"));
    assert_non_null(strstr(rr.info, "\"0cd1c309-0878-4515-83db-749843b3f5c9\":2"));
    assert_non_null(strstr(rr.info, "\"logger_name\":\"lxcore_kernel\""));
    assert_non_null(strstr(rr.info, "\"start_time_utc\":\"2020-07-14T12:04:31.1387363Z\""));
    free_run(&rr);
}

static void test_self_describing(void **st)
{
    (void)st;
    run_result rr;
    check_against_key(SAMPLE("perfview_SelfDescribingSingleEvent.etl"), SAMPLE("perfview_SelfDescribingSingleEvent.expected.txt"), &rr);
    assert_non_null(strstr(rr.info, "\"header_types\":{\"SYSTEM64\":4,\"EVENT_HEADER64\":1,\"FULL_HEADER64\":18}"));
    assert_non_null(strstr(rr.info, "\"9b79ee91-b5fd-41c0-a243-4248e266e9d0\":15"));
    assert_non_null(strstr(rr.info, "\"ed54dff8-c409-4cf6-bf83-05e1e61a09c4\":3"));
    assert_non_null(strstr(rr.info, "\"a61ea624-4944-55fc-c2a8-37838829438d\":1"));
    assert_non_null(strstr(rr.info, "\"log_file_mode\":67174401,"));
    /* Time order across the two CPU streams: the TraceLogging event (CPU 1) sits between the
     * classic events of CPU 0; every timestamp is >= the previous one. */
    for (size_t i = 1; i < rr.n; i++) assert_true(rr.ts[i] >= rr.ts[i - 1]);
    assert_int_equal(rr.ts[16], 6459804190760ull);
    assert_int_equal(rr.cpu[16], 1);
    free_run(&rr);
}

static void test_small_32bit(void **st)
{
    (void)st;
    run_result rr;
    check_against_key(SAMPLE("perfview_smallEtlFile.etl"), SAMPLE("perfview_smallEtlFile.expected.txt"), &rr);
    assert_non_null(strstr(rr.info, "\"header_types\":{\"SYSTEM32\":1,\"EVENT_HEADER32\":1}"));
    assert_non_null(strstr(rr.info, "\"pointer_size\":4,\"clock_type\":1,\"clock_name\":\"qpc\",\"perf_freq\":3117777,"));
    assert_non_null(strstr(rr.info, "\"logger_name\":\"PerfWatsonGCHeapETLSession688\",\"log_file_name\":\"ReloggedFile.ETL\""));
    free_run(&rr);
}

/* Raw QPC ticks to Unix-epoch ns with PerfFreq 3 117 777 (not 10 MHz), anchored at StartTime. */
static void test_time_conversion(void **st)
{
    (void)st;
    evt_reader *r = NULL;
    char err[256];
    assert_int_equal(evt_reader_open_file(SAMPLE("perfview_smallEtlFile.etl"), "etw", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    assert_int_equal(evt_reader_next(r, &ev), EVT_OK);
    assert_true(ev.flags & EVT_HAS_TNS);
    /* StartTime 131159502220379266 (FILETIME) - 116444736000000000 = 14714766220379266 x 100 ns */
    uint64_t start_ns = 1471476622037926600ull;
    assert_int_equal(ev.t_ns, start_ns);
    assert_int_equal(evt_reader_next(r, &ev), EVT_OK);
    assert_int_equal(ev.ts - 185227195741ull, 96455);
    assert_int_equal(ev.t_ns, start_ns + 30937106ull); /* 96455 * 1e9 / 3117777, floored */
    assert_int_equal(r->clock_hz, 3117777);
    assert_int_equal(ev.id, 154);
    assert_int_equal(evt_reader_next(r, &ev), EVT_END);
    evt_reader_close(r);
}

/* ---- malformed variants ------------------------------------------------------------------- */

typedef struct bad_result { evt_status open_st, end_st; uint64_t events, errors, lost; char msg[512]; } bad_result;

/* The first diagnostic: "offset N: message" into b->msg (when open succeeded). */
static void first_diag(void *user, uint64_t offset, const char *msg)
{
    bad_result *b = user;
    if (!b->msg[0]) snprintf(b->msg, sizeof b->msg, "offset %" PRIu64 ": %s", offset, msg);
}

static void run_mem(const uint8_t *d, size_t n, bad_result *b)
{
    memset(b, 0, sizeof *b);
    evt_reader *r = NULL;
    b->open_st = evt_reader_open_mem(d, n, "etw", NULL, first_diag, b, &r, b->msg, sizeof b->msg);
    if (b->open_st != EVT_OK) return;
    evt_event ev;
    while ((b->end_st = evt_reader_next(r, &ev)) == EVT_OK) {
    }
    b->events = r->events;
    b->errors = r->errors;
    b->lost = r->lost;
    evt_reader_close(r);
}

static uint8_t *load(const char *name, size_t *n) { return evt_test_read_file(name, n); }

static void test_truncated_file(void **st)
{
    (void)st;
    size_t n;
    uint8_t *d = load(SAMPLE("etl-parser_lxcore_kernel.etl"), &n);
    bad_result b;
    /* Cut inside buffer 2 (after its one record): the record still decodes, the cut is reported. */
    run_mem(d, 0x4000 + 0x100, &b);
    assert_int_equal(b.open_st, EVT_OK);
    assert_int_equal(b.end_st, EVT_END);
    assert_true(b.errors >= 1);
    assert_true(b.lost >= 1);
    /* Cut before buffer 2: one buffer missing against BuffersWritten = 3. */
    run_mem(d, 0x4000, &b);
    assert_int_equal(b.open_st, EVT_OK);
    assert_int_equal(b.events, 3 + 1); /* 2 header records, 1 event, 1 "BuffersMissing" lost */
    assert_int_equal(b.lost, 1);
    assert_int_equal(b.errors, 1);
    /* Too short for anything. */
    run_mem(d, 60, &b);
    assert_int_equal(b.open_st, EVT_ERR_TRUNCATED);
    assert_non_null(strstr(b.msg, "offset 60"));
    free(d);
}

/* An empty buffer (Offset = 72: no records, 0xFF padding after it, as Windows writes) that is not
 * the last one, read from memory: its record area has 0 bytes, which once reached memcpy(NULL, ...,
 * 0) in the memory source (UB that the ASan+UBSan build aborts on). It decodes as no records,
 * without an error. */
static void test_empty_buffer_mid_file(void **st)
{
    (void)st;
    size_t n;
    uint8_t *d = load(SAMPLE("etl-parser_lxcore_kernel.etl"), &n);
    bad_result full, b;
    run_mem(d, n, &full);
    assert_int_equal(full.open_st, EVT_OK);
    assert_int_equal(full.errors, 0);
    d[0x2000 + 0x30] = 72; d[0x2000 + 0x31] = 0; /* buffer 1 (of 3): Offset = 72 */
    memset(d + 0x2000 + 72, 0xFF, 0x2000 - 72);
    run_mem(d, n, &b);
    assert_int_equal(b.open_st, EVT_OK);
    assert_int_equal(b.end_st, EVT_END);
    assert_int_equal(b.errors, 0);
    assert_int_equal(b.lost, 0);
    assert_int_equal(b.events, full.events - 1); /* buffer 1 held one event */
    free(d);
}

/* A damaged Offset that leaves records out (72 on a buffer holding one record, the record still
 * there): an error at the first byte after it, and the rest of the buffer a lost event (bytes;
 * before 7 Dec 2026 the record vanished with exit 0). Real files pad with 0xFF (above). */
static void test_offset_cuts_records(void **st)
{
    (void)st;
    size_t n;
    uint8_t *d = load(SAMPLE("etl-parser_lxcore_kernel.etl"), &n);
    bad_result full, b;
    run_mem(d, n, &full);
    d[0x2000 + 0x30] = 72; d[0x2000 + 0x31] = 0;
    run_mem(d, n, &b);
    assert_int_equal(b.open_st, EVT_OK);
    assert_int_equal(b.end_st, EVT_END);
    assert_int_equal(b.errors, 1);
    assert_non_null(strstr(b.msg, "offset 8264:")); /* 0x2000 + 72 */
    assert_non_null(strstr(b.msg, "not padding"));
    assert_int_equal(b.events, full.events - 1 + 1); /* the record out, a lost event in */
    d[0x2000 + 0x30] = 73; /* not aligned: the check reads where the next record would start */
    run_mem(d, n, &b);
    assert_int_equal(b.errors, 1);
    assert_non_null(strstr(b.msg, "offset 8272:"));
    free(d);
}

/* Two .etl files joined (cat a.etl b.etl): the second one's first buffer starts with its own
 * logfile header. Its buffers are not merged into the first session's (another clock, its own
 * loss counts): an error at that header, its bytes a lost event (before 7 Dec 2026 both were read
 * as one clean trace and the second one's 3 lost events vanished). */
static void test_appended_file(void **st)
{
    (void)st;
    size_t n1, n2;
    uint8_t *a = load(SAMPLE("etl-parser_lxcore_kernel.etl"), &n1);
    uint8_t *c = load(EVT_TEST_DATA_DIR "/etw_more/etl-parser_AMSITrace.etl", &n2);
    bad_result one, b;
    run_mem(a, n1, &one);
    assert_int_equal(one.errors, 0);
    uint8_t *d = malloc(n1 + n2);
    assert_non_null(d);
    memcpy(d, a, n1);
    memcpy(d + n1, c, n2);
    run_mem(d, n1 + n2, &b);
    assert_int_equal(b.open_st, EVT_OK);
    assert_int_equal(b.end_st, EVT_END);
    assert_int_equal(b.errors, 1);
    char want[64];
    snprintf(want, sizeof want, "offset %zu:", n1 + 72);
    assert_non_null(strstr(b.msg, want));
    assert_non_null(strstr(b.msg, "second logfile header"));
    assert_int_equal(b.events, one.events + 1); /* the first file's events and one lost event */
    free(d);
    free(c);
    free(a);
}

/* A buffer that appears twice, byte for byte (a file concatenated with itself, a block written
 * twice): same CPU and SequenceNumber, which Windows never repeats. Its events were decoded twice
 * without an error; the copy is now skipped and reported at its offset. */
static void test_duplicate_buffers(void **st)
{
    (void)st;
    size_t n;
    uint8_t *d = load(SAMPLE("etl-parser_lxcore_kernel.etl"), &n);
    bad_result full, b;
    run_mem(d, n, &full);
    assert_int_equal(full.errors, 0);
    uint8_t *dd = malloc(n + 0x2000);
    assert_non_null(dd);
    for (unsigned k = 0; k < 3; k++) { /* each of the 3 buffers appended again */
        memcpy(dd, d, n);
        memcpy(dd + n, d + k * 0x2000, 0x2000);
        run_mem(dd, n + 0x2000, &b);
        assert_int_equal(b.open_st, EVT_OK);
        assert_int_equal(b.end_st, EVT_END);
        assert_int_equal(b.events, full.events);
        assert_int_equal(b.errors, 1);
        assert_int_equal(b.lost, 0);
        assert_non_null(strstr(b.msg, "offset 24576"));
        assert_non_null(strstr(b.msg, "repeats the buffer"));
    }
    /* the same SequenceNumber with other bytes is not taken for a copy: decoded */
    memcpy(dd, d, n);
    memcpy(dd + n, d + 0x2000, 0x2000);
    dd[n + 0x2000 - 1] ^= 0x5a; /* in the unused tail of the buffer */
    run_mem(dd, n + 0x2000, &b);
    assert_int_equal(b.errors, 0);
    free(dd);
    free(d);
}

static void test_corrupt_compression(void **st)
{
    (void)st;
    size_t n;
    uint8_t *d = load(SAMPLE("perfview_SelfDescribingSingleEvent.etl"), &n);
    /* Truncate the compressed stream of buffer 2 by shrinking its BufferSize: inflates short. */
    uint8_t *c = malloc(n);
    memcpy(c, d, n);
    c[0x1c09] = 0x60; /* BufferSize 0xe2 -> 0x60: 24 compressed bytes instead of 154 */
    bad_result b;
    run_mem(c, n, &b);
    assert_int_equal(b.open_st, EVT_OK);
    assert_int_equal(b.end_st, EVT_END);
    assert_true(b.errors >= 1);
    assert_true(b.lost >= 1);
    /* A match offset before the start of the output: first flag word says "match" at once. */
    memcpy(c, d, n);
    c[0x1c09 + 0x48] = 0xFF; c[0x1c09 + 0x49] = 0xFF; c[0x1c09 + 0x4A] = 0xFF; c[0x1c09 + 0x4B] = 0xFF;
    run_mem(c, n, &b);
    assert_int_equal(b.open_st, EVT_OK);
    assert_true(b.errors >= 1);
    assert_true(b.lost >= 1);
    assert_int_equal(b.events, 22 + 1); /* buffer 2's one event replaced by a lost event */
    free(c);
    free(d);
}

static void test_bad_records(void **st)
{
    (void)st;
    size_t n;
    uint8_t *d = load(SAMPLE("etl-parser_lxcore_kernel.etl"), &n);
    uint8_t *c = malloc(n);
    bad_result b;
    /* Record size larger than the buffer's fill. */
    memcpy(c, d, n);
    c[0x2048] = 0xFF; c[0x2049] = 0x7F;
    run_mem(c, n, &b);
    assert_int_equal(b.open_st, EVT_OK);
    assert_int_equal(b.errors, 1);
    assert_int_equal(b.lost, 1);
    assert_int_equal(b.events, 4);
    /* Not a marker at all. */
    memcpy(c, d, n);
    c[0x204B] = 0x00;
    run_mem(c, n, &b);
    assert_int_equal(b.errors, 1);
    assert_int_equal(b.lost, 1);
    /* Extended item claiming more bytes than the record: reported, event kept. */
    memcpy(c, d, n);
    c[0x2098] = 0xF8; c[0x2099] = 0x0F;
    run_mem(c, n, &b);
    assert_int_equal(b.errors, 1);
    assert_int_equal(b.events, 4);
    /* Buffer 1 with BufferSize 0: the rest of the file cannot be walked. */
    memcpy(c, d, n);
    memset(c + 0x2000, 0, 4);
    run_mem(c, n, &b);
    assert_int_equal(b.open_st, EVT_OK);
    assert_true(b.errors >= 1);
    assert_true(b.lost >= 1);
    /* The first record is not the logfile header: not an .etl. */
    memcpy(c, d, n);
    c[0x4E] = 0x50;
    run_mem(c, n, &b);
    assert_int_equal(b.open_st, EVT_ERR_FORMAT);
    assert_non_null(strstr(b.msg, "offset 72"));
    /* Every byte of the first 2 buffers flipped one at a time: never a crash. */
    for (size_t i = 0; i < 0x4000; i += 7) {
        memcpy(c, d, n);
        c[i] ^= 0xA5;
        run_mem(c, n, &b);
    }
    free(c);
    free(d);
}

/* Record kinds the samples lack, hand-built into buffer 1 of the lxcore file: SYSTEM64 of a
 * kernel group, PERFINFO64 with a PMC counter, COMPACT64, a WPP MESSAGE and an INSTANCE64
 * (walked, counted, skipped), a FULL_HEADER64, then a TIMED record (no known size: rest lost). */
static size_t put_rec(uint8_t *b, size_t pos, const uint8_t *rec, size_t n)
{
    memcpy(b + pos, rec, n);
    return (pos + n + 7) & ~(size_t)7;
}

static void test_record_kinds(void **st)
{
    (void)st;
    size_t n;
    uint8_t *d = load(SAMPLE("etl-parser_lxcore_kernel.etl"), &n);
    uint8_t *b = d + 0x2048, rec[80];
    memset(b, 0xFF, 0x2000 - 0x48);
    size_t pos = 0;
    /* SYSTEM64 Process/Start (HookId 0x0301), 8 payload bytes */
    memset(rec, 0, sizeof rec);
    rec[0] = 2; rec[2] = 0x02; rec[3] = 0xC0; rec[4] = 40; rec[6] = 0x01; rec[7] = 0x03;
    rec[8] = 11; rec[12] = 22;
    uint64_t ts = 111046470000ull;
    for (int i = 0; i < 8; i++) rec[16 + i] = (uint8_t)(ts >> (8 * i));
    rec[24] = 1; rec[28] = 2; rec[32] = 0xAB;
    pos = put_rec(b, pos, rec, 40);
    /* PERFINFO64, version 0x0102: one 8-byte PMC counter, then 4 payload bytes */
    memset(rec, 0, sizeof rec);
    rec[0] = 0x02; rec[1] = 0x01; rec[2] = 0x11; rec[3] = 0xC0; rec[4] = 28; rec[6] = 0x2E; rec[7] = 0x0F;
    ts++;
    for (int i = 0; i < 8; i++) rec[8 + i] = (uint8_t)(ts >> (8 * i));
    rec[24] = 0xCD;
    pos = put_rec(b, pos, rec, 28);
    /* COMPACT64 Thread/Type36 */
    memset(rec, 0, sizeof rec);
    rec[0] = 2; rec[2] = 0x04; rec[3] = 0xC0; rec[4] = 24; rec[6] = 36; rec[7] = 0x05; rec[8] = 33; rec[12] = 44;
    ts++;
    for (int i = 0; i < 8; i++) rec[16 + i] = (uint8_t)(ts >> (8 * i));
    pos = put_rec(b, pos, rec, 24);
    /* WPP MESSAGE: size 16, 0x9000, message number 5 */
    memset(rec, 0, sizeof rec);
    rec[0] = 16; rec[3] = 0x90; rec[4] = 5;
    pos = put_rec(b, pos, rec, 16);
    /* INSTANCE64, 72 bytes */
    memset(rec, 0, sizeof rec);
    rec[0] = 72; rec[2] = 0x15; rec[3] = 0xC0;
    pos = put_rec(b, pos, rec, 72);
    /* FULL_HEADER64, no payload */
    memset(rec, 0, sizeof rec);
    rec[0] = 48; rec[2] = 0x14; rec[3] = 0xC0; rec[4] = 12; rec[5] = 3; rec[8] = 55; rec[12] = 66;
    ts++;
    for (int i = 0; i < 8; i++) rec[16 + i] = (uint8_t)(ts >> (8 * i));
    rec[24] = 0x78; rec[25] = 0x56;
    pos = put_rec(b, pos, rec, 48);
    /* TIMED: unknown layout */
    memset(rec, 0, sizeof rec);
    rec[0] = 16; rec[2] = 0x0C; rec[3] = 0xC0;
    pos = put_rec(b, pos, rec, 16);
    uint32_t filled = (uint32_t)(0x48 + pos);
    d[0x2030] = (uint8_t)filled; d[0x2031] = (uint8_t)(filled >> 8);

    evt_reader *r = NULL;
    char err[256];
    assert_int_equal(evt_reader_open_mem(d, n, "etw", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    const char *names[] = {"EventTrace/Header", "EventTrace/PartitionInfoExtension", "BreakPoint",
                           "Process/Start", "Group0x0F/Type46", "Thread/Type36", "Classic/Type12", "UnknownRecords"};
    for (int i = 0; i < 8; i++) {
        assert_int_equal(evt_reader_next(r, &ev), EVT_OK);
        assert_string_equal(ev.name, names[i]);
        if (i == 3) {
            assert_int_equal(ev.id, 0x0301);
            assert_int_equal(ev.ctx, 11);
            assert_int_equal(fu(&ev, "pid"), 22);
            assert_int_equal(fu(&ev, "kernel_time"), 1);
            assert_int_equal(fu(&ev, "user_time"), 2);
            assert_string_equal(fs(&ev, "guid"), "9e814aad-3204-11d2-9a82-006008a86939");
            assert_int_equal(ev.data_len, 8);
            assert_int_equal(ev.data[0], 0xAB);
            assert_int_equal(ev.cpu, 3);
        } else if (i == 4) {
            assert_int_equal(ev.id, 0x0F2E);
            assert_int_equal(ev.ts, 111046470001ull);
            assert_false(ev.flags & EVT_HAS_CTX);
            assert_int_equal(ev.data_len, 4);
            assert_int_equal(ev.data[0], 0xCD);
        } else if (i == 5) {
            assert_string_equal(fs(&ev, "header_type"), "COMPACT64");
            assert_int_equal(ev.ctx, 33);
            assert_int_equal(ev.data_len, 0);
        } else if (i == 6) {
            assert_int_equal(ev.id, 12);
            assert_int_equal(fu(&ev, "level"), 3);
            assert_int_equal(ev.ctx, 55);
            assert_int_equal(ev.kind, EVT_KIND_USER);
        } else if (i == 7) {
            assert_int_equal(ev.kind, EVT_KIND_LOST);
            assert_int_equal(ev.count, 1);
            assert_int_equal(ev.offset, 0x2048 + pos - 16);
        }
    }
    assert_int_equal(evt_reader_next(r, &ev), EVT_END); /* buffer 2's event came first (earlier) */
    assert_int_equal(r->errors, 1);
    char info[4096];
    FILE *m = fmemopen(info, sizeof info - 1, "w");
    evt_json j;
    evt_json_init(&j, m, 0);
    evt_json_obj_begin(&j);
    r->desc->info(r->state, &j);
    evt_json_obj_end(&j);
    fclose(m);
    assert_non_null(strstr(info, "\"header_types\":{\"SYSTEM64\":3,\"COMPACT64\":1,\"TIMED\":1,\"MESSAGE\":1,\"PERFINFO64\":1,\"EVENT_HEADER64\":1,\"FULL_HEADER64\":1,\"INSTANCE64\":1}"));
    assert_non_null(strstr(info, "\"skipped_records\":2,"));
    evt_reader_close(r);
    free(d);
}

static void test_cli(void **st)
{
    (void)st;
    char cmd[1024], *out = NULL;
    size_t len;
    snprintf(cmd, sizeof cmd, "%s info --json %s", evt_test_bin(), SAMPLE("perfview_SelfDescribingSingleEvent.etl"));
    assert_int_equal(evt_test_run(cmd, &out, &len), 0);
    assert_non_null(strstr(out, "\"format\": \"etw\""));
    assert_non_null(strstr(out, "\"events\": 23"));
    assert_non_null(strstr(out, "\"FULL_HEADER64\": 18"));
    free(out);
    snprintf(cmd, sizeof cmd, "%s dump --json %s", evt_test_bin(), SAMPLE("etl-parser_lxcore_kernel.etl"));
    assert_int_equal(evt_test_run(cmd, &out, &len), 0);
    assert_non_null(strstr(out, "\"name\":\"BreakPoint\""));
    assert_non_null(strstr(out, "\"provider_name\":\"Microsoft.Windows.Subsystem.LxCore\""));
    assert_non_null(strstr(out, "\"t_ns\":1594728271138736300"));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lxcore),
        cmocka_unit_test(test_self_describing),
        cmocka_unit_test(test_small_32bit),
        cmocka_unit_test(test_time_conversion),
        cmocka_unit_test(test_truncated_file),
        cmocka_unit_test(test_empty_buffer_mid_file),
        cmocka_unit_test(test_offset_cuts_records),
        cmocka_unit_test(test_appended_file),
        cmocka_unit_test(test_duplicate_buffers),
        cmocka_unit_test(test_corrupt_compression),
        cmocka_unit_test(test_bad_records),
        cmocka_unit_test(test_record_kinds),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
