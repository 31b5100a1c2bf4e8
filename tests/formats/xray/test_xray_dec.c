/* Unit tests of the XRay reader: the shared FDR v5 sample (values from its llvm-xray YAML and
 * summary), hand-built FDR v1-v5 and basic v1-v3 files (TSC reconstruction, pids, CPUs, events,
 * call arguments, stacks across blocks), and every broken input named by issue 4 (each must give
 * an error naming its byte offset). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "evt_test.h"
#include "evtrace/reader.h"
#include "formats/common/bytes.h"
#include "formats/xray/xray_defs.h"

/* ---- a tiny file builder (test side, independent of the recorder) ----------------------------- */
typedef struct fb { uint8_t b[32768]; size_t n; } fb;

static void put(fb *f, const void *p, size_t n) { memcpy(f->b + f->n, p, n); f->n += n; }
static void hdr(fb *f, uint16_t ver, uint16_t type, uint64_t freq, uint64_t bufsize)
{
    uint8_t h[32] = {0};
    evt_put_u16le(h, ver);
    evt_put_u16le(h + 2, type);
    evt_put_u32le(h + 4, 3);
    evt_put_u64le(h + 8, freq);
    evt_put_u64le(h + 16, bufsize);
    put(f, h, 32);
}
/* Metadata record: kind + up to 15 payload bytes given as (u64 a at 1, u32/u16 b at off_b). */
static size_t md(fb *f, unsigned kind)
{
    uint8_t r[16] = {0};
    r[0] = XRAY_MD_BYTE0(kind);
    put(f, r, 16);
    return f->n - 16;
}
static void md_u32(fb *f, unsigned kind, uint32_t v) { size_t o = md(f, kind); evt_put_u32le(f->b + o + 1, v); }
static void md_u64(fb *f, unsigned kind, uint64_t v) { size_t o = md(f, kind); evt_put_u64le(f->b + o + 1, v); }
static void newcpu(fb *f, uint16_t cpu, uint64_t tsc)
{
    size_t o = md(f, XRAY_MD_NEW_CPU_ID);
    evt_put_u16le(f->b + o + XRAY_MD_NEWCPU_CPU, cpu);
    evt_put_u64le(f->b + o + XRAY_MD_NEWCPU_TSC, tsc);
}
static void wall(fb *f, uint64_t sec, uint32_t usec)
{
    size_t o = md(f, XRAY_MD_WALLTIME);
    evt_put_u64le(f->b + o + XRAY_MD_WALL_SEC, sec);
    evt_put_u32le(f->b + o + XRAY_MD_WALL_USEC, usec);
}
static void fn(fb *f, unsigned kind, uint32_t id, uint32_t delta)
{
    uint8_t r[8];
    evt_put_u32le(r, XRAY_FN_WORD(kind, id));
    evt_put_u32le(r + 4, delta);
    put(f, r, 8);
}
/* Start a v2+ block: BufferExtents placeholder; returns its offset for end_block(). */
static size_t begin_block(fb *f) { return md(f, XRAY_MD_BUFFER_EXTENTS); }
static void end_block(fb *f, size_t ext) { evt_put_u64le(f->b + ext + 1, f->n - ext - 16); }
static void preamble(fb *f, uint32_t tid, uint32_t pid, uint64_t sec, int with_pid)
{
    md_u32(f, XRAY_MD_NEW_BUFFER, tid);
    wall(f, sec, 0);
    if (with_pid) md_u32(f, XRAY_MD_PID, pid);
}

/* ---- reading ---------------------------------------------------------------------------------- */
#define MAXEV 512
typedef struct got {
    evt_status open_st, last;
    char fail[300];
    unsigned n;
    evt_event ev[MAXEV];
    char fnname[MAXEV][32];
    char text[MAXEV][32];
    unsigned ndiag;
    char diag[16][300];
    uint64_t errors;
    uint64_t clock_hz;
} got;

static void on_diag(void *user, uint64_t off, const char *msg)
{
    got *g = user;
    if (g->ndiag < 16) snprintf(g->diag[g->ndiag++], sizeof g->diag[0], "offset %llu: %s", (unsigned long long)off, msg);
}

static const char *field_s(const evt_event *e, const char *k)
{
    for (uint32_t i = 0; i < e->nfields; i++)
        if (strcmp(e->fields[i].key, k) == 0 && e->fields[i].is_str) return e->fields[i].str;
    return NULL;
}
static int64_t field_u(const evt_event *e, const char *k)
{
    for (uint32_t i = 0; i < e->nfields; i++)
        if (strcmp(e->fields[i].key, k) == 0 && !e->fields[i].is_str) return (int64_t)e->fields[i].num;
    return -1;
}

static got *read_mem(const void *p, size_t n, const evt_open_opts *o)
{
    got *g = calloc(1, sizeof *g);
    assert_non_null(g);
    evt_reader *r = NULL;
    char err[300];
    g->open_st = evt_reader_open_mem(p, n, "xray", o, on_diag, g, &r, err, sizeof err);
    if (g->open_st != EVT_OK) { snprintf(g->fail, sizeof g->fail, "%s", err); return g; }
    evt_event e;
    while ((g->last = evt_reader_next(r, &e)) == EVT_OK) {
        if (g->n < MAXEV) {
            const char *fnm = field_s(&e, "function");
            snprintf(g->fnname[g->n], 32, "%s", fnm ? fnm : "");
            if (e.data && e.data_is_text) snprintf(g->text[g->n], 32, "%.*s", (int)e.data_len, (const char *)e.data);
            e.data = NULL;
            for (uint32_t i = 0; i < e.nfields; i++) if (e.fields[i].is_str) e.fields[i].str = NULL;
            g->ev[g->n++] = e;
        }
    }
    if (g->last != EVT_END) snprintf(g->fail, sizeof g->fail, "%s", r->fail_msg);
    g->errors = r->errors;
    g->clock_hz = r->clock_hz;
    evt_reader_close(r);
    return g;
}

/* Some diagnostic (or the fatal message) contains both strings. */
static int has_diag(const got *g, const char *a, const char *b)
{
    for (unsigned i = 0; i < g->ndiag; i++)
        if (strstr(g->diag[i], a) && (!b || strstr(g->diag[i], b))) return 1;
    return strstr(g->fail, a) && (!b || strstr(g->fail, b));
}

/* ---- the shared sample ------------------------------------------------------------------------ */
static void test_sample(void **st)
{
    (void)st;
    size_t n;
    uint8_t *p = evt_test_read_file(EVT_TEST_DATA_DIR "/xray/fdr-v5-small.xray", &n);
    evt_open_opts o = {1, {"instr-map"}, {EVT_TEST_DATA_DIR "/xray/instr-map.yaml"}};
    got *g = read_mem(p, n, &o);
    assert_int_equal(g->open_st, EVT_OK);
    assert_int_equal(g->last, EVT_END);
    assert_int_equal(g->errors, 0);
    assert_true(g->clock_hz == 1000000000u);
    assert_int_equal(g->n, 271); /* 122+122+9+9 function records + 9 custom events */
    /* first record of fdr-v5-small.yaml: do_work enter on 23597 at TSC 1795331893491224354 */
    assert_string_equal(g->ev[0].name, "enter");
    assert_int_equal(g->ev[0].kind, EVT_KIND_FUNC_ENTER);
    assert_true(g->ev[0].ts == 1795331893491224354ull);
    assert_int_equal(g->ev[0].ctx, 23597);
    assert_int_equal(g->ev[0].args[0], 7);
    assert_string_equal(g->fnname[0], "do_work");
    unsigned enter_args = 0, custom = 0, tails = 0;
    uint64_t prev = 0;
    for (unsigned i = 0; i < g->n; i++) {
        const evt_event *e = &g->ev[i];
        assert_true(e->ts >= prev);
        prev = e->ts;
        assert_true(e->flags & EVT_HAS_CPU);
        if (strcmp(e->name, "enter_args") == 0) {
            enter_args++;
            assert_int_equal(e->nargs, 2);
            assert_int_equal(e->args[0], 3);
            assert_string_equal(g->fnname[i], "with_arg");
            if (e->ctx == 23601) assert_true(e->args[1] >= 1000 && e->args[1] <= 1002);
        }
        if (strcmp(e->name, "tail_exit") == 0) { tails++; assert_int_equal(e->args[0], 5); }
        if (strcmp(e->name, "custom_event") == 0) {
            custom++;
            assert_int_equal(e->kind, EVT_KIND_USER);
            assert_int_equal(strncmp(g->text[i], "ev t", 4), 0);
        }
    }
    assert_int_equal(enter_args, 9);
    assert_int_equal(tails, 9);
    assert_int_equal(custom, 9);
    /* fdr-dump: the custom event of thread 23601's block is at file offset 0x168, "ev t1 i0" */
    int found = 0;
    for (unsigned i = 0; i < g->n; i++)
        if (g->ev[i].offset == 0x168) { found = 1; assert_string_equal(g->text[i], "ev t1 i0"); assert_int_equal(g->ev[i].ctx, 23601); }
    assert_true(found);
    free(g);
    free(p);
}

/* ---- synthetic files per version -------------------------------------------------------------- */
static void test_v5_tsc_and_stack(void **st)
{
    (void)st;
    fb f = {{0}, 0};
    hdr(&f, 5, 1, 1000, 16384);
    size_t e = begin_block(&f);
    preamble(&f, 7, 5, 100, 1);
    newcpu(&f, 1, 1000);
    fn(&f, XRAY_FN_ENTER, 1, 0);      /* 1000 */
    md_u64(&f, XRAY_MD_TSC_WRAP, 5000);
    fn(&f, XRAY_FN_ENTER_ARG, 2, 10); /* 5010 */
    md_u64(&f, XRAY_MD_CALL_ARGUMENT, 42);
    md_u64(&f, XRAY_MD_CALL_ARGUMENT, 43);
    fn(&f, XRAY_FN_EXIT, 2, 5);       /* 5015 */
    fn(&f, XRAY_FN_ENTER, 3, 1);      /* 5016 */
    fn(&f, XRAY_FN_TAIL_EXIT, 3, 1);  /* 5017 */
    fn(&f, XRAY_FN_ENTER, 4, 1);      /* 5018 */
    newcpu(&f, 2, 9000);
    fn(&f, XRAY_FN_EXIT, 4, 2);       /* 9002 on cpu 2 */
    fn(&f, XRAY_FN_EXIT, 9, 1);       /* 9003: unmatched */
    end_block(&f, e);
    got *g = read_mem(f.b, f.n, NULL);
    assert_int_equal(g->last, EVT_END);
    assert_int_equal(g->errors, 0);
    assert_int_equal(g->n, 8);
    const uint64_t ts[] = {1000, 5010, 5015, 5016, 5017, 5018, 9002, 9003};
    const char *nm[] = {"enter", "enter_args", "exit", "enter", "tail_exit", "enter", "exit", "exit"};
    for (unsigned i = 0; i < 8; i++) {
        assert_true(g->ev[i].ts == ts[i]);
        assert_string_equal(g->ev[i].name, nm[i]);
        assert_int_equal(g->ev[i].ctx, 7);
        assert_int_equal(field_u(&g->ev[i], "pid"), 5);
        assert_true(g->ev[i].t_ns == ts[i] * 1000000u); /* 1000 Hz */
    }
    assert_int_equal(g->ev[1].nargs, 3);
    assert_int_equal(g->ev[1].args[1], 42);
    assert_int_equal(g->ev[1].args[2], 43);
    assert_int_equal(g->ev[0].cpu, 1);
    assert_int_equal(g->ev[6].cpu, 2);
    assert_int_equal(g->ev[4].kind, EVT_KIND_FUNC_EXIT);
    assert_int_equal(field_u(&g->ev[6], "unmatched"), -1);
    assert_int_equal(field_u(&g->ev[7], "unmatched"), 1);
    assert_string_equal(g->fnname[0], "#1"); /* no map */
    free(g);
}

/* Two threads; one thread's blocks stored out of time order: events come out by wall time and
 * the call stack continues across blocks; threads are merged by timestamp. */
static void test_blocks_ordered_and_merged(void **st)
{
    (void)st;
    fb f = {{0}, 0};
    hdr(&f, 5, 1, 1000000000, 16384);
    size_t e = begin_block(&f); /* thread 1, later block */
    preamble(&f, 1, 9, 200, 1);
    newcpu(&f, 0, 2000);
    fn(&f, XRAY_FN_EXIT, 5, 0);
    end_block(&f, e);
    e = begin_block(&f); /* thread 2 */
    preamble(&f, 2, 9, 150, 1);
    newcpu(&f, 0, 1500);
    fn(&f, XRAY_FN_ENTER, 6, 0);
    fn(&f, XRAY_FN_EXIT, 6, 1000); /* 2500 */
    end_block(&f, e);
    e = begin_block(&f); /* thread 1, earlier block */
    preamble(&f, 1, 9, 100, 1);
    newcpu(&f, 0, 1000);
    fn(&f, XRAY_FN_ENTER, 5, 0);
    end_block(&f, e);
    got *g = read_mem(f.b, f.n, NULL);
    assert_int_equal(g->errors, 0);
    assert_int_equal(g->n, 4);
    assert_true(g->ev[0].ts == 1000 && g->ev[0].ctx == 1 && strcmp(g->ev[0].name, "enter") == 0);
    assert_true(g->ev[1].ts == 1500 && g->ev[1].ctx == 2);
    assert_true(g->ev[2].ts == 2000 && g->ev[2].ctx == 1 && strcmp(g->ev[2].name, "exit") == 0);
    assert_int_equal(field_u(&g->ev[2], "unmatched"), -1); /* matched the entry of the earlier block */
    assert_true(g->ev[3].ts == 2500 && g->ev[3].ctx == 2);
    free(g);
}

static void test_v1_eob_and_fill(void **st)
{
    (void)st;
    fb f = {{0}, 0};
    hdr(&f, 1, 1, 1000, 128);
    size_t b0 = f.n;
    preamble(&f, 11, 0, 1, 0);
    newcpu(&f, 3, 700);
    fn(&f, XRAY_FN_ENTER, 1, 1);
    fn(&f, XRAY_FN_EXIT, 1, 2);
    md(&f, XRAY_MD_END_OF_BUFFER);
    f.n = b0 + 128; /* zero fill up to the buffer size */
    preamble(&f, 12, 0, 2, 0);
    newcpu(&f, 0, 800);
    /* v1-v3 custom event: absolute TSC, no cpu */
    size_t o = md(&f, XRAY_MD_CUSTOM_EVENT);
    evt_put_u32le(f.b + o + XRAY_MD_CUSTOM_SIZE, 3);
    evt_put_u64le(f.b + o + XRAY_MD_CUSTOM_TSC, 12345);
    put(&f, "abc", 3);
    fn(&f, XRAY_FN_ENTER, 2, 4);
    md(&f, XRAY_MD_END_OF_BUFFER);
    f.n = b0 + 256;
    got *g = read_mem(f.b, f.n, NULL);
    assert_int_equal(g->last, EVT_END);
    assert_int_equal(g->errors, 0);
    assert_int_equal(g->n, 4);
    assert_true(g->ev[0].ts == 701 && g->ev[0].ctx == 11 && g->ev[0].cpu == 3);
    assert_true(g->ev[1].ts == 703);
    /* per-thread record order is kept; the event's absolute TSC does not move the running TSC */
    assert_string_equal(g->ev[2].name, "custom_event");
    assert_true(g->ev[2].ts == 12345 && g->ev[2].ctx == 12);
    assert_string_equal(g->text[2], "abc");
    assert_true(g->ev[3].ts == 804 && g->ev[3].ctx == 12);
    assert_int_equal(field_u(&g->ev[0], "pid"), 0);
    free(g);
}

static void test_v2_pid_is_tid_and_v4_custom_cpu(void **st)
{
    (void)st;
    fb f = {{0}, 0};
    hdr(&f, 2, 1, 1000, 4096);
    size_t e = begin_block(&f);
    preamble(&f, 77, 0, 1, 0);
    newcpu(&f, 0, 10);
    fn(&f, XRAY_FN_ENTER, 1, 1);
    end_block(&f, e);
    got *g = read_mem(f.b, f.n, NULL);
    assert_int_equal(g->errors, 0);
    assert_int_equal(g->n, 1);
    assert_int_equal(field_u(&g->ev[0], "pid"), 77);
    free(g);

    fb h = {{0}, 0};
    hdr(&h, 4, 1, 1000, 4096);
    e = begin_block(&h);
    preamble(&h, 5, 4, 1, 1);
    newcpu(&h, 0, 10);
    size_t o = md(&h, XRAY_MD_CUSTOM_EVENT);
    evt_put_u32le(h.b + o + XRAY_MD_CUSTOM_SIZE, 2);
    evt_put_u64le(h.b + o + XRAY_MD_CUSTOM_TSC, 99);
    evt_put_u16le(h.b + o + XRAY_MD_CUSTOM_CPU, 6);
    put(&h, "hi", 2);
    end_block(&h, e);
    g = read_mem(h.b, h.n, NULL);
    assert_int_equal(g->errors, 0);
    assert_int_equal(g->n, 1);
    assert_true(g->ev[0].ts == 99 && g->ev[0].cpu == 6);
    assert_string_equal(g->text[0], "hi");
    free(g);
}

static void test_v5_typed_event(void **st)
{
    (void)st;
    fb f = {{0}, 0};
    hdr(&f, 5, 1, 1000, 4096);
    size_t e = begin_block(&f);
    preamble(&f, 5, 4, 1, 1);
    newcpu(&f, 0, 100);
    size_t o = md(&f, XRAY_MD_TYPED_EVENT);
    evt_put_u32le(f.b + o + XRAY_MD_TYPED_SIZE, 4);
    evt_put_u32le(f.b + o + XRAY_MD_TYPED_DELTA, 7);
    evt_put_u16le(f.b + o + XRAY_MD_TYPED_TYPE, 3);
    put(&f, "\x01\x02\x03\x04", 4);
    fn(&f, XRAY_FN_ENTER, 1, 1); /* delta from the typed event's TSC */
    end_block(&f, e);
    got *g = read_mem(f.b, f.n, NULL);
    assert_int_equal(g->errors, 0);
    assert_int_equal(g->n, 2);
    assert_string_equal(g->ev[0].name, "typed_event");
    assert_true(g->ev[0].ts == 107);
    assert_int_equal(g->ev[0].args[0], 3);
    assert_int_equal(field_u(&g->ev[0], "event_type"), 3);
    assert_true(g->ev[1].ts == 108);
    free(g);
}

static void basic_fn(fb *f, unsigned type, uint32_t fid, uint64_t tsc, uint32_t tid, uint32_t pid, uint8_t cpu)
{
    uint8_t r[32] = {0};
    r[XRAY_BASIC_FN_CPU] = cpu;
    r[XRAY_BASIC_FN_TYPE] = (uint8_t)type;
    evt_put_u32le(r + XRAY_BASIC_FN_FUNC, fid);
    evt_put_u64le(r + XRAY_BASIC_FN_TSC, tsc);
    evt_put_u32le(r + XRAY_BASIC_FN_TID, tid);
    evt_put_u32le(r + XRAY_BASIC_FN_PID, pid);
    put(f, r, 32);
}
static void basic_arg(fb *f, uint32_t fid, uint32_t tid, uint32_t pid, uint64_t v)
{
    uint8_t r[32] = {0};
    evt_put_u16le(r, XRAY_BASIC_ARG_PAYLOAD);
    evt_put_u32le(r + XRAY_BASIC_ARG_FUNC, fid);
    evt_put_u32le(r + XRAY_BASIC_ARG_TID, tid);
    evt_put_u32le(r + XRAY_BASIC_ARG_PID, pid);
    evt_put_u64le(r + XRAY_BASIC_ARG_VALUE, v);
    put(f, r, 32);
}

static void test_basic_v3(void **st)
{
    (void)st;
    fb f = {{0}, 0};
    hdr(&f, 3, 0, 1000, 0);
    basic_fn(&f, XRAY_FN_ENTER_ARG, 3, 50, 21, 20, 1);
    basic_arg(&f, 3, 21, 20, 1234);
    basic_fn(&f, XRAY_FN_EXIT, 3, 60, 21, 20, 1);
    basic_fn(&f, XRAY_FN_ENTER, 4, 55, 22, 20, 0);
    basic_fn(&f, XRAY_FN_TAIL_EXIT, 4, 56, 22, 20, 0);
    got *g = read_mem(f.b, f.n, NULL);
    assert_int_equal(g->last, EVT_END);
    assert_int_equal(g->errors, 0);
    assert_int_equal(g->n, 4);
    assert_true(g->ev[0].ts == 50 && g->ev[0].ctx == 21 && g->ev[0].cpu == 1);
    assert_string_equal(g->ev[0].name, "enter_args");
    assert_int_equal(g->ev[0].nargs, 2);
    assert_int_equal(g->ev[0].args[1], 1234);
    assert_true(g->ev[1].ts == 55 && g->ev[1].ctx == 22);
    assert_string_equal(g->ev[2].name, "tail_exit");
    assert_true(g->ev[3].ts == 60);
    free(g);
}

/* A basic file with a zero-filled tail (four records of zeros: function id 0, which XRay never
 * gives): one error at the first, no event of them, their bytes lost (before 7 Dec 2026 they were
 * 4 enters of "function #0" with exit 0). A valid record after the run is read, and a second run
 * is a second error. */
static void test_basic_zero_records(void **st)
{
    (void)st;
    fb f = {{0}, 0};
    hdr(&f, 3, 0, 1000, 0);
    basic_fn(&f, XRAY_FN_ENTER, 3, 50, 21, 20, 1);
    static const uint8_t zero[4 * 32];
    put(&f, zero, sizeof zero); /* 64 .. 192 */
    basic_fn(&f, XRAY_FN_EXIT, 3, 60, 21, 20, 1);
    put(&f, zero, 32); /* 224 */
    got *g = read_mem(f.b, f.n, NULL);
    assert_int_equal(g->last, EVT_END);
    assert_int_equal(g->n, 3); /* the two records, and their 5 * 32 bytes as one lost event */
    unsigned fn = 0, lost = 0;
    for (unsigned i = 0; i < g->n; i++) {
        if (g->ev[i].kind == EVT_KIND_LOST) {
            lost++;
            assert_int_equal(g->ev[i].count, 5 * 32);
        } else {
            assert_true(g->ev[i].ts == (fn ? 60 : 50));
            fn++;
        }
    }
    assert_int_equal(fn, 2);
    assert_int_equal(lost, 1);
    assert_int_equal(g->errors, 2);
    assert_true(has_diag(g, "offset 64", "function id 0"));
    assert_true(has_diag(g, "offset 224", "function id 0"));
    free(g);
}

/* ---- broken inputs: each gives an error with its byte offset ---------------------------------- */
static fb good_v5(void)
{
    fb f = {{0}, 0};
    hdr(&f, 5, 1, 1000, 4096);
    size_t e = begin_block(&f);     /* 32 */
    preamble(&f, 1, 1, 1, 1);       /* 48, 64, 80 */
    newcpu(&f, 0, 100);             /* 96 */
    fn(&f, XRAY_FN_ENTER, 1, 1);    /* 112 */
    fn(&f, XRAY_FN_EXIT, 1, 1);     /* 120 */
    end_block(&f, e);               /* ends at 128 */
    return f;
}

static void test_broken_header(void **st)
{
    (void)st;
    fb f = good_v5();
    got *g = read_mem(f.b, 20, NULL);
    assert_int_not_equal(g->open_st, EVT_OK);
    assert_non_null(strstr(g->fail, "offset 20"));
    assert_non_null(strstr(g->fail, "32-byte"));
    free(g);
    f.b[0] = 6; /* version 6 */
    g = read_mem(f.b, f.n, NULL);
    assert_int_not_equal(g->open_st, EVT_OK);
    assert_non_null(strstr(g->fail, "unsupported FDR version 6"));
    assert_non_null(strstr(g->fail, "offset 0"));
    free(g);
    f.b[0] = 5;
    f.b[2] = 7; /* type 7 */
    g = read_mem(f.b, f.n, NULL);
    assert_int_not_equal(g->open_st, EVT_OK);
    assert_non_null(strstr(g->fail, "offset 2"));
    free(g);
    fb b = {{0}, 0};
    hdr(&b, 4, 0, 1000, 0); /* basic version 4 */
    basic_fn(&b, 0, 1, 1, 1, 1, 0);
    g = read_mem(b.b, b.n, NULL);
    assert_int_not_equal(g->open_st, EVT_OK);
    assert_non_null(strstr(g->fail, "basic-mode version 4"));
    free(g);
}

static void check_err(fb *f, size_t len, const char *offs, const char *what)
{
    got *g = read_mem(f->b, len, NULL);
    assert_int_equal(g->open_st, EVT_OK);
    assert_true(g->errors > 0);
    if (!has_diag(g, offs, what)) {
        for (unsigned i = 0; i < g->ndiag; i++) fprintf(stderr, "diag: %s\n", g->diag[i]);
        fail_msg("expected an error '%s' at '%s'", what, offs);
    }
    free(g);
}

static void test_broken_records(void **st)
{
    (void)st;
    fb f = good_v5();
    got *g = read_mem(f.b, f.n, NULL);
    assert_int_equal(g->errors, 0);
    assert_int_equal(g->n, 2);
    free(g);
    /* truncated function record: cut in the middle of the exit record */
    check_err(&f, 124, "offset 120:", "function record truncated");
    /* extents past the end of the file */
    check_err(&f, 120, "offset 32:", "BufferExtents says 80 bytes follow, but the file has only 72 more");
    /* unknown metadata kind */
    f = good_v5(); f.b[112] = XRAY_MD_BYTE0(10);
    check_err(&f, f.n, "offset 112:", "unknown metadata record type 10");
    /* unknown function record kind */
    f = good_v5(); evt_put_u32le(f.b + 112, XRAY_FN_WORD(5, 1));
    check_err(&f, f.n, "offset 112:", "unknown function record type 5");
    /* a function record before NewCPUId */
    {   /* NewCPUId replaced by two function records */
        fb h = good_v5();
        evt_put_u32le(h.b + 96, XRAY_FN_WORD(0, 1));
        evt_put_u32le(h.b + 100, 0);
        evt_put_u32le(h.b + 104, XRAY_FN_WORD(1, 1));
        evt_put_u32le(h.b + 108, 0);
        check_err(&h, h.n, "offset 96:", "FunctionEnter function record after Pid");
    }
    /* EndOfBuffer in a v5 file */
    f = good_v5(); memset(f.b + 112, 0, 16); f.b[112] = XRAY_MD_BYTE0(XRAY_MD_END_OF_BUFFER);
    check_err(&f, f.n, "offset 112:", "EndOfBuffer record in a version 5 file");
    /* block not starting with NewBuffer */
    f = good_v5(); f.b[48] = XRAY_MD_BYTE0(XRAY_MD_WALLTIME);
    check_err(&f, f.n, "offset 48:", "expected NewBuffer");
    /* CallArgument after NewCPUId */
    f = good_v5(); memset(f.b + 112, 0, 16); f.b[112] = XRAY_MD_BYTE0(XRAY_MD_CALL_ARGUMENT);
    check_err(&f, f.n, "offset 112:", "CallArgument record not allowed after NewCPUId");
    /* custom event with size 0 and with a payload past the block */
    f = good_v5(); memset(f.b + 112, 0, 16); f.b[112] = XRAY_MD_BYTE0(XRAY_MD_CUSTOM_EVENT);
    check_err(&f, f.n, "offset 112:", "invalid payload size 0");
    evt_put_u32le(f.b + 113, 100);
    check_err(&f, f.n, "offset 112:", "payload of 100 bytes");
    /* bytes that are not a block */
    f = good_v5(); f.b[f.n++] = 0x42; f.b[f.n++] = 0x43;
    check_err(&f, f.n, "offset 128:", "2 bytes that are not a BufferExtents");
    /* a block that ends after its preamble */
    f = good_v5(); evt_put_u64le(f.b + 33, 48); f.n = 96;
    check_err(&f, f.n, "offset 96:", "ends after its Pid record");
    /* header only */
    check_err(&f, 32, "offset 32:", "no blocks");
    /* a v1 block cut short by the end of the file */
    fb v = {{0}, 0};
    hdr(&v, 1, 1, 1000, 256);
    preamble(&v, 1, 0, 1, 0);
    newcpu(&v, 0, 1);
    check_err(&v, v.n, "offset 32:", "truncated");
}

static void test_broken_block_is_lost_data(void **st)
{
    (void)st;
    fb f = good_v5();
    f.b[112] = XRAY_MD_BYTE0(12); /* the rest of the block (16 bytes) cannot be decoded */
    size_t e = begin_block(&f);   /* and a good block after it */
    preamble(&f, 2, 1, 1, 1);
    newcpu(&f, 0, 500);
    fn(&f, XRAY_FN_ENTER, 3, 1);
    end_block(&f, e);
    got *g = read_mem(f.b, f.n, NULL);
    assert_int_equal(g->last, EVT_END);
    assert_int_equal(g->errors, 1);
    assert_int_equal(g->n, 2);
    assert_int_equal(g->ev[0].kind, EVT_KIND_LOST);
    assert_int_equal(g->ev[0].count, 16);
    assert_int_equal(g->ev[0].offset, 112);
    assert_int_equal(g->ev[0].ctx, 1);
    assert_true(g->ev[1].ts == 501 && g->ev[1].ctx == 2);
    free(g);
}

/* The sample with its blocks repeated byte for byte (the file concatenated with itself, one block
 * appended again): each copy sorts next to its original (same thread and WalltimeMarker) and was
 * decoded twice without an error (function counts doubled); now each is an error at its offset
 * and skipped. */
static void test_duplicate_blocks(void **st)
{
    (void)st;
    size_t n;
    uint8_t *p = evt_test_read_file(EVT_TEST_DATA_DIR "/xray/fdr-v5-small.xray", &n);
    uint8_t *d = malloc(2 * n);
    assert_non_null(d);
    memcpy(d, p, n);
    memcpy(d + n, p + 32, n - 32); /* every block again, after the header */
    got *g = read_mem(d, 2 * n - 32, NULL);
    assert_int_equal(g->last, EVT_END);
    assert_int_equal(g->n, 271);
    assert_int_equal(g->errors, 3);
    assert_true(has_diag(g, "offset 2744", "repeats the block at offset 48"));
    free(g);
    memcpy(d + n, p + 32 + 904, 904); /* the second block (904 bytes at offset 936) once more */
    g = read_mem(d, n + 904, NULL);
    assert_int_equal(g->last, EVT_END);
    assert_int_equal(g->n, 271);
    assert_int_equal(g->errors, 1);
    free(g);
    d[n + 904 - 1] ^= 0x01; /* not a byte-identical copy: decoded (its last record changed) */
    g = read_mem(d, n + 904, NULL);
    assert_true(g->n > 271);
    free(g);
    free(d);
    free(p);
}

static void test_broken_basic(void **st)
{
    (void)st;
    fb f = {{0}, 0};
    hdr(&f, 3, 0, 1000, 0);
    basic_fn(&f, XRAY_FN_ENTER, 1, 10, 1, 1, 0);
    basic_arg(&f, 2, 1, 1, 5); /* argument of another function */
    basic_fn(&f, 9, 1, 11, 1, 1, 0); /* unknown type */
    uint8_t bad[32] = {7};
    put(&f, bad, 32);                /* unknown record type 7 */
    basic_fn(&f, XRAY_FN_EXIT, 1, 12, 1, 1, 0);
    check_err(&f, f.n, "offset 64:", "argument payload");
    check_err(&f, f.n, "offset 96:", "unknown function record type 9");
    check_err(&f, f.n, "offset 128:", "unknown basic record type 7");
    check_err(&f, f.n - 5, "offset 160:", "not 32 + a multiple of 32");
    got *g = read_mem(f.b, f.n, NULL);
    assert_int_equal(g->n, 3); /* the skipped records as lost data, then the two good records */
    assert_int_equal(g->ev[0].kind, EVT_KIND_LOST);
    assert_int_equal(g->ev[0].count, 3 * 32);
    assert_true(g->ev[2].ts == 12);
    free(g);
    check_err(&f, 32, "offset 32:", "no records");
}

static void test_instr_map_errors(void **st)
{
    (void)st;
    fb f = good_v5();
    evt_open_opts o = {1, {"instr-map"}, {"/nonexistent/map.yaml"}};
    got *g = read_mem(f.b, f.n, &o);
    assert_int_not_equal(g->open_st, EVT_OK);
    assert_non_null(strstr(g->fail, "cannot open instrumentation map"));
    free(g);
    o.val[0] = evt_test_bin(); /* an ELF binary without XRay instrumentation */
    g = read_mem(f.b, f.n, &o);
    assert_int_not_equal(g->open_st, EVT_OK);
    assert_non_null(strstr(g->fail, "no xray_instr_map section"));
    free(g);
    char path[512];
    snprintf(path, sizeof path, "%s/bad-map.yaml", evt_test_tmpdir());
    const char *txt = "---\n- { id: 1, function: 0x10, function-name: 'a, b' }\n- { id 2 }\n";
    assert_int_equal(evt_test_write_file(path, txt, strlen(txt)), 0);
    o.val[0] = path;
    g = read_mem(f.b, f.n, &o);
    assert_int_not_equal(g->open_st, EVT_OK);
    assert_non_null(strstr(g->fail, "line 3"));
    free(g);
    txt = "---\n- { id: 1, address: 0x1, function: 0x10, kind: function-enter, function-name: 'a, b' }\n";
    assert_int_equal(evt_test_write_file(path, txt, strlen(txt)), 0);
    g = read_mem(f.b, f.n, &o);
    assert_int_equal(g->open_st, EVT_OK);
    assert_string_equal(g->fnname[0], "a, b");
    free(g);
}

/* Function names by id at the edges of the reader's index (ids 0, 1, 2^20 - 1 by index; 2^20 and
 * the largest 28-bit id by hash), met twice (the second time from what the first kept); and an
 * entry whose CallArguments start exactly where a 16 KiB read window from the block's start ends
 * (the look-ahead for them must read on): every event, argument and name as written. */
static void test_fn_ids_and_window_edge(void **st)
{
    (void)st;
    static const uint32_t ids[] = {0, 1, (1u << 20) - 1, 1u << 20, XRAY_FN_ID_MAX};
    enum { NIDS = sizeof ids / sizeof ids[0] };
    fb *f = calloc(1, sizeof *f);
    assert_non_null(f);
    hdr(f, 5, 1, 1000, 32768);
    size_t e = begin_block(f);
    size_t body = f->n;
    preamble(f, 7, 5, 100, 1);
    newcpu(f, 0, 1000);
    unsigned nfn = 0;
    for (unsigned r = 0; r < 2; r++)
        for (unsigned i = 0; i < NIDS; i++, nfn += 2) {
            fn(f, XRAY_FN_ENTER, ids[i], 1);
            fn(f, XRAY_FN_EXIT, ids[i], 1);
        }
    /* filler pairs until the entry with arguments ends 16 KiB after the block's first record */
    while (f->n - body + 8 < 16384) { fn(f, (nfn & 1) ? XRAY_FN_EXIT : XRAY_FN_ENTER, 9, 1); nfn++; }
    unsigned open9 = nfn & 1; /* the filler's last entry, left after the call with arguments */
    assert_int_equal(f->n - body + 8, 16384);
    fn(f, XRAY_FN_ENTER_ARG, 3, 1);
    md_u64(f, XRAY_MD_CALL_ARGUMENT, 0x1122334455667788ull);
    md_u64(f, XRAY_MD_CALL_ARGUMENT, 99);
    fn(f, XRAY_FN_EXIT, 3, 1);
    if (open9) fn(f, XRAY_FN_EXIT, 9, 1);
    end_block(f, e);

    evt_reader *r = NULL;
    char err[300];
    assert_int_equal(evt_reader_open_mem(f->b, f->n, "xray", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    unsigned n = 0;
    evt_status s;
    while ((s = evt_reader_next(r, &ev)) == EVT_OK) {
        assert_true(ev.ts == 1000 + n + 1);
        assert_int_equal(field_u(&ev, "unmatched"), -1);
        if (n < 4 * NIDS) { /* the ids, each entered and left, twice */
            char want[16];
            snprintf(want, sizeof want, "#%u", ids[(n / 2) % NIDS]);
            assert_string_equal(field_s(&ev, "function"), want);
            assert_string_equal(ev.m.label, want);
            assert_int_equal(ev.args[0], ids[(n / 2) % NIDS]);
            assert_string_equal(ev.name, (n & 1) ? "exit" : "enter");
        } else if (n == nfn) {
            assert_string_equal(ev.name, "enter_args");
            assert_string_equal(field_s(&ev, "function"), "#3");
            assert_int_equal(ev.nargs, 3);
            assert_true(ev.args[1] == 0x1122334455667788ull);
            assert_int_equal(ev.args[2], 99);
        } else if (n == nfn + 1) {
            assert_string_equal(ev.name, "exit");
            assert_int_equal(ev.nargs, 1);
        } else {
            assert_string_equal(field_s(&ev, "function"), "#9");
            assert_int_equal(ev.nargs, 1);
        }
        n++;
    }
    assert_int_equal(s, EVT_END);
    assert_int_equal(n, nfn + 2 + open9);
    assert_int_equal(r->errors, 0);
    evt_reader_close(r);
    free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sample),
        cmocka_unit_test(test_v5_tsc_and_stack),
        cmocka_unit_test(test_blocks_ordered_and_merged),
        cmocka_unit_test(test_v1_eob_and_fill),
        cmocka_unit_test(test_v2_pid_is_tid_and_v4_custom_cpu),
        cmocka_unit_test(test_v5_typed_event),
        cmocka_unit_test(test_basic_v3), cmocka_unit_test(test_basic_zero_records),
        cmocka_unit_test(test_broken_header),
        cmocka_unit_test(test_broken_records),
        cmocka_unit_test(test_broken_block_is_lost_data),
        cmocka_unit_test(test_duplicate_blocks),
        cmocka_unit_test(test_broken_basic),
        cmocka_unit_test(test_instr_map_errors),
        cmocka_unit_test(test_fn_ids_and_window_edge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
