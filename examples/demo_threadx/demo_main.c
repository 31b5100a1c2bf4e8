/* The `make run` demo: a ThreadX-style application on real POSIX threads, traced into a TXTB
 * (TraceX .trx) buffer by evtrace's recorder. A producer and a consumer talk over a queue, a
 * periodic timer (run by the System Timer Thread) posts a semaphore a worker waits on, and a
 * simulated interrupt thread delivers the timer tick (ISR 0) and sensor samples (ISR 7, sent to
 * the same queue). The application's own events are evtrace user events (evtrace/user.h): printf
 * text per channel, a plotted value channel, the worker's rounds as intervals and its state
 * machine; the report shows them as text, a plot, slices and a state strip. Writes the buffer to
 * the file named on the command line.
 * Usage: demo_threadx OUT.trx */
#include <stdalign.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include "demo_kernel.h"
#include "evtrace/user.h"

#define REGISTRY_ENTRIES 16u
#define EVENT_SLOTS      4096u
#define STACK_SIZE       (1024u * 1024u) /* also enough for sanitizer runtimes */
#define MESSAGES         50u          /* the producer's messages, one every 4 ms */
#define SENTINEL         0xFFFFFFFFu  /* "no more messages" */
#define FROM_SENSOR      0x80000000u  /* message bit: sent by the sensor ISR */

EVT_STATE_MACHINE(worker_sm, "worker state", "waiting,working");

static uint8_t trace_buf[48u + 48u * REGISTRY_ENTRIES + 32u * EVENT_SLOTS];
static alignas(64) uint8_t stacks[4][STACK_SIZE];

static demo_thread th_timer, th_producer, th_consumer, th_worker;
static demo_queue msg_queue;
static demo_semaphore work_sem;
static demo_timer blink_timer;
static atomic_int stop_isr, stop_worker;

static void busy_us(uint32_t us)   /* stands for real work, so running slices have a width */
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do {
        clock_gettime(CLOCK_MONOTONIC, &b);
    } while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < (long)us * 1000L);
}

static void producer(uint32_t arg)
{
    (void)arg;
    for (uint32_t i = 0; i < MESSAGES; i++) {
        uint32_t value = i * 7u + 3u;
        busy_us(50);
        demo_queue_send(&msg_queue, value, DEMO_WAIT_FOREVER);
        evt_printf("producer", "sent message %u: value %u", i, value);
        demo_thread_sleep_ms(4);
    }
    demo_queue_send(&msg_queue, SENTINEL, DEMO_WAIT_FOREVER);
}

static void consumer(uint32_t arg)
{
    (void)arg;
    uint32_t sum = 0, n = 0;
    for (;;) {
        uint32_t m = demo_queue_receive(&msg_queue);
        if (m == SENTINEL) break;
        if (!(m & FROM_SENSOR)) sum += m;
        busy_us(30);
        ++n;
        if (m & FROM_SENSOR) evt_printf("consumer", "got sensor sample %u (%u messages)", m & ~FROM_SENSOR, n);
        else evt_printf("consumer", "got value %u, sum %u (%u messages)", m, sum, n);
        evt_value("sum", sum);
    }
}

static void worker(uint32_t arg)
{
    (void)arg;
    for (uint32_t round = 0;; round++) {
        evt_state(worker_sm, 0);
        demo_semaphore_get(&work_sem);
        if (atomic_load(&stop_worker)) break;
        evt_state(worker_sm, 1);
        evt_interval_begin("work round", round);
        busy_us(300);
        evt_interval_end("work round", round);
        evt_printf("worker", "round %u done", round);
    }
}

static void blink_expire(uint32_t arg)
{
    (void)arg;
    demo_semaphore_put(&work_sem);
}

static void tick_isr(uint32_t arg)
{
    (void)arg;
    demo_timer_isr_tick();
}

static void sensor_isr(uint32_t sample)
{
    int queued = demo_queue_send(&msg_queue, FROM_SENSOR | sample, DEMO_NO_WAIT) == 0;
    evt_printf("sensor", "sample %u %s", sample, queued ? "queued" : "dropped (queue full)");
    evt_value("sensor sample", (int64_t)(sample * 37u % 100u));
}

/* The interrupt source: a 1 ms tick, and a sensor interrupt every 5 ms. */
static void *interrupts(void *arg)
{
    (void)arg;
    struct timespec period = {0, 1000000L};
    for (uint32_t tick = 1; !atomic_load(&stop_isr); tick++) {
        nanosleep(&period, NULL);
        demo_isr_run(0, tick_isr, 0);
        if (tick % 5u == 0) demo_isr_run(7, sensor_isr, tick / 5u);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUT.trx\n", argv[0]);
        return 2;
    }
    if (demo_trace_start(trace_buf, sizeof trace_buf, REGISTRY_ENTRIES) != 0) {
        fprintf(stderr, "demo: trace enable failed\n");
        return 1;
    }

    /* Initialisation (context 0xF0F0F0F0): create the objects and threads. */
    demo_timer_system_start(&th_timer, stacks[0], STACK_SIZE);
    demo_queue_create(&msg_queue, "message queue");
    demo_semaphore_create(&work_sem, "work semaphore", 0);
    demo_timer_create(&blink_timer, "blink timer", 10, 10, blink_expire, 0);
    demo_thread_create(&th_worker, "worker", worker, 0, 15, stacks[1], STACK_SIZE);
    demo_thread_create(&th_consumer, "consumer", consumer, 0, 12, stacks[2], STACK_SIZE);
    demo_thread_create(&th_producer, "producer", producer, 0, 10, stacks[3], STACK_SIZE);
    pthread_t irq;
    if (pthread_create(&irq, NULL, interrupts, NULL) != 0) {
        fprintf(stderr, "demo: cannot start the interrupt thread\n");
        return 1;
    }

    demo_thread_join(&th_producer);
    demo_thread_join(&th_consumer);
    atomic_store(&stop_isr, 1);
    pthread_join(irq, NULL);
    demo_timer_system_stop();
    atomic_store(&stop_worker, 1);
    demo_semaphore_put(&work_sem);
    demo_thread_join(&th_worker);
    evt_tx_trace_disable();

    evt_tx_stats st;
    evt_tx_trace_get_stats(&st);
    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(trace_buf, 1, sizeof trace_buf, f) != sizeof trace_buf || fclose(f) != 0) {
        fprintf(stderr, "demo: cannot write %s\n", argv[1]);
        return 1;
    }
    printf("demo_threadx: 4 threads + 1 interrupt source recorded %llu events (%llu dropped, %llu wraps) "
           "into %s (%zu bytes, %u slots)\n",
           (unsigned long long)st.written, (unsigned long long)st.dropped, (unsigned long long)st.wraps,
           argv[1], sizeof trace_buf, EVENT_SLOTS);
    return st.dropped ? 1 : 0;
}
