/* Concurrency tests of the XRay recorder (run under TSan): threads taking buffers from one pool
 * lock-free, with and without rotation, and the POSIX explicit API from several threads; the
 * file read back must hold every thread's records plus the lost count, exactly. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "evt_test.h"
#include "evtrace/reader.h"
#include "evtrace/xray.h"
#include "formats/xray/xray_defs.h"

#define NTH 4
#define NREC 2000

typedef struct job { evt_xray_pool *p; uint32_t tid; } job;

static void *core_worker(void *arg)
{
    job *j = arg;
    evt_xray_writer w;
    memset(&w, 0, sizeof w);
    w.tid = j->tid;
    for (uint32_t i = 1; i <= NREC; i++)
        (void)evt_xray_fn_fast(&w, j->p, i & 1 ? XRAY_FN_ENTER : XRAY_FN_EXIT, j->tid * 100000 + i, i, 0);
    evt_xray_writer_release(&w); /* as a thread exit does */
    return NULL;
}

/* Read a file; per-thread record counts (index tid-1) and the lost-buffer count. */
static void read_counts(const uint8_t *file, size_t n, unsigned counts[NTH], uint64_t *lost, int check_order)
{
    evt_reader *r = NULL;
    char err[256];
    assert_int_equal(evt_reader_open_mem(file, n, "xray", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    evt_status s;
    uint64_t last[NTH] = {0};
    memset(counts, 0, NTH * sizeof counts[0]);
    *lost = 0;
    while ((s = evt_reader_next(r, &ev)) == EVT_OK) {
        if (ev.kind == EVT_KIND_LOST) { *lost += ev.count; continue; }
        assert_true(ev.ctx >= 1 && ev.ctx <= NTH);
        unsigned t = (unsigned)ev.ctx - 1;
        counts[t]++;
        if (check_order && ev.args[0] <= last[t]) fail_msg("thread %u: %llu after %llu (ts %llu)", t + 1, (unsigned long long)ev.args[0], (unsigned long long)last[t], (unsigned long long)ev.ts);
        last[t] = ev.args[0];
    }
    assert_int_equal(s, EVT_END);
    assert_int_equal(r->errors, 0);
    evt_reader_close(r);
}

/* Blocks in acquisition order, as evt_xray_write_file writes them (the reader keeps file order for
 * blocks of one thread with equal wall times; these have none). */
static size_t to_file(const evt_xray_pool *p, uint8_t *out)
{
    size_t n = 32;
    evt_xray_file_header(out, 1000, 1, 1, p->buf_size, 0, (uint32_t)evt_xray_loss_pending(p));
    uint32_t done = 0, prev = 0;
    for (uint32_t k = 0; k < p->nbufs; k++) {
        uint32_t i = UINT32_MAX;
        for (uint32_t j = 0; j < p->nbufs; j++) /* next smallest seq */
            if (p->bufs[j].extents && (!done || p->bufs[j].seq > prev) && (i == UINT32_MAX || p->bufs[j].seq < p->bufs[i].seq)) i = j;
        if (i == UINT32_MAX) break;
        done = 1;
        prev = p->bufs[i].seq;
        uint32_t e = __atomic_load_n(&p->bufs[i].extents, __ATOMIC_ACQUIRE);
        evt_xray_extents_record(out + n, e);
        memcpy(out + n + 16, p->mem + (size_t)i * p->buf_size, e);
        n += 16 + e;
    }
    return n;
}

static void run_pool(uint32_t nbufs, uint32_t bufsize, unsigned counts[NTH], uint64_t *lost, evt_xray_pool *p)
{
    uint8_t *mem = calloc(nbufs, bufsize);
    evt_xray_buf *bufs = calloc(nbufs, sizeof *bufs);
    uint8_t *file = malloc((size_t)nbufs * (bufsize + 16) + 32);
    memset(p, 0, sizeof *p);
    assert_int_equal(evt_xray_pool_init(p, mem, nbufs * bufsize, bufs, nbufs, 1, NULL), 0);
    pthread_t th[NTH];
    job jobs[NTH];
    for (int i = 0; i < NTH; i++) {
        jobs[i].p = p;
        jobs[i].tid = (uint32_t)i + 1;
        pthread_create(&th[i], NULL, core_worker, &jobs[i]);
    }
    for (int i = 0; i < NTH; i++) pthread_join(th[i], NULL);
    size_t n = to_file(p, file);
    read_counts(file, n, counts, lost, 1);
    free(mem);
    free(bufs);
    free(file);
}

static void test_threads_no_loss(void **st)
{
    (void)st;
    unsigned counts[NTH];
    uint64_t lost;
    evt_xray_pool p;
    run_pool(64, 4096, counts, &lost, &p); /* 2000 records x 8 B per thread: 4 buffers each */
    assert_int_equal(p.lost, 0);
    assert_int_equal(p.dropped, 0);
    assert_true(lost == 0);
    for (int i = 0; i < NTH; i++) assert_int_equal(counts[i], NREC);
}

static void test_threads_rotation(void **st)
{
    (void)st;
    unsigned counts[NTH];
    uint64_t lost;
    evt_xray_pool p;
    run_pool(8, 1024, counts, &lost, &p); /* 120 records per buffer: most buffers overwritten */
    assert_true(p.lost > 0);
    unsigned total = 0;
    for (int i = 0; i < NTH; i++) total += counts[i];
    /* at most 120 records per surviving buffer; every overwritten record is carried by a loss
     * record or the header's pending count: exact */
    assert_true(total > 0 && total <= 8 * 120);
    assert_true(total + lost == (uint64_t)NTH * NREC);
    assert_int_equal(p.dropped, 0); /* 4 threads never hold all 8 buffers */
}

static void *api_worker(void *arg)
{
    uint32_t base = (uint32_t)(uintptr_t)arg;
    for (uint32_t i = 0; i < 500; i++) {
        evt_xray_enter(base + i);
        evt_xray_exit(base + i);
    }
    return NULL;
}

static void test_posix_api_threads(void **st)
{
    (void)st;
    evt_xray_config cfg = {4096, 64, 1};
    assert_int_equal(evt_xray_start(&cfg), 0);
    pthread_t th[NTH];
    for (int i = 0; i < NTH; i++) pthread_create(&th[i], NULL, api_worker, (void *)(uintptr_t)((i + 1) * 10000));
    for (int i = 0; i < NTH; i++) pthread_join(th[i], NULL);
    assert_int_equal(evt_xray_stop(), 0);
    char path[512];
    snprintf(path, sizeof path, "%s/mt.xray", evt_test_tmpdir());
    assert_int_equal(evt_xray_write_file(path), 0);
    size_t n;
    uint8_t *f = evt_test_read_file(path, &n);
    evt_reader *r = NULL;
    char err[256];
    assert_int_equal(evt_reader_open_mem(f, n, NULL, NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    unsigned per_base[NTH] = {0}, enters = 0, exits = 0;
    while (evt_reader_next(r, &ev) == EVT_OK) {
        assert_true(ev.kind == EVT_KIND_FUNC_ENTER || ev.kind == EVT_KIND_FUNC_EXIT);
        unsigned b = (unsigned)(ev.args[0] / 10000) - 1;
        assert_true(b < NTH);
        per_base[b]++;
        if (ev.kind == EVT_KIND_FUNC_ENTER) enters++; else exits++;
    }
    assert_int_equal(r->errors, 0);
    evt_reader_close(r);
    free(f);
    assert_int_equal(enters, NTH * 500);
    assert_int_equal(exits, NTH * 500);
    for (int i = 0; i < NTH; i++) assert_int_equal(per_base[i], 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_no_loss),
        cmocka_unit_test(test_threads_rotation),
        cmocka_unit_test(test_posix_api_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
