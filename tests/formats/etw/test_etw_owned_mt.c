/* ETW THREAD_OWNED slots (per_thread = EVT_ETW_SLOTS_THREAD_OWNED: no lock per event): threads
 * that exit with a partial buffer (collected at stop), a thread that gives its slot back to the next
 * one (evt_etw_thread_detach), a signal handler that records in the middle of a record of its
 * thread (dropped, counted, carried by a loss record) or between two (written), a stop nested in a
 * record of its own thread (refused: BUSY, not a hang), two sessions on two
 * threads, a sequential file that fills up, a stop while threads are recording (every record
 * counted written is in the file) and flushes while they record.
 * Each case reads the file back with the .etl reader: data records + lost == records issued. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "evt_etw_test.h"
#include "evt_test.h"
#include "evtrace/etw.h"
#include "evtrace/reader.h"
#include "formats/common/bytes.h"

#define BUF_SIZE 4096u
#define MAX_BUFS 4096u
#define ISR_TAG 0xA5A5A5A5u

/* One in-memory .etl per session (writes come under the session's lock). */
typedef struct mem_file {
    uint8_t *data;
    size_t cap;
} mem_file;

static int sink(void *user, uint64_t off, const void *p, uint32_t n)
{
    mem_file *f = user;
    if (off + n > f->cap) return -1;
    memcpy(f->data + off, p, n);
    return 0;
}

static const evt_etw_guid k_guid = {0x0badcafeu, 0x11, 0x22, {1, 2, 3, 4, 5, 6, 7, 8}};

static uint32_t g_max_file_buffers; /* 0: no limit */

static void start_owned(evt_etw_session *s, evt_etw_provider *p, mem_file *f, uint8_t *mem, uint32_t nbuf,
                        uint64_t (*clock)(void), uint32_t (*tid)(void))
{
    f->cap = (size_t)MAX_BUFS * BUF_SIZE;
    f->data = calloc(1, f->cap);
    assert_non_null(f->data);
    evt_etw_session_config c;
    memset(&c, 0, sizeof c);
    c.buffer_size = BUF_SIZE;
    c.buffers = nbuf;
    c.per_thread = EVT_ETW_SLOTS_THREAD_OWNED;
    c.log_file_mode = ETW_FILE_MODE_SEQUENTIAL;
    c.max_file_buffers = g_max_file_buffers;
    c.write = sink;
    c.write_user = f;
    c.clock = clock;
    c.thread_id = tid ? tid : evt_etw_posix_thread_id;
    c.process_id = evt_etw_posix_process_id;
    c.sync_writers = evt_etw_posix_sync_writers;
    c.cpu_times = evt_etw_posix_cpu_times; /* the slots' CPU-time cache (read again each 1 ms, on */
    c.timer_resolution = 10000u;          /* claim after a detach) in every case, under TSan too */
    assert_int_equal(evt_etw_session_start(s, &c, mem, nbuf * BUF_SIZE), EVT_ETW_SUCCESS);
    evt_etw_register(p, &k_guid, NULL, NULL);
    assert_int_equal(evt_etw_enable(s, p, ETW_CONTROL_ENABLE_PROVIDER, ETW_LEVEL_VERBOSE, 0, 0), EVT_ETW_SUCCESS);
}

/* One event (tag, seq, ~seq): a torn or spliced record shows. */
static uint32_t emit(evt_etw_provider *p, uint32_t tag, uint32_t seq)
{
    uint32_t v[3] = {tag, seq, ~seq};
    evt_etw_mof_field mof[2] = {{&v[0], 4, 0}, {&v[1], 8, 0}};
    evt_etw_trace_header h;
    evt_etw_test_header2(&h, &k_guid);
    return evt_etw_trace_event(p, &h, mof); /* INVALID_HANDLE once the gate is closed */
}

/* Read the file back: per tag (< 8), the sequence numbers must come in order from 0 with no gap
 * unless lost_ok; returns data records, *lost = the reader's lost count; counts[tag] per tag. */
static uint64_t read_back(const evt_etw_session *s, const mem_file *f, uint64_t *lost, uint32_t counts[8], int gaps_ok)
{
    evt_reader *r = NULL;
    char err[256];
    evt_etw_stats es;
    evt_etw_session_stats(s, &es);
    size_t len = (size_t)es.buffers_written * BUF_SIZE; /* sequential: header buffer + data buffers */
    assert_true(len <= f->cap);
    if (!g_max_file_buffers) assert_int_equal(es.buffers_lost, 0);
    assert_int_equal(evt_reader_open_mem(f->data, len, "etw", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    evt_status st;
    uint64_t data = 0;
    uint32_t next[8] = {0};
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        if (ev.kind != EVT_KIND_USER) continue;
        data++;
        assert_int_equal(ev.data_len, 12);
        uint32_t tag = evt_ld_u32le(ev.data), seq = evt_ld_u32le(ev.data + 4);
        assert_int_equal(evt_ld_u32le(ev.data + 8), ~seq);
        if (tag == ISR_TAG) continue;
        assert_true(tag < 8u);
        if (gaps_ok) assert_true(seq >= next[tag]);
        else assert_int_equal(seq, next[tag]);
        next[tag] = seq + 1u;
        counts[tag]++;
    }
    assert_int_equal(st, EVT_END);
    assert_int_equal(r->errors, 0);
    *lost = r->lost;
    evt_reader_close(r);
    return data;
}

/* ---- threads that exit with a partial buffer ---------------------------------------------- */

static evt_etw_provider g_prov;
static atomic_int g_jobs_done; /* run_job calls that finished */

typedef struct job {
    evt_etw_provider *p;
    evt_etw_session *s;
    uint32_t tag, n;
    int detach;
    uint32_t ok, refused;
} job;

/* Flushes done by test_flush_while_recording; its jobs wait at half way until the first one, so a
 * flush lands while every slot holds records even when the machine is loaded (else the recorders
 * may finish before the flushing thread first runs). */
static atomic_uint g_flushes;
static atomic_int g_wait_flush;

static void *run_job(void *arg)
{
    job *j = arg;
    for (uint32_t i = 0; i < j->n; i++) {
        if (i == j->n / 2u && atomic_load(&g_wait_flush))
            while (atomic_load(&g_flushes) == 0u) sched_yield();
        uint32_t rc = emit(j->p, j->tag, i);
        if (rc == EVT_ETW_SUCCESS) j->ok++;
        else j->refused++;
    }
    if (j->detach) assert_int_equal(evt_etw_thread_detach(j->s), EVT_ETW_SUCCESS);
    atomic_fetch_add(&g_jobs_done, 1);
    return NULL;
}

static void test_exit_with_partial_buffers(void **st)
{
    (void)st;
    static uint8_t mem[4 * BUF_SIZE];
    evt_etw_session s;
    mem_file f;
    start_owned(&s, &g_prov, &f, mem, 4, NULL, NULL);
    job jobs[3];
    pthread_t th[3];
    for (uint32_t t = 0; t < 3; t++) { /* 100 records of 80 bytes: two buffers and a partial one */
        jobs[t] = (job){&g_prov, &s, t, 100u + 7u * t, 0, 0, 0};
        assert_int_equal(pthread_create(&th[t], NULL, run_job, &jobs[t]), 0);
    }
    for (int t = 0; t < 3; t++) pthread_join(th[t], NULL);
    assert_int_equal(evt_etw_session_stop(&s), EVT_ETW_SUCCESS);
    evt_rec_stats rs;
    evt_etw_get_rec_stats(&s, &rs);
    assert_int_equal(rs.written, 100 + 107 + 114);
    assert_int_equal(rs.dropped, 0);
    uint64_t lost;
    uint32_t counts[8] = {0};
    assert_int_equal(read_back(&s, &f, &lost, counts, 0), 100 + 107 + 114);
    assert_int_equal(lost, 0);
    for (uint32_t t = 0; t < 3; t++) {
        assert_int_equal(jobs[t].ok, 100u + 7u * t);
        assert_int_equal(counts[t], 100u + 7u * t);
    }
    free(f.data);
}

/* One slot, three threads one after the other: each gives the slot back, the next claims it.
 * Then a thread that keeps its slot: the next one finds none (dropped, counted, in the file). */
static void test_detach_and_no_slot(void **st)
{
    (void)st;
    static uint8_t mem[1 * BUF_SIZE];
    evt_etw_session s;
    mem_file f;
    start_owned(&s, &g_prov, &f, mem, 1, NULL, NULL);
    job jobs[5];
    for (uint32_t t = 0; t < 5; t++) {
        jobs[t] = (job){&g_prov, &s, t, 60, t < 3 || t == 4, 0, 0};
        pthread_t th;
        assert_int_equal(pthread_create(&th, NULL, run_job, &jobs[t]), 0);
        pthread_join(th, NULL);
    }
    for (int t = 0; t < 4; t++) assert_int_equal(jobs[t].ok, 60);
    assert_int_equal(jobs[4].ok, 0); /* thread 3 kept the only slot */
    assert_int_equal(jobs[4].refused, 60);
    assert_int_equal(evt_etw_session_stop(&s), EVT_ETW_SUCCESS);
    evt_rec_stats rs;
    evt_etw_get_rec_stats(&s, &rs);
    assert_int_equal(rs.written, 240);
    assert_int_equal(rs.dropped, 60);
    assert_int_equal(rs.pending, 0);
    uint64_t lost;
    uint32_t counts[8] = {0};
    assert_int_equal(read_back(&s, &f, &lost, counts, 0), 240);
    assert_int_equal(lost, 60);
    free(f.data);
}

/* A sequential file of 3 buffers (header + 2 data buffers): the records that do not fit are lost,
 * counted, and the header's EventsLost carries them (the reader's lost). */
static void test_file_full(void **st)
{
    (void)st;
    static uint8_t mem[2 * BUF_SIZE];
    evt_etw_session s;
    mem_file f;
    g_max_file_buffers = 3;
    start_owned(&s, &g_prov, &f, mem, 2, NULL, NULL);
    job j = {&g_prov, &s, 0, 500, 0, 0, 0};
    run_job(&j); /* 50 records per buffer: the third buffer's flush finds the file full */
    assert_true(j.refused > 0);
    assert_int_equal(evt_etw_session_stop(&s), EVT_ETW_SUCCESS);
    evt_rec_stats rs;
    evt_etw_get_rec_stats(&s, &rs);
    assert_int_equal(rs.written + rs.dropped, 500);
    uint64_t lost;
    uint32_t counts[8] = {0};
    uint64_t data = read_back(&s, &f, &lost, counts, 0);
    assert_true(data > 0 && data < 500);
    assert_int_equal(data + lost, 500);
    g_max_file_buffers = 0;
    free(f.data);
}

/* ---- a signal handler recording on the recording thread ------------------------------------ */

static atomic_int g_arm;          /* 1: the next clock read (inside a record) raises the signal */
static atomic_int g_arm_tid;      /* 1: the next thread-id read (before the record) raises it */
static uint32_t g_isr_rc[2];
static int g_isr_n;
static evt_etw_provider *g_isr_prov;

static void isr(int signo)
{
    (void)signo;
    g_isr_rc[g_isr_n & 1] = emit(g_isr_prov, ISR_TAG, (uint32_t)g_isr_n);
    g_isr_n++;
}
static uint64_t clock_raising(void)
{
    if (atomic_exchange(&g_arm, 0)) raise(SIGUSR1); /* mid-record: the slot's guard is held */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
static uint32_t tid_raising(void)
{
    if (atomic_exchange(&g_arm_tid, 0)) raise(SIGUSR1); /* before the record: not nested */
    return evt_etw_posix_thread_id();
}

static void test_isr_mid_record_and_between(void **st)
{
    (void)st;
    static uint8_t mem[2 * BUF_SIZE];
    evt_etw_session s;
    mem_file f;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = isr;
    sigemptyset(&sa.sa_mask);
    assert_int_equal(sigaction(SIGUSR1, &sa, &old), 0);
    start_owned(&s, &g_prov, &f, mem, 2, clock_raising, tid_raising);
    g_isr_prov = &g_prov;
    g_isr_n = 0;
    for (uint32_t i = 0; i < 200; i++) {
        if (i == 50) atomic_store(&g_arm, 1);
        if (i == 120) atomic_store(&g_arm_tid, 1);
        assert_int_equal(emit(&g_prov, 0, i), EVT_ETW_SUCCESS);
    }
    assert_int_equal(g_isr_n, 2);
    assert_int_equal(g_isr_rc[0], EVT_ETW_ERROR_NOT_ENOUGH_MEMORY); /* nested: dropped */
    assert_int_equal(g_isr_rc[1], EVT_ETW_SUCCESS);                 /* between records: written */
    assert_int_equal(evt_etw_session_stop(&s), EVT_ETW_SUCCESS);
    assert_int_equal(sigaction(SIGUSR1, &old, NULL), 0);
    evt_rec_stats rs;
    evt_etw_get_rec_stats(&s, &rs);
    assert_int_equal(rs.written, 201);
    assert_int_equal(rs.dropped, 1);
    assert_int_equal(rs.loss_records, 1);
    assert_int_equal(rs.pending, 0);
    uint64_t lost;
    uint32_t counts[8] = {0};
    assert_int_equal(read_back(&s, &f, &lost, counts, 0), 201);
    assert_int_equal(counts[0], 200);
    assert_int_equal(lost, 1);
    free(f.data);
}

/* ---- a stop nested in a record of its own thread ----------------------------------------- */

/* Stop waits for the records in flight; one of its own thread that it interrupted cannot end
 * before it returns. It used to wait for it forever; now it refuses (BUSY) and changes nothing. */
static evt_etw_session *g_stop_s;
static atomic_int g_arm_stop;
static uint32_t g_stop_rc = 0xFFFFFFFFu;
static uint64_t clock_stopping(void)
{
    if (atomic_exchange(&g_arm_stop, 0)) g_stop_rc = evt_etw_session_stop(g_stop_s); /* mid-record */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void test_stop_nested_in_own_record(void **st)
{
    (void)st;
    static uint8_t mem[2 * BUF_SIZE];
    evt_etw_session s;
    mem_file f;
    start_owned(&s, &g_prov, &f, mem, 2, clock_stopping, NULL);
    g_stop_s = &s;
    for (uint32_t i = 0; i < 100; i++) {
        if (i == 30) atomic_store(&g_arm_stop, 1);
        assert_int_equal(emit(&g_prov, 0, i), EVT_ETW_SUCCESS);
    }
    assert_int_equal(g_stop_rc, EVT_ETW_ERROR_BUSY);
    assert_int_equal(evt_etw_session_stop(&s), EVT_ETW_SUCCESS);
    uint64_t lost;
    uint32_t counts[8] = {0};
    assert_int_equal(read_back(&s, &f, &lost, counts, 0), 100);
    assert_int_equal(lost, 0);
    free(f.data);
}

/* ---- two sessions on two threads ---------------------------------------------------------- */

static void test_two_sessions(void **st)
{
    (void)st;
    static uint8_t mem[2][BUF_SIZE];
    static evt_etw_session s[2];
    static evt_etw_provider p[2];
    mem_file f[2];
    job jobs[2];
    pthread_t th[2];
    for (uint32_t k = 0; k < 2; k++) {
        start_owned(&s[k], &p[k], &f[k], mem[k], 1, NULL, NULL);
        jobs[k] = (job){&p[k], &s[k], k, 20000, 0, 0, 0}; /* ~400 buffers each */
    }
    for (int k = 0; k < 2; k++) assert_int_equal(pthread_create(&th[k], NULL, run_job, &jobs[k]), 0);
    for (int k = 0; k < 2; k++) pthread_join(th[k], NULL);
    for (uint32_t k = 0; k < 2; k++) {
        assert_int_equal(evt_etw_session_stop(&s[k]), EVT_ETW_SUCCESS);
        assert_int_equal(jobs[k].ok, 20000);
        uint64_t lost;
        uint32_t counts[8] = {0};
        assert_int_equal(read_back(&s[k], &f[k], &lost, counts, 0), 20000);
        assert_int_equal(counts[k], 20000);
        assert_int_equal(counts[1 - k], 0);
        assert_int_equal(lost, 0);
        free(f[k].data);
    }
}

/* ---- stop while threads record -------------------------------------------------------------- */

static atomic_int g_go;     /* threads past their first 2000 records */
static atomic_int g_closed; /* stop has returned */

/* Records until the gate closes (at most 30000: the file's room), then waits for the stop. */
static void *run_until_closed(void *arg)
{
    job *j = arg;
    for (uint32_t i = 0; !atomic_load(&g_closed); i++) {
        if (i == 2000) atomic_fetch_add(&g_go, 1);
        if (i >= 30000) continue;
        uint32_t rc = emit(j->p, j->tag, i);
        if (rc == EVT_ETW_SUCCESS) j->ok++;
        else if (rc == EVT_ETW_ERROR_NOT_ENOUGH_MEMORY) j->refused++; /* issued, dropped */
        else break;                                                   /* gate closed: not issued */
    }
    return NULL;
}

static void test_stop_while_recording(void **st)
{
    (void)st;
    static uint8_t mem[4 * BUF_SIZE];
    for (int rep = 0; rep < 20; rep++) {
        evt_etw_session s;
        mem_file f;
        start_owned(&s, &g_prov, &f, mem, 4, NULL, NULL);
        job jobs[3];
        pthread_t th[3];
        atomic_store(&g_go, 0);
        atomic_store(&g_closed, 0);
        for (uint32_t t = 0; t < 3; t++) {
            jobs[t] = (job){&g_prov, &s, t, 0, 0, 0, 0};
            assert_int_equal(pthread_create(&th[t], NULL, run_until_closed, &jobs[t]), 0);
        }
        while (atomic_load(&g_go) < 3) {
        }
        assert_int_equal(evt_etw_session_stop(&s), EVT_ETW_SUCCESS);
        atomic_store(&g_closed, 1);
        for (int t = 0; t < 3; t++) pthread_join(th[t], NULL);
        uint64_t ok = 0, issued = 0;
        for (int t = 0; t < 3; t++) {
            ok += jobs[t].ok;
            issued += jobs[t].ok + jobs[t].refused;
        }
        evt_rec_stats rs;
        evt_etw_get_rec_stats(&s, &rs);
        assert_int_equal(rs.written, ok);
        assert_int_equal(rs.written + rs.dropped, issued);
        uint64_t lost;
        uint32_t counts[8] = {0};
        /* every record counted written is in the file; drops after the final loss record (racing
         * the stop) stay pending, as the stats say */
        assert_int_equal(read_back(&s, &f, &lost, counts, 0), ok);
        assert_int_equal(lost + rs.pending, rs.dropped);
        free(f.data);
    }
}

/* Flushes from another thread while three threads record: flush writes each slot's published
 * records and moves its base while the owner appends after them; nothing is lost or repeated. */
static void test_flush_while_recording(void **st)
{
    (void)st;
    static uint8_t mem[4 * BUF_SIZE];
    evt_etw_session s;
    mem_file f;
    start_owned(&s, &g_prov, &f, mem, 4, NULL, NULL);
    job jobs[3];
    pthread_t th[3];
    atomic_store(&g_jobs_done, 0);
    atomic_store(&g_flushes, 0);
    atomic_store(&g_wait_flush, 1);
    for (uint32_t t = 0; t < 3; t++) {
        jobs[t] = (job){&g_prov, &s, t, 20000, 0, 0, 0};
        assert_int_equal(pthread_create(&th[t], NULL, run_job, &jobs[t]), 0);
    }
    uint32_t flushes = 0; /* at most 3 partial buffers each: 500 of them fit in the file */
    for (; atomic_load(&g_jobs_done) < 3 && flushes < 500u; flushes++) {
        assert_int_equal(evt_etw_session_flush(&s), EVT_ETW_SUCCESS);
        atomic_fetch_add(&g_flushes, 1);
        struct timespec pause = {0, 50000};
        nanosleep(&pause, NULL);
    }
    for (int t = 0; t < 3; t++) pthread_join(th[t], NULL);
    atomic_store(&g_wait_flush, 0);
    assert_int_equal(evt_etw_session_stop(&s), EVT_ETW_SUCCESS);
    evt_rec_stats rs;
    evt_etw_get_rec_stats(&s, &rs);
    assert_int_equal(rs.written, 60000);
    assert_int_equal(rs.dropped, 0);
    uint64_t lost;
    uint32_t counts[8] = {0};
    assert_int_equal(read_back(&s, &f, &lost, counts, 0), 60000);
    assert_int_equal(lost, 0);
    for (int t = 0; t < 3; t++) assert_int_equal(counts[t], 20000);
    print_message("etw owned: %u flushes while recording\n", flushes);
    assert_true(flushes >= 1u);
    free(f.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exit_with_partial_buffers),
        cmocka_unit_test(test_detach_and_no_slot),
        cmocka_unit_test(test_file_full),
        cmocka_unit_test(test_isr_mid_record_and_between),
        cmocka_unit_test(test_stop_nested_in_own_record),
        cmocka_unit_test(test_two_sessions),
        cmocka_unit_test(test_stop_while_recording),
        cmocka_unit_test(test_flush_while_recording),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
