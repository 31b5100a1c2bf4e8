/* txprio_app.c - a ThreadX application for checking evtrace's priority track against ThreadX's own
   tx_thread_priority when a thread's priority is changed while it holds an inherited priority.
   Threads (all created after tx_trace_enable):
     ctrl  1  changes low's priority while low is raised by inheritance, reads low's priority
              after each change: tx_thread_priority (what it runs at) and tx_thread_info_get's (the
              user priority), then ends the run
     high  3  sleeps 2 ticks, takes mtx_pi (TX_INHERIT) held by low: low is raised to 3
     low  14  takes mtx_pi, spins 20 ticks holding it, puts it, sleeps
   ctrl, while low holds the inheritance (tx_thread_priority_change.c): low -> 10 (ThreadX keeps 3,
   the inherited priority), low -> 2 (2, more urgent than the inheritance), low -> 12 (3 again: the
   inheritance still holds); after low's put: 12; then low -> 14 (14).
   Each reading is written with _tx_trace_simulated_time (the trace's time source: every event's
   timestamp is its sequence number), so the trace's view at that time can be compared. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tx_api.h"

#define STACK_SIZE 4096
#define TRACE_SIZE (64u * 1024u)
#define REGISTRY   16

extern volatile ULONG _tx_timer_system_clock;
extern ULONG _tx_trace_simulated_time;

static UCHAR trace_buf[TRACE_SIZE];
static UCHAR stacks[3][STACK_SIZE];
static TX_THREAD th_ctrl, th_high, th_low;
static TX_MUTEX mtx_pi;
static volatile ULONG sink;

struct reading { ULONG t; UINT prio, user; const char *what; };
static struct reading readings[16];
static int nread;

static void spin_ticks(ULONG n)
{
    ULONG start = _tx_timer_system_clock;
    while (_tx_timer_system_clock - start < n)
        sink++;
}

static void read_low(const char *what)
{
    CHAR *name; UINT state, prio, pt; ULONG runs, slice; TX_THREAD *n1, *n2;
    UINT posture;
    tx_thread_info_get(&th_low, &name, &state, &runs, &prio, &pt, &slice, &n1, &n2); /* the user priority */
    posture = tx_interrupt_control(TX_INT_DISABLE);
    readings[nread].t = _tx_trace_simulated_time;
    readings[nread].prio = th_low.tx_thread_priority; /* the priority it runs at (tx_api.h's TX_THREAD) */
    tx_interrupt_control(posture);
    readings[nread].user = prio;
    readings[nread].what = what;
    nread++;
}

static void finish(void)
{
    UINT rc = tx_trace_disable();
    FILE *f = fopen("txprio.trx", "wb");
    fwrite(trace_buf, 1, sizeof trace_buf, f);
    fclose(f);
    f = fopen("txprio_readings.json", "w");
    fprintf(f, "{\"trace_disable_rc\": %u, \"thread\": \"low\", \"readings\": [\n", rc);
    for (int i = 0; i < nread; i++)
        fprintf(f, "  {\"t\": %lu, \"priority\": %u, \"user_priority\": %u, \"after\": \"%s\"}%s\n",
                (unsigned long)readings[i].t, readings[i].prio, readings[i].user, readings[i].what, i + 1 < nread ? "," : "");
    fprintf(f, "]}\n");
    fclose(f);
    fprintf(stderr, "txprio: %d readings, %lu events\n", nread, (unsigned long)_tx_trace_simulated_time);
    exit(0);
}

static void ctrl_entry(ULONG arg)
{
    UINT old;
    (void)arg;
    tx_thread_sleep(5);
    tx_thread_priority_change(&th_low, 10, &old);
    read_low("low -> 10 while raised to 3");
    tx_thread_sleep(3);
    tx_thread_priority_change(&th_low, 2, &old);
    read_low("low -> 2 while raised to 3");
    tx_thread_sleep(3);
    tx_thread_priority_change(&th_low, 12, &old);
    read_low("low -> 12 while it holds the inheritance of 3");
    tx_thread_sleep(30);
    read_low("low's put");
    tx_thread_priority_change(&th_low, 14, &old);
    read_low("low -> 14, no inheritance");
    tx_thread_sleep(2);
    finish();
}

static void high_entry(ULONG arg)
{
    (void)arg;
    tx_thread_sleep(2);
    if (tx_mutex_get(&mtx_pi, TX_WAIT_FOREVER) == TX_SUCCESS)
        tx_mutex_put(&mtx_pi);
    for (;;) tx_thread_sleep(100);
}

static void low_entry(ULONG arg)
{
    (void)arg;
    if (tx_mutex_get(&mtx_pi, TX_WAIT_FOREVER) == TX_SUCCESS) {
        spin_ticks(20);
        tx_mutex_put(&mtx_pi);
    }
    for (;;) tx_thread_sleep(100);
}

void tx_application_define(void *first_unused_memory)
{
    (void)first_unused_memory;
    memset(trace_buf, 0x5A, sizeof trace_buf);
    if (tx_trace_enable(trace_buf, sizeof trace_buf, REGISTRY) != TX_SUCCESS) exit(2);
    tx_mutex_create(&mtx_pi, "mtx_pi", TX_INHERIT);
    tx_thread_create(&th_low, "low", low_entry, 0, stacks[0], STACK_SIZE, 14, 14, TX_NO_TIME_SLICE, TX_AUTO_START);
    tx_thread_create(&th_high, "high", high_entry, 0, stacks[1], STACK_SIZE, 3, 3, TX_NO_TIME_SLICE, TX_AUTO_START);
    tx_thread_create(&th_ctrl, "ctrl", ctrl_entry, 0, stacks[2], STACK_SIZE, 1, 1, TX_NO_TIME_SLICE, TX_AUTO_START);
}

int main(void)
{
    tx_kernel_enter();
    return 0;
}
