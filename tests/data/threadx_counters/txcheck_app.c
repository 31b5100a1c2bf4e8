/* txcheck_app.c - a ThreadX application for checking evtrace against ThreadX's own counters.
   9 application threads at 8 priorities plus ThreadX's System Timer Thread:
     ctrl      1  suspends/resumes victim, wait-aborts evt_waiter, ends the run at tick RUN_TICKS
     mtx_high  3  sleeps, then takes mtx_pi (forever) -> contention with mtx_low (inheritance)
     producer  5  allocates a block (forever, pool of 5), sends its address to q_data (forever, 4 deep),
                  sets flag 0x2 every 8 messages, sleeps 30 every 16
     consumer  6  receives from q_data with a 4-tick timeout (expires while producer sleeps), releases
                  the block, sleeps 3
     evt_waiter 8 gets flags 0x3 AND_CLEAR with a 12-tick timeout; every 4th round waits 0x80 forever
                  (never set: ends by ctrl's tx_thread_wait_abort)
     mtx_low  14  sem_count get (5-tick timeout), mtx_pi get, spins 3 ticks holding it, put, sleeps 4
     slice_a  18  spin 5 ticks (relinquishes once in the middle), sleep 3;   time slice 2
     slice_b  18  spin 5 ticks, sleep 2;                                     time slice 2
     victim   12  mtx_pi get with a 2-tick timeout (contends with mtx_low while it holds it: inheritance,
                  timeouts), put if obtained, sem_count get with a 3-tick timeout, spin 1 tick, sleep 1;
                  suspended/resumed by ctrl (once while blocked: delayed suspension)
   tmr_periodic: every 7 ticks puts sem_count and sets flag 0x1.
   Trace: tx_trace_enable at the top of tx_application_define (160 KiB, 64 registry entries);
   at tick RUN_TICKS ctrl disables interrupts, calls tx_trace_disable, reads every counter, restores,
   and writes the buffer (txcheck.trx) and the counters (txcheck_counters.json). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tx_api.h"

#define RUN_TICKS      300
#define STACK_SIZE     4096
#define TRACE_SIZE     (160u * 1024u)
#define REGISTRY       64

extern volatile ULONG _tx_timer_system_clock;
extern TX_THREAD      _tx_timer_thread;

static UCHAR trace_buf[TRACE_SIZE];
static UCHAR byte_mem[64 * 1024];

static TX_BYTE_POOL       bytes;
static TX_THREAD          th_ctrl, th_mtx_high, th_producer, th_consumer, th_evt, th_mtx_low,
                          th_slice_a, th_slice_b, th_victim;
static TX_QUEUE           q_data;
static ULONG              q_mem[4];
static TX_SEMAPHORE       sem_count;
static TX_MUTEX           mtx_pi;
static TX_EVENT_FLAGS_GROUP ef_main;
static TX_BLOCK_POOL      bp_small;
static UCHAR              bp_mem[5 * (32 + sizeof(void *))];
static TX_TIMER           tmr_periodic;

static volatile ULONG     sink;

static ULONG now(void) { return _tx_timer_system_clock; }

/* busy-wait n ticks without any ThreadX call (so no events) */
static void spin_ticks(ULONG n)
{
    ULONG start = now();
    while (now() - start < n)
        sink++;
}

static void tmr_cb(ULONG arg)
{
    (void)arg;
    tx_semaphore_put(&sem_count);
    tx_event_flags_set(&ef_main, 0x1, TX_OR);
}

static void finish(void);

static void ctrl_entry(ULONG arg)
{
    ULONG round = 0;
    (void)arg;
    for (;;) {
        tx_thread_sleep(10);
        round++;
        if (now() >= RUN_TICKS)
            finish();
        if (round % 3 == 0) {
            tx_thread_suspend(&th_victim);
            tx_thread_sleep(5);
            tx_thread_resume(&th_victim);
        }
        if (round % 4 == 0)
            tx_thread_wait_abort(&th_evt);
    }
}

static void mtx_high_entry(ULONG arg)
{
    (void)arg;
    for (;;) {
        tx_thread_sleep(6);
        if (tx_mutex_get(&mtx_pi, TX_WAIT_FOREVER) == TX_SUCCESS)
            tx_mutex_put(&mtx_pi);
    }
}

static void producer_entry(ULONG arg)
{
    ULONG n = 0;
    (void)arg;
    for (;;) {
        VOID *blk;
        ULONG msg;
        if (tx_block_allocate(&bp_small, &blk, TX_WAIT_FOREVER) != TX_SUCCESS)
            continue;
        *(ULONG *)blk = n;
        msg = (ULONG)(ALIGN_TYPE)blk;
        tx_queue_send(&q_data, &msg, TX_WAIT_FOREVER);
        n++;
        if (n % 8 == 0)
            tx_event_flags_set(&ef_main, 0x2, TX_OR);
        if (n % 16 == 0)
            tx_thread_sleep(30);
    }
}

/* the queue carries the low 32 bits of the block address; blocks are in bp_mem */
static void consumer_entry(ULONG arg)
{
    (void)arg;
    for (;;) {
        ULONG msg;
        if (tx_queue_receive(&q_data, &msg, 4) == TX_SUCCESS) {
            ALIGN_TYPE base = (ALIGN_TYPE)bp_mem;
            ALIGN_TYPE addr = (base & ~(ALIGN_TYPE)0xFFFFFFFFu) | (ALIGN_TYPE)msg;
            sink += *(ULONG *)addr;
            tx_block_release((VOID *)addr);
            tx_thread_sleep(3);
        }
    }
}

static void evt_entry(ULONG arg)
{
    ULONG round = 0, got;
    (void)arg;
    for (;;) {
        round++;
        if (round % 4 == 0)
            tx_event_flags_get(&ef_main, 0x80, TX_OR, &got, TX_WAIT_FOREVER);
        else
            tx_event_flags_get(&ef_main, 0x3, TX_AND_CLEAR, &got, 12);
    }
}

static void mtx_low_entry(ULONG arg)
{
    (void)arg;
    for (;;) {
        tx_semaphore_get(&sem_count, 5);
        if (tx_mutex_get(&mtx_pi, TX_WAIT_FOREVER) == TX_SUCCESS) {
            spin_ticks(3);
            tx_mutex_put(&mtx_pi);
        }
        tx_thread_sleep(4);
    }
}

static void slice_a_entry(ULONG arg)
{
    (void)arg;
    for (;;) {
        ULONG start = now();
        int relinquished = 0;
        while (now() - start < 5) {
            sink++;
            if (!relinquished && now() - start >= 2) {
                relinquished = 1;
                tx_thread_relinquish();
            }
        }
        tx_thread_sleep(3);
    }
}

static void slice_b_entry(ULONG arg)
{
    (void)arg;
    for (;;) {
        spin_ticks(5);
        tx_thread_sleep(2);
    }
}

static void victim_entry(ULONG arg)
{
    (void)arg;
    for (;;) {
        if (tx_mutex_get(&mtx_pi, 2) == TX_SUCCESS)
            tx_mutex_put(&mtx_pi);
        tx_semaphore_get(&sem_count, 3);
        spin_ticks(1);
        tx_thread_sleep(1);
    }
}

static void mk_thread(TX_THREAD *t, CHAR *name, void (*entry)(ULONG), UINT prio, ULONG slice)
{
    VOID *stack;
    tx_byte_allocate(&bytes, &stack, STACK_SIZE, TX_NO_WAIT);
    tx_thread_create(t, name, entry, 0, stack, STACK_SIZE, prio, prio, slice, TX_AUTO_START);
}

void tx_application_define(void *first_unused_memory)
{
    UINT rc;
    (void)first_unused_memory;
    memset(trace_buf, 0x5A, sizeof trace_buf);
    rc = tx_trace_enable(trace_buf, sizeof trace_buf, REGISTRY);
    if (rc != TX_SUCCESS) {
        fprintf(stderr, "tx_trace_enable: %u\n", rc);
        exit(2);
    }
    tx_byte_pool_create(&bytes, "bytes", byte_mem, sizeof byte_mem);
    tx_queue_create(&q_data, "q_data", TX_1_ULONG, q_mem, sizeof q_mem);
    tx_semaphore_create(&sem_count, "sem_count", 2);
    tx_mutex_create(&mtx_pi, "mtx_pi", TX_INHERIT);
    tx_event_flags_create(&ef_main, "ef_main");
    tx_block_pool_create(&bp_small, "bp_small", 32, bp_mem, sizeof bp_mem);
    tx_timer_create(&tmr_periodic, "tmr_periodic", tmr_cb, 0, 7, 7, TX_AUTO_ACTIVATE);

    mk_thread(&th_ctrl,     "ctrl",       ctrl_entry,     1,  TX_NO_TIME_SLICE);
    mk_thread(&th_mtx_high, "mtx_high",   mtx_high_entry, 3,  TX_NO_TIME_SLICE);
    mk_thread(&th_producer, "producer",   producer_entry, 5,  TX_NO_TIME_SLICE);
    mk_thread(&th_consumer, "consumer",   consumer_entry, 6,  TX_NO_TIME_SLICE);
    mk_thread(&th_evt,      "evt_waiter", evt_entry,      8,  TX_NO_TIME_SLICE);
    mk_thread(&th_mtx_low,  "mtx_low",    mtx_low_entry,  14, TX_NO_TIME_SLICE);
    mk_thread(&th_slice_a,  "slice_a",    slice_a_entry,  18, 2);
    mk_thread(&th_slice_b,  "slice_b",    slice_b_entry,  18, 2);
    mk_thread(&th_victim,   "victim",     victim_entry,   12, TX_NO_TIME_SLICE);
}

/* ---- counters ---- */

struct thread_ctr {
    TX_THREAD *t;
    CHAR *name; UINT state; ULONG run_count; UINT priority, pt; ULONG slice;
    ULONG resumptions, suspensions, solicited, interrupt, inversions, time_slices, relinquishes,
          timeouts, wait_aborts;
    TX_THREAD *last_preempted_by;
};

static struct thread_ctr tc[10];
static int ntc;
static ULONG sys_t[11];
static ULONG q_c[6], s_c[4], m_c[6], e_c[4], b_c[4], y_c[7], tm_c[5];
static ULONG sys_q[6], sys_s[4], sys_m[6], sys_e[4], sys_b[4], sys_y[7], sys_tm[5];
static ULONG clock_at_end, simtime_at_end;
extern ULONG _tx_trace_simulated_time;

static void grab_thread(TX_THREAD *t)
{
    struct thread_ctr *c = &tc[ntc++];
    TX_THREAD *n1, *n2;
    c->t = t;
    tx_thread_info_get(t, &c->name, &c->state, &c->run_count, &c->priority, &c->pt, &c->slice, &n1, &n2);
    tx_thread_performance_info_get(t, &c->resumptions, &c->suspensions, &c->solicited, &c->interrupt,
                                   &c->inversions, &c->time_slices, &c->relinquishes, &c->timeouts,
                                   &c->wait_aborts, &c->last_preempted_by);
}

static void finish(void)
{
    UINT posture = tx_interrupt_control(TX_INT_DISABLE);
    UINT rc = tx_trace_disable();
    int i;
    FILE *f;

    clock_at_end = now();
    simtime_at_end = _tx_trace_simulated_time;
    grab_thread(&_tx_timer_thread);
    grab_thread(&th_ctrl); grab_thread(&th_mtx_high); grab_thread(&th_producer);
    grab_thread(&th_consumer); grab_thread(&th_evt); grab_thread(&th_mtx_low);
    grab_thread(&th_slice_a); grab_thread(&th_slice_b); grab_thread(&th_victim);
    tx_thread_performance_system_info_get(&sys_t[0], &sys_t[1], &sys_t[2], &sys_t[3], &sys_t[4], &sys_t[5],
                                          &sys_t[6], &sys_t[7], &sys_t[8], &sys_t[9], &sys_t[10]);
    tx_queue_performance_info_get(&q_data, &q_c[0], &q_c[1], &q_c[2], &q_c[3], &q_c[4], &q_c[5]);
    tx_queue_performance_system_info_get(&sys_q[0], &sys_q[1], &sys_q[2], &sys_q[3], &sys_q[4], &sys_q[5]);
    tx_semaphore_performance_info_get(&sem_count, &s_c[0], &s_c[1], &s_c[2], &s_c[3]);
    tx_semaphore_performance_system_info_get(&sys_s[0], &sys_s[1], &sys_s[2], &sys_s[3]);
    tx_mutex_performance_info_get(&mtx_pi, &m_c[0], &m_c[1], &m_c[2], &m_c[3], &m_c[4], &m_c[5]);
    tx_mutex_performance_system_info_get(&sys_m[0], &sys_m[1], &sys_m[2], &sys_m[3], &sys_m[4], &sys_m[5]);
    tx_event_flags_performance_info_get(&ef_main, &e_c[0], &e_c[1], &e_c[2], &e_c[3]);
    tx_event_flags_performance_system_info_get(&sys_e[0], &sys_e[1], &sys_e[2], &sys_e[3]);
    tx_block_pool_performance_info_get(&bp_small, &b_c[0], &b_c[1], &b_c[2], &b_c[3]);
    tx_block_pool_performance_system_info_get(&sys_b[0], &sys_b[1], &sys_b[2], &sys_b[3]);
    tx_byte_pool_performance_info_get(&bytes, &y_c[0], &y_c[1], &y_c[2], &y_c[3], &y_c[4], &y_c[5], &y_c[6]);
    tx_byte_pool_performance_system_info_get(&sys_y[0], &sys_y[1], &sys_y[2], &sys_y[3], &sys_y[4], &sys_y[5], &sys_y[6]);
    tx_timer_performance_info_get(&tmr_periodic, &tm_c[0], &tm_c[1], &tm_c[2], &tm_c[3], &tm_c[4]);
    tx_timer_performance_system_info_get(&sys_tm[0], &sys_tm[1], &sys_tm[2], &sys_tm[3], &sys_tm[4]);
    tx_interrupt_control(posture);

    f = fopen("txcheck.trx", "wb");
    fwrite(trace_buf, 1, sizeof trace_buf, f);
    fclose(f);

    f = fopen("txcheck_counters.json", "w");
    fprintf(f, "{\n \"trace_disable_rc\": %u, \"sizeof_ULONG\": %u, \"sizeof_ptr\": %u,\n"
               " \"tick_at_end\": %lu, \"trace_simulated_time_at_end\": %lu,\n \"threads\": [\n",
            rc, (unsigned)sizeof(ULONG), (unsigned)sizeof(void *),
            (unsigned long)clock_at_end, (unsigned long)simtime_at_end);
    for (i = 0; i < ntc; i++) {
        struct thread_ctr *c = &tc[i];
        fprintf(f, "  {\"name\": \"%s\", \"addr\": %lu, \"state\": %u, \"priority\": %u, \"run_count\": %lu, "
                   "\"resumptions\": %lu, \"suspensions\": %lu, \"solicited_preemptions\": %lu, "
                   "\"interrupt_preemptions\": %lu, \"priority_inversions\": %lu, \"time_slices\": %lu, "
                   "\"relinquishes\": %lu, \"timeouts\": %lu, \"wait_aborts\": %lu, \"last_preempted_by\": \"%s\"}%s\n",
                c->name, (unsigned long)((ALIGN_TYPE)c->t & 0xFFFFFFFFu), c->state, c->priority,
                (unsigned long)c->run_count,
                (unsigned long)c->resumptions, (unsigned long)c->suspensions, (unsigned long)c->solicited,
                (unsigned long)c->interrupt, (unsigned long)c->inversions, (unsigned long)c->time_slices,
                (unsigned long)c->relinquishes, (unsigned long)c->timeouts, (unsigned long)c->wait_aborts,
                c->last_preempted_by ? c->last_preempted_by->tx_thread_name : "",
                i + 1 < ntc ? "," : "");
    }
    fprintf(f, " ],\n \"system_thread\": {\"resumptions\": %lu, \"suspensions\": %lu, \"solicited_preemptions\": %lu, "
               "\"interrupt_preemptions\": %lu, \"priority_inversions\": %lu, \"time_slices\": %lu, "
               "\"relinquishes\": %lu, \"timeouts\": %lu, \"wait_aborts\": %lu, \"non_idle_returns\": %lu, "
               "\"idle_returns\": %lu},\n",
            (unsigned long)sys_t[0], (unsigned long)sys_t[1], (unsigned long)sys_t[2], (unsigned long)sys_t[3],
            (unsigned long)sys_t[4], (unsigned long)sys_t[5], (unsigned long)sys_t[6], (unsigned long)sys_t[7],
            (unsigned long)sys_t[8], (unsigned long)sys_t[9], (unsigned long)sys_t[10]);
#define U(x) (unsigned long)(x)
    fprintf(f, " \"queue q_data\": {\"sent\": %lu, \"received\": %lu, \"empty_suspensions\": %lu, "
               "\"full_suspensions\": %lu, \"full_errors\": %lu, \"timeouts\": %lu},\n",
            U(q_c[0]), U(q_c[1]), U(q_c[2]), U(q_c[3]), U(q_c[4]), U(q_c[5]));
    fprintf(f, " \"semaphore sem_count\": {\"puts\": %lu, \"gets\": %lu, \"suspensions\": %lu, \"timeouts\": %lu},\n",
            U(s_c[0]), U(s_c[1]), U(s_c[2]), U(s_c[3]));
    fprintf(f, " \"mutex mtx_pi\": {\"puts\": %lu, \"gets\": %lu, \"suspensions\": %lu, \"timeouts\": %lu, "
               "\"inversions\": %lu, \"inheritances\": %lu},\n",
            U(m_c[0]), U(m_c[1]), U(m_c[2]), U(m_c[3]), U(m_c[4]), U(m_c[5]));
    fprintf(f, " \"event_flags ef_main\": {\"sets\": %lu, \"gets\": %lu, \"suspensions\": %lu, \"timeouts\": %lu},\n",
            U(e_c[0]), U(e_c[1]), U(e_c[2]), U(e_c[3]));
    fprintf(f, " \"block_pool bp_small\": {\"allocates\": %lu, \"releases\": %lu, \"suspensions\": %lu, \"timeouts\": %lu},\n",
            U(b_c[0]), U(b_c[1]), U(b_c[2]), U(b_c[3]));
    fprintf(f, " \"byte_pool bytes\": {\"allocates\": %lu, \"releases\": %lu, \"fragments_searched\": %lu, \"merges\": %lu, "
               "\"splits\": %lu, \"suspensions\": %lu, \"timeouts\": %lu},\n",
            U(y_c[0]), U(y_c[1]), U(y_c[2]), U(y_c[3]), U(y_c[4]), U(y_c[5]), U(y_c[6]));
    fprintf(f, " \"timer tmr_periodic\": {\"activates\": %lu, \"reactivates\": %lu, \"deactivates\": %lu, "
               "\"expirations\": %lu, \"expiration_adjusts\": %lu},\n",
            U(tm_c[0]), U(tm_c[1]), U(tm_c[2]), U(tm_c[3]), U(tm_c[4]));
    fprintf(f, " \"system_queue\": [%lu, %lu, %lu, %lu, %lu, %lu], \"system_semaphore\": [%lu, %lu, %lu, %lu],\n"
               " \"system_mutex\": [%lu, %lu, %lu, %lu, %lu, %lu], \"system_event_flags\": [%lu, %lu, %lu, %lu],\n"
               " \"system_block_pool\": [%lu, %lu, %lu, %lu], \"system_timer\": [%lu, %lu, %lu, %lu, %lu]\n}\n",
            U(sys_q[0]), U(sys_q[1]), U(sys_q[2]), U(sys_q[3]), U(sys_q[4]), U(sys_q[5]),
            U(sys_s[0]), U(sys_s[1]), U(sys_s[2]), U(sys_s[3]),
            U(sys_m[0]), U(sys_m[1]), U(sys_m[2]), U(sys_m[3]), U(sys_m[4]), U(sys_m[5]),
            U(sys_e[0]), U(sys_e[1]), U(sys_e[2]), U(sys_e[3]),
            U(sys_b[0]), U(sys_b[1]), U(sys_b[2]), U(sys_b[3]),
            U(sys_tm[0]), U(sys_tm[1]), U(sys_tm[2]), U(sys_tm[3]), U(sys_tm[4]));
    fclose(f);
    fprintf(stderr, "txcheck: done at tick %lu, %lu events recorded\n", U(clock_at_end), U(simtime_at_end));
    exit(0);
}

int main(void)
{
    tx_kernel_enter();
    return 0;
}
